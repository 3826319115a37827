"""The one game-building kit of Station Master's tests: the shipped catalog,
loaded once, a game past setup, and ways to arrange a situation on it without
losing a card. tests/stationmaster/conftest.py hands the catalog and a fresh
game out as fixtures; a test that builds several games, or builds them at
import time, calls these functions itself.

A situation is reached by building a real game and then editing its state:
a card a test lays straight onto a square, hands a player or runs as an
Extra is taken out of the Home Office deck (or a Department, or another
hand) first, so ``Game.census()`` still equals the dealt deck and the test
may go on through ``check``/``apply`` as in play.

The Mainline of a one-district game is [West DP, terrain, Office, terrain,
East DP]; the Office is at index 2. ``new_game`` sets every terrain card to
Plains (60 mph both ways) so crossing times are known: a fast train without
coaches crosses in one Stage, a slow one in two.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence

from engine.effects.registry import trace
from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import Catalog, Enhancement, Facility, FacilityModifier, OpponentCard, TrackShape
from engine.stationmaster.rules.actions import Action, Attack, Decline, Draw, EndTurn
from engine.stationmaster.rules.deck import home_deck
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.houserules import HouseRuleValue
from engine.stationmaster.rules.state import Car, Square, Train
from tests.kit.project import SHIPPED_CONTENT

CATALOG = load_catalog(SHIPPED_CONTENT)

ONE_PLAYER_OFFICE = 2  # [West DP, terrain, Office, terrain, East DP]


# -- a game --------------------------------------------------------------------------


def new_game(
    catalog: Catalog = CATALOG,
    *,
    players: int = 1,
    seed: int = 11,
    terrain: str | None = "plains",
    **house: HouseRuleValue,
) -> Game:
    """A game at the first Local Operations turn, with ``house`` rules.

    Every terrain slot of the Mainline is set to ``terrain`` (no uphill
    direction, no modifier) so crossing times are known; ``None`` keeps the
    terrain as dealt, for tests that want the game exactly as the engine sets
    it up.
    """
    return game_with(catalog, players=players, seed=seed, terrain=terrain, house=house)


def game_with(catalog: Catalog, *, players: int, seed: int, terrain: str | None, house: Mapping[str, HouseRuleValue]) -> Game:
    """``new_game`` with the house rules as one mapping (for callers that
    pass them on)."""
    game = Game(catalog, players=players, seed=seed, house_rules=dict(house))
    while game.state.phase == "setup":
        game.apply(game.legal_actions()[0])
    if terrain is not None:
        for slot in game.state.mainline:
            if slot.kind == "terrain":
                slot.card, slot.uphill, slot.modifiers = terrain, None, []
    return game


def rivals_game(catalog: Catalog = CATALOG, *, players: int = 2, seed: int = 11, **house: HouseRuleValue) -> Game:
    """A game with rivals at player 0's first turn; every terrain card is
    Plains, and no hand holds an opponent-directed card (a test gives them)."""
    game = game_with(catalog, players=players, seed=seed, terrain="plains", house=house)
    s = game.state
    opponent = {c.id for c in game.catalog.of_type(OpponentCard)}
    for hand in s.hands:
        for card_id in [c for c in hand if c in opponent]:
            hand.remove(card_id)
            s.deck.insert(0, card_id)
        while len(hand) < catalog.game.table.hand_limit:
            hand.append(next(c for c in reversed(s.deck) if c not in opponent))
            s.deck.remove(hand[-1])
    assert game.census() == dealt(game)
    return game


def end_stage(game: Game) -> None:
    """Every player ends their turn, so one Mainline Phase runs (or the game ends)."""
    stage = (game.state.day, game.state.stage)
    while (game.state.day, game.state.stage) == stage and not game.is_over():
        game.apply(EndTurn(game.state.current))


def dealt(game: Game) -> Counter[str]:
    """The dealt deck, as a census to compare ``game.census()`` with; from the
    game's own catalog, so a game built on an altered catalog counts its own
    cards."""
    return Counter(card.id for card in home_deck(game.catalog, game.rules, game.state.players))


# -- cards in hand -------------------------------------------------------------------


def take(game: Game, card_id: str, *, keep_hand: int | None = None) -> None:
    """Remove one copy of ``card_id`` from the deck, a Department or a hand
    other than ``keep_hand`` (in that order), or fail: a test may only use
    copies the deck really deals."""
    s = game.state
    piles = [s.deck, *s.departments, *[h for i, h in enumerate(s.hands) if i != keep_hand]]
    for pile in piles:
        if card_id in pile:
            pile.remove(card_id)
            return
    raise AssertionError(f"no copy of {card_id!r} is left to take (the deck deals {dealt(game)[card_id]})")


def give(game: Game, *cards: str, player: int = 0) -> None:
    """Put dealt cards into a hand, taking them from wherever they lie. When
    every other copy is gone but the hand already holds one (the opening deal
    gave it), that copy serves."""
    for card_id in cards:
        hand = game.state.hands[player]
        try:
            take(game, card_id, keep_hand=player)
        except AssertionError:
            if card_id not in hand:
                raise
            hand.remove(card_id)
        hand.append(card_id)


def set_hand(game: Game, *cards: str, player: int = 0) -> None:
    """Make ``cards`` the whole hand of ``player``: the old hand goes back to
    the deck first, then each card is given, so every dealt card is still
    accounted for (checked here)."""
    s = game.state
    s.deck.extend(s.hands[player])
    s.hands[player] = []
    give(game, *cards, player=player)
    assert game.census() == dealt(game)


def set_hand_and_draw(game: Game, *cards: str, player: int = 0) -> None:
    """``set_hand``, then the Draw option from the deck: a card played only
    during the Draw option (the grade cards, Realignment) may then be played
    this turn."""
    set_hand(game, *cards, player=player)
    game.apply(Draw(player, "deck"))


# -- a district ----------------------------------------------------------------------


def lay(game: Game, x: int, y: int, card_id: str, rotation: int = 0, *, player: int = 0, modifies: str | None = None, cars: list[Car] | None = None) -> Square:
    """Put a card straight onto a square (no rules judged), taking the card
    out of the deck so the census still balances."""
    card = game.catalog.by_id[card_id]
    take(game, card_id)
    district = game.state.districts[player]
    if isinstance(card, TrackShape):
        square = Square(card_id, "track", rotation)
    elif isinstance(card, Facility):
        start = game.catalog.facility_start
        square = Square(card_id, "facility", laborers=start.laborers, pipeline=[0] * len(start.pipeline))
    elif isinstance(card, FacilityModifier):
        assert modifies is not None, "a Modifier needs the key of its host"
        square = Square(card_id, "modifier", modifies=modifies)
    else:
        raise AssertionError(f"{card_id} is not laid on a square")
    square.cars = list(cars or [])
    district.squares[key(x, y)] = square
    return square


def facility(game: Game, player: int, x: int, y: int, card_id: str) -> Square:
    """A Facility laid straight onto a rival's square (no rules judged)."""
    return lay(game, x, y, card_id, player=player)


