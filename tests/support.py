"""Helpers shared by the tests: build positions, answer decisions, read zones."""
from __future__ import annotations

import random

import dominion
from dominion import CHOOSE, ORDER, SELECT, TURN, Move

# A Kingdom of simple cards, for positions that only need some legal Kingdom.
PLAIN_KINGDOM = ("Cellar", "Chapel", "Moat", "Village", "Workshop", "Gardens", "Militia",
                 "Smithy", "Throne Room", "Witch")


def kingdom_with(*names) -> tuple:
    """A legal Kingdom containing ``names``, filled up with PLAIN_KINGDOM cards."""
    out = list(dict.fromkeys(names))
    for n in PLAIN_KINGDOM:
        if len(out) == 10:
            break
        if n not in out:
            out.append(n)
    return tuple(out)


def at(*kingdom_cards, **kw) -> dominion.State:
    """A position (see `dominion.position`) whose Kingdom includes ``kingdom_cards``."""
    return dominion.position(kingdom_with(*kingdom_cards), **kw)


def play(state, card):
    """Answer the turn decision with "play <card>"."""
    return dominion.step(state, Move(dominion.PLAY, card))


def answer(state, value, player=None):
    return dominion.step(state, value, player)


def asked(state, kind, player=0, purpose=None):
    """The pending decision, checked to be of ``kind`` for ``player`` (and ``purpose``)."""
    d = dominion.pending(state)
    assert d is not None and d.kind == kind and d.player == player, d
    if purpose is not None:
        assert d.purpose == purpose, d
    return d


# Reading a state: through `dominion.inspect`, here only, so that a change to `State` touches
# these helpers rather than every test.

def coins(state) -> int:
    return dominion.inspect(state).coins


def actions(state) -> int:
    return dominion.inspect(state).actions


def buys(state) -> int:
    return dominion.inspect(state).buys


def trash(state) -> tuple:
    return dominion.inspect(state).trash


def phase(state) -> str:
    return dominion.inspect(state).phase


def turn(state) -> int:
    """Turns started in the whole game."""
    return dominion.inspect(state).turn


def current(state) -> int:
    return dominion.inspect(state).current


def supply(state) -> dict:
    """Supply pile name -> cards left, in Supply order."""
    return {name: left for name, left, _ in dominion.inspect(state).supply}


def zone(state, name: str, seat: int = 0) -> tuple:
    """One zone of a seat (``hand``, ``deck``, ``discard``, ``in_play``, ``aside``,
    ``looking``), piles bottom card first: the last card of a deck or discard pile is its top
    (`inspect` lists piles top first, as `position` takes them)."""
    cards = getattr(dominion.inspect(state).seats[seat], name)
    return cards[::-1] if name in ("deck", "discard") else cards


def hand(state, seat=0):
    return sorted(state.players[seat].hand)


def deck_top_first(state, seat=0):
    return list(reversed(state.players[seat].deck))


def random_answer(decision, rng: random.Random):
    """A uniformly random legal answer (the ``random`` bot's rule, for tests)."""
    if decision.kind == TURN:
        return rng.choice(decision.moves)
    if decision.kind == SELECT:
        return rng.sample(decision.cards, rng.randint(decision.min, decision.max))
    if decision.kind == CHOOSE:
        return rng.sample(decision.options, rng.randint(decision.min, decision.max))
    if decision.kind == ORDER:
        cards = list(decision.cards)
        rng.shuffle(cards)
        return cards
    raise AssertionError(decision.kind)


# ---------------------------------------------------------------------------------------------
# Random games (property tests: tests/properties/)
# ---------------------------------------------------------------------------------------------

import os
from collections import Counter
from itertools import combinations
from typing import NamedTuple

# Random bots end a game in about 100-300 turns; a game still running after this many turns is
# taken not to end.
RANDOM_GAME_TURN_CAP = 3000
# A game whose Supply and trash have not changed for this many turns is a stalemate: random
# answers would have bought something by then if anything could be bought (e.g. every player has
# trashed all but a Chapel, and Copper and Curse are gone). No rule ends such a game.
STALEMATE_TURNS = 400


