"""Helpers shared by the district tests (tests/test_district_*.py), and a few
checks that the helpers themselves build honest situations.

A situation is reached by building a real game and then editing its state:
cards a test lays straight onto a square, or hands a player, are taken out of
the Home Office deck (or a Department) first, so ``Game.census()`` still equals
the dealt deck and a test may go on through ``check``/``apply`` as in play.

The Mainline of a one-district game is [West DP, terrain, Office, terrain,
East DP]; the Office is at index 2. Terrain is set to Plains (60 mph both
ways) so crossing times are known: a fast train without coaches crosses in one
Stage, a slow one in two.
"""

from __future__ import annotations

from collections.abc import Sequence

from collections import Counter
from pathlib import Path

from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import Catalog, Enhancement, Facility, FacilityModifier, TrackShape
from engine.stationmaster.rules.deck import home_deck
from engine.stationmaster.rules.game import Game
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.state import Car, Square, Train

ROOT = Path(__file__).resolve().parents[1]
CATALOG = load_catalog(ROOT / "content" / "stationmaster")

ONE_PLAYER_OFFICE = 2  # [West DP, terrain, Office, terrain, East DP]


def new_game(catalog: Catalog, *, players: int = 1, seed: int = 11, **house: str | bool) -> Game:
    """A game at the first Local Operations turn, every terrain card Plains."""
    game = Game(catalog, players=players, seed=seed, house_rules=house)
    while game.state.phase == "setup":
        game.apply(game.legal_actions()[0])
    for slot in game.state.mainline:
        if slot.kind == "terrain":
            slot.card, slot.uphill, slot.modifiers = "plains", None, []
    return game


def dealt(game: Game) -> Counter[str]:
    """The dealt deck, as a census to compare ``game.census()`` with."""
    return Counter(card.id for card in home_deck(game.catalog, game.rules, game.state.players))


def _take(game: Game, card_id: str, *, keep_hand: int | None = None) -> None:
    """Remove one copy of ``card_id`` from the deck, a Department or a hand
    other than ``keep_hand``, or fail: the card must be in play already."""
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
            _take(game, card_id, keep_hand=player)
        except AssertionError:
            if card_id not in hand:
                raise
            hand.remove(card_id)
        hand.append(card_id)


def lay(game: Game, x: int, y: int, card_id: str, rotation: int = 0, *, player: int = 0, modifies: str | None = None, cars: list[Car] | None = None) -> Square:
    """Put a card straight onto a square (no rules judged), taking the card
    out of the deck so the census still balances."""
    card = game.catalog.by_id[card_id]
    _take(game, card_id)
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


def enhance(game: Game, x: int, y: int, card_id: str, *, player: int = 0) -> None:
    """Build an Enhancement onto an existing square (taken from the deck)."""
    assert isinstance(game.catalog.by_id[card_id], Enhancement)
    _take(game, card_id)
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


def office_slot(game: Game, player: int = 0) -> int:
    return next(i for i, slot in enumerate(game.state.mainline) if slot.kind == "office" and slot.player == player)


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
        _take(game, card_id)
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


def codes(reasons: Sequence[str]) -> list[str]:
    """The stable codes of refusal reasons (tests match these, not wording)."""
    return [getattr(r, "code", "") for r in reasons]


# -- the helpers themselves ----------------------------------------------------


def test_new_game_is_at_local_operations_with_the_census_balanced() -> None:
    game = new_game(CATALOG)
    assert game.state.phase == "local"
    assert game.state.mainline[ONE_PLAYER_OFFICE].kind == "office"
    assert game.census() == dealt(game)


def test_laid_and_given_cards_keep_the_census_equal_to_the_deck() -> None:
    game = new_game(CATALOG)
    branch_yard(game)
    lay(game, 3, -1, "grocers-warehouse")
    enhance(game, 0, 0, "small-yard")
    give(game, "straight", "depot" if dealt(game)["depot"] else "station")
    put_train(game, "extra-18", loaded("flatcar", 3))
    assert game.census() == dealt(game)


def test_the_branch_yard_is_a_district_the_rules_would_have_allowed() -> None:
    """Each square of the helper layout is one the engine accepts when it is
    played in order, so the other files start from a legal district."""
    from engine.stationmaster.rules.actions import Play
    from engine.stationmaster.rules.state import TurnState

    game = new_game(CATALOG)
    plan = [(x, 0, "straight", 0) for x in (1, 2, 3, -1, -2, -3)]
    plan += [(1, 0, "turnout-left", 0), (2, -1, "curve-left", 180), (-1, 0, "turnout-right", 180), (-2, -1, "curve-right", 0)]
    for x, y, card, rotation in plan:
        give(game, card)
        game.apply(Play(0, card, x=x, y=y, rotation=rotation))
        game.state.turn = TurnState()  # as if a new turn had begun
    built = {k: (sq.card, sq.rotation) for k, sq in game.state.districts[0].squares.items()}
    other = new_game(CATALOG)
    branch_yard(other)
    assert built == {k: (sq.card, sq.rotation) for k, sq in other.state.districts[0].squares.items()}
    d, o = game.state.districts[0], other.state.districts[0]
    assert (d.west_limit, d.east_limit) == (o.west_limit, o.east_limit) == (-4, 4)


def test_both_stubs_of_the_branch_yard_are_reachable_from_the_office() -> None:
    from engine.stationmaster.rules.switching import reachable

    game = new_game(CATALOG)
    branch_yard(game)
    found = reachable(game, game.state.districts[0])
    assert {"2,-1", "-2,-1", "2,0", "3,0", "-2,0", "-3,0"} <= found
    assert "1,0" not in found and "-1,0" not in found  # turnouts: run through, never stopped on
