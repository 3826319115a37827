"""The one seeded random stream a game owns.

Every shuffle, die roll and bot choice draws from it, in order, so a game is
a pure function of its seed and its actions. This is the only module that
may import ``random``.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


class SeededStream:
    def __init__(self, seed: int, path: str = "") -> None:
        self.seed = seed
        self.path = path
        # A string seed is hashed in full (sha512), so -5 and 5 differ and a
        # forked stream is independent of its parent.
        self._random = random.Random(f"{seed}{path}")
        self._getrandbits = self._random.getrandbits

    def fork(self, label: str) -> SeededStream:
        """A second stream derived from the same seed, for choices that are not
        chance in the rules (a bot's picks): the bot's choices are recorded as
        actions, so they must not shift the shuffles a replay will make."""
        return SeededStream(self.seed, f"{self.path}/{label}")

    def copy(self) -> SeededStream:
        """An independent stream at the same point: it draws what this one
        would draw next (a copy of a game tries actions with it)."""
        twin = SeededStream.__new__(SeededStream)
        twin.seed, twin.path = self.seed, self.path
        twin._random = random.Random()
        twin._random.setstate(self._random.getstate())
        twin._getrandbits = twin._random.getrandbits
        return twin

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._random.shuffle(items)

    def roll(self, sides: int) -> int:
        """A die roll from 1 to ``sides``."""
        return self._random.randint(1, sides)

    def choice(self, items: Sequence[T]) -> T:
        return items[self._random.randrange(len(items))]

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``: the draw ``randrange(n)`` makes.

        Every pick of a bot asks for one, so this skips ``randrange``'s checks
        of ``start``, ``stop`` and ``step`` and draws as it does for a whole
        ``n`` above 0 (CPython 3.11's ``_randbelow_with_getrandbits``): as many
        random bits as ``n`` has, drawn again until they make a number below
        ``n``. Only the public ``getrandbits`` is called, and the same numbers
        come out of the same stream (``tests/kit/test_replay_digest.py`` and
        ``tests/stationmaster/rules/test_fast_path.py`` hold them to it). For 0 that loop would
        draw no bits for ever, so ``n`` is checked first."""
        if n <= 0:
            raise ValueError(f"empty range for below({n})")
        bits = n.bit_length()  # not (n - 1): below(1) draws one bit, as randrange(1) does
        drawn = self._getrandbits(bits)
        while drawn >= n:
            drawn = self._getrandbits(bits)
        return drawn
