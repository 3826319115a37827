"""CPU seconds, not wall seconds: a cold ``check`` and ``validate`` on the
shipped content, and random legal play in actions per CPU-second, printed
beside the figures measured before game packs (issue 9's baseline).

CPU time is what the kit itself spends (user + system of the child process,
from ``getrusage``), so it is steadier than wall time on this shared 2-core
machine. Each figure is the median of several fresh runs.
Usage: python bench/cpu_figures.py [--root CHECKOUT]   (another checkout, for
side-by-side runs; one from before packs is run with ``-m engine.cli``)
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from warm import precompile  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
# Measured on main before the packs, as issue 9 quotes them.
BEFORE = {"check": 0.25, "validate": 0.13, "actions": 31_000.0}
PLAY = """
import sys, time
sys.path.insert(0, {root!r})
try:
    from engine.stationmaster import load_catalog
    from engine.stationmaster.rules.game import Game
    content = {root!r} + "/content/stationmaster"
except ImportError:
    from engine.content import load_catalog
    from engine.game import Game
    content = {root!r} + "/content"
catalog = load_catalog(content)
start = time.process_time()
actions = 0
for seed in range({games}):
    game = Game(catalog, players=1, seed=seed)
    while not game.is_over():
        game.apply(game.random_legal_action())
        actions += 1
print(actions / (time.process_time() - start))
"""


def child_cpu(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def main() -> None:
    root = Path(sys.argv[sys.argv.index("--root") + 1]).resolve() if "--root" in sys.argv else HERE
    precompile(root)
    env = {**os.environ, "PYTHONPATH": str(root), "NO_MKDOCS_2_WARNING": "1"}
    module = "command.cli" if (root / "command" / "cli.py").exists() else "engine.cli"
    figures: dict[str, float] = {}
    for command in ("check", "validate"):
        samples = [child_cpu([sys.executable, "-m", module, command], root, env)[0] for _ in range(9)]
        figures[command] = statistics.median(samples)
    rates = [float(child_cpu([sys.executable, "-c", PLAY.format(root=str(root), games=40)], root, env)[1]) for _ in range(5)]
    figures["actions"] = statistics.median(rates)
    print(f"CPU figures for {root} (medians), beside issue 9's baseline:")
    print(f"  cold check:    {figures['check']:.3f} s CPU   (before: about {BEFORE['check']:.2f} s)")
    print(f"  cold validate: {figures['validate']:.3f} s CPU   (before: about {BEFORE['validate']:.2f} s)")
    print(f"  random play:   {figures['actions']:,.0f} actions per CPU-second   (before: about {BEFORE['actions']:,.0f})")


if __name__ == "__main__":
    main()
