"""The content schemas and the translation of their errors into designer words.

The JSON Schemas under ``content/schema/`` are the same files an editor uses
(through each YAML file's ``yaml-language-server`` line), so what the editor
flags while typing and what ``stationmaster validate`` reports never differ.
"""

from __future__ import annotations

import difflib
import functools
import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.content import files, patterns
from engine.content.fastcheck import Check, Compiler, UnsupportedSchema, all_distinct
from engine.content.jsonpos import Positions, scan
from engine.content.schemafaults import SchemaFault, load_schemas, resolve_pointer, unresolved_ref_fault
from engine.content.textpos import position_of_offset

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

SCHEMA_SUFFIX = ".schema.json"
DEFS_NAME = "defs"
# Words YAML 1.1 read as booleans. Here they are strings, so say what to write.
_YAML11_BOOLS = {"yes": "true", "no": "false", "on": "true", "off": "false", "y": "true", "n": "false"}


@dataclass(frozen=True, slots=True)
class SchemaIssue:
    """A schema failure: where (a pointer into the document) and what."""

    pointer: tuple[str | int, ...]
    message: str
    at_key: bool = False
    # The key a "missing required key" issue is about: the rest of the
    # mapping at ``pointer`` is still sound.
    missing: str | None = None
    # The known key an unknown key is probably a misspelling of.
    meant: str | None = None


class SchemaLoadError(Exception):
    """Schema files that cannot be used; the content cannot be checked at all.

    ``faults`` lists every fault found; ``path``, ``line``, ``column`` and
    ``message`` are the first one's.
    """

    def __init__(self, path: Path, line: int, column: int, message: str, more: Sequence[SchemaFault] = ()) -> None:
        self.path, self.line, self.column, self.message = path, line, column, message
        self.faults: tuple[SchemaFault, ...] = (SchemaFault(path, line, column, message), *more)
        super().__init__(message)


