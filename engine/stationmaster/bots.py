"""Station Master's bots: functions from a game to the action they take.

A bot chooses only from the game's bot stream (``game.bot``), never from the
rules' stream, so a bot's game is exactly its seed plus its recorded actions.

- ``random``: uniform among the legal actions (``Game.random_legal_action``).
- ``greedy``: ranks every proposed action with a fixed heuristic (see
  :func:`greedy_value`) and takes a legal one of the best rank, ties broken
  uniformly from ``game.bot``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from engine.stationmaster.actions import Action, ChooseGrade, Discard, Draw, EndTurn, Hold, Play, Pull, Spot
from engine.stationmaster.content.model import (
    Card,
    Enhancement,
    Facility,
    FacilityModifier,
    MainlineModifier,
    Maneuver,
    OfficeTier,
    SecondSection,
    TrackShape,
    TrainCard,
)
from engine.stationmaster.geometry import key

# The rules engine is imported where it is used: ``stationmaster`` builds the
# ``simulate`` parser (which lists the bots) without loading the game.
if TYPE_CHECKING:
    from engine.stationmaster.game import Game

BOTS: Final = ("random", "greedy")

Bot = Callable[["Game"], "Action | None"]


def random_bot(game: Game) -> Action | None:
    """Uniform among the legal actions, drawn from the game's bot stream."""
    return game.random_legal_action()


_PLAY_VALUES: Final[tuple[tuple[type[Card], int], ...]] = (
    (Facility, 40),
    (OfficeTier, 38),
    (FacilityModifier, 35),
    (TrackShape, 30),
    (TrainCard, 27),
    (Enhancement, 25),
    (MainlineModifier, 15),
    (SecondSection, 15),
    (Maneuver, 10),
)
_DRAW = 50
_DELIVER_SPOT = 60
_DELIVER_PULL = 55
_END_TURN = 0
_WASTED = -10  # a switching move that delivers nothing, a Red Flag, a sort: below ending the turn


def _play_value(card: Card) -> int:
    for kind, value in _PLAY_VALUES:
        if isinstance(card, kind):
            if isinstance(card, TrainCard) and card.service == "extra":
                return value - 1
            return value
    return 10


def _playable(game: Game, player: int, card: Card) -> bool:
    """Whether ``card`` could be played now somewhere (were it in the hand and
    the turn free to play): the card's own rules, not the turn's."""
    from engine.stationmaster.district import placement_candidates
    from engine.stationmaster.play import card_play_reasons

    if isinstance(card, (TrackShape, Facility, FacilityModifier)) or (isinstance(card, Enhancement) and card.placement == "district"):
        return any(not card_play_reasons(game, card, Play(player, card.id, x=x, y=y, rotation=r)) for x, y, r in placement_candidates(game, player, card))
    if isinstance(card, TrainCard) and card.service == "extra":
        return True
    if isinstance(card, MainlineModifier) or (isinstance(card, Enhancement) and card.placement == "mainline"):
        slots = [i for i, slot in enumerate(game.state.mainline) if slot.kind == "terrain"]
        return any(not card_play_reasons(game, card, Play(player, card.id, slot=i)) for i in slots)
    if isinstance(card, SecondSection):
        due = game.state.timetable[game.state.stage - 1]
        return due is not None and not card_play_reasons(game, card, Play(player, card.id, train=due))
    return not card_play_reasons(game, card, Play(player, card.id))


def _spot_delivers(game: Game, action: Spot) -> bool:
    """Whether the cars set out are ones the Facility there works: loads for
    an inbound industry, empties for an outbound one."""
    from engine.stationmaster.switching import train_district

    train = next((t for t in game.state.trains if t.id == action.train), None)
    district = train_district(game, train) if train is not None else None
    if train is None or district is None or not 1 <= action.cars <= len(train.cars):
        return False
    square = district.squares.get(key(action.x, action.y))
    card = game.catalog.by_id.get(square.card) if square is not None else None
    if square is None or square.kind != "facility" or not isinstance(card, Facility):
        return False
    for car in train.cars[-action.cars :]:
        if car.type not in card.car_types:
            continue
        if car.loaded and card.traffic in ("inbound", "both"):
            return True
        if not car.loaded and card.traffic in ("outbound", "both"):
            return True
    return False


