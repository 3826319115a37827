"""Read one pack's content folder, for any game: find the files, read them
strictly and check each against its schema.

The pack's own loader builds its catalog from the documents and adds the
checks that span files. Every problem in every file is collected before
anything is raised, so a designer sees the whole list at once. Nothing here
ever writes a file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.collector import collector_paused
from engine.content import files, names
from engine.content.problems import Origin, Pointer, Problem, about, field_path
from engine.content.schemas import DEFS_NAME, SCHEMA_SUFFIX, SchemaLoadError, SchemaSet, closest
from engine.content.yamlread import Document, YamlReadError, decode, locate, read_yaml
from engine.errors import ContentError, UsageError

SCHEMA_DIR = "schema"
MAX_FILE_BYTES = files.LIMIT
_SCHEMA_LINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)\s*$")


@dataclass(slots=True)
class ContentFile:
    path: Path
    display: str
    family: str
    document: Document
    # Indexes of cards that failed their schema (or repeat an earlier id);
    # they are left out of the catalog so that cross-file checks still run
    # over everything else.
    invalid_cards: set[int] = field(default_factory=set)
    # Where the document failed its schema, outside its cards: () for the
    # whole file. A pack builds nothing from these places and skips the
    # rules that need them.
    broken: set[Pointer] = field(default_factory=set)

    def whole(self, *path: str | int) -> bool:
        """Whether the file passed its schema (with ``path``: whether the
        value there did; a card that failed counts only for the whole file)."""
        if not path:
            return not self.broken and not self.invalid_cards
        return not any(p == path[: len(p)] or path == p[: len(path)] for p in self.broken)

    def cards(self) -> list[tuple[int, Any]]:
        """(index, raw card) for every card that passed its schema."""
        if not self.whole("cards"):
            return []
        return [(i, raw) for i, raw in enumerate(self.document.value.get("cards", ())) if i not in self.invalid_cards]


class Locator:
    """Turns (file, pointer) into a Problem at the right line and column."""

    def __init__(self) -> None:
        self.files: dict[str, ContentFile] = {}

    def problem(self, origin: Origin, message: str, *, field: str | int | tuple[str | int, ...] | None = None, at_key: bool = False) -> Problem:
        found = self.files[origin.file]
        steps = field if isinstance(field, tuple) else ((field,) if field is not None else ())
        pointer = origin.pointer + steps
        line, col = locate(found.document.root, pointer, key=at_key)
        return Problem(found.display, line, col, message)


def _display(path: Path) -> str:
    shown = files.as_given(path)
    # A file name that is not valid UTF-8 still gets a printable name.
    return shown.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


@dataclass(frozen=True)
class Coverage:
    """What of a pack's content read and passed its schema. Rules that span
    files check only that, so a mistake already reported is not reported
    again as the dangling references or miscounts it causes elsewhere."""

    by_family: dict[str, list[ContentFile]]
    # Ids of cards left out: they failed their schema, or sit in a file that
    # did not read. A reference to one is not reported as dangling.
    unchecked: frozenset[str]
    # Families with a file that did not read at all; None when some file's
    # kind is unknown (its schema line is wrong), which could be any family.
    lost: frozenset[str | None]

    def whole(self, family: str, *path: str | int) -> bool:
        """Whether every record of ``family`` is in the catalog (with
        ``path``: whether that value of its files passed its schema): a rule
        about the whole family, or one that reads the value, runs only then."""
        files = self.by_family.get(family, [])
        if family in self.lost or not files or (not path and None in self.lost):
            return False
        return all(f.whole(*path) for f in files)


@dataclass(frozen=True)
class Documents:
    """A pack's content files, read and checked against their schemas: what
    its own loader builds a catalog from, adding to ``problems``."""

    locator: Locator
    by_family: dict[str, list[ContentFile]]
    fingerprint: str
    problems: list[Problem]
    coverage: Coverage

    def single(self, family: str, key: str) -> tuple[ContentFile, Any] | None:
        """The one-of-a-kind file of ``family`` and its section ``key``, or
        None when the file is missing or that section failed its schema (the
        problem is already listed; the pack leaves the section out)."""
        found = self.by_family.get(family)
        value = self.value(family, key)
        return None if not found or value is None else (found[0], value)

    def value(self, family: str, *path: str | int) -> Any:
        """The value at ``path`` in the one-of-a-kind file of ``family``, or
        None when it is absent or failed its schema."""
        found = self.by_family.get(family)
        if not found or not found[0].whole(*path):
            return None
        value = found[0].document.value
        for step in path:
            if isinstance(value, dict) and isinstance(step, str):
                value = value.get(step)
            elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
                value = value[step]
            else:
                return None
        return value


def read_documents(content_dir: str | Path, single_files: tuple[str, ...]) -> Documents:
    """Every content file under ``content_dir``, read and schema-checked.

    ``single_files`` names the kinds of file a pack holds exactly once.
    Whatever did not read or failed its schema is listed in ``problems`` and
    left out (``coverage`` says what is left), so the pack's rules spanning
    files still check everything else in the same run. ContentError when the
    schemas themselves cannot be used; UsageError when the directory or a
    file cannot be read at all.
    """
    root = Path(content_dir)
    try:
        files.check_folder(root)
    except files.Unreadable as exc:
        raise UsageError(f"{files.shown(_display(root))}: no such content directory" if exc.missing else f"{files.shown(_display(root))}: {exc.reason}") from None
    with collector_paused():
        return _read(root, single_files)


def _read(root: Path, single_files: tuple[str, ...]) -> Documents:
    problems: list[Problem] = []
    schema_dir = root / SCHEMA_DIR
    try:
        files.check_folder(schema_dir)
    except files.Unreadable as exc:
        if exc.missing:
            raise ContentError([Problem(_display(schema_dir), 0, 0, "the schema directory is missing; it holds one *.schema.json per kind of file")]) from None
        # Without the schemas nothing can be checked: one error, not one per file.
        raise UsageError(f"{files.shown(_display(schema_dir))}: {exc.reason}; no content can be checked without the schemas") from None
    try:
        schemas = SchemaSet(schema_dir)
    except files.Unreadable as exc:
        raise UsageError(str(exc)) from None
    except SchemaLoadError as exc:
        raise ContentError([Problem(_display(f.path), f.line, f.column, f.message) for f in exc.faults]) from None
    except OSError as exc:
        raise UsageError(f"{files.shown(_display(schema_dir))}: cannot read a schema: {exc.strerror}") from None

    locator = Locator()
    hasher = hashlib.sha256()
    lost: set[str | None] = set()
    lost_ids: set[str] = set()
    listing = files.walk(root)
    # A folder the system will not list (or a file it will not read, below)
    # leaves the command unable to check the content at all: a usage error,
    # before anything is built from the rest. What is there but is no file
    # to read (a FIFO, a device, a file past the limit) is a problem with
    # the content, listed with the others. Either way the content never
    # loads from part of its files.
    for folder in listing.unreadable:
        if folder.refused:
            raise UsageError(f"{files.shown(_display(Path(folder.path)))}: {folder.reason}; the content cannot be checked until it can be read")
    # A folder or file that did not read may hold any kind of file and any
    # card: rules over a whole family, and references to ids not seen, are
    # then not judged (they would report the loss again as something else).
    blind = bool(listing.unreadable)
    for folder in listing.unreadable:
        problems.append(Problem(_display(Path(folder.path)), 0, 0, f"{folder.reason}; the files in it were not read"))
    for path in _content_files(root, listing.files):
        display = _display(path)
        try:
            path.name.encode("utf-8")
        except UnicodeEncodeError:
            problems.append(Problem(display, 1, 1, "the file name is not valid UTF-8; rename it so every tool can show it"))
            continue
        if path.suffix != ".yaml":
            hint = " (rename it to .yaml)" if path.suffix == ".yml" else ""
            problems.append(Problem(display, 1, 1, f"not a content file{hint}: content/ holds only .yaml files and schema/*{SCHEMA_SUFFIX}"))
            continue
        try:
            data = files.read_bytes(path, MAX_FILE_BYTES)
        except files.Unreadable as exc:
            if exc.refused:
                raise UsageError(f"{files.shown(display)}: {exc.reason}") from None
            problems.append(Problem(display, 0, 0, exc.reason + ("; split it" if exc.too_big else "")))
            blind = True
            continue
        hasher.update(os.fsencode(path.relative_to(root).as_posix()) + b"\0" + data + b"\0")
        loaded = _read_file(path, display, data, schemas, root, problems)
        if isinstance(loaded, ContentFile):
            locator.files[display] = loaded
        else:
            family, ids = loaded
            lost.add(family)
            lost_ids.update(ids)

    by_family: dict[str, list[ContentFile]] = {}
    for loaded in locator.files.values():
        by_family.setdefault(loaded.family, []).append(loaded)
    # A file that did not read, or a one-of-a-kind file written twice, is
    # likely the missing one under a wrong schema line: that is listed already.
    misfiled = bool(lost) or any(len(by_family.get(f, ())) > 1 for f in single_files)
    for family in single_files:
        found = by_family.get(family, [])
        if not found and not misfiled:
            problems.append(Problem(_display(root), 0, 0, f"no file declares schema/{family}{SCHEMA_SUFFIX}; the game cannot be set up without it"))
        for extra in found[1:]:
            problems.append(Problem(extra.display, 1, 1, f"a second '{family}' file; it must be one file (the first is {found[0].display})"))
            # Only the first is read; the copy is reported, not cross-checked.
            by_family[family].remove(extra)
    problems.extend(_repeated_ids(locator))
    problems.extend(_name_problems(locator))
    unchecked = lost_ids | {
        raw["id"]
        for loaded in locator.files.values()
        for i, raw in enumerate(_raw_cards(loaded.document.value))
        if (i in loaded.invalid_cards or not loaded.whole("cards")) and isinstance(raw.get("id"), str)
    }
    if blind:
        lost.add(None)
    left_out = _AnyId(unchecked) if blind else frozenset(unchecked)
    return Documents(locator, by_family, hasher.hexdigest(), problems, Coverage(by_family, left_out, frozenset(lost)))


class _AnyId(frozenset[str]):
    """The ids left out when a file or folder did not read at all: any id
    might be in it, so a reference to one not seen is not called dangling."""

    def __contains__(self, item: object) -> bool:
        return True


def _raw_cards(value: Any) -> list[dict[str, Any]]:
    """The card mappings of a document, whatever else is wrong with it."""
    found = value.get("cards") if isinstance(value, dict) else None
    return [raw if isinstance(raw, dict) else {} for raw in found] if isinstance(found, list) else []


def _repeated_ids(locator: Locator) -> list[Problem]:
    """A card id used a second time, located at the second use and naming the
    first. The second card is left out of the catalog: a rule would otherwise
    meet two cards under one id and report the confusion as something else."""
    found: list[Problem] = []
    # Where each id was first used, located only when it is used again:
    # locating every card of a clean pack cost as much as checking it.
    first: dict[str, tuple[str, int]] = {}
    for loaded in locator.files.values():
        for index, raw in enumerate(_raw_cards(loaded.document.value)):
            card_id = raw.get("id")
            if not isinstance(card_id, str):
                continue
            earlier_at = first.setdefault(card_id, (loaded.display, index))
            if earlier_at != (loaded.display, index):
                earlier = locator.problem(Origin(earlier_at[0], ("cards", earlier_at[1])), "", field="id")
                here = locator.problem(Origin(loaded.display, ("cards", index)), "", field="id")
                found.append(dataclasses.replace(here, message=f"card id '{card_id}' is already used in {earlier.path}:{earlier.line}:{earlier.column}; ids are unique within the pack (rename one)"))
                loaded.invalid_cards.add(index)
    return found


def _name_problems(locator: Locator) -> list[Problem]:
    """Display names put in NFC, and every one a reader could not tell for
    what it is, or from another record's, located at the name (see names)."""
    found: list[Problem] = []
    by_text: dict[str, tuple[str, names.Named]] = {}
    by_skeleton: dict[str, tuple[str, names.Named, str]] = {}
    for loaded in locator.files.values():
        for one in names.named(loaded.document.value):
            if not loaded.whole(*one.pointer) or (one.pointer[0] == "cards" and one.pointer[1] in loaded.invalid_cards):
                continue
            text = names.normalise(loaded.document.value, one)
            who = about(one.record, one.field) if one.record else f"field '{one.field}'"
            shown = files.one_line(text)

            def here(message: str, where: names.Named = one, file: str = loaded.display) -> Problem:
                return locator.problem(Origin(file, where.pointer), message)

            why = names.unreadable(text)
            if why is not None:
                found.append(here(f"{who}: the name '{shown}' {why}"))
                continue
            if one.record is None:
                continue
            first = by_text.setdefault(text, (loaded.display, one))
            if first[1] is not one:
                at = here("", first[1], first[0])
                found.append(
                    here(
                        f"{who}: the name '{shown}' is already the name of card '{files.one_line(first[1].record or '')}' ({at.path}:{at.line}:{at.column}); names are unique within the pack (rename one)"
                    )
                )
                continue
            alike = by_skeleton.setdefault(names.skeleton(text), (loaded.display, one, text))
            if alike[1] is not one:
                at = here("", alike[1], alike[0])
                found.append(
                    here(
                        f"{who}: the name '{shown}' looks like '{files.one_line(alike[2])}', the name of card '{files.one_line(alike[1].record or '')}' ({at.path}:{at.line}:{at.column}), "
                        f"but differs by {names.difference(text, alike[2])}; a reader cannot tell them apart (write the letters as printed)"
                    )
                )
    return found


