"""Strategies as data: priority lists of buys and plays with conditions, read from TOML.

The format (docs/bots.md has the full reference)::

    name = "smithy-big-money"
    description = "Big Money with one Smithy"

    [[buy]]
    card = "Province"
    when = "count(Gold) > 0"          # one condition, or a list of them (all must hold)

    [[buy]]
    card = "Smithy"
    when = ["count(Smithy) < 1", "turn <= 10"]

    [[buy]]
    card = "Silver"

    play = ["Smithy"]                 # Actions to play, best first (or [[play]] tables)

A rule applies when its card can be bought now (the engine's legal moves already check coins and
cost) and every condition holds. A condition is ``QUANTITY OP NUMBER`` with OP one of
``< <= > >= == !=`` and QUANTITY one of:

- ``coins``: coins to spend now (for a gain, the most the gain may cost)
- ``buys``: Buys left this turn
- ``turn``: my turn number (1 on my first turn)
- ``provinces_left``: cards left in the Province pile
- ``supply(Card)``: cards left in that Supply pile (0 if it is not in the game)
- ``count(Card)``: copies of that card I own; ``count(Action)`` (a type: Action, Treasure,
  Victory, Curse, Attack, Reaction) counts cards of that type; ``cards``: all my cards
- ``empty_piles``: empty Supply piles
- ``vp_lead``: my victory points minus the best other player's (from public gains)

A bad file raises `StrategyError`, whose message names the file, the line and the problem.
"""
from __future__ import annotations

import operator
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from ..card import ACTION_T, ATTACK_T, CARDS, CURSE_T, REACTION_T, TREASURE_T, VICTORY_T
from ..errors import did_you_mean
from .policy import Player, default_action_order, supply_left

TYPES = (ACTION_T, TREASURE_T, VICTORY_T, CURSE_T, ATTACK_T, REACTION_T)
OPERATORS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
             "==": operator.eq, "!=": operator.ne}
SIMPLE_QUANTITIES = ("coins", "buys", "turn", "provinces_left", "cards", "empty_piles", "vp_lead",
                     "money")
CARD_QUANTITIES = ("supply", "count", "others")
# Quantities that count the cards seats own (they need the log to follow gains).
COUNTING_QUANTITIES = ("count", "others", "cards", "vp_lead", "money")
TOP_KEYS = ("name", "description", "buy", "play")
RULE_KEYS = ("card", "when")


class StrategyError(ValueError):
    """A strategy file that cannot be used; the message names the line and the problem."""


@dataclass(frozen=True)
class Condition:
    """``LEFT op RIGHT`` as written in ``text`` (``count(Smithy) < 1``, ``count(Village) <
    count(Smithy) + 1``), kept as ``sum(coef * quantity(arg)) + constant op 0``: ``terms`` are
    (coef, quantity, arg) with the right side's negated."""
    terms: tuple
    constant: int
    op: str
    text: str
    _reads: tuple = field(init=False, repr=False, compare=False)
    _compare: Callable = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        # The readers and the comparison, looked up once (conditions are read at every buy).
        object.__setattr__(self, "_reads", tuple((coef, QUANTITY_READERS[q], arg)
                                                 for coef, q, arg in self.terms))
        object.__setattr__(self, "_compare", OPERATORS[self.op])

    @property
    def quantity(self) -> str:
        """The first quantity read (the only one of ``QUANTITY OP NUMBER``)."""
        return self.terms[0][1]

    @property
    def arg(self) -> Optional[str]:
        return self.terms[0][2]

    @property
    def value(self) -> int:
        """The number of ``QUANTITY OP NUMBER``."""
        return -self.constant

    @property
    def quantities(self) -> tuple:
        """Every quantity the condition reads."""
        return tuple(q for _, q, _ in self.terms)

    def holds(self, bot, view, coins: int) -> bool:
        """Whether the condition holds for ``bot`` shown ``view``, with ``coins`` to spend."""
        reads: tuple = self._reads
        if len(reads) == 1:   # QUANTITY OP NUMBER: most conditions
            coef, read, arg = reads[0]
            return self._compare(coef * read(bot, view, coins, arg), -self.constant)
        total = self.constant
        for coef, read, arg in reads:
            total += coef * read(bot, view, coins, arg)
        return self._compare(total, 0)


