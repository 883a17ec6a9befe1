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
