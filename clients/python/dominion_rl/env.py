"""`DominionEnv`: the PettingZoo AEC environment (see the package docstring and
docs/research.md)."""
from __future__ import annotations

import functools
from collections import Counter
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import dominion
from dominion import BUY, CHOOSE, END_PHASE, ORDER, PLAY, PLAY_TREASURES, SELECT, TURN, Move

CARDS = dominion.card_names()          # every card, sorted: the card axis of actions and fields
CARD_INDEX = {name: i for i, name in enumerate(CARDS)}
K = len(CARDS)
MAX_OPTIONS = 128                      # options of one choose question (Secret Passage's
                                       # positions are the most: the deck's size + 1)
MAX_PLAYERS = 6

# The action space: one Discrete(ACTIONS), laid out in blocks.
DONE = 0                               # close a question answered pick by pick
END = 1                                # turn: end the phase
PLAY_ALL = 2                           # turn: play every Treasure
PLAY_AT = 3                            # turn: play card k (PLAY_AT + k)
BUY_AT = PLAY_AT + K                   # turn: buy card k
PICK_AT = BUY_AT + K                   # select / order: pick card k (one copy)
OPTION_AT = PICK_AT + K                # choose: pick option i of decision.options
ACTIONS = OPTION_AT + MAX_OPTIONS

KINDS = (TURN, SELECT, CHOOSE, ORDER)
PHASES = (dominion.ACTION, dominion.BUY, dominion.CLEANUP)


def action_labels() -> tuple:
    """A label for every action index ("done", "end_phase", "play Smithy", "buy Gold",
    "pick Copper", "option 3")."""
    return (("done", "end_phase", "play_treasures") + tuple(f"play {c}" for c in CARDS)
            + tuple(f"buy {c}" for c in CARDS) + tuple(f"pick {c}" for c in CARDS)
            + tuple(f"option {i}" for i in range(MAX_OPTIONS)))


def observation_fields() -> tuple:
    """(name, size) of each block of the observation vector, in order (docs/research.md)."""
    return (("hand", K), ("in_play", K), ("supply", K), ("in_supply", K), ("cost", K),
            ("trash", K), ("pool", K), ("picked", K), ("discard_top", K),
            ("turn_state", 3 + len(PHASES)), ("decision", len(KINDS) + 2 + 1),
            ("seats", 5 * MAX_PLAYERS))


OBSERVATION_SIZE = sum(n for _, n in observation_fields())


