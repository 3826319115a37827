"""Where every id is written in a pack's files, as the editor shows them:
each declaration (a record's own ``id``, an edition's key) and each
reference, with its place, read from the text the editor holds.

Which fields hold ids comes from the pack's schemas (``fields``). The index
is rebuilt file by file, only for a file whose text changed, and a file that
does not read as YAML keeps no entries until it does (its problems are the
diagnostics' to show).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from command.lsp.fields import ID_FIELD, Shape, declared_kind, reference_fields, shapes
from engine.content import files
from engine.content.loader import SCHEMA_DIR
from engine.content.schemas import SCHEMA_SUFFIX, SchemaLoadError, SchemaSet
from engine.content.yamlread import YamlReadError, read_with_nodes

_SCHEMA_LINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)")
NAME_FIELD = "name"


@dataclass(frozen=True)
class Span:
    """A place in a file: 0-based line, and characters (code points) from ``start`` to ``end``."""

    path: str
    line: int
    start: int
    end: int

    def holds(self, line: int, character: int) -> bool:
        return self.line == line and self.start <= character <= self.end


@dataclass(frozen=True)
class Mention:
    """One id written in a file: a declaration or a reference."""

    span: Span
    value: str
    kind: str  # the kind of record ('' for cards and other records)
    declares: bool
    family: str
    field: str  # the field it is written under ('id' for a declaration)
    record: str | None  # the id of the record it sits in, if any


@dataclass(frozen=True)
class Record:
    """A record with an id of its own: one entry of the editor's outline."""

    id: str
    name: str | None
    family: str
    whole: tuple[int, int, int, int]  # first line, character, last line, character
    id_span: Span


@dataclass
class FileIndex:
    family: str | None
    mentions: list[Mention] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)


@dataclass
class PackIndex:
    """Every mention in one pack's files, and what each kind of id may be."""

    files: dict[str, FileIndex]
    patterns: dict[str, str]  # kind to the pattern its ids must match
    # Which fields' values name which families' records, learnt from the
    # references that resolve: completion offers those records first.
    targets: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    fields: dict[str, dict[str, tuple[str, bool]]] = field(default_factory=dict)
    _declared: list[Mention] | None = None

    def mentions(self) -> Iterable[Mention]:
        for one in self.files.values():
            yield from one.mentions

    def declarations(self, kind: str | None = None) -> list[Mention]:
        if self._declared is None:
            self._declared = [m for m in self.mentions() if m.declares]
        return [m for m in self._declared if kind is None or m.kind == kind]

    def resolve(self, mention: Mention) -> list[Mention]:
        """The declarations a mention names: of its own kind, or of any kind
        when none of its own has that id (a schema that types the id only
        by its pattern)."""
        same = [d for d in self.declarations(mention.kind) if d.value == mention.value]
        return same or [d for d in self.declarations() if d.value == mention.value]

    def at(self, path: str, line: int, character: int) -> Mention | None:
        found = self.files.get(path)
        if found is None:
            return None
        return next((m for m in found.mentions if m.span.path == path and m.span.holds(line, character)), None)

    def same_id(self, mention: Mention) -> list[Mention]:
        """Every mention of the record ``mention`` names or declares."""
        targets = [mention] if mention.declares else self.resolve(mention)
        kinds = {t.kind for t in targets} or {mention.kind}
        value = mention.value
        return [m for m in self.mentions() if m.value == value and (m.kind in kinds or (not m.declares and any(t in targets for t in self.resolve(m))))]


class Indexer:
    """Keeps one pack's index current, re-reading only files whose text changed."""

    def __init__(self, content: Path) -> None:
        self.content = content
        self._schemas: tuple[bytes, dict[str, Shape], dict[str, str], list[str]] | None = None
        self._files: dict[str, tuple[str, FileIndex]] = {}

    def index(self, text_of: Callable[[Path], str | None]) -> PackIndex:
        shaped = self._shapes()
        if shaped is None:
            return PackIndex({}, {})
        by_family, patterns, families = shaped
        kinds = {s for s in _kinds(by_family.values())}
        listing = files.walk(self.content)
        schema_dir = self.content / SCHEMA_DIR
        found: dict[str, FileIndex] = {}
        for path in listing.files:
            if path.suffix != ".yaml" or path.parent == schema_dir:
                continue
            text = text_of(path)
            if text is None:
                continue
            key = str(path)
            kept = self._files.get(key)
            if kept is None or kept[0] != text:
                kept = (text, index_file(key, text, by_family, families, kinds))
                self._files[key] = kept
            found[key] = kept[1]
        index = PackIndex(found, patterns)
        for family, shape in by_family.items():
            index.fields[family] = {name: (kind, keys) for name, kind, keys in reference_fields(shape)}
        for m in index.mentions():
            if not m.declares:
                for target in index.resolve(m):
                    index.targets.setdefault((m.family, m.field), set()).add(target.family)
        return index

    def _shapes(self) -> tuple[dict[str, Shape], dict[str, str], list[str]] | None:
        schema_dir = self.content / SCHEMA_DIR
        try:
            stamp = b"".join(files.read_bytes(p) for p in sorted(schema_dir.glob("*" + SCHEMA_SUFFIX)))
        except (files.Unreadable, OSError):
            return None
        if self._schemas is None or self._schemas[0] != stamp:
            try:
                schemas = SchemaSet(schema_dir)
            except (SchemaLoadError, files.Unreadable, OSError):
                return None
            by_family = shapes(schemas.raw, schemas.families)
            self._schemas = (stamp, by_family, _patterns(by_family.values()), schemas.families)
            self._files.clear()
        return self._schemas[1], self._schemas[2], self._schemas[3]


