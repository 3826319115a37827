"""Comparing the committed pages with what the content renders to, and
writing the fresh version. Both start from the same in-memory render."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.atomic import TEMP_SUFFIX, is_stale, write_whole
from engine.content.problems import Problem
from generator.blocks import Block, parse_page
from generator.render import Rendered, split_stamp, template_files
from generator.reports import PROVENANCE_START
from generator.rowdiff import LIMIT, CellChange, RowChange, compare, fit, fit_pair, is_picture, plain, unified
from generator.stamps import is_whole

FIX_HINT = "run `make cards` (or `stationmaster cards`) to regenerate the tables, then commit the pages"


@dataclass
class TableChange:
    table: str
    line: int
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    # Why the text differs when no row did (see ``_unrowed_change``).
    note: str = ""
    # Lines someone typed inside the block: (line number on the page, text).
    typed: list[tuple[int, str]] = field(default_factory=list)
    # Each row that differs, with its changed cells, in page order; its
    # line on the page is ``line + 1 + offset`` (the body starts below the marker).
    rows: list[RowChange] = field(default_factory=list)


@dataclass
class PageDrift:
    page: str
    tables: list[TableChange]
    diff: str


def _unrowed_change(committed: str, fresh: str, typed: bool = False) -> str:
    """What a difference that touches no card row is. The checksum that ends
    a block tells a hand edit (its text no longer matches it) from a change
    in the generator (the text is the generator's own, but an older one)."""
    if typed:  # the most useful thing to say: what `cards` would lose
        return "it holds text typed by hand inside the generated block (listed below), which `cards` would not overwrite"
    old = split_stamp(committed)
    if old.checksum is None:
        return "the checksum line that ends it ('<!-- checksum … -->') is missing (deleted by hand?); `cards` writes it back"
    # The generator ends a block with its checksum line: anything after it
    # (even a blank line) was put there by hand, whatever the checksum says.
    if committed[len(old.text) :].partition("\n")[2]:
        return "text follows the checksum line that should end it (its end was edited by hand: the generator writes nothing after it); `cards` removes it"
    if not old.matches_its_stamp:
        return "its text was edited by hand since it was generated (it no longer matches the checksum at its end)"
    if old.text == split_stamp(fresh).text:
        return "only its checksum line differs from the one `cards` writes"
    return "its text outside the card rows differs: its template, or the code that lays it out, changed since it was generated"


_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")


@functools.cache
def _line_shapes(templates: str, table: str) -> tuple[tuple[str, ...], ...]:
    """Every line the table's template (and the templates it takes macros or
    text from) can write, as its literal pieces: the text between the parts
    in ``{{ }}`` or ``{% %}``, which may be anything. A line of a generated
    block that fits none of them was not written by the generator. A line
    that is a single macro call is left out (the macro's own lines are
    there), and so is a macro written on one line, whose text lands inside
    other lines."""
    shapes: list[tuple[str, ...]] = []
    for path in template_files(templates, table):
        source = path.read_text(encoding="utf-8")
        for line in source.splitlines():
            stripped = line.strip()
            tags = _TAG.findall(stripped)
            literal = _TAG.sub("", stripped).strip()
            if not literal and not any(tag.startswith("{{") for tag in tags):
                continue  # a control line: trim_blocks leaves nothing of it
            if not literal and len(tags) == 1 and "(" in tags[0]:
                continue  # a macro call
            if stripped.startswith("{% macro") and stripped.endswith("{% endmacro %}"):
                continue
            shape = _shape(stripped)
            if not _weak(shape):
                shapes.append(shape)
    return tuple(shapes)


def _weak(shape: tuple[str, ...]) -> bool:
    """Whether a line fitting ``shape`` proves too little to call it the
    generator's. A shape free at both ends (``{{ n }}. {{ label }}`` fits any
    line holding ". ") or with under two visible literal characters
    (``- {{ line }}`` fits any list item) fits ordinary sentences as well, so
    taking it as proof would let `cards` overwrite text a writer typed. Such
    a line is called typed instead: the worst that does is keep a page
    unwritten until someone looks, and only in a block whose text was
    already edited by hand. A shape of one piece is matched exactly, so it
    is always proof."""
    if len(shape) == 1:
        return False
    visible = sum(1 for piece in shape for char in piece if not char.isspace())
    return (not shape[0].strip() and not shape[-1].strip()) or visible < 2


_OPENS = re.compile(r"\{%-?\s*(?:if|for|macro|call|filter|with)\b")
_CLOSES = re.compile(r"\{%-?\s*end")


def _shape(line: str) -> tuple[str, ...]:
    """A template line's literal pieces, outermost text only: what an
    ``{% if %}`` or ``{% for %}`` on the line holds may or may not be
    written, so it counts as free text like an expression."""
    pieces, depth = [""], 0
    for token in re.split(f"({_TAG.pattern})", line):
        if _OPENS.match(token):
            depth += 1
        elif _CLOSES.match(token):
            depth = max(0, depth - 1)
        if depth == 0 and token and not _TAG.fullmatch(token):
            pieces[-1] += token
        elif pieces[-1] or len(pieces) == 1:
            pieces.append("")
    pieces[0], pieces[-1] = pieces[0].lstrip(), pieces[-1].rstrip()
    return tuple(pieces)


def _fits(shape: tuple[str, ...], line: str) -> bool:
    """Whether ``line`` is ``shape``'s pieces in order with any text between
    them. Found piece by piece from the left, which is exact for such
    patterns and never backtracks (a regular expression of many ``.*``
    could take exponential time on a long row that does not fit)."""
    line = line.strip()
    if len(shape) == 1:
        return line == shape[0]
    first, *middle, last = shape
    if len(line) < len(first) + len(last) or not line.startswith(first) or not line.endswith(last):
        return False
    position, end = len(first), len(line) - len(last)
    for piece in middle:
        found = line.find(piece, position, end)
        if found < 0:
            return False
        position = found + len(piece)
    return True


def typed_lines(templates: str, block: Block, fresh: Block) -> list[tuple[int, str]]:
    """The lines of ``block`` (as committed) someone typed by hand inside it,
    with their line numbers on the page: lines the fresh render does not
    have, that no line of the table's templates could have written. A block
    whose text still matches the stamp at its end was not edited at all."""
    old, new = split_stamp(block.body), split_stamp(fresh.body)
    kept = set(new.text.splitlines())
    kept.update(line for line in old.text.splitlines() if line.startswith(PROVENANCE_START))
    shapes = _line_shapes(templates, block.name)
    found: list[tuple[int, str]] = []
    lines = old.text.splitlines()
    if not old.matches_its_stamp:
        for offset, line in enumerate(lines):
            if line.strip() and line not in kept and not any(_fits(shape, line) for shape in shapes):
                found.append((block.line + 1 + offset, line))
    if old.checksum is not None:
        # The generator writes nothing after a stamp: any text there is typed.
        after = block.body[len(old.text) :].splitlines()[1:]
        start = block.line + 1 + len(lines) + 1
        found += [(start + offset, line) for offset, line in enumerate(after) if line.strip()]
    return found


def _fresh_blocks(rendered: Rendered, name: str, display_prefix: str) -> dict[str, Block]:
    return {b.name: b for b in parse_page(display_prefix + name, rendered.new[name], rendered.tables.tables).blocks}


def typed_in_blocks(rendered: Rendered, name: str, display_prefix: str) -> list[Problem]:
    """A located problem for each line typed inside a generated block of
    page ``name``, which rewriting the page would drop."""
    fresh = _fresh_blocks(rendered, name, display_prefix)
    problems: list[Problem] = []
    for block in rendered.pages[name].blocks:
        for number, text in typed_lines(rendered.tables.templates, block, fresh[block.name]):
            problems.append(
                Problem(
                    display_prefix + name,
                    number,
                    1,
                    f"text typed inside the generated block '{block.name}' (opened at line {block.line}): {_quoted(text)}; regenerating would lose it, so this page was not written: move it above '<!-- generated: {block.name} -->' or below '<!-- /generated -->' (or delete it), then run `cards` again",
                )
            )
    return problems


def _quoted(text: str, limit: int = 60) -> str:
    text = text.strip()
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def diff_view(rendered: Rendered, name: str, fresh: dict[str, Block]) -> str:
    """Page ``name`` as the diff shows the fresh render: a block the
    generator wrote (its checksum holds) keeps its committed checksum line,
    whose change follows from the rows' and would only add noise; a block
    edited by hand, or whose checksum line is missing or damaged, shows
    the line ``cards`` would write."""

    def body(block: Block) -> str:
        now = fresh[block.name].body
        if not is_whole(block.body):
            return now
        kept = block.body[len(split_stamp(block.body).text) :]
        return split_stamp(now).text + kept

    return rendered.pages[name].render(body)


def drift(rendered: Rendered, display_prefix: str = "site/") -> list[PageDrift]:
    """Every page whose committed text differs from the fresh render."""
    found: list[PageDrift] = []
    for name in sorted(rendered.new):
        old, new = rendered.old[name], rendered.new[name]
        if old == new:
            continue
        fresh = _fresh_blocks(rendered, name, display_prefix)
        tables: list[TableChange] = []
        for block in rendered.pages[name].blocks:
            now = fresh[block.name]
            if now.body == block.body:
                continue
            change = TableChange(block.name, block.line)
            # The stamp is left out: rows are compared by their text alone.
            change.rows = compare(split_stamp(block.body).text, split_stamp(now.body).text)
            change.changed = [card for row in change.rows if row.kind == "changed" for card in row.named]
            change.added = [row.shown for row in change.rows if row.kind == "added"]
            change.removed = [row.shown for row in change.rows if row.kind == "removed"]
            change.typed = typed_lines(rendered.tables.templates, block, now)
            if not (change.changed or change.added or change.removed):
                change.note = _unrowed_change(block.body, now.body, bool(change.typed))
            tables.append(change)
        diff = unified(old, diff_view(rendered, name, fresh), f"{display_prefix}{name} (committed)", f"{display_prefix}{name} (from content/)", display_prefix + name)
        found.append(PageDrift(display_prefix + name, tables, diff))
    return found


def describe(drifts: list[PageDrift]) -> str:
    """The report ``check`` prints: for each page, one located line per
    row that differs (the card it is about and each changed cell as
    ``column: old → new``), or a note where no row did; then the diff of
    the changed lines, then how to fix it. No line is over ``LIMIT``
    characters."""
    lines: list[str] = []
    for page in drifts:
        lines.append(_wrapped(f"{page.page}: out of date with content/"))
        for t in page.tables:
            for row in t.rows:
                where = f"{page.page}:{t.line + 1 + row.offset}"
                lines.append(_row_line(f"{where}:1: table '{t.table}': ", row, where))
            if not t.rows:
                lines.append(_wrapped(f"{page.page}:{t.line}:1: table '{t.table}': {t.note}"))
            for number, text in t.typed:
                lines.append(
                    _wrapped(
                        f"{page.page}:{number}:1: this line was typed by hand inside the generated block '{t.table}': {_quoted(text)}; `cards` would lose it, so it will not rewrite the page: move the line outside the markers"
                    )
                )
    for page in drifts:
        lines.append(page.diff.rstrip("\n"))
    lines.append(_wrapped(f"The site disagrees with the content: {FIX_HINT}."))
    return "\n".join(lines)


def _wrapped(line: str) -> str:
    """A message too long for one line, broken at spaces onto indented
    lines: notes are kept whole rather than cut."""
    if len(line) <= LIMIT:
        return line
    import textwrap

    return "\n".join(textwrap.wrap(line, LIMIT, subsequent_indent="    ", break_on_hyphens=False))


def _row_line(prefix: str, row: RowChange, where: str) -> str:
    """One located line for a row: what it is about, then its changed
    cells, each value cut around what changed until the line fits."""
    room = LIMIT - len(prefix)
    if row.kind != "changed":
        said = [row.name] if row.name and f"'{row.name}'" != row.label else []
        said += [row.detail] if row.detail else []
        named = fit(row.label, 60) + (f" ({fit('; '.join(said), 100)})" if said else "")
        place = ", a new row to go below this line" if row.below else ""
        return prefix + fit(f"{row.kind}: {named}{place}", room)
    label = fit(row.label + (f" ({row.detail})" if row.detail else ""), 90)
    if not row.cells:
        return prefix + fit(f"{label}: its line differs, its cells read the same", room)
    lead = f"{label}: "
    # Every cell as wide as fits; then fewer cells rather than cells cut
    # down to a few characters that no longer show what changed.
    count = len(row.cells)
    tries = [(width, count) for width in (60, 40, 28)] + [(28, shown) for shown in range(count - 1, 0, -1)] + [(16, 1)]
    for width, shown in tries:
        items = [_cell_text(cell, width, where) for cell in row.cells[:shown]]
        rest = count - shown
        text = lead + "; ".join(items) + (f"; {rest} more cell(s) changed (see the diff)" if rest else "")
        if len(text) <= room:
            return prefix + text
    return prefix + fit(lead + f"{count} cell(s) changed (see the diff)", room)


def _cell_text(cell: CellChange, width: int, where: str) -> str:
    column = fit(cell.column, 30)
    if cell.card:
        column = f"{cell.card} ({'column ' + column if column.isdigit() else column})"
    if is_picture(cell.old) or is_picture(cell.new):
        return f"{column}: picture changed ({where})"
    old, new = plain(cell.old), plain(cell.new)
    if old == new:  # only its markup changed (a link's target, say): show that
        old, new = cell.old, cell.new
    old, new = fit_pair(old or "(empty)", new or "(empty)", width)
    return f"{column}: {old} → {new}"


# Who else writes a page while ``cards`` runs: not a second ``cards``, which
# the site folder's lock refuses (``command.site``).
_OTHER_WRITER = "another program wrote it: a second `cards` is refused"


class PagesKept(Exception):
    """``cards`` left some pages as they were rather than lose what a writer
    put in them: each problem says which page and why. ``written`` lists the
    pages that were written all the same."""

    def __init__(self, problems: list[Problem], written: list[str]) -> None:
        self.problems = problems
        self.written = written
        super().__init__("; ".join(p.render() for p in problems))


def write_pages(site_dir: Path, rendered: Rendered, display_prefix: str = "site/") -> list[str]:
    """Write every changed page atomically; return the names written.

    A page is left alone (and named in PagesKept, raised once the others are
    written) when writing it would lose someone's text: a line typed inside
    one of its generated blocks, or an edit saved to it since it was read.
    Temporary files left by a run that was killed are cleared first."""
    remove_stale_temporaries(site_dir)
    written: list[str] = []
    kept: list[Problem] = []
    for name in sorted(rendered.new):
        if rendered.new[name] == rendered.old[name]:
            continue
        shown = display_prefix + name
        typed = typed_in_blocks(rendered, name, display_prefix)
        if typed:
            kept.extend(typed)
            continue
        try:
            # Replaced only if the page still holds what was read: an editor's save since is kept.
            replaced = write_whole(site_dir / name, rendered.new[name].encode("utf-8"), expected=rendered.old[name].encode("utf-8"))
        except OSError as exc:
            raise OSError(exc.errno, f"{exc.strerror} (writing {name})") from None
        if not replaced:
            kept.append(Problem(shown, 1, 1, f"this page changed on disk while `cards` was running ({_OTHER_WRITER}); it was left as it is now, with its tables not updated: run `cards` again"))
            continue
        written.append(name)
    if kept:
        raise PagesKept(kept, written)
    return written


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Delete the temporary files a killed ``cards`` left under ``folder``
    (only those ``engine.atomic`` names and judges stale); return them."""
    removed: list[Path] = []
    for path in sorted(folder.rglob("*" + TEMP_SUFFIX)) if folder.is_dir() else []:
        try:
            if is_stale(path):
                path.unlink()
                removed.append(path)
        except OSError:
            pass  # one that cannot be removed now is tried again next run
    return removed
