"""Built-in bots. A bot answers decisions for one seat from what that seat may see.

Interface (stable; the service and the simulator rely on it)::

    bot = make_bot("big-money", seed=7)
    answer = bot.answer(decision, view)   # decision: dominion.Decision for the bot's seat
                                          # view: dominion.view(state, seat, log_from=bot.log_from)

A bot never reads the `State`; it gets the `View` of its own seat only. Passing the log from
``bot.log_from`` (the first event it has not read) lets strategies count the cards they own from
the public gains and trashes; with ``log_from=None`` every answer is still legal, but those
counts stay at the starting deck.

Bots: ``random`` (uniformly random legal answers, a fuzzer for the rules), ``search`` (searches
its buys from its own seat's samples, `dominion.bots.search`; ``search:playouts=200,...`` sets its
budget) and the strategies in ``dominion/bots/strategies/*.toml`` (``big-money``,
``big-money-ultimate``, ``smithy-big-money``, ...). ``make_bot`` also takes the path of a strategy file (``my-strategy.toml``) and a Python
class as ``package.module:Class``: the one resolver behind every command that takes a bot.

A bot class of your own: ``Class(seed)`` makes one bot for one seat of one game (the seed is
its own, for any randomness); ``answer(decision, view)`` returns the answer; an attribute
``log_from`` (the first log index it has not read, None to read no log) is optional, and so is
a class attribute ``kingdom_cards`` (the Kingdom cards it wants in the default Kingdom).
"""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from ..errors import InvalidKingdomError, did_you_mean
from ..kingdoms import KINGDOM_SIZE, RECOMMENDED
from ..state import CHOOSE, ORDER, SELECT, TURN
from .policy import Player
from .search import ROLLOUT_PREFERENCE, SearchBot, best_strategy_for
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


def _on_off(text: str) -> bool:
    """A yes/no search option (``switch=off``)."""
    words = {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}
    if text.lower() not in words:
        raise ValueError(text)
    return words[text.lower()]


# Each option's reader: its value's text to the keyword argument (ValueError when it is not one).
SEARCH_OPTIONS: dict[str, Callable[[str], Any]] = {
    "playouts": int, "candidates": int, "rollout": str, "time": float, "horizon": int,
    "margin": float, "confidence": float, "scale": float, "plan": int, "model": str,
    "switch": _on_off, "choices": _on_off}


def is_search_spec(name: str) -> bool:
    """``search`` or ``search:playouts=200,rollout=witch-big-money,...``: the search bot."""
    return name == SearchBot.name or name.startswith(SearchBot.name + ":")


def search_options(spec: str) -> dict:
    """The keyword arguments of `SearchBot` named in ``search:key=value,...`` (keys:
    playouts, candidates, rollout, time, horizon, margin, confidence, scale, plan, model,
    switch, choices);
    ValueError saying
    what is wrong."""
    _, _, text = spec.partition(":")
    out: dict = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in SEARCH_OPTIONS:
            raise ValueError(f"bot {spec!r}: write search:KEY=VALUE,... with KEY one of "
                             f"{', '.join(SEARCH_OPTIONS)}, not {item!r}")
        try:
            out["time_limit" if key == "time" else key] = SEARCH_OPTIONS[key](value.strip())
        except ValueError:
            raise ValueError(f"bot {spec!r}: {key} must be "
                             f"{'on or off' if SEARCH_OPTIONS[key] is _on_off else 'a number'}, "
                             f"not {value!r}") from None
    return out


def split_bot_list(text: str) -> list:
    """The bots of a comma-separated list (``--bots``); a search bot keeps its options:
    ``search:playouts=200,time=1,big-money`` is two bots (an item ``KEY=VALUE`` after a search
    bot is one of its options)."""
    bots: list = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item and bots and is_search_spec(bots[-1]):
            bots[-1] += "," + item
        else:
            bots.append(item)
    return bots


def builtin_strategies() -> tuple:
    """Names of the strategies shipped as files (without parsing them: a strategy whose cards
    are not defined fails only when it is used)."""
    return tuple(sorted(p.stem for p in STRATEGY_DIR.glob("*.toml")))


def strategy_text(name: str) -> str:
    """The file text of a built-in strategy or a strategy file (the planner plays strategies
    as text, which worker processes parse)."""
    return Path(strategy(name).source).read_text(encoding="utf-8")


def fitting_strategies(kingdom) -> tuple:
    """(name, file text) of the built-in strategies whose Kingdom cards are all in ``kingdom``
    and that buy at least one (the planner's league and seeds), best first
    (`dominion.bots.search.ROLLOUT_PREFERENCE`, then by name)."""
    in_game = set(kingdom)
    out = []
    for name in builtin_strategies():
        s = strategy(name)
        if s.kingdom_cards and all(c in in_game for c in s.kingdom_cards):
            out.append((name, strategy_text(name)))
    order = {name: i for i, name in enumerate(ROLLOUT_PREFERENCE)}
    return tuple(sorted(out, key=lambda item: (order.get(item[0], len(order)), item[0])))


def bot_names() -> tuple:
    """Names of the built-in bots."""
    return tuple(sorted((RandomBot.name, SearchBot.name) + builtin_strategies()))


