"""The checks a pack's schema files pass before any content is checked by them.

A schema file is edited by hand like the content, and a slip in it (``"type":
5``, an unclosed ``(`` in a pattern, a ``$ref`` to nothing) used to surface
as an internal error from deep inside the checker. Here each file is decoded
with its nesting bounded, checked against the JSON Schema metaschema of the
draft it declares, and then for what the metaschema cannot see: patterns that
do not compile, ``$ref`` that points at nothing or loops back to itself
without going into a value, and keywords this kit's checker does not
implement. Each fault is reported at the line and column of the key at fault.

The metaschema check by jsonschema costs more than the rest of a clean load,
so a quick compiled check of the metaschema (``engine.content.metafast``)
passes a sound file first, leaving jsonschema only the files it may fault.
Every load checks its schema files afresh: no verdict is kept on disk.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from engine.content import metafast, patterns
from engine.content.fastcheck import KEYWORDS
from engine.content.jsonpos import Pointer, Positions, first_hazard, scan
from engine.content.textpos import position_of_offset

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

SCHEMA_SUFFIX = ".schema.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
# Brackets deep, far beyond any real schema (the shipped ones reach 10), and
# shallow enough that the metaschema check's recursion stays within Python's
# stack (it needs a couple of hundred levels here).
MAX_DEPTH = 64
# Schemas one value is checked by in a row ($ref to $ref...): each costs a
# few levels of Python's stack in both checkers.
MAX_CHAIN = 100

# Keywords whose value is one schema, applied to the same value as the schema
# holding them; and those whose value is a list of such schemas.
_SAME_VALUE_ONE = ("not",)
_SAME_VALUE_LIST = ("allOf", "anyOf", "oneOf")
# Keywords whose schemas apply to a part of the value (an item, a property).
_PART_ONE = ("items", "additionalProperties", "propertyNames")
_PART_LIST = ("prefixItems",)
_PART_MAP = ("properties",)


@dataclass(frozen=True, slots=True)
class SchemaFault:
    """One thing wrong with a schema file, with a 1-based position."""

    path: Path
    line: int
    column: int
    message: str


@dataclass(slots=True)
class _File:
    path: Path
    text: str
    value: Any = None
    _positions: Positions | None = None
    repeats: bool = False  # a key written twice in one object

    def at(self, pointer: Pointer, message: str) -> SchemaFault:
        """A fault at ``pointer``'s key (at the value, for a list item)."""
        if self._positions is None:
            self._positions = scan(self.text)
        line, column = position_of_offset(self.text, self._positions.offset(pointer))
        return SchemaFault(self.path, line, column, message)


# Schema texts that decoded and passed the metaschema on their own, with
# their decoded value, within this process only (never kept on disk): the
# "What changed" page loads several editions of a pack whose schema files
# are mostly the same text. What depends on the whole set (refs, loops) is
# always checked again. Bounded, for a long-lived process (``mkdocs serve``).
_SOUND_ALONE: dict[str, Any] = {}
_SOUND_ALONE_MAX = 256


def _remember_sound(text: str, value: Any) -> None:
    if len(_SOUND_ALONE) >= _SOUND_ALONE_MAX:
        _SOUND_ALONE.clear()
    _SOUND_ALONE[text] = value


def load_schemas(texts: Mapping[str, tuple[Path, str]]) -> tuple[dict[str, dict[str, Any]], list[SchemaFault]]:
    """The schemas, by family, decoded from ``texts`` (family -> (path, text));
    and every fault found in them (when there is any, the schemas must not be used)."""
    files = {family: _File(path, text) for family, (path, text) in texts.items()}
    faults: list[SchemaFault] = []
    fresh: list[_File] = []
    for found in files.values():
        known = _SOUND_ALONE.get(found.text)
        if known is not None:
            found.value = known  # this very text was decoded and passed the metaschema before, in this process
            continue
        faults.extend(_decode(found))
        fresh.append(found)
    sound = {family: f for family, f in files.items() if f.value is not None}
    for found in fresh:
        if found.value is not None:
            said = _against_metaschema(found)
            faults.extend(said)
            if not said and not found.repeats:
                _remember_sound(found.text, found.value)
    # Also over files the metaschema faulted: the walk skips any value of
    # the wrong kind, and every fault is listed in one run.
    faults.extend(_Walk(files).faults())
    faults.sort(key=lambda f: (f.path, f.line, f.column))
    return {family: f.value for family, f in sound.items()}, faults


