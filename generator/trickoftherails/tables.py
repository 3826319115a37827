"""What each of Trick of the Rails' generated tables shows, computed from the
content and the engine. Dealt comes from ``setup.dealt`` (the code that
builds the lane): yes when setup may put the card in play, so a City drawn
at random among more Cities than slots reads yes, and the lane pictures say
which slots are drawn and Status from the handler registry; the templates under
``generator/templates/trickoftherails/`` only lay the values out."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.content.source import Source
from engine.pack import RuleValue
from engine.rng import SeededStream
from engine.trickoftherails.content.model import KIND_NAMES, Card, Catalog
from engine.trickoftherails.rules.setup import deal, dealt
from engine.trickoftherails.rules.status import MEANINGS, card_status, variant_status
from generator.tableset import EVERY_CONFIGURATION, Facet, Setup, TableSet, dealt_words, listed
from generator.tableset import status_legend as legend_rows
from generator.trickoftherails.board import hand_list, lane_list, railways_table
from generator.trickoftherails.lanes import SlotGroupView, lane_groups, number_word, plural, printed_mark, trick_word
from generator.trickoftherails.svg import OPERATING_FILL, STOCK_FILL, SlotPicture, lane_html
from generator.trickoftherails.walkthrough import Placement, TrickTold, Walkthrough, walkthrough
from generator.trickoftherails.worked import WorkedGame, worked_game

Context = dict[str, Any]


def _facets(catalog: Catalog) -> tuple[list[Facet], list[tuple[Setup, int, str]]]:
    """How the configurations Dealt is asked over differ (the player count,
    then the lane: basic or Expert), and each one as (its values, players,
    variant)."""
    variants = ["basic"] + (["expert"] if "expert" in catalog.variants else [])
    lanes = {v: "the basic Trick Lane" if v == "basic" else f"the {catalog.variants[v].name}" for v in variants}
    counts = tuple(str(p) for p in catalog.player_counts)
    facets = [
        Facet(counts, lambda chosen: f"at {listed(list(chosen))} players"),
        Facet(tuple(variants), lambda chosen: "in " + listed([lanes[v] for v in chosen], "or"), "basic"),
    ]
    return facets, [((str(players), variant), players, variant) for variant in variants for players in catalog.player_counts]


def configuration_label(catalog: Catalog, players: int | None, rules: Mapping[str, RuleValue]) -> str:
    """The export's label for a configuration: the player count, and Expert
    for the Expert lane."""
    parts = [f"{players}p"] if players is not None else []
    return ", ".join(parts + (["Expert"] if rules.get("variant") == "expert" else []))


def _rows(catalog: Catalog, cards: Sequence[Card], extra: Callable[[Card], Context]) -> Context:
    facets, setups = _facets(catalog)
    answers = {card.id: {key: dealt(catalog, card, players, variant) != "no" for key, players, variant in setups} for card in cards}
    # "every configuration" where the table also holds a card some configuration leaves out.
    varies = any(len(set(flags.values())) > 1 for flags in answers.values())
    rows = [
        {
            "id": card.id,
            "name": card.name,
            "designed": card.source.designed,
            "source": card.source.edition or "designed",
            "status": card_status(catalog, card),
            "dealt": dealt_words(facets, answers[card.id], every=EVERY_CONFIGURATION if varies else "yes"),
            **extra(card),
        }
        for card in cards
    ]
    return {"rows": rows}


def components(catalog: Catalog) -> Context:
    """Every card but the Railway cards (the Station Values matrix holds those) and the Locomotives (their own table)."""
    cards = [c for c in catalog.cards if c.family not in ("railway", "locomotives")]

    def extra(card: Card) -> Context:
        company = catalog.company(card.company).name if card.company else None
        value = str(card.station_value) if card.station_value is not None else "—"
        return {"kind": KIND_NAMES[card.family], "company": company, "value": value}

    return _rows(catalog, cards, extra)


def _number_range(catalog: Catalog) -> str:
    numbers = sorted({c.number for c in catalog.railway_cards if c.number is not None})
    return f"{numbers[0]} to {numbers[-1]}" if numbers else ""


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
    return {"rows": by_company, "numbers": _number_range(catalog)}


def station_values(catalog: Catalog) -> Context:
    """The Station Values matrix: company by number, each cell a card (its anchor)."""
    numbers = sorted({c.number for c in catalog.railway_cards if c.number is not None})
    rows = []
    for company in catalog.companies:
        cells = {c.number: c for c in catalog.railway_cards if c.company == company.id}
        # The row is the home of the company's first card: links to its cards land on it.
        rows.append(
            {
                "id": cells[numbers[0]].id,
                "company": company.name,
                "colour": company.colour,
                "cells": [{"id": cells[n].id, "value": cells[n].station_value, "designed": cells[n].source.designed} for n in numbers],
            }
        )
    return {"numbers": numbers, "rows": rows}


def locomotives(catalog: Catalog) -> Context:
    brought = {c.brings: c for c in catalog.of_family("locomotives") if c.brings}

    def extra(card: Card) -> Context:
        reach = "the whole railway" if card.reach is None else f"{card.reach} cards"
        bringer = brought.get(card.id)
        # A brought card's placing differs by variant: its effect's summary says how.
        how = f"brought by {bringer.name}. {catalog.effects[card.effect].summary}" if bringer is not None and card.effect is not None else "by the winner of its trick"
        return {"reach": reach, "cost": card.cost, "placed": how}

    return _rows(catalog, catalog.of_family("locomotives"), extra)


def _cards_of(catalog: Catalog, kind: str) -> list[Card]:
    return [c for c in catalog.cards if c.family == kind]


def at_a_glance(catalog: Catalog) -> Context:
    """The game in a few lines, for the section's home page."""
    counts = [str(p) for p in catalog.player_counts]
    players = counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"
    kinds = [(family, name) for family, name in KIND_NAMES.items() if _cards_of(catalog, family)]
    variants = [{"name": v.name, "players": " or ".join(str(p) for p in v.players) if v.players else "", "status": variant_status(v.id)} for v in catalog.variants.values()]
    return {
        "players": players,
        "companies": [c.name for c in catalog.companies],
        "kinds": [(_cards_of(catalog, family)[0].id, plural(name, 2)) for family, name in kinds],
        "variants": variants,
        "published": [{"year": p.year, "publisher": p.publisher, "edition": p.edition, "sources": ", ".join(p.sources), "note": p.note} for p in catalog.published],
    }


