"""Copying a game state made of plain dataclasses, lists and dicts, for less
than ``copy.deepcopy`` costs.

A search bot copies the game at every iteration, and ``deepcopy`` spends
most of its time on what plain data does not need: a memo of every object
(no part of a game state is held in two places), and the reduce protocol
for every dataclass. ``copier(cls)`` instead works out once, from the
class's type hints, which fields hold something mutable and how to copy
each (a list of strings by ``list.copy``, a list of dataclasses item by
item, ...), and shares everything immutable (strings, numbers, tuples of
them). A field whose type it does not know is deep-copied, so a new kind
of field is copied correctly before it is copied fast.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from copy import deepcopy
from dataclasses import fields, is_dataclass
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")

Copy = Callable[[Any], Any]

_IMMUTABLE = (int, str, bool, float, type(None))
_COPIERS: dict[type, Copy] = {}


_BUILDING: set[type] = set()


def copier(cls: type[T]) -> Callable[[T], T]:
    """A function that copies an instance of the dataclass ``cls`` and all
    it holds, as ``deepcopy`` would (given no object in it is held twice)."""
    found = _COPIERS.get(cls)
    if found is None:
        _BUILDING.add(cls)
        try:
            found = _COPIERS[cls] = _dataclass_copier(cls)
        finally:
            _BUILDING.discard(cls)
    return found


def _dataclass_copier(cls: type) -> Copy:
    if not is_dataclass(cls) or hasattr(cls, "__slots__"):
        return deepcopy
    hints = get_type_hints(cls)
    mutable = [(f.name, how) for f in fields(cls) if (how := _how(hints[f.name])) is not None]
    new = object.__new__

    def copy_one(value: Any) -> Any:
        twin = new(cls)
        held = dict(value.__dict__)
        for name, how in mutable:
            held[name] = how(held[name])
        twin.__dict__ = held
        return twin

    return copy_one


def _how(hint: Any) -> Copy | None:
    """How to copy a value of type ``hint``; None when it is immutable (shared)."""
    if hint in _IMMUTABLE:
        return None
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return None
    if origin in (Union, types.UnionType):
        parts = [_how(arg) for arg in args if arg is not type(None)]
        if all(part is None for part in parts):
            return None
        if len(parts) == 1 and type(None) in args:
            inner = parts[0]
            assert inner is not None
            return lambda value: None if value is None else inner(value)
        return deepcopy
    if origin is tuple:
        return None if all(arg is Ellipsis or _how(arg) is None for arg in args) else deepcopy
    if origin is list and len(args) == 1:
        each_item = _how(args[0])
        if each_item is None:
            return list.copy
        return lambda value: [each_item(each) for each in value]
    if origin is dict and len(args) == 2 and _how(args[0]) is None:
        each_value = _how(args[1])
        if each_value is None:
            return dict.copy
        return lambda value: {k: each_value(each) for k, each in value.items()}
    if isinstance(hint, type) and is_dataclass(hint):
        if hint in _BUILDING:  # a dataclass that holds its own kind: found when first asked
            return lambda value: copier(hint)(value)
        return copier(hint)
    return deepcopy