def _decode(found: _File) -> list[SchemaFault]:
    hazard = first_hazard(found.text, MAX_DEPTH)
    if hazard is not None:
        line, column = position_of_offset(found.text, hazard.offset)
        return [SchemaFault(found.path, line, column, f"schema is not usable JSON: {hazard.message}")]
    try:
        value = json.loads(found.text)
    except json.JSONDecodeError as exc:
        return [SchemaFault(found.path, exc.lineno, exc.colno, f"schema is not valid JSON: {exc.msg}")]
    except RecursionError:  # pragma: no cover - first_hazard bounds the nesting
        return [SchemaFault(found.path, 1, 1, "schema is not usable JSON: nested too deep to read")]
    except ValueError:
        # Python refuses to read an integer of thousands of digits.
        long = next((m for m in _LONG_NUMBER.finditer(found.text) if m.group()[0] != '"'), None)
        line, column = position_of_offset(found.text, long.start() if long else 0)
        return [SchemaFault(found.path, line, column, "schema is not usable JSON: a number thousands of digits long")]
    if not isinstance(value, dict):
        return [SchemaFault(found.path, 1, 1, "a schema must be a JSON object ({...})")]
    found.value = value
    found._positions = scan(found.text)
    repeats = found._positions.repeats
    found.repeats = bool(repeats)
    # Each repeat at its own place: the positions by pointer keep only the
    # last of the keys written alike.
    return [
        SchemaFault(found.path, *position_of_offset(found.text, offset), f"key '{pointer[-1]}' is written twice in this object; JSON keeps only the last, so keep one") for pointer, offset in repeats
    ]


# A string (skipped whole, so digits inside it are passed over) or a whole
# number of a thousand digits or more (the fraction or exponent of a number,
# read as a float, is no trouble to Python). json.loads read the text up to
# the number, so every string before it is closed.
_LONG_NUMBER = re.compile(r'"(?:[^"\\]|\\.)*+"|(?<![\w.+-])-?[0-9]{1000,}(?![0-9.eE])', re.DOTALL)


def _against_metaschema(found: _File) -> list[SchemaFault]:
    """Faults the metaschema of the file's declared draft finds, one per place."""
    declared = found.value.get("$schema", DRAFT)
    faults: list[SchemaFault] = []
    if not isinstance(declared, str):
        declared = DRAFT  # the metaschema reports the wrong kind of value
    name = _DRAFTS.get(declared.rstrip("#").replace("https://", "http://"))
    if name != "Draft202012Validator":
        faults.append(found.at(("$schema",), f"'$schema' declares '{declared}'; this kit reads schemas written in JSON Schema draft 2020-12: declare {DRAFT}"))
    if name is None:
        return faults  # no metaschema to check by: the fault above says which to declare
    if name == "Draft202012Validator" and metafast.passes(found.value):
        return faults  # certainly sound (and no fault above): jsonschema would find nothing
    # Imported here: jsonschema costs ~70 ms to import, and a schema that
    # passes the quick check above does not need it.
    import jsonschema
    from jsonschema.exceptions import best_match

    validator_class: Any = getattr(jsonschema, name)
    checker = validator_class(validator_class.META_SCHEMA)
    said: set[tuple[Pointer, str]] = set()
    try:
        for error in checker.iter_errors(found.value):
            leaf = best_match([error]) or error
            pointer = tuple(leaf.absolute_path)
            message = _metaschema_message(leaf, pointer)
            if (pointer, message) not in said:
                said.add((pointer, message))
                faults.append(found.at(pointer, message))
    except RecursionError:  # pragma: no cover - MAX_DEPTH keeps the check shallow
        faults.append(SchemaFault(found.path, 1, 1, "schema is nested too deep to check"))
    return faults


