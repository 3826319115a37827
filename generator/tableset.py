"""What a pack's site tables are, for the generator: each table a function
from the pack's catalog to the context its template lays out.

A pack's tables live in ``generator/<id>/tables.py`` as ``TABLE_SET``, beside
its templates in ``generator/templates/<id>/``; ``table_set`` finds them by
the pack's id, so the engine never holds site code.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import UsageError
from engine.pack import RuleValue, Status

# The plain words a reader sees beside each status on the site: the engine's
# own words are for whoever edits the content. The one place they are written.
STATUS_WORDS: Mapping[str, str] = {
    "live": "working",
    "dormantSolo": "built, needs rivals",
    "unbuilt": "not built yet",
}
# A table's context: what its template lays out (``rows`` of dicts with an
# ``id`` make each row the home of that card, for links and anchors).
Context = dict[str, Any]


@dataclass(frozen=True)
class TableSet:
    """A pack's generated tables: name to a function from its catalog to the
    template context. ``templates`` is the pack's folder under
    ``generator/templates/`` (its id), holding ``<table>.md.j2`` for each."""

    templates: str
    tables: Mapping[str, Callable[[Any], Context]]
    # Simulation reports: tables made by playing seeded games. They are
    # measurements, made only by ``cards --reports`` (generator.reports),
    # never by the ``check`` or ``cards`` that follow every edit.
    reports: frozenset[str] = frozenset()
    # Tables whose rows mention cards without being where those cards live.
    links_only: frozenset[str] = frozenset()
    # Column headings (regular expressions, matched whole) whose generated
    # numbers are rule figures, not copies in a deck: the lint lets them be.
    numeric_columns: tuple[str, ...] = ()
    # Functions the templates may call, made from the catalog (pictures, say).
    helpers: Callable[[Any], Mapping[str, Callable[..., str]]] = field(default=lambda catalog: {})
    # The words that name one configuration (catalog, player count or None
    # when seatings are not told apart, the house rules that matter): the
    # export labels its configurations with them.
    configuration_label: Callable[[Any, int | None, Mapping[str, RuleValue]], str] = field(default=lambda catalog, players, rules: plain_configuration_label(players, rules))
    # The What changed page's words for a change to one of the pack's fields
    # (as the content spells it), from its old and new values; a field not
    # here is said by its name in words (generator.changelog.sentence).
    change_words: Mapping[str, Callable[[Any, Any], str]] = field(default_factory=dict)


def plain_configuration_label(players: int | None, rules: Mapping[str, RuleValue]) -> str:
    """A configuration's label for a pack that gives none of its own: the player
    count and each rule as ``rule: value``."""
    parts = [f"{players} player{'s' if players != 1 else ''}"] if players is not None else []
    parts += [f"{k}: {str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.items()]
    return ", ".join(parts)


def status_legend(meanings: Mapping[Status, str]) -> Context:
    """The rows of a pack's status legend: each status the pack can give, its
    plain words and what it means in that game (``meanings``, in order)."""
    return {"rows": [{"status": status, "words": STATUS_WORDS[status], "meaning": meaning} for status, meaning in meanings.items()]}


def table_set(pack_id: str) -> TableSet:
    """The site tables of the pack ``pack_id``: ``TABLE_SET`` of ``generator.<id>.tables``;
    UsageError (one line, exit 2) for a pack that has none yet."""
    module = f"generator.{pack_id}.tables"
    try:
        found = importlib.import_module(module).TABLE_SET
    except ModuleNotFoundError as exc:
        if exc.name not in (f"generator.{pack_id}", module):
            raise
        raise UsageError(f"pack '{pack_id}' has no site tables: write generator/{pack_id}/tables.py holding TABLE_SET (see the README's 'Adding a game pack')") from None
    assert isinstance(found, TableSet), f"generator.{pack_id}.tables.TABLE_SET is not a TableSet"
    return found


# -- the Dealt cell ---------------------------------------------------------------
#
# A card table has one Dealt cell per card, in words: a column per
# configuration would push Status and the card's own figures off a phone's
# screen. The pack asks its engine whether each configuration deals the card
# and says how its configurations differ (``Facet``); the words below are
# made from those answers, never typed per card.

# What a Dealt cell says when every configuration deals the card, in a table
# where some card's answer depends on the configuration (elsewhere: "yes").
EVERY_CONFIGURATION = "every configuration"


@dataclass(frozen=True)
class Facet:
    """One way the configurations differ: the player count, a house rule,
    the lane. ``values`` in the order a reader counts them; ``say`` puts some
    of them as a phrase that follows "only" or "not" ("with rivals", "at 3
    and 4 players", "in the Expert lane"); ``default`` is the value a table
    plays unless it chooses, if any (a card left out only where a table
    chooses otherwise reads "not ...")."""

    values: tuple[str, ...]
    say: Callable[[Sequence[str]], str]
    default: str | None = None


Setup = tuple[str, ...]  # one value of each facet, in the facets' order


def listed(words: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def dealt_words(facets: Sequence[Facet], dealt: Mapping[Setup, bool], every: str = EVERY_CONFIGURATION, positive: bool = False) -> str:
    """Where a card is dealt, in words, from whether each configuration
    (``dealt``, keyed by its value of each facet) deals it: ``every`` when
    all do, "no" when none does, else "only ..." or "not ..." naming the
    facets that decide it (``positive``: "only ..." wherever it can be said)."""
    if all(dealt.values()):
        return every
    if not any(dealt.values()):
        return "no"
    mattering = [i for i in range(len(facets)) if _decides(i, dealt)]
    yes = {tuple(setup[i] for i in mattering) for setup, flag in dealt.items() if flag}
    no = {tuple(setup[i] for i in mattering) for setup, flag in dealt.items() if not flag}
    chosen = [facets[i] for i in mattering]
    yes_parts, no_parts = _product(yes, len(mattering)), _product(no, len(mattering))
    names_default = no_parts is not None and any(f.default is not None and f.default in part for f, part in zip(chosen, no_parts))
    if no_parts is not None and (yes_parts is None or not (names_default or positive)):
        return "not " + _phrase(chosen, no_parts)
    if yes_parts is not None:
        return "only " + _phrase(chosen, yes_parts)
    # Neither side is one block of configurations: name the blocks, one for
    # each value of the first facet that decides it.
    first, rest = chosen[0], mattering[1:]
    pieces = []
    for value in first.values:
        inner = {tuple(setup[i] for i in rest): flag for setup, flag in dealt.items() if setup[mattering[0]] == value}
        if any(inner.values()):
            words = dealt_words([facets[i] for i in rest], inner, every="", positive=True)
            more = words.removeprefix("only ") if words.startswith("only ") else f"but {words}" if words else ""
            pieces.append(" ".join(filter(None, (first.say([value]), more))))
    return "only " + ", or ".join(pieces)


# What a Dealt cell may say (the lint holds generated cells to it): yes, no,
# every configuration, or where, after "only" or "not"; never a number alone.
DEALT_CELL = re.compile(rf"^(?:yes|no|{EVERY_CONFIGURATION}|(?:only|not) [a-z].*)$")


def _decides(index: int, dealt: Mapping[Setup, bool]) -> bool:
    """Whether changing this facet alone changes the answer somewhere."""
    seen: dict[Setup, bool] = {}
    for setup, flag in dealt.items():
        rest = setup[:index] + setup[index + 1 :]
        if seen.setdefault(rest, flag) != flag:
            return True
    return False


def _product(setups: set[Setup], width: int) -> list[list[str]] | None:
    """The values of each facet, when ``setups`` is every combination of
    them (one block of configurations); None otherwise."""
    parts: list[list[str]] = [sorted({s[i] for s in setups}) for i in range(width)]
    size = 1
    for part in parts:
        size *= len(part)
    return parts if size == len(setups) else None


def _phrase(facets: Sequence[Facet], parts: Sequence[Sequence[str]]) -> str:
    return " ".join(f.say([v for v in f.values if v in part]) for f, part in zip(facets, parts) if len(part) < len(f.values))


# -- the Card text column -----------------------------------------------------------

_WORD = re.compile(r"[a-z]{4,}")


def shown_text(text: str | None, effect: str) -> str:
    """A card's ``text`` for its table's Card text column: empty when it has
    none, or when every word of it that carries meaning (four letters or
    more, compared by its first five) is already in the Effect beside it, so
    the column is there only where it says something the Effect does not."""
    if not text:
        return ""
    said = {word[:5] for word in _WORD.findall(effect.lower())}
    own = {word[:5] for word in _WORD.findall(text.lower())}
    return "" if effect and own <= said else text
