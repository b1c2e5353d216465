"""The sandbox's only sources of time and randomness, all fixed or derived from the turn's seed.

A script must make the same decisions on every machine and every replay, so:

- the clock is frozen: ``Date.now()`` is always 2100-01-01T00:00:00Z and the time zone is UTC
  (a round-based game has no use for wall time, and a fixed date far from "now" makes that
  obvious to a player who prints it);
- ``Math.random`` is a xorshift128 generator seeded per turn from ``seed``, which the engine
  derives from the game seed, the android and the round: androids get different streams, and
  replays get the same ones;
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


def math_random_state(seed: int) -> tuple[int, int, int, int]:
    """The four 32-bit words of the guest's xorshift128 state for this seed (never all zero)."""
    state = seed & _MASK64
    state, a = splitmix64(state)
    state, b = splitmix64(state)
    words = (a & 0xFFFFFFFF, a >> 32, b & 0xFFFFFFFF, b >> 32)
    return words if any(words) else (1, 0, 0, 0)


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
