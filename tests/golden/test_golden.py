"""The golden record replayed: each recorded game, played again, has the recorded state hash
after setup and after every round. A failure names the game and the first round that differs;
if the change was meant, regenerate the record with `make golden` (CONTRIBUTING.md says when)."""

from __future__ import annotations

import json

import pytest
from golden_testing import RECORD, Case, cases, first_difference, hashes

RECORDED = json.loads(RECORD.read_text(encoding="utf-8"))["games"]


def test_the_record_holds_every_case_the_shipped_androids_make() -> None:
    listed = [(g["seed"], tuple(g["seats"]), g["rounds"]) for g in RECORDED]
    wanted = [(c.seed, c.seats, c.rounds) for c in cases()]
    assert listed == wanted, (
        "the golden record does not hold the games the house roster makes (an android was added "
        "or renamed): run `make golden` and commit tests/golden/games.json"
    )


@pytest.mark.parametrize(
    "game", RECORDED, ids=[f"seed{g['seed']}-{'-'.join(g['seats'])}" for g in RECORDED]
)
def test_a_recorded_game_replays_round_for_round(game: dict) -> None:
    case = Case(game["seed"], tuple(game["seats"]), game["rounds"])
    problem = first_difference(game["hashes"], hashes(case))
    assert problem is None, (
        f"{case.name}: {problem}. If the change was meant, run `make golden` and say why in the commit."
    )


def test_a_difference_is_named_by_its_first_round() -> None:
    recorded = ["a0", "a1", "a2", "a3"]
    assert first_difference(recorded, recorded) is None
    assert first_difference(recorded, ["a0", "a1", "b2", "b3"]) == (
        "the game first differs in round 2 (state hash b2, recorded a2)"
    )
    assert first_difference(recorded, ["b0", "a1", "a2", "a3"]).startswith(
        "the game first differs after setup"
    )
    assert first_difference(recorded, recorded[:3]) == "the game has 2 rounds, the record 3"
