"""How the fuzz suite damages content: each mutation is one kind of harm a
designer, an editor, a bad merge or a bad disk can do to the YAML files, the
schemas or the folder holding them, drawn by hypothesis.

A mutation takes hypothesis' ``draw`` and the scratch project's root (the
folder holding ``content/``), changes files there and says in one line what
it did (shown when a case fails). Mutations find what to damage by its shape
(a ``key: value``, a card's ``- id:`` block, a flow list), never by a
particular card, so they keep working as the content changes.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

from tests.kit.fuzz import CONTENT

T = TypeVar("T")


class Draw(Protocol):
    """Hypothesis' ``draw``: of ``st.composite`` or of ``st.data()``."""

    def __call__(self, strategy: st.SearchStrategy[T], label: Any = None) -> T: ...


Mutation = Callable[[Draw, Path], str]

# Every shipped content file, by its path under content/.
YAML_FILES = sorted(p.relative_to(CONTENT).as_posix() for p in CONTENT.rglob("*.yaml") if "__pycache__" not in p.parts)
SCHEMA_FILES = sorted(p.relative_to(CONTENT).as_posix() for p in CONTENT.rglob("*.schema.json"))
FOLDERS = sorted({Path(name).parent.as_posix() for name in YAML_FILES + SCHEMA_FILES})

# Characters that look harmless and are not: byte-order marks, NUL and other
# controls, line and paragraph separators YAML may count as line breaks,
# bidirectional overrides, zero-width joiners, combining marks, characters
# outside the Basic Multilingual Plane, a lone surrogate (invalid UTF-8 once
# encoded), non-characters, lookalikes, an ANSI escape.
ODD_TEXT = [
    "\ufeff",
    "\x00",
    "\x01",
    "\x07",
    "\x08",
    "\x0b",
    "\x0c",
    "\x1b[31m",
    "\x7f",
    "\x85",
    "\x9b",
    "\u00a0",
    "\u2028",
    "\u2029",
    "\u202e",
    "\u2066",
    "\u200b",
    "\u200d",
    "\u00ad",
    "e\u0301",
    "\u0301",
    "\U0001f682",
    "\U0010ffff",
    "\uffff",
    "\ufffe",
    "\ud800",
    "\udfff",
    "\u0130",
    "\u00df",
    "\ufb01",
    "\u3000",
    "\u2126",
    "A\u030a",
    "\t",
    "\r",
    "\\",
    "'",
    '"',
    "#",
    "&",
    "*",
    "!",
    "|",
    ">",
    "%",
    "@",
    "`",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "? ",
    "- ",
]

NUMBERS = [
    "1e400",
    "-1e400",
    "9" * 5000,
    "-" + "9" * 50,
    "-0",
    "0",
    "-1",
    "18446744073709551616",
    ".inf",
    "-.inf",
    ".nan",
    "0x7fffffffffffffffff",
    "0o777",
    "0b101",
    "1_000",
    "1:20",
    "+12",
    "1.5",
    "1e3",
    "007",
    "99999999999999999999.5",
]

WRONG_TYPES = [
    "[]",
    "{}",
    "null",
    "~",
    "",
    "true",
    "false",
    "yes",
    "no",
    "on",
    "off",
    "[1, 2]",
    "{a: 1}",
    "''",
    '""',
    "2024-01-01",
    "12:30",
    "'12'",
    "[[]]",
    "{id: x}",
    "- a",
    "a: b",
    "|",
    ">-",
    "!!str 3",
    "!!int x",
    "=",
    "<<",
    "?",
    "@x",
    "`x`",
]

TAGS = [
    "!!python/object:os.system",
    '!!python/object/apply:os.system ["touch PWNED"]',
    "!!python/name:os.system",
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "!!omap [a: 1]",
    "!!pairs [a: 1]",
    "!!timestamp 2001-12-14",
    "!custom x",
    "!<tag:yaml.org,2002:str> x",
    "!!float x",
    "!!bool maybe",
    "!!null x",
    "!!map [1]",
    "!!seq {a: 1}",
    "!x!y z",
]


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _read(root: Path, rel: str) -> bytes:
    return (root / "content" / rel).read_bytes()


def _write(root: Path, rel: str, data: bytes) -> None:
    path = root / "content" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


class Spared(Exception):
    """Nothing left for this mutation to damage (an earlier one removed it)."""


def _existing(root: Path, pool: list[str]) -> list[str]:
    """The entries of ``pool`` still standing as plain files (an earlier
    mutation of the same case may have renamed, removed or linked them)."""
    found = []
    for name in pool:
        path = root / "content" / name
        if path.is_file() and not path.is_symlink():
            found.append(name)
    return found


def _file(draw: Draw, root: Path, pool: list[str] | None = None) -> str:
    standing = _existing(root, YAML_FILES if pool is None else pool)
    if not standing:
        raise Spared("no file left to damage")
    return draw(st.sampled_from(standing))


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _line(draw: Draw, lines: list[bytes], keep_header: bool = True) -> int:
    """A line to damage; mostly not the schema line at the top, since damage
    there stops the reading before anything else is looked at."""
    low = 1 if keep_header and len(lines) > 1 and draw(st.integers(0, 4)) else 0
    return draw(st.integers(min_value=low, max_value=max(low, len(lines) - 1)))


def _text_mutation(change: Callable[[Draw, bytes], tuple[bytes, str]], pool: list[str] | None = None) -> Mutation:
    """A mutation of one file's bytes."""

    def mutate(draw: Draw, root: Path) -> str:
        rel = _file(draw, root, pool)
        data, what = change(draw, _read(root, rel))
        _write(root, rel, data)
        return f"{rel}: {what}"

    mutate.__name__ = change.__name__
    return mutate


