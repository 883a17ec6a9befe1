"""The planner's speed: games per second of the scripted play it spends its budget on, and the
time to plan a Kingdom at the default budget (the goal: at most 60 s on 2 cores).

1. Scripted games per second, one core: a money plan (Big Money Ultimate + 2 Witches) and an
   engine plan (Village/Smithy/Militia/Market) against big-money-ultimate, as the planner
   plays them (`dominion.bots.planner.match_shares`).
2. Planning: `dominion plan`'s search on each Kingdom at ``--budget`` games on ``--workers``
   processes (no cache), its seconds and games per second.

    .venv/bin/python bench/planner.py                    # 4 Kingdoms at the default budget
    .venv/bin/python bench/planner.py --kingdoms 1 --budget 2000 --games 50   # a quick look
"""
from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dominion  # noqa: E402
from dominion.bots import fitting_strategies  # noqa: E402
from dominion.bots.planner import (DEFAULT_BUDGET, ENGINE, Plan, Want, baseline,  # noqa: E402
                                   match_shares, money_plan, plan_kingdom)

KINGDOMS = ("First Game", "Size Distortion", "Underlings", "Best Wishes")


def games_per_second(games: int) -> list:
    """(plan, games per second) of one core's scripted play."""
    out = []
    for kingdom_name, plan in (
            ("Size Distortion", money_plan(Want("Witch", 2))),
            ("First Game", Plan(ENGINE, engine=("Village", "Smithy", "Militia", "Market", ""),
                                counts=(5, 2, 2), golds=0))):
        kingdom = dominion.RECOMMENDED[kingdom_name][1]
        started = time.perf_counter()
        match_shares(kingdom, 2, plan.toml(), baseline().toml(), 1, 0, games)
        out.append((plan.label, games / (time.perf_counter() - started)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kingdoms", type=int, default=len(KINGDOMS),
                        help=f"how many of {', '.join(KINGDOMS)} to plan")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=400,
                        help="games per plan for the games-per-second figure")
    args = parser.parse_args()
    print(f"dominion.COMPILED = {dominion.COMPILED}")
    for label, rate in games_per_second(args.games):
        print(f"scripted play, one core: {label} against big-money-ultimate: {rate:.0f} games/s")
    seconds = []
    context = multiprocessing.get_context("fork")
    for name in KINGDOMS[:args.kingdoms]:
        kingdom = dominion.RECOMMENDED[name][1]
        started = time.perf_counter()
        with ProcessPoolExecutor(args.workers, mp_context=context) as pool:
            result = plan_kingdom(kingdom, 2, args.budget, 0, pool,
                                  built_ins=fitting_strategies(kingdom))
        took = time.perf_counter() - started
        seconds.append(took)
        print(f"planned {name} ({args.budget} games, {args.workers} workers): {took:.1f} s, "
              f"{result.games / took:.0f} games/s: {result.plan.label} "
              f"({result.finalists[0].mixture:.1%} against its league)")
    if seconds:
        print(f"seconds per Kingdom: median {statistics.median(seconds):.1f}, "
              f"most {max(seconds):.1f}")


if __name__ == "__main__":
    main()
