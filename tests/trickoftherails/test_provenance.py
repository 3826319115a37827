"""Trick of the Rails' content held against the documents it cites.

Each source in game.yaml names the project document that records it
(``seeds/004`` for the game help, ``games/trick-of-the-rails.md`` for the
rulebook's first page and the Board Game Arena adaptation); they live in
``../shared`` beside the project. Here:

- every declared source names a document that exists;
- every company, City and the Station Values matrix appear in that
  document, as the content has them (so a value typed wrong is caught);
- every locomotive's reach and cost appear there;
- every effect the seed is cited for is a rule the seed describes (it names
  the kind of card the effect belongs to).
"""

from __future__ import annotations

import re

import pytest

from engine.trickoftherails.content.model import KIND_NAMES, Catalog
from tests.kit.project import PROJECT_ROOT
from tests.kit.trickoftherails import CATALOG

SHARED = PROJECT_ROOT.parent / "shared"

pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason=f"the source documents are not at {SHARED}")


def document(edition_id: str) -> str:
    where = CATALOG.editions[edition_id].document
    found = sorted(SHARED.glob(where + "*"))
    assert len(found) == 1, f"source '{edition_id}' names document {where!r}; {SHARED} holds {[p.name for p in found]}"
    return found[0].read_text(encoding="utf-8")


def test_every_source_names_a_document(catalog: Catalog) -> None:
    for edition_id in catalog.editions:
        assert document(edition_id)


def test_companies_and_cities_are_printed_by_their_source(catalog: Catalog) -> None:
    for company in catalog.companies:
        assert company.source.edition is not None
        assert re.search(rf"(?<![\w&]){re.escape(company.name)}(?![\w&])", document(company.source.edition), re.IGNORECASE), company.name
    for city in catalog.of_family("cities"):
        assert city.source.edition is not None
        assert re.search(rf"{re.escape(city.name)} {city.station_value}\b", document(city.source.edition)), city.name


def test_the_station_values_are_the_documents(catalog: Catalog) -> None:
    text = document("bga")
    for company in catalog.companies:
        values = [c.station_value for c in catalog.railway_cards if c.company == company.id]
        row = " | ".join(str(v) for v in values)
        assert re.search(rf"\*\*{re.escape(company.name)}\*\*[^|]*\| {row} \|", text), f"{company.name}: {row}"


def test_every_locomotive_is_the_documents(catalog: Catalog) -> None:
    text = document("bga")
    for loco in catalog.of_family("locomotives"):
        reach = "∞" if loco.reach is None else str(loco.reach)
        assert f"[{reach}] cost {loco.cost}" in text, loco.name


def test_the_seed_describes_every_effect_cited_to_it(catalog: Catalog) -> None:
    seed = document("seed")
    for effect in catalog.effects.values():
        if effect.source.edition != "seed":
            continue
        kinds = {KIND_NAMES[c.family] for c in catalog.cards if c.effect == effect.id}
        assert kinds and any(kind.split()[0] in seed for kind in kinds), (effect.id, kinds)
