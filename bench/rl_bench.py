"""RL environment benchmark: environment steps per second with uniformly random legal actions,
for the batched environment, the PettingZoo `DominionEnv` looped one game at a time, and the
bare engine (`dominion.step` with a random legal answer, then `dominion.view` for the seat to
move), in the same run, on one core.

An environment step is one action: a pick of a multi-card answer counts as a step, as it does
for an agent. The bare engine's step is one whole answer; its per-step cost is what the engine
itself costs an environment. Goals (issue 21): the batched environment >= 3x the steps/s of
looping `DominionEnv`, and its cost per step <= 2x a bare engine step.

The three run in alternating rounds (each keeps its games going from round to round), so that
all meet the same machine load, timed in CPU time of this process (`time.process_time`: a
shared machine's other work does not count); the figures are each contender's total steps over
its total time, and the ratios' median over the rounds.

    .venv/bin/python bench/rl_bench.py [--steps N] [--rounds R] [--games G] [--players P]
                                       [--kingdom K] [--gc on|off]
"""
from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clients" / "python"))

import numpy as np  # noqa: E402

import dominion  # noqa: E402
from dominion import CHOOSE, ORDER, TURN  # noqa: E402
from dominion_rl import BatchedDominionEnv, DominionEnv, masked_random_actions  # noqa: E402


class Batched:
    """The batched environment, random masked actions for every game at once."""

    def __init__(self, games: int, players: int, kingdom: str, seed: int):
        self.env = BatchedDominionEnv(num_games=games, players=players, kingdom=kingdom)
        self.obs, _ = self.env.reset(seed=seed)
        self.rng = np.random.default_rng(seed)

    def run(self, steps: int) -> tuple:
        """(steps taken, CPU seconds)."""
        env, rng, obs = self.env, self.rng, self.obs
        rounds = max(1, steps // env.num_games)
        started = time.process_time()
        for _ in range(rounds):
            obs, *_ = env.step(masked_random_actions(obs["action_mask"], rng))
        elapsed = time.process_time() - started
        self.obs = obs
        return rounds * env.num_games, elapsed


class Looped:
    """`DominionEnv` through PettingZoo's AEC loop, one game at a time, sampling with the mask
    as PettingZoo's documentation does."""

    def __init__(self, players: int, kingdom: str, seed: int):
        self.env = DominionEnv(players=players, kingdom=kingdom)
        self.seed, self.games = seed, 0
        self.env.reset(seed=seed)
        self.env.action_space(self.env.possible_agents[0]).seed(seed)
        self.agents = self.env.agent_iter()

    def run(self, steps: int) -> tuple:
        env, done = self.env, 0
        started = time.process_time()
        while done < steps:
            for agent in self.agents:
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                env.step(env.action_space(agent).sample(obs["action_mask"]))
                done += 1
                if done >= steps:
                    break
            else:   # the game ended: the next one
                self.games += 1
                env.reset(seed=self.seed + self.games)
                self.agents = env.agent_iter()
        return done, time.process_time() - started


def random_answer(d, rng: random.Random):
    """A random legal answer to a whole decision, drawn as the environments' agents draw it
    (one uniformly random legal action at a time, DONE included once allowed), so that the
    bare engine plays the same kind of games as the environments."""
    if d.kind == TURN:
        return rng.choice(d.moves)
    pool = list(d.options if d.kind == CHOOSE else d.cards)
    most = len(pool) if d.kind == ORDER else d.max
    least = len(pool) if d.kind == ORDER else d.min
    picked: list = []
    while True:
        can_stop = len(picked) >= least
        choices = list(dict.fromkeys(pool)) if len(picked) < most else []
        if not choices or (can_stop and rng.randrange(len(choices) + 1) == 0):
            return picked
        pick = rng.choice(choices)
        picked.append(pick)
        pool.remove(pick)


class Bare:
    """The engine alone: `dominion.step` with a random legal answer (drawn as the agents draw
    theirs), then `dominion.view` for the seat to move; games cut off at 100 turns a seat."""

    def __init__(self, players: int, kingdom: str, seed: int, max_turns: int = 100):
        self.players, self.kingdom, self.seed, self.max_turns = players, kingdom, seed, max_turns
        self.rng = random.Random(seed)
        self.games = 0
        self.state = dominion.new_game(players=players, kingdom=kingdom, seed=seed)

    def run(self, steps: int) -> tuple:
        state, rng = self.state, self.rng
        started = time.process_time()
        for _ in range(steps):
            d = dominion.pending(state)
            state = dominion.step(state, random_answer(d, rng), d.player)
            if dominion.is_over(state) or state.turns_taken[state.current] > self.max_turns:
                self.games += 1
                state = dominion.new_game(players=self.players, kingdom=self.kingdom,
                                          seed=self.seed + self.games)
                continue
            dominion.view(state, dominion.pending(state).player)
        elapsed = time.process_time() - started
        self.state = state
        return steps, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60_000, help="steps per contender")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--games", type=int, default=256, help="games in the batch")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--kingdom", default="First Game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gc", choices=("on", "off"), default="on",
                        help="off: Python's cyclic garbage collector disabled for the whole run")
    args = parser.parse_args()
    if args.gc == "off":
        gc.disable()
    common = (args.players, args.kingdom, args.seed)
    contenders = {"batched": Batched(args.games, *common), "looped": Looped(*common),
                  "bare": Bare(*common)}
    for c in contenders.values():   # warm up: imports, caches
        c.run(args.games)
    chunk = max(args.games, args.steps // args.rounds)
    totals = {name: [0, 0.0] for name in contenders}
    vs_looped, vs_bare = [], []
    for _ in range(args.rounds):
        rate = {}
        for name, c in contenders.items():
            steps, seconds = c.run(chunk)
            totals[name][0] += steps
            totals[name][1] += seconds
            rate[name] = steps / seconds
        vs_looped.append(rate["batched"] / rate["looped"])
        vs_bare.append(rate["bare"] / rate["batched"])
    per_second = {name: steps / seconds for name, (steps, seconds) in totals.items()}
    print(f"our engine: {'compiled (mypyc)' if dominion.COMPILED else 'pure Python'}; "
          f"{args.players} players, {args.kingdom}, random legal actions, one core, "
          f"{args.rounds} rounds of {chunk} steps each, garbage collector {args.gc}")
    print(f"batched environment ({args.games} games): {per_second['batched']:,.0f} steps/s")
    print(f"DominionEnv (PettingZoo), looped:        {per_second['looped']:,.0f} steps/s")
    print(f"bare engine (step + view):                {per_second['bare']:,.0f} steps/s")
    print(f"batched / DominionEnv: median {statistics.median(vs_looped):.2f}x over the rounds "
          f"(min {min(vs_looped):.2f}, max {max(vs_looped):.2f}; goal >= 3)")
    print(f"batched cost per step / bare engine's: median {statistics.median(vs_bare):.2f}x "
          f"(min {min(vs_bare):.2f}, max {max(vs_bare):.2f}; goal <= 2)")


if __name__ == "__main__":
    main()
