"""Opponent-directed cards in play: an attack aimed at a rival, and its
response window.

An attack is played with its own action (``Attack``), as the turn's one play:
the attacker names the target, and the card's handler judges it
(``ATTACK_REFUSALS``). Then, in this order, with no clock anywhere:

1. the card goes to the Salvage Yard;
2. an Enhancement standing in the district of a player it is aimed at, whose
   content ``answers`` the attack, answers it at once (``ATTACK_ANSWERED``);
3. otherwise, if the deck holds a defence card that answers it, the response
   window opens: each player it is aimed at, in seat order from the
   attacker's left, answers with a held defence (``Answer``) or declines
   (``Decline``), and no other action is allowed meanwhile; the first answer
   closes the window and the attack does nothing;
4. if nobody answered, the attack resolves (``ATTACK_RESOLVED``), and the
   attacker's turn goes on.

The window asks every player the attack is aimed at, whether or not they hold
a defence, so being asked tells nobody what is in a hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import Reason, reasons_from
from engine.stationmaster.content.model import Card, OpponentCard
from engine.stationmaster.effects import load_handlers
from engine.stationmaster.rules.actions import Action, Answer, Attack, Decline
from engine.stationmaster.rules.events import ATTACK_ANSWERED, ATTACK_PROPOSALS, ATTACK_REFUSALS, ATTACK_RESOLVED
from engine.stationmaster.rules.geometry import key
from engine.stationmaster.rules.hand import card as known_card
from engine.stationmaster.rules.hand import from_hand_reasons
from engine.stationmaster.rules.lookups import answers_of, district_enhancements, find_train, log
from engine.stationmaster.rules.state import AttackInPlay, GameState
from engine.stationmaster.rules.targets import rivals

if TYPE_CHECKING:
    from engine.stationmaster.rules.context import RulesContext

# The actions of the response window.
RESPONSES = (Answer, Decline)

# Targets that belong to no player (``attacks`` in the content): such an
# attack is aimed at every rival, and any of them may answer it.
_NOBODYS = frozenset({"mainlineCard"})


def answering(state: GameState) -> int | None:
    """The player who must answer or decline now, while a window is open."""
    attack = state.attack
    return attack.waiting[0] if attack is not None and attack.waiting else None


def aimed_at(game: RulesContext, attack: AttackInPlay | Attack) -> str:
    """The target in words: "player 1's Coal Mine at (2, -1)", "the empty
    square (0, -1) of player 1's district", "X5 Excursion (extra-5)", "the
    Plains at Mainline position 3"."""
    s = game.state
    names = game.catalog.by_id
    if attack.train is not None:
        moving = find_train(game, attack.train)
        train = repr(attack.train)
        if moving is not None:
            slot = s.mainline[moving.position]
            if moving.remaining > 0:
                where = f"crossing the {names[s.slot_card(slot)].name} at Mainline position {moving.position}"
            elif slot.kind == "office":
                where = f"standing at player {slot.player}'s Office"
            else:
                where = f"standing at the {names[s.slot_card(slot)].name}"
            train = f"{names[moving.card].name} ({moving.id}), {where}"
        if attack.x is not None and attack.y is not None:
            return f"{train}, to run to ({attack.x}, {attack.y}) of player {attack.rival}'s district"
        return train
    if attack.slot is not None and 0 <= attack.slot < len(s.mainline):
        return f"the {names[s.slot_card(s.mainline[attack.slot])].name} at Mainline position {attack.slot}"
    if attack.x is not None and attack.y is not None and attack.rival is not None and 0 <= attack.rival < s.players:
        square = s.districts[attack.rival].squares.get(key(attack.x, attack.y))
        if square is None:
            return f"the empty square ({attack.x}, {attack.y}) of player {attack.rival}'s district"
        return f"player {attack.rival}'s {names[square.card].name} at ({attack.x}, {attack.y})"
    return "no target"


def _aimed_at_players(game: RulesContext, attacker: int, rival: int | None) -> list[int]:
    """Who may answer, in order: the rival named, or every rival from the attacker's left."""
    return [rival] if rival is not None else rivals(game, attacker)


