"""`BatchedDominionEnv`: many games stepped together, NumPy arrays in and out, for agents that
act on a whole batch with one forward pass (PPO and its kin). The encoding (action ids, masks,
observations) is `dominion_rl.encoding`'s, the same as `DominionEnv`'s.

    env = BatchedDominionEnv(num_games=256, players=2, kingdom="random")
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = masked_random_actions(obs["action_mask"], rng)   # or your policy
        obs, rewards, terminated, truncated, info = env.step(actions)
"""
from __future__ import annotations

import gc
from typing import Optional

import numpy as np

import dominion

from .encoding import (ACTIONS, DEFAULT_MAX_TURNS, OBSERVATION_SIZE, action_mask, apply_action,
                       check_setup, final_rewards, new_game_seed, observation,
                       turn_limit_reached)


FULL_COLLECTION_EVERY = 1000   # steps between the full collections of ``promote_gc``


class BatchedDominionEnv:
    """``num_games`` games of Dominion for ``players`` seats (2 to 6) on ``kingdom`` (as for
    `dominion.new_game`; ``"random"`` draws a Kingdom per game from ``sets``), stepped together.

    Each row is one game, seen by the seat that must act in it now (``obs["seat"]``): its
    observation, its action mask, and the action you give it. Multi-card questions are answered
    one pick at a time as in `DominionEnv`. A game that ends (``terminated``) or reaches the turn
    limit (``truncated``: a seat would start turn ``max_turns + 1``; None: no limit) is replaced
    in the same step by a new game with a fresh seed ("same-step" autoreset): its row of the
    returned observation is the new game's, its row of ``rewards`` (one column per seat) holds
    the ended game's final rewards (winners share +1, the others -1; 0 on truncation), and
    ``info["scores"]`` its scores. Everything is deterministic from the seed given to `reset`.

    ``promote_gc`` (default True) keeps Python's cyclic garbage collector from walking the
    games' states over and over: each step makes a new state per game (values without
    reference cycles, freed by reference counting), and with hundreds of games alive every
    young collection walked them all, which made a step 2-3 times slower (bench/rl_bench.py).
    The collector is paused during a step; with ``promote_gc`` everything it tracks is then
    moved to its oldest generation (``gc.freeze()`` and ``gc.unfreeze()``), and every
    `FULL_COLLECTION_EVERY` steps a full collection (``gc.collect()``) reclaims any cycles, the
    program's own included (a program that froze objects itself, ``gc.get_freeze_count() > 0``,
    is left as it is). False: the collector is only paused during the step.
    """

    def __init__(self, num_games: int, players: int = 2, kingdom="First Game", sets=None,
                 always_ask: bool = False, max_turns: Optional[int] = DEFAULT_MAX_TURNS,
                 promote_gc: bool = True):
        if type(num_games) is not int or num_games < 1:
            raise ValueError(f"num_games must be a positive int, not {num_games!r}")
        check_setup(players, max_turns)
        self.num_games, self.num_players = num_games, players
        self.kingdom, self.sets, self.always_ask = kingdom, sets, always_ask
        self.max_turns = max_turns
        self.promote_gc = promote_gc
        self._steps = 0
        self.num_actions, self.observation_size = ACTIONS, OBSERVATION_SIZE
        self.states: list = []        # the games' current states (immutable engine values)
        self.game_seeds = np.zeros(num_games, np.uint64)
        self._generator: Optional[np.random.Generator] = None
        self._decisions: list = []
        self._picked: list = []
        self._observation = np.zeros((num_games, OBSERVATION_SIZE), np.float32)
        self._mask = np.zeros((num_games, ACTIONS), np.int8)
        self._seat = np.zeros(num_games, np.int64)

    def reset(self, seed: Optional[int] = None):
        """Start ``num_games`` new games, their seeds drawn from ``seed``; returns
        (observations, info) like `step`'s."""
        self._generator = np.random.default_rng(seed)
        self.states = [None] * self.num_games
        self._decisions = [None] * self.num_games
        self._picked = [[] for _ in range(self.num_games)]
        for i in range(self.num_games):
            self._start(i)
        return self._observations(), {"game_seeds": self.game_seeds.copy()}

    def step(self, actions):
        """Apply one action per game (an int array of ``num_games``); returns (observations,
        rewards, terminated, truncated, info): observations a dict of "observation"
        (float32, games x OBSERVATION_SIZE), "action_mask" (int8, games x ACTIONS) and "seat"
        (the seat acting in each game); rewards (float32, games x players); terminated and
        truncated (bool, one per game); info["scores"] (int32, games x players: the final
        scores of the games that ended this step, 0 elsewhere), info["final_states"] (the
        ended games' last states, for `dominion.record`; None elsewhere) and
        info["game_seeds"] (each row's game's seed, after any reset).

        Every action is checked against its mask first: if any is illegal, ValueError names
        the games and nothing is applied. (The garbage collector: see the class, ``promote_gc``.)
        """
        if self._generator is None:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_games,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_games} ints (one per game), "
                             f"not {acts.dtype} of shape {acts.shape}")
        inside = (acts >= 0) & (acts < ACTIONS)
        legal = inside.copy()
        legal[inside] = self._mask[np.flatnonzero(inside), acts[inside]] == 1
        if not legal.all():
            bad = np.flatnonzero(~legal)
            raise ValueError(f"illegal actions in games {bad[:10].tolist()} (actions "
                             f"{acts[bad[:10]].tolist()}; see obs['action_mask']); "
                             f"nothing was applied")
        was_enabled = gc.isenabled()
        if was_enabled:
            gc.disable()
        try:
            return self._step(acts)
        finally:
            if was_enabled:
                self._steps += 1
                if self.promote_gc and gc.get_freeze_count() == 0:   # not if the program
                    # froze objects itself (unfreeze would undo that)
                    if self._steps % FULL_COLLECTION_EVERY == 0:
                        gc.collect()
                    gc.freeze()     # every tracked object to the permanent generation, then
                    gc.unfreeze()   # back into the oldest one: young collections skip them
                gc.enable()

    def _step(self, acts: np.ndarray):
        n = self.num_players
        rewards = np.zeros((self.num_games, n), np.float32)
        terminated = np.zeros(self.num_games, bool)
        truncated = np.zeros(self.num_games, bool)
        scores = np.zeros((self.num_games, n), np.int32)
        finals: list = [None] * self.num_games
        states, decisions, picked = self.states, self._decisions, self._picked
        obs_rows, mask_rows, seats = self._observation, self._mask, self._seat
        for i, action in enumerate(acts.tolist()):
            d = decisions[i]
            answer = apply_action(d, picked[i], action)
            if answer is not None:
                picked[i] = []
                state = dominion.step(states[i], answer, d.player)
                states[i] = state
                d = dominion.pending(state)
                if d is None:   # the game is over
                    terminated[i] = True
                elif turn_limit_reached(state, self.max_turns):
                    truncated[i] = True
                if terminated[i] or truncated[i]:
                    scores[i] = dominion.score(state)
                    finals[i] = state
                    if terminated[i]:
                        rewards[i] = final_rewards(state)
                    self._start(i)
                    continue
                decisions[i] = d
                seats[i] = d.player
            observation(states[i], d.player, picked[i], out=obs_rows[i])
            action_mask(d, picked[i], out=mask_rows[i])
        return (self._observations(), rewards, terminated, truncated,
                {"scores": scores, "final_states": finals,
                 "game_seeds": self.game_seeds.copy()})

    def picked(self, i: int) -> list:
        """The picks made so far in game ``i`` for a question answered pick by pick."""
        return list(self._picked[i])

    # --- helpers ----------------------------------------------------------------------------

    def _start(self, i: int) -> None:
        """A new game in row ``i``, its seed the next from the environment's generator."""
        seed = new_game_seed(self._generator)
        state = dominion.new_game(players=self.num_players, kingdom=self.kingdom,
                                  sets=self.sets, seed=seed, always_ask=self.always_ask)
        self.game_seeds[i] = seed
        self.states[i] = state
        d = self._decisions[i] = dominion.pending(state)
        self._picked[i] = []
        self._seat[i] = d.player
        observation(state, d.player, [], out=self._observation[i])
        action_mask(d, [], out=self._mask[i])

    def _observations(self) -> dict:
        return {"observation": self._observation.copy(), "action_mask": self._mask.copy(),
                "seat": self._seat.copy()}


def masked_random_actions(action_mask: np.ndarray, generator: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``action_mask`` (games x ACTIONS), in one
    array operation: a baseline policy, and the benchmark's."""
    legal = np.flatnonzero(action_mask)          # every legal (row, action), row by row
    counts = np.count_nonzero(action_mask, axis=1)
    if not counts.all():
        raise ValueError(f"rows {np.flatnonzero(counts == 0)[:10].tolist()} have no legal action")
    firsts = np.cumsum(counts) - counts
    picks = legal[firsts + (generator.random(len(counts)) * counts).astype(np.int64)]
    return picks % action_mask.shape[1]
