"""Confidence intervals for the figures a simulation prints, for any game.

A rate from a few hundred seeded games is a measurement, not a fact: every
rate the kit prints carries its count and a 95% interval, so a reader can
tell a finding from the luck of the deal.

- a proportion (wins per game, dead draws per draw): the Wilson score
  interval, which stays inside 0..1 and behaves at 0 and at 1, where the
  textbook normal interval collapses to a point;
- a mean (score, share value): Student's t interval, from the count, the
  sum and the sum of squares (so a sweep's cached whole numbers suffice);
- the difference of two proportions: Newcombe's hybrid score interval
  (method 10 of Newcombe 1998), built from the two Wilson intervals;
- the difference of two means: Welch's t interval;
- the difference of two rates of events per unit (draws per hand): the
  normal approximation to two Poisson counts.

Many comparisons at once (a sweep's differences) are corrected by
Bonferroni: each interval is widened to ``1 - (1 - confidence) / m``
(``family_confidence``), so that the chance that any of the ``m`` excludes
zero by luck alone stays under 5%. Bonferroni rather than Holm because it
is an interval per comparison, which is what a reader is shown; Holm's
step-down procedure gives only a verdict per comparison.

Every figure is treated as independent trials (each game, or each draw, a
trial of its own); draws within one game are not quite independent, so
the intervals on per-draw rates are somewhat narrower than they should be.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Final

CONFIDENCE: Final = 0.95


@dataclass(frozen=True)
class Interval:
    """A confidence interval ``low`` .. ``high`` around ``value``."""

    value: float
    low: float
    high: float

    def excludes(self, point: float) -> bool:
        """Whether ``point`` lies outside the interval (strictly)."""
        return point < self.low or point > self.high

    def rounded(self, digits: int = 4) -> list[float]:
        """``[low, high]`` rounded, as a JSON report holds it."""
        return [round(self.low, digits), round(self.high, digits)]

    def percent_words(self) -> str:
        """``45.0% (38.2–51.9%)``: the value and interval as percentages."""
        return f"{100 * self.value:.1f}% ({100 * self.low:.1f}\N{EN DASH}{100 * self.high:.1f}%)"

    def range_words(self, digits: int = 1) -> str:
        """``38.2–51.9``: the interval alone."""
        return f"{self.low:.{digits}f}\N{EN DASH}{self.high:.{digits}f}"


def z_quantile(confidence: float = CONFIDENCE) -> float:
    """The standard normal quantile for a two-sided ``confidence`` interval."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@lru_cache(maxsize=256)
def t_quantile(freedom: float, confidence: float = CONFIDENCE) -> float:
    """Student's t quantile for a two-sided ``confidence`` interval with
    ``freedom`` degrees of freedom. scipy's: no closed form exists, and a
    hand-written inverse of the incomplete beta function is a liability.
    From ``scipy.special``, imported here only: ``scipy.stats`` takes
    seconds to import, ``scipy.special`` a fraction of one."""
    from scipy.special import stdtrit

    return float(stdtrit(freedom, 0.5 + confidence / 2))


def family_confidence(comparisons: int, confidence: float = CONFIDENCE) -> float:
    """The confidence each of ``comparisons`` intervals needs so that all of
    them hold together at ``confidence`` (Bonferroni)."""
    return 1 - (1 - confidence) / max(1, comparisons)


def wilson(successes: float, trials: int, confidence: float = CONFIDENCE) -> Interval:
    """The Wilson score interval of ``successes`` in ``trials`` (a win
    share may count a shared win as a fraction of one). No trials: 0..1."""
    if trials <= 0:
        return Interval(0.0, 0.0, 1.0)
    z = z_quantile(confidence)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p) / trials + z * z / (4 * trials * trials))) / denominator
    # At 0 and at every trial the bound is exactly 0 or 1 (rounding would
    # leave a hair's breadth, enough to "exclude" the edge).
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return Interval(p, low, high)


@dataclass(frozen=True)
class Moments:
    """Whole-number values summarised as their count, sum and sum of
    squares: enough for a mean, its variance and a t interval."""

    count: int
    total: float
    squares: float

    @classmethod
    def of(cls, values: list[int] | tuple[int, ...]) -> Moments:
        return cls(len(values), math.fsum(values), math.fsum(v * v for v in values))

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0

    @property
    def variance(self) -> float:
        """The sample variance (n - 1 in the denominator); 0 below two values."""
        if self.count < 2:
            return 0.0
        return max(0.0, (self.squares - self.total * self.total / self.count) / (self.count - 1))


def mean_interval(moments: Moments, confidence: float = CONFIDENCE) -> Interval:
    """Student's t interval for the mean (a point below two values)."""
    if moments.count < 2:
        return Interval(moments.mean, moments.mean, moments.mean)
    half = t_quantile(moments.count - 1, confidence) * math.sqrt(moments.variance / moments.count)
    return Interval(moments.mean, moments.mean - half, moments.mean + half)


def mean_difference(before: Moments, after: Moments, confidence: float = CONFIDENCE) -> Interval:
    """Welch's t interval for ``after``'s mean less ``before``'s."""
    difference = after.mean - before.mean
    if before.count < 2 or after.count < 2:
        return Interval(difference, -math.inf, math.inf)
    a, b = before.variance / before.count, after.variance / after.count
    spread = a + b
    if spread == 0:
        return Interval(difference, difference, difference)
    freedom = spread * spread / (a * a / (before.count - 1) + b * b / (after.count - 1))
    half = t_quantile(freedom, confidence) * math.sqrt(spread)
    return Interval(difference, difference - half, difference + half)


def proportion_difference(before: tuple[float, int], after: tuple[float, int], confidence: float = CONFIDENCE) -> Interval:
    """Newcombe's hybrid score interval for ``after``'s proportion less
    ``before``'s, each given as (successes, trials)."""
    one, two = wilson(*before, confidence), wilson(*after, confidence)
    difference = two.value - one.value
    low = difference - math.sqrt((two.value - two.low) ** 2 + (one.high - one.value) ** 2)
    high = difference + math.sqrt((two.high - two.value) ** 2 + (one.value - one.low) ** 2)
    return Interval(difference, low, high)


def rate_difference(before: tuple[int, int], after: tuple[int, int], confidence: float = CONFIDENCE) -> Interval:
    """The difference of two event rates, each (events, exposure) such as
    (draws, hands), by the normal approximation to two Poisson counts."""
    (x1, n1), (x2, n2) = before, after
    difference = x2 / n2 - x1 / n1
    half = z_quantile(confidence) * math.sqrt(x1 / (n1 * n1) + x2 / (n2 * n2))
    return Interval(difference, difference - half, difference + half)
