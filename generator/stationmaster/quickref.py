"""Station Master in a few lines: the turn, the options a turn takes, and
what scores. The scoring words are the content's (game.yaml's
``scoringWords``): the site's scoring table (``engine-decisions.md``'s
``scoring`` block) takes its rows from ``scoring_rows``, and the terminal
game's ``help``
(``command.stationmaster.session``) prints all of it, so the two never say
different things. Every figure comes from the catalog."""

from __future__ import annotations

from typing import NamedTuple

from engine.stationmaster.content.model import Catalog

# game.yaml's scoring words (``scoringWords``) by key, and the Scoring field
# that says how many points each earns, in the order the game lists them.
SCORING_KEYS = (("loadWorked", "load_worked"), ("loadDelivered", "load_delivered"), ("passengersSetDown", "passengers_set_down"), ("paidStop", "paid_stop"))


def counted(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class ScoringRow(NamedTuple):
    """One scoring event: what earns (the content's words), how many points, and to whom."""

    earns: str
    points: int
    to: str


def scoring_rows(catalog: Catalog) -> list[ScoringRow]:
    """Each scoring event game.yaml words, in the game's order."""
    words = catalog.words.scoring
    return [ScoringRow(words[key].earns, getattr(catalog.game.scoring, field), words[key].to) for key, field in SCORING_KEYS if key in words]


def _flag(catalog: Catalog) -> str:
    """The card that stops a train where it stands, by the content's name
    for it (the card whose effect is ``red-flag``), with its article."""
    names = [card.name for card in catalog.cards if getattr(card, "effect", None) == "red-flag"]
    return f"a {names[0]}" if names else "a card that stops a train"


def paragraphs(catalog: Catalog) -> list[str]:
    """The turn, the options and the scoring, a paragraph each."""
    table = catalog.game.table
    scoring = "; ".join(f"{row.earns[:1].lower()}{row.earns[1:]}: {counted(row.points, 'point')} to {row.to}" for row in scoring_rows(catalog))
    return [
        f"The turn. The game lasts {counted(table.game_days, 'Day')} of {counted(table.stages_per_day, 'Stage')}. In each Stage every district takes a turn, "
        "player 0 first; then the trains run along the Mainline (the Mainline Phase) and the next Stage begins. "
        "The timetable says which train is due to leave at each Stage.",
        "The options. A turn takes at most one of three: Draw (take the top card of the Home Office deck or of a "
        "Department, then play a card, discard one onto a Department, or neither); Play (play a card without drawing); "
        f"Switch (up to {counted(table.switch_moves, 'move')} with a train standing at your Office: set out cars at an "
        f"industry, or couple up cars standing there). Whatever the option, {_flag(catalog)} may be spent and an Extra you "
        f"played may be held, and the hand must be down to its limit ({table.hand_limit}) before the turn ends.",
        "The cards. Track joins your district's rails; an industry (a Facility) stands on a stub off the Running "
        "Track and ships or receives loads; a Facility Modifier serves the card beside it; a train card goes onto the "
        "timetable (timetabled) or straight onto the Mainline (an Extra); an attack card is aimed at a rival.",
        f"Scoring. {scoring[:1].upper()}{scoring[1:]}. The highest score wins.",
    ]
