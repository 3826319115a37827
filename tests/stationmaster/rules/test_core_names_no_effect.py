"""The rules core names no effect and no card: it reads a card's effect from
the content and raises an event; which effects exist, and what they do, is
the business of the handler modules in ``engine/stationmaster/effects/``.

Every effect id and card id of the catalog, as a quoted literal, is searched
for in every module of ``engine/stationmaster/`` outside ``effects/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.stationmaster.content.model import Catalog
from engine.trickoftherails import load_catalog as load_trick_of_the_rails
from tests.kit.project import PROJECT_ROOT

CORE = PROJECT_ROOT / "engine" / "stationmaster"
TOR = load_trick_of_the_rails(PROJECT_ROOT / "content" / "trickoftherails")


def _literals(text: str) -> list[tuple[int, str]]:
    return [(text.count("\n", 0, m.start()) + 1, m.group(2)) for m in re.finditer(r"""(["'])([A-Za-z0-9_-]+)\1""", text)]


@pytest.mark.parametrize("pack", ["stationmaster", "trickoftherails"])
def test_no_effect_id_or_card_id_in_the_core(catalog: Catalog, pack: str) -> None:
    if pack == "stationmaster":
        names = {card.id for card in catalog.cards} | set(catalog.effects)
    else:
        names = {card.id for card in TOR.cards} | set(TOR.effects) | {company.id for company in TOR.companies}
    core = PROJECT_ROOT / "engine" / pack
    found = [f"{path.relative_to(PROJECT_ROOT)}:{line}: {literal!r}" for path in sorted(core.glob("*.py")) for line, literal in _literals(path.read_text(encoding="utf-8")) if literal in names]
    assert not found, "the core names effects or cards; raise an event and let a handler module act:\n" + "\n".join(found)


def test_the_scan_finds_a_planted_id(tmp_path: Path) -> None:
    planted = 'if card.effect == "red-flag":\n    pass\n'
    assert (1, "red-flag") in _literals(planted)
