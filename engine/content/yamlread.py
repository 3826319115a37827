"""Strict YAML reading that keeps every value's position.

PyYAML's own loaders are too forgiving for designer-edited content: they keep
the last of two repeated keys, read ``yes``/``on`` as booleans, and the full
loader will construct Python objects from tags. So we only *compose* (parse to
nodes, which runs no constructor) and turn nodes into plain values ourselves,
with YAML 1.2 core scalars, duplicate-key detection, a depth limit, and a cap
on alias expansion. The node tree is kept so that any later check can point at
the exact line and column of a key or value.
"""

from __future__ import annotations

import math
import re
import unicodedata
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import BaseResolver

from engine.content.textpos import position_of_offset

try:  # libyaml is 7-9x faster; fall back to the pure-Python parser if absent.
    from yaml.cyaml import CParser as _Parser  # type: ignore[attr-defined]

    HAVE_LIBYAML = True
except ImportError:  # pragma: no cover - depends on the PyYAML build
    HAVE_LIBYAML = False

MAX_DEPTH = 40
# An alias may repeat a small piece; an alias "bomb" multiplies. Beyond this
# many values more than the text itself holds, the file is refused.
ALIAS_EXPANSION_ALLOWANCE = 10_000

_T = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, MAP, SEQ = (_T + n for n in ("str", "int", "float", "bool", "null", "map", "seq"))

_INT_RE = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT_RE = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
_MAX_NUMBER_CHARS = 40


class StrictResolver(BaseResolver):
    """Plain scalars resolve by the YAML 1.2 core schema only.

    ``yes``, ``no``, ``on``, ``off`` and dates stay strings, so the schema can
    refuse them where a boolean is wanted instead of guessing.
    """

    def resolve(self, kind: type[Node], value: str | None, implicit: tuple[bool, bool] | None) -> str:
        if kind is ScalarNode:
            if implicit is None or value is None:
                return STR
            return _scalar_tag(value, implicit)
        return SEQ if kind is SequenceNode else MAP


def _scalar_tag(value: str, implicit: tuple[bool, bool]) -> str:
    """The tag of an untagged scalar: text unless written plain (``implicit[0]``)
    and spelt as a YAML 1.2 core boolean, null or number. Runs once per
    value in a file, so kept flat."""
    if not implicit[0]:
        return STR
    if value in _BOOLS:
        return BOOL
    if value in _NULLS:
        return NULL
    if value[0] in _NUMBER_START:
        if _INT_RE.match(value):
            return INT
        if _FLOAT_RE.match(value):
            return FLOAT
    return STR


_BOOLS = frozenset(("true", "True", "TRUE", "false", "False", "FALSE"))
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_NUMBER_START = frozenset("-+0123456789.")


if HAVE_LIBYAML:

    class _Composer(_Parser, StrictResolver):
        def __init__(self, text: str) -> None:
            _Parser.__init__(self, text)
            StrictResolver.__init__(self)

else:  # pragma: no cover

    class _Composer(  # type: ignore[no-redef]
        yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer, StrictResolver
    ):
        def __init__(self, text: str) -> None:
            yaml.reader.Reader.__init__(self, text)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            StrictResolver.__init__(self)


@dataclass(frozen=True, slots=True)
class YamlIssue:
    """A problem found while reading, with a 1-based position."""

    line: int
    column: int
    message: str


class YamlReadError(Exception):
    def __init__(self, issues: Sequence[YamlIssue]) -> None:
        self.issues = tuple(issues)
        super().__init__("; ".join(i.message for i in self.issues))