def _answerable(game: RulesContext, card: Card) -> bool:
    """Whether the deck holds a built defence card that answers ``card``."""
    registry = load_handlers()
    return any(isinstance(c, OpponentCard) and card.id in c.answers and c.count > 0 and registry.get_handler(ATTACK_ANSWERED, c.effect) is not None for c in game.catalog.cards)


# -- judging ---------------------------------------------------------------------------


def play_refusal(card: OpponentCard) -> Reason:
    """Why an opponent-directed card is not played with the ordinary Play action."""
    if card.attacks is not None:
        return Reason("attack-card", f"{card.name} is played at a rival with the attack action, naming its target")
    return Reason("nothing-to-answer", f"{card.name} is a defence: it is played only to answer an attack aimed at you (the answer action), and none is waiting")


def response_reasons(game: RulesContext, action: Action) -> list[Reason] | None:
    """The response window's judgement: every reason an Answer or a Decline is
    refused, or, while a window is open, why any other action must wait.
    None: the action is not the window's business."""
    s = game.state
    attack = s.attack
    if attack is None and not isinstance(action, RESPONSES):
        return None  # no attack in play (nearly always): nothing here to judge
    on_spot = answering(s)
    if isinstance(action, RESPONSES):
        if attack is None or on_spot is None:
            if attack is not None and attack.answered_by is not None:
                answer = game.catalog.by_id[attack.answer or attack.card].name
                return [Reason("already-answered", f"the {game.catalog.by_id[attack.card].name} was answered already, by player {attack.answered_by}'s {answer}")]
            return [Reason("nothing-to-answer", "no attack is waiting for an answer")]
        name = game.catalog.by_id[attack.card].name
        found: list[Reason] = []
        if action.player != on_spot:
            if action.player in attack.waiting:
                found.append(Reason("not-your-answer-yet", f"player {on_spot} answers the {name} first"))
            else:
                whom = "every rival of player " + str(attack.attacker) if attack.rival is None else f"player {attack.rival}"
                found.append(Reason("not-aimed-at-you", f"the {name} is aimed at {whom}, and player {action.player} has no answer to give"))
        if isinstance(action, Answer):
            defence = known_card(game, action.card)
            if action.card not in s.hands[action.player]:
                found.append(Reason("not-in-hand", f"{defence.name} is not in player {action.player}'s hand"))
            if attack.card not in answers_of(defence):
                what = ", ".join(game.catalog.by_id[a].name for a in answers_of(defence) if a in game.catalog.by_id)
                found.append(Reason("does-not-answer", f"{defence.name} does not answer a {name}" + (f" (it answers {what})" if what else " (it answers no attack)")))
            elif load_handlers().get_handler(ATTACK_ANSWERED, getattr(defence, "effect", None)) is None:
                found.append(Reason("effect-unbuilt", f"{defence.name}'s answer is not built yet"))
        return found
    if on_spot is not None and attack is not None:
        name = game.catalog.by_id[attack.card].name
        return [Reason("awaiting-answer", f"the {name} played by player {attack.attacker} waits for player {on_spot} to answer or decline")]
    return None


def attack_reasons(game: RulesContext, action: Attack) -> list[Reason]:
    """Every reason ``action`` may not be played now (the caller has checked whose turn it is)."""
    s = game.state
    card = known_card(game, action.card)
    p = action.player
    found = from_hand_reasons(game, p, card)
    if not isinstance(card, OpponentCard) or card.attacks is None:
        how = "an attack aimed at you is answered with the answer action" if isinstance(card, OpponentCard) else "it is played with the play action"
        return found + [Reason("not-an-attack", f"{card.name} attacks nobody: {how}")]
    registry = load_handlers()
    if registry.get_handler(ATTACK_RESOLVED, card.effect) is None:
        return found + [Reason("effect-unbuilt", f"{card.name}'s effect ({card.effect}) is not built yet")]
    if s.players < 2:
        return found + [Reason("no-rival", f"a solitaire game has no rival to play {card.name} at")]
    if card.attacks in _NOBODYS:
        if action.rival is not None:
            found.append(Reason("aimed-at-every-rival", f"{card.name} is played on a card that belongs to nobody, and every rival may answer it: leave rival out"))
    elif action.rival is None:
        return found + [Reason("needs-rival", f"say which rival {card.name} is aimed at (rival)")]
    elif not 0 <= action.rival < s.players:
        return found + [Reason("no-such-rival", f"there is no player {action.rival} (players are 0 to {s.players - 1})")]
    elif action.rival == p:
        return found + [Reason("not-a-rival", f"player {p} cannot play {card.name} at their own district")]
    refuse = registry.get_handler(ATTACK_REFUSALS, card.effect)
    if refuse is not None:
        found += reasons_from(f"effect:{card.effect}", refuse(game, action, card))
    return found


