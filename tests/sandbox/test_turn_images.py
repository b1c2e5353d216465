"""Turns start from memory images (images.py) and get the world key by key (globals.py). Neither
may show: a script sees exactly the globals it is given, and a turn comes out the same, to the
tick and the unit of wasm fuel, whatever the process ran before it and whatever it had cached."""

from __future__ import annotations

import json

import pytest
from sandbox_cases import NORMAL_BOT, RULES, WORLD, body

from nova_tools.sandbox import Budgets, GameGlobals, Sandbox, TurnGlobals, TurnKind
from nova_tools.sandbox.bytecode import CACHE, cache_key
from nova_tools.sandbox.guest import SCRATCH_BYTES, SCRATCH_PAYLOAD, Guest, encode_string, restore
from nova_tools.sandbox.images import BUNDLES, GAMES, game_key
from nova_tools.sandbox.wasi import TurnState
from nova_tools.sandbox.zeroing import SAMPLE_EVERY

GAME = GameGlobals(json.dumps(RULES), 40)
# Keys a JSON object may hold that JavaScript treats specially, and text outside ASCII and the BMP.
ODD_WORLD = {
    "round": 7,
    "width": 3,
    "__proto__": {"polluted": True},
    "tiles": [
        {"position": {"x": 0, "y": 0}, "note": 'caf\u00e9 \u2603 \U0001f680 \ud800 "quoted"'}
    ],
    "messages": [{"content": "x" * 3000}],
    "constructor": None,
    "": [1.5, -0.0, 1e300, False],
}
SEES_ALL = body(
    "return JSON.stringify({ androidId, turn, world, rules, finalTurn: finalTurn === undefined ? null : finalTurn,"
    " keys: Object.keys(world), globals: Object.keys(globalThis) });"
)


def _turn(
    world: dict | None = None, game: GameGlobals = GAME, android: str = "and-1", turn: int = 3
) -> TurnGlobals:
    return TurnGlobals.of(game, android, turn, WORLD if world is None else world)


def test_a_script_sees_exactly_the_globals_it_is_given(sandbox):
    result = sandbox.run_turn(
        SEES_ALL, _turn(ODD_WORLD, android="andr\u00efd-\U0001f916"), Budgets(), 1
    )

    seen = json.loads(result.value)
    assert seen["world"] == ODD_WORLD and seen["keys"] == list(ODD_WORLD)
    assert (seen["androidId"], seen["turn"], seen["rules"], seen["finalTurn"]) == (
        "andr\u00efd-\U0001f916",
        3,
        RULES,
        40,
    )
    assert seen["globals"] == ["console", "androidId", "world", "rules", "turn", "finalTurn"]


def test_globals_given_as_one_json_text_are_the_same_turn():
    text = json.dumps(
        {"androidId": "and-1", "turn": 3, "world": WORLD, "rules": RULES, "finalTurn": 40}
    )
    game = GameGlobals(json.dumps(RULES, separators=(",", ":")), 40)  # the same text as from_json's

    from_text = Sandbox().run_turn(NORMAL_BOT, text, Budgets(), 5)
    assert from_text.ok and from_text == Sandbox().run_turn(
        NORMAL_BOT, _turn(game=game), Budgets(), 5
    )
    with pytest.raises(ValueError, match="must be a JSON object"):
        Sandbox().run_turn(NORMAL_BOT, "[1, 2]", Budgets(), 5)


def test_a_world_key_read_once_is_a_plain_data_property_from_then_on(sandbox):
    result = sandbox.run_turn(
        body(
            "const before = Object.getOwnPropertyDescriptor(world, 'tiles');"
            "const tiles = world.tiles; const after = Object.getOwnPropertyDescriptor(world, 'tiles');"
            "world.androids = 'mine'; delete world.width;"
            "return { same: tiles === world.tiles, lazy: typeof before.get, data: after.writable && after.enumerable"
            " && after.configurable && after.value === tiles, set: world.androids, keys: Object.keys(world) };"
        ),
        _turn(),
        Budgets(),
        1,
    )

    assert result.value == {
        "same": True,
        "lazy": "function",
        "data": True,
        "set": "mine",
        "keys": ["height", "tiles", "androids"],
    }


