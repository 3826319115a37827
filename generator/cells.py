"""Turning content text into Markdown table cells that show it literally."""

from __future__ import annotations

import html
import re

from engine.pack import STATUS_WORDS

# Characters that can start Markdown syntax inside a table cell; a backslash
# before each makes Python-Markdown print it as itself. (#, +, - and digits
# only matter at the start of a line, which a cell never is; ( ) only after
# a ], which is escaped; < > & are turned into entities first.)
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]|])")


def cell(value: object) -> str:
    """``value`` as the literal text of one table cell.

    HTML is escaped (so ``<script>`` is shown, never run), Markdown syntax is
    backslash-escaped, and line breaks become spaces so a row stays one line.
    """
    text = "" if value is None else str(value)
    text = " ".join(text.split())
    text = html.escape(text, quote=False)
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def anchor(card_id: str) -> str:
    """The stable anchor of a card's row; ids are restricted by the schema."""
    return "card-" + card_id


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def status_words(status: str) -> str:
    """A status in plain words, then the engine's own word for it (shown
    under them by the site's stylesheet)."""
    return f'{STATUS_WORDS[status]} <span class="engine-word">{status}</span>'
