"""``sweep --cluster ADDRESS`` when the cluster is not what it should be:
every fault is one line on stderr and exit 2 within 15 s, no traceback, no
report written, and a hostile worker runs nothing in the sweeping process.

The peers are fakes on 127.0.0.1 (tests/kit/peers.py): listeners that are
not a Dask scheduler, and real ``dask`` schedulers and workers started as
processes of their own, so that a test can kill them as a crash would."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kit import peers
from tests.kit.cli import subprocess_env
from tests.kit.project import PROJECT_ROOT

pytestmark = pytest.mark.xdist_group("dask-faults")

SM = PROJECT_ROOT / "content" / "stationmaster"
ARGS = ["sweep", "--content", str(SM), "--rule", "startingOffice=depot,whistle-post", "--games", "6", "--seed", "3", "--format", "json", "--quiet"]
BOUND = 15.0  # seconds: the promise for every cluster fault


def _sweep(args: list[str], cwd: Path, env: dict[str, str] | None = None, guard: float = 40.0) -> tuple[int, str, str, float]:
    """``stationmaster ARGS`` in a child process: exit code, stdout, stderr, seconds taken."""
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "command.cli", *args], cwd=cwd, env=env or subprocess_env(), capture_output=True, text=True, timeout=guard)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - began


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("stationmaster sweep: error: "), err
    return err


@pytest.mark.parametrize(
    ("peer", "cause"),
    [(peers.web_server, "does not speak Dask's protocol"), (peers.silent, "nothing answered"), (peers.garbage, "does not speak Dask's protocol")],
)
def test_a_peer_that_is_not_a_scheduler_is_one_line_and_exit_2(tmp_path: Path, peer: peers.Handler, cause: str) -> None:
    with peers.fake_peer(peer) as address:
        code, out, err, took = _sweep([*ARGS, "--no-cache", "--cluster", address, "--patience", "2", "--output", "report.json"], tmp_path)
    assert (code, out) == (2, ""), err
    assert cause in _one_line(err) and address in err
    assert cause != "nothing answered" or "within 2 s" in err
    assert took < BOUND
    assert not (tmp_path / "report.json").exists()


def test_a_tls_address_without_certificates_is_refused_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in subprocess_env().items() if not k.startswith("DASK_")}
    code, out, err, _ = _sweep([*ARGS, "--no-cache", "--cluster", "tls://127.0.0.1:8786"], tmp_path, env)
    assert (code, out) == (2, "")
    assert "a tls:// scheduler needs certificates; set DASK_DISTRIBUTED__COMM__TLS__CA_FILE" in _one_line(err)


HOSTILE = """
import os


class Evil:
    def __reduce__(self):
        return (os.system, ("touch " + os.environ["HOSTILE_MARKER"],))


def dask_setup(worker):
    import engine.sweep.dask_runner as runner

    runner.play_chunk = lambda chunk, catalog: [Evil()]
