"""The sweep charts (generator/charts.py) and the Simulation pages' sweep block
(generator/sweep_site.py, the simulation-sweep tables of both packs)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from engine.sweep.differences import compare
from engine.sweep.figures import CardCounts, CellFigures
from engine.sweep.grid import Cell, Grid
from engine.sweep.run import SweepResult
from generator.charts import BoxRow, box_plot_svg, grid_svg, ticks
from generator.render import environment
from generator.sweep_site import SitePlan, command_line, lay_out, short_label
from tests.kit.project import PROJECT_ROOT

SVG = "{http://www.w3.org/2000/svg}"
PLAN = SitePlan(rules=("office=a,b",), players=(1, 2), bots=("greedy",), games=5, seed=9, top_cards=3)
# Colours a chart must never set: they vanish on one of the two themes.
FIXED_INK = re.compile(r'(fill|stroke)="(#000|#000000|#fff|#ffffff|black|white)"', re.IGNORECASE)


def parse(svg: str) -> ET.Element:
    assert "\n" not in svg and "|" not in svg and " id=" not in svg
    return ET.fromstring(svg)


def _cell(office: str, players: int) -> Cell:
    return Cell(players, "greedy", (("office", office),), (("office", office),))


MEASURE = ("Share values", "each company's mean share value")


def _result(figures: list[CellFigures], cells: list[Cell] | None = None, measure: tuple[str, str] | None = None) -> SweepResult:
    cells = cells or [_cell(o, p) for o in ("a", "b") for p in (1, 2)][: len(figures)]
    grid = Grid((("office", tuple(dict.fromkeys(c.swept[0][1] for c in cells))),), tuple(dict.fromkeys(c.players for c in cells)), ("greedy",), tuple(cells), 0)
    differences = tuple(d for i, (c, f) in enumerate(zip(cells, figures)) if i for d in compare(i, c, f, cells[0], figures[0]))
    return SweepResult("game", "Game", figures[0].games, 9, grid, tuple(figures), differences, 0, measure)


def _figures(scores: dict[int, int], cards: tuple[CardCounts, ...] = ()) -> CellFigures:
    return CellFigures(5, tuple(sorted(scores.items())), cards)


FOUR = [
    _figures({0: 1, 4: 1, 8: 1, 12: 1, 16: 1}, (CardCounts("x", "Ex", 40, 10, 30), CardCounts("y", "Why", 40, 40, 0))),
    _figures({2: 3, 5: 7}, (CardCounts("x", "Ex", 40, 30, 10), CardCounts("y", "Why", 40, 40, 0), CardCounts("z", "Zed", 30, 0, 30))),
    _figures({1: 10}, (CardCounts("x", "Ex", 0, 0, 0), CardCounts("y", "Why", 40, 20, 20))),
    _figures({3: 2, 9: 2}, (CardCounts("y", "Why", 40, 20, 20), CardCounts("n", "Never", 0, 0, 0))),
]


def _rects(svg: str) -> list[dict[str, str]]:
    return [r.attrib for r in parse(svg).iter(SVG + "rect")]


# -- the box plot ------------------------------------------------------------------------


def test_box_plot_is_well_formed_with_title_and_desc_and_theme_colours() -> None:
    rows = [BoxRow("1. a", 0, 4, 8, 12, 16, 8), BoxRow("2. b", 2, 2, 5, 5, 5, 4.1)]
    svg = box_plot_svg(rows, "Score spread", "points")
    root = parse(svg)
    assert root.find(SVG + "title").text == "Score spread"  # type: ignore[union-attr]
    desc = root.find(SVG + "desc").text or ""  # type: ignore[union-attr]
    assert "1. a: from 0 to 16, the middle half from 4 to 12, median 8, mean 8" in desc
    assert "2. b: from 2 to 5" in desc
    assert not FIXED_INK.search(svg)
    assert all(t.attrib["fill"] == "currentColor" for t in root.iter(SVG + "text"))
    assert svg == box_plot_svg(rows, "Score spread", "points")


def test_the_box_sits_where_the_quartiles_are() -> None:
    # Scores 0, 4, 8, 12, 16: quartiles 4 and 12, median 8, on an axis 0..20.
    s = FOUR[0].spread()
    svg = box_plot_svg([BoxRow("one", s.minimum, s.lower_quartile, s.median, s.upper_quartile, s.maximum, s.mean)], "t", "points")
    root = parse(svg)
    labels = [t.text for t in root.iter(SVG + "text")]
    assert labels[:5] == ["0", "5", "10", "15", "20"]
    gridlines = [float(line.attrib["x1"]) for line in root.iter(SVG + "line")][:5]
    zero, twenty = gridlines[0], gridlines[4]
    scale = (twenty - zero) / 20
    (box,) = _rects(svg)
    assert float(box["x"]) == pytest.approx(zero + 4 * scale)
    assert float(box["width"]) == pytest.approx(8 * scale)
    median = [line for line in root.iter(SVG + "line") if line.attrib["stroke-width"] == "3.5"]
    assert float(median[0].attrib["x1"]) == pytest.approx(zero + 8 * scale)
    (dot,) = root.iter(SVG + "circle")
    assert float(dot.attrib["cx"]) == pytest.approx(zero + 8 * scale)


def test_every_score_equal_draws_a_flat_box() -> None:
    for score in (0, 7):
        s = _figures({score: 10}).spread()
        svg = box_plot_svg([BoxRow("same", s.minimum, s.lower_quartile, s.median, s.upper_quartile, s.maximum, s.mean)], "t", "points")
        (box,) = _rects(svg)
        assert box["width"] == "0"
        assert "from " + str(score) + " to " + str(score) in (parse(svg).find(SVG + "desc").text or "")  # type: ignore[union-attr]


def test_an_empty_chart_is_refused() -> None:
    with pytest.raises(ValueError):
        box_plot_svg([], "t", "points")
    with pytest.raises(ValueError):
        grid_svg([], ["1"], [], "t", "d", str)
    with pytest.raises(ValueError):
        grid_svg(["a"], ["1", "2"], [[1.0]], "t", "d", str)


def test_ticks_are_round_and_cover_the_range() -> None:
    assert ticks(0, 20) == [0, 5, 10, 15, 20]
    assert ticks(0, 19) == [0, 5, 10, 15, 20]
    assert ticks(0, 580) == [0, 200, 400, 600]
    assert ticks(0, 0) == [0, 1]
    assert ticks(-3, 4) == [-4, -2, 0, 2, 4]


# -- the shaded grid ---------------------------------------------------------------------


def test_grid_shades_grow_with_the_value_and_a_missing_value_is_a_dash() -> None:
    svg = grid_svg(["Ex", "Why"], ["1", "2"], [[100.0, None], [0.0, 50.0]], "Dead draws", "words", lambda v: f"{v:.0f}%", highest=100.0)
    root = parse(svg)
    assert not FIXED_INK.search(svg)
    shaded = [float(r["fill-opacity"]) for r in _rects(svg) if r["fill"] == "currentColor"]
    assert shaded == sorted(shaded, reverse=True)[:1] + sorted(shaded[1:])  # 100% darkest, then 0% < 50%
    assert shaded[0] > shaded[2] > shaded[1]
    dashed = [r for r in _rects(svg) if r.get("stroke-dasharray")]
    assert len(dashed) == 1
    texts = [t.text for t in root.iter(SVG + "text")]
    assert texts == ["1", "2", "Ex", "100%", "–", "Why", "0%", "50%"]


# -- the page's context and block ----------------------------------------------------------


def test_lay_out_charts_every_cell_and_orders_cards() -> None:
    context = lay_out("game", PLAN, _result(FOUR))
    assert context["command"] == "stationmaster sweep --game game --rule office=a,b --players 1,2 --bot greedy --games 5 --seed 9"
    assert [c["label"] for c in context["cells"]] == [c.label for c in _result(FOUR).grid.cells]
    assert context["cells"][0]["baseline"] and not context["cells"][1]["baseline"]
    boxes = parse(context["score_chart"])
    assert [t.text for t in boxes.iter(SVG + "text") if t.attrib["text-anchor"] == "end"] == ["1. a, 1 player", "2. a, 2 players", "3. b, 1 player", "4. b, 2 players"]
    assert len(_rects(context["score_chart"])) == 4
    dead = parse(context["dead_chart"])
    names = [t.text for t in dead.iter(SVG + "text") if t.attrib["text-anchor"] == "end"]
    # Highest dead-draw rate in any cell first, then by name; Never (never drawn) is left out.
    assert names == ["Zed", "Ex", "Why"]
    assert context["drawn_cards"] == 3 and context["dead_cards"] == 3
    desc = dead.find(SVG + "desc").text or ""  # type: ignore[union-attr]
    assert "Ex: 1 75% (59.8–85.8%, 40 draws), 2 25% (14.2–40.2%, 40 draws), 3 not drawn, 4 not drawn" in desc
    groups = context["differences"]
    assert [g["number"] for g in groups] == [2, 3, 4]
    # Each line under its configuration, without the configuration's words at its head.
    assert groups[0]["lines"][0] == "card Ex: dead draws 75% → 25% (−50 points; interval −69 to −21 points)"
    assert sum(len(g["lines"]) for g in groups) == len(_result(FOUR).differences)
    assert lay_out("game", PLAN, _result(FOUR)) == context


def test_the_top_cards_bound_the_dead_draw_chart() -> None:
    context = lay_out("game", SitePlan(PLAN.rules, PLAN.players, PLAN.bots, 5, 9, top_cards=1), _result(FOUR))
    assert context["dead_cards"] == 1 and context["drawn_cards"] == 3


def test_one_cell_and_no_cards() -> None:
    result = _result([_figures({3: 4})], [_cell("a", 1)])
    context = lay_out("game", SitePlan(("office=a",), (1,), ("greedy",), 5, 9), result)
    assert len(_rects(context["score_chart"])) == 1
    assert context["dead_chart"] is None and context["extra_chart"] is None
    assert context["differences"] == []
    text = environment("stationmaster").get_template("simulation-sweep.md.j2").render(**context, link=lambda card, name: name)
    assert "Differences from the baseline that matter" in text and "<svg" in text


def _measured(figures: CellFigures, *rows: tuple[str, int, int]) -> CellFigures:
    return CellFigures(figures.games, figures.scores, figures.cards, tuple((row, total, count, total * total) for row, total, count in rows))


def test_the_games_own_measure_is_drawn_as_a_grid() -> None:
    two = [_measured(FOUR[0], ("B&O", 200, 5), ("NYC", 65, 2)), _measured(FOUR[1], ("B&O", 165, 4), ("NYC", 0, 0))]
    context = lay_out("game", PLAN, _result(two, measure=MEASURE))
    root = parse(context["extra_chart"])
    texts = [t.text for t in root.iter(SVG + "text")]
    assert texts == ["1", "2", "B&O", "40.0", "41.2", "NYC", "32.5", "–"]
    assert "Each company's mean share value" in (root.find(SVG + "desc").text or "")  # type: ignore[union-attr]


def test_no_measure_no_measure_chart() -> None:
    # Rows kept without the pack naming a measure are not drawn; nor is a
    # measure whose cells kept no rows.
    assert lay_out("game", PLAN, _result([_measured(f, ("B&O", 1, 1)) for f in FOUR]))["extra_chart"] is None
    assert lay_out("game", PLAN, _result(FOUR, measure=MEASURE))["extra_chart"] is None


@pytest.mark.parametrize("pack", ["stationmaster", "trickoftherails"])
def test_the_block_renders_with_the_charts(pack: str) -> None:
    context = lay_out("game", PLAN, _result([_measured(f, ("B&O", 1, 1)) for f in FOUR], measure=MEASURE))
    text = environment(pack).get_template("simulation-sweep.md.j2").render(**context, link=lambda card, name: name)
    assert f"`{context['command']}`" in text
    svgs = re.findall(r'<div class="sweep-chart">(<svg .*?</svg>)</div>', text)
    assert len(svgs) == 3
    for svg in svgs:
        parse(svg)
    assert "1. office=a, 1 player, greedy bot (the baseline)" in text
    for group in context["differences"]:
        assert f"*Configuration {group['number']}* ({group['label']}) against the baseline:" in text
        for line in group["lines"]:
            assert f"- {line}" in text


def test_short_labels_name_the_bot_only_when_bots_are_swept() -> None:
    cell = _cell("b", 2)
    assert short_label(cell, 1) == "b, 2 players"
    assert short_label(cell, 2) == "b, 2 players, greedy"
    assert command_line("g", SitePlan((), (3, 4), ("a", "b"), 2, 0)) == "stationmaster sweep --game g --players 3,4 --bot a,b --games 2 --seed 0"


# -- the packs' plans and the committed pages ---------------------------------------------


def test_both_packs_register_the_sweep_as_a_simulation_report() -> None:
    from generator.stationmaster.tables import TABLE_SET as SM
    from generator.trickoftherails.tables import TABLE_SET as TOTR

    for tables in (SM, TOTR):
        assert "simulation-sweep" in tables.tables and "simulation-sweep" in tables.reports


def test_trick_of_the_rails_keeps_each_companys_share_value() -> None:
    from engine.trickoftherails import load_catalog
    from engine.trickoftherails.pack import PACK

    catalog = load_catalog(PROJECT_ROOT / "content" / "trickoftherails")
    from engine.pack import SimulationRequest
    from engine.trickoftherails.sim.report import Report

    report = PACK.simulator.simulate(catalog, SimulationRequest(2, 1, 1, "random", players=3))
    assert isinstance(report, Report)
    figures = CellFigures.from_report(report, PACK.sweep_measure)
    assert [row for row, _, _, _ in figures.measured] == [c.name for c in catalog.companies]
    assert all(count == 2 and total >= 0 and squares >= 0 for _, total, count, squares in figures.measured)  # one value a game
    assert figures.means() == {c.name: sum(report.share_values[c.id]) / 2 for c in catalog.companies}
    assert CellFigures.from_dict(figures.to_dict()) == figures  # kept whole in the cache


@pytest.mark.parametrize("page", ["site/stationmaster/simulation.md", "site/trickoftherails/simulation.md"])
def test_the_committed_pages_carry_well_formed_charts(page: str) -> None:
    text = (PROJECT_ROOT / page).read_text(encoding="utf-8")
    block = text.split("<!-- generated: simulation-sweep -->")[1].split("<!-- /generated -->")[0]
    svgs = re.findall(r"<svg .*?</svg>", block)
    assert len(svgs) >= 2
    for svg in svgs:
        root = parse(svg)
        assert root.find(SVG + "title") is not None and root.find(SVG + "desc") is not None
        assert not FIXED_INK.search(svg)
    assert "stationmaster sweep --game " in block
    assert f"- {page.split('/', 1)[1]}" in (PROJECT_ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("Simulation: ", "")


def test_by_default_every_card_drawn_is_in_the_dead_draw_chart() -> None:
    plan = SitePlan(PLAN.rules, PLAN.players, PLAN.bots, 5, 9)
    context = lay_out("game", plan, _result(FOUR))
    assert context["dead_cards"] == context["drawn_cards"] == 3
    text = environment("stationmaster").get_template("simulation-sweep.md.j2").render(**context, link=lambda card, name: name)
    assert "Every card drawn is shown, the highest share in any configuration first." in text
    bounded = lay_out("game", SitePlan(PLAN.rules, PLAN.players, PLAN.bots, 5, 9, top_cards=2), _result(FOUR))
    text = environment("stationmaster").get_template("simulation-sweep.md.j2").render(**bounded, link=lambda card, name: name)
    assert "Shown: the 2 of 3 cards drawn, the highest share in any configuration first." in text


def test_a_chart_keeps_its_size_rather_than_shrinking_its_text() -> None:
    # The theme shrinks pictures to the column (max-width:100%): a chart
    # says max-width:none, and its box on the page scrolls sideways instead.
    context = lay_out("game", PLAN, _result(FOUR))
    for chart in (context["score_chart"], context["dead_chart"]):
        assert 'style="max-width:none"' in chart
    css = (PROJECT_ROOT / "site" / "stylesheets" / "tables.css").read_text(encoding="utf-8")
    assert re.search(r"\.sweep-chart \{[^}]*overflow-x: auto;", css)