def bot_description(name: str) -> str:
    """A sentence saying what a built-in bot is (`ListBots`, ``--help``)."""
    if name == RandomBot.name:
        return "uniformly random legal answers (a fuzzer for the rules)"
    if name == SearchBot.name:
        return ("searches its buys: samples the hidden cards from its own seat's view and "
                "plays the best few buys forward with its plan for the Kingdom (or the "
                "Kingdom's best built-in strategy), the other seats as they have shown")
    return strategy(name).description


def is_strategy_path(name: str) -> bool:
    return name.endswith(".toml") or "/" in name or "\\" in name


def is_class_spec(name: str) -> bool:
    """``package.module:Class``: a bot class to import."""
    module, colon, attr = name.partition(":")
    return bool(colon and module and attr.isidentifier() and not is_strategy_path(name)
                and all(part.isidentifier() for part in module.split(".")))


def bot_class(spec: str):
    """The bot class named ``package.module:Class``, imported from the Python path and the
    current folder; ValueError saying what is wrong."""
    import importlib
    import os
    import sys
    module_name, _, attr = spec.partition(":")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` and uvicorn do: the current folder
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"bot {spec!r}: cannot import {module_name!r} ({exc})") from None
    cls = getattr(module, attr, None)
    if cls is None or not callable(cls):
        classes = sorted(n for n, v in vars(module).items() if isinstance(v, type))
        raise ValueError(f"bot {spec!r}: {module_name!r} has no class {attr!r}"
                         f"{did_you_mean(attr, classes)}")
    if not callable(getattr(cls, "answer", None)):
        raise ValueError(f"bot {spec!r}: {attr} has no answer(decision, view) method")
    return cls


def bot_label(spec: str) -> str:
    """A readable name for a bot: a built-in's name, a strategy file's ``name``, a class's
    name."""
    if spec == RandomBot.name or is_search_spec(spec):
        return spec
    if is_class_spec(spec):
        return getattr(bot_class(spec), "name", None) or spec.rpartition(":")[2]
    return strategy(spec).name


def bot_kingdom_cards(spec: str) -> tuple:
    """The Kingdom cards a bot buys or plays, for the default Kingdom (none for ``random``)."""
    if spec == RandomBot.name or is_search_spec(spec):
        return ()
    if is_class_spec(spec):
        return tuple(getattr(bot_class(spec), "kingdom_cards", ()))
    return tuple(strategy(spec).kingdom_cards)


DEFAULT_KINGDOM = "First Game"


def default_kingdom(bots) -> object:
    """The one rule for the Kingdom when none is asked for (the CLI's commands and the
    service's CreateGame both call it): First Game, with the Kingdom cards the bots buy or
    play put in first (so "witch-big-money" gets its Witch), filled up from First Game.
    ``bots`` are the bot seats' specs (people's seats add no card)."""
    wanted: list = []
    for b in bots:
        wanted.extend(c for c in bot_kingdom_cards(b) if c not in wanted)
    first_game = RECOMMENDED[DEFAULT_KINGDOM][1]
    if all(c in first_game for c in wanted):
        return DEFAULT_KINGDOM
    if len(wanted) > KINGDOM_SIZE:
        raise InvalidKingdomError(f"the bots use {len(wanted)} Kingdom cards "
                                  f"({', '.join(wanted)}), more than {KINGDOM_SIZE}: choose a "
                                  "Kingdom")
    return tuple(wanted + [c for c in first_game if c not in wanted][:KINGDOM_SIZE - len(wanted)])


@lru_cache(maxsize=None)
def strategy(name: str) -> Strategy:
    """A built-in strategy by name, or a strategy file by path (parsed once per process)."""
    if is_strategy_path(name):
        return load_strategy(name)
    path = STRATEGY_DIR / f"{name}.toml"
    if not path.is_file():
        raise ValueError(f"unknown bot {name!r}{did_you_mean(name, bot_names())}; bots: "
                         f"{', '.join(bot_names())}, or the path of a strategy file (.toml)")
    return load_strategy(path)


def make_bot(name: str, seed: int = 0):
    """A new bot: a built-in by name (see `bot_names`), a strategy file path, or a Python
    class ``package.module:Class``; raises ValueError saying what is wrong (`StrategyError`,
    a ValueError, for a bad strategy file)."""
    if name == RandomBot.name:
        return RandomBot(seed)
    if is_search_spec(name):
        return SearchBot(seed, **search_options(name))
    if is_class_spec(name):
        bot = bot_class(name)(seed)
        if not hasattr(bot, "log_from"):
            try:
                bot.log_from = None   # the protocol's default: it reads no log
            except AttributeError:
                raise ValueError(f"bot {name!r}: give it a log_from attribute (None: it reads "
                                 "no log)") from None
        return bot
    return StrategyBot(strategy(name), seed)


__all__ = [
    "make_bot", "bot_names", "bot_label", "bot_kingdom_cards", "bot_class", "builtin_strategies",
    "default_kingdom", "DEFAULT_KINGDOM", "fitting_strategies", "strategy_text",
    "strategy", "RandomBot", "Player", "SearchBot", "best_strategy_for", "is_search_spec",
    "search_options", "bot_description", "split_bot_list", "Strategy", "StrategyBot",
    "StrategyError",
    "load_strategy", "parse_strategy",
]