class SchemaSet:
    """Every ``*.schema.json`` in a directory, keyed by family name."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        texts: dict[str, tuple[Path, str]] = {}
        try:
            listed = sorted(directory / name for name in files.names(directory) if name.endswith(SCHEMA_SUFFIX))
        except files.Unreadable as exc:
            if exc.refused:  # the system's refusal: the loader's usage error
                raise
            raise SchemaLoadError(directory, 0, 0, exc.reason) from None
        for path in listed:
            family = path.name[: -len(SCHEMA_SUFFIX)]
            try:
                texts[family] = (path, files.read_bytes(path).decode("utf-8"))
            except files.Unreadable as exc:
                if exc.refused:
                    raise
                raise SchemaLoadError(path, 0, 0, exc.reason) from None
            except UnicodeDecodeError:
                raise SchemaLoadError(path, 1, 1, "schema is not UTF-8 text") from None
        # Checked whole before use: a fault in a schema is the author's to
        # fix, with its place, not an internal error of the checker.
        self.raw, faults = load_schemas(texts)
        self._texts = texts
        if faults:
            first, *rest = faults
            raise SchemaLoadError(first.path, first.line, first.column, first.message, rest)
        self._validators: dict[str, Draft202012Validator] = {}
        self._places = _Places(self.raw, texts)
        self._fast: dict[str, Check] = {}
        self._compiler = Compiler(self._lookup)
        for family in self.families:
            try:
                self.fast(family)
            except UnsupportedSchema as exc:  # pragma: no cover - load_schemas refuses these first, by place
                raise SchemaLoadError(directory / (family + SCHEMA_SUFFIX), 1, 1, str(exc)) from None
            except RecursionError:
                # Nesting is bounded per file, but $ref can chain schemas
                # through $defs without limit.
                raise SchemaLoadError(directory / (family + SCHEMA_SUFFIX), 1, 1, "its $ref lead from schema to schema hundreds deep; shorten the chain") from None

    @property
    def families(self) -> list[str]:
        return [name for name in self.raw if name != DEFS_NAME]

    def _lookup(self, ref: str, document: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
        family = next(name for name, raw in self.raw.items() if raw is document)
        found = resolve_pointer(ref, family, self.raw)
        if isinstance(found, str):  # pragma: no cover - load_schemas refuses these first, by place
            raise SchemaLoadError(self.directory / (family + SCHEMA_SUFFIX), 1, 1, found)
        target_family, _, target = found
        return target, self.raw[target_family]

    def fast(self, family: str) -> Check:
        found = self._fast.get(family)
        if found is None:
            key = self._compiled_key(family)
            found = _COMPILED.get(key)
            if found is None:
                found = self._compiler.compile(self.raw[family], self.raw[family])
                if len(_COMPILED) >= _COMPILED_MAX:
                    _COMPILED.clear()
                _COMPILED[key] = found
            self._fast[family] = found
        return found

    def _compiled_key(self, family: str) -> tuple[str, ...]:
        """What ``family``'s compiled check depends on: its own text and
        that of every file its ``$ref`` reach, directly or not."""
        reach, todo = {family}, [family]
        while todo:
            for ref in _refs(self.raw.get(todo.pop())):
                named = ref.partition("#")[0]
                other = named[: -len(SCHEMA_SUFFIX)] if named.endswith(SCHEMA_SUFFIX) else None
                if other is not None and other in self.raw and other not in reach:
                    reach.add(other)
                    todo.append(other)
        return (family, *(f"{name}\0{self._texts[name][1]}" for name in sorted(reach)))

    def validator(self, family: str) -> Draft202012Validator:
        # Imported here: jsonschema costs ~70 ms to import, and clean content
        # never needs it (the fast check has already said "valid").
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        found = self._validators.get(family)
        if found is None:
            resources = [(n + SCHEMA_SUFFIX, Resource.from_contents(b, default_specification=DRAFT202012)) for n, b in self.raw.items()]
            registry: Registry[Any] = Registry().with_resources(resources)
            schema = dict(self.raw[family])
            # Give the schema a base URI so "defs.schema.json#/..." resolves
            # in the registry exactly as an editor resolves it beside the file.
            schema.setdefault("$id", family + SCHEMA_SUFFIX)
            self._places.top(schema, family)
            found = _make_validator(schema, registry)
            self._validators[family] = found
        return found

    def check(self, family: str, document: Any) -> list[SchemaIssue]:
        if self.fast(family)(document):
            return []
        from referencing.exceptions import Unresolvable

        validator = self.validator(family)
        issues: list[SchemaIssue] = []
        try:
            for error in validator.iter_errors(document):
                issues.extend(_translate(error, self._places))
        except Unresolvable as exc:
            # A ref the schema check passed but jsonschema cannot follow: the
            # schema's fault, told at its place, never an internal error.
            fault = unresolved_ref_fault(self._texts, self.raw, family, str(getattr(exc, "ref", "")))
            raise SchemaLoadError(fault.path, fault.line, fault.column, fault.message) from None
        if not issues:
            # The quick check refused what jsonschema passes: NaN (and only
            # it, so far) compares false with every bound, so the two read
            # "minimum" apart. The reader refuses NaN and infinities in
            # content; a document built otherwise is refused here too.
            issues = [SchemaIssue(p, "is not an ordinary number (NaN or infinite); write one") for p in _not_finite(document, ())]
        # jsonschema reports 'required' once per missing key, each naming the
        # whole list; keep each issue once, in order. A required key that is
        # only misspelt is reported once, as the misspelling.
        misspelt = {(i.pointer[:-1], i.meant) for i in issues if i.meant is not None}
        return [i for i in dict.fromkeys(issues) if (i.pointer, i.missing) not in misspelt]


# Compiled checks by what they were compiled from (``SchemaSet._compiled_key``),
# within this process only: the "What changed" page loads several editions
# of a pack whose schemas are mostly the same text, and compiling is most
# of a schema set's cost. Bounded, for a long-lived process (``mkdocs serve``).
_COMPILED: dict[tuple[str, ...], Check] = {}
_COMPILED_MAX = 256


def _refs(value: Any) -> Iterator[str]:
    """Every ``$ref`` written anywhere in ``value``."""
    todo = [value]
    while todo:
        found = todo.pop()
        if isinstance(found, dict):
            ref = found.get("$ref")
            if isinstance(ref, str):
                yield ref
            todo.extend(found.values())
        elif isinstance(found, list):
            todo.extend(found)


def _not_finite(value: Any, pointer: tuple[str | int, ...]) -> Iterator[tuple[str | int, ...]]:
    """Where ``value`` holds a float that is NaN or infinite."""
    if isinstance(value, float) and not math.isfinite(value):
        yield pointer
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _not_finite(item, pointer + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _not_finite(item, pointer + (index,))


def _unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """jsonschema's uniqueItems, in linear time and with JSON equality.

    jsonschema compares every pair of items when they cannot be sorted
    (mappings, or text mixed with numbers): minutes for a long list. The fast
    check's test is used instead, so the two also always agree.
    """
    from jsonschema.exceptions import ValidationError

    if unique and isinstance(instance, list) and not all_distinct(instance):
        yield ValidationError("the list repeats an item")


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """jsonschema's pattern, run by RE2 (``patterns``): Python's ``re``
    backtracks, and one pattern such as ``^(a|a)+$`` then hangs the check."""
    from jsonschema.exceptions import ValidationError

    if isinstance(instance, str) and isinstance(pattern, str) and not patterns.search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@functools.cache
def _validator_class() -> Any:
    from jsonschema import Draft202012Validator, validators

    extend: Any = validators.extend
    return extend(Draft202012Validator, {"uniqueItems": _unique_items, "pattern": _pattern})


def _make_validator(schema: Mapping[str, Any], registry: Any) -> Draft202012Validator:
    made: Draft202012Validator = _validator_class()(schema, registry=registry)
    return made


def closest(word: str, choices: Sequence[str]) -> str | None:
    """The choice ``word`` is most likely a misspelling of, if any is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    close = closest(word, choices)
    return f" (did you mean '{close}'?)" if close else ""


def describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing (null)"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text '{shown}'"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)


_TYPE_WORDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "nothing",
}


class _Places:
    """Where a piece of schema is written, for messages that send the
    designer to it: the file and line that hold an allowed set, and what a
    ``$ref`` leads to. Indexed on the first question, which only content
    that fails its schema asks."""

    def __init__(self, raw: Mapping[str, Any], texts: Mapping[str, tuple[Path, str]]) -> None:
        self.raw = raw
        self.texts = texts
        self._index: dict[int, tuple[str, tuple[str | int, ...]]] | None = None
        self._tops: dict[int, str] = {}
        self._positions: dict[str, Positions] = {}

    def top(self, schema: Mapping[str, Any], family: str) -> None:
        """``schema`` is the copy of ``family``'s file a validator checks by."""
        self._tops[id(schema)] = family

    def find(self, schema: Any) -> tuple[str, tuple[str | int, ...]] | None:
        """(family, pointer) of a schema object taken from these files."""
        if id(schema) in self._tops:
            return self._tops[id(schema)], ()
        if self._index is None:
            self._index = {}
            for family, value in self.raw.items():
                todo: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
                while todo:
                    found, pointer = todo.pop()
                    if isinstance(found, dict):
                        self._index[id(found)] = (family, pointer)
                        todo.extend((v, pointer + (k,)) for k, v in found.items())
                    elif isinstance(found, list):
                        todo.extend((v, pointer + (i,)) for i, v in enumerate(found))
        return self._index.get(id(schema))

    def where(self, schema: Any, keyword: str) -> str | None:
        """``path:line:column`` of ``keyword`` in the schema object ``schema``."""
        found = self.find(schema)
        if found is None or found[0] not in self.texts:
            return None
        path, text = self.texts[found[0]]
        positions = self._positions.get(found[0])
        if positions is None:
            positions = self._positions[found[0]] = scan(text)
        line, column = position_of_offset(text, positions.offset(found[1] + (keyword,)))
        shown = files.as_given(path).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        return f"{shown}:{line}:{column}"

    def follow(self, schema: Any, family: str | None, steps: int = 32) -> tuple[Any, str | None]:
        """The schema ``schema`` (written in ``family``'s file) stands for,
        past a chain of ``$ref`` (at most ``steps`` of them)."""
        for _ in range(steps):
            ref = schema.get("$ref") if isinstance(schema, dict) else None
            if not isinstance(ref, str) or family is None:
                break
            target = resolve_pointer(ref, family, self.raw)
            if isinstance(target, str):
                break
            family, _, schema = target
        return schema, family

    def what_to_write(self, key: str, schema: Any, family: str | None) -> str | None:
        """What may be written under ``key`` where ``schema`` checks its
        value: its allowed values, an example it gives, its own words, or its kind."""
        said = self._what(key, schema, family, 0)
        if said is None:
            return None
        lead, phrase = said
        return f"{lead} {phrase}" if lead else phrase

    def _what(self, key: str, schema: Any, family: str | None, depth: int) -> tuple[str, str] | None:
        # The words nearest the key are the ones written for it: a
        # description on the way through $ref wins over the one it leads to.
        description: str | None = None
        example: Any = None
        for _ in range(32):
            if not isinstance(schema, dict):
                return None
            if example is None and "examples" in schema:
                example = schema["examples"]
            if description is None and isinstance(schema.get("description"), str) and schema["description"].strip():
                description = _first_sentence(schema["description"].strip())
            if not isinstance(schema.get("$ref"), str):
                break
            schema, family = self.follow({"$ref": schema["$ref"]}, family, steps=1)
        if not isinstance(schema, dict) or depth > 4:
            return None
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return "it takes", "one of: " + ", ".join(_written(c, quoted=False) for c in schema["enum"])
        if "const" in schema:
            return "it takes", _written(schema["const"])
        kind: str | None = None
        for alternatives in ("oneOf", "anyOf"):
            if isinstance(schema.get(alternatives), list):
                said = [self._what(key, alt, family, depth + 1) for alt in schema[alternatives]]
                if all(s is not None and s[0] == "it takes" for s in said):
                    kind = " or ".join(dict.fromkeys(s[1] for s in said if s is not None))
        kind = kind or _kind(schema)
        if isinstance(example, list) and example:
            shown = f"for example {key}: {_written(example[0], quoted=False)}"
            return "", f"{description}; {shown}" if description else shown
        if description is not None:
            # Words for a number or a choice say what it counts; the kind says how to write it.
            told = kind is not None and not kind.startswith(("text", "a mapping"))
            return "", f"{description}: {kind}" if told else description
        return ("it takes", kind) if kind else None


