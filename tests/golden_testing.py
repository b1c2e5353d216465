"""The golden record: for a handful of seeds and the shipped androids, the state hash after every
round, in the style of python-chess's perft files ("depth 3 -> 97862 positions"). A change that
shifts a game (the engine, the sandbox, a house android, the rules' defaults) changes a hash, and
the test names the first round where it does.

    .venv/bin/python tests/golden_testing.py     # regenerate tests/golden/games.json (make golden)

Regenerate only when a game is meant to change (a rule, the starter's play, a sandbox build that
spends fuel differently), and say in the commit which change moved which games. The record names
the sandbox build it was made with.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORD = HERE / "golden" / "games.json"
ROUNDS = 60
HASH_CHARS = 16  # of the sha256 hex digest: enough to tell games apart, a small file


@dataclass(frozen=True)
class Case:
    """One game: two house androids on a seed, ``rounds`` rounds, on the arena's fair map."""

    seed: int
    seats: tuple[str, str]
    rounds: int = ROUNDS

    @property
    def name(self) -> str:
        return f"seed {self.seed}, {self.seats[0]} vs {self.seats[1]}"


def cases() -> list[Case]:
    """The starter against itself on three seeds, and every other house android against the
    starter in both seat orders on one seed each."""
    from nova_tools.starter.house import ROSTER

    starter = ROSTER[0].ref
    found = [Case(seed, (starter, starter)) for seed in (1, 2, 7)]
    for android in ROSTER[1:]:
        found += [Case(3, (android.ref, starter)), Case(4, (starter, android.ref))]
    return found


def hashes(case: Case) -> list[str]:
    """The state hash after setup, then after each round (``HASH_CHARS`` characters each)."""
    from nova_tools import api
    from nova_tools.arena import arena_rules
    from nova_tools.play import GameSession, GameSpec, Seat
    from nova_tools.starter.house import house

    rules, rounds = arena_rules(None, case.rounds)
    seats = []
    for player, ref in zip(("p1", "p2"), case.seats, strict=True):
        android = house(ref)
        compiled = api.compile_upload(files=android.files(), entry_name=android.entry)
        seats.append(Seat(player, compiled, android.name))
    session = GameSession.start(GameSpec(rules, case.seed, tuple(seats), rounds), keep_events=False)
    found = [session.state_hash()[:HASH_CHARS]]
    for _ in range(rounds):
        session.play_round()
        found.append(session.state_hash()[:HASH_CHARS])
    return found


def sandbox_build() -> dict[str, str]:
    from nova_tools.play import sandbox_build

    return sandbox_build()


def write() -> None:
    games = [
        {"seed": c.seed, "seats": list(c.seats), "rounds": c.rounds, "hashes": hashes(c)}
        for c in cases()
    ]
    record = {
        "about": "state hash (sha256, first 16 hex digits) after setup and after every round; "
        "regenerate with `make golden` (tests/golden_testing.py)",
        "sandbox": sandbox_build(),
        "games": games,
    }
    RECORD.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RECORD.relative_to(HERE.parent)}: {len(games)} games of {ROUNDS} rounds")


def first_difference(expected: list[str], got: list[str]) -> str | None:
    """Where two records of one game part, in words (None when they agree)."""
    for index, (want, have) in enumerate(zip(expected, got, strict=False)):
        if want != have:
            where = "after setup" if index == 0 else f"in round {index}"
            return f"the game first differs {where} (state hash {have}, recorded {want})"
    if len(expected) != len(got):
        return f"the game has {len(got) - 1} rounds, the record {len(expected) - 1}"
    return None


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    write()
