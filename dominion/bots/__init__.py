"""Built-in bots. A bot answers decisions for one seat from what that seat may see.

Interface (stable; the service and the simulator rely on it)::

    bot = make_bot("big-money", seed=7)
    answer = bot.answer(decision, view)   # decision: dominion.Decision for the bot's seat
                                          # view: dominion.view(state, seat, log_from=bot.log_from)

A bot never reads the `State`; it gets the `View` of its own seat only. Passing the log from
``bot.log_from`` (the first event it has not read) lets strategies count the cards they own from
the public gains and trashes; with ``log_from=None`` every answer is still legal, but those
counts stay at the starting deck.

Bots: ``random`` (uniformly random legal answers, a fuzzer for the rules) and the strategies in
``dominion/bots/strategies/*.toml`` (``big-money``, ``big-money-ultimate``, ``smithy-big-money``,
...). ``make_bot`` also takes the path of a strategy file (``my-strategy.toml``).
"""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from ..state import CHOOSE, ORDER, SELECT, TURN
from .policy import Player
from .strategy import Strategy, StrategyBot, StrategyError, load_strategy, parse_strategy

STRATEGY_DIR = Path(__file__).with_name("strategies")


class RandomBot:
    """Uniformly random legal answers: a fuzzer for the rules."""
    name = "random"
    log_from = None  # reads no log

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


def builtin_strategies() -> tuple:
    """Names of the strategies shipped as files (without parsing them: a strategy whose cards
    are not defined fails only when it is used)."""
    return tuple(sorted(p.stem for p in STRATEGY_DIR.glob("*.toml")))


def bot_names() -> tuple:
    """Names of the built-in bots."""
    return tuple(sorted((RandomBot.name,) + builtin_strategies()))


def is_strategy_path(name: str) -> bool:
    return name.endswith(".toml") or "/" in name or "\\" in name


@lru_cache(maxsize=None)
def strategy(name: str) -> Strategy:
    """A built-in strategy by name, or a strategy file by path (parsed once per process)."""
    if is_strategy_path(name):
        return load_strategy(name)
    path = STRATEGY_DIR / f"{name}.toml"
    if not path.is_file():
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(bot_names())}, or the path "
                         "of a strategy file (.toml)")
    return load_strategy(path)


def make_bot(name: str, seed: int = 0):
    """A new bot by name (see `bot_names`) or strategy file path; raises ValueError naming the
    bots there are (`StrategyError`, a ValueError, for a bad strategy file)."""
    if name == RandomBot.name:
        return RandomBot(seed)
    return StrategyBot(strategy(name), seed)


__all__ = ["make_bot", "bot_names", "builtin_strategies", "strategy", "RandomBot", "Player",
           "Strategy", "StrategyBot", "StrategyError", "load_strategy", "parse_strategy"]