def playable_set_choices() -> tuple:
    """Every combination of sets (as a sorted tuple) whose Kingdom pool has at least 10 cards
    now, single sets first: the choices for ``new_game(kingdom="random", sets=...)``. Computed
    when called, so cards added later are played as soon as they exist."""
    sets = dominion.SETS
    return tuple(combo for k in range(1, len(sets) + 1) for combo in combinations(sets, k)
                 if len(dominion.kingdom_pool(combo)) >= 10)


class GameSpec(NamedTuple):
    """A random game: Kingdom drawn from ``sets`` with ``seed``; every answer drawn by a
    `random.Random(answer_seed)` through `random_answer`."""
    sets: tuple
    players: int
    seed: int
    answer_seed: int

    def new_game(self) -> dominion.State:
        return dominion.new_game(players=self.players, kingdom="random", sets=list(self.sets),
                                 seed=self.seed)


class Trajectory(NamedTuple):
    """A played game: ``states[i + 1] == step(states[i], answers[i])``. ``stalemate``: it was
    stopped because nothing could change the Supply any more (see STALEMATE_TURNS)."""
    spec: GameSpec
    states: list
    answers: list
    stalemate: bool


def random_trajectory(spec: GameSpec, turn_cap: int = RANDOM_GAME_TURN_CAP) -> Trajectory:
    """Play ``spec`` until it ends or stalls (see `Trajectory`); fails, naming the game, past
    ``turn_cap`` turns."""
    rng = random.Random(spec.answer_seed)
    state = spec.new_game()
    states, answers = [state], []
    last_change = (state.supply, state.trash, state.turn)
    while (decision := dominion.pending(state)) is not None:
        if state.supply != last_change[0] or state.trash != last_change[1]:
            last_change = (state.supply, state.trash, state.turn)
        elif state.turn - last_change[2] > STALEMATE_TURNS:
            return Trajectory(spec, states, answers, True)
        if state.turn > turn_cap:
            raise AssertionError(f"{spec} did not end within {turn_cap} turns")
        ans = random_answer(decision, rng)
        state = dominion.step(state, ans, decision.player)
        states.append(state)
        answers.append(ans)
    return Trajectory(spec, states, answers, False)


def log_events(state) -> tuple:
    """The whole game log, every card shown (tests may know everything; a player reads
    `dominion.view`)."""
    return tuple(state.log)


def card_counts(state) -> Counter:
    """How many of each card the game holds: every zone of every player, the Supply and the
    trash (cards are never created or destroyed, only moved)."""
    counts = Counter(state.trash)
    for ps in state.players:
        for zone in ps:
            counts.update(zone)
    for name, n in zip(state.pile_names, state.supply):
        counts[name] += n
    return counts


def game_specs(min_players: int = 2, max_players: int = 6):
    """Hypothesis strategy of `GameSpec`s over every playable combination of sets."""
    from hypothesis import strategies as st
    return st.builds(GameSpec, sets=st.sampled_from(playable_set_choices()),
                     players=st.integers(min_players, max_players),
                     seed=st.integers(0, 2 ** 64 - 1), answer_seed=st.integers(0, 2 ** 32 - 1))


def property_examples(n: int) -> int:
    """``n`` scaled by $DOMINION_PROPERTY_SCALE (default 1): CI runs the default, a nightly or a
    bug hunt sets e.g. 20 to play twenty times as many random games."""
    return max(1, round(n * float(os.environ.get("DOMINION_PROPERTY_SCALE", "1"))))


# ---------------------------------------------------------------------------------------------
# Benchmarks (tests/test_benchmarks_run.py and the like: a benchmark still runs)
# ---------------------------------------------------------------------------------------------

import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def run_benchmark(script: str, *args: str) -> str:
    """Run ``bench/<script>`` with ``args`` in this Python; its output, once it has succeeded."""
    done = subprocess.run([sys.executable, str(PROJECT_ROOT / "bench" / script), *args],
                          capture_output=True, text=True, timeout=300, cwd=PROJECT_ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout
