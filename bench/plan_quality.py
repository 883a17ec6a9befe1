"""How strong the planner's plans are, played as scripts (no search): the measure of a change to
the planner, apart from the search bot that plays the plan.

Each Kingdom is planned (`dominion plan`'s planner at ``--budget`` games, seed 0, from the plan
cache where it is there). Its plan then plays, on the same seeds for every plan (common random
numbers, every game from both seats), against Big Money Ultimate + the Kingdom's best card (the
planner's own `best_single`: "Big Money + the best terminal" of the published agents) and, on a
known-best script's board (bench/known_scripts.py), against that script. The Kingdoms: the
agent table's (its 8 recommended and 8 random ones, `agent_table.kingdoms(1)`), then each
known-best script's board that is not among them. Printed: each Kingdom's plan and win shares
with 95% Wilson intervals, then the mean over the Kingdoms.

    .venv/bin/python bench/plan_quality.py                   # 27 Kingdoms, 1,000 games a matchup
    .venv/bin/python bench/plan_quality.py --kingdoms 2 --budget 1000 --games 20   # a quick look
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "clients" / "python"))

from agent_table import kingdoms, script_board  # noqa: E402
from known_scripts import KNOWN, SCRIPTS_DIR  # noqa: E402

import dominion  # noqa: E402
from dominion.bots.planner import DEFAULT_BUDGET, match_shares  # noqa: E402
from dominion.simulate import wilson  # noqa: E402
from dominion_client.commands_plan import plan_or_cached  # noqa: E402


def boards() -> list:
    """(name, Kingdom, known-best script's file or None), each Kingdom once."""
    out, seen = [], set()
    for i, kingdom in enumerate(kingdoms(1)[:16]):
        out.append((f"agent table {i}", tuple(kingdom), None))
        seen.add(frozenset(kingdom))
    for name, _ in KNOWN:
        path = SCRIPTS_DIR / f"{name}.toml"
        kingdom = tuple(script_board(str(path)))
        if frozenset(kingdom) in seen:
            out = [(n, k, path if frozenset(k) == frozenset(kingdom) else s)
                   for n, k, s in out]   # the agent table's Kingdom is this script's board too
        else:
            out.append((f"{name}'s board", kingdom, path))
            seen.add(frozenset(kingdom))
    return out


def shares(pool, kingdom: tuple, mine: str, theirs: str, seed: int, games: int) -> list:
    half = games // 2 // 2 * 2
    futures = [pool.submit(match_shares, kingdom, 2, mine, theirs, seed, lo, hi)
               for lo, hi in ((0, half), (half, games))]
    return [share for future in futures for share in future.result()]


def row(label: str, won: list) -> str:
    low, high = wilson(sum(won), len(won))
    return f"{label} {sum(won) / len(won):.1%} ({low:.1%} to {high:.1%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kingdoms", type=int, default=None, metavar="N",
                        help="only the first N Kingdoms (a quick look)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="games per plan")
    parser.add_argument("--games", type=int, default=1000, help="games per matchup (even)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    games = max(2, args.games // 2 * 2)
    print(f"dominion.COMPILED = {dominion.COMPILED}; plans of {args.budget} games, "
          f"{games} games a matchup")
    started = time.perf_counter()
    against_best, against_scripts = [], []
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(args.workers, mp_context=context) as pool:
        for name, kingdom, script in boards()[:args.kingdoms]:
            data, _ = plan_or_cached(kingdom, 2, args.budget, 0, executor=pool)
            won = shares(pool, kingdom, data["plan"], data["best_single"], 32, games)
            against_best += won
            line = [f"{name}: {data['label']}", row("against " +
                                                   str(data["best_single_label"]), won)]
            if script is not None:
                won = shares(pool, kingdom, data["plan"], script.read_text(encoding="utf-8"),
                             33, games)
                against_scripts += won
                line.append(row(f"against {script.stem}", won))
            print(" | ".join(line), flush=True)
    print(row("mean against BMU + the Kingdom's best card:", against_best))
    if against_scripts:
        print(row("mean against the known-best scripts on their boards:", against_scripts))
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
