"""The rules of a turn: every reason an action is refused, and what it does.

A trick is played card by card; when the last card is down the trick is
resolved by the leftmost lane card's effect (a stock trick settles at once,
an operating trick queues placements, each an action of its own). Input
that names nothing real is an InvalidActionError, raised before any rule is
asked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import InvalidActionError, Reason
from engine.trickoftherails.effects import load_handlers
from engine.trickoftherails.rules.actions import ENDS, Action, LayTrack, PlaceCity, PlaceLocomotive, Play
from engine.trickoftherails.rules.events import LANE_CARD_WON, LOCOMOTIVE_FOLLOWS
from engine.trickoftherails.rules.state import Pending, Trick
from engine.trickoftherails.rules.tricks import follows, led_company, winner

if TYPE_CHECKING:
    from engine.trickoftherails.rules.context import RulesContext

_EXPECTED: dict[str, type[Action]] = {"city": PlaceCity, "locomotive": PlaceLocomotive, "lay": LayTrack}


def to_act(game: RulesContext) -> int | None:
    s = game.state
    if s.phase == "over":
        return None
    if s.phase == "place":
        return s.pending[0].player
    return (s.trick.leader + len(s.trick.plays)) % s.players


def well_formed(game: RulesContext, action: Action) -> None:
    s = game.state
    if not 0 <= action.player < s.players:
        raise InvalidActionError(f"{action}: there is no player {action.player} (players are 0 to {s.players - 1})")
    kind = type(action)
    if kind is Play:
        assert isinstance(action, Play)
        if action.card not in game.catalog.by_id:
            raise InvalidActionError(f"{action}: unknown card {action.card!r}")
        return
    if isinstance(action, (PlaceCity, PlaceLocomotive)) and action.company not in s.railways:
        raise InvalidActionError(f"{action}: unknown company {action.company!r}; the companies are {', '.join(s.railways)}")
    if isinstance(action, (PlaceCity, LayTrack)) and action.end not in ENDS:
        raise InvalidActionError(f"{action}: end must be 'left' or 'right'")


def reasons(game: RulesContext, action: Action) -> list[Reason]:
    well_formed(game, action)
    return judged(game, action)


def judged(game: RulesContext, action: Action) -> list[Reason]:
    """Every reason a well-formed ``action`` is refused: the game's own
    proposals name only real players, cards, companies and ends, so a bot's
    pick asks this alone."""
    s = game.state
    if s.phase == "over":
        return [Reason("game-over", "the game is over")]
    found: list[Reason] = []
    actor = to_act(game)
    if action.player != actor:
        found.append(Reason("not-your-turn", f"it is player {actor}'s turn, not player {action.player}'s"))
    if s.phase == "play":
        if not isinstance(action, Play):
            found.append(Reason("trick-in-play", f"the trick is still being played: player {actor} plays a card"))
            return found
        refused = play_refusal(game, action)
        if refused is not None:
            found.append(refused)
        return found
    pending = s.pending[0]
    wanted = _EXPECTED[pending.what]
    if not isinstance(action, wanted):
        card = game.catalog.by_id[pending.card].name
        found.append(Reason("placement-pending", f"player {pending.player} places {card} first ({wanted.kind})"))
        return found
    if isinstance(action, PlaceLocomotive) and action.company in s.locomotives:
        have = game.catalog.by_id[s.locomotives[action.company]].name
        found.append(Reason("railway-has-locomotive", f"the {company_name(game, action.company)} railway already has {have}; a locomotive goes to a railway without one"))
    return found


def play_refusal(game: RulesContext, action: Play) -> Reason | None:
    """Why the card cannot be played to the trick (a card is either held or
    not, and follows suit or not: there is at most one reason)."""
    s = game.state
    hand = s.hands[action.player]
    if action.card not in hand:
        return Reason("not-in-hand", f"{game.catalog.by_id[action.card].name} is not in player {action.player}'s hand")
    if not follows(game.catalog, hand, s.trick, action.card):
        led = led_company(game.catalog, s.trick)
        assert led is not None
        held = ", ".join(game.catalog.by_id[c].name for c in sorted(hand, key=game.order) if game.catalog.by_id[c].company == led)
        return Reason("must-follow-suit", f"{company_name(game, led)} was led and player {action.player} holds {held}: a card of the led company must be played")
    return None


def company_name(game: RulesContext, company: str) -> str:
    return game.catalog.company(company).name


def perform(game: RulesContext, action: Action) -> None:
    s = game.state
    if isinstance(action, Play):
        s.hands[action.player].remove(action.card)
        s.trick.plays.append((action.player, action.card))
        if len(s.trick.plays) == s.players:
            _resolve(game)
        return
    pending = s.pending.pop(0)
    if isinstance(action, PlaceCity):
        add_to_railway(game, action.company, pending.card, action.end)
        game.log(f"player {action.player} adds {game.catalog.by_id[pending.card].name} to the {action.end} end of the {company_name(game, action.company)} railway")
    elif isinstance(action, PlaceLocomotive):
        place_locomotive(game, action.player, pending.card, action.company)
    elif isinstance(action, LayTrack):
        company = game.catalog.by_id[pending.card].company
        assert company is not None
        add_to_railway(game, company, pending.card, action.end)
        game.log(f"player {action.player} lays {game.catalog.by_id[pending.card].name} at the {action.end} end of its railway")
    if not s.pending:
        _next_trick(game)


def add_to_railway(game: RulesContext, company: str, card: str, end: str) -> None:
    railway = game.state.railways[company]
    if end == "left":
        railway.insert(0, card)
    else:
        railway.append(card)


def place_locomotive(game: RulesContext, player: int, card_id: str, company: str) -> None:
    s = game.state
    s.locomotives[company] = card_id
    card = game.catalog.by_id[card_id]
    game.log(f"player {player} puts {card.name} at the head of the {company_name(game, company)} railway")
    if card.brings is not None:
        brought = game.catalog.by_id[card.brings]
        follow = load_handlers().get_handler(LOCOMOTIVE_FOLLOWS, brought.effect)
        if follow is not None:
            follow(game, player, brought)


def lay_queue(game: RulesContext, trick: Trick) -> list[Pending]:
    """Every played card to be laid, the winner's first, then clockwise."""
    assert trick.winner is not None
    n = game.state.players
    order = [(trick.winner + i) % n for i in range(n)]
    return [Pending(p, trick.card_of(p), "lay") for p in order]


def _resolve(game: RulesContext) -> None:
    s = game.state
    trick = s.trick
    trick.winner = winner(game.catalog, trick)
    lane_card = game.catalog.by_id[s.lane.pop(0)]
    game.log(f"player {trick.winner} wins the trick with {game.catalog.by_id[trick.card_of(trick.winner)].name}; the lane card is {lane_card.name}")
    resolve = load_handlers().get_handler(LANE_CARD_WON, lane_card.effect)
    if resolve is None:
        raise AssertionError(f"no handler resolves a trick for {lane_card.name} ({lane_card.effect}); the game cannot be set up without one")
    resolve(game, trick, lane_card)
    s.tricks_played += 1
    if s.pending:
        s.phase = "place"
    else:
        _next_trick(game)


def _next_trick(game: RulesContext) -> None:
    s = game.state
    assert s.trick.winner is not None
    leader = s.trick.winner
    s.last_trick = s.trick
    if not s.lane:
        assert not any(s.hands), "the hands run out with the lane"
        s.phase = "over"
        game.log("the game ends; final scores " + ", ".join(f"player {p} {score}" for p, score in enumerate(game.score())))
        return
    s.trick = Trick(leader)
    s.phase = "play"