# Spots where a value stands: after ``key:`` in a block or flow mapping, or
# after a list dash. (start, end) offsets of the value within the file.
_KEY = re.compile(rb"(?:^|(?<=[\s{,]))([A-Za-z$][\w$-]*):[ ]+")


def _value_spots(data: bytes) -> list[tuple[int, int]]:
    spots = []
    for m in _KEY.finditer(data):
        line_end = data.find(b"\n", m.end())
        line_end = len(data) if line_end < 0 else line_end
        line_start = data.rfind(b"\n", 0, m.start()) + 1
        end = line_end
        if b"{" in data[line_start : m.start()]:  # inside a flow mapping: up to the next , or }
            stop = re.compile(rb"[,}]").search(data, m.end(), line_end)
            end = stop.start() if stop else line_end
        if data[m.end() : end].startswith(b"#"):
            continue
        spots.append((m.end(), end))
    for m in re.finditer(rb"^\s*- (?![\w$-]+:)", data, re.M):
        line_end = data.find(b"\n", m.end())
        spots.append((m.end(), len(data) if line_end < 0 else line_end))
    return spots


def _replace_value(draw: Draw, data: bytes, pool: list[str]) -> tuple[bytes, str]:
    spots = _value_spots(data)
    if not spots:
        return data, "no value to replace"
    start, end = draw(st.sampled_from(spots))
    new = draw(st.sampled_from(pool))
    return data[:start] + _encode(new) + data[end:], f"value {data[start:end][:40]!r} at byte {start} -> {new[:40]!r}"


# -- mutations of one file's text -------------------------------------------------


def truncate(draw: Draw, data: bytes) -> tuple[bytes, str]:
    at = draw(st.integers(min_value=0, max_value=len(data)))
    return data[:at], f"cut after byte {at} of {len(data)}"


def flip_byte(draw: Draw, data: bytes) -> tuple[bytes, str]:
    if not data:
        return data, "empty"
    at = draw(st.integers(min_value=0, max_value=len(data) - 1))
    value = draw(st.integers(min_value=0, max_value=255))
    return data[:at] + bytes([value]) + data[at + 1 :], f"byte {at} -> {value:#x}"


def delete_line(draw: Draw, data: bytes) -> tuple[bytes, str]:
    lines = _lines(data)
    i = _line(draw, lines)
    gone = lines.pop(i)
    return b"\n".join(lines), f"line {i + 1} deleted: {gone[:60]!r}"


def duplicate_line(draw: Draw, data: bytes) -> tuple[bytes, str]:
    lines = _lines(data)
    i = _line(draw, lines)
    copies = draw(st.sampled_from([1, 1, 2, 50]))
    lines[i:i] = [lines[i]] * copies
    return b"\n".join(lines), f"line {i + 1} repeated {copies} more time(s): {lines[i][:60]!r}"


def swap_lines(draw: Draw, data: bytes) -> tuple[bytes, str]:
    lines = _lines(data)
    i, j = _line(draw, lines), _line(draw, lines)
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines), f"lines {i + 1} and {j + 1} swapped"


def insert_tab(draw: Draw, data: bytes) -> tuple[bytes, str]:
    lines = _lines(data)
    i = _line(draw, lines)
    indent = len(lines[i]) - len(lines[i].lstrip(b" "))
    at = draw(st.one_of(st.just(0), st.just(indent), st.integers(min_value=0, max_value=len(lines[i]))))
    tab = draw(st.sampled_from([b"\t", b"\t\t", b" \t", b"\t "]))
    lines[i] = lines[i][:at] + tab + lines[i][at:]
    return b"\n".join(lines), f"{tab!r} at line {i + 1}, column {at + 1}"


