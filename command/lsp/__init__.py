"""``stationmaster lsp``: a language server that tells a designer, while
typing, what ``validate`` says of the pack, and what the engine and the
rules site make of each card (hover), with navigation, completion and
rename of ids. One module per job: ``server`` (the wiring), ``workspace``
(the packs, checked from the editor's buffers), ``diagnostics``, ``hover``
and ``cardfacts``, ``navigation``, ``completion``, ``rename``, and
``fields`` and ``index`` (where ids are written, from the schemas)."""

from __future__ import annotations

import argparse
from typing import Any

from command.commands import LSP_HELP


def add_parser(sub: Any) -> None:
    sub.add_parser("lsp", help=LSP_HELP, description=LSP_HELP)


def run(args: argparse.Namespace) -> int:
    from command.lsp.server import serve

    return serve()
