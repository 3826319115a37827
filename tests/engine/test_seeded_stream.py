"""``SeededStream.below`` draws from public ``getrandbits`` what
``random.Random.randrange`` draws through CPython's private ``_randbelow``:
the same numbers, in the same order, leaving the generator in the same
state, for any seed and any range. Every replay and every seeded bot game
rests on that (``test_replay_digest.py`` checks it over whole games)."""

from __future__ import annotations

import random

import pytest

from engine.rng import SeededStream

# Ranges of every shape the rejection loop cares about: 1 (one bit drawn, always
# 0), powers of two and their neighbours (no rejection, or nearly half the draws
# rejected), the sizes the bots use (720720, 2**62) and one past a machine word.
RANGES = [1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 32, 33, 100, 255, 256, 257, 720720, 2**31 - 1, 2**32, 2**32 + 1, 2**62, 2**64 + 1]


@pytest.mark.parametrize("seed", range(-20, 180))
def test_below_draws_what_randrange_draws_for_every_range(seed: int) -> None:
    ours, theirs = SeededStream(seed, "/bot"), random.Random(f"{seed}/bot")
    drawn = [ours.below(n) for n in RANGES * 4]
    assert drawn == [theirs.randrange(n) for n in RANGES * 4]
    # The generators stand at the same point: what comes next agrees too.
    assert [ours.below(2**64) for _ in range(3)] == [theirs.randrange(2**64) for _ in range(3)]


@pytest.mark.parametrize("n", RANGES)
def test_a_long_run_of_one_range_matches(n: int) -> None:
    ours, theirs = SeededStream(n), random.Random(str(n))
    assert [ours.below(n) for _ in range(500)] == [theirs.randrange(n) for _ in range(500)]


def test_below_between_shuffles_and_rolls_keeps_the_stream_in_step() -> None:
    ours, theirs = SeededStream(3, "/rules"), random.Random("3/rules")
    mine, yours = list(range(30)), list(range(30))
    for n in RANGES:
        ours.shuffle(mine)
        theirs.shuffle(yours)
        assert (ours.below(n), ours.roll(6)) == (theirs.randrange(n), theirs.randint(1, 6))
    assert mine == yours


def test_a_copy_draws_what_the_original_would_have() -> None:
    stream = SeededStream(11)
    stream.below(1000)
    twin = stream.copy()
    assert [twin.below(n) for n in RANGES] == [stream.below(n) for n in RANGES]


@pytest.mark.parametrize("n", [0, -1, -(2**62)])
def test_below_refuses_an_empty_range_as_randrange_does(n: int) -> None:
    with pytest.raises(ValueError):
        SeededStream(1).below(n)
    with pytest.raises(ValueError):
        random.Random(1).randrange(n)
