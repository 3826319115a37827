"""A chunk of games as plain values (``chunk_to_plain``) comes back as the
very chunk (``chunk_from_plain``), and a chunk that could not come from
playing its games is refused with one line saying why; and the unpickler a
sweep reads its cluster's messages with builds plain data only."""

from __future__ import annotations

import copy
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.pack import SimulationRequest
from engine.packs import pack_rules
from engine.sim.plain import BadChunk
from engine.sweep.unpickling import RefusedPickle, restricted_loads
from tests.kit.project import PROJECT_ROOT

SM_REQUEST = SimulationRequest(4, seed=2, bot="random", players=2)
TOTR_REQUEST = SimulationRequest(3, seed=2, bot="random", players=3)


def _played(game: str, request: SimulationRequest) -> tuple[Any, Any, Any]:
    pack = pack_rules(game)
    catalog = pack.load_catalog(PROJECT_ROOT / "content" / game)
    chunk = pack.simulator.play_games(catalog, request, 1, 4)
    return pack, catalog, chunk


@pytest.mark.parametrize(("game", "request_"), [("stationmaster", SM_REQUEST), ("trickoftherails", TOTR_REQUEST)])
def test_a_chunk_comes_back_from_plain_values_as_it_was(game: str, request_: SimulationRequest) -> None:
    pack, catalog, chunk = _played(game, request_)
    plain = pack.simulator.chunk_to_plain(chunk)
    # Plain: a pickle of it names no class at all, only builtin containers.
    assert restricted_loads(pickle.dumps(plain)) == plain
    assert pack.simulator.chunk_from_plain(catalog, request_, 1, 4, plain) == chunk


def _first_card(plain: dict[str, Any]) -> str:
    card: str = next(iter(plain["tally"]))
    return card


# Each forgery of a Station Master chunk (games 1..3 of two seats), and the
# words its refusal must hold.
SM_FORGERIES: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("a game missing", lambda p: p["games"].pop(), "holds 2 item(s), not 3"),
    ("a seat missing", lambda p: p["games"][0][0].pop(), "a game's scores holds 1 item(s), not 2"),
    ("turns beyond actions", lambda p: p["games"][0].__setitem__(2, p["games"][0][1] + 1), "a game's turns is"),
    ("a negative count", lambda p: p["tally"][_first_card(p)].__setitem__(4, -1), "outside 0.."),
    ("a count of 10**300", lambda p: p["tally"][_first_card(p)].__setitem__(0, 10**300), "is huge"),
    ("a bool for a count", lambda p: p["tally"][_first_card(p)].__setitem__(0, True), "is not a whole number"),
    ("draws that do not add up", lambda p: p["tally"][_first_card(p)].__setitem__(6, p["tally"][_first_card(p)][6] + 1), "does not add up"),
    ("a card the content lacks", lambda p: p["tally"].__setitem__("forged-card", [1, 0, 0, 0, 1, 0, 0]), "'forged-card' is not one the game knows"),
    ("an attack answered twice", lambda p: p["attacks"].__setitem__(_first_card(p), [0, 1, 0]), "answered more often than made"),
    ("a key too many", lambda p: p.__setitem__("more", 1), "not a Station Master chunk"),
]


@pytest.mark.parametrize(("forgery", "words"), [(forge, words) for _, forge, words in SM_FORGERIES], ids=[name for name, _, _ in SM_FORGERIES])
def test_a_station_master_chunk_that_does_not_hold_up_is_refused(forgery: Callable[[dict[str, Any]], object], words: str) -> None:
    pack, catalog, chunk = _played("stationmaster", SM_REQUEST)
    plain = copy.deepcopy(pack.simulator.chunk_to_plain(chunk))
    forgery(plain)
    with pytest.raises(BadChunk) as refused:
        pack.simulator.chunk_from_plain(catalog, SM_REQUEST, 1, 4, plain)
    assert words in str(refused.value) and "\n" not in str(refused.value)


TOTR_FORGERIES: list[tuple[str, Callable[[list[Any]], object], str]] = [
    ("a seat too many", lambda p: p[0]["scores"].append(0), "holds 4 item(s), not 3"),
    ("an unknown company", lambda p: p[0]["shareValues"].__setitem__("forged", 1), "'forged' is not one the game knows"),
    ("an unknown trick", lambda p: p[0]["tricks"].append(["forged", True]), "a trick's kind 'forged'"),
    ("not a flag", lambda p: p[0]["tricks"].append(["stock", 1]), "not true or false"),
    ("more tricks than actions", lambda p: p[0].__setitem__("actions", 0), "more tricks than actions"),
    ("a game not a mapping", lambda p: p.__setitem__(0, "game"), "a game is not a mapping"),
]


@pytest.mark.parametrize(("forgery", "words"), [(forge, words) for _, forge, words in TOTR_FORGERIES], ids=[name for name, _, _ in TOTR_FORGERIES])
def test_a_trick_of_the_rails_chunk_that_does_not_hold_up_is_refused(forgery: Callable[[list[Any]], object], words: str) -> None:
    pack, catalog, chunk = _played("trickoftherails", TOTR_REQUEST)
    plain = copy.deepcopy(pack.simulator.chunk_to_plain(chunk))
    forgery(plain)
    with pytest.raises(BadChunk) as refused:
        pack.simulator.chunk_from_plain(catalog, TOTR_REQUEST, 1, 4, plain)
    assert words in str(refused.value)


class _Marking:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.system, (f"touch {self.marker}",))


def test_the_restricted_unpickler_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    with pytest.raises(RefusedPickle, match=r"names posix\.system, which is not plain data"):
        restricted_loads(pickle.dumps([1, _Marking(marker)]))
    assert not marker.exists()
    # And a class of this module, harmless or not, is not plain data either.
    with pytest.raises(RefusedPickle):
        restricted_loads(pickle.dumps(tmp_path))


def test_the_restricted_unpickler_reads_plain_data_and_failures() -> None:
    from engine.errors import UsageError

    data = {"games": [[1, 2], (3, 4)], "flags": {True, None}, "text": "é", "bytes": b"\x00", "float": 1.5}
    assert restricted_loads(pickle.dumps(data)) == data
    failure = restricted_loads(pickle.dumps(UsageError("a worker refused")))
    assert isinstance(failure, UsageError) and str(failure) == "a worker refused"
    assert isinstance(restricted_loads(pickle.dumps(ValueError("x"))), ValueError)


def test_a_failure_pickled_with_its_traceback_is_read_without_it() -> None:
    # As Dask sends a task's failure: tblib pickles the exception and its
    # traceback; the exception comes back, the traceback is dropped unread.
    from tblib import pickling_support  # type: ignore[import-untyped]

    from engine.errors import UsageError

    try:
        raise UsageError("a worker refused")
    except UsageError as exc:
        pickling_support.install(exc)
        sent = pickle.dumps(exc)
        traceback = pickle.dumps(exc.__traceback__)
    failure = restricted_loads(sent)
    assert isinstance(failure, UsageError) and str(failure) == "a worker refused"
    assert restricted_loads(traceback) is None