class Document:
    """A read file: plain values plus the node tree to locate them with.

    The tree is the bulk of a read file: a node, two marks and their
    attribute dicts for every value, six times the objects of the values
    themselves. A loader that has what it needs from a file lets the tree go
    (``drop_nodes``) and keeps only the text; clean content is never located
    again, and a later problem composes the tree afresh from the same text,
    which gives the same nodes. Holding every file's tree until the whole
    pack was read cost a 100,000-card pack about 100 MiB and a second of
    the cyclic collector's time.
    """

    __slots__ = ("value", "_root", "_text")

    def __init__(self, value: Any, root: Node | None, text: str | None = None) -> None:
        self.value = value
        self._root = root
        # The text the tree was composed from: None when there is none to
        # compose again (a document built from a tree alone keeps its tree).
        self._text = text

    @property
    def root(self) -> Node | None:
        """The node tree, composed again from the text if it was let go."""
        if self._root is None and self._text is not None:
            self._root = _compose(self._text)
        return self._root

    def drop_nodes(self) -> None:
        """Let the node tree go; ``root`` composes it again when asked."""
        if self._text is not None:
            self._root = None


def _pos(node: Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def decode(data: bytes) -> str:
    """UTF-8 text, or a located error naming the first bad byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8")
        line, col = position_of_offset(good, len(good))
        raise YamlReadError([YamlIssue(line, col, f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x} cannot be read); save it as UTF-8")]) from None
    refuse_hidden_breaks(text)
    return text


def refuse_hidden_breaks(text: str) -> None:
    """A located error when ``text`` holds a character YAML counts as a line
    break where editors (and the positions given here) do not."""
    # Every line number after one would be off, and the parser's marks would
    # no longer match the lines this module splits on; they are invisible,
    # so they are refused.
    for char, name in _HIDDEN_BREAKS.items():
        at = text.find(char)
        if at >= 0:
            line, col = position_of_offset(text, at)
            raise YamlReadError([YamlIssue(line, col, f"the file holds {name}, which YAML reads as a line break; use a plain newline or a space")])
    # The same for a carriage return with no newline after it (old Mac line
    # ends, or one stray CR): YAML breaks the line there, editors and every
    # position this reader gives do not. A CR just before a newline (Windows
    # line ends) is fine. No CR at all is the common case: one quick look.
    if "\r" in text:
        lone = _LONE_CR.search(text)
        if lone is not None:
            line, col = position_of_offset(text, lone.start())
            raise YamlReadError(
                [YamlIssue(line, col, "the file holds a carriage return (U+000D) with no newline after it, which YAML reads as a line break; end lines with a plain newline (or CR LF)")]
            )


_LONE_CR = re.compile("\r(?!\n)")


_HIDDEN_BREAKS = {"\u2028": "a Unicode LINE SEPARATOR (U+2028)", "\u2029": "a Unicode PARAGRAPH SEPARATOR (U+2029)", "\x85": "a NEXT LINE character (U+0085)"}


def _clamp(text: str, line: int, col: int) -> tuple[int, int]:
    """Keep a position inside the file: libyaml reports errors at the end of
    a file with no final newline one line past its last line."""
    lines = text.split("\n")
    if line > len(lines):
        line = len(lines)
        col = len(lines[-1]) + 1
    return max(1, line), max(1, col)


def _mark_position(text: str, mark: Any) -> tuple[int, int]:
    return _clamp(text, mark.line + 1, mark.column + 1)


def _char_offset(text: str, offset: int) -> int:
    """libyaml counts positions in UTF-8 bytes; the pure parser in characters."""
    if not HAVE_LIBYAML:
        return offset
    return len(text.encode("utf-8")[:offset].decode("utf-8", "ignore"))


def read_yaml(text: str) -> Document:
    """Parse one YAML document strictly; raise YamlReadError with positions."""
    refuse_hidden_breaks(text)
    if HAVE_LIBYAML and not _may_hide(text):
        read = _EventReader(text).read()
        if read is not None:
            value, whole = read
            # No tree yet: ``root`` composes it if a problem needs a place.
            return Document(value, None, text) if whole else Document(None, None)
    return read_with_nodes(text)


def read_with_nodes(text: str) -> Document:
    """``read_yaml`` by way of the node tree, which places every problem:
    the full reader, for a file the event reader leaves to it."""
    refuse_hidden_breaks(text)
    try:
        root = _compose(text)
    except yaml.MarkedYAMLError as exc:
        raise YamlReadError([_syntax_issue(text, exc)]) from None
    except yaml.reader.ReaderError as exc:
        offset = _char_offset(text, exc.position)
        line, col = position_of_offset(text, offset)
        what = f"{char_label(text[offset])}, a character" if offset < len(text) else "a character"
        raise YamlReadError([YamlIssue(line, col, f"the file holds {what} YAML does not allow ({exc.reason}); remove it")]) from None
    except RecursionError:
        # Only the pure-Python parser recurses per level; libyaml stops at 1000.
        raise YamlReadError([YamlIssue(1, 1, f"nesting far deeper than {MAX_DEPTH} levels; content files are shallow")]) from None
    except yaml.YAMLError as exc:
        raise YamlReadError([YamlIssue(1, 1, f"YAML error: {exc}")]) from None
    if root is None:
        return Document(None, None)
    return Document(_Converter(text).convert(root, 0), root, text)


def _compose(text: str) -> Node | None:
    """The node tree of the one document in ``text`` (None for an empty one)."""
    composer = _Composer(text)
    try:
        root: Node | None = composer.get_single_node()
    finally:
        dispose = getattr(composer, "dispose", None)
        if dispose is not None:
            dispose()
    return root


class _Fallback(Exception):
    """The event reader met something it leaves to the full reader."""


# An anchored collection not yet finished: an alias to it makes a loop.
_OPEN = (None, 0)


class _EventReader:
    """Plain values straight from the parser's events, for a file with no
    problem in its YAML: the common case, read without building a node
    tree that would only be thrown away.

    Composing nodes (a Python object, two marks and two attribute dicts per
    value, then freeing them all) was most of the cost of reading a large
    pack: a 100,000-card one took about 2.6 s to compose, convert and free,
    against about 1.8 s from events. The tree is still what locates a
    problem, so it is built later from the same text, and only for a file
    with a problem to place.

    Everything that is not plainly right here (a syntax error, a tag, a
    repeated key, an alias loop or bomb, nesting too deep, a value that does
    not read) ends the attempt (None from ``read``): the full reader then
    reads the file from the start and reports it exactly as it always has.
    What this reader returns is what the full reader would: the same
    scalars from the same functions, the same sharing of aliased
    collections, and the same alias accounting, so that a file it accepts
    is one the full reader accepts too.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.written = 0
        self.expanded = 0

    def read(self) -> tuple[Any, bool] | None:
        """(value, True), (None, False) for a file with no document, or None
        when the full reader must read it."""
        parser = _Parser(self.text)
        try:
            get = parser.get_event
            get()  # the stream's start
            event = get()
            if type(event) is StreamEndEvent:
                return None, False
            if type(event) is not DocumentStartEvent:
                return None
            value = self._node(get, get(), 0)
            if type(get()) is not DocumentEndEvent or type(get()) is not StreamEndEvent:
                return None
            return value, True
        except Exception:  # noqa: BLE001 - anything at all: the full reader says what it is
            return None
        finally:
            parser.dispose()

    def _node(self, get: Callable[[], Any], event: Any, depth: int) -> Any:
        kind = type(event)
        if kind is ScalarEvent:
            self.written += 1
            self.expanded += 1
            return self._scalar(event)
        if kind is MappingStartEvent:
            return self._mapping(get, event, depth)
        if kind is SequenceStartEvent:
            return self._sequence(get, event, depth)
        if kind is AliasEvent:
            value, size = self.anchors.get(event.anchor, _OPEN)
            if size == 0:
                raise _Fallback  # no such anchor, or the collection holding this alias
            if size < 0:  # a scalar's: counted again, as the full reader counts it
                self.written += 1
                self.expanded += 1
                return value
            self.expanded += size
            if self.expanded - self.written > max(ALIAS_EXPANSION_ALLOWANCE, self.written):
                raise _Fallback
            return value
        raise _Fallback

    def _scalar(self, event: Any) -> Any:
        text = event.value
        tag = event.tag
        if tag is None or tag == "!":
            tag = _scalar_tag(text, event.implicit)
        value = text if tag == STR else _scalar_value(tag, text)
        if type(value) is _Refused:
            raise _Fallback
        if event.anchor is not None:
            self._anchor(event.anchor, value, -1)
        return value

    def _anchor(self, name: str, value: Any, size: int) -> None:
        if name in self.anchors:
            raise _Fallback  # an anchor written twice
        self.anchors[name] = (value, size)

    def _open(self, event: Any, tag: str, depth: int) -> None:
        if event.tag is not None and event.tag != "!" and event.tag != tag:
            raise _Fallback
        if depth > MAX_DEPTH:
            raise _Fallback
        if event.anchor is not None:
            if event.anchor in self.anchors:
                raise _Fallback  # an anchor written twice
            self.anchors[event.anchor] = _OPEN
        self.written += 1
        self.expanded += 1

    def _sequence(self, get: Callable[[], Any], event: Any, depth: int) -> list[Any]:
        before = self.expanded
        self._open(event, SEQ, depth)
        items: list[Any] = []
        while True:
            child = get()
            kind = type(child)
            if kind is ScalarEvent:
                self.written += 1
                self.expanded += 1
                items.append(self._scalar(child))
            elif kind is SequenceEndEvent:
                break
            else:
                items.append(self._node(get, child, depth + 1))
        if event.anchor is not None:
            self.anchors[event.anchor] = (items, self.expanded - before)
        return items

    def _mapping(self, get: Callable[[], Any], event: Any, depth: int) -> dict[str, Any]:
        before = self.expanded
        self._open(event, MAP, depth)
        result: dict[str, Any] = {}
        while True:
            key_event = get()
            if type(key_event) is not ScalarEvent:
                if type(key_event) is MappingEndEvent:
                    break
                raise _Fallback  # an alias or a collection as a key
            key = key_event.value
            tag = key_event.tag
            if tag is None or tag == "!":
                tag = _scalar_tag(key, key_event.implicit)
            if tag not in _KEY_TAGS or key_event.anchor is not None or key in result:
                raise _Fallback
            self.written += 1
            self.expanded += 1
            child = get()
            if type(child) is ScalarEvent:
                self.written += 1
                self.expanded += 1
                result[key] = self._scalar(child)
            else:
                result[key] = self._node(get, child, depth + 1)
        if event.anchor is not None:
            self.anchors[event.anchor] = (result, self.expanded - before)
        return result


def _may_hide(text: str) -> bool:
    """Whether a value in ``text`` could hold a hidden character (written as
    itself, or through an escape, which needs a backslash): such a file is
    read by the full reader, which places each one."""
    return "\\" in text or _HIDDEN.search(text) is not None


def _syntax_issue(text: str, exc: yaml.MarkedYAMLError) -> YamlIssue:
    """One located issue from a parser error: in plain words with the likely
    fix where the mistake is a common one, else in the parser's words,
    naming where the broken construct began (the context mark)."""
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    p_pos = _mark_position(text, exc.problem_mark) if exc.problem_mark is not None else None
    c_pos = _mark_position(text, exc.context_mark) if exc.context_mark is not None else None
    if p_pos is not None:
        explained = _explain(text.split("\n"), problem, context, p_pos, c_pos)
        if explained is not None:
            line, col, words = explained
            return YamlIssue(line, col, f"YAML syntax error: {words}")
    line, col = p_pos or c_pos or (1, 1)
    if c_pos is not None and p_pos is not None and c_pos != p_pos:
        context = f"{context} (which starts at line {c_pos[0]}, column {c_pos[1]})" if context else f"(from line {c_pos[0]}, column {c_pos[1]})"
    if "duplicate anchor" in context:
        context = context.replace("; first occurrence", "").replace("first occurrence", "")
        problem = problem.replace("second occurrence", "used again here")
    return YamlIssue(line, col, f"YAML syntax error: {context + ': ' if context else ''}{problem}")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _line_above(lines: list[str], line: int) -> tuple[int, str] | None:
    """The nearest line above ``line`` (1-based) holding more than a comment."""
    for number in range(line - 1, 0, -1):
        here = lines[number - 1]
        if here.strip() and not here.lstrip().startswith("#"):
            return number, here
    return None


def _explain(lines: list[str], problem: str, context: str, p_pos: tuple[int, int], c_pos: tuple[int, int] | None) -> tuple[int, int, str] | None:
    """(line, column, words) for the mistakes designers make most, placed
    where the fix goes; None for anything else. Both parsers (libyaml and
    PyYAML's own) word their errors a little differently; each case matches both."""
    p_line, p_col = p_pos
    here = lines[p_line - 1] if p_line <= len(lines) else ""
    at = here[p_col - 1] if p_col <= len(here) else ""
    # A tab in the indentation: the parser stops at it or just after it.
    for number in (p_line, p_line - 1):
        lead = lines[number - 1][: len(lines[number - 1]) - len(lines[number - 1].lstrip(" \t"))] if 0 < number <= len(lines) else ""
        if "\t" in lead and ("tab" in problem or "cannot start any token" in problem or "indentation" in problem or number == p_line):
            return number, lead.index("\t") + 1, "a tab character indents this line; YAML indents with spaces only (replace the tab with spaces)"
    if "quoted scalar" in context and c_pos is not None:
        # Only running out of text means the quote is never closed; any other
        # problem inside quotes sits where the parser stopped.
        if "end of stream" in problem:
            opened = lines[c_pos[0] - 1] if c_pos[0] <= len(lines) else ""
            quote = 'a double quote (")' if opened[c_pos[1] - 1 : c_pos[1]] == '"' else "a single quote (')"
            return c_pos[0], c_pos[1], f"the text opened with {quote} here is never closed; add the closing quote at the end of the value"
        if "escape" in problem:
            # The parser's mark is at the letter after the backslash.
            col = p_col - 1 if here[p_col - 2 : p_col - 1] == "\\" else p_col
            written = here[col - 1 : col + 1] if here[col - 1 : col] == "\\" else "this escape"
            return (
                p_line,
                col,
                (f"{written!s} is not an escape YAML knows inside double quotes; write a backslash as \\\\, or put the text in single quotes ('...'), where a backslash stands for itself"),
            )
    if "could not find expected ':'" in problem and c_pos is not None:
        key_line = lines[c_pos[0] - 1]
        glued = re.match(r"([^\s:#]+):(\S)", key_line[c_pos[1] - 1 :])
        if glued:
            return c_pos[0], c_pos[1] + len(glued[1]), f"a ':' after a key needs a space after it: write '{glued[1]}: {key_line[c_pos[1] + len(glued[1]) :].strip()}'"
        return c_pos[0], c_pos[1], "this line has no ':' after its key; write 'key: value' (or start a list item with '- ')"
    if "mapping values are not allowed" in problem:
        before = here[: p_col - 1]
        if re.search(r"(?:^|\s)[^\s:]+:\s", before.lstrip(" -")):
            return p_line, p_col, "this value holds ': ', which YAML reads as the start of another key; put the whole value in quotes (\"...\")"
        above = _line_above(lines, p_line)
        where = f" (the line above starts at column {_indent(above[1]) + 1})" if above else ""
        return p_line, _indent(here) + 1, f"this line is indented further than the line above it, so its key belongs to no mapping{where}; line it up with the keys it belongs with"
    if "expected '-' indicator" in problem or "did not find expected key" in problem or "expected <block end>" in problem:
        above = _line_above(lines, p_line)
        if at == "-":
            items = [(n, _indent(lines[n - 1]) + 1) for n in range(p_line - 1, 0, -1) if lines[n - 1].lstrip().startswith("- ")]
            if items and items[0][1] != p_col:
                return p_line, p_col, f"this list item starts at column {p_col}, but the item above it (line {items[0][0]}) starts at column {items[0][1]}; items of one list start at the same column"
            return p_line, p_col, "a list item cannot stand among the keys of a mapping; indent it under its key, or line it up with the list it belongs to"
        where = f" (the line above starts at column {_indent(above[1]) + 1})" if above else ""
        return p_line, p_col, f"this line starts at column {p_col}, which fits no level above it{where}; keys of one mapping start at the same column"
    for opener, closer, what in (("[", "]", "list"), ("{", "}", "mapping")):
        if f"',' or '{closer}'" in problem and c_pos is not None:
            opened = lines[c_pos[0] - 1]
            line, col = (c_pos[0], len(opened.rstrip()) + 1) if c_pos[0] < p_line else p_pos
            return line, col, f"the {what} opened with '{opener}' at line {c_pos[0]}, column {c_pos[1]} is not closed; add the closing '{closer}' (and a ',' between items)"
    if "cannot start any token" in problem and at:
        return p_line, p_col, f"a value cannot start with '{at}'; put the value in quotes"
    return None


def _offset_of(text: str, line: int, col: int) -> int:
    start = 0
    for _ in range(line - 1):
        found = text.find("\n", start)
        if found < 0:
            return len(text)
        start = found + 1
    return start + col - 1


# Characters a designer cannot see that change what a reader sees: control
# characters (C0 but tab and newline, DEL, C1), which a terminal may act on,
# and the bidirectional marks, embeddings, overrides and isolates, which
# reorder the text around them. YAML lets them in through escapes ("\e",
# "\u202e"), and the bidi ones even as written.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_CONTROL_NAMES = {
    0x00: "NULL",
    0x07: "BELL",
    0x08: "BACKSPACE",
    0x0B: "LINE TABULATION",
    0x0C: "FORM FEED",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE",
    0x7F: "DELETE",
}


