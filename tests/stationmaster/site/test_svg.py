"""The track pictures: ``generator.stationmaster.svg.track_svg`` and the Picture column of
the track table, in the rendered Markdown and in the built HTML."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import TrackShape
from engine.stationmaster.rules.geometry import rotate
from generator.lint import lint
from generator.render import read_pages, render_site
from generator.stationmaster.svg import BOX, track_svg
from generator.stationmaster.tables import TABLE_SET, TABLES
from tests.kit import hang_guard
from tests.kit.cli import subprocess_env
from tests.kit.pages import read_table, split_page
from tests.kit.project import FIXTURE_CONTENT, PROJECT_ROOT, VENV_BIN

SVG = "{http://www.w3.org/2000/svg}"
STRAIGHT = (("W", "E"),)
LEFT = (("W", "NE"),)
RIGHT = (("W", "SE"),)
TURNOUT_LEFT = (("W", "E"), ("W", "NE"))
THREE_WAY = (("W", "E"), ("W", "NE"), ("W", "SE"))
EVERY_SHAPE = (STRAIGHT, LEFT, RIGHT, TURNOUT_LEFT, (("W", "E"), ("W", "SE")), THREE_WAY, (("N", "S"), ("NW", "SE")), (("N", "E"),))

Segment = tuple[str, list[tuple[float, float]]]  # (command letters, points)


def parse(svg: str) -> ET.Element:
    """The picture as XML: it must be well-formed on its own."""
    return ET.fromstring(svg)


def rails(svg: str) -> list[Segment]:
    """Each rail as (its commands, e.g. 'ML' or 'MQ'; its points in order)."""
    found: list[Segment] = []
    for path in parse(svg).iter(SVG + "path"):
        d = path.attrib["d"]
        commands = "".join(re.findall(r"[A-Za-z]", d))
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
        assert len(numbers) % 2 == 0, d
        found.append((commands, list(zip(numbers[::2], numbers[1::2]))))
    return found


def mirrored(segments: list[Segment]) -> list[Segment]:
    """Turned over top to bottom (y -> BOX - y): what no card may do."""
    return [(c, [(x, BOX - y) for x, y in points]) for c, points in segments]


def half_turned(segments: list[Segment]) -> list[Segment]:
    """Turned end for end (180° about the centre)."""
    return [(c, [(BOX - x, BOX - y) for x, y in points]) for c, points in segments]


# -- the picture itself -----------------------------------------------------------


@pytest.mark.parametrize("routes", EVERY_SHAPE)
def test_the_picture_is_deterministic(routes: tuple[tuple[str, str], ...]) -> None:
    first = track_svg(routes)
    assert track_svg(routes) == first
    assert track_svg(list(routes)) == first  # any sequence of pairs
    assert track_svg(routes, size=64) == first
    assert track_svg(routes, size=96) != first


@pytest.mark.parametrize("routes", EVERY_SHAPE)
def test_the_picture_fits_in_a_table_cell(routes: tuple[tuple[str, str], ...]) -> None:
    svg = track_svg(routes)
    assert "\n" not in svg and "\r" not in svg
    assert "|" not in svg
    assert not svg.startswith("<?xml")
    assert svg.startswith("<svg ") and svg.endswith("</svg>")
    assert svg == svg.strip()
    # no id= attribute: the site lint reads ids as anchors
    assert not re.search(r"\bid\s*=", svg)


@pytest.mark.parametrize("routes", EVERY_SHAPE)
def test_the_picture_is_labelled_with_its_routes(routes: tuple[tuple[str, str], ...]) -> None:
    root = parse(track_svg(routes))
    words = ", ".join(f"{a}–{b}" for a, b in routes)
    assert root.attrib["role"] == "img"
    assert words in root.attrib["aria-label"]
    title = root.find(SVG + "title")
    assert title is not None and title.text is not None and words in title.text
    assert list(root)[0] is title  # the title comes first, as SVG wants


@pytest.mark.parametrize("routes", EVERY_SHAPE)
def test_one_rail_per_route_on_a_square_card(routes: tuple[tuple[str, str], ...]) -> None:
    root = parse(track_svg(routes))
    paths = list(root.iter(SVG + "path"))
    assert len(paths) == len(routes)
    for path in paths:
        assert path.attrib["stroke"] == "currentColor"  # readable on light and dark
        assert path.attrib["fill"] == "none"
    (card,) = root.iter(SVG + "rect")
    assert card.attrib["width"] == card.attrib["height"]
    assert card.attrib["fill"] == "none" and card.attrib["stroke"] != "currentColor"
    assert root.attrib["viewBox"] == f"0 0 {BOX} {BOX}"


def test_size_scales_the_picture_only() -> None:
    small, large = parse(track_svg(LEFT, size=32)), parse(track_svg(LEFT, size=128))
    assert (small.attrib["width"], small.attrib["height"]) == ("32", "32")
    assert (large.attrib["width"], large.attrib["height"]) == ("128", "128")
    assert rails(track_svg(LEFT, size=32)) == rails(track_svg(LEFT, size=128))
    with pytest.raises(ValueError):
        track_svg(LEFT, size=0)


def test_ports_sit_at_edge_midpoints_and_corners() -> None:
    (rail,) = rails(track_svg((("N", "S"),)))
    (x1, y1), (x2, y2) = rail[1]
    assert x1 == x2 == BOX / 2 and y1 < y2
    (rail,) = rails(track_svg((("NW", "SE"),)))
    (x1, y1), (x2, y2) = rail[1]
    assert (x1, y1) == (BOX - x2, BOX - y2) and x1 == y1 and x1 < BOX / 2


def test_west_east_is_a_straight_line() -> None:
    (rail,) = rails(track_svg(STRAIGHT))
    commands, points = rail
    assert commands == "ML"  # no curve command
    (x1, y1), (x2, y2) = points
    assert y1 == y2 == BOX / 2  # level, through the middle
    assert x1 < x2  # from the west edge to the east edge
    assert x1 < BOX / 4 and x2 > 3 * BOX / 4


def test_a_curve_is_a_curve_from_west_to_its_diagonal_corner() -> None:
    (left,) = rails(track_svg(LEFT))
    (right,) = rails(track_svg(RIGHT))
    for commands, _ in (left, right):
        assert commands in ("MQ", "MC")
    (lx0, ly0), *_, (lx1, ly1) = left[1]
    (rx0, ry0), *_, (rx1, ry1) = right[1]
    assert (lx0, ly0) == (rx0, ry0) and ly0 == BOX / 2  # both leave the west edge at its middle
    assert lx1 > BOX / 2 and ly1 < BOX / 2  # left goes up to the right (NE; y grows downwards)
    assert rx1 > BOX / 2 and ry1 > BOX / 2  # right goes down to the right (SE)


def test_left_and_right_curves_differ_and_mirror_each_other() -> None:
    left, right = track_svg(LEFT), track_svg(RIGHT)
    assert left != right
    assert rails(left) != rails(right)
    assert mirrored(rails(left)) == rails(right)
    assert mirrored(rails(right)) == rails(left)


def test_turnouts_mirror_each_other_too() -> None:
    left = rails(track_svg(TURNOUT_LEFT))
    right = rails(track_svg((("W", "E"), ("W", "SE"))))
    assert left != right and mirrored(left) == right


def test_a_half_turned_left_curve_draws_a_different_picture() -> None:
    turned = rotate(LEFT, 180)
    assert turned == [("E", "SW")]
    assert track_svg(turned) != track_svg(LEFT)
    assert rails(track_svg(turned)) != rails(track_svg(LEFT))
    # it is the left curve turned end for end, not the right curve
    assert sorted(rails(track_svg(turned))[0][1]) == sorted(half_turned(rails(track_svg(LEFT)))[0][1])
    assert rails(track_svg(turned)) != rails(track_svg(RIGHT))
    # a straight looks the same either way round
    assert sorted(rails(track_svg(rotate(STRAIGHT, 180)))[0][1]) == sorted(rails(track_svg(STRAIGHT))[0][1])


def test_an_unknown_port_is_refused() -> None:
    with pytest.raises((ValueError, KeyError)):
        track_svg((("W", "UP"),))


# -- the Picture column ------------------------------------------------------------


def _track_block(text: str) -> str:
    return split_page(text)[1]["track"]


def test_rendered_track_table_has_one_picture_per_card() -> None:
    catalog = load_catalog(FIXTURE_CONTENT)
    page = "# track\n\n<!-- generated: track -->\n<!-- /generated -->\n"
    rendered = render_site(catalog, {"track.md": page}, "t/", tables=TABLE_SET)
    block = _track_block(rendered.new["track.md"])
    shapes = catalog.of_type(TrackShape)
    assert shapes
    assert block.count("<svg") == len(shapes)
    table = read_table(block)  # every row still has as many cells as the header
    assert table.header[2] == "Picture"  # beside the name and Dealt, so a narrow screen shows it
    assert set(table.rows) == {s.id for s in shapes}
    for shape in shapes:
        cell = table.rows[shape.id]["Picture"]
        assert cell == track_svg(shape.routes)
        assert cell.count("<svg") == 1


def test_the_committed_page_has_one_picture_per_card_and_lints_clean() -> None:
    catalog = load_catalog(PROJECT_ROOT / "content" / "stationmaster")
    rendered = render_site(catalog, read_pages(PROJECT_ROOT / "site" / "stationmaster"), tables=TABLE_SET)
    shapes = catalog.of_type(TrackShape)
    page = rendered.table_page["track"]
    for text in (rendered.new[page], (PROJECT_ROOT / "site" / "stationmaster" / page).read_text(encoding="utf-8")):
        block = _track_block(text)
        assert block.count("<svg") == len(shapes)
        rows = read_table(block).rows
        for shape in shapes:
            assert rows[shape.id]["Picture"] == track_svg(shape.routes)
    assert [p.render() for p in lint(catalog, rendered, TABLES, "site/stationmaster/")] == []


MKDOCS = VENV_BIN / "mkdocs"


@pytest.mark.skipif(not MKDOCS.exists(), reason="no .venv/bin/mkdocs")
def test_built_html_has_one_picture_per_track_card(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = hang_guard.run([MKDOCS, "build", "--strict", "--site-dir", out], "mkdocs build --strict to end", cwd=PROJECT_ROOT, env=subprocess_env())
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert not [line for line in output.splitlines() if "WARNING" in line], output
    catalog = load_catalog(PROJECT_ROOT / "content" / "stationmaster")
    shapes = catalog.of_type(TrackShape)
    html = (out / "stationmaster" / "home-deck.html").read_text(encoding="utf-8")
    at = html.index('id="card-straight"')
    table = html[html.rindex("<table>", 0, at) : html.index("</table>", at)]
    assert table.count("<svg") == len(shapes)
    assert table.count('role="img"') == len(shapes)
    for shape in shapes:
        at = table.index(f'id="card-{shape.id}"')
        row = table[table.rindex("<tr>", 0, at) : table.index("</tr>", at)]
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)
        assert cells[2].strip() == track_svg(shape.routes), row  # passed through untouched
