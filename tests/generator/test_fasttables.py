"""The fast reader of generated tables (generator/fasttables.py) gives the
lint exactly what markdown-it gives it: the same tokens where it reads a
table itself, and the parser's own answer wherever it is not sure."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from generator import lint
from generator.fasttables import block_tokens
from tests.kit.project import PROJECT_ROOT


def _parse(text: str) -> list[Token]:
    return lint._parser().parse(text, {"references": {}})


def _shape(tokens: list[Token]) -> list[tuple[object, ...]]:
    """What the lint reads of each token: its kind, lines, text, and its
    children's kinds, text and link targets."""
    shaped: list[tuple[object, ...]] = []
    for token in tokens:
        children = tuple((c.type, c.content, c.attrs.get("href"), c.attrs.get("title")) for c in token.children or [])
        shaped.append((token.type, tuple(token.map) if token.map else None, token.content if token.type == "inline" else "", children, token.level if token.nesting >= 0 else None))
    return shaped


def _bodies() -> list[tuple[str, str]]:
    found = []
    for page in sorted((PROJECT_ROOT / "site").rglob("*.md")):
        for chunk in lint._chunks(page.name, page.name, page.read_text(encoding="utf-8"), _Everything())[1:]:  # type: ignore[arg-type]
            found.append((f"{page.parent.name}/{page.name}:{chunk.first_line}", chunk.text))
    return found


class _Everything:
    def __contains__(self, name: object) -> bool:
        return True


BODIES = _bodies()


def test_there_are_bodies_and_most_tables_are_read_fast() -> None:
    assert len(BODIES) > 40
    fast = 0
    for _, text in BODIES:
        calls: list[str] = []

        def parse(body: str, _calls: list[str] = calls) -> list[Token]:
            _calls.append(body)
            return _parse(body)

        block_tokens(text, parse)
        fast += not calls or calls[0] != text
    assert fast >= len(BODIES) // 2, "the fast reader took too few of the shipped tables"


@pytest.mark.parametrize(("where", "text"), BODIES, ids=[w for w, _ in BODIES])
def test_every_shipped_block_reads_as_markdown_it_reads_it(where: str, text: str) -> None:
    assert _shape(block_tokens(text, _parse)) == _shape(_parse(text))


# Cells built from the pieces the generator writes, and from pieces it never
# does, so that the reader is seen both reading and handing back to the parser.
_PIECES = st.sampled_from(
    [
        "a",
        "Bc",
        " ",
        "3",
        "x3",
        "×",
        "yes",
        "no",
        "—",
        "\\|",
        "\\*",
        "\\_",
        "\\[",
        "\\]",
        "\\\\",
        "\\#",
        "\\a",
        "&lt;",
        "&gt;",
        "&amp;",
        "&quot;",
        "&copy;",
        "&#39;",
        "*",
        "_",
        "`",
        "~",
        "!",
        "![x](y)",
        '<a id="card-x"></a>',
        '<span class="k">',
        "</span>",
        "<br>",
        "<!-- c -->",
        '<svg width="4"><title>T</title></svg>',
        "[Name](page.md#card-x)",
        '[†](#designed-legend "designed: see")',
        "[x](http://a.b)",
        "[x][ref]",
        "[x]",
        "]",
        "(",
        ")",
        "<",
        ">",
        "&",
        "|",
        "<http://a.b>",
        "`code`",
        "` spaced `",
        "`  `",
        "``two``",
        "`a\\|b`",
        "[B&amp;O 1](c.md#card-b)",
        "[&copy;](c.md)",
    ]
)
_CELLS = st.lists(_PIECES, max_size=6).map("".join)


@settings(max_examples=600, derandomize=True, database=None, deadline=None)
@given(
    st.lists(st.lists(_CELLS, min_size=1, max_size=4), min_size=1, max_size=4),
    st.sampled_from(["", "Intro paragraph.\n\n", "- a list\n\n", "    code\n\n"]),
    st.sampled_from(["", "\n\nA note after [a](b.md#c)."]),
)
def test_any_table_reads_as_markdown_it_reads_it(rows: list[list[str]], before: str, after: str) -> None:
    width = max(len(r) for r in rows)
    head = "| " + " | ".join(f"H{i}" for i in range(width)) + " |"
    rule = "| " + " | ".join("---" for _ in range(width)) + " |"
    body = "\n".join("| " + " | ".join(row) + " |" for row in rows)
    text = f"\n{before}{head}\n{rule}\n{body}{after}\n\n"
    assert _shape(block_tokens(text, _parse)) == _shape(_parse(text))


def test_the_lint_finds_the_same_facts_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    everything: Any = _Everything()  # answers yes to every name, without listing them
    chunks = [
        c for page in sorted((PROJECT_ROOT / "site").rglob("*.md")) for c in lint._chunks(page.name, page.name, page.read_text(encoding="utf-8"), everything, ("Station value", "Cost", "[0-9]+"))
    ]
    fast = [lint._lint_chunk(c) for c in chunks]
    monkeypatch.setattr(lint, "block_tokens", lambda text, parse: parse(text))
    assert [lint._lint_chunk(c) for c in chunks] == fast
