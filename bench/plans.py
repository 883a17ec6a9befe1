"""Whole plans against the scripted bots: does a better plan of the Big Money kind exist, and
does the search bot gain from one?

The search bot corrects its rollout strategy one buy at a time (`dominion.bots.search`); a plan
that needs several buys of a Kingdom card is out of its reach. This script measures what such
plans are worth, on the agent table's Kingdoms (`bench/agent_table.py`: a Witch added against
the Witch bots). A *variant* of a base strategy adds one Kingdom card to it: one copy bought
over Gold, or up to two bought over Silver.

- ``--games N`` (the plan table): every variant of the base against the base itself, N games
  each on the same seeds, every seat in turn; per Kingdom the best variant's win share. The
  base is the opponent (witch-big-money), or the Kingdom's best built-in (``--opponent best``).
- ``--pairs P`` (the search with a plan): the search bot as in the agent table, and the search
  bot whose own seat plays the plan `search_plan` finds at its first buy (a search over the
  variants by their games against the base: the plan depends only on the Kingdom), each
  against the opponent on P pairs of games per Kingdom, the same seeds for both.
- ``--kingdoms N``: only the first N of those Kingdoms (a quick look; the tests' tiny size).

    .venv/bin/python bench/plans.py --games 400                          # about 2 minutes
    .venv/bin/python bench/plans.py --games 0 --pairs 12 --playouts 48   # about 18 minutes
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import dominion  # noqa: E402
from agent_table import DOUBLE_WITCH, kingdoms, with_witch  # noqa: E402
from dominion.bots import SearchBot, StrategyBot, best_strategy_for, make_bot, strategy  # noqa: E402
from dominion.bots.search import MAX_ROLLOUT_DECISIONS, _mix  # noqa: E402
from dominion.bots.strategy import Rule, Strategy, parse_condition  # noqa: E402
from dominion.simulate import game_seed, wilson  # noqa: E402
from dominion.bots.playout import play_out  # noqa: E402

OVER_GOLD, OVER_SILVER = "over Gold", "over Silver"
VARIANTS = ((1, OVER_GOLD), (2, OVER_SILVER))
KEEP = (4, 1, 1)   # the plan search: the variants kept after each round (besides the base)


def variant(base: Strategy, card: str, copies: int, place: str) -> Strategy:
    """``base`` with one more buy rule: ``card`` while it owns fewer than ``copies``, before the
    base's first Gold rule (or Silver rule); at the end where there is none."""
    target = "Gold" if place == OVER_GOLD else "Silver"
    rules = list(base.buy)
    at = next((i for i, r in enumerate(rules) if r.card == target), len(rules))
    rules.insert(at, Rule(card, (parse_condition(f"count({card}) < {copies}"),)))
    return replace(base, name=f"{base.name} + {card} x{copies} {place}", buy=tuple(rules))


def variants(base: Strategy, kingdom) -> list:
    """The base first, then its variants for each Kingdom card it does not buy."""
    bought = {r.card for r in base.buy}
    return [base] + [variant(base, card, copies, place) for card in kingdom
                     if card not in bought
                     for copies, place in VARIANTS]


def share(plan: Strategy, base: Strategy, kingdom, seed: int, seat: int, players: int = 2):
    """``plan``'s win share in ``seat`` of one game against ``base`` in the other seats."""
    state = dominion.new_game(players=players, kingdom=list(kingdom), seed=seed, first_player=0)
    bots = [StrategyBot(plan if s == seat else base, _mix(seed ^ (s + 1)))
            for s in range(players)]
    state, pending = play_out(state, bots, [True] * players, dominion.step,
                              MAX_ROLLOUT_DECISIONS)
    if pending is not None:
        return 1.0 / players
    won = dominion.winners(state)
    return 1.0 / len(won) if seat in won else 0.0