def reindent(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """Shift one line, or a run of lines, left or right by an odd amount."""
    lines = _lines(data)
    i = _line(draw, lines)
    count = draw(st.sampled_from([1, 1, 3, 20]))
    by = draw(st.sampled_from([-4, -2, -1, 1, 2, 3, 5]))
    for k in range(i, min(i + count, len(lines))):
        line = lines[k]
        lines[k] = b" " * by + line if by > 0 else line[min(-by, len(line) - len(line.lstrip(b" "))) :]
    return b"\n".join(lines), f"lines {i + 1}..{i + count} shifted by {by}"


def odd_characters(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """Unicode oddities (controls, separators, bidi, surrogates, BOMs ...)
    typed into the text, or making up a whole value."""
    odd = "".join(draw(st.lists(st.sampled_from(ODD_TEXT), min_size=1, max_size=3)))
    if draw(st.booleans()):
        spots = _value_spots(data)
        if spots:
            start, end = draw(st.sampled_from(spots))
            at = draw(st.sampled_from([start, end, (start + end) // 2]))
            return data[:at] + _encode(odd) + data[at:], f"{odd!r} into the value at byte {start}"
    at = draw(st.integers(min_value=0, max_value=len(data)))
    return data[:at] + _encode(odd) + data[at:], f"{odd!r} at byte {at}"


def line_endings(draw: Draw, data: bytes) -> tuple[bytes, str]:
    ending = draw(st.sampled_from([b"\r\n", b"\r", b"\n\r", b"\x85", "\u2028".encode()]))
    if draw(st.booleans()):
        return data.replace(b"\n", ending), f"every line ending -> {ending!r}"
    lines = _lines(data)
    i = _line(draw, lines)
    return b"\n".join(lines[:i]) + ending + b"\n".join(lines[i:]), f"the ending of line {i} -> {ending!r}"


def reencode(draw: Draw, data: bytes) -> tuple[bytes, str]:
    text = data.decode("utf-8", "replace")
    how = draw(st.sampled_from(["utf-16", "utf-16-le", "utf-32", "latin-1", "bom", "double-bom", "cp1252", "nfd"]))
    if how == "bom":
        return b"\xef\xbb\xbf" + data, "UTF-8 byte-order mark"
    if how == "double-bom":
        return b"\xef\xbb\xbf\xef\xbb\xbf" + data, "two UTF-8 byte-order marks"
    if how == "nfd":
        return unicodedata.normalize("NFD", text + "# caf\u00e9\n").encode(), "decomposed (NFD) text"
    text = text.replace("# ", "# caf\u00e9 ", 1)
    return text.encode(how, "replace"), f"encoded as {how}"


def blank(draw: Draw, data: bytes) -> tuple[bytes, str]:
    header = _lines(data)[0] + b"\n"
    body = draw(st.sampled_from([b"", b"\n", b"\n\n\n", b"   ", b"# a comment\n", b"---\n", b"...\n", b"null\n", b"~", b"--- |\n  x\n", b"\x00", b"{}", b"[]"]))
    keep = draw(st.booleans())
    return (header if keep else b"") + body, f"{'header + ' if keep else ''}{body!r}"


def huge_number(draw: Draw, data: bytes) -> tuple[bytes, str]:
    spots = [(s, e) for s, e in _value_spots(data) if re.fullmatch(rb"-?[0-9]+(\.[0-9]+)?", data[s:e].strip())]
    if not spots:
        return _replace_value(draw, data, NUMBERS)
    start, end = draw(st.sampled_from(spots))
    new = draw(st.sampled_from(NUMBERS))
    return data[:start] + new.encode() + data[end:], f"number {data[start:end]!r} at byte {start} -> {new[:30]!r}"


def wrong_type(draw: Draw, data: bytes) -> tuple[bytes, str]:
    return _replace_value(draw, data, WRONG_TYPES + NUMBERS[:5])


def _blocks(data: bytes) -> list[tuple[int, int, int]]:
    """(start, end, indent) of every ``key:`` line with the lines nested under it."""
    lines = data.split(b"\n")
    offsets, at = [], 0
    for line in lines:
        offsets.append(at)
        at += len(line) + 1
    found = []
    for i, line in enumerate(lines):
        m = re.match(rb"^( *)(- )?[A-Za-z$][\w$-]*:", line)
        if not m:
            continue
        indent = len(m.group(1)) + (2 if m.group(2) else 0)
        j = i + 1
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip(b" ")) > indent):
            j += 1
        found.append((offsets[i], offsets[j] if j < len(lines) else len(data), indent))
    return found


def remove_key(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """A ``key:`` line with everything nested under it, gone (a list item's
    first key leaves its dash behind); or one key of a flow mapping."""
    if draw(st.booleans()):
        flow = list(re.finditer(rb"(?<=[{,] )[A-Za-z][\w-]*: [^,}\n]*(, )?", data))
        if flow:
            m = draw(st.sampled_from(flow))
            return data[: m.start()] + data[m.end() :], f"flow key {m.group(0)[:40]!r} removed"
    blocks = _blocks(data)
    if not blocks:
        return data, "no key"
    start, end, _ = draw(st.sampled_from(blocks))
    head = re.match(rb" *- ", data[start:end])
    keep = head.group(0).rstrip() + b"\n" if head else b""
    return data[:start] + keep + data[end:], f"key block {data[start:end][:50]!r} removed"


def duplicate_key(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """A key given twice in one mapping, the same or another value."""
    blocks = _blocks(data)
    if not blocks:
        return data, "no key"
    start, end, indent = draw(st.sampled_from(blocks))
    block = data[start:end]
    copy = b" " * indent + re.sub(rb"^ *(- )?", b"", block, count=1)
    if not copy.endswith(b"\n"):
        copy += b"\n"
    if draw(st.booleans()):
        copy = re.sub(rb":.*", b": " + draw(st.sampled_from([b"1", b"other", b"[]", b"true"])), copy, count=1)
    return data[:end] + (b"" if data[:end].endswith(b"\n") or not data[:end] else b"\n") + copy + data[end:], f"key {block.splitlines()[0][:40]!r} repeated"


_CARD = re.compile(rb"^( *)- (?:\{ *)?id: ([^\s,}]+)", re.M)


def _cards(data: bytes) -> list[tuple[int, int, bytes]]:
    """(start, end, id) of every list item that starts with its id."""
    found = []
    matches = list(_CARD.finditer(data))
    for k, m in enumerate(matches):
        end = matches[k + 1].start() if k + 1 < len(matches) else len(data)
        # a block item ends where the indentation falls back
        tail = re.compile(rb"^ {0,%d}\S" % len(m.group(1)), re.M).search(data, data.find(b"\n", m.start()) + 1 if b"\n" in data[m.start() :] else len(data))
        if tail and tail.start() < end:
            end = tail.start()
        found.append((m.start(), end, m.group(2)))
    return found


def duplicate_card(draw: Draw, root: Path) -> str:
    """A card's whole entry copied: next to itself, elsewhere in its file, or
    into another file of the same pack (two cards, one id)."""
    rel = _file(draw, root, [name for name in _existing(root, YAML_FILES) if _cards(_read(root, name))])
    data = _read(root, rel)
    start, end, card_id = draw(st.sampled_from(_cards(data)))
    block = data[start:end] if data[start:end].endswith(b"\n") else data[start:end] + b"\n"
    if draw(st.integers(0, 3)) == 0:
        pack = rel.split("/")[0]
        others = [name for name in _existing(root, YAML_FILES) if name.startswith(pack + "/") and name != rel and _cards(_read(root, name))]
        if others:
            other = draw(st.sampled_from(others))
            target = _read(root, other)
            o_start, _, _ = draw(st.sampled_from(_cards(target)))
            _write(root, other, target[:o_start] + block + target[o_start:])
            return f"card {card_id!r} of {rel} copied into {other}"
    at = draw(st.sampled_from([start, end]))
    _write(root, rel, data[:at] + block + data[at:])
    return f"{rel}: card {card_id!r} repeated"


def rename_id(draw: Draw, root: Path) -> str:
    """An id changed (what names it dangles), or a reference to one changed."""
    rel = _file(draw, root, [name for name in _existing(root, YAML_FILES) if _cards(_read(root, name))])
    data = _read(root, rel)
    if draw(st.booleans()):
        start, _, card_id = draw(st.sampled_from(_cards(data)))
        at = data.index(b"id: ", start) + 4
        others = [c for _, _, c in _cards(data) if c != card_id]
        new = draw(st.sampled_from([card_id + b"s", card_id.upper(), b"", b'""', card_id[:-1], b"x" * 300, _encode("caf\u00e9"), b"a b", b"-", b"1"] + others[:3]))
        _write(root, rel, data[:at] + new + data[at + len(card_id) :])
        return f"{rel}: id {card_id!r} -> {new[:40]!r}"
    refs = list(re.finditer(rb"(?<=[\[ ,])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?=[\],\n])", data))
    if not refs:
        return f"{rel}: no reference"
    m = draw(st.sampled_from(refs))
    new = draw(st.sampled_from([m.group(0) + b"x", m.group(0)[:-1], b"nowhere", m.group(0).upper()]))
    _write(root, rel, data[: m.start()] + new + data[m.end() :])
    return f"{rel}: reference {m.group(0)!r} -> {new!r}"


def anchors_aliases(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """Anchors and aliases: a value reused, an alias to nothing, an alias to
    its own collection, a merge key, a small alias bomb."""
    spots = _value_spots(data)
    if len(spots) < 2:
        return data, "too few values"
    (s1, e1), (s2, e2) = sorted([draw(st.sampled_from(spots)), draw(st.sampled_from(spots))])
    how = draw(st.sampled_from(["reuse", "undefined", "self", "merge", "bomb", "twice", "key"]))
    if how == "reuse" and e1 <= s2:
        return data[:s1] + b"&a " + data[s1:s2] + b"*a" + data[e2:], f"value at byte {s1} anchored, reused at {s2}"
    if how == "twice" and e1 <= s2:
        return data[:s1] + b"&a " + data[s1:s2] + b"&a " + data[s2:], "one anchor name given twice"
    if how == "self":
        return data[:s1] + b"&s [*s, 1]" + data[e1:], f"self-referential list at byte {s1}"
    if how == "merge":
        return data[:s1] + b"{<<: *m, a: 1}" + data[e1:], f"merge of an undefined anchor at byte {s1}"
    if how == "bomb":
        bomb = b"&b0 [x, x, x, x, x, x, x, x, x]"
        # each level nine aliases of the last: 9**6 leaves, a small bomb
        levels = b"".join(b", &b%d [" % (k + 1) + b", ".join([b"*b%d" % k] * 9) + b"]" for k in range(6))
        return data[:s1] + b"[" + bomb + levels + b"]" + data[e1:], f"alias bomb at byte {s1}"
    if how == "key":
        return data[:s1] + b"{&k a: 1, *k : 2}" + data[e1:], f"aliased key at byte {s1}"
    return data[:s1] + b"*nowhere" + data[e1:], f"alias to no anchor at byte {s1}"


def deep_nesting(draw: Draw, data: bytes) -> tuple[bytes, str]:
    depth = draw(st.sampled_from([10, 39, 40, 41, 42, 100, 1000, 20000]))
    shape = draw(st.sampled_from(["list", "map", "open", "block", "dashes", "mixed"]))
    if shape == "list":
        value = b"[" * depth + b"]" * depth
    elif shape == "map":
        value = b"{a: " * depth + b"1" + b"}" * depth
    elif shape == "open":
        value = b"[" * depth
    elif shape == "mixed":
        value = b"[{a: " * (depth // 2) + b"1" + b"}]" * (depth // 2)
    elif shape == "dashes":
        value = b"\n" + b"".join(b"  " * k + b"- " for k in range(min(depth, 400))) + b"x"
    else:
        value = b"\n" + b"".join(b"  " * (k + 3) + b"k%d:\n" % k for k in range(min(depth, 400))) + b"  " * 404 + b"x: 1"
    spots = _value_spots(data)
    if not spots:
        return data + value, f"{shape} nested {depth} deep at the end"
    start, end = draw(st.sampled_from(spots))
    return data[:start] + value + data[end:], f"{shape} nested {depth} deep at byte {start}"


def yaml_tags(draw: Draw, data: bytes) -> tuple[bytes, str]:
    return _replace_value(draw, data, TAGS)


def documents(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """Document markers and directives: a second document, an early end, a
    %YAML or %TAG directive."""
    lines = _lines(data)
    i = _line(draw, lines)
    marker = draw(st.sampled_from([b"---", b"...", b"--- !!map", b"%YAML 1.1\n---", b"%YAML 2.0\n---", b"%TAG ! tag:x.org,2000:\n---", b"--- # again", b"---\n---"]))
    lines.insert(i, marker)
    return b"\n".join(lines), f"{marker!r} before line {i + 1}"


def schema_header(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """The first line, which names the file's schema, damaged or redirected."""
    lines = _lines(data)
    schemas = sorted({Path(name).name for name in SCHEMA_FILES})
    target = draw(
        st.sampled_from(
            schemas
            + [
                "missing.schema.json",
                "",
                "../../../../etc/hostname",
                "/etc/hostname",
                "x" * 5000,
                "schema/",
                ".",
                "https://example.org/x.json",
                "../schema/defs.schema.json#/nowhere",
                "game.schema.json\x00",
            ]
        )
    )
    how = draw(st.sampled_from(["swap", "swap", "drop", "misspell", "twice", "space"]))
    if how == "drop":
        return b"\n".join(lines[1:]), "schema line removed"
    if how == "misspell":
        lines[0] = lines[0].replace(b"$schema", b"$schem")
        return b"\n".join(lines), "schema key misspelt"
    if how == "twice":
        return b"\n".join([lines[0]] + lines), "schema line given twice"
    if how == "space":
        lines[0] = lines[0].replace(b"=", b"= ")
        return b"\n".join(lines), "space after the ="
    new = re.sub(rb"\$schema=.*", b"$schema=" + _encode(target).replace(b"\\", b"\\\\"), lines[0])
    lines[0] = new if new != lines[0] else b"# yaml-language-server: $schema=" + _encode(target)
    return b"\n".join(lines), f"schema -> {target[:50]!r}"


def long_value(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """A very long string, a long list, a long line."""
    size = draw(st.sampled_from([1_000, 10_000, 200_000]))
    kind = draw(st.sampled_from(["text", "quoted", "list", "ids", "comment"]))
    if kind == "text":
        value = b"x" * size
    elif kind == "quoted":
        value = b'"' + b"y" * size + b'"'
    elif kind == "list":
        value = b"[" + b", ".join(b"a%d" % k for k in range(min(size, 500))) + b"]"
    elif kind == "ids":
        value = b"[" + b", ".join([b"same"] * min(size, 500)) + b"]"
    else:
        return data + b"\n# " + b"z" * size + b"\n", f"a comment of {size} characters"
    return _replace_value_bytes(draw, data, value, f"{kind} of {size}")


def _replace_value_bytes(draw: Draw, data: bytes, value: bytes, what: str) -> tuple[bytes, str]:
    spots = _value_spots(data)
    if not spots:
        return data, "no value"
    start, end = draw(st.sampled_from(spots))
    return data[:start] + value + data[end:], f"value at byte {start} -> {what}"


# -- mutations of the folder -------------------------------------------------------


def _new_name(draw: Draw, rel: str) -> str:
    path = Path(rel)
    stem = path.name.removesuffix(".yaml")
    name = draw(
        st.sampled_from(
            [
                stem + ".yml",
                stem.upper() + ".YAML",
                "." + path.name,
                path.name + ".orig",
                path.name + "~",
                "#" + path.name + "#",
                "copy of " + path.name,
                "tr\u00e4ins.yaml",
                unicodedata.normalize("NFD", "caf\u00e9.yaml"),
                "x" * 200 + ".yaml",
                "-" + path.name,
                "a:b.yaml",
                "sub/" + path.name,
                "%s%n.yaml",
                "\u202e" + path.name,
                path.name + " ",
            ]
        )
    )
    return (path.parent / name).as_posix()


def rename_file(draw: Draw, root: Path) -> str:
    rel = _file(draw, root)
    new = _new_name(draw, rel)
    if new == rel:
        return "no rename"
    target = root / "content" / new
    target.parent.mkdir(parents=True, exist_ok=True)
    (root / "content" / rel).rename(target)
    return f"{rel} renamed {new}"


def rename_folder(draw: Draw, root: Path) -> str:
    standing = [name for name in FOLDERS + _packs() if (root / "content" / name).is_dir()]
    if not standing:
        raise Spared("no folder left")
    rel = draw(st.sampled_from(standing))
    new = draw(st.sampled_from([rel + "-old", rel.upper(), rel + "/inner", "." + rel.split("/")[-1], rel + " 2"]))
    if new.startswith("."):
        new = (Path(rel).parent / new).as_posix()
    source = root / "content" / rel
    target = root / "content" / new
    if target.exists():
        raise Spared(f"{new} is already there")
    if new.startswith(rel + "/"):
        temporary = source.with_name(source.name + ".moving")
        source.rename(temporary)
        source.mkdir()
        temporary.rename(target)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        source.rename(target)
    return f"folder {rel} renamed {new}"


def _packs() -> list[str]:
    return sorted({name.split("/")[0] for name in YAML_FILES})


def delete_file(draw: Draw, root: Path) -> str:
    rel = _file(draw, root, YAML_FILES + SCHEMA_FILES)
    (root / "content" / rel).unlink()
    return f"{rel} deleted"


def delete_folder(draw: Draw, root: Path) -> str:
    import shutil

    standing = [name for name in FOLDERS if (root / "content" / name).is_dir()]
    if not standing:
        raise Spared("no folder left")
    rel = draw(st.sampled_from(standing))
    shutil.rmtree(root / "content" / rel)
    return f"folder {rel} deleted"


def copy_file(draw: Draw, root: Path) -> str:
    """A file copied beside itself (every id twice) or into the other pack."""
    rel = _file(draw, root)
    packs = _packs()
    folder = draw(st.sampled_from([str(Path(rel).parent)] + packs + [""]))
    name = draw(st.sampled_from(["copy.yaml", Path(rel).name, "z-" + Path(rel).name]))
    target = (Path(folder) / name).as_posix()
    if target == rel:
        target = (Path(folder) / ("2-" + name)).as_posix()
    _write(root, target, _read(root, rel))
    return f"{rel} copied to {target}"


STRAY_BYTES = [b"", b"\x00" * 64, bytes(range(256)), b"\x89PNG\r\n\x1a\n\x00\x00", b"PK\x03\x04", b"cards: []\n", b"id: stationmaster\n", b"- just a list\n", b"{\n"]


def stray_entry(draw: Draw, root: Path) -> str:
    """Something that does not belong: a junk file, a folder with a content
    file's name, a second pack folder, a file at the top of content/."""
    pack = draw(st.sampled_from(_packs() + [""]))
    name = draw(
        st.sampled_from(
            ["junk.yaml", "notes.txt", ".DS_Store", "README.md", "schema/junk.json", "schema/x.schema.json", "new-pack/game.yaml", "empty-folder/", "dir.yaml/", "home-deck/extra.yaml", "game.yaml/x"]
        )
    )
    rel = (Path(pack) / name).as_posix() + ("/" if name.endswith("/") else "")
    path = root / "content" / rel
    if rel.endswith("/"):
        if path.exists():
            return f"{rel} already there"
        path.mkdir(parents=True)
        return f"folder {rel} added"
    if path.parent.is_file():
        return f"{rel}: its folder is a file"
    if path.is_dir():
        return f"{rel} is a folder"
    data = draw(st.sampled_from(STRAY_BYTES))
    _write(root, rel, data)
    return f"{rel} added holding {data[:20]!r}"


def game_id(draw: Draw, root: Path) -> str:
    """The pack's ``id:`` line in game.yaml: another pack's, unknown, empty,
    not text, given twice, gone."""
    rel = _file(draw, root, [f"{pack}/game.yaml" for pack in _packs()])
    data = _read(root, rel)
    new = draw(st.sampled_from(_packs() + ["unknown", "", "[stationmaster]", "{}", "Stationmaster", "stationmaster ", "'stationmaster'", "../x", "x" * 300, "caf\u00e9", "null", "1"]))
    how = draw(st.sampled_from(["set", "set", "twice", "drop"]))
    if how == "drop":
        _write(root, rel, re.sub(rb"^id:.*\n", b"", data, count=1, flags=re.M))
        return f"{rel}: id line removed"
    line = b"id: " + _encode(new)
    if how == "twice":
        _write(root, rel, re.sub(rb"^(id:.*\n)", rb"\1" + line.replace(b"\\", b"\\\\") + b"\n", data, count=1, flags=re.M))
        return f"{rel}: second id line {new!r}"
    _write(root, rel, re.sub(rb"^id:.*", line.replace(b"\\", b"\\\\"), data, count=1, flags=re.M))
    return f"{rel}: id -> {new!r}"


def symlink(draw: Draw, root: Path) -> str:
    """A content file replaced by a link: to another file, to nothing, to
    itself, to a folder, to a file outside the project."""
    rel = _file(draw, root, YAML_FILES + SCHEMA_FILES)
    path = root / "content" / rel
    target = draw(st.sampled_from(["other", "missing", "self", "folder", "outside", "relative-up", "null"]))
    path.unlink()
    if target == "other":
        dest = str(root / "content" / draw(st.sampled_from(YAML_FILES)))  # standing or not
    elif target == "missing":
        dest = str(root / "nowhere.yaml")
    elif target == "self":
        dest = path.name
    elif target == "folder":
        dest = "."
    elif target == "null":
        dest = os.devnull
    elif target == "relative-up":
        dest = "../" * (rel.count("/") + 1) + "content/" + rel.split("/")[0] + "/game.yaml"
    else:
        outside = root / "outside.yaml"
        outside.write_bytes(b"cards: []\n")
        dest = str(outside)
    path.symlink_to(dest)
    return f"{rel} -> link to {dest}"


def schema_text(draw: Draw, root: Path) -> str:
    """A schema file's text damaged: cut short, not JSON, not UTF-8, empty."""
    rel = _file(draw, root, SCHEMA_FILES)
    data = _read(root, rel)
    change = draw(st.sampled_from([truncate, flip_byte, delete_line, blank, odd_characters, reencode]))
    new, what = change(draw, data)
    _write(root, rel, new)
    return f"{rel}: {what}"


def json_paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            found += json_paths(item, here + (key,))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            found += json_paths(item, here + (k,))
    return found


def set_at(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    value[path[0]] = set_at(value[path[0]], path[1:], new)
    return value


SCHEMA_VALUES: list[Any] = [
    "x",
    0,
    "[",
    "(?P<",
    "\\",
    "*",
    "#/nowhere",
    "other.schema.json",
    "defs.schema.json#/$defs/nothing",
    "no-such-type",
    7,
    -1,
    None,
    True,
    [],
    {},
    ["string", "bogus"],
    {"$ref": "#"},
    {"$ref": "#/$defs"},
    {"type": "nothing"},
    {"pattern": "["},
    1e400,
]


def schema_semantics(draw: Draw, root: Path) -> str:
    """A schema that is JSON but not a good schema: a bad ``pattern``,
    ``$ref``, ``type``, keyword value, or nesting."""
    rel = _file(draw, root, SCHEMA_FILES)
    try:
        data = json.loads(_read(root, rel))
    except ValueError:
        raise Spared(f"{rel} is no longer JSON") from None
    paths = json_paths(data)
    keyed = [p for p in paths if p and p[-1] in ("pattern", "$ref", "type", "enum", "required", "minimum", "maximum", "items", "properties", "additionalProperties", "uniqueItems", "const")]
    path = draw(st.sampled_from(keyed or paths))
    if draw(st.integers(0, 5)) == 0:
        depth = draw(st.sampled_from([50, 500, 5000]))
        # written as text: json.dumps itself gives up on deep nesting
        text = json.dumps(set_at(data, path, "@@DEEP@@")).replace('"@@DEEP@@"', '{"items": ' * depth + "{}" + "}" * depth)
        _write(root, rel, text.encode())
        return f"{rel}: {'/'.join(map(str, path))} -> items nested {depth} deep"
    new = draw(st.sampled_from(SCHEMA_VALUES))
    data = set_at(data, path, new)
    _write(root, rel, json.dumps(data).encode() if new != 1e400 else json.dumps(data).replace("Infinity", "1e400").encode())
    return f"{rel}: {'/'.join(map(str, path))} -> {str(new)[:40]}"


# Every mutation, by name. (Each name is a test case of its own, so a known
# defect can be marked on just the kinds that reach it.)
TEXT_MUTATIONS: dict[str, Mutation] = {
    change.__name__: _text_mutation(change)
    for change in (
        truncate,
        flip_byte,
        delete_line,
        duplicate_line,
        swap_lines,
        insert_tab,
        reindent,
        odd_characters,
        line_endings,
        reencode,
        blank,
        huge_number,
        wrong_type,
        remove_key,
        duplicate_key,
        anchors_aliases,
        deep_nesting,
        yaml_tags,
        documents,
        schema_header,
        long_value,
    )
}
FOLDER_MUTATIONS: dict[str, Mutation] = {
    m.__name__: m for m in (duplicate_card, rename_id, rename_file, rename_folder, delete_file, delete_folder, copy_file, stray_entry, game_id, symlink, schema_text, schema_semantics)
}
MUTATIONS: dict[str, Mutation] = {**TEXT_MUTATIONS, **FOLDER_MUTATIONS}


def damage(draw: Draw, root: Path, kinds: list[str], most: int = 3, *, mixed: bool = False) -> list[str]:
    """One to ``most`` mutations: the first of the kind ``kinds[0]`` and the
    rest of any of ``kinds`` (with ``mixed``, every one of any); what was
    done, one line each."""
    done = []
    for k in range(1 + draw(st.integers(min_value=0, max_value=most - 1))):
        kind = kinds[0] if k == 0 and not mixed else draw(st.sampled_from(kinds))
        try:
            done.append(EVERY_MUTATION[kind](draw, root))
        except Spared as exc:
            done.append(f"{kind}: {exc}")
    return done


# -- mutations of the rules site's pages ---------------------------------------------

OPEN_MARKER = re.compile(rb"^<!-- generated: ([a-z][a-z0-9-]*) -->\r?$", re.M)
CLOSE_MARKER = re.compile(rb"^<!-- /generated -->\r?$", re.M)


def _pages(root: Path, with_blocks: bool = False) -> list[str]:
    """The Markdown pages standing under site/ (as plain files), by path under site/."""
    site = root / "site"
    found = []
    for path in sorted(site.rglob("*.md")):
        if path.is_file() and not path.is_symlink() and (not with_blocks or OPEN_MARKER.search(path.read_bytes())):
            found.append(path.relative_to(site).as_posix())
    return found


def _page(draw: Draw, root: Path, with_blocks: bool = True) -> tuple[str, bytes]:
    pages = _pages(root, with_blocks) or _pages(root)
    if not pages:
        raise Spared("no page left")
    rel = draw(st.sampled_from(pages))
    return rel, (root / "site" / rel).read_bytes()


def _page_mutation(change: Callable[[Draw, bytes], tuple[bytes, str]]) -> Mutation:
    """A mutation of one page's bytes."""

    def mutate(draw: Draw, root: Path) -> str:
        rel, data = _page(draw, root)
        new, what = change(draw, data)
        (root / "site" / rel).write_bytes(new)
        return f"site/{rel}: {what}"

    mutate.__name__ = "page_" + change.__name__
    return mutate


def _marker_lines(data: bytes) -> list[tuple[int, int, bytes]]:
    """(start, end, line) of every marker line, opening or closing."""
    found = [(m.start(), m.end(), m.group(0)) for m in OPEN_MARKER.finditer(data)]
    found += [(m.start(), m.end(), m.group(0)) for m in CLOSE_MARKER.finditer(data)]
    return sorted(found)


def marker_removed(draw: Draw, data: bytes) -> tuple[bytes, str]:
    markers = _marker_lines(data)
    if not markers:
        return data, "no marker"
    start, end, line = draw(st.sampled_from(markers))
    return data[:start] + data[end + 1 :], f"marker {line!r} at byte {start} removed"


def marker_repeated(draw: Draw, data: bytes) -> tuple[bytes, str]:
    markers = _marker_lines(data)
    if not markers:
        return data, "no marker"
    start, end, line = draw(st.sampled_from(markers))
    where = draw(st.sampled_from([start, end + 1, 0, len(data)]))
    copy = line + b"\n"
    return data[:where] + copy + data[where:], f"marker {line!r} repeated at byte {where}"


MARKER_VARIANTS = [
    b"<!-- generated: nowhere -->",
    b"<!-- generated: TRACK -->",
    b"<!-- generated:  track -->",
    b"<!--generated: track-->",
    b"<!-- generated: track -->  ",
    b" <!-- generated: track -->",
    b"<!-- generated: track --> text",
    b"<!-- generated: -->",
    b"<!-- generated: a b -->",
    b"<!-- /generated -->x",
    b"<!-- / generated -->",
    b"<!-- /GENERATED -->",
    b"<!-- generated: track",
    b"<!-- generated: track --><!-- /generated -->",
    b"\t<!-- generated: track -->",
    b"<!-- generated: track -->\r",
    b"<!-- generated: caf\xc3\xa9 -->",
    b"<!-- generated: \xff -->",
    b"<!-- generated: " + b"x" * 5000 + b" -->",
]


def marker_changed(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """A marker line altered, or an odd marker-like line added."""
    markers = _marker_lines(data)
    names = sorted({m.group(1) for m in OPEN_MARKER.finditer(data)})
    options = MARKER_VARIANTS + [b"<!-- generated: " + name + b" -->" for name in names]
    new = draw(st.sampled_from(options))
    replace = draw(st.booleans())
    if markers and replace:
        start, end, line = draw(st.sampled_from(markers))
        return data[:start] + new + data[end:], f"marker {line!r} -> {new[:60]!r}"
    lines = _lines(data)
    i = draw(st.integers(min_value=0, max_value=len(lines)))
    lines.insert(i, new)
    return b"\n".join(lines), f"{new[:60]!r} added before line {i + 1}"


def marker_in_code(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """A marker shown as an example: in a fenced code block, inline code, an
    indented code block, a block quote, a list item, an HTML block."""
    names = sorted({m.group(1) for m in OPEN_MARKER.finditer(data)}) or [b"track"]
    marker = b"<!-- generated: " + draw(st.sampled_from(names)) + b" -->"
    shape = draw(st.sampled_from(["fence", "tilde", "inline", "indented", "quote", "list", "html", "unclosed-fence"]))
    snippet = {
        "fence": b"\n```markdown\n" + marker + b"\n<!-- /generated -->\n```\n\n",
        "tilde": b"\n~~~\n" + marker + b"\n~~~\n\n",
        "inline": b"\nWrite `" + marker + b"` above a table.\n\n",
        "indented": b"\nFor example:\n\n    " + marker + b"\n    <!-- /generated -->\n\n",
        "quote": b"\n> " + marker + b"\n> <!-- /generated -->\n\n",
        "list": b"\n- " + marker + b"\n- <!-- /generated -->\n\n",
        "html": b"\n<div>\n" + marker + b"\n</div>\n\n",
        "unclosed-fence": b"\n```\n" + marker + b"\n",
    }[shape]
    # between blocks only: inside one, any text is the generator's
    spots = [0, len(data)] + [end + 1 for _, end, line in _marker_lines(data) if line.startswith(b"<!-- /")]
    at = min(draw(st.sampled_from(spots)), len(data))
    return data[:at] + snippet + data[at:], f"a marker in {shape} at byte {at}"


def text_in_block(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """Hand-written text inside a generated block."""
    opens = list(OPEN_MARKER.finditer(data))
    if not opens:
        return data, "no block"
    m = draw(st.sampled_from(opens))
    text = draw(st.sampled_from([b"A note the writer added.\n", b"| extra | row |\n", b"\n", b"<!-- a comment -->\n"]))
    at = m.end() + 1
    return data[:at] + text + data[at:], f"{text!r} inside block {m.group(1)!r}"


def page_crlf(draw: Draw, data: bytes) -> tuple[bytes, str]:
    """The whole page with Windows line endings, as an editor may save it.
    (One CRLF line in an LF page is left out: a page's one ending may
    fairly be given to a marker line that cards writes.)"""
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"), "every line ending CRLF"


def page_huge(draw: Draw, data: bytes) -> tuple[bytes, str]:
    size = draw(st.sampled_from([10_000, 300_000]))
    what = draw(st.sampled_from([b"prose line\n", b"| a | b |\n", b"x" * 1000 + b"\n"]))
    return data + what * (size // len(what)), f"{size} bytes of {what[:12]!r} appended"


PAGE_TEXT_MUTATIONS: dict[str, Mutation] = {
    m.__name__: m
    for m in map(
        _page_mutation,
        (truncate, flip_byte, delete_line, duplicate_line, swap_lines, odd_characters, blank, marker_removed, marker_repeated, marker_changed, marker_in_code, text_in_block, page_crlf, page_huge),
    )
}


def page_encoding(draw: Draw, root: Path) -> str:
    rel, data = _page(draw, root)
    how = draw(st.sampled_from(["bom", "utf-16", "latin-1", "invalid"]))
    if how == "bom":
        new = b"\xef\xbb\xbf" + data
    elif how == "invalid":
        at = draw(st.integers(0, len(data)))
        new = data[:at] + b"\xff\xfe\x80" + data[at:]
    else:
        new = data.decode("utf-8", "replace").replace("# ", "# caf\u00e9 ", 1).encode(how, "replace")
    (root / "site" / rel).write_bytes(new)
    return f"site/{rel}: {how}"


def page_replaced(draw: Draw, root: Path) -> str:
    """A page gone, or a folder (or nothing readable) in its place."""
    rel, _ = _page(draw, root, with_blocks=draw(st.booleans()))
    path = root / "site" / rel
    how = draw(st.sampled_from(["delete", "folder", "folder-with-page"]))
    path.unlink()
    if how == "folder":
        path.mkdir()
    elif how == "folder-with-page":
        path.mkdir()
        (path / "inner.md").write_bytes(b"# inner\n")
    return f"site/{rel}: {how}"


def page_link(draw: Draw, root: Path) -> str:
    """A page replaced by a link: to another page, to nothing, to itself, to
    a file outside site/."""
    rel, data = _page(draw, root)
    path = root / "site" / rel
    how = draw(st.sampled_from(["other", "missing", "self", "outside", "folder"]))
    path.unlink()
    if how == "other":
        dest = str(root / "site" / draw(st.sampled_from(_pages(root) or [rel])))
    elif how == "missing":
        dest = "nowhere.md"
    elif how == "self":
        dest = path.name
    elif how == "folder":
        dest = "."
    else:
        outside = root / "outside.md"
        outside.write_bytes(data)
        dest = str(outside)
    path.symlink_to(dest)
    return f"site/{rel} -> link to {dest}"


def stray_page(draw: Draw, root: Path) -> str:
    """A page where none belongs: a folder that is no pack's, a kit page
    (beside the home page, or in site/kit/) with a generated table, a nested
    folder, junk in a pack's folder."""
    rel = draw(st.sampled_from(["unknown/page.md", "index2.md", "kit/page.md", "stationmaster/sub/page.md", "trickoftherails/new.md", ".hidden.md", "stationmaster/notes.txt", "stationmaster/x.md/"]))
    body = draw(st.sampled_from([b"# Page\n", b"<!-- generated: track -->\n<!-- /generated -->\n", b"<!-- generated: track -->\n", b"\xff\xfe", b""]))
    path = root / "site" / rel
    if rel.endswith("/"):
        path.mkdir(parents=True, exist_ok=True)
        return f"folder site/{rel} added"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(body)
    return f"site/{rel} added holding {body[:30]!r}"


PAGE_MUTATIONS: dict[str, Mutation] = {**PAGE_TEXT_MUTATIONS, **{m.__name__: m for m in (page_encoding, page_replaced, page_link, stray_page)}}
EVERY_MUTATION: dict[str, Mutation] = {**MUTATIONS, **PAGE_MUTATIONS}