def deal_figures(catalog: Catalog) -> Context:
    """Per player count: the deal, the starting track and the tricks, each
    counted by the engine's own setup (``setup.deal``, ``lane_plan``)."""
    rows = []
    for players in catalog.player_counts:
        hands, starting = deal(catalog, players, SeededStream(0))
        groups = lane_groups(catalog, players, "basic")
        stock = sum(len(g.slots) for g in groups if g.stock)
        tricks = sum(len(g.slots) for g in groups)
        rows.append({"players": players, "hand": len(hands[0]), "starting": len(starting), "tricks": tricks, "stock": stock, "operating": tricks - stock})
    return {"rows": rows}


def quick_reference(catalog: Catalog) -> Context:
    """How a trick goes and is scored (``quickref``'s words, which the
    terminal game's help prints too), then the figures a player looks up
    mid-game, from the content and the engine's setup: hands and tricks per player count, every Locomotive's
    reach and cost, every City's station value, the Railway cards' and
    Stations' station values, and the share floor."""
    railway_values = sorted({c.station_value for c in catalog.railway_cards if c.station_value is not None})
    stations = sorted({c.station_value for c in catalog.of_family("stations") if c.station_value is not None})
    from generator.trickoftherails.quickref import paragraphs

    return {
        "paragraphs": [{"lines": textwrap.wrap(text, 75, break_on_hyphens=False)} for text in paragraphs("**")],
        "deal": deal_figures(catalog)["rows"],
        "locomotives": [{"card": (c.id, c.name), "reach": "the whole railway" if c.reach is None else f"{c.reach} cards", "cost": c.cost or 0} for c in catalog.of_family("locomotives")],
        "cities": [{"card": (c.id, c.name), "value": c.station_value or 0} for c in catalog.of_family("cities")],
        "railway_values": ", ".join(str(v) for v in railway_values),
        "station_values": " or ".join(str(v) for v in stations),
        "floor": catalog.share_floor,
        "ties_share": catalog.ties_share_the_win,
    }


