"""``stationmaster lsp`` driven as an editor drives it: pytest-lsp starts the
real server as a subprocess over stdio, once for the module, and each test
opens a file of a shipped pack, types into it (never saving: nothing on disk
changes) and reads what the server says.

Every diagnostic is held to what ``validate``'s own loader says of the same
text (``expected``): same line, column and words."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from engine.content import files
from engine.content.problems import Problem
from engine.errors import ContentError
from engine.packs import find_packs, pack_rules
from tests.kit.cli import subprocess_env
from tests.kit.project import PROJECT_ROOT

pytestmark = [pytest.mark.xdist_group("lsp"), pytest.mark.asyncio(loop_scope="module")]

SM = PROJECT_ROOT / "content" / "stationmaster"
TOTR = PROJECT_ROOT / "content" / "trickoftherails"
FACILITIES = SM / "home-deck" / "facilities.yaml"
LOCOMOTIVES = TOTR / "locomotives.yaml"


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]  # pytest-lsp's decorator carries no types
    scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "command.cli", "lsp"], server_env=subprocess_env())
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=PROJECT_ROOT.as_uri()))
    yield
    # shutdown, then exit with the client still there: the exit alone ends it, cleanly.
    await asyncio.wait_for(lsp_client.shutdown_session(), 60)
    assert lsp_client._server is not None and lsp_client._server.returncode == 0


class Editor:
    """One open file of a pack, edited the way a person does."""

    def __init__(self, client: LanguageClient, path: Path) -> None:
        self.client, self.path, self.uri = client, path, path.as_uri()
        self.text = path.read_text(encoding="utf-8")
        self.version = 1

    async def __aenter__(self) -> Editor:
        self.client.diagnostics.pop(self.uri, None)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=self.uri, language_id="yaml", version=self.version, text=self.text)))
        await self.published()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.client.diagnostics.pop(self.uri, None)
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=self.uri)))
        await self.published()

    async def published(self) -> None:
        """Wait until the server has said what it thinks of this file (the
        test took the last word away before changing it)."""
        while self.uri not in self.client.diagnostics:
            await asyncio.wait_for(self.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 20)

    async def type(self, old: str, new: str) -> list[types.Diagnostic]:
        """Replace the first ``old`` with ``new`` (whole text sent) and wait for the check."""
        assert old in self.text, old
        self.text = self.text.replace(old, new, 1)
        self.version += 1
        change = types.TextDocumentContentChangeWholeDocument(text=self.text)
        self.client.diagnostics.pop(self.uri, None)
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version), content_changes=[change]))
        await self.published()
        return list(self.client.diagnostics.get(self.uri, []))

    def position(self, needle: str, offset: int = 0) -> types.Position:
        at = self.text.index(needle) + offset
        line = self.text.count("\n", 0, at)
        return types.Position(line=line, character=at - (self.text.rfind("\n", 0, at) + 1))


def expected(path: Path, text: str) -> list[Problem]:
    """What validate's loader says of ``path``'s pack with ``text`` in that file."""
    root = PROJECT_ROOT / "content"
    with files.overlaid({str(path): text.encode()}):
        found, problems = find_packs(root)
        folder = next(f for f in found if f.content in path.parents)
        try:
            catalog = pack_rules(folder.id).load_catalog(folder.content)
            problems += pack_rules(folder.id).engine_problems(catalog)
        except ContentError as exc:
            problems += exc.problems
    return sorted(p for p in problems if Path(PROJECT_ROOT, p.path).resolve() == path)


def as_seen(diagnostics: list[types.Diagnostic]) -> list[tuple[int, int, str]]:
    return sorted((d.range.start.line + 1, d.range.start.character + 1, d.message) for d in diagnostics)


# The designer's typical mistakes: (file, text there, typed instead, where the problem is).
MISTAKES: list[tuple[str, Path, str, str, Callable[[str], str]]] = [
    ("typo in a key", FACILITIES, "    commodity: produce", "    comodity: produce", lambda t: "comodity"),
    ("wrong type", FACILITIES, "    inboundBoxes: 0\n    outboundBoxes: 1\n    lockouts: [grocers", "    inboundBoxes: none\n    outboundBoxes: 1\n    lockouts: [grocers", lambda t: "none"),
    ("id taken in another file", FACILITIES, "  - id: packing-sheds", "  - id: yard-office", lambda t: "yard-office"),
    ("dangling lockout", FACILITIES, "lockouts: [grocers-warehouse]", "lockouts: [grocer-warehouse]", lambda t: "grocer-warehouse"),
    ("undeclared edition", FACILITIES, "    lockouts: [grocers-warehouse]\n    source: homeDeck-0.8.6", "    lockouts: [grocers-warehouse]\n    source: homeDeck-0.9.1", lambda t: "homeDeck-0.9.1"),
    ("a tab", FACILITIES, "    count: 2\n    commodity: produce", "    count: 2\n\tcommodity: produce", lambda t: "\tcommodity"),
    ("typo in a key", LOCOMOTIVES, 'name: "Locomotive [3]"', 'nmae: "Locomotive [3]"', lambda t: "nmae"),
    ("wrong type", LOCOMOTIVES, "reach: 3,", "reach: three,", lambda t: "three"),
    ("dangling brings", LOCOMOTIVES, "brings: loco-all", "brings: loco-al", lambda t: "loco-al,"),
    ("undeclared source", LOCOMOTIVES, "source: bga}", "source: bgaa}", lambda t: "bgaa"),
]


@pytest.mark.parametrize(("path", "old", "new", "marker"), [m[1:] for m in MISTAKES], ids=[f"{m[1].parent.name}-{m[0]}" for m in MISTAKES])
async def test_a_typical_mistake_is_shown_where_validate_puts_it(client: LanguageClient, path: Path, old: str, new: str, marker: Callable[[str], str]) -> None:
    async with Editor(client, path) as editor:
        assert as_seen(list(client.diagnostics.get(editor.uri, []))) == []
        seen = await editor.type(old, new)
        want = expected(path, editor.text)
        assert want, "the mistake must be one validate reports"
        assert as_seen(seen) == [(p.line, p.column, files.one_line(p.message)) for p in want]
        spot = editor.position(marker(editor.text))
        assert any(d.range.start.line == spot.line for d in seen)


async def test_yes_where_a_boolean_is_meant_is_refused_in_place(client: LanguageClient) -> None:
    trains = SM / "home-deck" / "trains.yaml"
    async with Editor(client, trains) as editor:
        line = next(one for one in editor.text.splitlines() if one.strip().startswith("caboose: true"))
        seen = await editor.type(line, line.replace("true", "yes"))
        want = expected(trains, editor.text)
        assert as_seen(seen) == [(p.line, p.column, files.one_line(p.message)) for p in want]
        assert seen and "yes" in seen[0].message


async def test_a_did_you_mean_is_a_quick_fix(client: LanguageClient) -> None:
    async with Editor(client, FACILITIES) as editor:
        seen = await editor.type("lockouts: [grocers-warehouse]", "lockouts: [grocer-warehouse]")
        fix = await client.text_document_code_action_async(
            types.CodeActionParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), range=seen[0].range, context=types.CodeActionContext(diagnostics=seen))
        )
        assert fix and isinstance(fix[0], types.CodeAction) and fix[0].edit and fix[0].edit.changes
        (edit,) = fix[0].edit.changes[editor.uri]
        assert edit.new_text == "grocers-warehouse"
        assert editor.text.splitlines()[edit.range.start.line][edit.range.start.character : edit.range.end.character] == "grocer-warehouse"


async def test_a_broken_buffer_is_a_diagnostic(client: LanguageClient) -> None:
    async with Editor(client, LOCOMOTIVES) as editor:
        seen = await editor.type("cards:", "cards: [")
        assert seen and as_seen(seen) == [(p.line, p.column, files.one_line(p.message)) for p in expected(LOCOMOTIVES, editor.text)]


@pytest.mark.parametrize(
    ("path", "needle", "card", "page"),
    [(FACILITIES, "lockouts: [grocers-warehouse]", "Grocer's Warehouse", "stationmaster/home-deck.html"), (LOCOMOTIVES, "brings: loco-all", "Locomotive [∞]", "trickoftherails/")],
)
async def test_hover_on_a_card_says_what_the_site_says(client: LanguageClient, path: Path, needle: str, card: str, page: str) -> None:
    async with Editor(client, path) as editor:
        word = needle.split()[-1].strip("[]")
        found = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=editor.position(needle, needle.index(word) + 1)))
        assert found is not None and isinstance(found.contents, types.MarkupContent)
        words = found.contents.value
        assert f"**{card}**" in words and "Status:" in words and "Dealt:" in words and "Source:" in words
        assert page in words and f".html#card-{word})" in words


async def test_hover_on_an_effect_names_its_cards_and_handler(client: LanguageClient) -> None:
    async with Editor(client, LOCOMOTIVES) as editor:
        at = editor.text.index("effect: ") + len("effect: ")
        found = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=editor.position("effect: ", len("effect: "))))
        assert found is not None and isinstance(found.contents, types.MarkupContent)
        effect = editor.text[at:].split()[0].strip(",}")
        assert f"effect `{effect}`" in found.contents.value and "Used by:" in found.contents.value and "Handler:" in found.contents.value


def spanned(text: str, where: types.Range) -> str:
    return text.splitlines()[where.start.line][where.start.character : where.end.character]


@pytest.mark.parametrize(("path", "needle"), [(FACILITIES, "lockouts: [grocers-warehouse]"), (LOCOMOTIVES, "brings: loco-all")])
async def test_definition_and_references(client: LanguageClient, path: Path, needle: str) -> None:
    async with Editor(client, path) as editor:
        word = needle.split()[-1].strip("[]")
        here = editor.position(needle, needle.index(word))
        found = await client.text_document_definition_async(types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=here))
        assert isinstance(found, list) and len(found) == 1
        assert spanned(editor.text, found[0].range) == word
        assert f"id: {word}" in editor.text.splitlines()[found[0].range.start.line]
        refs = await client.text_document_references_async(
            types.ReferenceParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=here, context=types.ReferenceContext(include_declaration=True))
        )
        assert refs is not None and len(refs) >= 2 and any(r.range == found[0].range for r in refs)


async def test_references_reach_other_files(client: LanguageClient) -> None:
    async with Editor(client, SM / "game.yaml") as editor:
        refs = await client.text_document_references_async(
            types.ReferenceParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=editor.position("homeDeck-0.8.6:", 2), context=types.ReferenceContext(include_declaration=False))
        )
        assert refs is not None and len({r.uri for r in refs}) > 3


async def test_completion_offers_the_records_a_field_names(client: LanguageClient) -> None:
    async with Editor(client, FACILITIES) as editor:
        await editor.type("lockouts: [grocers-warehouse]", "lockouts: [gro]")
        found = await client.text_document_completion_async(types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=editor.position("lockouts: [gro]", 14)))
        labels = [i.label for i in (found.items if isinstance(found, types.CompletionList) else found or [])]
        assert "grocers-warehouse" in labels and "packing-sheds" in labels and "homeDeck-0.8.6" not in labels
    async with Editor(client, LOCOMOTIVES) as editor:
        found = await client.text_document_completion_async(types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=editor.position("effect: ", 8)))
        labels = [i.label for i in (found.items if isinstance(found, types.CompletionList) else found or [])]
        effects = (TOTR / "effects.yaml").read_text(encoding="utf-8")
        assert labels and all(f"id: {label}" in effects for label in labels)


async def test_document_symbols_are_one_per_card(client: LanguageClient) -> None:
    async with Editor(client, LOCOMOTIVES) as editor:
        found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=editor.uri)))
        assert found is not None
        assert [s.name for s in found] == re.findall(r"^  - \{id: ([a-z0-9-]+)", editor.text, re.MULTILINE)


@pytest.mark.parametrize(("path", "needle", "taken"), [(FACILITIES, "- id: grocers-warehouse", "coal-mine"), (LOCOMOTIVES, "{id: loco-all", "loco-3")])
async def test_rename_rewrites_every_mention_and_refuses_a_taken_id(client: LanguageClient, path: Path, needle: str, taken: str) -> None:
    async with Editor(client, path) as editor:
        here = editor.position(needle, needle.index("id: ") + 4)
        edit = await client.text_document_rename_async(types.RenameParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=here, new_name="brand-new-id"))
        assert edit is not None and edit.changes
        refs = await client.text_document_references_async(
            types.ReferenceParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=here, context=types.ReferenceContext(include_declaration=True))
        )
        assert sorted((uri, e.range.start.line, e.range.start.character) for uri, edits in edit.changes.items() for e in edits) == sorted(
            (r.uri, r.range.start.line, r.range.start.character) for r in refs or []
        )
        with pytest.raises(Exception, match="already an id"):
            await client.text_document_rename_async(types.RenameParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=here, new_name=taken))


async def test_rename_refuses_an_effect_the_engine_handles(client: LanguageClient) -> None:
    async with Editor(client, LOCOMOTIVES) as editor:
        here = editor.position("effect: place-locomotive", len("effect: "))
        with pytest.raises(Exception, match="handler"):
            await client.text_document_rename_async(types.RenameParams(text_document=types.TextDocumentIdentifier(uri=editor.uri), position=here, new_name="put-locomotive"))


async def test_a_file_outside_every_pack_gets_nothing(client: LanguageClient, tmp_path: Path) -> None:
    stray = PROJECT_ROOT / "README.md"
    uri = stray.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text="# x\n")))
    found = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))
    assert found is None and uri not in client.diagnostics
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
