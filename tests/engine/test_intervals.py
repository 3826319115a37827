"""The shared confidence intervals against values published or computed by
scipy, and the Bonferroni correction."""

from __future__ import annotations

import math
from types import ModuleType

import pytest

from engine.sim.intervals import Moments, family_confidence, mean_difference, mean_interval, proportion_difference, rate_difference, wilson


@pytest.fixture(scope="module")
def stats() -> ModuleType:
    """scipy.stats, the reference: imported here, not at collection, since
    every test worker collects every module and it takes a second or two."""
    import importlib

    return importlib.import_module("scipy.stats")


def test_wilson_matches_scipy_and_the_textbook(stats: ModuleType) -> None:
    # Newcombe (1998), table I: 81 of 263 gives 0.2553 .. 0.3662.
    found = wilson(81, 263)
    assert (round(found.low, 4), round(found.high, 4)) == (0.2553, 0.3662)
    for successes, trials in ((0, 10), (10, 10), (3, 7), (134, 200)):
        reference = stats.binomtest(successes, trials).proportion_ci(method="wilson")
        found = wilson(successes, trials)
        assert math.isclose(found.low, reference.low, abs_tol=1e-9) and math.isclose(found.high, reference.high, abs_tol=1e-9)


def test_wilson_at_the_edges() -> None:
    assert wilson(0, 0).low == 0.0 and wilson(0, 0).high == 1.0
    assert wilson(0, 20).low == 0.0 and wilson(0, 20).high > 0.1  # no dead draw seen is not "never dead"
    assert wilson(20, 20).high == 1.0 and wilson(20, 20).low < 0.9


def test_the_t_interval_matches_scipy(stats: ModuleType) -> None:
    values = [3, 7, 7, 2, 9, 5, 4, 8]
    found = mean_interval(Moments.of(values))
    low, high = stats.t.interval(0.95, len(values) - 1, loc=sum(values) / len(values), scale=stats.sem(values))
    assert math.isclose(found.low, low) and math.isclose(found.high, high)
    assert mean_interval(Moments.of([4])).low == 4.0  # one value: a point, no spread to speak of


def test_welch_matches_scipy(stats: ModuleType) -> None:
    one, two = [3, 7, 7, 2, 9, 5, 4, 8], [9, 12, 8, 11, 14, 10]
    found = mean_difference(Moments.of(one), Moments.of(two))
    reference = stats.ttest_ind(two, one, equal_var=False).confidence_interval(0.95)
    assert math.isclose(found.low, reference.low) and math.isclose(found.high, reference.high)


def test_newcombe_matches_the_published_example() -> None:
    # Newcombe (1998), table II, example (a): 56/70 against 48/80 gives 0.0524 .. 0.3339.
    found = proportion_difference((48, 80), (56, 70))
    assert (round(found.low, 4), round(found.high, 4)) == (0.0524, 0.3339)


def test_the_rate_difference_and_bonferroni() -> None:
    found = rate_difference((100, 100), (150, 100))
    assert math.isclose(found.value, 0.5) and math.isclose(found.high - found.value, 1.959964 * math.sqrt(2.5) / 10, rel_tol=1e-5)
    assert family_confidence(1) == pytest.approx(0.95) and family_confidence(10) == pytest.approx(0.995)
    assert wilson(30, 100, family_confidence(10)).low < wilson(30, 100).low
