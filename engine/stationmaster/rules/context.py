"""What a rule or an effect handler may read of a game: ``RulesContext``.

The rules of a turn and the card effects are called by ``Game`` with the game
itself, and used to be annotated against the whole ``Game`` class: every one
of them then imported ``game.py`` (for the type alone) while ``game.py``
imports them, a circle of nineteen modules in which no rule could be read or
type-checked apart from all the others. They are annotated against this
Protocol instead, which says at a glance what a rule may touch: the state,
the catalog, the house rules, the rules' own seeded stream, and a few views
derived from them that a game keeps between moves so they are not worked out
again. ``Game`` offers all of it; nothing here imports a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from engine.pack import RulesContextBase
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.rules.state import GameState

if TYPE_CHECKING:
    from engine.rng import SeededStream
    from engine.stationmaster.rules.actions import Action


class RulesContext(RulesContextBase[Catalog, GameState], Protocol):
    """A game as its rules and effect handlers see it: the shared catalog,
    state and house rules, and what follows."""

    @property
    def rng(self) -> SeededStream:
        """The rules' own stream: shuffles, die rolls, draws from the deck."""
        ...

    def ladder(self) -> Sequence[str]:
        """The ids of the Office cards, lowest first."""
        ...

    # -- views derived from the state, kept between moves by the modules named

    @property
    def limit_bonus(self) -> Mapping[str, int]:
        """Each card that raises the hand limit while held, with its bonus (``hand``)."""
        ...

    @property
    def open_ends_cache(self) -> dict[int, tuple[tuple[int, int], set[tuple[int, int]]]]:
        """Each district's open track ends, with the stamp that keeps them fresh (``district``)."""
        ...

    @property
    def reachable_cache(self) -> dict[tuple[int, bool], tuple[tuple[object, ...], set[str]]]:
        """What each district's switching can reach, by the shape it was worked out for (``switching``)."""
        ...

    @property
    def spent_cache(self) -> dict[str, tuple[int, type[Action] | None]]:
        """Which kind of action spends each held card, by registry generation (``held``)."""
        ...

    @property
    def kept_proposals(self) -> Kept:
        """What proposing keeps from one position to the next (``proposals``)."""
        ...


# A card's run of plays: what keeps it fresh (``_LASTING``: nothing makes it
# stale; a set of open ends: while the district's open ends are that very set;
# None: made afresh every time, never kept), how many, and the maker of the k-th.
PlayRun = tuple[object, int, Callable[[int], "Action"]]


class Kept:
    """What proposing keeps on a game from one position to the next, so that
    the makers of the runs that recur at every proposal are made once: each
    player's Draw and end of turn, each card's discards, each card's run of
    plays (with what keeps it fresh: see ``proposals._play_run``). A copy of
    a game starts with a copy of them. Defined here, not in ``proposals``, because the
    context carries it and must not import the rules."""

    __slots__ = ("discards", "makers", "plays")

    def __init__(self) -> None:
        # each by player, then by card id
        self.makers: dict[int, tuple[Callable[[int], Action], Callable[[int], Action]]] = {}
        self.discards: dict[int, dict[str, Callable[[int], Action]]] = {}
        self.plays: dict[int, dict[str, PlayRun]] = {}

    def copy(self) -> Kept:
        """The same kept makers, for a copy of the game in the same position
        (what each was made from holds there too), in dicts of its own."""
        twin = Kept()
        twin.makers = dict(self.makers)
        twin.discards = {player: dict(made) for player, made in self.discards.items()}
        twin.plays = {player: dict(runs) for player, runs in self.plays.items()}
        return twin