# What each quantity reads: fn(bot, view, coins, arg), from one seat's view and what the seat
# has counted (named functions, so that strategies can be pickled).

def _coins(bot, view, coins, arg) -> int:
    return coins


def _buys(bot, view, coins, arg) -> int:
    return view.buys


def _turn(bot, view, coins, arg) -> int:
    return view.players[view.player].turns_taken


def _provinces_left(bot, view, coins, arg) -> int:
    return supply_left(view, "Province")


def _supply(bot, view, coins, arg) -> int:
    return supply_left(view, arg)


def _count(bot, view, coins, arg) -> int:
    known = bot.known
    return known.count_type(view.player, arg) if arg in TYPES else known.count(view.player, arg)


def _cards(bot, view, coins, arg) -> int:
    return bot.known.total(view.player)


def _empty_piles(bot, view, coins, arg) -> int:
    return sum(1 for _, left, _ in view.supply if left == 0)


def _money(bot, view, coins, arg) -> int:
    return treasure_value(bot.known.counts[view.player])


def _others(bot, view, coins, arg) -> int:
    known = bot.known
    seat = view.player
    of = known.count_type if arg in TYPES else known.count
    return max((of(other, arg) for other in range(len(known.counts)) if other != seat),
               default=0)


def _vp_lead(bot, view, coins, arg) -> int:
    scores = bot.known.scores()
    seat = view.player
    return scores[seat] - max(s for i, s in enumerate(scores) if i != seat)


QUANTITY_READERS = {
    "coins": _coins, "buys": _buys, "turn": _turn, "provinces_left": _provinces_left,
    "supply": _supply, "count": _count, "cards": _cards, "empty_piles": _empty_piles,
    "vp_lead": _vp_lead, "money": _money, "others": _others,
}


def treasure_value(counts: dict) -> int:
    """The coins of the Treasures among ``counts`` (name -> copies): a deck's money."""
    total = 0
    for name, k in counts.items():
        card = CARDS[name]
        if card.is_treasure:
            total += card.coins * k
    return total


@dataclass(frozen=True)
class Rule:
    card: str
    when: tuple = ()
    line: int = 0


@dataclass(frozen=True)
class Strategy:
    """A parsed strategy: buy rules and play rules, each in priority order."""
    name: str
    description: str
    buy: tuple[Rule, ...]    # (typed: the compiled bot reads a rule's fields directly)
    play: tuple[Rule, ...]
    source: str = ""

    @property
    def counts_cards(self) -> bool:
        """Whether a condition counts cards owned (which needs the log to follow gains)."""
        return any(q in COUNTING_QUANTITIES
                   for r in self.buy + self.play for c in r.when for q in c.quantities)

    @property
    def kingdom_cards(self) -> tuple:
        """Kingdom cards the strategy buys or plays, in rule order (for a default Kingdom)."""
        names = [r.card for r in self.buy + self.play if CARDS[r.card].is_kingdom]
        return tuple(dict.fromkeys(names))


class StrategyBot(Player):
    """Plays a `Strategy`: buys by its buy rules, plays Actions by its play rules (then any
    other Action, +Actions first), and answers everything else with the defaults."""

    def __init__(self, strategy: Strategy, seed: int = 0):
        super().__init__(seed)
        self.strategy = strategy
        self.name = strategy.name
        self.reads_log = strategy.counts_cards

    def fork(self, seed: int, seat_known=None) -> "StrategyBot":
        """A new bot of this strategy with its own ``seed`` that has counted what ``seat_known``
        (a `Holdings`, this bot's own by default) has: a search bot's rollouts start from what
        is known without reading the log again."""
        bot = StrategyBot(self.strategy, seed)
        known = seat_known if seat_known is not None else self.known
        if known is not None:
            bot._known = known.copy()
        return bot

    def buy_choice(self, view, pool, coins: int):
        for rule in self.strategy.buy:
            if rule.card in pool and (not rule.when or _all_hold(rule.when, self, view, coins)):
                return rule.card
        return None

    def action_order(self, view, playable) -> list:
        first = []
        for rule in self.strategy.play:
            if rule.card in playable and rule.card not in first and \
                    _all_hold(rule.when, self, view, view.coins):
                first.append(rule.card)
        return first + default_action_order([c for c in playable if c not in first])


