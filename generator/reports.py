"""Simulation reports: the generated blocks made by playing seeded games.

An as-built table is exact and cheap, so every ``check`` renders it afresh.
A report is a measurement: seconds of play whose figures stand for the
cards and the engine they were played on. So a report is measured only by
its own step (``stationmaster cards --reports``, ``make reports``), and its
block records what it was measured on: its provenance sentence says so to
the reader, and its stamp (``generator.stamps``) to the kit.

A report is *stale* when the cards, the engine that plays them, or the
code that lays the figures out have changed since it was measured. Stale
is not drift: ``check`` lists stale reports in a section of their own and
passes (``--reports`` makes them an error), and the built site marks such a
report plainly (``stale_notice``) until it is measured again.

What the cards are is the catalog as the engine reads it (every field of
every card and rule, not the YAML's bytes), so a comment or a reordered
key in a content file leaves the figures standing; what the engine is, is
its code's behaviour (``engine.sources.rules_digest``), so a comment or a
docstring does too. A change to the report's own templates stales it as
well (its text would read differently); the rest of the generator's code
does not, since it cannot change a measured figure.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.content.problems import Problem
from engine.sources import rules_digest
from generator.blocks import Block
from generator.records import plain
from generator.stamps import Measured, split_stamp

if TYPE_CHECKING:
    from generator.render import Rendered

# How a report's provenance sentence begins (a line the generator wrote).
PROVENANCE_START = "*Measured from "
MEASURE_COMMAND = "make reports"  # or `stationmaster cards --reports`
# Catalog fields that say where the content came from, or explain it in
# words (a glossary), not what it is: a change to them stales no figure.
_NOT_CONTENT = ("fingerprint", "byId", "words")


def _json_default(value: object) -> object:
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return repr(value)


_DIGESTS: dict[str, str] = {}  # by the catalog's fingerprint: one walk per catalog, however many reports


def cards_digest(catalog: Any) -> str:
    """A short digest of the catalog as the engine reads it."""
    fingerprint = getattr(catalog, "fingerprint", None)
    if isinstance(fingerprint, str) and fingerprint in _DIGESTS:
        return _DIGESTS[fingerprint]
    found = _cards_digest(catalog)
    if isinstance(fingerprint, str):
        _DIGESTS[fingerprint] = found
    return found


def _cards_digest(catalog: Any) -> str:
    data = plain(catalog)
    if isinstance(data, dict):
        for name in _NOT_CONTENT:
            data.pop(name, None)
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=_json_default)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def measured_now(catalog: Any, pack_id: str, layout: str) -> Measured:
    """What a report measured now would record; ``layout`` is the digest of
    the templates it is laid out by."""
    return Measured(cards_digest(catalog), rules_digest(pack_id)[:16], layout[:16])


def provenance(context: dict[str, Any], measured: Measured) -> str:
    """The sentence that ends a report, saying what its figures stand for."""
    games = context.get("measured", {}) if isinstance(context.get("measured"), dict) else {}
    count, seeds = games.get("games"), games.get("seeds") or []
    played = f"{count} seeded game{'s' if count != 1 else ''}" if isinstance(count, int) else "seeded games"
    seeded = f" (seed {', '.join(map(str, seeds))})" if seeds else ""
    return (
        f"{PROVENANCE_START}{played}{seeded} on card set `{measured.cards[:8]}` and rules engine "
        f"`{measured.rules[:8]}`; should either change, this page says so until the figures "
        f"are measured again.*\n\n"
    )


@dataclass(frozen=True)
class ReportState:
    """One report block as ``check`` finds it."""

    page: str  # as messages show it: "site/<pack>/simulation.md"
    block: Block
    # "current", "stale", "unmeasured" (an empty block) or "edited" (its
    # text no longer matches its checksum, or its stamp is gone).
    state: str
    changed: tuple[str, ...] = ()  # what changed since: "cards", "rules", "layout"

    def problem(self) -> Problem:
        if self.state == "edited" and split_stamp(self.block.body).checksum is None:
            message = f"report '{self.block.name}' has lost the line that ends it ('<!-- measured cards … checksum … -->', deleted by hand?), so what it was measured on is unknown; undo the edit, or run `{MEASURE_COMMAND}` to measure it again"
        elif self.state == "edited":
            message = f"report '{self.block.name}' was edited by hand since it was measured (its text no longer matches the checksum that ends it); undo the edit, or run `{MEASURE_COMMAND}` to measure it again"
        elif self.state == "unmeasured":
            message = f"report '{self.block.name}' has never been measured; run `{MEASURE_COMMAND}`"
        else:
            message = f"report '{self.block.name}' was measured before the last change to {_changed_words(self.changed)}; run `{MEASURE_COMMAND}` to measure it again"
        return Problem(self.page, self.block.line, 1, message)


_WORDS = {"cards": "the cards", "rules": "the rules engine", "layout": "the report's template"}


def _changed_words(changed: tuple[str, ...]) -> str:
    words = [_WORDS[name] for name in changed]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def report_state(page: str, block: Block, now: Measured) -> ReportState:
    """Whether ``block`` (a report, as committed) stands for ``now``."""
    found = split_stamp(block.body)
    if found.checksum is None:
        return ReportState(page, block, "unmeasured" if not block.body.strip() else "edited")
    if not found.matches_its_stamp or found.measured is None or block.body[len(found.text) :].partition("\n")[2]:
        return ReportState(page, block, "edited")
    was = found.measured
    changed = tuple(name for name in ("cards", "rules", "layout") if getattr(was, name) != getattr(now, name))
    return ReportState(page, block, "stale" if changed else "current", changed)


def stale_notice(state: ReportState) -> str:
    """What the built site shows at the top of a report that no longer
    stands for the cards (Markdown, an admonition)."""
    if state.state == "unmeasured":
        return f'!!! warning "Not measured yet"\n    The games these figures come from have not been played yet (for maintainers: `{MEASURE_COMMAND}`).\n\n'
    what = _changed_words(state.changed) if state.changed else "the cards"
    return (
        f'!!! warning "These figures were measured before the last change to {what}"\n'
        f"    They come from games played on an earlier version, so they may not match the tables\n"
        f"    on this site until they are measured again (for maintainers: `{MEASURE_COMMAND}`).\n\n"
    )


def with_stale_notices(rendered: Rendered, name: str) -> str:
    """Page ``name`` as rendered, with a notice at the top of each report on
    it that no longer stands for the cards and engine (what the built site
    shows; the committed page is left as it is)."""
    text = rendered.new[name]
    notices = {f"<!-- generated: {s.block.name} -->": s for s in rendered.reports if s.state in ("stale", "unmeasured") and rendered.table_page.get(s.block.name) == name}
    if not notices:
        return text
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        out.append(line)
        found = notices.get(line.rstrip("\r\n"))
        if found is not None:
            out.append("\n" + stale_notice(found))
    return "".join(out)
