"""One scenario for every Station Master effect with a handler: the one
convention every effect test follows.

A scenario is a function ``(catalog, card) -> (game, action)``: a game built
with the kit (tests/kit/stationmaster.py), every card in it accounted for,
in which applying ``action`` runs the effect's handler for ``card``.
``@plays(effect)`` registers it in ``SCENARIOS`` under the effect's id. The
status tests play every scenario (tests/stationmaster/effects/
test_status_live.py for the live cards, test_status_rivals.py for the cards
only a game with rivals reaches, test_handlers.py for the Mainline and action
cards), and an effect's own tests (tests/stationmaster/effects/test_<effect>.py)
start from ``SCENARIOS[EFFECT]`` or from the builders it uses, which live here
beside it. Adding an effect: its handler, one scenario here, its tests.

A defence that answers more than one attack adds a scenario for each other
attack to ``ANSWERED[effect][attack card id]``.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.stationmaster.content.model import Card, Catalog
from engine.stationmaster.rules.actions import Action, Answer, Attack, Decline, EndTurn, FlyingSwitch, Hold, Play, RedFlag, SortCars
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.state import Car, Square
from tests.kit.stationmaster import (
    CATALOG,
    ONE_PLAYER_OFFICE,
    branch_yard,
    enhance,
    facility,
    game_with,
    give,
    lay,
    new_game,
    office_slot,
    put_train,
    rivals_game,
    set_hand,
    set_hand_and_draw,
    take,
    terrain_slot,
)

Scenario = Callable[[Catalog, Card], tuple[Game, Action]]

SCENARIOS: dict[str, Scenario] = {}
ANSWERED: dict[str, dict[str, Scenario]] = {}


def plays(effect: str) -> Callable[[Scenario], Scenario]:
    """Register the decorated function as the scenario of ``effect``."""

    def register(scenario: Scenario) -> Scenario:
        assert effect not in SCENARIOS, f"the scenario for '{effect}' is written twice"
        SCENARIOS[effect] = scenario
        return scenario

    return register


# -- the Mainline and the action cards (solitaire) ---------------------------------------


def _graded(card_id: str, before: tuple[str, ...] = ()) -> Scenario:
    """A Heavy Grade climbing east at the first terrain position; the cards
    ``before`` are played onto it first, a turn each; then ``card`` is in
    hand during the Draw option."""

    def scenario(catalog: Catalog, card: Card) -> tuple[Game, Action]:
        game = new_game(catalog, seed=50)
        game.state.mainline[1].card, game.state.mainline[1].uphill = "heavy-grade", "east"
        for earlier in before:
            set_hand_and_draw(game, earlier, "straight", "straight")
            game.apply(Play(0, earlier, slot=1))
            game.apply(EndTurn(0))
        set_hand_and_draw(game, card_id, "straight", "straight")
        return game, Play(0, card_id, slot=1)

    return scenario


plays("grade-brakeman")(_graded("brakeman"))
plays("grade-helpers")(_graded("helpers"))
plays("grade-airbrakes")(_graded("airbrakes", before=("brakeman",)))


@plays("realignment")
def _realignment(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = new_game(catalog, seed=50)
    set_hand_and_draw(game, "realignment", "straight", "straight")
    return game, Play(0, "realignment", slot=1)


@plays("abs-signals")
def _abs_signals(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = new_game(catalog, seed=50)
    set_hand(game, "abs-signals", "straight", "straight")
    return game, Play(0, "abs-signals", slot=3)


@plays("red-flag")
def _red_flag(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = new_game(catalog, seed=50)
    set_hand(game, "red-flag", "straight", "straight")
    put_train(game, "train-1", [], train_id="t", position=0, caboose=False)
    return game, RedFlag(0, train="t")


@plays("second-section")
def _second_section(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = new_game(catalog, seed=50)
    take(game, "train-1")
    game.state.timetable[0] = "train-1"
    set_hand(game, "second-section", "straight", "straight")
    return game, Play(0, "second-section", train="train-1")


@plays("sort-cars")
def _sort_cars(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = new_game(catalog, seed=50)
    game.state.mainline[1].card = "interchange"
    put_train(game, "train-3", [Car("boxcar", True), Car("tank", True)], train_id="t", position=1, caboose=False, remaining=1)
    return game, SortCars(0, train="t", order=(1, 0))


@plays("flying-switch")
def _flying_switch(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """A trailing-point turnout east of the Office leads back to a siding
    only a car cut off on the move can reach."""
    game = new_game(catalog, seed=50)
    squares = game.state.districts[0].squares
    squares["1,0"] = Square("turnout-left", "track", rotation=180)
    squares["0,1"] = Square("curve-left", "track")
    squares["-1,1"] = Square("straight", "track")
    for laid in ("turnout-left", "curve-left", "straight"):
        game.state.deck.remove(laid)  # the cards on the table came out of the deck
    put_train(game, "train-3", [Car("boxcar", False), Car("tank", False)], train_id="t", caboose=True)
    set_hand(game, "flying-switch", "straight", "straight")
    return game, FlyingSwitch(0, train="t", x=-1, y=1)


# -- a district's cards (solitaire) -----------------------------------------------------


def _in_hand(catalog: Catalog, card: Card, **house: str) -> Game:
    """A solitaire game as dealt (seed 7), with ``card`` in player 0's hand."""
    game = game_with(catalog, players=1, seed=7, terrain=None, house=house)
    give(game, card.id)
    return game


