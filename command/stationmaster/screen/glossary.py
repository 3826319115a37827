"""The game's own words explained, and how points are earned: both read
from the content (``Catalog.words``), the same words the site shows."""

from __future__ import annotations

import re

from command.words import counted
from engine.stationmaster.rules.game import Game

# game.yaml's scoring keys with the field of ``Scoring`` that holds their points.
_SCORING_FIELDS = {"loadWorked": "load_worked", "loadDelivered": "load_delivered", "passengersSetDown": "passengers_set_down", "paidStop": "paid_stop"}


def _said(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w/]){re.escape(word)}", text, re.IGNORECASE) is not None


def terms_in(game: Game, text: str | None) -> list[tuple[str, str]]:
    """Each glossary term ``text`` uses (or its ``also`` words), with its
    explanation, in the glossary's order; every term when ``text`` is None."""
    return [(entry.term, entry.words) for entry in game.catalog.words.glossary if text is None or any(_said(word, text) for word in (entry.term, *entry.also))]


def explain(found: list[tuple[str, str]]) -> list[str]:
    if not found:
        return ["No words to explain."]
    return ["What the words mean:", *(f"  {term}: {words}" for term, words in found)]


def scoring_lines(game: Game) -> list[str]:
    """How points are earned: each scoring event, its points and who scores,
    then the scores now."""
    scoring = game.catalog.game.scoring
    lines = ["How points are earned:"]
    for key, words in game.catalog.words.scoring.items():
        points = getattr(scoring, _SCORING_FIELDS.get(key, ""), None)
        if isinstance(points, int):
            lines.append(f"  {words.earns}: {counted(points, 'point')} to {words.to}")
    if len(lines) == 1:
        lines.append("  (the content says no words for its scoring events)")
    lines.append("Scores now: " + "; ".join(f"district {p}: {score}" for p, score in enumerate(game.score())))
    return lines