"""


def test_a_hostile_worker_runs_nothing_in_the_sweeping_process(tmp_path: Path) -> None:
    # The worker's --preload makes every chunk an object whose unpickling
    # would create the marker: read as Dask reads it, it would run here.
    (tmp_path / "hostile_preload.py").write_text(HOSTILE, encoding="utf-8")
    marker = tmp_path / "marker"
    env = subprocess_env(HOSTILE_MARKER=str(marker))
    env["PYTHONPATH"] = os.pathsep.join((str(tmp_path), env["PYTHONPATH"]))
    with peers.dask_processes(1, env=env, preload="hostile_preload") as cluster:
        code, out, err, took = _sweep([*ARGS, "--no-cache", "--cluster", cluster.address], tmp_path, env)
    assert not marker.exists()
    assert (code, out) == (2, ""), err
    assert "a pickle naming posix.system, not plain data" in _one_line(err)
    assert took < BOUND


# Enough games that the cells after the first are still playing when a
# process is killed (a cell of random play takes well under a second).
# Patience of 2 s: the worker's fault is told in 2 s, not the default's 6.
LONG = ["sweep", "--content", str(SM), "--rule", "startingOffice=depot,whistle-post", "--players", "1,2", "--bot", "random", "--games", "150", "--quiet", "--cache", "cells", "--patience", "2"]


def _killed_mid_run(tmp_path: Path, kill: str) -> tuple[int, str, str, float, int]:
    """A long sweep on a cluster of one worker, and ``kill`` ('scheduler'
    or 'worker') killed once the first cell is cached: the exit code,
    stdout, stderr, seconds from the kill to the end, and cells cached."""
    cache = tmp_path / "cells"
    with peers.dask_processes(1, env=subprocess_env()) as cluster:
        sweeping = subprocess.Popen(
            [sys.executable, "-m", "command.cli", *LONG, "--cluster", cluster.address], cwd=tmp_path, env=subprocess_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            deadline = time.monotonic() + 60
            while not (cache.is_dir() and any(cache.glob("*.json"))):
                assert sweeping.poll() is None, sweeping.communicate()
                assert time.monotonic() < deadline, "no cell was cached within a minute"
                time.sleep(0.05)
            cluster.kill(cluster.scheduler if kill == "scheduler" else cluster.workers[0])
            killed = time.monotonic()
            out, err = sweeping.communicate(timeout=40)
        finally:
            if sweeping.poll() is None:
                sweeping.kill()
                sweeping.communicate()
    return sweeping.returncode, out, err, time.monotonic() - killed, len(list(cache.glob("*.json")))


def test_the_scheduler_dying_mid_run_is_one_line_and_exit_2(tmp_path: Path) -> None:
    code, out, err, took, cached = _killed_mid_run(tmp_path, "scheduler")
    assert (code, out) == (2, ""), err
    assert "the cells finished so far are cached" in _one_line(err)
    assert took < BOUND
    assert 1 <= cached < 4


def test_the_last_worker_dying_mid_run_is_one_line_and_exit_2(tmp_path: Path) -> None:
    code, out, err, took, cached = _killed_mid_run(tmp_path, "worker")
    assert (code, out) == (2, ""), err
    assert "has had no worker for 2 s" in _one_line(err)
    assert took < BOUND
    assert 1 <= cached < 4


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A private certificate authority and one certificate it signed, for
    127.0.0.1, made with openssl as site/kit/cluster.md shows."""
    folder = tmp_path_factory.mktemp("tls")
    page = (PROJECT_ROOT / "site" / "kit" / "cluster.md").read_text(encoding="utf-8")
    block = page.split("<!-- certificates -->\n```sh\n", 1)[1].split("```", 1)[0]
    subprocess.run(["sh", "-e", "-c", block], cwd=folder, check=True, capture_output=True, timeout=60)
    yield folder


def test_a_tls_cluster_gives_the_plain_pools_bytes(tmp_path: Path, certificates: Path) -> None:
    files = {"ca": certificates / "ca.pem", "cert": certificates / "member.pem", "key": certificates / "member-key.pem"}
    tls = ["--tls-ca-file", str(files["ca"]), "--tls-cert", str(files["cert"]), "--tls-key", str(files["key"])]
    env = subprocess_env(
        DASK_DISTRIBUTED__COMM__TLS__CA_FILE=str(files["ca"]),
        DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT=str(files["cert"]),
        DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY=str(files["key"]),
    )
    code, alone, err, _ = _sweep([*ARGS, "--no-cache"], tmp_path)
    assert code == 0, err
    with peers.dask_processes(1, scheme="tls", tls=tls, env=env) as cluster:
        code, clustered, err, _ = _sweep([*ARGS, "--no-cache", "--cluster", cluster.address], tmp_path, env)
        assert (code, err) == (0, ""), err
        assert clustered == alone
        # Without the certificates, the same scheduler lets nobody in.
        stranger = {k: v for k, v in env.items() if not k.startswith("DASK_")}
        code, out, err, _ = _sweep([*ARGS, "--no-cache", "--cluster", cluster.address], tmp_path, stranger)
        assert (code, out) == (2, "")
        assert "needs certificates" in _one_line(err)


def _forging(chunk: Any, catalog: bytes) -> Any:
    """``play_chunk``, but every chunk claims one game too few."""
    from engine.sweep.dask_runner import play_chunk

    plain = play_chunk(chunk, catalog)
    plain["games"].pop()
    return plain


