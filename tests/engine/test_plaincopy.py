"""engine.plaincopy: a copy of plain dataclasses that equals ``deepcopy``'s
and shares nothing that can change, worked out from the type hints."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Literal

from engine.plaincopy import copier


@dataclass
class Leaf:
    name: str
    count: int = 0
    tags: list[str] = field(default_factory=list)


@dataclass
class Odd:
    """A field whose type the copier does not know is deep-copied."""

    bag: set[int] = field(default_factory=set)


@dataclass
class Tree:
    kind: Literal["a", "b"]
    leaves: list[Leaf] = field(default_factory=list)
    by_name: dict[str, Leaf] = field(default_factory=dict)
    grid: list[list[str]] = field(default_factory=list)
    maybe: Leaf | None = None
    frozen: tuple[str, ...] | None = None
    odd: Odd = field(default_factory=Odd)
    slots: list[str | None] = field(default_factory=list)


def _mutables(value: object, found: set[int]) -> set[int]:
    """The ids of every list, dict, set and dataclass held in ``value``."""
    if isinstance(value, (list, dict, set)) or is_dataclass(value):
        found.add(id(value))
    if isinstance(value, (list, tuple, set)):
        for item in value:
            _mutables(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _mutables(item, found)
    elif is_dataclass(value):
        for f in fields(value):
            _mutables(getattr(value, f.name), found)
    return found


def test_a_copy_equals_deepcopys_and_shares_nothing_that_can_change() -> None:
    tree = Tree(
        "b",
        leaves=[Leaf("x", 1, ["p", "q"]), Leaf("y")],
        by_name={"z": Leaf("z", 2, ["r"])},
        grid=[["a", "b"], []],
        maybe=Leaf("m", tags=["s"]),
        frozen=("f", "g"),
        odd=Odd({1, 2}),
        slots=["t", None],
    )
    twin = copier(Tree)(tree)
    assert twin == copy.deepcopy(tree)
    assert type(twin) is Tree and type(twin.leaves[0]) is Leaf
    assert not _mutables(tree, set()) & _mutables(twin, set())
    twin.leaves[0].tags.append("new")
    twin.grid[0].append("c")
    twin.odd.bag.add(3)
    assert tree.leaves[0].tags == ["p", "q"] and tree.grid[0] == ["a", "b"] and tree.odd.bag == {1, 2}


def test_an_empty_optional_stays_empty_and_the_copier_is_made_once() -> None:
    tree = Tree("a")
    assert copier(Tree)(tree) == tree
    assert copier(Tree)(tree).maybe is None
    assert copier(Tree) is copier(Tree)


@dataclass
class Node:
    """A dataclass that holds its own kind."""

    name: str
    children: list[Node] = field(default_factory=list)


def test_a_dataclass_that_holds_its_own_kind_is_copied_all_the_way_down() -> None:
    tree = Node("root", [Node("a", [Node("b")]), Node("c")])
    twin = copier(Node)(tree)
    assert twin == tree and twin.children[0].children[0] is not tree.children[0].children[0]
    twin.children[0].children.append(Node("d"))
    assert tree.children[0].children == [Node("b")]
