"""What a search bot asks of Station Master's engine, per CPU-second.

A search bot (ISMCTS, determinized Monte Carlo) works over the public game
API: from the position it must move in, it deals the hidden cards afresh
(``determinized(stream)``), lists what may be done (``legal_actions()``),
tries an action (``apply``) and plays on to the end (here with the greedy
bot). This measures those three from mid-game positions of 2-player games
(seeds 0 to POSITIONS - 1, each played by the greedy bot in both seats up to
its PLY-th action):

- determinizations per CPU-second: ``determinized`` alone;
- greedy playouts per CPU-second: ``determinized`` and then the greedy bot
  in every seat to the end of the game;
- legal_actions per CPU-second: every position of a random playout from a
  determinized copy listed in full with ``legal_actions()`` (one of them,
  drawn from the copy's bot stream, is then applied; only the listing is
  timed).

Each figure is the median of RUNS fresh processes, in CPU seconds of that
process (``time.process_time``, the setting-up of the positions left out),
so a machine busy with other work slows the wall clock but not the figure.
``--baseline CHECKOUT`` measures another checkout's code (the same workload,
in the same run, alternating with this one), for a before-and-after figure;
both use this interpreter. Prints figures only; nothing is asserted.
Measured on the shared 2-core machine (issue 26, point 2), defaults, the
baseline being main before the work (934ba68), median of 5 runs each:
determinizations 1,121 -> 5,871 per CPU-second (5.2x), greedy playouts
9.7 -> 19.5 (2.0x; a playout of about 180 actions), legal_actions 7,252 ->
9,733 (1.3x). In machine instructions (valgrind, three playouts from one
position, start-up taken off) 921 million before and 449 million after
(2.05x). What changed: the greedy bot ranks only the proposals that may be
of the best rank still to try (a ceiling for each, and one for a card's
whole run of plays or discards, not built until needed), counts what a
laid card adds to the reach by walking on from a kept walk, and keeps a
few answers by what they follow from; a placement verdict stops at the
first reason; a copy is made field by field (``engine.plaincopy``) and
carries the game's derived views; ``legal_actions()`` is kept until the
next ``apply``.
Usage: python bench/search_speed.py [--baseline CHECKOUT] [--runs N] [--positions N] [--ply N] [--deals N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

# Run in a fresh process with the checkout's code first on the path; prints
# one JSON object of figures.
_DRIVER = r"""
import json, sys, time
from pathlib import Path
root = Path(sys.argv[1])
positions, ply, deals = (int(a) for a in sys.argv[2:5])
sys.path.insert(0, str(root))
from engine.rng import SeededStream
from engine.stationmaster import load_catalog
from engine.stationmaster.bots import greedy_bot
from engine.stationmaster.rules.game import Game

catalog = load_catalog(root / "content" / "stationmaster")


def midgame(seed):
    game = Game(catalog, players=2, seed=seed)
    while not game.is_over() and len(game.history) < ply:
        game.apply(greedy_bot(game))
    return game


def play_out(game):
    while not game.is_over():
        game.apply(greedy_bot(game))


def list_along(game):
    listed, spent = 0, 0.0
    while not game.is_over():
        start = time.process_time()
        found = game.legal_actions()
        spent += time.process_time() - start
        listed += 1
        game.apply(found[game.bot.below(len(found))])
    return listed, spent


games = [midgame(seed) for seed in range(positions)]
play_out(games[0].determinized(SeededStream(0, "warm")))  # imports, the handler registry
start = time.process_time()
for deal in range(deals):
    for game in games:
        game.determinized(SeededStream(deal, "bench"))
determinized = deals * len(games) / (time.process_time() - start)
start = time.process_time()
actions = 0
for deal in range(deals):
    for game in games:
        twin = game.determinized(SeededStream(deal, "bench"))
        before = len(twin.history)
        play_out(twin)
        actions += len(twin.history) - before
seconds = time.process_time() - start
listed, spent = 0, 0.0
for game in games:
    n, t = list_along(game.determinized(SeededStream(1, "bench")))
    listed, spent = listed + n, spent + t
print(json.dumps({"determinized": determinized, "playouts": deals * len(games) / seconds, "playout actions": actions / (deals * len(games)), "legal_actions": listed / spent}))
"""

FIGURES = ("determinized", "playouts", "legal_actions")


def run(root: Path, positions: int, ply: int, deals: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-c", _DRIVER, str(root), str(positions), str(ply), str(deals)], cwd=root, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the workload failed in {root}:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout, measured the same way in the same run")
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per checkout (the median is printed)")
    parser.add_argument("--positions", type=int, default=8, help="mid-game positions (2-player games, seeds from 0)")
    parser.add_argument("--ply", type=int, default=40, help="actions played before a position is taken")
    parser.add_argument("--deals", type=int, default=3, help="determinized copies played out from each position")
    args = parser.parse_args()
    roots = [("this checkout", HERE)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    samples: dict[str, list[dict[str, float]]] = {name: [] for name, _ in roots}
    for _ in range(args.runs):
        for name, root in roots:  # alternating, so a change in the machine's load falls on both
            samples[name].append(run(root, args.positions, args.ply, args.deals))
    medians = {name: {f: statistics.median(s[f] for s in samples[name]) for f in (*FIGURES, "playout actions")} for name in samples}
    print(f"Station Master search workload: {args.positions} 2-player positions at action {args.ply}, {args.deals} deals each; median of {args.runs} fresh processes, CPU seconds, one core")
    mine = medians["this checkout"]
    print(f"  greedy playouts average {mine['playout actions']:.0f} actions")
    for figure, label in zip(FIGURES, ("determinizations", "greedy playouts", "legal_actions")):
        line = f"  {label + ' per CPU-second:':<34} {mine[figure]:10,.1f}"
        if args.baseline:
            base = medians["baseline"][figure]
            line += f"   baseline {base:10,.1f}   ({mine[figure] / base:.2f}x)"
        print(line)


if __name__ == "__main__":
    main()
