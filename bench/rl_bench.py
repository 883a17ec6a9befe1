"""RL environment benchmark: environment steps per second with uniformly random legal actions,
for the batched environment, the PettingZoo `DominionEnv` looped one game at a time, and the
bare engine (`dominion.step` with a random legal answer, then `dominion.view` for the seat to
move), in the same run, on one core.

An environment step is one action: a pick of a multi-card answer counts as a step, as it does
for an agent. The bare engine's step is one whole answer; its per-step cost is what the engine
itself costs an environment. Goals (issue 21): the batched environment >= 3x the steps/s of
looping `DominionEnv`, and its cost per step <= 2x a bare engine step.

    .venv/bin/python bench/rl_bench.py [--steps N] [--games G] [--players P] [--kingdom K]
"""
from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clients" / "python"))

import numpy as np  # noqa: E402

import dominion  # noqa: E402
from dominion import CHOOSE, ORDER, TURN  # noqa: E402
from dominion_rl import BatchedDominionEnv, DominionEnv, masked_random_actions  # noqa: E402


def batched_steps_per_second(steps: int, games: int, players: int, kingdom: str,
                             seed: int) -> float:
    env = BatchedDominionEnv(num_games=games, players=players, kingdom=kingdom)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rounds = max(1, steps // games)
    started = time.perf_counter()
    for _ in range(rounds):
        obs, *_ = env.step(masked_random_actions(obs["action_mask"], rng))
    return rounds * games / (time.perf_counter() - started)


def dominion_env_steps_per_second(steps: int, players: int, kingdom: str, seed: int) -> float:
    env = DominionEnv(players=players, kingdom=kingdom)
    env.reset(seed=seed)
    env.action_space(env.possible_agents[0]).seed(seed)
    done = 0
    game = 0
    started = time.perf_counter()
    while done < steps:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(env.action_space(agent).sample(obs["action_mask"]))
            done += 1
            if done >= steps:
                break
        game += 1
        env.reset(seed=seed + game)
    return done / (time.perf_counter() - started)


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


def bare_engine_steps_per_second(steps: int, players: int, kingdom: str, seed: int,
                                 max_turns: int = 100) -> float:
    rng = random.Random(seed)
    game = 0
    state = dominion.new_game(players=players, kingdom=kingdom, seed=seed)
    started = time.perf_counter()
    for _ in range(steps):
        d = dominion.pending(state)
        state = dominion.step(state, random_answer(d, rng), d.player)
        if dominion.is_over(state) or state.turns_taken[state.current] > max_turns:
            game += 1
            state = dominion.new_game(players=players, kingdom=kingdom, seed=seed + game)
            continue
        dominion.view(state, dominion.pending(state).player)
    return steps / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40_000, help="steps timed per contender")
    parser.add_argument("--games", type=int, default=256, help="games in the batch")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--kingdom", default="First Game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gc", choices=("on", "off"), default="on",
                        help="off: Python's cyclic garbage collector disabled for the whole run "
                             "(as a training loop may choose; see docs/research.md)")
    args = parser.parse_args()
    if args.gc == "off":
        gc.disable()
    common = (args.players, args.kingdom, args.seed)
    batched_steps_per_second(args.games * 4, args.games, *common)   # warm up: imports, caches
    batched = batched_steps_per_second(args.steps, args.games, *common)
    looped = dominion_env_steps_per_second(args.steps, *common)
    bare = bare_engine_steps_per_second(args.steps, *common)
    print(f"our engine: {'compiled (mypyc)' if dominion.COMPILED else 'pure Python'}; "
          f"{args.players} players, {args.kingdom}, random legal actions, one core, "
          f"{args.steps} steps each, garbage collector {args.gc}")
    print(f"batched environment ({args.games} games): {batched:,.0f} steps/s")
    print(f"DominionEnv (PettingZoo), looped:        {looped:,.0f} steps/s")
    print(f"bare engine (step + view):                {bare:,.0f} steps/s")
    print(f"batched / DominionEnv: {batched / looped:.2f}x (goal >= 3)")
    print(f"batched cost per step / bare engine's: {bare / batched:.2f}x (goal <= 2)")


if __name__ == "__main__":
    main()