def _content_files(root: Path, walked: list[Path]) -> list[Path]:
    """The content files among everything ``files.walk`` found (it leaves
    out hidden files and folders: editor swap files, .DS_Store): all but the
    schemas, which ``SchemaSet`` reads."""
    schema_dir = root / SCHEMA_DIR
    return [path for path in walked if not (path.parent == schema_dir and path.name.endswith(SCHEMA_SUFFIX))]


# Where a file did not read, the ids it seems to declare: references to them
# are then not reported as dangling on top of the file's own problem.
_ID_LINE = re.compile(r"""^[ \t-]*id:[ \t]*["']?([^"'\s#,{}\[\]]+)""", re.MULTILINE)


def _read_file(path: Path, display: str, data: bytes, schemas: SchemaSet, root: Path, problems: list[Problem]) -> ContentFile | tuple[str | None, set[str]]:
    """The read file, or (its kind if known, the ids it seems to hold) when
    it cannot be read or its kind is unknown; its problems go to ``problems``."""
    try:
        text = decode(data)
    except YamlReadError as exc:
        problems.extend(Problem(display, i.line, i.column, i.message) for i in exc.issues)
        return None, _seen_ids(data)
    family, usable = _declared_family(path, text, schemas, root, display, problems)
    try:
        document = read_yaml(text)
    except YamlReadError as exc:
        problems.extend(Problem(display, i.line, i.column, i.message) for i in exc.issues)
        return family, _seen_ids(data)
    if family is None or not usable:
        return family, _seen_ids(data)
    if document.value is None:
        problems.append(Problem(display, 1, 1, "the file is empty; it should hold a mapping as its schema describes"))
        return family, _seen_ids(data)
    loaded = ContentFile(path, display, family, document)
    try:
        issues = schemas.check(family, document.value)
    except SchemaLoadError as exc:
        # The schemas cannot check this file after all: their fault, at its
        # place, and no content is judged by them.
        raise ContentError([Problem(_display(f.path), f.line, f.column, f.message) for f in exc.faults]) from None
    for issue in issues:
        line, col = locate(document.root, issue.pointer, key=issue.at_key)
        problems.append(Problem(display, line, col, _with_context(document.value, issue.pointer, issue.message)))
        if len(issue.pointer) >= 2 and issue.pointer[0] == "cards" and isinstance(issue.pointer[1], int):
            loaded.invalid_cards.add(issue.pointer[1])
        else:
            loaded.broken.add(issue.pointer + ((issue.missing,) if issue.missing is not None else ()))
            if issue.meant is not None:
                # A required key reported only as its likely misspelling is
                # still missing: nothing may be built from it either.
                loaded.broken.add(issue.pointer[:-1] + (issue.meant,))
    # Its problems are placed: the tree is composed again only if a rule
    # spanning files finds one more here.
    document.drop_nodes()
    return loaded