def search_plan(base: Strategy, kingdom, players: int, games: int, seed: int = 0) -> Strategy:
    """The variant that beats ``base`` most by sequential halving (``games`` games each in the
    first round, three times as many in all after each round, the same seeds for all), if it
    beats it by 2 points and two standard errors on the same games; else the base."""
    plans = variants(base, kingdom)
    values: list = [[] for _ in plans]
    alive, played = list(range(len(plans))), 0
    for keep in KEEP:
        for g in range(played, games):
            seed_g = _mix(seed ^ _mix(g // players))
            for i in alive:
                values[i].append(share(plans[i], base, kingdom, seed_g, g % players, players))
        played, games = games, games * 3
        ranked = sorted(alive, key=lambda i: (-sum(values[i]), i))[:keep]
        alive = sorted(set(ranked) | {0})
    best = max((i for i in alive if i), key=lambda i: sum(values[i]), default=None)
    if best is None:
        return base
    diffs = [a - b for a, b in zip(values[best], values[0])]
    gain = sum(diffs) / len(diffs)
    spread = math.sqrt(sum((d - gain) ** 2 for d in diffs) / max(1, len(diffs) - 1))
    return plans[best] if gain > 0.02 and gain > 2 * spread / math.sqrt(len(diffs)) else base


class PlanSearchBot(SearchBot):
    """The search bot whose own seat plays a plan (its default answers, and its seat in every
    rollout); the other seats roll out with the base, as before."""
    PLANS: dict = {}   # (base, Kingdom, players): the plan (one process, one experiment)
    GAMES = 48         # the plan search's games per variant in its first round

    def _policy_for(self, kingdom, players):
        if self.policy is None:
            base = strategy(best_strategy_for(kingdom))
            key = (base.name, tuple(kingdom), players)
            if key not in self.PLANS:
                self.PLANS[key] = search_plan(base, kingdom, players, self.GAMES)
            seed = self.rng.getrandbits(64)
            self.policy = StrategyBot(self.PLANS[key], seed)
            self.base_policy = StrategyBot(base, seed)
        return self.policy

    def _playout(self, sample, seat, move, sample_seed, players, known):
        policy = players[seat]
        state = dominion.step(sample, move)
        n = len(state.players)
        bots = [(policy if q == seat else self.base_policy).fork(_mix(sample_seed ^ (q + 1)),
                                                                  known) for q in range(n)]
        state, _ = play_out(state, bots, [True] * n, dominion.step, MAX_ROLLOUT_DECISIONS)
        won = dominion.winners(state)
        return (1.0 / len(won) if seat in won else 0.0), len(state.answers) - len(sample.answers)


def _plan_job(job):
    k, index, base_name, kingdom, games = job
    base = strategy(base_name)
    plan = variants(base, kingdom)[index]
    return k, plan.name, sum(share(plan, base, kingdom, game_seed(7, g, 2), g % 2)
                             for g in range(games)) / games


def plan_table(games: int, opponent: str, workers: int, first=None) -> None:
    jobs = []
    for k, kingdom in enumerate(kingdoms(1)[:first]):
        if opponent != "best":
            kingdom = with_witch(kingdom)
        base = opponent if opponent != "best" else best_strategy_for(kingdom)
        jobs += [(k, i, base, kingdom, games)
                 for i in range(len(variants(strategy(base), kingdom)))]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = pool.map(_plan_job, jobs, chunksize=1)
    best_shares = []
    for k in sorted({r[0] for r in results}):
        mine = sorted((s, name) for kk, name, s in results if kk == k)
        best_shares.append(mine[-1][0])
        print(f"Kingdom {k:2}: {mine[-1][1]}: {mine[-1][0]:.3f} ({len(mine) - 1} variants)")
    print(f"mean of the best variants' shares: {sum(best_shares) / len(best_shares):.3f}")


def _search_job(job):
    cls, specs, kingdom, seed, playouts = job
    state = dominion.new_game(players=2, kingdom=list(kingdom), seed=seed, first_player=0)
    bots = [cls(_mix(seed ^ (s + 1)), playouts=playouts) if spec == "search"
            else make_bot(spec, _mix(seed ^ (s + 1))) for s, spec in enumerate(specs)]
    state, _ = play_out(state, bots, [s != "search" for s in specs], dominion.step, 20_000)
    won = dominion.winners(state)
    return 1.0 / len(won) if specs.index("search") in won else 0.0


def search_rows(pairs: int, opponent: str, playouts: int, workers: int, first=None) -> None:
    spec = DOUBLE_WITCH if opponent == "double-witch" else opponent
    for cls in (SearchBot, PlanSearchBot):
        jobs = []
        for p in range(pairs):
            for k, kingdom in enumerate(kingdoms(1)[:first]):
                if opponent != "best":
                    kingdom = with_witch(kingdom)
                other = best_strategy_for(kingdom) if opponent == "best" else spec
                seed = game_seed(2026, p * 100 + k, 1)
                jobs += [(cls, ("search", other), kingdom, seed, playouts),
                         (cls, (other, "search"), kingdom, seed, playouts)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            shares = pool.map(_search_job, jobs, chunksize=1)
        lo, hi = wilson(sum(shares), len(shares))
        print(f"{cls.__name__} against {opponent}: {sum(shares) / len(shares):.3f} "
              f"({lo:.3f} to {hi:.3f}), {len(shares)} games at {playouts} playouts", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per variant (0: none)")
    parser.add_argument("--pairs", type=int, default=0, help="search pairs per Kingdom")
    parser.add_argument("--playouts", type=int, default=48)
    parser.add_argument("--plan-games", type=int, default=PlanSearchBot.GAMES,
                        help="the plan search's games per variant in its first round")
    parser.add_argument("--opponent", default="witch-big-money",
                        help="witch-big-money, double-witch or best")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kingdoms", type=int, default=None, metavar="N",
                        help="only the first N of the Kingdoms (a quick look)")
    args = parser.parse_args()
    started = time.perf_counter()
    PlanSearchBot.GAMES = args.plan_games   # (set before the workers are forked)
    if args.games:
        base = "witch-big-money" if args.opponent == "double-witch" else args.opponent
        plan_table(args.games, base, args.workers, args.kingdoms)
    if args.pairs:
        search_rows(args.pairs, args.opponent, args.playouts, args.workers, args.kingdoms)
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