class DominionEnv(AECEnv):
    """Dominion for 2 to 6 agents (``player_0`` ...; seat order), any Kingdom.

    ``kingdom`` and ``sets`` are as for `dominion.new_game` (``"random"`` draws one Kingdom per
    game from the seed); ``always_ask`` asks every question (README, "Hidden information").
    A multi-card question (select, choose, order) is answered one pick at a time, closed by
    DONE, so that the action mask is exact at every step. Rewards come at the end of the game:
    the winners share +1, the others share -1 (0 for everyone when all tie).
    """

    metadata = {"name": "dominion_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 2, kingdom="First Game", sets=None,
                 always_ask: bool = False, render_mode: Optional[str] = None):
        super().__init__()
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be 2 to {MAX_PLAYERS}, not {players}")
        self.num_players = players
        self.kingdom, self.sets, self.always_ask = kingdom, sets, always_ask
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
        game_seed = int(self._np_random.integers(0, 2 ** 63)) if seed is None else \
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
        return {"observation": self._observation(seat, mine),
                "action_mask": self._mask(decision) if mine else np.zeros(ACTIONS, np.int8)}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = dominion.pending(self.state)
        mask = self._mask(decision)
        if action is None or not 0 <= int(action) < ACTIONS or not mask[int(action)]:
            raise ValueError(f"action {action!r} is not legal now (see the action mask)")
        action = int(action)
        self._cumulative_rewards[agent] = 0.0
        answer = self._apply(decision, action)
        if answer is not None:
            self._picked = []
            self.state = dominion.step(self.state, answer, decision.player)
        if dominion.is_over(self.state):
            self._finish()
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
        winners = set(dominion.winners(self.state))
        n = self.num_players
        for a, seat in self.agent_name_mapping.items():
            if len(winners) == n:
                self.rewards[a] = 0.0
            elif seat in winners:
                self.rewards[a] = 1.0 / len(winners)
            else:
                self.rewards[a] = -1.0 / (n - len(winners))
            self.terminations[a] = True

    def _apply(self, d, action: int):
        """The engine answer once a question is complete, else None (a pick recorded)."""
        if d.kind == TURN:
            if action == END:
                return Move(END_PHASE)
            if action == PLAY_ALL:
                return Move(PLAY_TREASURES)
            if action < BUY_AT:
                return Move(PLAY, CARDS[action - PLAY_AT])
            return Move(BUY, CARDS[action - BUY_AT])
        if action == DONE:
            return list(self._picked)
        if d.kind == CHOOSE:
            self._picked.append(d.options[action - OPTION_AT])
        else:
            self._picked.append(CARDS[action - PICK_AT])
        return None

    def _mask(self, d) -> np.ndarray:
        mask = np.zeros(ACTIONS, np.int8)
        if d is None:
            return mask
        if d.kind == TURN:
            for m in d.moves:
                if m.verb == END_PHASE:
                    mask[END] = 1
                elif m.verb == PLAY_TREASURES:
                    mask[PLAY_ALL] = 1
                elif m.verb == PLAY:
                    mask[PLAY_AT + CARD_INDEX[m.card]] = 1
                else:
                    mask[BUY_AT + CARD_INDEX[m.card]] = 1
            return mask
        picked = self._picked
        if d.kind == CHOOSE:
            if len(d.options) > MAX_OPTIONS:
                raise RuntimeError(f"a question with {len(d.options)} options; the action "
                                   f"space holds {MAX_OPTIONS}")
            if len(picked) < d.max:
                for i, option in enumerate(d.options):
                    if option not in picked:
                        mask[OPTION_AT + i] = 1
            mask[DONE] = d.min <= len(picked)
            return mask
        left = Counter(d.cards) - Counter(picked)
        full = len(picked) >= (d.max if d.kind == SELECT else len(d.cards))
        if not full:
            for card in left:
                mask[PICK_AT + CARD_INDEX[card]] = 1
        mask[DONE] = (d.min <= len(picked)) if d.kind == SELECT else full
        return mask

    def _observation(self, seat: int, mine: bool) -> np.ndarray:
        """The vector of `observation_fields`, from the seat's view (and its own picks)."""
        v = dominion.view(self.state, seat)
        me = v.players[seat]
        out = np.zeros(OBSERVATION_SIZE, np.float32)
        at = 0

        def counts(cards):
            nonlocal at
            for c in cards:
                out[at + CARD_INDEX[c]] += 1
            at += K

        counts(me.hand or ())
        counts(me.in_play)
        for name, left, cost in v.supply:
            out[at + CARD_INDEX[name]] = left
            out[at + K + CARD_INDEX[name]] = 1
            out[at + 2 * K + CARD_INDEX[name]] = cost
        at += 3 * K
        counts(v.trash)
        d = v.decision if mine else None
        counts(d.cards if d is not None and d.kind in (SELECT, ORDER) else ())
        counts(self._picked if mine and d is not None and d.kind != CHOOSE else ())
        if me.discard_top is not None:
            out[at + CARD_INDEX[me.discard_top]] = 1
        at += K
        out[at:at + 3] = (v.actions, v.buys, v.coins)
        if v.phase in PHASES:
            out[at + 3 + PHASES.index(v.phase)] = 1
        at += 3 + len(PHASES)
        if d is not None:
            out[at + KINDS.index(d.kind)] = 1
            out[at + len(KINDS)] = d.min
            out[at + len(KINDS) + 1] = d.max
        out[at + len(KINDS) + 2] = v.current == seat
        at += len(KINDS) + 3
        n = len(v.players)
        for k in range(n):  # seats in turn order from this one: 0 is always the observer
            p = v.players[(seat + k) % n]
            out[at:at + 5] = (p.vp, p.hand_size, p.deck_size, p.discard_size, p.turns_taken)
            at += 5
        return out