# The drafts jsonschema knows, by their metaschema's URI (either scheme).
_DRAFTS = {
    "http://json-schema.org/draft-04/schema": "Draft4Validator",
    "http://json-schema.org/draft-06/schema": "Draft6Validator",
    "http://json-schema.org/draft-07/schema": "Draft7Validator",
    "http://json-schema.org/draft/2019-09/schema": "Draft201909Validator",
    "http://json-schema.org/draft/2020-12/schema": "Draft202012Validator",
}

_JSON_TYPES = {
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "object": "an object ({...})",
    "array": "an array ([...])",
    "null": "null",
}
_TYPE_NAMES = "string, integer, number, boolean, object, array or null"


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _metaschema_message(error: ValidationError, pointer: Pointer) -> str:
    where = f"'{pointer[-1]}'" if pointer and isinstance(pointer[-1], str) else f"item {pointer[-1]}" if pointer else "the schema"
    value = _shown(error.instance)
    wanted: Any = error.validator_value
    if pointer and pointer[-1] == "type" and _is_keyword(pointer) and error.validator in ("anyOf", "enum", "type"):
        return f"{where} must name a JSON type ({_TYPE_NAMES}) or list them, not {value}"
    if error.validator == "type":
        names = [wanted] if isinstance(wanted, str) else list(wanted)
        if set(names) == {"object", "boolean"}:
            return f"{where} must be a schema (an object, or true or false), not {value}"
        return f"{where} must be {' or '.join(_JSON_TYPES.get(n, n) for n in names)}, not {value}"
    if error.validator == "minimum":
        return f"{where} must be at least {wanted}, not {value}"
    if error.validator == "minItems":
        return f"{where} must list at least {wanted} item(s)"
    if error.validator == "uniqueItems":
        return f"{where} lists an item twice; list each once"
    if error.validator == "enum":
        return f"{where} must be one of {', '.join(_shown(x) for x in wanted)}, not {value}"
    return f"{where}: {error.message}"


