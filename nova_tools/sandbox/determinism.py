"""The sandbox's only sources of time and randomness, all fixed or derived from the turn's seed.

A script must make the same decisions on every machine and every replay, so:

- the clock is frozen: ``Date.now()`` is always 2100-01-01T00:00:00Z and the time zone is UTC
  (a round-based game has no use for wall time, and a fixed date far from "now" makes that
  obvious to a player who prints it);
- ``Math.random`` is QuickJS's own (native, fast) xorshift64* generator, whose 64-bit state is
  overwritten per turn with a value derived from ``seed`` (the engine derives the seed from the
  game seed, the android and the round): androids get different streams, replays the same ones;
- WASI ``random_get`` (which QuickJS itself does not use for ``Math.random``) returns a
  SplitMix64 byte stream from the same seed.
"""

from __future__ import annotations

FIXED_EPOCH_MS = 4_102_444_800_000  # 2100-01-01T00:00:00Z
FIXED_EPOCH_NS = FIXED_EPOCH_MS * 1_000_000

_MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns (next_state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def math_random_state(seed: int) -> int:
    """The 64-bit state of QuickJS's Math.random generator for this seed (never zero)."""
    return splitmix64(seed & _MASK64)[1] or 1


def xorshift64star(state: int) -> tuple[int, float]:
    """QuickJS's ``js_math_random``: returns (next_state, the Math.random() value it yields)."""
    x = state
    x ^= x >> 12
    x = (x ^ (x << 25)) & _MASK64
    x ^= x >> 27
    out = (x * 0x2545F4914F6CDD1D) & _MASK64
    # The top 52 bits become the mantissa of a double in [1, 2); minus one gives [0, 1).
    return x, (out >> 12) / float(1 << 52)


class ByteStream:
    """Deterministic bytes for WASI ``random_get``: SplitMix64 outputs, little-endian."""

    def __init__(self, seed: int) -> None:
        # Offset from the Math.random derivation so the two streams do not share outputs.
        self._state = (seed ^ 0x5EED_0F_B7E5) & _MASK64
        self._buffer = b""

    def take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            self._state, out = splitmix64(self._state)
            self._buffer += out.to_bytes(8, "little")
        data, self._buffer = self._buffer[:n], self._buffer[n:]
        return data