def enhance(game: Game, x: int, y: int, card_id: str, *, player: int = 0) -> None:
    """Build an Enhancement onto an existing square (taken from the deck)."""
    assert isinstance(game.catalog.by_id[card_id], Enhancement)
    take(game, card_id)
    game.state.districts[player].squares[key(x, y)].enhancement = card_id


def running_track(game: Game, west: int, east: int, *, player: int = 0) -> None:
    """Straights on row 0 from column ``west`` to ``east`` (the Office stays
    at 0), with the Limits signs just beyond them."""
    for x in range(west, east + 1):
        if x != 0:
            lay(game, x, 0, "straight", player=player)
    district = game.state.districts[player]
    district.west_limit, district.east_limit = west - 1, east + 1


def branch_yard(game: Game, *, player: int = 0) -> None:
    """A small district used by several files (Limits at -4 and 4):

    row -1:  stub(-3,-1) curve-right@0(-2,-1)          curve-left@180(2,-1) stub(3,-1)
    row  0:  (-3) (-2) turnout-right@180(-1) [Office] turnout-left@0(1) (2) (3)

    East of the Office a left turnout leaves the Running Track through its NE
    corner into a left curve turned 180 degrees, whose east end points at the
    empty square (3,-1). West of it a right turnout turned 180 degrees leaves
    through NW into a right curve, whose west end points at (-3,-1). A train
    standing at the Office reaches both stubs without reversing.
    """
    running_track(game, -3, 3, player=player)
    district = game.state.districts[player]
    for x, card, rotation in ((1, "turnout-left", 0), (-1, "turnout-right", 180)):
        game.state.deck.append(district.squares.pop(key(x, 0)).card)  # the straight goes back first
        lay(game, x, 0, card, rotation, player=player)
    lay(game, 2, -1, "curve-left", 180, player=player)
    lay(game, -2, -1, "curve-right", 0, player=player)