def _written(value: Any, *, quoted: bool = True) -> str:
    """A value as it is written in a YAML content file; a word in quotes
    when ``quoted`` (or when, bare, it would read as something else)."""
    if isinstance(value, str):
        bare = not quoted and value not in _YAML11_BOOLS and value not in ("true", "false", "null") and not _NUMBER_TEXT.match(value)
        return value if bare else f"'{value}'"
    return json.dumps(value, ensure_ascii=False)


def _kind(schema: Mapping[str, Any]) -> str | None:
    """The kind of value a schema takes, with its bounds: "a whole number from 1 to 10"."""
    kind = schema.get("type")
    names = [kind] if isinstance(kind, str) else list(kind) if isinstance(kind, list) else []
    if not names:
        return None
    words = " or ".join(_TYPE_WORDS.get(n, n) for n in names)
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f"{words} from {low} to {high}"
    if low is not None:
        return f"{words}, at least {low}"
    if high is not None:
        return f"{words}, at most {high}"
    if names == ["object"] and isinstance(schema.get("properties"), dict) and schema["properties"]:
        keys = schema.get("required") or list(schema["properties"])
        return f"a mapping with {', '.join(map(str, keys))}"
    return words


def _best(errors: Sequence[ValidationError]) -> ValidationError:
    # Prefer the branch that got furthest into the value, then the most specific
    # failure: the designer meant one of the alternatives and missed by a little.
    return max(errors, key=lambda e: (len(e.absolute_path), e.validator not in ("type", "const", "not")))


