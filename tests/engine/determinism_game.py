"""A small whole game, used by the determinism test: run in a fresh process, it prints the
canonical JSON of its event log and the final state hash.

The game is a generated world (seeded), two players, and androids whose choices come from the
per-turn seed the engine hands a script (``turn_seed``), so the action stream is a function of
the seed alone — the way a sandboxed script's Math.random is.

    python determinism_game.py SEED ROUNDS
"""

from __future__ import annotations

import json
import sys

from nova_tools.engine import (
    Decision,
    Event,
    add_script,
    from_json,
    generate,
    join,
    launch,
    play_round,
    replay,
    state_hash,
    to_json,
    turn_seed,
)
from nova_tools.engine.prng import SplitMix64
from nova_tools.rules import BUILDING_TYPES, resolve

DIRECTIONS = ("north", "south", "east", "west")


def decide(state, android) -> Decision:
    rng = SplitMix64(turn_seed(state, android.id))
    roll = rng.below(12)
    if roll < 4:
        action = {"type": "android.move", "direction": DIRECTIONS[rng.below(4)]}
    elif roll == 4:
        action = {"type": "android.collect"}
    elif roll == 5:
        action = {"type": "android.charge"}
    elif roll == 6:
        kind = BUILDING_TYPES[rng.below(len(BUILDING_TYPES))]
        action = {
            "type": "android.start-construction",
            "buildingType": kind,
            "resources": {"metal": min(android.cargo.get("metal", 0), 6)},
        }
    elif roll == 7:
        action = {"type": "android.continue-construction"}
    elif roll == 8:
        action = {"type": "android.launch", "scriptId": android.script}
    elif roll == 9:
        action = {
            "type": "android.broadcast",
            "content": f"{android.id} at {android.x},{android.y} health {android.health}",
        }
    elif roll == 10:
        action = {"type": "android.salvage"}
    else:
        action = {"type": "android.wait"}
    action["memory"] = f"{state.round}:{rng.next_u64()}"
    return Decision(value=action, ticks=rng.below(3))


def play(seed: int, rounds: int) -> tuple[list[Event], str, dict]:
    rules = resolve({"android": {"failedTurnHealthPenalty": 1}})  # a forgiving host: longer lives
    state = generate(rules, seed)
    initial = to_json(state)
    log: list[Event] = []
    for player in ("amber", "basalt"):
        log.append(join(state, player))
        uploaded = add_script(state, player, "starter")
        log.append(uploaded)
        script = uploaded.script
        for _ in range(2):
            log.append(launch(state, player, script))
    for _ in range(rounds):
        log.extend(play_round(state, decide))
    assert state_hash(replay(from_json(initial, rules), log)) == state_hash(state)
    return log, state_hash(state), initial


def canonical(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def main() -> None:
    seed, rounds = int(sys.argv[1]), int(sys.argv[2])
    log, digest, _ = play(seed, rounds)
    sys.stdout.write(canonical({"log": [e.to_json() for e in log], "hash": digest}))


if __name__ == "__main__":
    main()