def _kinds(found: Iterable[Shape]) -> Iterable[str]:
    for shape in found:
        if shape.kind is not None:
            yield shape.kind
        if shape.key_kind is not None:
            yield shape.key_kind
        yield from _kinds([*shape.props.values(), *(s for s in (shape.any_value, shape.items) if s is not None)])


def _patterns(found: Iterable[Shape]) -> dict[str, str]:
    patterns: dict[str, str] = {}
    for shape in found:
        kind = shape.kind if shape.kind is not None else shape.key_kind
        if kind is not None and shape.pattern:
            patterns.setdefault(kind, shape.pattern)
        for kind, pattern in _patterns([*shape.props.values(), *(s for s in (shape.any_value, shape.items) if s is not None)]).items():
            patterns.setdefault(kind, pattern)
    return patterns


def family_of(text: str, families: list[str]) -> str | None:
    """The kind of file its first line names (``$schema=.../trains.schema.json``)."""
    match = _SCHEMA_LINE.match(text.split("\n", 1)[0])
    if match is None:
        return None
    name = match.group(1).rsplit("/", 1)[-1]
    family = name[: -len(SCHEMA_SUFFIX)] if name.endswith(SCHEMA_SUFFIX) else None
    return family if family in families else None


def index_file(path: str, text: str, by_family: dict[str, Shape], families: list[str], kinds: set[str]) -> FileIndex:
    family = family_of(text, families)
    found = FileIndex(family)
    if family is None or family not in by_family:
        return found
    try:
        document = read_with_nodes(text)
    except (YamlReadError, RecursionError):
        return found
    if document.root is not None:
        _Walker(path, family, declared_kind(family, kinds), found).walk(document.root, by_family[family], None, "")
    return found


class _Walker:
    def __init__(self, path: str, family: str, own_kind: str, into: FileIndex) -> None:
        self.path, self.family, self.own_kind, self.into = path, family, own_kind, into

    def span(self, node: Node) -> Span | None:
        start, end = node.start_mark, node.end_mark
        if start.line != end.line:
            return None
        quoted = isinstance(node, ScalarNode) and node.style in ("'", '"')
        return Span(self.path, start.line, start.column + quoted, end.column - quoted)

    def add(self, node: Node, kind: str, declares: bool, field: str, record: str | None) -> None:
        if not isinstance(node, ScalarNode) or node.tag != "tag:yaml.org,2002:str" or not node.value:
            return
        span = self.span(node)
        if span is not None:
            self.into.mentions.append(Mention(span, node.value, kind, declares, self.family, field, record))

    def walk(self, node: Node, shape: Shape | None, record: str | None, field: str) -> None:
        if shape is None:
            return
        if isinstance(node, ScalarNode):
            if shape.kind is not None:
                self.add(node, shape.kind, False, field, record)
        elif isinstance(node, SequenceNode):
            for item in node.value:
                self.walk(item, shape.items, record, field)
        elif isinstance(node, MappingNode):
            own = self._record(node, shape)
            here = own or record
            for key, value in node.value:
                if not isinstance(key, ScalarNode):
                    continue
                if shape.key_kind is not None:
                    self.add(key, shape.key_kind, shape.keys_declare, field, here)
                if own is not None and key.value == ID_FIELD:
                    continue
                self.walk(value, shape.child(key.value), here, key.value if key.value in shape.props else field)

    def _record(self, node: MappingNode, shape: Shape) -> str | None:
        """The id of the record ``node`` is, adding its declaration and its outline entry."""
        pairs = {k.value: v for k, v in node.value if isinstance(k, ScalarNode)}
        id_node = pairs.get(ID_FIELD)
        id_shape = shape.props.get(ID_FIELD)
        if not isinstance(id_node, ScalarNode) or id_shape is None or id_shape.kind is None:
            return None
        self.add(id_node, self.own_kind, True, ID_FIELD, None)
        span = self.span(id_node)
        if span is None:
            return None
        name = pairs.get(NAME_FIELD)
        whole = (node.start_mark.line, node.start_mark.column, node.end_mark.line, node.end_mark.column)
        self.into.records.append(Record(id_node.value, name.value if isinstance(name, ScalarNode) else None, self.family, whole, span))
        return str(id_node.value)
