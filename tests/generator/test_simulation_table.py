"""The shared simulation table: any pack's reports laid out the same way,
with nothing of Station Master in it (fake reports stand in for a game)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.pack import CardFigures
from generator.simulation_table import Option, Seating, SiteSimulation, build_seated_context, build_simulation_context, seated_context, simulation_context


@dataclass(frozen=True)
class _Card:
    id: str
    name: str
    drawn: int
    dead: int

    @property
    def played(self) -> int:
        return self.drawn - self.dead

    def dead_percent(self) -> int | None:
        return None if self.drawn == 0 else round(100 * self.dead / self.drawn)


@dataclass(frozen=True)
class _Report:
    games: int
    cards: Mapping[str, CardFigures] = field(default_factory=dict)

    def score_values(self) -> tuple[int, ...]:
        return ()

    def first_seats(self) -> tuple[int, ...]:
        return (0,) * self.games

    def to_text(self) -> str:
        return ""

    def to_json(self) -> str:
        return "{}"


@dataclass(frozen=True)
class _Catalog:
    fingerprint: str


CARDS = [_Card("a", "Alpha", 10, 5), _Card("b", "Bravo", 20, 10), _Card("c", "Charlie", 0, 0), _Card("d", "Delta", 4, 4), _Card("e", "Echo", 10, 5)]
PLAN = SiteSimulation(
    games=4,
    seed=9,
    bot="some-bot",
    top=3,
    rule_id="start",
    rule_name="Start",
    options=(Option("x", "Ex", True, {"start": "x"}), Option("true", "true", False, {"start": True})),
)


def _run(option: Option) -> _Report:
    return _Report(4, {c.id: c for c in CARDS})


def test_rows_by_dead_rate_then_draws_then_name_never_drawn_left_out() -> None:
    context = build_simulation_context(PLAN, _run)
    assert context["rule"] == {"id": "start", "name": "Start"}
    assert (context["games"], context["seed"], context["bot"], context["top"]) == (4, 9, "some-bot", 3)
    assert [t["value"] for t in context["configurations"]] == ["x", "true"]
    assert [t["is_default"] for t in context["configurations"]] == [True, False]
    rows = context["configurations"][0]["rows"]
    assert [r["card"] for r in rows] == ["d", "b", "a"]  # 100%, then 50% with 20 draws, then Alpha before Echo
    assert rows[0] == {"card": "d", "name": "Delta", "dead_rate": 100, "dead_span": "51–100%", "per_game": "1.0", "drawn": 4}
    assert rows[1]["per_game"] == "5.0"


def test_the_cached_context_is_computed_once_and_copied() -> None:
    runs: list[str] = []

    def counting(option: Option) -> _Report:
        runs.append(option.value)
        return _run(option)

    catalog = _Catalog("fingerprint-for-this-test")
    first = simulation_context(catalog, PLAN, counting)
    first["configurations"].clear()  # a caller changing its copy
    again = simulation_context(catalog, PLAN, counting)
    assert runs == ["x", "true"]
    assert again == build_simulation_context(PLAN, _run)


SEATINGS = (Seating(2, 4, 9, "some-bot"), Seating(3, 2, 9, "some-bot"))


def test_each_seating_is_laid_out_by_the_pack_in_order_and_cached() -> None:
    laid_out: list[int] = []

    def lay_out(seating: Seating) -> dict[str, object]:
        laid_out.append(seating.players)
        return {"seats": list(range(seating.players))}

    context = build_seated_context(SEATINGS, lay_out)
    assert context == {
        "seatings": [
            {"players": 2, "games": 4, "seed": 9, "bot": "some-bot", "seats": [0, 1]},
            {"players": 3, "games": 2, "seed": 9, "bot": "some-bot", "seats": [0, 1, 2]},
        ],
        "measured": {"games": 6, "seeds": [9]},
    }  # every game the report comes from, for its provenance line
    catalog = _Catalog("fingerprint-for-the-seatings")
    laid_out.clear()
    first = seated_context(catalog, SEATINGS, lay_out)
    first["seatings"].clear()
    assert seated_context(catalog, SEATINGS, lay_out) == context
    assert laid_out == [2, 3]