def _all_hold(conditions: tuple, bot, view, coins: int) -> bool:
    for c in conditions:
        condition: Condition = c   # (typed: compiled, asked directly, not through Python)
        if not condition.holds(bot, view, coins):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Reading files
# ---------------------------------------------------------------------------------------------

class _Lines:
    """Finds the line of a key or value in the TOML source, for error messages (tomllib
    reports positions only for syntax errors)."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.tables: dict = {}   # array-of-tables name -> header line numbers (1-based)
        for i, line in enumerate(self.lines, 1):
            m = re.match(r"\s*\[\[\s*([A-Za-z_]+)\s*\]\]", line)
            if m:
                self.tables.setdefault(m.group(1), []).append(i)

    def key(self, key: str, start: int = 1) -> int:
        """Line of ``key = ...`` at or after line ``start`` (before the next table header)."""
        for i in range(start, len(self.lines) + 1):
            line = self.lines[i - 1]
            if i > start and re.match(r"\s*\[", line):
                break
            if re.match(rf"\s*{re.escape(key)}\s*=", line):
                return i
        return start

    def value(self, text: str, start: int = 1) -> int:
        """Line where the string ``text`` is written, at or after ``start``."""
        for i in range(start, len(self.lines) + 1):
            line = self.lines[i - 1]
            if f'"{text}"' in line or f"'{text}'" in line:
                return i
        return start


def parse_condition(text) -> Condition:
    """Parse ``"count(Smithy) < 2"`` or ``"count(Village) < count(Smithy) + 1"``: two sums of
    terms (a number, a quantity, or ``NUMBER * quantity``) compared; raises ValueError saying
    what is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"a condition must be a string like \"coins >= 6\", not {text!r}")
    m = _COMPARISON.match(text)
    if not m:
        raise ValueError(f"cannot read condition {text!r}: write QUANTITY OP NUMBER, e.g. "
                         "\"count(Smithy) < 2\" or \"provinces_left <= 4\", or compare two "
                         "sums, e.g. \"count(Village) < count(Smithy) + 1\"")
    left, op, right = m.groups()
    terms: list = []
    constant = 0
    for side, sign in ((left, 1), (right, -1)):
        side_terms, side_constant = _sum(side, text)
        terms += [(sign * coef, q, arg) for coef, q, arg in side_terms]
        constant += sign * side_constant
    if not terms:
        raise ValueError(f"condition {text!r} compares two numbers: name a quantity, e.g. "
                         "\"coins >= 6\"")
    return Condition(tuple(terms), constant, op, text)


_COMPARISON = re.compile(r"^([^<>=!]+?)\s*(<=|>=|==|!=|<|>)\s*([^<>=!]+?)\s*$")
_TERM = re.compile(r"\s*([+-])?\s*(?:(\d+)\s*\*\s*)?(?:([a-z_]+)\s*(?:\(\s*([^()]*?)\s*\))?"
                   r"|(\d+))\s*")


def _sum(side: str, text: str) -> tuple:
    """([(coef, quantity, arg)], constant) of one side of a comparison."""
    terms: list = []
    constant = 0
    at = 0
    first = True
    while at < len(side):
        m = _TERM.match(side, at)
        if not m or m.end() == at or (not first and not m.group(1)):
            raise ValueError(f"cannot read {side[at:].strip()!r} in condition {text!r}: a side "
                             "is a sum of numbers and quantities, e.g. \"count(Smithy) + 1\" "
                             "or \"2 * count(Action)\"")
        sign = -1 if m.group(1) == "-" else 1
        factor, quantity, arg, number = m.group(2), m.group(3), m.group(4), m.group(5)
        if quantity is None:
            constant += sign * int(number)
        else:
            _check_quantity(quantity, arg, text)
            terms.append((sign * (int(factor) if factor else 1), quantity, arg))
        at = m.end()
        first = False
    return terms, constant


def _check_quantity(quantity: str, arg: Optional[str], text: str) -> None:
    if quantity in SIMPLE_QUANTITIES:
        if arg is not None:
            raise ValueError(f"{quantity} takes no argument (in {text!r})")
    elif quantity in CARD_QUANTITIES:
        if not arg:
            raise ValueError(f"{quantity}(...) needs a card name (in {text!r})")
        if quantity == "supply" or arg not in TYPES:
            _check_card(arg)
    else:
        raise ValueError(f"unknown quantity {quantity!r} in {text!r}; quantities: "
                         f"{', '.join(SIMPLE_QUANTITIES)}, supply(Card), count(Card or type), "
                         "others(Card or type)")


