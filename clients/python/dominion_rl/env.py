"""`DominionEnv`: the PettingZoo AEC environment (see the package docstring and
docs/research.md)."""
from __future__ import annotations

import functools
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import dominion

from .encoding import (ACTIONS, DEFAULT_MAX_TURNS, OBSERVATION_SIZE, action_mask, apply_action,
                       check_action, check_setup, final_rewards,
                       new_game_seed, observation, turn_limit_reached)


class DominionEnv(AECEnv):
    """Dominion for 2 to 6 agents (``player_0`` ...; seat order), any Kingdom.

    ``kingdom`` and ``sets`` are as for `dominion.new_game` (``"random"`` draws one Kingdom per
    game from the seed); ``always_ask`` asks every question (README, "Hidden information").
    A multi-card question (select, choose, order) is answered one pick at a time, closed by
    DONE, so that the action mask is exact at every step. Rewards come at the end of the game:
    the winners share +1, the others share -1 (0 for everyone when all tie).

    ``max_turns`` (default 100; None: no limit) truncates a game when a seat would start its
    turn ``max_turns + 1``: every agent's ``truncations`` flag turns True, with reward 0 and
    ``info["scores"]`` holding the scores at that point, as PettingZoo expects (a game of
    masked random actions can otherwise run for ever, e.g. never buying).
    """

    metadata = {"name": "dominion_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 2, kingdom="First Game", sets=None,
                 always_ask: bool = False, render_mode: Optional[str] = None,
                 max_turns: Optional[int] = DEFAULT_MAX_TURNS):
        super().__init__()
        check_setup(players, max_turns)
        self.num_players = players
        self.kingdom, self.sets, self.always_ask = kingdom, sets, always_ask
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._np_random = None
        self.state = None

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return spaces.Dict({
            "observation": spaces.Box(low=-1000.0, high=1000.0, shape=(OBSERVATION_SIZE,),
                                      dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(ACTIONS,), dtype=np.int8)})

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return spaces.Discrete(ACTIONS)

    # --- the AEC protocol -------------------------------------------------------------------

    def reset(self, seed: Optional[int] = None, options=None):
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        elif self._np_random is None:
            self._np_random = np.random.default_rng()
        game_seed = new_game_seed(self._np_random) if seed is None else \
            dominion.check_seed(seed % dominion.SEED_LIMIT)
        self.state = dominion.new_game(players=self.num_players, kingdom=self.kingdom,
                                       sets=self.sets, seed=game_seed,
                                       always_ask=self.always_ask)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._picked = []
        self.agent_selection = self._agent_to_act()

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        decision = dominion.pending(self.state)
        mine = decision is not None and decision.player == seat
        picked = self._picked if mine else []
        return {"observation": observation(self.state, seat, picked),
                "action_mask": action_mask(decision if mine else None, picked)}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = dominion.pending(self.state)
        action = check_action(decision, self._picked, action)
        self._cumulative_rewards[agent] = 0.0
        answer = apply_action(decision, self._picked, action)
        if answer is not None:
            self._picked = []
            self.state = dominion.step(self.state, answer, decision.player)
        if dominion.is_over(self.state):
            self._finish()
        elif turn_limit_reached(self.state, self.max_turns):
            self._truncate()
        else:
            self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode != "ansi" or self.state is None:
            return None
        seat = self.agent_name_mapping[self.agent_selection]
        names = self.state.config.players
        lines = [dominion.log_line(e, names, seat)
                 for e in dominion.view(self.state, seat, log_from=max(0, len(self.state.log)
                                                                       - 8)).log]
        v = dominion.view(self.state, seat)
        if v.waiting is not None:
            lines.append(v.waiting.text)
        return "\n".join(lines)

    def close(self):
        pass

    # --- helpers ----------------------------------------------------------------------------

    def _agent_to_act(self) -> str:
        return self.possible_agents[dominion.pending(self.state).player]

    def _finish(self) -> None:
        scores = dominion.score(self.state)
        for a, reward in zip(self.possible_agents, final_rewards(self.state)):
            self.rewards[a] = reward
            self.terminations[a] = True
            self.infos[a] = {"scores": scores}

    def _truncate(self) -> None:
        scores = dominion.score(self.state)
        for a in self.agents:
            self.rewards[a] = 0.0
            self.truncations[a] = True
            self.infos[a] = {"scores": scores}