def _pull_delivers(game: Game, action: Pull) -> bool:
    """Whether the cars coupled include loads this district shipped (they
    score when they reach a Division Point)."""
    from engine.stationmaster.switching import train_district

    train = next((t for t in game.state.trains if t.id == action.train), None)
    district = train_district(game, train) if train is not None else None
    if district is None:
        return False
    square = district.squares.get(key(action.x, action.y))
    return square is not None and any(car.loaded and car.shipper == action.player for car in square.cars)


def _hold_pays(game: Game, action: Hold) -> bool:
    from engine.stationmaster.effects import load_handlers
    from engine.stationmaster.events import TRAIN_STOOD
    from engine.stationmaster.switching import train_district

    train = next((t for t in game.state.trains if t.id == action.train), None)
    if train is None:
        return False
    card = game.catalog.by_id[train.card]
    district = train_district(game, train)
    return (
        isinstance(card, TrainCard)
        and load_handlers().get_handler(TRAIN_STOOD, card.effect) is not None
        and district is not None
        and train.id not in district.paid_stops
        and bool(train.cars)
        and all(car.loaded for car in train.cars)
    )


def greedy_value(game: Game, action: Action) -> int:
    """The greedy bot's rank of a proposed action (higher is preferred).

    At the start of a turn a switching move that delivers (spots a load or an
    empty where a Facility works it, or pulls loads the district shipped)
    comes first, then a Draw (a Draw never stops the Play that may follow it;
    a Department showing a Facility, Office upgrade, Modifier or track that
    could be played now is preferred to the deck, the deck to any other
    Department). Then playing a card, best first: Facility, Office upgrade,
    Facility Modifier, track (off the Running Track, and turnouts, first),
    train, Enhancement, Mainline cards, Maneuvers.
    Any Play ranks above any Discard; the Discard of the least useful card
    ranks highest. Ending the turn ranks below a Discard, so a drawn card that
    cannot be played is cycled away; moves that earn nothing (a switching move
    that delivers nothing, a Red Flag, a sort, a Hold that pays nothing) rank
    below ending the turn.
    """
    s = game.state
    if isinstance(action, ChooseGrade):
        return 0
    if isinstance(action, Draw):
        if action.source == "deck":
            return _DRAW + 1
        pile = s.departments[int(action.source) - 1]
        top = game.catalog.by_id[pile[-1]] if pile else None
        if top is not None and _play_value(top) >= 30 and _playable(game, action.player, top):
            return _DRAW + 2
        return _DRAW
    if isinstance(action, Play):
        card = game.catalog.by_id[action.card]
        value = _play_value(card)
        if isinstance(card, TrackShape):
            # Rails off the Running Track, and turnouts, make room for industries.
            value += (3 if action.y else 0) + (2 if len(card.routes) > 1 else 0)
        return value
    if isinstance(action, Discard):
        # 1 (a Facility) .. 9 (a Maneuver): the less a card is worth, the sooner it goes.
        return max(1, 10 - _play_value(game.catalog.by_id[action.card]) // 4)
    if isinstance(action, Spot):
        return _DELIVER_SPOT if _spot_delivers(game, action) else _WASTED
    if isinstance(action, Pull):
        return _DELIVER_PULL if _pull_delivers(game, action) else _WASTED
    if isinstance(action, Hold):
        return 20 if _hold_pays(game, action) else _WASTED
    if isinstance(action, EndTurn):
        return _END_TURN
    return _WASTED  # RedFlag, SortCars: nothing earned


def greedy_bot(game: Game) -> Action | None:
    """The legal action of the best :func:`greedy_value`, ties broken
    uniformly from ``game.bot`` (proposals of one rank are drawn at random and
    checked until one is legal, as ``random_legal_action`` does)."""
    from engine.stationmaster.proposals import candidates

    ranked: dict[int, list[Action]] = {}
    for action in candidates(game):
        ranked.setdefault(greedy_value(game, action), []).append(action)
    for value in sorted(ranked, reverse=True):
        chosen = game.first_legal(ranked[value], game.bot)
        if chosen is not None:
            return chosen
    return None


BOT_FUNCTIONS: Final[dict[str, Bot]] = {"random": random_bot, "greedy": greedy_bot}