def hidden_character(text: str) -> str | None:
    """Why ``text`` cannot be content, naming the first hidden character in
    it by its code point; None when it holds none."""
    match = _HIDDEN.search(text)
    if match is None:
        return None
    char = match.group()
    if _is_control(char):
        return f"holds {char_label(char)}, a control character that does not belong in text; remove it"
    return f"holds {char_label(char)}, an invisible character that reorders text; remove it"


def _is_control(char: str) -> bool:
    return ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F


def char_label(char: str) -> str:
    """A character by its code point and name: ``U+001B ESCAPE``."""
    code = ord(char)
    name = _CONTROL_NAMES.get(code) if _is_control(char) else unicodedata.name(char, "")
    return f"U+{code:04X} {name}" if name else f"U+{code:04X}"


class _Converter:
    """Nodes to plain values: dict, list, str, int, float, bool, None."""

    def __init__(self, text: str = "") -> None:
        self.text = text
        # A hidden character reaches a value written as itself or through an
        # escape, which needs a backslash: a file with neither (nearly every
        # file) needs no look at each value.
        self.look = _may_hide(text)
        self._line_starts: list[int] | None = None
        self.issues: list[YamlIssue] = []
        # Aliases make the composer hand back the very same node again. Each
        # collection is converted once; a repeat reuses the value and adds
        # its size to ``expanded``, which is how an alias bomb is caught
        # before anything downstream walks the expansion.
        self.done: dict[int, tuple[Any, int]] = {}
        self.active: set[int] = set()
        self.written = 0
        self.expanded = 0

    def convert(self, root: Node, depth: int) -> Any:
        value = self._node(root, depth)
        if self.issues:
            raise YamlReadError(self.issues)
        return value

    def _node(self, node: Node, depth: int, field: str = "") -> Any:
        if isinstance(node, ScalarNode):
            self.written += 1
            self.expanded += 1
            value = self._scalar(node)
            if self.look and type(value) is str:
                self._refuse_hidden(node, value, f"'{field}'" if field else "this text")
            return value
        key = id(node)
        seen = self.done.get(key)
        if seen is not None:
            self.expanded += seen[1]
            if self.expanded - self.written > max(ALIAS_EXPANSION_ALLOWANCE, self.written):
                line, col = _pos(node)
                raise YamlReadError([YamlIssue(line, col, f"aliases expand {self.written} written values into more than {self.expanded}; refused (an alias bomb?)")])
            return seen[0]
        if key in self.active:
            line, col = _pos(node)
            raise YamlReadError([YamlIssue(line, col, "an alias refers to the collection that contains it; content must be a tree")])
        if depth > MAX_DEPTH:
            line, col = _pos(node)
            raise YamlReadError([YamlIssue(line, col, f"nesting deeper than {MAX_DEPTH} levels; content files are shallow")])
        self.active.add(key)
        before = self.expanded
        self.written += 1
        self.expanded += 1
        value = self._collection(node, depth, field)
        self.active.discard(key)
        self.done[key] = (value, self.expanded - before)
        return value

    def _collection(self, node: Node, depth: int, field: str) -> Any:
        # The loops below do for a scalar child what ``_node`` does, without
        # a call per value (most values are scalars, and most of those plain
        # text), and add up the values they count locally: ``written`` and
        # ``expanded`` are brought up to date before any child collection is
        # converted, where the alias accounting reads them, and on return.
        look = self.look
        counted = 0
        if isinstance(node, SequenceNode):
            if node.tag != SEQ:
                self._bad_tag(node)
            items: list[Any] = []
            for child in node.value:
                if isinstance(child, ScalarNode):
                    counted += 1
                    value = child.value if child.tag == STR else self._scalar(child)
                    if look and type(value) is str:
                        self._refuse_hidden(child, value, f"'{field}'" if field else "this text")
                    items.append(value)
                else:
                    self.written += counted
                    self.expanded += counted
                    counted = 0
                    items.append(self._node(child, depth + 1, field))
            self.written += counted
            self.expanded += counted
            return items
        if isinstance(node, MappingNode):
            if node.tag != MAP:
                self._bad_tag(node)
            result: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, ScalarNode) or key_node.tag not in _KEY_TAGS:
                    line, col = _pos(key_node)
                    self.issues.append(YamlIssue(line, col, "a mapping key must be a plain word"))
                    continue
                key = key_node.value
                if look:
                    self._refuse_hidden(key_node, key, "a key")
                # ``result`` holds exactly the keys taken so far.
                if key in result:
                    line, col = _pos(key_node)
                    first_line = _first_key(node, key).start_mark.line + 1
                    self.issues.append(YamlIssue(line, col, f"key '{key}' is repeated in this mapping (first at line {first_line}); keep one"))
                    continue
                counted += 1
                # A key holding a hidden character is not repeated in the
                # problems of the values below it.
                name = "" if look and _HIDDEN.search(key) else key
                if isinstance(value_node, ScalarNode):
                    counted += 1
                    value = value_node.value if value_node.tag == STR else self._scalar(value_node)
                    if look and type(value) is str:
                        self._refuse_hidden(value_node, value, f"'{name}'" if name else "this text")
                    result[key] = value
                else:
                    self.written += counted
                    self.expanded += counted
                    counted = 0
                    result[key] = self._node(value_node, depth + 1, name)
            self.written += counted
            self.expanded += counted
            return result
        line, col = _pos(node)  # pragma: no cover - composer makes only three kinds
        self.issues.append(YamlIssue(line, col, "unreadable YAML node"))
        return None

    def _refuse_hidden(self, node: Node, value: str, what: str) -> None:
        """A located issue when ``value`` (the text of ``node``) holds a
        hidden character: at the character itself when it is written as
        itself, else (written as an escape) where the text starts."""
        why = hidden_character(value)
        if why is None:
            return
        line, col = _pos(node)
        if self.text:
            char = _HIDDEN.search(value).group()  # type: ignore[union-attr]
            start = self._offset(line, col)
            end = self._offset(node.end_mark.line + 1, node.end_mark.column + 1)
            at = self.text.find(char, start, max(start, end))
            if at >= 0:
                line, col = position_of_offset(self.text, at)
        self.issues.append(YamlIssue(line, col, f"{what} {why}"))

    def _offset(self, line: int, col: int) -> int:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        if line > len(self._line_starts):
            return len(self.text)
        return min(len(self.text), self._line_starts[line - 1] + col - 1)

    def _bad_tag(self, node: Node) -> None:
        line, col = _pos(node)
        self.issues.append(YamlIssue(line, col, _tag_refusal(node.tag)))

    def _scalar(self, node: ScalarNode) -> Any:
        value = _scalar_value(node.tag, node.value)
        if type(value) is _Refused:
            return self._issue(node, value.message)
        return value

    def _issue(self, node: Node, message: str) -> None:
        line, col = _pos(node)
        self.issues.append(YamlIssue(line, col, message))
        return None


