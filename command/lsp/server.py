"""``stationmaster lsp``: the language server's wiring (pygls over stdio).

Each handler turns the editor's positions into the kit's (0-based lines,
characters counted in code points) and back, and asks the other modules of
this folder. A check of the edited pack runs a moment after the last
keystroke (``DEBOUNCE``), so typing a word costs one check, not one a key.
No handler lets an error out: a request it cannot answer is answered with
nothing, and the error is logged to the editor and to stderr.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from command.lsp import completion, diagnostics, hover, navigation, rename
from command.lsp.index import FileIndex, Mention, PackIndex, Span
from command.lsp.workspace import Workspace

log = logging.getLogger("stationmaster.lsp")
DEBOUNCE = 0.1  # seconds after the last change before the pack is checked again
# The JSON-RPC code for a request the server understood but cannot do.
REQUEST_FAILED = -32803
Handler = TypeVar("Handler", bound=Callable[..., Any])


class KitServer(LanguageServer):
    """The server and what it holds between requests."""

    def __init__(self) -> None:
        super().__init__("stationmaster", "1", text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.kit: Workspace | None = None
        self.facts: hover.Facts | None = None
        self.pending: dict[Path, asyncio.TimerHandle] = {}
        self.published: dict[Path, set[Path]] = {}
        self.closed: set[Path] = set()  # files closed since their pack's last check
        self.split: dict[Path, tuple[str, list[str]]] = {}

    # -- the workspace ---------------------------------------------------------

    def workspace_kit(self) -> Workspace:
        if self.kit is None:
            root = Path(self.workspace.root_path or os.getcwd()).resolve()
            try:
                # Problems name files as validate does, run from the workspace's top.
                os.chdir(root)
            except OSError as exc:
                log.error("cannot work from %s: %s", root, exc)
            self.kit = Workspace(root)
            self.facts = hover.Facts(root)
        self.kit.buffers = {str(Path(to_fs_path(uri) or "")): doc.source for uri, doc in self.workspace.text_documents.items() if to_fs_path(uri)}
        return self.kit

    def lines(self, path: Path) -> list[str]:
        """The file's lines as the editor holds them (split once per text)."""
        kit = self.kit if self.kit is not None else self.workspace_kit()
        text = kit.text(path)
        if text is None:
            return []
        kept = self.split.get(path)
        if kept is None or kept[0] != text:
            kept = (text, text.split("\n"))
            self.split[path] = kept
        return kept[1]

    def to_client(self, path: Path, line: int, character: int) -> types.Position:
        return self.workspace.position_codec.position_to_client_units(self.lines(path), types.Position(line, character))

    def span_range(self, span: Span) -> types.Range:
        path = Path(span.path)
        return types.Range(self.to_client(path, span.line, span.start), self.to_client(path, span.line, span.end))

    def location(self, span: Span) -> types.Location:
        return types.Location(uri=from_fs_path(span.path) or span.path, range=self.span_range(span))

    def at(self, uri: str, position: types.Position) -> tuple[Path, Path, PackIndex, Mention] | None:
        """The file, its pack folder, the pack's index and the id under the cursor (None: no id there)."""
        fs = to_fs_path(uri)
        if not fs:
            return None
        path = Path(fs)
        folder = self.workspace_kit().folder_of(path)
        if folder is None:
            log.info("%s is in no pack under %s: nothing to say", path, self.workspace_kit().content)
            return None
        index = self.workspace_kit().index(folder)
        here = self.workspace.position_codec.position_from_client_units(self.lines(path), position)
        mention = index.at(str(path), here.line, here.character)
        return (path, folder, index, mention) if mention is not None else None

    # -- checking --------------------------------------------------------------

    def schedule(self, uri: str, delay: float = DEBOUNCE) -> None:
        fs = to_fs_path(uri)
        if not fs:
            return
        folder = self.workspace_kit().folder_of(Path(fs))
        if folder is None:
            log.info("%s is in no pack under %s: not checked", fs, self.workspace_kit().content)
            return
        waiting = self.pending.pop(folder, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[folder] = asyncio.get_running_loop().call_later(delay, self.check, folder)

    def check(self, folder: Path) -> None:
        self.pending.pop(folder, None)
        try:
            kit = self.workspace_kit()
            checked = kit.check(folder)
            found = diagnostics.diagnostics(checked, kit.text, self.to_client)
        except Exception as exc:  # noqa: BLE001 - a check that fails is logged, never the server's end
            report(self, f"checking {folder} failed: {type(exc).__name__}: {exc}")
            return
        # Every open file of the pack hears the outcome, a clean one too, and
        # so does every file that had problems before.
        shown = {Path(p) for p in kit.buffers if kit.folder_of(Path(p)) == folder} | {p for p in self.closed if kit.folder_of(p) == folder}
        self.closed -= shown
        for path in sorted(self.published.get(folder, set()) | shown | set(found)):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=from_fs_path(str(path)) or str(path), diagnostics=found.get(path, [])))
        self.published[folder] = set(found)


def report(server: LanguageServer, message: str) -> None:
    """Log an error to stderr and, while the editor listens, to its log."""
    log.error("%s", message)
    try:
        server.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))
    except Exception:  # noqa: BLE001 - the editor may be gone already
        pass