def _lane(catalog: Catalog, players: int, variant: str) -> Context:
    groups = lane_groups(catalog, players, variant)
    by_slot: dict[int, SlotGroupView] = {i: g for g in groups for i in g.slots}
    pictures = [
        SlotPicture(
            kind=g.kind,
            mark=g.mark,
            follower=printed_mark(g.follower) if g.follower is not None else "",
            note=g.note,
            stock=g.stock,
            drawn=g.drawn,
        )
        for g in (by_slot[i] for i in sorted(by_slot))
    ]
    label = "Expert" if variant == "expert" else "basic"
    title = f"The Trick Lane for {players} players ({label} game), read left to right"
    return {
        "players": players,
        "variant": variant,
        "slots": len(by_slot),
        "stock": sum(len(g.slots) for g in groups if g.stock),
        "picture": lane_html(pictures, title),
        "groups": [
            {
                "slots": g.slots_text,
                "trick": trick_word(g.stock),
                "plural": len(g.slots) > 1,
                "summary": g.summary,
                "copies": g.copies_note,
                "cards": [(c.id, c.name) for c in g.cards],
                "brought": [{"by": (b.id, b.name), "card": (f.id, f.name)} for b, f in g.brought],
                "single": len(g.cards) == 1,
            }
            for g in groups
        ],
    }


def _lanes(catalog: Catalog, variant: str) -> Context:
    return {
        "lanes": [_lane(catalog, players, variant) for players in catalog.player_counts],
        "stock_colour": STOCK_FILL,
        "operating_colour": OPERATING_FILL,
    }


def trick_lanes(catalog: Catalog) -> Context:
    """The basic Trick Lane for each player count, as a picture and in words."""
    return _lanes(catalog, "basic")


def expert_trick_lanes(catalog: Catalog) -> Context:
    """The Expert Trick Lane for each player count (no lanes when the content has no Expert variant)."""
    return _lanes(catalog, "expert") if "expert" in catalog.variants else {"lanes": [], "stock_colour": STOCK_FILL, "operating_colour": OPERATING_FILL}


def share_floor(catalog: Catalog) -> Context:
    return {"floor": catalog.share_floor}


def _in_railway(card: Card) -> str:
    """A card as its company's row shows it: a Railway card by its number, a
    Station as such, any other card by its name."""
    if card.family == "railway" and card.number is not None:
        return str(card.number)
    return KIND_NAMES[card.family] if card.family == "stations" else card.name


def _which_game(game: WorkedGame | Walkthrough) -> Context:
    """What says which seeded game a page shows, the same words on both
    pages that replay one."""
    return {"seed": game.seed, "players": game.players, "players_word": number_word(game.players), "bot": game.bot, "variant": game.variant}


def worked_example(catalog: Catalog) -> Context:
    """One seeded game played to the end and scored by the engine (``worked.py``)."""
    game = worked_game(catalog)
    railways = []
    for r in game.railways:
        loco = r.locomotive
        railways.append(
            {
                "company": r.company.name,
                "cards": [{"name": _in_railway(c), "value": c.station_value or 0, "in_run": i in r.run} for i, c in enumerate(r.cards)],
                "locomotive": (loco.id, loco.name) if loco is not None else None,
                "reach": ("the whole railway" if loco.reach is None else f"{loco.reach} cards") if loco is not None else "",
                "cost": (loco.cost or 0) if loco is not None else 0,
                "profit": r.profit,
                "value": r.share_value,
                "whole": len(r.run) == len(r.cards),
            }
        )
    values = {r.company.id: r.share_value for r in game.railways}
    players = [
        {
            "seat": p.seat + 1,
            "shares": [{"company": company.name, "held": held, "value": values[company.id], "worth": held * values[company.id]} for company, held in p.shares if held],
            "score": p.score,
        }
        for p in game.scores
    ]
    winners = [w + 1 for w in game.winners]
    return {
        **_which_game(game),
        "actions": game.actions,
        "railways": railways,
        "scores": players,
        "winners": winners,
        "top": max(p.score for p in game.scores),
        "floor": catalog.share_floor,
    }


def _seat(player: int) -> str:
    return f"Player {player + 1}"