def _translate_plain(error: ValidationError) -> Iterator[SchemaIssue]:
    options: list[Any] = list(error.validator_value) if isinstance(error.validator_value, (list, tuple)) else []
    if error.validator == "enum":
        hint = did_you_mean(str(error.instance), [str(c) for c in options])
        yield SchemaIssue((), f"'{error.instance}' is not one of: {', '.join(map(str, options))}{hint}")
    elif error.validator == "pattern" and isinstance(error.schema, Mapping) and "description" in error.schema:
        yield SchemaIssue((), f"'{error.instance}' is not valid here; expected {_first_sentence(error.schema['description'])}")
    else:
        yield SchemaIssue((), f"'{error.instance}' is not allowed: {error.message}")


def _unquoted(text: str) -> Any:
    """What ``text`` would read as without its quotes, when that is a number
    or true or false; else None."""
    bare = text.strip()
    if bare in ("true", "false"):
        return bare == "true"
    if _NUMBER_TEXT.match(bare):
        try:
            number = float(bare)
        except ValueError:  # pragma: no cover - the pattern admits only numbers
            return None
        if math.isfinite(number):
            return int(number) if number.is_integer() and not any(c in bare for c in ".eE") else number
    return None


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, and 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return False


def _fits(value: Any, names: Sequence[str]) -> bool:
    """Whether ``value`` (a number or a boolean) is of one of the JSON types ``names``."""
    if isinstance(value, bool):
        return "boolean" in names
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer" in names or "number" in names
    return isinstance(value, float) and "number" in names


def _quoted(text: str) -> str:
    return f"write {text.strip()} without quotes: the quotes make it text"


def _translate(error: ValidationError, places: _Places) -> Iterator[SchemaIssue]:
    pointer = tuple(error.absolute_path)
    kind = error.validator
    value: Any = error.instance
    wanted: Any = error.validator_value
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    if "propertyNames" in error.absolute_schema_path and isinstance(value, str):
        # The failing value is a key of the mapping at ``pointer``: point at it.
        for issue in _translate_plain(error):
            yield SchemaIssue(pointer + (value,), "key " + issue.message, at_key=True)
        return
    if kind in ("oneOf", "anyOf") and error.context:
        deeper = [e for e in error.context if e.validator not in ("not",)]
        here = [e for e in deeper if tuple(e.absolute_path) == pointer]
        if deeper and len(here) == len(deeper) and all(e.validator in ("type", "const", "enum") for e in here):
            # Every alternative refused the value for its kind: name them all.
            yield SchemaIssue(pointer, _none_of(here, value))
            return
        if deeper:
            yield from _translate(_best(deeper), places)
            return
        yield SchemaIssue(pointer, "this combination of keys is not allowed here")
        return
    if kind == "additionalProperties" and isinstance(value, dict):
        known = list(schema.get("properties", {}))
        extras = [k for k in value if k not in known]
        for k in extras:
            close = closest(k, known)
            hint = f" (did you mean '{close}'?)" if close else ""
            allowed = ", ".join(known)
            allowed_text = f"allowed here: {allowed}" if known else "no keys are allowed here"
            yield SchemaIssue(pointer + (k,), f"unknown key '{k}'{hint}; {allowed_text}", at_key=True, meant=close)
        return
    if kind == "required" and isinstance(value, dict):
        missing = [k for k in wanted if k not in value]
        properties = schema.get("properties")
        found = places.find(schema)
        for k in missing:
            what = places.what_to_write(k, properties.get(k), found[0] if found else None) if isinstance(properties, dict) else None
            yield SchemaIssue(pointer, f"missing required key '{k}'" + (f" ({what})" if what else ""), missing=k)
        return
    if kind == "enum":
        choices = list(wanted)
        shown = ", ".join(json.dumps(c) if not isinstance(c, str) else c for c in choices)
        held = places.where(error.schema, "enum")
        listed = f"; the allowed set is listed in {held}" if held else ""
        bare = _unquoted(value) if isinstance(value, str) else None
        if bare is not None and any(_same(bare, c) for c in choices):
            yield SchemaIssue(pointer, f"{_quoted(value)} (one of: {shown})")
            return
        if bare is not None and not any(isinstance(c, str) for c in choices):
            yield SchemaIssue(pointer, f"{describe(value)} is not one of: {shown}; write one of them without quotes{listed}")
            return
        words = [str(c) for c in choices if isinstance(c, str)]
        hint = did_you_mean(value, words) if isinstance(value, str) else ""
        yield SchemaIssue(pointer, f"{describe(value)} is not one of: {shown}{hint}{listed}")
        return
    if kind == "const":
        yield SchemaIssue(pointer, f"{describe(value)} must be {json.dumps(error.validator_value)}")
        return
    if kind == "type":
        names = [wanted] if isinstance(wanted, str) else list(wanted)
        want = " or ".join(_TYPE_WORDS.get(n, n) for n in names)
        bare = _unquoted(value) if isinstance(value, str) else None
        if bare is not None and _fits(bare, names):
            yield SchemaIssue(pointer, f"{_quoted(value)}, where {want} is expected")
            return
        message = f"expected {want}, got {describe(value)}"
        if "boolean" in names and isinstance(value, str) and value.lower() in _YAML11_BOOLS:
            message += f" (YAML 1.1's '{value}' is not a boolean here; write {_YAML11_BOOLS[value.lower()]})"
        elif isinstance(value, str) and any(n in ("integer", "number") for n in names):
            message += _number_hint(value, pointer)
        yield SchemaIssue(pointer, message)
        return
    if kind == "minimum":
        yield SchemaIssue(pointer, f"{describe(value)} is below the minimum {error.validator_value}")
        return
    if kind == "maximum":
        yield SchemaIssue(pointer, f"{describe(value)} is above the maximum {error.validator_value}")
        return
    if kind == "pattern":
        what = schema.get("description", f"text matching {error.validator_value}")
        yield SchemaIssue(pointer, f"{describe(value)} is not valid here; expected {_first_sentence(what)}")
        return
    if kind in ("minItems", "maxItems", "minProperties", "maxProperties", "minLength", "maxLength"):
        limit = error.validator_value
        noun = {
            "minItems": "at least {} item(s)",
            "maxItems": "at most {} items",
            "minProperties": "at least {} key(s)",
            "maxProperties": "at most {} keys",
            "minLength": "at least {} character(s)",
            "maxLength": "at most {} characters",
        }[kind]
        yield SchemaIssue(pointer, f"{describe(value)} is not allowed: needs {noun.format(limit)}")
        return
    if kind == "uniqueItems":
        yield SchemaIssue(pointer, "the list repeats an item; list each once")
        return
    yield SchemaIssue(pointer, error.message)