def test_a_worker_handing_back_a_forged_chunk_ends_the_run_in_one_line() -> None:
    from engine.packs import pack_rules
    from engine.sweep.dask_runner import ClusterFailed, cluster_client, dask_runner
    from engine.sweep.grid import build_grid
    from engine.sweep.run import sweep
    from engine.sweep.store import CellStore

    pack = pack_rules("stationmaster")
    catalog = pack.load_catalog(SM)
    grid = build_grid(pack, catalog, ["startingOffice=depot"], None, None)
    with cluster_client("local", 1) as client:
        runner = dask_runner(pack, catalog, 4, 1, client, task=_forging)
        with pytest.raises(
            ClusterFailed, match=r"^a worker handed back a chunk of cell 1 \(.*\) that does not hold up \(the chunk's games holds \d item\(s\), not \d\); the cells finished so far are cached$"
        ):
            sweep(pack, catalog, grid, 4, 1, CellStore(None, print), runner)


OTHER_CODE = """
def dask_setup(worker):
    import engine.sweep.run as run

    run.engine_fingerprint = lambda pack: "0" * 64
"""


def test_a_workers_own_refusal_comes_through_the_restricted_unpickler(tmp_path: Path) -> None:
    # A legitimate failure on a worker (here: other code than the sweep's)
    # is pickled by Dask with its traceback; it must still reach the sweep
    # as the worker's own one line, not as a refused pickle.
    (tmp_path / "other_code.py").write_text(OTHER_CODE, encoding="utf-8")
    env = subprocess_env()
    env["PYTHONPATH"] = os.pathsep.join((str(tmp_path), env["PYTHONPATH"]))
    with peers.dask_processes(1, env=env, preload="other_code") as cluster:
        code, out, err, _ = _sweep([*ARGS, "--no-cache", "--cluster", cluster.address], tmp_path, env)
    assert (code, out) == (2, ""), err
    assert _one_line(err).endswith("runs other code of the kit than the sweep does: install the same version on every worker\n")


# The modules of distributed that read what the client receives.
READERS = ("distributed.client", "distributed.core", "distributed.protocol.core", "distributed.protocol.serialize", "distributed.comm.utils")


def test_every_place_dasks_client_unpickles_is_restricted() -> None:
    # Read from distributed's own source, so that a new version that reads
    # pickles by another name fails here rather than runs a peer's code.
    import importlib
    import inspect
    import re

    from engine.sweep.unpickling import restricted, restricted_loads

    # msgpack builds plain data only; distributed.protocol.core.loads is the
    # message decoder, itself one of READERS.
    plain = (restricted_loads, importlib.import_module("msgpack").loads, importlib.import_module("distributed.protocol.core").loads)

    with restricted():
        for name in READERS:
            module: Any = importlib.import_module(name)
            source = inspect.getsource(module)
            for chain in set(re.findall(r"(?<![\w.])([\w.]+)\.loads\(", source)):
                target: Any = module
                for part in chain.split("."):
                    target = getattr(target, part)
                assert target.loads in plain, f"{name} reads with {chain}.loads"
            if name == "distributed.client":
                assert re.search(r"(?<![\w.])loads\(", source) and module.loads is restricted_loads


def test_a_hostile_scheduler_runs_nothing_in_the_sweeping_process(run_cli: Any, tmp_path: Path) -> None:
    # Its first answer holds a pickle that would create the marker.
    marker = tmp_path / "marker"
    with peers.pickling_scheduler(marker) as address:
        code, out, err = run_cli([*ARGS, "--no-cache", "--cluster", address], tmp_path)
    assert not marker.exists()
    assert (code, out) == (2, ""), err
    assert err == f"stationmaster sweep: error: refused what answers at {address}: a pickle naming posix.system, not plain data\n"


def test_the_probe_works_where_an_event_loop_is_already_running() -> None:
    # A notebook, or Playwright's sync API in the same process, keeps a loop
    # running in the thread; asyncio.run there raises RuntimeError, which
    # the probe once took for a peer that does not speak Dask's protocol.
    import asyncio

    from engine.errors import UsageError
    from engine.sweep.dask_runner import Patience, _probe, _security

    async def inside_a_loop(address: str) -> str:
        try:
            _probe(address, _security(address), Patience().connect)
        except UsageError as exc:
            return str(exc)
        return "no refusal"

    with peers.fake_peer(peers.web_server) as address:
        said = asyncio.run(inside_a_loop(address))
    assert said.startswith(f"what answers at {address} does not speak Dask's protocol"), said
    assert not said.endswith("(RuntimeError)"), said
