"""Trick of the Rails' pages for a reader learning the game: the example
game told trick by trick (replayed here from its seed, independently of
``walkthrough.py``, and compared trick by trick with what the page says),
the quick reference (every figure from the content, none typed in its
prose), the game's index (it lists the pages the nav lists), and the
Components page (it opens with the cards)."""

from __future__ import annotations

import dataclasses
import html
import re

import yaml

from engine.trickoftherails.bots import BOT_FUNCTIONS
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.game import Game
from engine.trickoftherails.rules.lanecards import trick_kind
from engine.trickoftherails.rules.state import GameState
from generator.trickoftherails.tables import TABLE_SET, example_game, quick_reference
from generator.trickoftherails.walkthrough import walkthrough
from generator.trickoftherails.worked import WORKED_BOT, WORKED_PLAYERS, WORKED_SEED
from tests.kit.pages import split_page
from tests.kit.project import PROJECT_ROOT

SITE = PROJECT_ROOT / "site" / "trickoftherails"
KIND_WORDS = {"stock": "a stock trick", "city": "a City trick", "locomotive": "a Locomotive trick"}


def _tricks_played(catalog: Catalog) -> tuple[Game, list[tuple[GameState, GameState]]]:
    """The example game played here by the same bot from the same seed, with
    the state before and after each trick (placements included)."""
    game = Game(catalog, players=WORKED_PLAYERS, seed=WORKED_SEED)
    bot = BOT_FUNCTIONS[WORKED_BOT]
    found: list[tuple[GameState, GameState]] = []
    before = game.state.copy()
    while not game.is_over():
        game.apply(bot(game))
        if game.state.tricks_played > before.tricks_played and game.state.phase != "place":
            found.append((before, game.state.copy()))
            before = game.state.copy()
    return game, found


def _example_block() -> str:
    return split_page((SITE / "example-game.md").read_text(encoding="utf-8"))[1]["example-game"]


def _rails(table: str) -> dict[str, list[str]]:
    """A railways table of the page: company -> what each card shows, the
    Locomotive first."""
    found = {}
    for name, cells in re.findall(r'<tr><th scope="row"[^>]*>([^<]+)</th><td><ol class="totr-rail">(.*?)</ol>', table):
        items = re.findall(r"<li[^>]*>(.*?)</li>", cells)
        found[html.unescape(name)] = [html.unescape(re.sub(r"^<b>(.*?)</b>.*$", r"\1", item)) for item in items]
    return found


def _shown(catalog: Catalog, state: GameState, company: str) -> list[str]:
    """What the page must show for ``company``'s railway in ``state``."""
    by_id = catalog.by_id
    loco = state.locomotives.get(company)
    head = [by_id[loco].name.removeprefix("Locomotive ")] if loco else []
    cards = [by_id[c] for c in state.railways[company]]
    return head + [str(c.number) if c.family == "railway" else ("Station" if c.family == "stations" else c.name) for c in cards]


# -- the example game -------------------------------------------------------------------


def test_the_example_game_replays_from_its_seed_and_matches_the_engine_trick_by_trick(catalog: Catalog) -> None:
    game, tricks = _tricks_played(catalog)
    told = walkthrough(catalog)
    assert (told.seed, told.players, told.bot) == (WORKED_SEED, WORKED_PLAYERS, WORKED_BOT)
    assert len(told.tricks) == len(tricks) == len(catalog.layouts[WORKED_PLAYERS].basic)
    for step, (before, after) in zip(told.tricks, tricks, strict=True):
        assert [c.id for c in step.lane] == before.lane, step.number
        assert step.kind == trick_kind(catalog.by_id[before.lane[0]])
        assert after.last_trick is not None
        assert [(p, c.id) for p, c in step.plays] == after.last_trick.plays and step.winner == after.last_trick.winner
        for railway in step.railways:
            assert [c.id for c in railway.cards] == after.railways[railway.company.id], (step.number, railway.company.id)
            assert (railway.locomotive.id if railway.locomotive else None) == after.locomotives.get(railway.company.id)
        assert [sorted(c.id for seat, c in step.shares if seat == p) for p in range(WORKED_PLAYERS)] == [sorted(a[len(b) :]) for a, b in zip(after.shares, before.shares)]
    assert list(told.scores) == game.score() and list(told.winners) == game.winners()
    # the game is its seed and its actions: a save replays it to the same end
    again = Game.loads(catalog, game.dumps())
    assert again.state_json() == game.state_json()