def _seen_ids(data: bytes) -> set[str]:
    """The ids a file that did not read seems to declare (only such a file
    needs them: a file that reads has its ids in its values)."""
    return set(_ID_LINE.findall(data.decode("utf-8", "replace")))


def _declared_family(path: Path, text: str, schemas: SchemaSet, root: Path, display: str, problems: list[Problem]) -> tuple[str | None, bool]:
    """The file's kind, and whether its schema line agrees so that it can be
    checked; (None, False) when its kind cannot be told."""
    first = text.split("\n", 1)[0].rstrip("\r")
    families = [f for f in schemas.families]
    match = _SCHEMA_LINE.match(first)
    expected = os.path.relpath(root / SCHEMA_DIR, path.parent).replace(os.sep, "/")
    if not match:
        problems.append(
            Problem(display, 1, 1, f"the first line must name the file's schema, as '# yaml-language-server: $schema={expected}/<kind>{SCHEMA_SUFFIX}' with <kind> one of: {', '.join(families)}")
        )
        return None, False
    try:
        target = (path.parent / match.group(1)).resolve()
    except (ValueError, OSError):
        target = Path("/nonexistent") / "invalid"
    name = target.name
    family = name[: -len(SCHEMA_SUFFIX)] if name.endswith(SCHEMA_SUFFIX) else name.split(".")[0]
    in_folder = target.parent == (root / SCHEMA_DIR).resolve()
    known = family in schemas.raw and family != DEFS_NAME
    if in_folder and known and name.endswith(SCHEMA_SUFFIX):
        named = kinds_named(path.stem, families)
        if named and family not in named:
            # A schema line copied from another file: the name says what
            # the file is, and the file is read under neither kind.
            meant = max(named, key=len)
            problems.append(
                Problem(
                    display,
                    1,
                    1,
                    f"the schema line names kind '{family}', but the file is named for kind '{meant}'; from this file the schema is {expected}/{meant}{SCHEMA_SUFFIX} (or rename the file)",
                )
            )
            return meant, False
        return family, True
    # Say what is wrong, and suggest only what would change: a right kind in
    # the wrong folder keeps its kind, a misspelt kind in the right folder
    # keeps its folder.
    written = match.group(1)
    col = first.index("$schema=") + len("$schema=") + 1
    kinds = f"<kind> one of: {', '.join(families)}"
    if known:
        fixed = f"{expected}/{family}{SCHEMA_SUFFIX}"
        where = "does not point at the schema folder" if not in_folder else f"names '{name}', not a {SCHEMA_SUFFIX} file"
        problems.append(Problem(display, 1, col, f"'{written}' {where}; from this file the schema is {fixed}"))
    else:
        close = closest(family, families)
        what = "the shared definitions, not a kind of content file" if family == DEFS_NAME else "not a kind of content file"
        hint = f" (did you mean {expected}/{close}{SCHEMA_SUFFIX}?)" if close else ""
        folder = "" if in_folder else f", and the path is outside the schema folder ({expected}/ from this file)"
        problems.append(Problem(display, 1, col, f"'{written}' is not a content schema: '{family}' is {what}{hint}{folder}; use {expected}/{SCHEMA_SUFFIX.join(('<kind>', ''))} with {kinds}"))
    return None, False