def guarded(default: Any) -> Callable[[Handler], Handler]:
    """A handler that answers ``default`` instead of raising: the error is logged."""

    def wrap(handler: Handler) -> Handler:
        @functools.wraps(handler)
        def run(server: KitServer, params: Any) -> Any:
            try:
                return handler(server, params)
            except JsonRpcException:
                raise  # an answer the editor shows (a refused rename)
            except Exception as exc:  # noqa: BLE001 - the server outlives any request
                report(server, f"{handler.__name__} failed: {type(exc).__name__}: {exc}")
                return default

        return cast(Handler, run)

    return wrap


def make_server() -> KitServer:
    server = KitServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded(None)
    def did_open(ls: KitServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded(None)
    def did_change(ls: KitServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded(None)
    def did_close(ls: KitServer, params: types.DidCloseTextDocumentParams) -> None:
        fs = to_fs_path(params.text_document.uri)
        if fs:
            ls.closed.add(Path(fs))
        ls.schedule(params.text_document.uri, 0)  # what is on disk now stands

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded(None)
    def did_save(ls: KitServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded(None)
    def on_hover(ls: KitServer, params: types.HoverParams) -> types.Hover | None:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return None
        _, folder, index, mention = found
        loaded = ls.workspace_kit().loaded(folder)
        if loaded is None or ls.facts is None:
            return None
        text = hover.hover_text(mention, index, loaded[0], loaded[1], ls.facts)
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text), range=ls.span_range(mention.span))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded([])
    def on_definition(ls: KitServer, params: types.DefinitionParams) -> list[types.Location]:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return []
        return [ls.location(span) for span in navigation.definition(found[2], found[3])]

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @guarded([])
    def on_references(ls: KitServer, params: types.ReferenceParams) -> list[types.Location]:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return []
        return [ls.location(span) for span in navigation.references(found[2], found[3], params.context.include_declaration)]

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded([])
    def on_symbols(ls: KitServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        fs = to_fs_path(params.text_document.uri)
        path = Path(fs) if fs else None
        folder = ls.workspace_kit().folder_of(path) if path else None
        if path is None or folder is None:
            return []
        index: FileIndex | None = ls.workspace_kit().index(folder).files.get(str(path))
        symbols = []
        for record in navigation.outline(index):
            first_line, first, last_line, last = record.whole
            whole = types.Range(ls.to_client(path, first_line, first), ls.to_client(path, last_line, last))
            symbols.append(types.DocumentSymbol(name=record.id, detail=record.name or record.family, kind=types.SymbolKind.Object, range=whole, selection_range=ls.span_range(record.id_span)))
        return symbols

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", "[", ","]))
    @guarded(None)
    def on_completion(ls: KitServer, params: types.CompletionParams) -> types.CompletionList | None:
        fs = to_fs_path(params.text_document.uri)
        path = Path(fs) if fs else None
        folder = ls.workspace_kit().folder_of(path) if path else None
        if path is None or folder is None:
            return None
        index = ls.workspace_kit().index(folder)
        lines = ls.lines(path)
        here = ls.workspace.position_codec.position_from_client_units(lines, params.position)
        family = index.files[str(path)].family if str(path) in index.files else None
        items = []
        for offer in completion.offers(index, family, lines, here.line, here.character):
            edit = types.TextEdit(range=types.Range(ls.to_client(path, here.line, offer.start), ls.to_client(path, here.line, offer.end)), new_text=offer.label)
            items.append(types.CompletionItem(label=offer.label, detail=offer.detail, kind=types.CompletionItemKind.Reference, text_edit=edit))
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    @guarded([])
    def on_code_action(ls: KitServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return diagnostics.quick_fixes(params.text_document.uri, params.context)

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    @guarded(None)
    def on_prepare_rename(ls: KitServer, params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder | None:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return None
        return types.PrepareRenamePlaceholder(range=ls.span_range(found[3].span), placeholder=found[3].value)

    @server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
    @guarded(None)
    def on_rename(ls: KitServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            raise JsonRpcException("there is no id here to rename", REQUEST_FAILED)
        mention = found[3]
        loaded = ls.workspace_kit().loaded(found[1])
        handled = hover.handler(loaded[0], mention.value) if loaded is not None and mention.kind == hover.EFFECT_KIND else None
        try:
            spans = rename.rename_spans(found[2], mention, params.new_name, handled)
        except rename.RenameRefused as exc:
            raise JsonRpcException(str(exc), REQUEST_FAILED) from None
        changes: dict[str, list[types.TextEdit]] = {}
        for span in spans:
            changes.setdefault(from_fs_path(span.path) or span.path, []).append(types.TextEdit(range=ls.span_range(span), new_text=params.new_name))
        return types.WorkspaceEdit(changes=changes)

    return server


class _OneLine(logging.Formatter):
    """Each logged error on one line, its exception by type and words: a
    client's bad message is the client's, and no traceback of ours."""

    def format(self, record: logging.LogRecord) -> str:
        # A message with a traceback written into it keeps its first line.
        text = " ".join((record.getMessage().strip().splitlines() or [""])[0].split())
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text += f": {type(error).__name__}: {' '.join(str(error).split())}"
        return f"stationmaster lsp: {text}"


def serve() -> int:
    """Run the server on stdin and stdout until the editor leaves."""
    handler = logging.StreamHandler()
    handler.setFormatter(_OneLine())
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    # The server closes its streams when the editor leaves: copies of them,
    # so that the command's own stdout is still there to be flushed.
    with os.fdopen(os.dup(0), "rb") as stdin, os.fdopen(os.dup(1), "wb") as stdout:
        make_server().start_io(stdin, stdout)
    return 0
