"""``stationmaster sweep --cluster``: the same bytes on a Dask cluster as on
the plain pool with one worker, even when a worker process is killed in the
middle of the run, and a prompt one-line error (exit 2, nothing written) for
a scheduler that cannot be reached.

The clusters here are LocalClusters of two processes with one thread each,
the smallest that can lose a worker and carry on."""

from __future__ import annotations

import shutil
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.pack import SimulationRequest
from engine.packs import pack_rules
from engine.sweep import runner as runners
from engine.sweep.dask_runner import Chunk, ChunkTask, cluster_client, dask_runner, packed, play_chunk
from engine.sweep.grid import build_grid
from engine.sweep.render import to_json
from engine.sweep.run import engine_fingerprint, sweep
from engine.sweep.store import CellStore
from tests.kit.cli import CliResult, RunCli
from tests.kit.project import PROJECT_ROOT

SM = PROJECT_ROOT / "content" / "stationmaster"
# Two cells of random play, a few games each: the whole test stays quick.
ARGS = ["sweep", "--content", str(SM), "--rule", "startingOffice=depot,whistle-post", "--games", "6", "--seed", "3", "--no-cache", "--format", "json"]


def test_a_local_cluster_gives_the_plain_pools_bytes(run_cli: RunCli, tmp_path: Path) -> None:
    code, alone, err = run_cli([*ARGS, "--workers", "1"], tmp_path)
    assert (code, err) == (0, ""), err
    code, clustered, err = run_cli([*ARGS, "--cluster", "local", "--workers", "2"], tmp_path)
    assert (code, err) == (0, ""), err  # no Dask log lines either
    assert clustered == alone


def _killing_once(marker: Path) -> ChunkTask:
    """``play_chunk``, but the first chunk any worker starts kills that
    worker's process outright (SIGKILL, as the out-of-memory killer would):
    the marker file, made atomically, says it has happened. Defined in a
    function so that Dask ships it to the workers by value."""

    def task(chunk: Chunk, catalog: bytes) -> Any:
        import os
        import signal

        from engine.sweep.dask_runner import play_chunk

        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return play_chunk(chunk, catalog)
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable: the process is gone")

    return task


@pytest.mark.parametrize("workers", [2, 1])
def test_a_worker_killed_mid_run_loses_no_game_and_doubles_none(tmp_path: Path, workers: int) -> None:
    # With one worker, the only copy of the catalog on the cluster dies with
    # it: being a task, it is made again on the worker the nanny restarts.
    pack = pack_rules("stationmaster")
    catalog = pack.load_catalog(SM)
    grid = build_grid(pack, catalog, ["startingOffice=depot,whistle-post"], None, None)
    games, seed = 8, 11
    expected = sweep(pack, catalog, grid, games, seed, CellStore(None, print), runners.pool_runner(pack, catalog, games, seed, 1, SM))
    marker = tmp_path / "killed"
    with cluster_client("local", workers) as client:
        runner = dask_runner(pack, catalog, games, seed, client, task=_killing_once(marker))
        result = sweep(pack, catalog, grid, games, seed, CellStore(None, print), runner)
    assert marker.exists(), "no worker was killed: the test proved nothing"
    assert to_json(result) == to_json(expected)
    assert [f.games for f in result.figures] == [games, games]


REQUEST = SimulationRequest(5, seed=4, bot="random", house_rules={"startingOffice": "depot"}, players=1)


def _chunk(catalog: Any, **changed: Any) -> Chunk:
    fields: dict[str, Any] = dict(
        pack="stationmaster", code=engine_fingerprint("stationmaster"), fingerprint=catalog.fingerprint,
        request=REQUEST, start=2, stop=5,
    )  # fmt: skip
    return Chunk(**{**fields, **changed})


def test_the_chunk_task_is_the_packs_own_games() -> None:
    # Played here, without a cluster: a chunk is the pack's play_games.
    pack = pack_rules("stationmaster")
    catalog = pack.load_catalog(SM)
    plain = play_chunk(_chunk(catalog), packed(catalog))
    assert pack.simulator.chunk_from_plain(catalog, REQUEST, 2, 5, plain) == pack.simulator.play_games(catalog, REQUEST, 2, 5)