def _check_card(name) -> None:
    if not isinstance(name, str) or name not in CARDS:
        raise ValueError(f"unknown card {name!r}{did_you_mean(name, CARDS)}")


def _rules(data, section: str, lines: _Lines, actions_only: bool) -> tuple:
    raw = data.get(section, [])
    if not isinstance(raw, list):
        raise StrategyError(f"line {lines.key(section)}: {section} must be a list of card names "
                            f"or [[{section}]] tables")
    headers = lines.tables.get(section, [])
    rules = []
    table_index = 0
    for item in raw:
        if isinstance(item, str):
            line = lines.value(item, lines.key(section))
            item = {"card": item}
        elif isinstance(item, dict):
            line = headers[table_index] if table_index < len(headers) else \
                lines.value(str(item.get("card", "")), lines.key(section))
            table_index += 1
        else:
            raise StrategyError(f"line {lines.key(section)}: each {section} entry must be a card "
                                f"name or a table with card and when, not {item!r}")
        for key in item:
            if key not in RULE_KEYS:
                raise StrategyError(f"line {lines.key(key, line)}: unknown key {key!r} in a "
                                    f"{section} rule; keys: {', '.join(RULE_KEYS)}")
        if "card" not in item:
            raise StrategyError(f"line {line}: a {section} rule needs a card")
        name = item["card"]
        try:
            _check_card(name)
        except ValueError as exc:
            raise StrategyError(f"line {lines.value(str(name), line)}: {exc}") from None
        if actions_only and not CARDS[name].is_action:
            raise StrategyError(f"line {lines.value(name, line)}: {name} is not an Action card, "
                                "so it cannot be in play rules")
        when = item.get("when", ())
        if isinstance(when, str):
            when = (when,)
        if not isinstance(when, (list, tuple)):
            raise StrategyError(f"line {lines.key('when', line)}: when must be a condition or a "
                                f"list of conditions, not {when!r}")
        conditions = []
        for text in when:
            try:
                conditions.append(parse_condition(text))
            except ValueError as exc:
                where = lines.value(text, line) if isinstance(text, str) else lines.key("when", line)
                raise StrategyError(f"line {where}: {exc}") from None
        rules.append(Rule(name, tuple(conditions), line))
    return tuple(rules)


def _syntax_error(message: str, lines: _Lines) -> str:
    """tomllib's message, led by the line like every other error."""
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if m:
        return f"line {m.group(1)}, column {m.group(2)}: {message[:m.start()]}"
    m = re.search(r"\s*\(at end of document\)$", message)
    if m:
        return f"line {max(1, len(lines.lines))} (end of file): {message[:m.start()]}"
    return message


def parse_strategy(text: str, name: str = "strategy", source: str = "") -> Strategy:
    """Parse a strategy from TOML text; ``name`` is used when the file names none."""
    where = source or name
    lines = _Lines(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{where}: {_syntax_error(str(exc), lines)}") from None
    try:
        for key in data:
            if key not in TOP_KEYS:
                raise StrategyError(f"line {lines.key(key)}: unknown key {key!r}; a strategy has "
                                    f"{', '.join(TOP_KEYS)}")
        for key in ("name", "description"):
            if key in data and not isinstance(data[key], str):
                raise StrategyError(f"line {lines.key(key)}: {key} must be a string")
        buy = _rules(data, "buy", lines, actions_only=False)
        if not buy:
            raise StrategyError("line 1: a strategy needs at least one buy rule "
                                "(buy = [\"Province\", ...] or [[buy]] tables)")
        play = _rules(data, "play", lines, actions_only=True)
    except StrategyError as exc:
        raise StrategyError(f"{where}: {exc}") from None
    return Strategy(data.get("name", name), data.get("description", ""), buy, play, source)


def load_strategy(path) -> Strategy:
    """Read a strategy file; its name defaults to the file's stem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StrategyError(f"cannot read strategy file {str(path)!r}: {exc.strerror}") from None
    return parse_strategy(text, path.stem, str(path))