def kinds_named(stem: str, kinds: list[str]) -> set[str]:
    """The kinds a file name says a file is: ``trains`` for trains.yaml,
    x-trains.yaml or trains-0001.yaml, the longest kind winning
    (mainline-modifiers.yaml is no mainline file); empty when the name
    names no kind, and the schema line alone decides."""
    found = [k for k in kinds if stem == k or stem.startswith(k + "-") or stem.endswith("-" + k)]
    if stem in kinds:
        return {stem}
    longest = max((len(k) for k in found), default=0)
    return {k for k in found if len(k) == longest}


def _with_context(value: Any, pointer: tuple[str | int, ...], message: str) -> str:
    """Prefix a message with the card id and field it concerns, when there is one."""
    if len(pointer) >= 2 and pointer[0] == "cards" and isinstance(pointer[1], int) and isinstance(value, dict):
        cards = value.get("cards")
        card = cards[pointer[1]] if isinstance(cards, list) and pointer[1] < len(cards) else None
        name = card.get("id") if isinstance(card, dict) else None
        rest = pointer[2:]
        field = field_path(rest) if rest else None
        who = about(name, field) if isinstance(name, str) else f"card #{pointer[1] + 1}" + (f", field '{field}'" if field else "")
    elif pointer:
        who = f"field '{field_path(pointer)}'"
    else:
        return message
    return f"{who}: {message}"
