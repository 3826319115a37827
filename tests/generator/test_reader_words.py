"""The words a reader reads where the tables once printed configuration
keys and field names: one Dealt cell per card ("only with rivals", "not at 5
players in the basic Trick Lane"), a Card text column only where the text
adds to the Effect, and the What changed page in sentences, its revisions
linked where the content gives the commit's web address."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.trickoftherails.content.model import Catalog as TrainsCatalog
from engine.trickoftherails.pack import PACK as TRAINS
from engine.trickoftherails.rules.setup import dealt
from generator.changelog import CardChange, Change, PackChanges, sentence, summary, view
from generator.editions import read_editions
from generator.render import environment
from generator.stationmaster.tables import CHANGE_WORDS
from generator.tableset import DEALT_CELL, Facet, dealt_words, shown_text
from generator.trickoftherails.tables import TABLES as TRAIN_TABLES
from tests.kit.cli import RunCli
from tests.kit.project import PROJECT_ROOT

PLAYERS = Facet(("3", "4", "5"), lambda chosen: "at " + " and ".join(chosen) + " players")
LANE = Facet(("basic", "expert"), lambda chosen: "in the " + " or ".join(chosen) + " lane", "basic")
SEATING = Facet(("solitaire", "with rivals"), lambda chosen: " or ".join(chosen), "solitaire")


def _grid(dealt_at: set[tuple[str, str]]) -> dict[tuple[str, ...], bool]:
    return {(p, v): (p, v) in dealt_at for v in LANE.values for p in PLAYERS.values}


def test_every_and_no_configuration() -> None:
    assert dealt_words([PLAYERS, LANE], _grid({(p, v) for p in PLAYERS.values for v in LANE.values})) == "every configuration"
    assert dealt_words([PLAYERS, LANE], _grid(set()), every="yes") == "no"
    assert dealt_words([], {(): True}, every="yes") == "yes"


@pytest.mark.parametrize(
    ("dealt_at", "words"),
    [
        # The lane does not decide it: only the player count is named.
        ({(p, v) for p in ("3", "4") for v in ("basic", "expert")}, "not at 5 players"),
        # Left out of the lane a table chooses (Expert): said as "not".
        ({(p, "basic") for p in ("3", "4", "5")}, "not in the expert lane"),
        ({(p, "expert") for p in ("3", "4", "5")}, "only in the expert lane"),
        # Left out at one count of the default lane: one block, said as "not".
        ({("3", "basic"), ("4", "basic"), *((p, "expert") for p in ("3", "4", "5"))}, "not at 5 players in the basic lane"),
        # Neither side one block: each block named.
        ({("3", "basic"), ("4", "expert")}, "only at 3 players in the basic lane, or at 4 players in the expert lane"),
    ],
)
def test_some_configurations_are_named_in_words(dealt_at: set[tuple[str, str]], words: str) -> None:
    said = dealt_words([PLAYERS, LANE], _grid(dealt_at))
    assert said == words
    assert DEALT_CELL.match(said)


def test_a_card_left_out_of_the_default_says_only_where_it_is_dealt() -> None:
    assert dealt_words([SEATING], {("solitaire",): False, ("with rivals",): True}) == "only with rivals"
    assert dealt_words([SEATING], {("solitaire",): True, ("with rivals",): False}) == "not with rivals"


def test_the_lint_takes_dealt_words_and_refuses_a_number() -> None:
    for good in ("yes", "no", "every configuration", "only with rivals", "not at 5 players"):
        assert DEALT_CELL.match(good), good
    for bad in ("3", "x 3", "only 3", "dealt", "Yes, twice"):
        assert not DEALT_CELL.match(bad), bad


@pytest.fixture(scope="module")
def trains() -> TrainsCatalog:
    return TRAINS.load_catalog(PROJECT_ROOT / "content" / "trickoftherails")


def test_components_say_where_each_card_is_dealt_as_the_engine_deals_it(trains: TrainsCatalog) -> None:
    """One Dealt cell for the six configurations of Trick of the Rails, its
    words agreeing with ``setup.dealt`` for every card."""
    rows = {row["id"]: row["dealt"] for row in TRAIN_TABLES["components"](trains)["rows"]}
    by_id = {card.id: card for card in trains.cards}
    cells = set(rows.values())
    assert "every configuration" in cells and any(cell.startswith("not at 5 players") for cell in cells), cells
    for card_id, cell in rows.items():
        at = {(players, variant): dealt(trains, by_id[card_id], players, variant) != "no" for players in (3, 4, 5) for variant in ("basic", "expert")}
        if cell == "every configuration":
            assert all(at.values()), card_id
        elif cell == "not at 5 players":
            assert not at[(5, "basic")] and not at[(5, "expert")] and all(at[(p, v)] for p in (3, 4) for v in ("basic", "expert")), card_id
        elif cell == "not at 5 players in the basic Trick Lane":
            assert [flag for key, flag in at.items() if not flag] == [False] and not at[(5, "basic")], card_id
        else:
            pytest.fail(f"{card_id}: unexpected Dealt words {cell!r}")


def test_card_text_is_shown_only_where_it_adds_to_the_effect() -> None:
    assert shown_text("The Laborer stays at work.", "Answers a Strike; the Laborer stays at work.") == ""
    assert shown_text("A Mainline card is closed until repaired.", "An unoccupied Mainline card cannot be entered until it is repaired.") != ""
    assert shown_text("Understood by the engine.", "") == "Understood by the engine."
    assert shown_text(None, "anything") == ""


# -- What changed ------------------------------------------------------------------


def test_a_change_reads_as_a_sentence() -> None:
    configurations = {"players=2": {"label": "with rivals", "players": 2}, "players=1": {"label": "solitaire", "players": 1}}
    play = Change("playOption", None, "draw")
    assert sentence(play, configurations, CHANGE_WORDS) == "now played only in the Draw option, no longer in the Play option"
    assert sentence(Change("playOption", "draw", None), configurations, CHANGE_WORDS) == "now played in the Play option too, not only in the Draw option"
    assert sentence(Change("dealt", True, False, ("players=2",)), configurations, {}) == "no longer dealt with 2 players"
    assert sentence(Change("dealt", False, True, ("players=1", "players=2")), configurations, {}) == "now dealt in every configuration"
    assert sentence(Change("status", "unbuilt", "live"), configurations, {}) == "status now working, was not built yet"
    assert sentence(Change("stationValue", 10, 20), configurations, {}) == "station value now 20, was 10"
    assert sentence(Change("name", "Poling", "Poling Pole"), configurations, {}) == "renamed from Poling"
    assert sentence(Change("count", 2, 3), configurations, {}, counts=False) == "number of copies changed"
    for change in (play, Change("stationValue", 10, 20)):
        said = sentence(change, configurations, CHANGE_WORDS)
        assert "→" not in said and "'" not in said and change.field not in said


def test_the_page_names_a_new_id_as_such_and_a_rename_only_for_a_new_name() -> None:
    pack = PackChanges(
        "t",
        "T",
        (
            CardChange("renamed", "pole", "Poling Pole", "maneuvers", changes=(Change("name", "Poling", "Poling Pole"),)),
            CardChange("new id", "reservation-card", "Reservation", "reservations", old_id="reservation"),
            CardChange("changed", "airbrakes", "Airbrakes", "mainline-modifiers", changes=(Change("playOption", None, "draw"),)),
        ),
    )
    assert summary(pack) == "1 renamed, 1 given a new id, 1 changed"
    template = environment("").from_string('{% from "_changes.md.j2" import pack_changes with context %}{{ pack_changes(p) }}')
    page = template.render(p=view(pack, counts=False, words=CHANGE_WORDS), link=lambda card_id, name: f"[{name}](#card-{card_id})")
    assert page.splitlines() == [
        "- [Poling Pole](#card-pole): renamed from Poling.",
        "- [Reservation](#card-reservation-card): its id is now `reservation-card`, was `reservation`; nothing else changed.",
        "- [Airbrakes](#card-airbrakes): now played only in the Draw option, no longer in the Play option.",
    ]
    assert "Renamed" not in page and "playOption" not in page


def _copy(tmp_path: Path) -> Path:
    for part in ("content", "site"):
        shutil.copytree(PROJECT_ROOT / part, tmp_path / part)
    return tmp_path / "content" / "trickoftherails" / "editions.yaml"


def _with_address(editions: Path, line: str) -> None:
    """The file with ``line`` put under its first line (the schema's)."""
    first, rest = editions.read_text(encoding="utf-8").split("\n", 1)
    editions.write_text(f"{first}\n{line}\n{rest}", encoding="utf-8")


def test_a_commit_address_makes_each_revision_a_link(tmp_path: Path) -> None:
    editions = _copy(tmp_path)
    assert all(edition.link is None for edition in read_editions(editions.parent))
    _with_address(editions, "commitAddress: https://example.org/rules/commit/{revision}")
    found = read_editions(editions.parent)
    assert found and all(edition.link == f"https://example.org/rules/commit/{edition.revision}" for edition in found)
    template = environment("").get_template("changes.md.j2")
    row = {"number": 1, "date": "2026-11-30", "summary": "S.", "revision": "0123456789ab", "link": "https://example.org/c/0123", "changes": None, "tally": None}
    assert "Content as at revision [`0123456789ab`](https://example.org/c/0123)." in template.render(editions=[row], link=lambda i, n: n)
    assert "Content as at revision `0123456789ab`." in template.render(editions=[{**row, "link": None}], link=lambda i, n: n)


@pytest.mark.parametrize("address", ["javascript:alert(1)/{revision}", "https://example.org/commit/", "https://example.org/(x)/{revision}"])
def test_a_bad_commit_address_is_a_located_error(tmp_path: Path, run_cli: RunCli, address: str) -> None:
    editions = _copy(tmp_path)
    _with_address(editions, f"commitAddress: '{address}'")
    code, out, err = run_cli(["validate"], tmp_path)
    assert code == 1, out + err
    assert "content/trickoftherails/editions.yaml:2:" in out and "commitAddress" in out, out
    assert "Traceback" not in out + err