def test_the_example_page_tells_the_game_the_engine_plays(catalog: Catalog) -> None:
    game, tricks = _tricks_played(catalog)
    body = _example_block()
    assert f"seed\n{WORKED_SEED}" in body or f"seed {WORKED_SEED}" in body
    sections = re.split(r"^### ", body, flags=re.MULTILINE)
    headed = {m.group(1): section for section in sections if (m := re.match(r"Trick (\d+): ", section))}
    assert len(headed) == len(tricks)
    names = {c.name: c.id for c in catalog.companies}
    for number, (before, after) in enumerate(tricks, start=1):
        section = headed[str(number)]
        kind = trick_kind(catalog.by_id[before.lane[0]])
        assert section.startswith(f"Trick {number}: {KIND_WORDS[kind]} "), section[:60]
        lane = re.search(r'<ol class="totr-lane"[^>]*>(.*?)</ol>', section)
        assert lane is not None
        assert [html.unescape(item) for item in re.findall(r"<li[^>]*>(.*?)</li>", lane.group(1))] == [catalog.by_id[c].name for c in before.lane]
        rails = _rails(section)
        if kind == "stock":
            assert not rails  # a stock trick lays no track: the page lists the shares instead
            assert "Shares held now: " in section
            continue
        assert {names[name]: shown for name, shown in rails.items()} == {c: _shown(catalog, after, c) for c in after.railways}, number
        values = dict(re.findall(r'<th scope="row"[^>]*>([^<]+)</th><td>.*?</td><td>(\d+)</td>', section))
        assert {names[html.unescape(n)]: int(v) for n, v in values.items()} == dict(_values_at(catalog, after)), number
    scores = game.score()
    for seat, score in enumerate(scores):
        shown = f"**{score}**" if seat in game.winners() else str(score)
        assert f"Player {seat + 1} scores {shown}" in body


def _values_at(catalog: Catalog, state: GameState) -> dict[str, int]:
    from engine.trickoftherails.rules.scoring import share_values

    return share_values(catalog, state.railways, state.locomotives)


def test_the_example_page_is_deterministic_and_light(catalog: Catalog) -> None:
    assert example_game(catalog) == example_game(catalog)
    page = (SITE / "example-game.md").read_bytes()
    assert len(page) < 150_000, f"the example game's page is {len(page)} bytes of Markdown"


# -- the quick reference ---------------------------------------------------------------------


def test_the_quick_reference_takes_every_figure_from_the_content(catalog: Catalog) -> None:
    prose, blocks = split_page((SITE / "quick-reference.md").read_text(encoding="utf-8"))
    typed = re.findall(r"\d+|\[∞\]", prose)
    assert not typed, f"the quick reference's prose types a figure or a card's mark: {typed}"
    body = blocks["quick-reference"]
    for card in catalog.of_family("locomotives"):
        reach = "the whole railway" if card.reach is None else f"{card.reach} cards"
        assert re.search(rf"\({re.escape('components.md#card-' + card.id)}\) \| {re.escape(reach)} \| {card.cost} \|", body), card.id
    for card in catalog.of_family("cities"):
        assert f"(components.md#card-{card.id}) {card.station_value}" in body
    for players, hand in ((p, catalog.hands[p].cards) for p in catalog.player_counts):
        assert f"| {players} players | {hand} cards |" in body
    assert f"never worth less than {catalog.share_floor}." in body
    # a changed Locomotive reaches the page's figures
    loco = catalog.of_family("locomotives")[0]
    dearer = dataclasses.replace(loco, cost=(loco.cost or 0) + 5)
    changed = dataclasses.replace(catalog, cards=tuple(dearer if c.id == loco.id else c for c in catalog.cards))
    assert next(row["cost"] for row in quick_reference(changed)["locomotives"] if row["card"][0] == loco.id) == dearer.cost


# -- the game's index and the Components page -------------------------------------------


def _nav_pages(section: str) -> list[tuple[str, str]]:
    nav = yaml.safe_load((PROJECT_ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    entries = next(item[section] for item in nav if isinstance(item, dict) and section in item)
    return [next(iter(entry.items())) for entry in entries if isinstance(entry, dict)]


def test_the_index_lists_the_pages_the_nav_lists_in_its_order() -> None:
    nav = _nav_pages("Trick of the Rails")
    assert ("Simulation", "trickoftherails/simulation.md") in nav
    assert ("Quick reference", "trickoftherails/quick-reference.md") in nav and ("A game, trick by trick", "trickoftherails/example-game.md") in nav
    index = (SITE / "index.md").read_text(encoding="utf-8")
    listed = index.split("## The pages", 1)[1].split("\n## ", 1)[0]
    links = [(title, "trickoftherails/" + target) for title, target in re.findall(r"^- \[([^\]]+)\]\(([^)#]+)\)", listed, re.MULTILINE)]
    assert links == nav


def test_components_opens_with_the_cards() -> None:
    text = (SITE / "components.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert headings[0] == "Railway cards" and headings[-1] == "Reading the tables", headings
    order = re.findall(r"<!-- generated: ([a-z-]+) -->", text)
    card_tables = [name for name in order if name not in TABLE_SET.links_only and name != "status-legend"]
    assert order[0] in card_tables and order.index("status-legend") > max(order.index(name) for name in card_tables), order


def test_the_pages_exist_where_the_nav_says() -> None:
    for _, target in _nav_pages("Trick of the Rails"):
        assert (PROJECT_ROOT / "site" / target).is_file(), target
