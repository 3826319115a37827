"""Station Master's events: the hook points its rules raise for card effects.

The core never names an effect: it reads the effect a card carries from the
content (``card.effect``), asks the registry for that effect's handler of the
event at hand, and calls it with the event's typed arguments. A handler module
subscribes with ``on(EVENT, "effect-id")``; each event's Protocol below is
the signature mypy holds both sides to. ``card`` is always the card the
handler acts for (the card played, the Enhancement in the district, the
train's own card).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from engine.effects.registry import Event

if TYPE_CHECKING:
    from engine.stationmaster.content.model import Card
    from engine.stationmaster.rules.actions import Action, Attack, Play, SortCars
    from engine.stationmaster.rules.context import RulesContext
    from engine.stationmaster.rules.state import AttackInPlay, District, Lasting, Train


class CardPlayed(Protocol):
    """A card played from the hand does what it says (onto the Mainline, behind a train ...)."""

    def __call__(self, game: RulesContext, action: Play, card: Card) -> None: ...


class PlayRefusals(Protocol):
    """Every reason the card cannot be played this way now."""

    def __call__(self, game: RulesContext, action: Play, card: Card) -> list[str]: ...


class HeldCardSpent(Protocol):
    """A held card is spent by an action of its own kind (the handler declares
    the kind); the core has already moved the card to the Salvage Yard."""

    def __call__(self, game: RulesContext, action: Action, card: Card) -> None: ...


class HeldCardRefusals(Protocol):
    """Every reason the held card's action cannot be taken now (besides not
    holding the card, which the core checks)."""

    def __call__(self, game: RulesContext, action: Action, card: Card) -> list[str]: ...


class CarsSorted(Protocol):
    """A train's cars are re-ordered where ``card`` (the Mainline card it stands
    on, or an Enhancement of the district it stands in) allows it."""

    def __call__(self, game: RulesContext, action: SortCars, card: Card) -> None: ...


class SortRefusals(Protocol):
    def __call__(self, game: RulesContext, action: SortCars, card: Card) -> list[str]: ...


class TrainStood(Protocol):
    """A train carrying the effect stood a whole Mainline Phase at ``district``'s Office."""

    def __call__(self, game: RulesContext, train: Train, district: District, card: Card) -> None: ...


class OfficeFull(Protocol):
    """A train arrives at ``player``'s Office with every A/D track taken.
    True: the district's ``card`` holds it at the Limits instead of a collision."""

    def __call__(self, game: RulesContext, train: Train, player: int, card: Card) -> bool: ...


class ExtraMadeUp(Protocol):
    """An Extra is made up at the Office of a district whose ``card`` lets it
    make up Extras as a Division Point does (whatever the house rule says)."""

    def __call__(self, game: RulesContext, action: Play, card: Card) -> None: ...


class DistrictWorked(Protocol):
    """``player``'s turn ends and their district has worked (industries,
    Office); ``card`` is an Enhancement standing in that district."""

    def __call__(self, game: RulesContext, player: int, card: Card) -> None: ...


class MainlinePhaseEnded(Protocol):
    """The Mainline Phase has run (before the Stage moves on); ``card`` is an
    Enhancement standing in ``player``'s district."""

    def __call__(self, game: RulesContext, player: int, card: Card) -> None: ...


CARD_PLAYED: Event[CardPlayed] = Event("card played")
PLAY_REFUSALS: Event[PlayRefusals] = Event("play refused", traced=False)
HELD_CARD_SPENT: Event[HeldCardSpent] = Event("held card spent")
HELD_CARD_REFUSALS: Event[HeldCardRefusals] = Event("held card refused", traced=False)
CARS_SORTED: Event[CarsSorted] = Event("cars sorted")
SORT_REFUSALS: Event[SortRefusals] = Event("sort refused", traced=False)
TRAIN_STOOD: Event[TrainStood] = Event("train stood at an Office")
OFFICE_FULL: Event[OfficeFull] = Event("train arrives at a full Office")
EXTRA_MADE_UP: Event[ExtraMadeUp] = Event("Extra made up at an Office")
DISTRICT_WORKED: Event[DistrictWorked] = Event("district worked at the end of a turn")
MAINLINE_PHASE_ENDED: Event[MainlinePhaseEnded] = Event("Mainline Phase ended")


# -- opponent-directed cards (engine.stationmaster.rules.response, .lasting) -------------------
# ``card`` is the attack card for an attack's events and for what it left in
# force, and the defence card for an answer.


class AttackProposals(Protocol):
    """The attacks worth proposing for ``card`` in ``player``'s hand, one per
    target it could take now (``check`` still judges each)."""

    def __call__(self, game: RulesContext, player: int, card: Card) -> list[Attack]: ...


class AttackRefusals(Protocol):
    """Every reason the attack cannot take the target it names now (the core
    has checked the hand, the turn and whom it is aimed at)."""

    def __call__(self, game: RulesContext, action: Attack, card: Card) -> list[str]: ...


class AttackResolved(Protocol):
    """Nobody answered: the attack does what it says to its target."""

    def __call__(self, game: RulesContext, attack: AttackInPlay, card: Card) -> None: ...


class AttackAnswered(Protocol):
    """``card`` (a defence whose content ``answers`` the attack: a card held
    by ``player``, or an Enhancement standing in their district) answers
    ``attack``, which then does nothing."""

    def __call__(self, game: RulesContext, attack: AttackInPlay, player: int, card: Card) -> None: ...


class WorkHalted(Protocol):
    """What an attack in force on a Facility stops at the end of its player's
    turn: "work" (everything) or "inbound" (taking in loads); None: nothing."""

    def __call__(self, game: RulesContext, lasting: Lasting, card: Card) -> str | None: ...


class LineClosed(Protocol):
    """Why no train may start onto the Mainline position an attack in force
    holds (a sentence for the log), or None when trains may."""

    def __call__(self, game: RulesContext, lasting: Lasting, card: Card) -> str | None: ...


class SquareHeld(Protocol):
    """Every reason nothing may be built on the district square an attack in
    force holds."""

    def __call__(self, game: RulesContext, lasting: Lasting, card: Card) -> list[str]: ...


ATTACK_PROPOSALS: Event[AttackProposals] = Event("attack proposed", traced=False)
ATTACK_REFUSALS: Event[AttackRefusals] = Event("attack refused", traced=False)
ATTACK_RESOLVED: Event[AttackResolved] = Event("attack resolved")
ATTACK_ANSWERED: Event[AttackAnswered] = Event("attack answered")
WORK_HALTED: Event[WorkHalted] = Event("Facility work halted", traced=False)
LINE_CLOSED: Event[LineClosed] = Event("Mainline card closed", traced=False)
SQUARE_HELD: Event[SquareHeld] = Event("district square held", traced=False)
