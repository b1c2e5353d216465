"""The statistics of a comparison: a confidence interval for a mean of paired differences.

Student's t quantile is computed here rather than taken from SciPy (a large dependency for one
number): for a whole number of degrees of freedom the t distribution's two-sided probability has a
closed form (Abramowitz and Stegun 26.7.3 and 26.7.4, a finite sum in cos(theta) where
theta = atan(t / sqrt(df))), which bisection inverts to float precision.

>>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 9), 3), round(t_quantile(0.975, 1000), 3)
(12.706, 2.262, 1.962)
>>> ci = interval([3.0, 5.0, 4.0, 6.0])
>>> ci.mean, round(ci.low, 3), round(ci.high, 3), ci.excludes_zero
(4.5, 2.446, 6.554, True)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass


def _two_sided(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with ``df`` degrees of freedom (t >= 0)."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    if df % 2 == 1:
        total, term = 1.0, 1.0
        for k in range(1, (df - 1) // 2):  # 1 + (2/3)c^2 + (2*4)/(3*5)c^4 + ... up to c^(df-3)
            term *= cos2 * (2 * k) / (2 * k + 1)
            total += term
        tail = math.sin(theta) * math.cos(theta) * total if df > 1 else 0.0
        return 2 / math.pi * (theta + tail)
    total, term = 1.0, 1.0
    for k in range(1, df // 2):  # 1 + (1/2)c^2 + (1*3)/(2*4)c^4 + ... up to c^(df-2)
        term *= cos2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (0.5 < p < 1) of Student's t distribution with ``df`` >= 1 degrees of freedom."""
    if not 0.5 < p < 1 or df < 1:
        raise ValueError("t_quantile needs 0.5 < p < 1 and df >= 1")
    target = 2 * p - 1
    low, high = 0.0, 1.0
    while _two_sided(high, df) < target:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if _two_sided(mid, df) < target:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * high:
            break
    return (low + high) / 2


@dataclass(frozen=True)
class Interval:
    """A mean with its two-sided confidence interval (``level``, by default 95%)."""

    mean: float
    low: float
    high: float
    n: int
    level: float = 0.95

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0


def interval(values: Sequence[float], level: float = 0.95) -> Interval | None:
    """The t confidence interval of the mean of ``values`` (None for fewer than two values).

    Values that are all equal give a zero-width interval at their mean."""
    n = len(values)
    if n < 2:
        return None
    mean = statistics.fmean(values)
    spread = statistics.stdev(values)
    half = t_quantile(0.5 + level / 2, n - 1) * spread / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n, level)