# -- proposing -------------------------------------------------------------------------


def response_candidates(game: RulesContext) -> list[Action]:
    """While a window is open: each held defence that answers, and declining."""
    s = game.state
    attack, p = s.attack, answering(s)
    if attack is None or p is None:
        return []
    found: list[Action] = [Answer(p, c) for c in sorted(set(s.hands[p])) if attack.card in answers_of(game.catalog.by_id[c])]
    found.append(Decline(p))
    return found


def attack_candidates(game: RulesContext, player: int, card: Card) -> list[Action]:
    """The attacks worth proposing with ``card`` from ``player``'s hand."""
    if not isinstance(card, OpponentCard) or card.attacks is None or game.state.players < 2:
        return []
    propose = load_handlers().get_handler(ATTACK_PROPOSALS, card.effect)
    return list(propose(game, player, card)) if propose is not None else []


# -- carrying out ----------------------------------------------------------------------


def perform_attack(game: RulesContext, action: Attack) -> None:
    s = game.state
    card = game.catalog.by_id[action.card]
    assert isinstance(card, OpponentCard)
    s.hands[action.player].remove(card.id)
    s.salvage.append(card.id)
    s.turn.played = True
    attack = AttackInPlay(card.id, action.player, action.rival, action.x, action.y, action.train, action.slot)
    s.attack = attack
    log(s, f"player {action.player} plays {card.name} at {aimed_at(game, attack)}")
    defenders = _aimed_at_players(game, action.player, action.rival)
    registry = load_handlers()
    for player in defenders:
        for standing in district_enhancements(game, player):
            answer = registry.get_handler(ATTACK_ANSWERED, standing.effect) if card.id in standing.answers else None
            if answer is not None:
                attack.answered_by, attack.answer = player, standing.id
                log(s, f"player {player}'s {standing.name} answers the {card.name}: it does nothing")
                answer(game, attack, player, standing)
                return
    if _answerable(game, card):
        attack.waiting = defenders
        log(s, f"the {card.name} waits for an answer: player {defenders[0]} may answer it or let it stand")
        return
    _resolve(game, attack)


def perform_response(game: RulesContext, action: Answer | Decline) -> None:
    s = game.state
    attack = s.attack
    assert attack is not None and attack.waiting
    name = game.catalog.by_id[attack.card].name
    if isinstance(action, Answer):
        defence = game.catalog.by_id[action.card]
        s.hands[action.player].remove(defence.id)
        s.salvage.append(defence.id)
        attack.waiting = []
        attack.answered_by, attack.answer = action.player, defence.id
        log(s, f"player {action.player} answers the {name} with {defence.name}: it does nothing")
        answer = load_handlers().get_handler(ATTACK_ANSWERED, getattr(defence, "effect", None))
        assert answer is not None
        answer(game, attack, action.player, defence)
        return
    attack.waiting.pop(0)
    log(s, f"player {action.player} lets the {name} stand")
    if attack.waiting:
        log(s, f"player {attack.waiting[0]} may answer the {name} or let it stand")
    else:
        _resolve(game, attack)


def _resolve(game: RulesContext, attack: AttackInPlay) -> None:
    card = game.catalog.by_id[attack.card]
    resolve = load_handlers().get_handler(ATTACK_RESOLVED, getattr(card, "effect", None))
    assert resolve is not None, f"{card.id} was judged playable, but no handler resolves it"
    resolve(game, attack, card)
