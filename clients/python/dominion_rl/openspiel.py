"""Dominion as an OpenSpiel game (extra ``[openspiel]``: ``pip install
'dominion-engine[openspiel]'``). Importing this module registers the game ``"dominion"``:

    import pyspiel
    import dominion_rl.openspiel  # noqa: F401  (registers "dominion")
    game = pyspiel.load_game("dominion", {"players": 3, "kingdom": "random", "seed": 7})

Parameters: ``players`` (2 to 6), ``kingdom`` (a recommended set's name, 10 card names separated
by ``;``, or ``"random"``), ``sets`` (sets for ``"random"``, separated by ``;``; empty: all;
OpenSpiel's game strings split parameters at commas, so names are joined with ``;``),
``seed`` (the deal and every shuffle), ``max_turns`` (a seat's turns before the game is cut
off, a draw: OpenSpiel needs a bounded game) and ``always_ask``.

Actions are the RL environments' ids (`dominion_rl.encoding`, docs/research.md): a multi-card
answer is given pick by pick and closed by DONE. Observations and information states are built
from the seat's own `dominion.view`, its own answers and its own picks, never a hidden card.

Shuffles are *sampled* (``SAMPLED_STOCHASTIC``): the engine's random generator is part of the
state, so a state's future shuffles are fixed by it; explicit chance nodes would need an
outcome per ordering of a deck (10! for the first shuffle alone), which OpenSpiel cannot
enumerate. Algorithms that need hidden information resampled call
`resample_from_infostate`, which goes through `dominion.determinize` (the hidden cards dealt
anew and the generator reseeded). A state serializes as the engine's record (config and
answers, replayed on load), or, for a resampled state that is no game's record, as the state
itself.
"""
from __future__ import annotations

import numpy as np
import pyspiel

import dominion
from dominion.text import card_list

from .encoding import (ACTIONS, CARDS, DEFAULT_MAX_TURNS, MAX_PLAYERS, OBSERVATION_SIZE, OPTION_AT,
                       action_labels, apply_action, check_action, check_setup, final_rewards,
                       legal_actions,
                       observation, turn_limit_reached)

# A bound on actions per turn for OpenSpiel's max_game_length (a turn of the longest chains of
# Villages, Throne Rooms and picks stays far below it).
ACTIONS_PER_TURN_BOUND = 1000

_DEFAULT_PARAMS = {"players": 2, "kingdom": "First Game", "sets": "", "seed": 1,
                   "max_turns": DEFAULT_MAX_TURNS, "always_ask": False}

_GAME_TYPE = pyspiel.GameType(
    short_name="dominion",
    long_name="Dominion (base game and Intrigue)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,   # see the docstring
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULT_PARAMS)

_LABELS = action_labels()


class DominionGame(pyspiel.Game):
    """The game: its parameters; states come from `new_initial_state`."""

    def __init__(self, params=None):
        params = {**_DEFAULT_PARAMS, **(params or {})}
        players, max_turns = int(params["players"]), int(params["max_turns"])
        check_setup(players, max_turns, bounded=True)
        self.num_seats, self.max_turns = players, max_turns
        for name in ("kingdom", "sets"):
            if "," in str(params[name]):
                raise ValueError(f"separate the {name} parameter's names with ';', not ',' "
                                 f"(OpenSpiel's game strings split parameters at commas): "
                                 f"{params[name]!r}")
        names = [n.strip() for n in str(params["kingdom"]).split(";")]
        self.kingdom = names if len(names) > 1 else params["kingdom"]
        self.sets = [s.strip() for s in str(params["sets"]).split(";") if s.strip()] or None
        self.seed = dominion.check_seed(int(params["seed"]))
        self.always_ask = bool(params["always_ask"])
        # Made once here, so that a bad Kingdom or seed is refused when the game is loaded.
        self._first = dominion.new_game(players=players, kingdom=self.kingdom, sets=self.sets,
                                        seed=self.seed, always_ask=self.always_ask)
        super().__init__(_GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=ACTIONS, max_chance_outcomes=0, num_players=players,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=max_turns * players * ACTIONS_PER_TURN_BOUND), params)

    def new_initial_state(self):
        return DominionState(self, self._first)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params!r}")
        return DominionObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class EngineState:
    """The engine's state in an OpenSpiel state's attributes: copied by reference (OpenSpiel
    clones by deep copy; the engine's state is an immutable value), pickled as its record."""
    __slots__ = ("value", "sampled")

    def __init__(self, value, sampled: bool = False):
        self.value, self.sampled = value, sampled

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        if self.sampled:   # a resampled state is no game's record: the state itself
            return (EngineState, (self.value, True))
        return (_from_record, (dominion.record_to_data(dominion.record(self.value)),))