# Keywords whose value maps names to schemas, lists schemas, or is one schema.
_SCHEMA_MAPS = frozenset(("properties", "patternProperties", "$defs", "definitions", "dependentSchemas"))
_SCHEMA_LISTS = frozenset(("allOf", "anyOf", "oneOf", "prefixItems"))
_SCHEMA_ONES = frozenset(("not", "items", "additionalProperties", "propertyNames", "contains", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties"))


def _is_keyword(pointer: Pointer) -> bool:
    """Whether the last step of ``pointer`` is a key of a schema (a keyword),
    rather than, say, the name of a property: "type" under "properties" is a
    property called type, whose value is a schema, not a type's name."""
    kind = "schema"
    for step in pointer[:-1]:
        if kind == "schema":
            kind = "map" if step in _SCHEMA_MAPS else "list" if step in _SCHEMA_LISTS else "schema" if step in _SCHEMA_ONES else "value"
        elif kind in ("map", "list"):
            kind = "schema"
        else:
            return False
    return kind == "schema"


class _Walk:
    """What the metaschema cannot see, over a set of files it passed: every
    schema in them is visited once, patterns compiled, refs followed."""

    def __init__(self, files: Mapping[str, _File]) -> None:
        self.files = files
        self.raw = {family: found.value for family, found in files.items() if found.value is not None}
        self.found: list[SchemaFault] = []
        self.seen: set[tuple[str, Pointer]] = set()
        # Schema -> the schemas applied to the very same value (through
        # $ref, allOf, anyOf, oneOf, not), each with where the step is written.
        self.same_value: dict[tuple[str, Pointer], list[tuple[tuple[str, Pointer], Pointer]]] = {}

    def faults(self) -> list[SchemaFault]:
        for family, value in self.raw.items():
            self._visit(family, (), value)
        self._loops()
        return self.found

    def _visit(self, family: str, pointer: Pointer, schema: Any) -> None:
        # A worklist, not recursion: refs can chain across the whole set.
        work = [(family, pointer, schema)]
        while work:
            family, pointer, schema = work.pop()
            if (family, pointer) in self.seen or not isinstance(schema, dict):
                continue
            self.seen.add((family, pointer))
            steps = self.same_value.setdefault((family, pointer), [])
            for key, sub in self._parts(schema):
                work.append((family, pointer + key, sub))
                if key[0] in _SAME_VALUE_ONE or key[0] in _SAME_VALUE_LIST:
                    steps.append(((family, pointer + key), pointer + key))
            self._keywords(family, pointer, schema)
            ref = schema.get("$ref")
            if isinstance(ref, str):
                named = ref.partition("#")[0].removesuffix(SCHEMA_SUFFIX)
                if named in self.files and named not in self.raw:
                    continue  # into a file that did not decode: its fault is listed
                target = resolve_pointer(ref, family, self.raw)
                if isinstance(target, str):
                    self.found.append(self.files[family].at(pointer + ("$ref",), target))
                else:
                    target_family, target_pointer, target_schema = target
                    if not isinstance(target_schema, (dict, bool)):
                        message = f"$ref '{schema['$ref']}' points at {_shown(target_schema)}, which is not a schema"
                        self.found.append(self.files[family].at(pointer + ("$ref",), message))
                        continue
                    steps.append(((target_family, target_pointer), pointer + ("$ref",)))
                    work.append((target_family, target_pointer, target_schema))

    @staticmethod
    def _parts(schema: dict[str, Any]) -> Iterator[tuple[Pointer, Any]]:
        """The schemas inside ``schema``, each with its place; a value of
        the wrong kind is the metaschema's to report, and is passed over."""
        for key in _SAME_VALUE_ONE + _PART_ONE:
            if key in schema:
                yield (key,), schema[key]
        for key in _SAME_VALUE_LIST + _PART_LIST:
            found = schema.get(key)
            if isinstance(found, list):
                for index, sub in enumerate(found):
                    yield (key, index), sub
        for key in _PART_MAP + ("$defs",):
            found = schema.get(key)
            if isinstance(found, dict):
                for name, sub in found.items():
                    yield (key, name), sub

    def _keywords(self, family: str, pointer: Pointer, schema: dict[str, Any]) -> None:
        found = self.files[family]
        for key in schema:
            if key not in KEYWORDS:
                close = difflib.get_close_matches(key, sorted(KEYWORDS), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                self.found.append(found.at(pointer + (key,), f"schema keyword '{key}' is not one this kit checks content by{hint}; the keywords it knows: {', '.join(sorted(KEYWORDS - {'$id'}))}"))
        if "$id" in schema:
            # jsonschema would resolve the refs below it against that address
            # and find nothing there; refs here name files beside this one.
            self.found.append(found.at(pointer + ("$id",), "'$id' moves where this schema's $ref look for files; here they name the files beside it, so leave $id out"))
        if "$schema" in schema and pointer:
            self.found.append(found.at(pointer + ("$schema",), "'$schema' belongs only at the top of the file, once"))
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            try:
                patterns.check(pattern)
            except patterns.PatternError as exc:
                self.found.append(
                    found.at(
                        pointer + ("pattern",),
                        f"pattern {_shown(pattern)} is not a regular expression RE2 can run (the matcher that keeps every check linear in time): {exc.reason}; write it without backreferences or look-arounds",
                    )
                )

    def _loops(self) -> None:
        """Report each loop of schemas applied to the same value: checking
        any value against one would never end. And a chain of them longer
        than MAX_CHAIN: checking recurses once per link, so a long enough
        one would exhaust Python's stack."""
        state: dict[tuple[str, Pointer], int] = {}  # 1 on the current path, 2 done
        # Links in the longest chain from a schema, and the step it starts with.
        longest: dict[tuple[str, Pointer], tuple[int, Pointer | None]] = {}
        for start in self.same_value:
            if start in state:
                continue
            path: list[tuple[tuple[str, Pointer], Iterator[tuple[tuple[str, Pointer], Pointer]]]] = [(start, iter(self.same_value[start]))]
            state[start] = 1
            while path:
                node, steps = path[-1]
                step = next(steps, None)
                if step is None:
                    state[node] = 2
                    path.pop()
                    links = [(longest.get(t, (0, None))[0] + 1, w) for t, w in self.same_value.get(node, ()) if state.get(t) == 2]
                    longest[node] = max(links, key=lambda x: x[0]) if links else (0, None)
                    continue
                target, written = step
                if state.get(target) == 1:
                    family = node[0]
                    ref = " (through $ref)" if written[-1] == "$ref" else ""
                    self.found.append(
                        self.files[family].at(written, f"this leads back to the schema it is part of{ref} without going into a property or an item, so checking any value by it would never end")
                    )
                elif target not in state:
                    state[target] = 1
                    path.append((target, iter(self.same_value.get(target, ()))))
        if longest:
            top = max(longest, key=lambda n: longest[n][0])
            chain, first = longest[top]
            if chain > MAX_CHAIN and first is not None:
                message = f"from here $ref (or allOf, anyOf, oneOf, not) leads through {chain} schemas in a row for one value; at most {MAX_CHAIN} can be checked, so shorten the chain"
                self.found.append(self.files[top[0]].at(first, message))


def resolve_pointer(ref: str, family: str, raw: Mapping[str, Any]) -> tuple[str, Pointer, Any] | str:
    """Where ``ref``, written in ``family``'s file, leads: (family, pointer,
    the schema there), or why it leads nowhere, in words.

    Refs name a sibling file (``defs.schema.json#/$defs/id``) or a place in
    the same file (``#/$defs/id``), as an editor beside the file reads them.
    """
    file, _, fragment = ref.partition("#")
    if file:
        if not file.endswith(SCHEMA_SUFFIX) or file[: -len(SCHEMA_SUFFIX)] not in raw:
            return f"$ref '{ref}' names a schema file that is not in this folder"
        family = file[: -len(SCHEMA_SUFFIX)]
    if fragment and not fragment.startswith("/"):
        return f"$ref '{ref}' must point into a file with a JSON pointer ('#/$defs/<name>')"
    target: Any = raw[family]
    pointer: Pointer = ()
    # As jsonschema reads a fragment (RFC 6901 over RFC 3986): the whole of it
    # percent-decoded first, then split, then each part's ~1 and ~0 undone.
    # Read any other way, a ref this check passed could point at nothing when
    # content is checked, or a sound one be refused.
    for part in unquote(fragment).split("/")[1:]:
        step = part.replace("~1", "/").replace("~0", "~")
        if isinstance(target, dict) and step in target:
            target = target[step]
            pointer += (step,)
        elif isinstance(target, list) and step.isascii() and step.isdigit() and int(step) < len(target):
            target = target[int(step)]
            pointer += (int(step),)
        else:
            return f"$ref '{ref}' points at nothing: there is no '{step}' in {file or 'this file'}"
    return family, pointer, target


def unresolved_ref_fault(texts: Mapping[str, tuple[Path, str]], raw: Mapping[str, Any], family: str, written: str) -> SchemaFault:
    """A fault for a ``$ref`` jsonschema could not follow while checking
    content of ``family``, placed at the first ``$ref`` in the schema files
    that reads ``written`` (the ref as jsonschema names it: whole, or just
    its pointer), else at the top of the family's file.

    ``load_schemas`` refuses every ref it cannot follow, so this is only a
    guard: should the two ever read a ref differently, the designer gets the
    schema's place instead of an internal error."""
    for name in (family, *sorted(raw)):
        if name not in texts or not isinstance(raw.get(name), dict):
            continue
        path, text = texts[name]
        positions = scan(text)
        for pointer in positions.values:
            if not pointer or pointer[-1] != "$ref":
                continue
            ref = _at(raw[name], pointer)
            if isinstance(ref, str) and (ref == written or ref.partition("#")[2] == written.lstrip("#")):
                line, column = position_of_offset(text, positions.offset(pointer))
                return SchemaFault(path, line, column, f"$ref '{ref}' could not be followed while checking content; make it point at a schema in these files")
    path, _ = texts[family]
    return SchemaFault(path, 1, 1, f"a $ref ('{written}') could not be followed while checking content; make it point at a schema in these files")


def _at(value: Any, pointer: Pointer) -> Any:
    for step in pointer:
        if isinstance(value, dict) and isinstance(step, str):
            value = value.get(step)
        elif isinstance(value, list) and isinstance(step, int) and step < len(value):
            value = value[step]
        else:
            return None
    return value