def test_a_frozen_world_still_reads_and_refuses_writes_like_a_frozen_object(sandbox):
    result = sandbox.run_turn(
        body(
            "Object.freeze(world); const n = world.tiles.length;"
            "try { world.tiles = []; return 'written'; } catch (e) { return [n, world.tiles.length, e.name]; }"
        ),
        _turn(),
        Budgets(),
        1,
    )

    assert result.value == [len(WORLD["tiles"]), len(WORLD["tiles"]), "TypeError"]


def test_a_world_of_any_size_reaches_the_script_whole_around_the_hand_over_buffer(sandbox):
    # The globals are handed over in a fixed 64 KiB buffer when they fit, in a fresh allocation
    # when they do not: worlds whose encoded text is a few bytes either side of the limit.
    limit = SCRATCH_BYTES - SCRATCH_PAYLOAD
    version = sandbox._snapshot.object_version
    padded = {
        len(encode_string(_turn({**WORLD, "pad": "p" * n}).handover().text, version)) - limit: n
        for n in range(limit - 11_100, limit - 10_900)
    }
    sizes = (-1, 0, 1, SCRATCH_PAYLOAD, 2 * SCRATCH_PAYLOAD, 2 * SCRATCH_PAYLOAD + 1)
    assert all(over in padded for over in sizes), sorted(padded)
    reads = body(
        "return [world.pad.length, world.tiles.length, world.androids[0].id, androidId, turn];"
    )

    for over in sizes:
        result = sandbox.run_turn(reads, _turn({**WORLD, "pad": "p" * padded[over]}), Budgets(), 1)
        assert result.value == [padded[over], len(WORLD["tiles"]), "and-1", "and-1", 3], (
            over,
            result.error,
        )