def _played(told: TrickTold) -> str:
    """The cards of a trick as a sentence: who led what, who followed, who
    could not, and who won."""
    led = told.plays[0][1]
    parts = [f"{_seat(told.leader)} leads {led.name}"]
    for seat, card in told.plays[1:]:
        if card.company == led.company:
            parts.append(f"{_seat(seat)} follows with {card.name}")
        else:
            parts.append(f"{_seat(seat)}, holding no {_company_name(told, led)}, plays {card.name}")
    winning = next(card for seat, card in told.plays if seat == told.winner)
    return "; ".join(parts) + f". {_seat(told.winner)} wins with {winning.name}, the highest {_company_name(told, led)} played."


def _company_name(told: TrickTold, card: Card) -> str:
    return next(r.company.name for r in told.railways if r.company.id == card.company)


def _where(placement: Placement) -> str:
    if placement.end is None:
        return f"at the head of the {placement.company.name} railway"
    return f"at the {placement.end} end of the {placement.company.name} railway"


def _outcome(told: TrickTold) -> list[str]:
    """What the lane card made of the trick, a line a step."""
    if told.kind == "stock":
        winner, prize = told.shares[0]
        lines = [f"{_seat(winner)} takes the {prize.name} as a share of {_company_name(told, prize)}."]
        played = next(card for seat, card in told.plays if seat == told.winner)
        if told.reserved is not None:
            lines.append(f"{_seat(told.winner)}'s {played.name} takes the place of the first Reservation in the lane, a prize for a later stock trick; the Reservation leaves the game.")
        else:
            lines.append(f"{_seat(told.winner)}'s {played.name} leaves the game.")
        kept = [f"{_seat(seat)} keeps {card.name}" for seat, card in told.shares[1:]]
        lines.append("; ".join(kept) + ", each a share of its own company.")
        return lines
    lines = []
    for placement in told.placements:
        if placement.card.family == "railway":
            lines.append(f"{_seat(placement.player)} lays {placement.card.name} {_where(placement)}.")
        elif placement.chosen:
            lines.append(f"{_seat(placement.player)} puts {placement.card.name} {_where(placement)}.")
        else:
            lines.append(f"{placement.card.name} comes with it and goes by itself {_where(placement)}, the last without a Locomotive.")
    return lines


_KIND_HEADING = {"stock": "a stock trick", "city": "a City trick", "locomotive": "a Locomotive trick"}


def example_game(catalog: Catalog) -> Context:
    """The worked game, trick by trick (``walkthrough.py``), laid out as
    sentences and the HTML of ``board.py``."""
    game = walkthrough(catalog)
    names = [c.name for c in catalog.companies]
    tricks = []
    for told in game.tricks:
        held = [{"seat": _seat(p), "shares": ", ".join(f"{number_word(n)} {name}" for name, n in zip(names, counts) if n) or "none"} for p, counts in enumerate(told.held)]
        tricks.append(
            {
                "number": told.number,
                "kind": _KIND_HEADING[told.kind],
                "front": (told.lane[0].id, told.lane[0].name),
                "lane": lane_list(told.lane, f"The Trick Lane before trick {told.number}, front first"),
                "played": _played(told),
                "outcome": _outcome(told),
                "railways": railways_table(told.railways, f"The railways after trick {told.number}") if told.kind != "stock" else "",
                "held": held if told.kind == "stock" else [],
            }
        )
    top = max(game.scores)
    return {
        **_which_game(game),
        "hands": [{"seat": _seat(p), "cards": hand_list(hand, f"{_seat(p)}'s hand")} for p, hand in enumerate(game.hands)],
        "first": _seat(game.tricks[0].leader),
        "start": railways_table(game.start, "The railways after setup"),
        "tricks": tricks,
        "scores": [{"seat": _seat(p), "score": score, "won": p in game.winners} for p, score in enumerate(game.scores)],
        "top": top,
    }


def _source_text(source: Source) -> str:
    return source.edition or "designed"


