"""The shared process pool: chunks of consecutive games, merged in game order
whatever the number of workers, and a clear error where it cannot work."""

from __future__ import annotations

import pytest

from engine.errors import InvalidActionError, UsageError
from engine.sim import pool
from tests.kit.project import PROJECT_ROOT


def _squares(offset: int, start: int, stop: int) -> list[int]:
    return [offset + i * i for i in range(start, stop)]


def _played(games: int, workers: int) -> list[int]:
    merged: list[int] = []
    pool.play_chunks(_squares, 7, games, workers, merged.extend)
    return merged


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_results_come_back_in_game_order(workers: int) -> None:
    assert _played(50, workers) == [7 + i * i for i in range(50)]


def test_chunks_cover_every_game_once_in_order() -> None:
    for games in (1, 2, 24, 25, 599, 10_000):
        for workers in (1, 2, 7, 64):
            bounds = pool.chunks(games, workers)
            assert bounds[0][0] == 0 and bounds[-1][1] == games
            assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
            assert all(0 < stop - start <= 25 for start, stop in bounds)


def test_game_seeds() -> None:
    assert pool.game_seed(9, 4) == 9 * 1_000_003 + 4
    assert pool.game_seed(0, 0) == 0


@pytest.mark.parametrize(("games", "seed", "workers"), [(0, 0, 1), (1, -1, 1), (1, 0, 65), (True, 0, 1), (1, 0, 1.5)])
def test_out_of_range_arguments_are_refused(games: object, seed: object, workers: object) -> None:
    with pytest.raises(InvalidActionError):
        pool.check_run(games, seed, workers)


def test_without_fork_a_worker_needs_a_way_to_load_its_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "start_method", lambda: "spawn")
    with pytest.raises(UsageError, match="cannot fork"):
        pool.play_chunks(_squares, 0, 4, 2, print)
    assert _played(3, 1) == [7, 8, 11]  # one worker plays here, and needs no fork


def test_without_fork_workers_load_the_content_and_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The spawn path, as on a platform with no fork: each worker loads the
    content again, and the report is the one a single process makes."""
    from engine.pack import SimulationRequest
    from engine.stationmaster import load_catalog
    from engine.stationmaster.sim.simulate import simulate

    content = PROJECT_ROOT / "content" / "stationmaster"
    catalog = load_catalog(content)
    monkeypatch.setattr(pool, "start_method", lambda: "spawn")
    assert simulate(catalog, SimulationRequest(4, seed=3, workers=2, content_dir=content)).to_json() == simulate(catalog, SimulationRequest(4, seed=3)).to_json()
