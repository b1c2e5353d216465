"""The game's own pseudo-random generator: SplitMix64, fully specified here.

Python's ``random`` is avoided on purpose: its derived methods (``randint``, ``choice``) are not
promised to stay the same across Python versions, and a game file must replay identically on any
machine. Every draw is defined below in plain integer arithmetic.

Streams are *derived* from the game seed and a label (``derive(seed, "generation")``), so adding
a new use of randomness never shifts the numbers an existing one sees.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _fnv1a(text: str) -> int:
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & _MASK
    return h


def derive(seed: int, *labels: object) -> int:
    """A 64-bit seed for an independent stream, from the game seed and any labels.

    >>> derive(7, "generation") == derive(7, "generation")
    True
    >>> derive(7, "generation") != derive(8, "generation")
    True
    """
    value = _mix(seed & _MASK)
    for label in labels:
        value = _mix(value ^ _fnv1a(str(label)))
    return value


class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014).

    >>> rng = SplitMix64(0)
    >>> [rng.next_u64() for _ in range(2)]
    [16294208416658607535, 7960286522194355700]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A whole number in [0, n): the high 64 bits of a 128-bit product (Lemire, no rejection)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return (self.next_u64() * n) >> 64

    def between(self, low: int, high: int) -> int:
        """A whole number in [low, high], both included."""
        return low + self.below(high - low + 1)

    def chance(self, probability: float) -> bool:
        """True with the given probability, from the top 53 bits of one draw."""
        return (self.next_u64() >> 11) < probability * (1 << 53)