def _records(catalog: Catalog) -> list[Context]:
    """Every sourced record of the content, one row each, except the Railway
    cards: one row per company's run of numbers (they share a source)."""
    found: list[Context] = []
    numbers = _number_range(catalog)
    for company in catalog.companies:
        found.append({"what": company.name, "kind": "company", "value": f"its name and colour ({company.colour})", "card": None, "source": company.source})
        cards = [c for c in catalog.railway_cards if c.company == company.id]
        sources = {c.source for c in cards}
        if len(sources) == 1 and cards:
            found.append({"what": f"{company.name} {numbers}", "kind": KIND_NAMES["railway"], "value": "station values", "card": cards[0].id, "source": cards[0].source})
        else:
            found += [{"what": c.name, "kind": KIND_NAMES["railway"], "value": f"station value {c.station_value}", "card": c.id, "source": c.source} for c in cards]
    for card in catalog.cards:
        if card.family == "railway":
            continue
        facts = []
        if card.station_value is not None:
            facts.append(f"station value {card.station_value}")
        if card.is_locomotive:
            facts.append("reach: the whole railway" if card.reach is None else f"reach {card.reach}")
            facts.append(f"cost {card.cost}")
        if card.company is not None and card.family == "exchanges":
            facts.append(f"a share of {catalog.company(card.company).name}")
        found.append({"what": card.name, "kind": KIND_NAMES[card.family], "value": ", ".join(facts) or "what it does", "card": card.id, "source": card.source})
    for hand in catalog.hands.values():
        found.append({"what": f"{hand.players} players", "kind": "hand size", "value": f"{hand.cards} cards each", "card": None, "source": hand.source})
    for layout in catalog.layouts.values():
        found.append(
            {
                "what": f"{layout.players} players",
                "kind": "Trick Lane",
                "value": "the basic and the Expert layouts",
                "card": None,
                "href": f"rules.md#lane-basic-{layout.players}",
                "source": layout.source,
            }
        )
    for variant in catalog.variants.values():
        found.append({"what": variant.name, "kind": "variant", "value": variant.summary, "card": None, "source": variant.source})
    for effect in catalog.effects.values():
        found.append({"what": effect.id, "code": True, "kind": "effect", "value": effect.summary, "card": None, "source": effect.source})
    for value in catalog.values:
        shown = ", ".join(catalog.by_id[part].name if part in catalog.by_id else part for part in value.value.split(", "))
        found.append({"what": value.key, "code": True, "kind": value.kind, "value": shown, "setting": True, "card": None, "source": value.source})
    return [{"card": None, "code": False, "href": None, "setting": False, **record} for record in found]


def designed_values(catalog: Catalog) -> Context:
    """Every value whose source is ``designed``, with the reason the content gives."""
    rows = [{**r, "reason": r["source"].reason} for r in _records(catalog) if r["source"].designed]
    return {"rows": rows}


# The edition no second source confirms: the Board Game Arena adaptation is the
# only source found that prints every card value and lane layout (the sources
# page marks these [single: BGA]); the rulebook and the game help agree with
# the reviews where they overlap.
SINGLE_SOURCE = "bga"


def single_source(catalog: Catalog) -> Context:
    """Every value that only one source gives: the Board Game Arena adaptation's."""
    edition = catalog.editions.get(SINGLE_SOURCE)
    rows = [r for r in _records(catalog) if r["source"].edition == SINGLE_SOURCE]
    return {"rows": rows, "edition": edition.title if edition is not None else "", "version": edition.version if edition is not None else ""}


def simulation_sweep(catalog: Catalog) -> Context:
    # The plan lives with the pack's other report plans (``simulation.py``).
    from generator.trickoftherails.simulation import simulation_sweep as measured

    return measured(catalog)


def status_legend(catalog: Catalog) -> Context:
    return legend_rows(MEANINGS)


TABLES: dict[str, Callable[[Catalog], Context]] = {
    fn.__name__.replace("_", "-"): fn
    for fn in (
        components,
        railway_cards,
        station_values,
        locomotives,
        at_a_glance,
        deal_figures,
        quick_reference,
        trick_lanes,
        expert_trick_lanes,
        share_floor,
        worked_example,
        example_game,
        designed_values,
        single_source,
        simulation_sweep,
        status_legend,
    )
}
# Generated columns whose numbers are rule figures (a station value, a cost,
# the Station Values matrix's columns by card number, what the worked game
# scored), never copies.
NUMERIC_COLUMNS = ("Station value", "Cost", "[0-9]+", "Best run", "Share value", "Score")
TABLE_SET = TableSet(
    templates="trickoftherails",
    tables=TABLES,
    # Seconds of play: measured by their own step (generator.reports).
    reports=frozenset({"simulation-sweep"}),
    links_only=frozenset({"railway-cards", "at-a-glance", "quick-reference", "trick-lanes", "expert-trick-lanes", "worked-example", "example-game", "designed-values", "single-source"}),
    numeric_columns=NUMERIC_COLUMNS,
    configuration_label=configuration_label,
)
