"""Playouts per second from mid-game states: what the search bot's strength is bought with.

Mid-game states: games of the Kingdom's best built-in strategy (every seat) stopped at the first
decision of the searching seat's Buy phase from turn ``--turn`` of the whole table on. A playout
is what `dominion.bots.SearchBot` does per sample: a `determinize` sample for that seat, one
answer, and every seat played to the end by the rollout strategy (bots forked from the seat's
card counts). Prints playouts per second per player count, and with ``--profile`` where a
playout spends its time.

    .venv/bin/python bench/playouts.py [--playouts N] [--turn T] [--profile]
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dominion  # noqa: E402
from dominion.bots import SearchBot, StrategyBot, best_strategy_for, strategy  # noqa: E402
from dominion.determinize import Determinizer  # noqa: E402
from dominion.views import Observation  # noqa: E402

KINGDOMS = ("First Game", "Big Money", "Best Wishes", "Underlings")


def mid_game(kingdom: str, players: int, turn: int, seed: int):
    """(state, seat 0's rollout bot that has played up to it): the first Buy phase of seat 0 at or
    after ``turn``, every seat played by the search bot's rollout strategy."""
    state = dominion.new_game(players=players, kingdom=kingdom, seed=seed, first_player=0)
    rollout = strategy(best_strategy_for(state.config.kingdom))
    bots = [StrategyBot(rollout, seed + s) for s in range(players)]
    while True:
        d = dominion.pending(state)
        if d is None:
            return None
        if d.player == 0 and d.purpose == "buy_phase" and state.turn >= turn:
            return state, bots[0]
        seat = d.player
        state = dominion.step(state, bots[seat].answer(
            d, Observation(state, seat, bots[seat].log_from)))


def playouts(samples: list, count: int) -> float:
    """Playouts per second over ``samples`` (state, policy), ``count`` each."""
    runner = SearchBot(1, playouts=1)
    started = time.perf_counter()
    done = 0
    for state, policy in samples:
        runner.policy = policy
        known = policy.known
        sampler = Determinizer(state, 0)
        move = dominion.pending(state).moves[-1]
        for k in range(count):
            runner._playout(sampler.sample(k), 0, move, k, [policy] * len(state.players),
                            known)
            done += 1
    return done / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=100, help="playouts per state")
    parser.add_argument("--turn", type=int, default=16, help="turns of the whole table played")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    for players in (2, 4):
        samples = [s for k in KINGDOMS
                   for s in [mid_game(k, players, args.turn * players // 2, 7)] if s]
        if args.profile and players == 2:
            profile = cProfile.Profile()
            profile.runcall(playouts, samples, args.playouts)
            pstats.Stats(profile).sort_stats("tottime").print_stats(12)
        rate = playouts(samples, args.playouts)
        print(f"{players} players: {rate:,.0f} playouts/s from {len(samples)} mid-game states "
              f"(turn {args.turn * players // 2} of the table), {args.playouts} each, "
              f"compiled engine: {dominion.COMPILED}")


if __name__ == "__main__":
    main()
