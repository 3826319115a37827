"""The README's engine example runs as printed: its python block is run as
it stands, from the top of the checkout, and each line it prints is what the
comment on its ``print`` says (a ``...`` in the comment stands for the rest)."""

from __future__ import annotations

import ast
import re
import sys
from typing import Any

import pytest

from tests.kit.project import PROJECT_ROOT

README = PROJECT_ROOT / "README.md"


def engine_example() -> tuple[str, int]:
    """The python block under "## The engine", and the README line it starts on."""
    text = README.read_text(encoding="utf-8")
    section = text.index("## The engine")
    start = text.index("```python\n", section) + len("```python\n")
    end = text.index("```", start)
    return text[start:end], text.count("\n", 0, start) + 1


def expected_prints(source: str) -> dict[int, str]:
    """Each commented ``print`` call's line (in the block) and its comment."""
    found = {}
    for number, line in enumerate(source.splitlines(), start=1):
        if line.startswith("print(") and "  # " in line:
            found[number] = line.split("  # ", 1)[1].strip()
    return found


def matches(printed: str, comment: str) -> bool:
    """Whether ``printed`` is what ``comment`` shows, each ``...`` standing for any text."""
    pattern = ".*".join(re.escape(piece) for piece in comment.split("..."))
    return re.fullmatch(pattern, printed) is not None


def test_the_readme_engine_example_runs_and_prints_what_it_says(monkeypatch: pytest.MonkeyPatch) -> None:
    source, first_line = engine_example()
    ast.parse(source)  # a block that is not Python fails here, naming the README
    expected = expected_prints(source)
    assert len(expected) >= 2, "the example's printed comments were not found"
    printed: dict[int, str] = {}

    def record(*args: Any, **_: Any) -> None:
        printed[sys._getframe(1).f_lineno] = " ".join(str(a) for a in args)

    monkeypatch.chdir(PROJECT_ROOT)
    code = compile(source, str(README), "exec")
    exec(code, {"__name__": "readme_example", "print": record})  # noqa: S102 - the README's own example, run as a reader would
    for line, comment in expected.items():
        assert line in printed, f"README.md:{first_line + line - 1}: this print did not run"
        assert matches(printed[line], comment), f"README.md:{first_line + line - 1}: printed {printed[line]!r}, the comment says {comment!r}"


@pytest.mark.parametrize(
    ("printed", "comment", "same"),
    [
        ("[Draw(player=0, source='deck'), Draw(player=0, source='1')]", "[Draw(player=0, source='deck'), ...]", True),
        ("['not-your-turn']", "['not-your-turn']", True),
        ("['hand-over-limit']", "['not-your-turn']", False),
        ("[Draw(player=1, source='deck')]", "[Draw(player=0, source='deck'), ...]", False),
    ],
)
def test_a_comment_matches_only_what_it_shows(printed: str, comment: str, same: bool) -> None:
    assert matches(printed, comment) is same