def _from_record(data) -> EngineState:
    """A state from its record's data (refusing another engine version's)."""
    return EngineState(dominion.replay(dominion.record_from_data(data)))


class DominionState(pyspiel.State):
    """One position: the engine's state, the picks of a question being answered pick by pick,
    and whether the turn limit cut the game off."""

    def __init__(self, game: DominionGame, engine_state, sampled: bool = False):
        super().__init__(game)
        self._engine = EngineState(engine_state, sampled)
        self._picked = ()
        self._truncated = False

    @property
    def engine_state(self):
        """The engine's `dominion.State` (for tools; a program playing a seat reads `view`)."""
        return self._engine.value

    def picked(self, player: int) -> tuple:
        """The picks so far of ``player``'s question (empty for anyone else)."""
        d = dominion.pending(self._engine.value)
        return self._picked if d is not None and d.player == player else ()

    # --- OpenSpiel's API --------------------------------------------------------------------

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return dominion.pending(self._engine.value).player

    def _legal_actions(self, player):
        d = dominion.pending(self._engine.value)
        if self._truncated or d is None or d.player != player:
            return []
        return legal_actions(d, list(self._picked))

    def _apply_action(self, action):
        state = self._engine.value
        d = dominion.pending(state)
        if self._truncated or d is None:
            raise ValueError("the game is over")
        picked = list(self._picked)
        answer = apply_action(d, picked, check_action(d, picked, action))
        if answer is None:
            self._picked = tuple(picked)
            return
        state = dominion.step(state, answer, d.player)
        self._engine = EngineState(state, self._engine.sampled)
        self._picked = ()
        self._truncated = turn_limit_reached(state, self.get_game().max_turns)

    def _action_to_string(self, player, action):
        d = dominion.pending(self._engine.value)
        if d is not None and d.kind == dominion.CHOOSE and OPTION_AT <= action < OPTION_AT + len(
                d.options):
            return f"choose {d.options[action - OPTION_AT]}"
        return _LABELS[action] if 0 <= action < ACTIONS else f"action {action}"

    def is_terminal(self):
        return self._truncated or dominion.is_over(self._engine.value)

    def returns(self):
        state = self._engine.value
        if dominion.is_over(state):
            return list(final_rewards(state))
        return [0.0] * len(state.players)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell apart from this one, the hidden cards dealt anew
        by `dominion.determinize` (seeded from ``probability_sampler``, a uniform sampler in
        [0, 1) as OpenSpiel's ISMCTS passes). Another seat's picks in progress are not part of
        what ``player_id`` knows: the sample's question starts over."""
        seed = int(probability_sampler() * 2 ** 53) % dominion.SEED_LIMIT
        sample = dominion.determinize(self._engine.value, player_id, seed)
        out = DominionState(self.get_game(), sample, sampled=True)
        out._picked = self.picked(player_id)
        out._truncated = self._truncated
        return out

    def __str__(self):
        """The whole position (every hand and deck count), for people and OpenSpiel's tests;
        players read `observation_string` and `information_state_string`."""
        s = self._engine.value
        names = s.config.players
        lines = [_header(s)]
        for seat, p in enumerate(s.players):
            lines.append(f"{names[seat]}: hand [{', '.join(sorted(p.hand))}], deck "
                         f"{len(p.deck)}, discard {len(p.discard)}, in play "
                         f"[{', '.join(p.in_play)}], {s.vp[seat]} VP")
        d = dominion.pending(s)
        if self._truncated:
            lines.append(f"Cut off at the turn limit ({self.get_game().max_turns}).")
        elif d is None:
            lines.append("The game is over: " + ", ".join(
                f"{names[i]} {v} VP" for i, v in enumerate(dominion.score(s))))
        else:
            lines.append(f"{names[d.player]} to answer: {d.prompt}")
            if self._picked:
                lines.append(f"Picked: {', '.join(self._picked)}")
        return "\n".join(lines)


def _header(s) -> str:
    return (f"Turn {s.turns_taken[s.current]} - {s.config.players[s.current]}, {s.phase} phase; "
            f"Actions {s.actions}, Buys {s.buys}, ${s.coins}")


class DominionObserver:
    """OpenSpiel's observer. The default observation (public and private, no recall): the
    tensor is `dominion_rl.encoding.observation`, the same vector as the RL environments', and
    the string the seat's view in words; with perfect recall (the information state) the string
    adds the seat's log and its own answers so far. Factored observations: the public one is
    the spectator's view (no tensor), the private one the seat's hand and question (no tensor).
    """

    def __init__(self, iig_obs_type):
        self.perfect_recall = iig_obs_type.perfect_recall
        self.public = iig_obs_type.public_info
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if self.public and self.private:
            self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
            self.dict = {"observation": self.tensor}
        else:
            self.tensor, self.dict = None, {}

    def set_from(self, state: DominionState, player: int) -> None:
        if self.tensor is not None:
            observation(state.engine_state, player, list(state.picked(player)), out=self.tensor)

    def string_from(self, state: DominionState, player: int) -> str:
        s = state.engine_state
        v = dominion.view(s, player if self.private else None,
                          log_from=0 if self.perfect_recall else None)
        lines = _public_lines(s, v) if self.public else []
        if self.private:
            me = v.players[player]
            lines.append(f"Your hand: [{', '.join(me.hand)}]")
            if v.decision is not None:
                lines.append(f"You: {v.decision.prompt}")
                picked = state.picked(player)
                if picked:
                    lines.append(f"Picked: {', '.join(picked)}")
        if self.public and v.decision is None and v.waiting is not None:
            lines.append(v.waiting.text)
        if self.perfect_recall:
            lines.append("Log:")
            lines += [dominion.render(e, s.config.players) for e in v.log]
            if self.private:
                mine = [_answer_words(a) for seat, a in s.answers if seat == player]
                lines.append("Your answers: " + "; ".join(mine))
        return "\n".join(lines)


def _public_lines(s, v) -> list:
    """What everyone at the table sees: the turn, the Supply, the trash, every seat's zones."""
    names = s.config.players
    lines = [_header(s),
             "Supply: " + ", ".join(f"{name} {left}" for name, left, _ in v.supply)]
    if v.trash:
        lines.append(f"Trash: {card_list(sorted(v.trash))}")
    for seat, p in enumerate(v.players):
        top = f" (top {p.discard_top})" if p.discard_top else ""
        lines.append(f"{names[seat]}: {p.vp} VP, hand {p.hand_size}, deck {p.deck_size}, "
                     f"discard {p.discard_size}{top}, in play [{', '.join(p.in_play)}]")
    return lines


def _answer_words(answer) -> str:
    """"buy Gold", "end_phase", "[Copper, Estate]"; "?" for an answer a resampled state does
    not know (`dominion.determinize` keeps only the resampling seat's own answers)."""
    if answer is None:
        return "?"
    if isinstance(answer, dominion.Move):
        return str(answer)
    return "[" + ", ".join(answer) + "]"


pyspiel.register_game(_GAME_TYPE, DominionGame)

__all__ = ["DominionGame", "DominionState", "DominionObserver", "CARDS"]
