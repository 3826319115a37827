"""Turning content text into Markdown that shows it literally: as a table
cell, a list item, a heading or the first words of a paragraph."""

from __future__ import annotations

import html
import re

from generator.tableset import STATUS_WORDS

# Characters that can start Markdown syntax anywhere in a line; a backslash
# before each makes Python-Markdown print it as itself. (( ) only matter
# after a ], which is escaped; < > & are turned into entities first.)
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]|])")
# What makes a line a heading, a list item or a rule when it starts the
# line: a text such as a game's title is often the first thing on its line
# (the home page's edition line, a list item's value), so such a start is
# escaped too. Python-Markdown reads "#" as a heading even with no space
# after it; "-", "+" and "1." make a list only before a space, and a run of
# "-" alone is a rule. (``>`` is already ``&gt;`` by then, ``*`` is escaped
# everywhere.) A "#" ending the text would be taken off a heading's end.
_LINE_START = re.compile(r"^(?:(#|[-+](?=\s)|-(?=[-\s]*$))|(\d{1,9})([.)])(?=\s|$))")
_HEADING_END = re.compile(r"#$")
# Bidirectional controls reorder the text around them (U+202E shows what
# follows backwards), so a page could show something other than what the
# content says; like control characters (NUL makes git call a page binary,
# ESC drives a terminal), lone surrogates and a stray byte-order mark, they
# are shown as their code points instead of reaching the page raw.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_INVISIBLE = re.compile(f"[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufeff{_BIDI}]")


def visible(text: str) -> str:
    """``text`` with each control or bidi character written as its code
    point (``<U+202E>``), so it is seen on the page instead of acting."""
    return _INVISIBLE.sub(lambda found: f"<U+{ord(found.group()):04X}>", text)


_INVISIBLE_IN_OUTPUT = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufeff{_BIDI}]")


def visible_output(value: object) -> object:
    """What a template prints, with control and bidi characters shown as in
    ``visible``; line breaks and tabs (a template's own layout) are kept."""
    if isinstance(value, str) and _INVISIBLE_IN_OUTPUT.search(value):
        return _INVISIBLE_IN_OUTPUT.sub(lambda found: f"&lt;U+{ord(found.group()):04X}&gt;", value)
    return value


def cell(value: object) -> str:
    """``value`` as literal Markdown text on one line.

    HTML is escaped (so ``<script>`` is shown, never run), Markdown syntax is
    backslash-escaped (at the start of the text too, where it would make a
    heading or a list), control and bidi characters are shown by their code
    points, and line breaks become spaces so a row stays one line.
    """
    text = "" if value is None else str(value)
    text = " ".join(text.split())
    text = html.escape(visible(text), quote=False)
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    text = _HEADING_END.sub(r"\\#", text)
    return _LINE_START.sub(lambda m: "\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3), text)


def anchor(card_id: str) -> str:
    """The stable anchor of a card's row; ids are restricted by the schema."""
    return "card-" + card_id


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def status_words(status: str) -> str:
    """A status in plain words, then the engine's own word for it (shown
    under them by the site's stylesheet)."""
    return f'{STATUS_WORDS[status]} <span class="engine-word">{status}</span>'