_KEY_TAGS = frozenset((STR, INT, BOOL, NULL, FLOAT))


@dataclass(frozen=True, slots=True)
class _Refused:
    """Why a scalar cannot be a value (where it is written is the caller's to say)."""

    message: str


def _scalar_value(tag: str, text: str) -> Any:
    """The plain value of a scalar with resolved ``tag``, or _Refused; both
    readers take their scalars from here, so they read them alike."""
    if tag == STR or tag == "!":
        return text
    if tag == NULL:
        if text in ("", "~", "null", "Null", "NULL"):
            return None
    elif tag == BOOL:
        if text in ("true", "True", "TRUE"):
            return True
        if text in ("false", "False", "FALSE"):
            return False
    elif tag == INT:
        if _INT_RE.match(text):
            if len(text) > _MAX_NUMBER_CHARS:
                return _Refused(f"number {text[:20]}... is far too long")
            return int(text, 0) if text[:2] in ("0x", "0o") else int(text)
    elif tag == FLOAT:
        if _FLOAT_RE.match(text) or _INT_RE.match(text):
            if len(text) > _MAX_NUMBER_CHARS:
                return _Refused(f"number {text[:20]}... is far too long")
            low = text.lower().lstrip("+")
            number = float(low.replace(".", "")) if low in (".inf", "-.inf", ".nan") else float(text)
            if not math.isfinite(number):
                # NaN compares false with every bound, so the quick check
                # and jsonschema disagree on "minimum: 0" (one refuses it,
                # the other lets it through); an infinity is no count or
                # amount either. Neither is a number content can hold.
                kind = "is not a number (NaN)" if math.isnan(number) else "is infinite (too large for a number)"
                return _Refused(f"'{text}' {kind}; content numbers are ordinary numbers, so write one")
            return number
    else:
        return _Refused(_tag_refusal(tag))
    return _Refused(f"'{text}' cannot be read as {_short_tag(tag)}")


