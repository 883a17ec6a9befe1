"""Paired speed comparison with pyminion (a mutable pure-Python Dominion engine), one core, one
run: Big Money against Big Money, 2 players, First Game Kingdom, on both engines.

The two engines take turns in rounds (ours, theirs, ours, ...) so that a machine busy with
something else slows both alike; the figure is the ratio of the games per second over all
rounds, with the median of the per-round ratios beside it. Both sides run their full loop:
ours `view` + bot answer + `step`; theirs `Game.play()` with its `BigMoney` bots.

    .venv/bin/pip install -e '.[bench]'     # pyminion is a benchmark dependency only
    .venv/bin/python bench/vs_pyminion.py [--games N] [--rounds R]
"""
from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dominion  # noqa: E402
from dominion.simulate import Setup, play_game  # noqa: E402

try:
    from pyminion.bots.examples import BigMoney
    from pyminion.expansions import base
    from pyminion.game import Game
except ImportError:  # pragma: no cover
    raise SystemExit("pyminion is not installed: .venv/bin/pip install -e '.[bench]'")

FIRST_GAME = ("cellar", "market", "merchant", "militia", "mine", "moat", "remodel", "smithy",
              "village", "workshop")


def ours(games: int, start: int) -> float:
    setup = Setup(("big-money", "big-money"), ("big-money", "big-money#2"), "First Game", None, 7)
    t = time.perf_counter()
    for i in range(start, start + games):
        result = play_game(setup, i)
        if "error" in result:
            raise SystemExit(f"our game {i} failed: {result['error']}")
    return time.perf_counter() - t


def theirs(games: int, start: int) -> float:
    kingdom = [getattr(base, name) for name in FIRST_GAME]
    t = time.perf_counter()
    for i in range(start, start + games):
        random.seed(i)
        game = Game(players=[BigMoney("a"), BigMoney("b")], expansions=[base.base_set],
                    kingdom_cards=kingdom, log_stdout=False)
        game.play()
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    logging.getLogger().setLevel(logging.WARNING)
    ours(5, 10**6)
    theirs(5, 10**6)
    our_time = their_time = 0.0
    ratios = []
    for r in range(args.rounds):
        a = ours(args.games, r * args.games)
        b = theirs(args.games, r * args.games)
        our_time += a
        their_time += b
        ratios.append(b / a)
    n = args.games * args.rounds
    print(f"our engine: {'compiled (mypyc)' if dominion.COMPILED else 'pure Python'}")
    print(f"Big Money vs Big Money, 2 players, First Game, one core, {n} games each:")
    print(f"  dominion-engine: {n / our_time:7.0f} games/s")
    print(f"  pyminion:        {n / their_time:7.0f} games/s")
    print(f"  ratio (ours / theirs): {their_time / our_time:.2f} "
          f"(median of rounds {statistics.median(ratios):.2f})")


if __name__ == "__main__":
    main()
