"""What each of Trick of the Rails' generated tables shows, computed from the
content and the engine. Dealt comes from ``setup.dealt`` (the code that
builds the lane): yes when setup may put the card in play, so a City drawn
at random among more Cities than slots reads yes, and the lane pictures say
which slots are drawn and Status from the handler registry; the templates under
``generator/templates/trickoftherails/`` only lay the values out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.pack import TableSet
from engine.trickoftherails.content.model import KIND_NAMES, Card, Catalog
from engine.trickoftherails.setup import dealt
from engine.trickoftherails.status import card_status

Context = dict[str, Any]


def _configurations(catalog: Catalog) -> list[tuple[str, int, str]]:
    """Each Dealt column: its heading, player count and lane variant."""
    variants = ["basic"] + (["expert"] if "expert" in catalog.variants else [])
    return [
        (f"Dealt ({players}p{'' if variant == 'basic' else ', Expert'})", players, variant)
        for variant in variants
        for players in catalog.player_counts
    ]


def _rows(catalog: Catalog, cards: Sequence[Card], extra: Callable[[Card], Context]) -> Context:
    columns = _configurations(catalog)
    rows = [
        {
            "id": card.id,
            "name": card.name,
            "designed": card.source.designed,
            "source": card.source.edition or "designed",
            "status": card_status(catalog, card),
            "dealt": [dealt(catalog, card, players, variant) != "no" for _, players, variant in columns],
            **extra(card),
        }
        for card in cards
    ]
    return {"dealt_labels": [label for label, _, _ in columns], "rows": rows}


def components(catalog: Catalog) -> Context:
    """Every card but the Railway cards (the Station Values matrix holds those) and the Locomotives (their own table)."""
    cards = [c for c in catalog.cards if c.family not in ("railway", "locomotives")]

    def extra(card: Card) -> Context:
        company = catalog.company(card.company).name if card.company else "—"
        value = str(card.station_value) if card.station_value is not None else "—"
        return {"kind": KIND_NAMES[card.family], "company": company, "value": value}

    return _rows(catalog, cards, extra)


def railway_cards(catalog: Catalog) -> Context:
    """The Railway cards' status and Dealt, one row per company."""
    context = _rows(catalog, catalog.railway_cards, lambda card: {})
    first = {row["id"]: row for row in context["rows"]}
    by_company = []
    for company in catalog.companies:
        cards = [c for c in catalog.railway_cards if c.company == company.id]
        row = first[cards[0].id]
        same = all(first[c.id]["dealt"] == row["dealt"] and first[c.id]["status"] == row["status"] for c in cards)
        assert same, "every Railway card of a company is set up alike"
        by_company.append({"company": company.name, "ids": [c.id for c in cards], "status": row["status"], "dealt": row["dealt"], "designed": any(c.source.designed for c in cards)})
    return {"dealt_labels": context["dealt_labels"], "rows": by_company}


def station_values(catalog: Catalog) -> Context:
    """The Station Values matrix: company by number, each cell a card (its anchor)."""
    numbers = sorted({c.number for c in catalog.railway_cards if c.number is not None})
    rows = []
    for company in catalog.companies:
        cells = {c.number: c for c in catalog.railway_cards if c.company == company.id}
        rows.append({"company": company.name, "colour": company.colour, "cells": [{"id": cells[n].id, "value": cells[n].station_value, "designed": cells[n].source.designed} for n in numbers]})
    return {"numbers": numbers, "rows": rows}


def locomotives(catalog: Catalog) -> Context:
    brought = {c.brings: c for c in catalog.of_family("locomotives") if c.brings}

    def extra(card: Card) -> Context:
        reach = "the whole railway" if card.reach is None else f"{card.reach} cards"
        bringer = brought.get(card.id)
        how = f"with {bringer.name}, at once" if bringer is not None else "from the Trick Lane, by the trick's winner"
        return {"reach": reach, "cost": card.cost, "placed": how}

    return _rows(catalog, catalog.of_family("locomotives"), extra)


TABLES: dict[str, Callable[[Catalog], Context]] = {
    fn.__name__.replace("_", "-"): fn for fn in (components, railway_cards, station_values, locomotives)
}
# Generated columns whose numbers are rule figures (a station value, a cost,
# the Station Values matrix's columns by card number), never copies.
NUMERIC_COLUMNS = ("Station value", "Cost", "[0-9]+")
TABLE_SET = TableSet(templates="trickoftherails", tables=TABLES, links_only=frozenset({"railway-cards"}), numeric_columns=NUMERIC_COLUMNS)