# -- the Mainline and its trains -----------------------------------------------------


def office_slot(game: Game, player: int = 0) -> int:
    """The Mainline position of ``player``'s Office."""
    return next(i for i, slot in enumerate(game.state.mainline) if slot.kind == "office" and slot.player == player)


def terrain_slot(game: Game) -> int:
    """The first Mainline terrain position east of player 0's Office."""
    return next(i for i, slot in enumerate(game.state.mainline) if slot.kind == "terrain" and i > office_slot(game, 0))


def put_train(
    game: Game,
    card_id: str,
    cars: list[Car] | None = None,
    *,
    train_id: str | None = None,
    position: int | None = None,
    player: int | None = None,
    heading: str = "east",
    caboose: bool | None = None,
    remaining: int = 0,
    held: int = 0,
) -> Train:
    """A train on the Mainline, standing at player 0's Office unless told
    otherwise. An Extra's card is taken out of the deck (a running Extra is
    counted by the census); it belongs to ``player`` (default 0)."""
    s = game.state
    card = game.catalog.by_id[card_id]
    is_extra = getattr(card, "service", None) == "extra"
    if is_extra:
        take(game, card_id)
        player = 0 if player is None else player
    if caboose is None:
        caboose = bool(getattr(card, "caboose", False))
    s.serial += 1
    train = Train(
        train_id or card_id,
        card_id,
        player if is_extra else None,
        heading,  # type: ignore[arg-type]
        office_slot(game) if position is None else position,
        list(cars or []),
        caboose,
        remaining=remaining,
        held=held,
        sequence=s.serial,
    )
    s.trains.append(train)
    s.crew_trays_free -= 1
    if caboose:
        s.cabooses_free -= 1
    return train


def loaded(car_type: str, n: int = 1, shipper: int | None = None) -> list[Car]:
    return [Car(car_type, True, shipper) for _ in range(n)]


def empty(car_type: str, n: int = 1) -> list[Car]:
    return [Car(car_type, False) for _ in range(n)]


# -- playing and reading -------------------------------------------------------------


def codes(reasons: Sequence[object]) -> list[str]:
    """The stable codes of refusal reasons (tests match these, not wording)."""
    return [getattr(r, "code", "") for r in reasons]


def run(game: Game, action: Action) -> list[str]:
    """Apply ``action`` (it must be legal) and return the handlers that ran."""
    assert game.check(action) == [], game.check(action)
    with trace() as ran:
        game.apply(action)
    return ran


def attack(game: Game, action: Attack) -> list[str]:
    """Play the attack, then let every player it waits on decline: the
    handlers that ran, from the play to the attack's resolving."""
    ran = run(game, action)
    while game.state.attack is not None and game.state.attack.waiting:
        ran += run(game, Decline(game.state.attack.waiting[0]))
    return ran


@contextlib.contextmanager
def registry(effect_ids: Sequence[str]) -> Iterator[None]:
    """Make the engine's handler registry hold exactly ``effect_ids`` (stub
    handlers), so a site test can fix which cards count as built."""
    from engine.effects.registry import Event
    from engine.stationmaster.effects import REGISTRY

    REGISTRY.load()  # let the real handler modules register first
    saved = dict(REGISTRY)
    REGISTRY.clear()
    for effect_id in effect_ids:
        REGISTRY.on(Event[Callable[..., None]]("stub"), effect_id)(_stub_handler)
    try:
        yield
    finally:
        REGISTRY.clear()
        REGISTRY.update(saved)


def _stub_handler(*args: object, **kwargs: object) -> None:
    return None
