"""``files.overlaid``: the text an editor holds stands in for a file while
the block runs (the language server checks unsaved buffers with the very
loader ``validate`` runs), and only then."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.content import files


def test_a_buffer_stands_in_for_its_file_only_inside_the_block(tmp_path: Path) -> None:
    card = tmp_path / "cards.yaml"
    card.write_bytes(b"on disk\n")
    with files.overlaid({str(card): b"in the editor\n"}):
        assert files.read_bytes(card) == b"in the editor\n"
    assert files.read_bytes(card) == b"on disk\n"


def test_a_buffer_past_the_limit_is_refused_as_a_file_would_be(tmp_path: Path) -> None:
    card = tmp_path / "cards.yaml"
    card.write_bytes(b"")
    with files.overlaid({str(card): b"x" * 11}), pytest.raises(files.Unreadable) as refused:
        files.read_bytes(card, limit=10)
    assert refused.value.too_big
