"""Built-in bots. A bot answers decisions for one seat from what that seat may see.

Interface (stable; the service and the simulator rely on it)::

    bot = make_bot("big-money", seed=7)
    answer = bot.answer(decision, view)   # decision: dominion.Decision for the bot's seat
                                          # view: dominion.view(state, seat, log_from=None)

A bot never reads the `State`; it gets the `View` of its own seat only.
"""
from __future__ import annotations

import random

from ..state import CHOOSE, ORDER, SELECT, TURN, Move, BUY, END_PHASE, PLAY_TREASURES


class RandomBot:
    """Uniformly random legal answers: a fuzzer for the rules."""
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def answer(self, decision, view):
        rng = self.rng
        kind = decision.kind
        if kind == TURN:
            return rng.choice(decision.moves)
        if kind == SELECT:
            return tuple(rng.sample(decision.cards, rng.randint(decision.min, decision.max)))
        if kind == CHOOSE:
            return tuple(rng.sample(decision.options, rng.randint(decision.min, decision.max)))
        if kind == ORDER:
            cards = list(decision.cards)
            rng.shuffle(cards)
            return tuple(cards)
        raise ValueError(f"unknown decision kind {kind!r}")


class BigMoneyBot:
    """Buys Province at $8+, Gold at $6-7, Silver at $3-5, nothing else; plays no Actions."""
    name = "big-money"
    priorities = ("Province", "Gold", "Silver")

    def __init__(self, seed: int = 0):
        self.fallback = RandomBot(seed)

    def answer(self, decision, view):
        if decision.kind == TURN:
            moves = decision.moves
            if Move(PLAY_TREASURES) in moves:
                return Move(PLAY_TREASURES)
            for name in self.priorities:
                if Move(BUY, name) in moves:
                    return Move(BUY, name)
            return Move(END_PHASE)
        return self.fallback.answer(decision, view)


BOTS = {RandomBot.name: RandomBot, BigMoneyBot.name: BigMoneyBot}


def bot_names() -> tuple:
    """Names of the built-in bots."""
    return tuple(sorted(BOTS))


def make_bot(name: str, seed: int = 0):
    """A new bot by name; raises ValueError naming the bots there are."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(bot_names())}") from None
