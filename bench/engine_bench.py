"""Engine benchmark: Big Money against Big Money, 2 players, First Game Kingdom, one core.

Prints games per second (the whole loop a simulation runs: `view` for the seat, the bot's answer,
`step`), by the clock and per second of this process's CPU time (steadier on a shared machine),
and peak memory: the traced peak of one game (tracemalloc, measured in a separate run as tracing
slows Python down) and the process's maximum resident size.

    .venv/bin/python bench/engine_bench.py [--games N] [--seed S] [--engine DIR]

``--engine DIR`` times the engine of another checkout (its built ``dominion/``), e.g. the
previous commit's, so that two builds are compared by the same script and interpreter.
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc
from pathlib import Path

PARSER = argparse.ArgumentParser(description=__doc__.splitlines()[0])
PARSER.add_argument("--games", type=int, default=500)
PARSER.add_argument("--seed", type=int, default=1)
PARSER.add_argument("--engine", default=str(Path(__file__).resolve().parent.parent),
                    metavar="DIR", help="the checkout whose engine to time (default: this one)")
ARGS = PARSER.parse_args()
sys.path.insert(0, ARGS.engine)

import dominion  # noqa: E402
from dominion.simulate import Setup, play_game  # noqa: E402

BOTS = ("big-money", "big-money")
SETUP_LABELS = ("big-money", "big-money#2")


def run(games: int, seed: int) -> tuple:
    """(games per second by the clock, games per second of CPU time)."""
    setup = Setup(BOTS, SETUP_LABELS, "First Game", None, seed)
    play_game(setup, 0)  # warm up: imports, caches
    started, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        result = play_game(setup, i)
        if "error" in result:
            raise SystemExit(f"game {i} failed: {result['error']}")
    return games / (time.perf_counter() - started), games / (time.process_time() - cpu)


def peak_bytes_of_one_game(seed: int) -> int:
    setup = Setup(BOTS, SETUP_LABELS, "First Game", None, seed)
    tracemalloc.start()
    play_game(setup, 1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main() -> None:
    args = ARGS
    rate, cpu_rate = run(args.games, args.seed)
    peak = peak_bytes_of_one_game(args.seed)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(f"our engine: {'compiled (mypyc)' if dominion.COMPILED else 'pure Python'}")
    print(f"Big Money vs Big Money, 2 players, First Game: {rate:.0f} games/s "
          f"({args.games} games, one core; {cpu_rate:.0f} per CPU-second)")
    print(f"peak memory: {peak / 1024:.0f} KiB traced during one game; "
          f"process max RSS {rss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
