"""Station Master in a few lines: the turn, the options a turn takes, and
what scores. Written once, here: the site's scoring table
(``engine-decisions.md``'s ``scoring`` block) takes its rows from
``SCORING_EVENTS``, and the terminal game's ``help``
(``command.stationmaster.session``) prints all of it, so the two never say
different things. Every figure comes from the catalog."""

from __future__ import annotations

from engine.stationmaster.content.model import Catalog

# What earns points: the event, the Scoring field that says how many, and to whom.
SCORING_EVENTS: tuple[tuple[str, str, str], ...] = (
    ("A load leaves the last box of an industry's pipeline", "load_worked", "the industry's district"),
    ("A car an industry loaded reaches a Division Point", "load_delivered", "the district that loaded it"),
    ("A coach of passengers is set down at a Passenger Facility", "passengers_set_down", "that Facility's district"),
    ("A train that pays for stopping makes a qualifying stop", "paid_stop", "the district it stood in"),
)


def counted(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def scoring_rows(catalog: Catalog) -> list[dict[str, object]]:
    """``SCORING_EVENTS`` with the points the content gives each."""
    return [{"event": event, "points": getattr(catalog.game.scoring, field), "whom": whom} for event, field, whom in SCORING_EVENTS]


def paragraphs(catalog: Catalog) -> list[str]:
    """The turn, the options and the scoring, a paragraph each."""
    table = catalog.game.table
    scoring = "; ".join(f"{event[:1].lower()}{event[1:]}: {counted(getattr(catalog.game.scoring, field), 'point')} to {whom}" for event, field, whom in SCORING_EVENTS)
    return [
        f"The turn. The game lasts {counted(table.game_days, 'Day')} of {counted(table.stages_per_day, 'Stage')}. In each Stage every district takes a turn, "
        "player 0 first; then the trains run along the Mainline (the Mainline Phase) and the next Stage begins. "
        "The timetable says which train is due to leave at each Stage.",
        "The options. A turn takes at most one of three: Draw (take the top card of the Home Office deck or of a "
        "Department, then play a card, discard one onto a Department, or neither); Play (play a card without drawing); "
        f"Switch (up to {counted(table.switch_moves, 'move')} with a train standing at your Office: set out cars at an "
        "industry, or couple up cars standing there). Whatever the option, a Red Flag may be spent and an Extra you "
        f"played may be held, and the hand must be down to its limit ({table.hand_limit}) before the turn ends.",
        "The cards. Track joins your district's rails; an industry (a Facility) stands on a stub off the Running "
        "Track and ships or receives loads; a Facility Modifier serves the card beside it; a train card goes onto the "
        "timetable (timetabled) or straight onto the Mainline (an Extra); an attack card is aimed at a rival.",
        f"Scoring. {scoring[:1].upper()}{scoring[1:]}. The highest score wins.",
    ]