def _tag_refusal(tag: str) -> str:
    return f"tag '{_short_tag(tag)}' is not allowed: content is plain data and no tag is ever run"


def _first_key(node: MappingNode, key: str) -> Node:
    """The key node that first took ``key`` in a mapping (for a repeat's message)."""
    return next(k for k, _ in node.value if isinstance(k, ScalarNode) and k.tag in _KEY_TAGS and k.value == key)


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_T) :] if tag.startswith(_T) else tag


_MEMBERS: weakref.WeakKeyDictionary[MappingNode, dict[str, tuple[Node, Node]]] = weakref.WeakKeyDictionary()


_SCANNED = 16


def _member(node: MappingNode, key: str) -> tuple[Node, Node] | None:
    """The (key, value) nodes of ``key`` in a mapping node, the first of a
    repeated key winning. A small mapping (a card) is scanned; a large one is
    indexed once and the index kept while the node lives: a file with a
    problem under each of many keys would otherwise scan the mapping once
    per problem, quadratic in its size."""
    if len(node.value) <= _SCANNED:
        for k, v in node.value:
            if isinstance(k, ScalarNode) and k.value == key:
                return k, v
        return None
    found = _MEMBERS.get(node)
    if found is None:
        found = {}
        for k, v in node.value:
            if isinstance(k, ScalarNode):
                found.setdefault(k.value, (k, v))
        _MEMBERS[node] = found
    return found.get(key)


def locate(root: Node | None, pointer: Sequence[str | int], *, key: bool = False) -> tuple[int, int]:
    """Position of the value at ``pointer`` (or of its key, with ``key=True``).

    Falls back to the deepest node that exists, so a problem is always placed
    somewhere sensible even when the path runs into missing data.
    """
    if root is None:
        return 1, 1
    node: Node = root
    key_node: Node | None = None
    for step in pointer:
        if isinstance(node, MappingNode):
            found = _member(node, str(step))
            if found is None:
                break
            key_node, node = found
        elif isinstance(node, SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
            key_node, node = None, node.value[step]
        else:
            break
    if key and key_node is not None:
        return _pos(key_node)
    return _pos(node)