@plays("add-capacity")
def _modifier(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """The Modifier is played beside its host: the Office, or a Facility it
    may modify laid north of the Office."""
    game = _in_hand(catalog, card)
    hosts = getattr(card, "hosts")  # noqa: B009  (every Modifier card has hosts; Card is their union)
    if hosts != "office":
        lay(game, 0, -1, "packing-sheds" if hosts == "anyFreight" else hosts[0])
        return game, Play(0, card.id, x=0, y=-2)
    return game, Play(0, card.id, x=0, y=-1)


@plays("pays-for-stopping")
def _pays_for_stopping(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """The Extra stands at the Office, held through the Mainline Phase in
    which it stands still."""
    game = new_game(catalog, seed=7, terrain=None)
    cars = [Car("coach" if card.id == "extra-17" else "flatcar", True) for _ in range(2)]
    train = put_train(game, card.id, cars, train_id=f"{card.id}-test", caboose=True)
    game.apply(Hold(0, train=train.id))
    return game, EndTurn(0)


@plays("small-yard")
def _small_yard(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """Sorting is a switching move: built this turn, used the next."""
    game = _in_hand(catalog, card)
    game.apply(Play(0, card.id, x=0, y=0))
    game.apply(EndTurn(0))
    put_train(game, "train-3", [Car("flatcar", True) for _ in range(2)], train_id="train-3-test", caboose=True)
    return game, SortCars(0, train="train-3-test", order=(1, 0))


@plays("interlocking")
def _interlocking(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """At a Whistle Post (one A/D track) a train held at the Office and one
    arriving would collide; the Interlocking holds the arriving one back."""
    game = _in_hand(catalog, card, startingOffice="whistle-post")
    game.apply(Play(0, card.id, x=0, y=0))
    put_train(game, "train-3", [Car("flatcar", True) for _ in range(2)], train_id="train-3-test", caboose=True, held=2)
    put_train(game, "train-5", [], train_id="arriving", position=ONE_PLAYER_OFFICE - 1, caboose=True, remaining=1)
    return game, EndTurn(0)


@plays("division-yard")
def _division_yard(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """With Extras starting only at Division Points, a Division Yard lets one
    start at the Office."""
    game = _in_hand(catalog, card, extraStart="divisionPointsOnly")
    game.apply(Play(0, card.id, x=0, y=0))
    game.apply(EndTurn(0))
    give(game, "extra-5")
    return game, Play(0, "extra-5", slot=ONE_PLAYER_OFFICE, heading="east")


@plays("classification-yard")
def _classification_yard(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """The card is played onto the Office square; the turn's end sorts."""
    game = new_game(catalog)
    give(game, card.id)
    game.apply(Play(0, card.id, x=0, y=0))
    return game, EndTurn(0)


@plays("engine-house")
def _engine_house(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """The card is built on the Office square and a train is held at the
    Office: the turn's end takes it in, the phase's end lets it out."""
    game = new_game(catalog)
    give(game, card.id)
    game.apply(Play(0, card.id, x=0, y=0))
    put_train(game, "train-3", [], train_id="waiting", held=1)
    return game, EndTurn(0)


# -- the attacks and defences (a game with rivals) ---------------------------------------


STRIKE = Attack(0, "strike", rival=1, x=0, y=-1)


def struck_game(catalog: Catalog = CATALOG) -> Game:
    """Player 1 has a Grocer's Warehouse at (0, -1) with a load in its first
    box; player 0 holds a Strike."""
    game = rivals_game(catalog)
    facility(game, 1, 0, -1, "grocers-warehouse").pipeline = [1, 0, 0]
    give(game, "strike", player=0)
    return game


@plays("strike")
def _strike(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """The Strike is played and its window opens; player 1's decline resolves it."""
    game = struck_game(catalog)
    game.apply(STRIKE)
    return game, Decline(1)


@plays("arbitration")
def _arbitration(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """A Strike waits on player 1, who holds an Arbitration."""
    game = struck_game(catalog)
    give(game, card.id, player=1)
    game.apply(STRIKE)
    return game, Answer(1, card.id)


BAD_ORDER = Attack(0, "bad-order", rival=1, train="t")


def bad_order_game(catalog: Catalog = CATALOG) -> Game:
    """Train 3 stands at player 1's Office with two cars; player 0 holds a Bad Order."""
    game = rivals_game(catalog)
    put_train(game, "train-3", [Car("boxcar", True), Car("hopper", False)], train_id="t", position=office_slot(game, 1))
    give(game, "bad-order", player=0)
    return game


@plays("bad-order")
def _bad_order(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    return bad_order_game(catalog), BAD_ORDER


@plays("yard-office")
def _yard_office(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """The Yard Office stands in player 1's district as the Bad Order is played there."""
    game = bad_order_game(catalog)
    enhance(game, 0, 0, card.id, player=1)
    return game, BAD_ORDER


CLAIM = Attack(0, "eminent-domain", rival=1, x=0, y=-1)


def claim_game(catalog: Catalog = CATALOG) -> Game:
    """Player 0 holds an Eminent Domain."""
    game = rivals_game(catalog)
    give(game, "eminent-domain", player=0)
    return game


@plays("eminent-domain")
def _eminent_domain(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = claim_game(catalog)
    game.apply(CLAIM)
    return game, Decline(1)


@plays("deed-of-title")
def _deed_of_title(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """An Eminent Domain waits on player 1, who holds a Deed of Title."""
    game = claim_game(catalog)
    give(game, card.id, player=1)
    game.apply(CLAIM)
    return game, Answer(1, card.id)


DERAIL = Attack(0, "derailment", rival=1, train="x9")


def derail_game(catalog: Catalog = CATALOG) -> Game:
    """Player 1's X9 crosses the terrain card east of player 0's Office, two
    Stages left; player 0 holds a Derailment."""
    game = rivals_game(catalog)
    put_train(game, "extra-9", [], train_id="x9", player=1, position=terrain_slot(game), remaining=2)
    give(game, "derailment", player=0)
    return game


@plays("derailment")
def _derailment(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = derail_game(catalog)
    game.apply(DERAIL)
    return game, Decline(1)


def washout_game(catalog: Catalog = CATALOG) -> Game:
    """Player 0 holds a Washout."""
    game = rivals_game(catalog)
    give(game, "washout", player=0)
    return game


@plays("washout")
def _washout(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    game = washout_game(catalog)
    game.apply(Attack(0, "washout", slot=terrain_slot(game)))
    return game, Decline(1)


@plays("wrecking-crew")
def _wrecking_crew(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """A Derailment waits on player 1, who holds a Wrecking Crew."""
    game = derail_game(catalog)
    give(game, card.id, player=1)
    game.apply(DERAIL)
    return game, Answer(1, card.id)


def _wrecking_crew_answers_a_washout(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    """A Washout waits on player 1, who holds a Wrecking Crew."""
    game = rivals_game(catalog)
    give(game, "washout", player=0)
    give(game, card.id, player=1)
    game.apply(Attack(0, "washout", slot=terrain_slot(game)))
    return game, Answer(1, card.id)


ANSWERED["wrecking-crew"] = {"washout": _wrecking_crew_answers_a_washout}


EMBARGO = Attack(0, "embargo", rival=1, x=0, y=-1)


def embargo_game(catalog: Catalog = CATALOG) -> Game:
    """Player 1's Grocer's Warehouse at (0, -1) has a loaded reefer at its door
    and a load in its first box; player 0 holds an Embargo."""
    game = rivals_game(catalog)
    square = facility(game, 1, 0, -1, "grocers-warehouse")
    square.pipeline, square.cars = [1, 0, 0], [Car("reefer", True)]
    give(game, "embargo", player=0)
    return game


@plays("embargo")
def _embargo(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    return embargo_game(catalog), EMBARGO


RIGHTS = Attack(0, "trackage-rights", rival=1, train="x9", x=3, y=-1)


def rights_game(catalog: Catalog = CATALOG) -> Game:
    """Player 0's X9 stands at player 1's Office; a loaded boxcar stands on
    the stub (3, -1) of player 1's district; player 0 holds Trackage Rights."""
    game = rivals_game(catalog)
    branch_yard(game, player=1)
    lay(game, 3, -1, "straight", player=1, cars=[Car("boxcar", True, shipper=1)])
    put_train(game, "extra-9", [], train_id="x9", player=0, position=office_slot(game, 1))
    give(game, "trackage-rights", player=0)
    return game


@plays("trackage-rights")
def _trackage_rights(catalog: Catalog, card: Card) -> tuple[Game, Action]:
    return rights_game(catalog), RIGHTS