def _none_of(errors: Sequence[ValidationError], value: Any) -> str:
    """A value every alternative refused for its kind: "expected a whole
    number or 'all', got the text 'yes'" (or how to unquote it)."""
    wanted: list[str] = []
    types: list[str] = []
    for error in errors:
        given: Any = error.validator_value
        if error.validator == "type":
            names = [given] if isinstance(given, str) else list(given)
            types += names
            wanted += [_TYPE_WORDS.get(n, n) for n in names]
        elif error.validator == "const":
            wanted.append(_written(given))
        else:
            wanted += [_written(c) for c in given]
    want = " or ".join(dict.fromkeys(wanted))
    bare = _unquoted(value) if isinstance(value, str) else None
    if bare is not None and _fits(bare, types):
        return f"{_quoted(value)}, where {want} is expected"
    message = f"expected {want}, got {describe(value)}"
    if isinstance(value, str) and value.lower() in _YAML11_BOOLS and "boolean" in types:
        message += f" (YAML 1.1's '{value}' is not a boolean here; write {_YAML11_BOOLS[value.lower()]})"
    return message


def _number_hint(text: str, pointer: tuple[str | int, ...]) -> str:
    """Why text is not a number here. Unquoted digits would have read as a
    number, so digits in text were quoted; anything else is a word."""
    if _NUMBER_TEXT.match(text.strip()):
        return " (write the number without quotes)"
    key = pointer[-1] if pointer and isinstance(pointer[-1], str) else "count"
    return f" (a number is written in digits, as {key}: 1)"


_NUMBER_TEXT = re.compile(r"^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$")


def _first_sentence(text: str) -> str:
    head = text.split(". ")[0].rstrip(".")
    return head[0].lower() + head[1:] if head else head