def test_a_script_that_never_reads_the_world_pays_nothing_for_its_size(sandbox):
    small, big = (
        {"tiles": []},
        {"tiles": [{"position": {"x": i % 48, "y": i // 48}} for i in range(48 * 48)]},
    )
    tiny = "export default () => ({ type: 'android.wait' });"
    reader = body("return { type: 'android.wait', recording: String(world.tiles.length) };")

    quiet = [sandbox.run_turn(tiny, _turn(world), Budgets(), 1) for world in (small, big)]
    reading = [sandbox.run_turn(reader, _turn(world), Budgets(), 1) for world in (small, big)]

    # The world only shifts where the allocator finds room for the script's own objects.
    assert abs(quiet[1].wasm_fuel - quiet[0].wasm_fuel) < 1_000
    assert reading[1].wasm_fuel > reading[0].wasm_fuel + 1_000_000  # parsing 2,304 tiles is charged
    assert reading[1].value["recording"] == "2304"


def test_rules_are_installed_once_per_game_and_a_turn_cannot_change_them_for_the_next(sandbox):
    game = GameGlobals(json.dumps({**RULES, "marker": "fresh"}), None)
    builds = GAMES.builds
    scribble = body("const before = rules.marker; rules.marker = 'scribbled'; return before;")

    seen = [
        sandbox.run_turn(scribble, _turn(game=game, turn=n), Budgets(), n).value
        for n in range(1, 6)
    ]

    assert seen == ["fresh"] * 5
    assert GAMES.builds == builds + 1


def _outcome(result) -> tuple:
    return result.value, result.error, result.kind, result.ticks, result.wasm_fuel, result.logs


# Turns of two games and four scripts, in an order that makes the instance grow its memory (and be
# replaced), trap, run out of ticks and switch images back and forth.
OTHER_GAME = GameGlobals(json.dumps({"script": {"fuel": 50}, "world": {"width": 4}}), None)
SEQUENCE = [
    (NORMAL_BOT, GAME, Budgets()),
    (
        body(
            "const keep = []; for (let i = 0; i < 2e5; i++) keep.push({ i }); return keep.length;"
        ),
        GAME,
        Budgets(),
    ),
    (body("return [Math.random(), rules.world.width, world.tiles.length];"), OTHER_GAME, Budgets()),
    (body("while (true) {}"), GAME, Budgets(fuel=30)),
    (NORMAL_BOT, OTHER_GAME, Budgets()),
    (body("const a = Array(1e5).fill(1); for (;;) a.join(',');"), GAME, Budgets(fuel=0)),
    (NORMAL_BOT, GAME, Budgets()),
    ("const f = (n) => f(n + 1) + 1;\nexport default () => f(0);", OTHER_GAME, Budgets()),
    (body("return [Math.random(), rules.world.width];"), OTHER_GAME, Budgets()),
]


def test_a_turn_comes_out_the_same_whatever_ran_before_it_and_whatever_was_cached():
    sandbox = Sandbox()
    in_sequence = [
        _outcome(sandbox.run_turn(source, _turn(game=game), budgets, 9))
        for source, game, budgets in SEQUENCE
    ]

    alone = []
    for source, game, budgets in SEQUENCE:
        CACHE.clear()
        GAMES.clear()
        BUNDLES.clear()
        alone.append(_outcome(Sandbox().run_turn(source, _turn(game=game), budgets, 9)))

    assert in_sequence == alone
    assert [o[2] for o in alone] == [
        TurnKind.OK,
        TurnKind.OK,
        TurnKind.OK,
        TurnKind.FUEL,
        TurnKind.OK,
        TurnKind.FUEL,
        TurnKind.OK,
        TurnKind.STACK,
        TurnKind.OK,
    ]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "plain",
        "caf\u00e9 \u00ff",
        "snow \u2603",
        "rocket \U0001f680",
        "lone \ud800",
        "x" * 200,
        "\u00e9" * 70_000,
    ],
)
def test_a_string_is_handed_over_in_quickjs_own_binary_format(sandbox, text):
    guest, snap = sandbox._building(sandbox._snapshot.image), sandbox._snapshot
    ours = encode_string(text, snap.object_version)

    value = guest.call("JS_ReadObject", snap.context, guest.alloc(ours), len(ours), 0)
    written = guest.call("JS_WriteObject", snap.context, snap.scratch, value, 0)
    theirs = guest.read(written, int.from_bytes(guest.read(snap.scratch, 4), "little"))
    sandbox._guest = None  # its memory grew: the next turn gets a new one

    assert value >> 32 == -7  # a string
    assert ours[0] == theirs[0] and ours[5:] == theirs[5:]  # all but the checksum, which ours skips


def _same_as_a_fresh_instance(sandbox, image) -> None:
    """Restore ``image`` in the used guest and in a new one: every byte and the stack pointer."""
    used = sandbox._guest
    restore(used, image)
    fresh = Guest(sandbox._engine, sandbox._pre, TurnState())
    restore(fresh, image)

    assert fresh.fresh is False and used.read(0, image.size) == fresh.read(
        0, fresh.memory.data_len(fresh.store)
    )
    assert (
        used.stack_pointer().value(used.store)
        == fresh.stack_pointer().value(fresh.store)
        == image.stack_pointer
    )


# Deep recursion dirties the C stack, the allocations the free heap; neither grows memory.
DIRTY = body(
    "const f = (n) => n ? [f(n - 1)] : []; const keep = [];"
    " for (let i = 0; i < 5000; i++) keep.push({ i, s: 'x' + i }); return f(300).length;"
)


def _dirty_image(sandbox):
    memory = Budgets().memory
    key = (game_key(GAME, memory), cache_key(DIRTY.encode(), memory), Budgets().fuel)
    return BUNDLES.get(key).image


def test_restoring_an_image_puts_back_every_byte_a_turn_changed(sandbox):
    assert sandbox.run_turn(DIRTY, _turn(), Budgets(), 1).ok
    image = _dirty_image(sandbox)
    used = sandbox._guest
    assert used is not None and not used.fresh and used.pages() == image.pages
    # the turn wrote into chunks of zeros that a restore hands back to the kernel (zeroing.py)
    discarded = image.clearing.plan[0]
    assert any(used.read(at, length) != bytes(length) for at, length in discarded)

    _same_as_a_fresh_instance(sandbox, image)


def test_a_restore_learns_which_zeros_turns_write_and_still_puts_back_every_byte(sandbox):
    # After SAMPLE_EVERY restores the chunks the turns write are cleared by hand, the others
    # still handed back: the memory is the image byte for byte either way.
    for _ in range(2 * SAMPLE_EVERY):
        assert sandbox.run_turn(DIRTY, _turn(), Budgets(), 1).ok
    clearing = _dirty_image(sandbox).clearing
    assert 0 < sum(clearing.touched) < len(clearing.chunks)
    assert clearing.plan[0] and clearing.plan[1]

    _same_as_a_fresh_instance(sandbox, _dirty_image(sandbox))
