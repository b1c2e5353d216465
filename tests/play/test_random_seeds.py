"""``Math.random`` is seeded per game, android and round (DESIGN section 3): asked directly, its
values differ from round to round and from android to android, and are the same on every replay
of the same seed; another game seed gives other values."""

from __future__ import annotations

from nova_tools import api
from nova_tools.arena import arena_rules
from nova_tools.play import GameSession, GameSpec, Seat

DRAWS = """
const draw: AndroidTurn = () => ({ type: 'android.wait', recording: String(Math.random()) + ' ' + String(Math.random()) });
export default draw;
"""
ROUNDS = 4


def draws(seed: int) -> dict[str, list[str]]:
    """What each android's Math.random gave, round by round."""
    script = api.compile_upload(files={"main.ts": DRAWS}, entry_name="main.ts")
    rules, _ = arena_rules(None, ROUNDS)
    seats = (Seat("ann", script), Seat("bob", script))
    session = GameSession.start(GameSpec(rules, seed, seats, ROUNDS), keep_events=False)
    seen: dict[str, list[str]] = {a: [] for a in session.state.androids}
    for _ in range(ROUNDS):
        session.play_round()
        for android_id, android in session.state.androids.items():
            seen[android_id].append(android.recording)
    return seen


def test_math_random_changes_every_round_and_android_and_replays_the_same() -> None:
    first = draws(5)
    assert len(first) == 2
    for android_id, values in first.items():
        assert all(len(v.split()) == 2 for v in values), values
        assert len(set(values)) == ROUNDS, (
            f"{android_id} drew the same values in two rounds: {values}"
        )
    one, other = first.values()
    assert not set(one) & set(other), "two androids drew the same values in a round"
    assert draws(5) == first  # the same seed: the same values, round for round
    assert not set(draws(6)[next(iter(first))]) & set(one)  # another seed: other values
