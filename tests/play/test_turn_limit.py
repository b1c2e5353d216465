"""The process runs at most ``limit_turns`` turns at once: a turn beyond them waits for a sandbox
(bounded) and is refused in one sentence when none comes free; a sandbox given back lets go of a
large heap, and the turn after it comes out the same."""

from __future__ import annotations

import threading

import pytest

from nova_tools.play import TurnsBusy, limit_turns, sandbox_lease, turns_limit
from nova_tools.play.runner import KEEP_MEMORY_BYTES, TURN_WAIT_S
from nova_tools.sandbox import Budgets

BIG = (
    "export default function () { const b = new Uint8Array(200 * 1024 * 1024); b.fill(7);"
    " return { type: 'android.wait', recording: String(b[12345] + Math.random()) }; }"
)
GLOBALS = '{"androidId":"a-1","world":{},"rules":{},"turn":3,"finalTurn":null}'
BUDGETS = Budgets(fuel=200, memory=256 * 1024 * 1024, timeout_ms=60_000)


@pytest.fixture
def one_turn_at_a_time():
    before = turns_limit()
    limit_turns(1, wait_s=0.5)
    try:
        yield
    finally:
        limit_turns(before, TURN_WAIT_S)


def test_a_turn_beyond_the_limit_waits_then_is_refused_in_one_sentence(one_turn_at_a_time) -> None:
    with sandbox_lease():
        caught: list[BaseException] = []

        def second() -> None:
            try:
                with sandbox_lease():
                    pass
            except BaseException as error:
                caught.append(error)

        other = threading.Thread(target=second)
        other.start()
        other.join(10)
    assert len(caught) == 1 and isinstance(caught[0], TurnsBusy)
    assert str(caught[0]) == (
        "this server runs at most 1 turn at once and none came free within 0.5 s; try again in "
        "a moment (nova mcp --max-turns sets the limit)"
    )


def test_a_waiting_turn_gets_the_sandbox_as_soon_as_it_is_given_back(one_turn_at_a_time) -> None:
    limit_turns(1, wait_s=30)
    got = threading.Event()
    with sandbox_lease() as first:

        def second() -> None:
            with sandbox_lease() as leased:
                assert leased is first
                got.set()

        other = threading.Thread(target=second)
        other.start()
        assert not got.wait(0.3)  # waiting while the first turn runs
    assert got.wait(10)
    other.join(10)


def test_a_large_heap_is_let_go_when_the_sandbox_is_given_back_and_the_turn_replays_the_same() -> (
    None
):
    with sandbox_lease() as leased:
        first = leased.run_turn(BIG, GLOBALS, BUDGETS, seed=11)
        assert first.error is None, first.error
        assert leased.memory_bytes() > 200 * 1024 * 1024
    assert leased.memory_bytes() <= KEEP_MEMORY_BYTES
    with sandbox_lease() as again:
        second = again.run_turn(BIG, GLOBALS, BUDGETS, seed=11)
    assert (second.value, second.ticks, second.kind) == (first.value, first.ticks, first.kind)
