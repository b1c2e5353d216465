"""Reads of a finished game that a player meets after a fleet has changed: how each wreck fell
(`nova android`, the lab), one android of a peer match's record (`nova android` / MCP get_android
on a file kept under --disclosure recording) and the broadcasts a player's world shows (`nova
world`, MCP get_world). The game is built with the engine (no script runs), so every event is
known; the match record is the one a peer match writes (match.result.record_of)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from nova_testing import shown

from nova_tools import api, engine, store
from nova_tools.engine import Scenario
from nova_tools.match.result import record_of
from nova_tools.rules import Rules
from nova_tools.sandbox.build import SANDBOX_BUILD

# alice: a keeper on her charger, a sibling it dismantles in the last round, one that dismantles
# itself, one that names itself as the target (refused: the untargeted form is the self-dismantle)
# and one that runs out of health; bob: a broadcaster two tiles from alice's charger
KEEPER, SIBLING, QUITTER, CONFUSED, FRAIL, BROADCASTER = (f"android-{n}" for n in range(1, 7))
ROUNDS = 3
KEEPER_MEMORY = "ore at 3,3; bob west"


def decide(state, android):
    if android.id == KEEPER and state.round == ROUNDS:
        return engine.Decision(value={"type": "android.dismantle", "targetAndroidId": SIBLING})
    if android.id == QUITTER and state.round == 2:
        return engine.Decision(value={"type": "android.dismantle"})
    if android.id == CONFUSED and state.round == ROUNDS:
        return engine.Decision(value={"type": "android.dismantle", "targetAndroidId": CONFUSED})
    if android.id == BROADCASTER:
        return engine.Decision(
            value={"type": "android.broadcast", "content": f"metal at 4,4 (round {state.round})"}
        )
    return engine.Decision(
        value={"type": "android.wait", "recording": f"{android.owner} saw round {state.round}"}
    )


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> store.Game:
    world = Scenario(Rules(), width=8, height=8)
    world.player("alice", charger_at=(0, 0))
    world.player("bob", charger_at=(7, 7))
    world.script("alice")
    world.script("bob")
    assert world.android("alice", (0, 0), memory=KEEPER_MEMORY) == KEEPER
    assert world.android("alice", (1, 0)) == SIBLING
    assert world.android("alice", (0, 1)) == QUITTER
    assert world.android("alice", (1, 1)) == CONFUSED
    assert (
        world.android("alice", (2, 0), health=0.1) == FRAIL
    )  # decays to nothing at the end of round 1
    assert world.android("bob", (2, 2)) == BROADCASTER
    world.building("depot", "alice", (3, 0), complete=False, invested={})  # a site far from done
    path = tmp_path_factory.mktemp("fleet") / "game.json"
    game = store.new_game(path, Rules(), 0, SANDBOX_BUILD, initial=world.build())
    for _ in range(ROUNDS):
        game.record(engine.play_round(game.state, decide))
    store.save(game)
    return store.load(path)


def test_each_wreck_says_how_it_fell_and_an_active_android_says_nothing(game):
    assert api.android_fall(game, QUITTER) == "dismantled itself in round 2"
    assert api.android_fall(game, FRAIL) == "destroyed at the end of round 1: health ran out"
    # the sibling's end is in the keeper's turn, not in its own events: no story rather than a wrong one
    assert not game.state.androids[SIBLING].active and api.android_fall(game, SIBLING) is None
    # the keeper's last turn was an accepted dismantle of another android; naming oneself is refused
    assert game.state.androids[KEEPER].active and api.android_fall(game, KEEPER) is None
    confused = shown(api.events_page(game, android=CONFUSED, offset=None, limit=1))[0]
    assert (
        confused["action"] == {"type": "android.dismantle", "targetAndroidId": CONFUSED}
        and confused["outcome"] != "accepted"
    )
    assert game.state.androids[CONFUSED].active and api.android_fall(game, CONFUSED) is None


def test_a_wreck_from_a_log_written_before_causes_were_kept_still_says_when_it_fell(game):
    # files written before round ends named their causes (engine.replay.LATER_ROUND_END_FIELDS)
    older = store.load(game.path)
    older.events = [
        replace(e, causes=None) if isinstance(e, engine.RoundEnded) else e for e in older.events
    ]
    assert api.android_fall(older, FRAIL) == "destroyed at the end of round 1"


def test_a_players_world_shows_the_broadcasts_she_can_see_with_who_where_and_when(game):
    messages = api.player_world(game, "alice").messages
    assert [
        (m.round, m.owner_id, m.android_id, (m.position.x, m.position.y), m.content)
        for m in messages
    ] == [
        (r, "bob", BROADCASTER, (2, 2), f"metal at 4,4 (round {r})") for r in range(1, ROUNDS + 1)
    ]


@pytest.fixture(scope="module")
def alices_record(game, tmp_path_factory):
    """The file a peer match keeps for alice under --disclosure recording."""
    record = record_of(game, "alice", {"players": ["alice", "bob"], "rounds": ROUNDS})
    record.path = tmp_path_factory.mktemp("record") / "match.json"
    store.save_record(record)
    return record.path


def test_a_match_record_shows_a_player_her_own_androids_recording(alices_record):
    keeper = api.android_report(alices_record, KEEPER, "alice")
    assert isinstance(keeper, api.RecordedAndroid)
    assert (keeper.id, keeper.owner_id, keeper.active, keeper.recording) == (
        KEEPER,
        "alice",
        True,
        f"alice saw round {ROUNDS - 1}",
    )
    assert api.android_report(alices_record, QUITTER) == api.android_report(
        alices_record, QUITTER, "alice"
    )  # no player: the file's own
    assert not api.android_report(alices_record, QUITTER).active


def test_a_match_record_refuses_other_androids_and_other_readers_and_names_hers(
    alices_record, game
):
    yours = ", ".join([KEEPER, SIBLING, QUITTER, CONFUSED, FRAIL])
    with pytest.raises(api.USER_ERRORS) as refused:
        api.android_report(alices_record, BROADCASTER, "alice")  # bob's: the record never held it
    assert str(refused.value) == (
        f"{alices_record} is a match record that keeps only your own androids' recordings, and {BROADCASTER!r} is not one of them (yours: {yours})"
    )
    with pytest.raises(api.USER_ERRORS) as refused:
        api.android_report(
            alices_record, KEEPER, "bob"
        )  # bob reading alice's file is refused her androids
    assert str(refused.value).endswith(
        f"and {KEEPER!r} is not one of them (yours: none)"
    )  # hers are not called his
    bobs = record_of(game, "bob", {"players": ["alice", "bob"], "rounds": ROUNDS})
    bobs.androids = []  # a player who launched nothing
    with pytest.raises(api.USER_ERRORS, match=r"\(yours: none\)$"):
        api.android_report(bobs, KEEPER, "bob")


def test_the_whole_map_of_a_round_shows_what_her_sight_does_not(game):
    """MCP get_world whole_map / the lab's replay view: every tile and building of the recorded
    round, where her own view of it stops at her sight (bob's charger is across the board)."""
    fogged, whole = (
        api.player_world(game, "alice", round=2),
        api.player_world(game, "alice", round=2, whole=True),
    )
    bobs_charger = [
        (b.owner_id, b.type, (b.position.x, b.position.y))
        for b in whole.buildings
        if b.owner_id == "bob"
    ]
    assert bobs_charger == [("bob", "charger", (7, 7))] and not [
        b for b in fogged.buildings if b.owner_id == "bob"
    ]
    assert len(whole.tiles) == 8 * 8 > len(fogged.tiles)
    assert whole.yours == fogged.yours and whole.round == fogged.round == 2


def test_her_world_counts_what_she_owns_and_only_that(game):
    """`nova world` / get_world's "yours": her slots, her androids with the length of their own
    notes (not of the [Redacted] others read), her site with what it still owes, her script only."""
    yours = api.player_world(game, "alice").yours
    charger_slots = Rules().building("charger").android_capacity
    assert (yours.capacity, yours.active_androids) == (
        charger_slots,
        2,
    )  # her charger (the site adds none); the keeper and the confused one are left
    assert [s.id for s in yours.scripts] == [
        s.id for s in game.state.scripts.values() if s.owner == "alice"
    ] and len(yours.scripts) == 1
    lengths = {a.id: (a.memory_length, a.recording_length) for a in yours.androids}
    assert lengths[KEEPER] == (len(KEEPER_MEMORY), len(f"alice saw round {ROUNDS - 1}"))
    assert set(lengths) == {KEEPER, SIBLING, QUITTER, CONFUSED, FRAIL}
    assert sorted((b.type, b.complete, b.owner_id) for b in yours.buildings) == [
        ("charger", True, "alice"),
        ("depot", False, "alice"),
    ]
    (site,) = [b for b in yours.buildings if not b.complete]
    assert site.owed == {
        m: n for m, n in Rules().building("depot").cost.items() if n
    }  # all of its cost


def test_one_android_is_read_by_its_owner_and_refused_to_anyone_else(game):
    """`nova android` / MCP get_android on a game file: her own android whole (memory included),
    another player's refused rather than redacted, an unknown reader or android one sentence."""
    keeper = api.android_report(game, KEEPER, "alice")
    assert (keeper.id, keeper.owner_id, keeper.memory) == (KEEPER, "alice", KEEPER_MEMORY)
    assert (
        api.android_report(game, KEEPER) == keeper
    )  # no player: the game's own reader (`nova android`)
    with pytest.raises(api.USER_ERRORS) as refused:
        api.android_report(game, BROADCASTER, "alice")
    assert (
        str(refused.value)
        == f"{BROADCASTER} belongs to another player; you can only read your own androids"
    )
    with pytest.raises(api.USER_ERRORS, match="mallory"):
        api.android_report(game, KEEPER, "mallory")
    with pytest.raises(api.USER_ERRORS) as unknown:
        api.android_report(game, "android-99", "alice")
    assert (
        str(unknown.value)
        == f"there is no android 'android-99' in {game.path} (androids: {', '.join(f'android-{n}' for n in range(1, 7))})"
    )


def test_an_unknown_android_names_at_most_ten_of_the_games_androids(tmp_path):
    world = Scenario(Rules(), width=8, height=8)
    world.player("alice", charger_at=(0, 0))
    for x in range(8):
        world.android("alice", (x, 3))
        world.android("alice", (x, 4))
    crowded = store.new_game(
        tmp_path / "crowded.json", Rules(), 0, SANDBOX_BUILD, initial=world.build()
    )
    with pytest.raises(
        api.USER_ERRORS, match=r"\(androids: android-1, android-2, .*, android-10\)$"
    ):
        api.android_report(crowded, "android-99")
    empty = store.new_game(tmp_path / "empty.json", Rules(), 0, SANDBOX_BUILD)
    with pytest.raises(api.USER_ERRORS, match=r"\(androids: none yet\)$"):
        api.android_report(empty, "android-1")


def test_a_match_records_status_is_the_final_score_with_the_matchs_account(alices_record, game):
    """`nova status` on a file kept under --disclosure recording: the scores as the match ended."""
    kept = api.status(alices_record)
    assert kept.round == ROUNDS and kept.match == {"players": ["alice", "bob"], "rounds": ROUNDS}
    assert [(p.id, p.score, p.active_androids, p.wrecks) for p in kept.players] == [
        (p.id, p.score, p.active_androids, p.wrecks) for p in api.status(game).players
    ]


def test_a_games_status_names_its_last_round_and_a_peer_matchs_account(game, tmp_path):
    """`nova status --json`: the round the game ends after (finalTurn: none by default), and for
    the game file of a peer match kept under --disclosure full, the match's account beside the scores."""
    plain = api.status(game)
    assert (plain.round, plain.final_turn, plain.match) == (ROUNDS, None, None)
    rules = Rules.model_validate({"match": {"finalRound": 40}})
    assert (
        api.status(store.new_game(tmp_path / "forty.json", rules, 0, SANDBOX_BUILD)).final_turn
        == 40
    )
    matched = store.load(game.path)
    matched.match = {
        "players": ["alice", "bob"],
        "rounds": ROUNDS,
    }  # what match.result keeps in the file
    assert api.status(matched).match == {"players": ["alice", "bob"], "rounds": ROUNDS}