def test_a_chunk_carries_its_content_so_a_worker_needs_no_files(tmp_path: Path) -> None:
    # Content edited into a copy the worker never sees: the chunk's catalog
    # is what is played, whatever lies (or does not) on the worker's disk.
    copy = tmp_path / "content"
    shutil.copytree(SM, copy)
    game = copy / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("gameDays: 3", "gameDays: 2"), encoding="utf-8")
    pack = pack_rules("stationmaster")
    edited = pack.load_catalog(copy)
    assert edited.fingerprint != pack.load_catalog(SM).fingerprint
    shutil.rmtree(copy)
    plain = play_chunk(_chunk(edited), packed(edited))
    assert pack.simulator.chunk_from_plain(edited, REQUEST, 2, 5, plain) == pack.simulator.play_games(edited, REQUEST, 2, 5)


def test_a_worker_on_other_code_refuses_to_play() -> None:
    from engine.errors import UsageError

    catalog = pack_rules("stationmaster").load_catalog(SM)
    with pytest.raises(UsageError, match=r"^a worker \(outside a cluster\) runs other code of the kit than the sweep does: install the same version on every worker$"):
        play_chunk(_chunk(catalog, code="0" * 64, fingerprint="other-content"), packed(catalog))


def test_a_chunk_whose_catalog_is_not_its_content_is_refused() -> None:
    from engine.errors import UsageError

    catalog = pack_rules("stationmaster").load_catalog(SM)
    with pytest.raises(UsageError, match="not the content the sweep started from"):
        play_chunk(_chunk(catalog, fingerprint="not-the-fingerprint"), packed(catalog))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_an_unreachable_scheduler_is_a_prompt_usage_error(run_cli_subprocess: Callable[..., CliResult], tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{_free_port()}"
    # The 5 s promise is CONNECT_SECONDS, passed to Dask; the test only guards against a hang.
    code, out, err = run_cli_subprocess([*ARGS, "--cluster", address, "--output", "report.json"], tmp_path)
    assert code == 2
    assert out == ""
    assert err == f"stationmaster sweep: error: cannot reach a Dask scheduler at {address} within 5 s (nothing answered)\n"
    assert not (tmp_path / "report.json").exists()


def test_patience_is_for_a_cluster_and_whole_seconds(run_cli: RunCli, tmp_path: Path) -> None:
    code, out, err = run_cli([*ARGS, "--patience", "3"], tmp_path)
    assert (code, out, err) == (2, "", "stationmaster sweep: error: --patience is how long to wait on a cluster: give it with --cluster\n")
    for wrong in ("0", "2.5", "soon"):
        code, out, err = run_cli([*ARGS, "--cluster", "local", "--patience", wrong], tmp_path)
        assert (code, out) == (2, ""), err
        assert "--patience" in err and ("a whole number from 1" in err or "must be from 1" in err), err


@pytest.mark.parametrize("cluster", ["foo", "tcp://", "http://host:8786", "tcp://host:port"])
def test_a_cluster_that_is_not_an_address_is_refused(run_cli: RunCli, tmp_path: Path, cluster: str) -> None:
    code, out, err = run_cli([*ARGS, "--cluster", cluster], tmp_path)
    assert (code, out) == (2, "")
    assert err == f"stationmaster sweep: error: --cluster {cluster!r}: give 'local' or a scheduler address such as tcp://HOST:8786\n"


def test_without_cluster_dask_is_never_imported(run_cli: RunCli, tmp_path: Path) -> None:
    import sys

    from tests.kit import hang_guard
    from tests.kit.cli import subprocess_env

    probe = "import sys, command.cli as c; c.main(sys.argv[1:]); print('distributed' in sys.modules, file=sys.stderr)"
    done = hang_guard.run([sys.executable, "-c", probe, *ARGS], "a sweep without --cluster to end", cwd=tmp_path, env=subprocess_env())
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "False"


def test_a_scheduler_with_no_worker_is_a_usage_error_not_a_hang(run_cli: RunCli, tmp_path: Path) -> None:
    from distributed import LocalCluster

    # A scheduler alone (no worker), in this process, reached over TCP as a real one is.
    with LocalCluster(n_workers=0, processes=False, protocol="tcp://", dashboard_address=None, silence_logs=50) as empty:  # type: ignore[no-untyped-call]
        address = empty.scheduler_address
        code, out, err = run_cli([*ARGS, "--cluster", address, "--patience", "1", "--output", "report.json"], tmp_path)
    assert (code, out) == (2, "")
    assert err == f"stationmaster sweep: error: the Dask scheduler at {address} has no worker (start one with: dask worker {address})\n"
    assert not (tmp_path / "report.json").exists()


@pytest.mark.parametrize(
    ("game", "bot", "rules", "players"),
    [("stationmaster", "random", {"startingOffice": "whistle-post"}, 2), ("stationmaster", "greedy", {}, 1), ("trickoftherails", "random", {"variant": "expert"}, 4)],
)
def test_chunks_merged_in_order_give_simulates_report(game: str, bot: str, rules: dict[str, Any], players: int) -> None:
    # What the cluster relies on: any cut of the games into ranges, played
    # apart and merged in game order, is the report simulate gives.
    pack = pack_rules(game)
    catalog = pack.load_catalog(PROJECT_ROOT / "content" / game)
    request = SimulationRequest(7, 5, 1, bot, rules, players=players)
    whole = pack.simulator.simulate(catalog, request)
    parts = [pack.simulator.play_games(catalog, request, start, stop) for start, stop in ((0, 3), (3, 4), (4, 4), (4, 7))]
    assert pack.simulator.report_games(catalog, request, parts).to_json() == whole.to_json()
    assert pack.simulator.report_games(catalog, request, parts).to_text() == whole.to_text()


def test_chunks_that_do_not_cover_the_games_are_refused() -> None:
    from engine.errors import ConfigurationError

    pack = pack_rules("stationmaster")
    catalog = pack.load_catalog(SM)
    request = SimulationRequest(3, 5, bot="random", players=1)
    parts = [pack.simulator.play_games(catalog, request, 0, 2)]
    with pytest.raises(ConfigurationError, match="2 game"):
        pack.simulator.report_games(catalog, request, parts)


def test_a_chunk_whose_workers_keep_dying_ends_the_run_with_one_line(tmp_path: Path) -> None:
    # Dask gives a task up (KilledWorker) once the workers running it died
    # more than allowed-failures times; with 0 allowed, the first death.
    import dask

    from engine.sweep.dask_runner import ClusterFailed

    def task(chunk: Chunk, catalog: bytes) -> Any:
        import os
        import signal

        os.kill(os.getpid(), signal.SIGKILL)

    pack = pack_rules("stationmaster")
    catalog = pack.load_catalog(SM)
    grid = build_grid(pack, catalog, ["startingOffice=depot,whistle-post"], None, None)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        with cluster_client("local", 2) as client:
            runner = dask_runner(pack, catalog, 2, 1, client, task=task)
            with pytest.raises(ClusterFailed, match=r"^the workers playing cell 1 \(startingOffice=depot, 1 player, random bot\) kept dying; the cells finished so far are cached$"):
                sweep(pack, catalog, grid, 2, 1, CellStore(None, print), runner)


def _worker_settings() -> dict[str, object]:
    import dask.config

    from engine.sweep.dask_runner import QUIET_CLUSTER

    return {key: dask.config.get(key) for key in QUIET_CLUSTER}


def test_a_local_cluster_runs_quiet() -> None:
    # Dask's dashboard profile, fast event-loop ticks and work stealing cost
    # the games several percent (bench/dask_idle.py): every worker of a
    # sweep's LocalCluster, and its scheduler, run with them turned down.
    from engine.sweep.dask_runner import QUIET_CLUSTER

    with cluster_client("local", 1) as client:
        for settings in client.run(_worker_settings).values():
            assert settings == QUIET_CLUSTER
        scheduler = client.run_on_scheduler(lambda dask_scheduler: sorted(dask_scheduler.extensions))  # type: ignore[no-untyped-call]  # untyped in distributed
    assert "stealing" not in scheduler


def test_the_cluster_page_sets_what_a_local_cluster_turns_down() -> None:
    # The kit's cluster page tells whoever runs their own scheduler and
    # workers which Dask settings to export for the same saving: exactly
    # the settings a sweep's own LocalCluster runs with.
    import re

    import dask.config

    from engine.sweep.dask_runner import QUIET_CLUSTER

    page = (PROJECT_ROOT / "site" / "kit" / "cluster.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(export [^`]*)```", page)
    assert len(blocks) == 1, "the cluster page holds one export block of Dask settings"
    exported = dict(re.findall(r"\b(DASK_[A-Z_]+)=(\S+)", blocks[0]))
    config = dask.config.collect_env(exported)
    assert {key: dask.config.get(key, None, config=config) for key in QUIET_CLUSTER} == QUIET_CLUSTER
    assert len(exported) == len(QUIET_CLUSTER)


def test_no_cells_to_play_sends_nothing_to_the_cluster() -> None:
    # A sweep whose cells all came from the cache hands the runner none:
    # the cluster is asked for nothing, not even to hold the catalog.
    class Untouchable:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"the cluster was asked for {name}")

    pack = pack_rules("stationmaster")
    catalog = pack.load_catalog(SM)
    runner = dask_runner(pack, catalog, 4, 1, Untouchable())  # type: ignore[arg-type]
    assert list(runner([], None)) == []
