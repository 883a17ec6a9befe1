"""Default answers a sensible player gives, for every decision kind and purpose.

A strategy only says what it cares about (what to buy, which Actions to play first); every other
question (Militia's discard, Chapel's trash, Courtyard's topdeck, Steward's choice, ...) is
answered here from the decision's ``kind`` and ``purpose``, with card-specific overrides only where
the generic rule would be wrong (Swindler picks a card for a victim, Thief trashes an opponent's
Treasure). Every answer is legal for its decision: it is built from the decision's own pool,
options or moves, within ``min``..``max``.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from functools import lru_cache
from typing import Any, Final, Optional

from ..card import CARDS
from ..views import Observation
from ..state import (CHOOSE, END_PHASE, ORDER, PLAY, PLAY_TREASURES, SELECT, TURN, BUY, Decision,
                     Move)
from ..engine import END_THE_PHASE, Memo
from .knowledge import Holdings

# Coins that buy something better than less would (Province, Gold, Duchy/Laboratory, Silver).
COIN_TIERS = (8, 6, 5, 3)


@lru_cache(maxsize=None)
def keep_value(name: str) -> float:
    """How much a card is worth keeping in a deck or hand: Curses and pure Victory cards are
    dead cards, Copper is barely useful, and otherwise the cost (plus a Treasure's coins) ranks
    the rest."""
    c = CARDS[name]
    if c.is_curse:
        return -10.0
    if c.is_victory and not (c.is_action or c.is_treasure):
        return -5.0
    if name == "Copper":
        return 0.5
    return c.cost + (c.coins if c.is_treasure else 0)


@lru_cache(maxsize=None)
def trash_rank(name: str) -> tuple:
    """Order to trash in: Curses, then Estates, then Coppers, then the least valuable card."""
    first = {"Curse": 0, "Estate": 1, "Copper": 2}.get(name, 3)
    return (first, keep_value(name), name)


def is_junk(name: str) -> bool:
    """A card the deck is better without (a Curse, or a Victory card that does nothing)."""
    return keep_value(name) < 0


def tier(coins: int) -> int:
    """The best buying tier ``coins`` reach (0: less than $3)."""
    for t in COIN_TIERS:
        if coins >= t:
            return t
    return 0


def treasure_coins(cards) -> int:
    """Printed coins of the Treasures among ``cards``."""
    return sum(CARDS[c].coins for c in cards if CARDS[c].is_treasure)


def lowest(cards, k: int, key=keep_value) -> tuple:
    """The ``k`` cards of ``cards`` with the lowest ``key`` (stable: ties by name)."""
    return tuple(sorted(cards, key=lambda c: (key(c), c))[:k])


def highest(cards, k: int, key=keep_value) -> tuple:
    return tuple(sorted(cards, key=lambda c: (-key(c), c))[:k])


_BUY_OPTIONS: Final = Memo(1024)


def buy_options(moves: tuple) -> tuple:
    """(names, moves, the names as a set) of the cards the BUY moves among ``moves`` buy
    (memoized by the moves' identity: the engine offers the same tuple of moves whenever a
    seat's Treasures and coins are the same, `dominion.engine.turn_decision`)."""
    found: tuple = _BUY_OPTIONS.of(moves, _buy_options)
    return found


def _buy_options(moves: tuple[Move, ...]) -> tuple:
    buys = tuple(m for m in moves if m.verb == BUY)
    names = tuple(m.card for m in buys)
    return names, buys, frozenset(names)


class Player:
    """A bot with the default answers. Subclasses say what to buy and play (`buy_choice`,
    `action_order`); everything else has a sensible default.

    Interface: ``answer(decision, view)`` with ``view = dominion.view(state, seat,
    log_from=bot.log_from)``: the bot reads the new log events to count the cards it owns. Shown
    views without a log (``log_from=None``), it still answers legally and counts the starting
    deck plus its own buys (missing other gains and trashes).
    """
    name = "default"
    reads_log = True  # False: the bot's answers need no card counts, so it asks for no log

    def __init__(self, seed: int = 0):
        self._seed = seed
        self._rng: Optional[random.Random] = None
        self._known: Holdings | None = None
        self._unread: Any = None    # the last view shown, when its log is read only once needed
        self._reacted: Any = None  # (attack identity, reactions revealed against it)
        self._blind = False    # shown no log: card counts follow the bot's own buys only

    @property
    def rng(self) -> random.Random:
        """The bot's random generator, seeded with its seed. Made on first use: the default
        answers never draw, and seeding one costs as much as a dozen decisions of a game."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    # -- the one entry point ------------------------------------------------------------------

    @property
    def log_from(self) -> Optional[int]:
        """The first log index this bot has not read yet (pass it as ``view``'s ``log_from``);
        None when it reads no log (a strategy that counts no cards: building the log costs)."""
        if not self.reads_log:
            return None
        return 0 if self._known is None else self._known.log_from

    @property
    def known(self) -> Holdings | None:
        """The cards each seat owns as far as this bot can tell, every view shown so far read.
        An `Observation` (the simulation's view) is read only when this is asked for: most
        answers need no count, and a later view's log holds the same events."""
        view, known = self._unread, self._known
        if view is not None and known is not None:  # (a view is left unread only once known)
            self._unread = None
            known.observe(view)
        return known

    def answer(self, decision: Decision, view):
        known = self._known
        if known is None:
            known = self._known = Holdings(len(view.players))
            # A first view without a log (log_from=None): count the bot's own buys instead.
            self._blind = not view.log
        if type(view) is Observation and view.log_from == known.log_from:
            self._unread = view  # its log holds the unread view's events too: read when needed
        elif not (type(view) is Observation and view.log_from is None):  # (no log to read)
            known = self.known  # reads any unread view first
            assert known is not None   # (set above)
            if view.log:
                known.observe(view)
        kind = decision.kind
        if kind == TURN:
            return self.turn(decision, view)
        if kind == SELECT:
            return self.select(decision, view)
        if kind == CHOOSE:
            return self.choose(decision, view)
        if kind == ORDER:
            return self.order(decision, view)
        raise ValueError(f"unknown decision kind {kind!r}")

    # -- what a strategy decides ------------------------------------------------------------

    def buy_choice(self, view, pool, coins: int):
        """The card to buy (or gain) from ``pool`` with ``coins`` to spend, or None."""
        return None

    def action_order(self, view, playable) -> list:
        """Playable Actions, best first (None in the list: stop playing)."""
        return default_action_order(playable)

    # -- the turn ----------------------------------------------------------------------------

    def turn(self, d: Decision, view):
        moves = d.moves
        if d.purpose == "action_phase":
            plays = [m for m in moves if m.verb == PLAY]
            playable = [m.card for m in plays]
            for name in self.action_order(view, playable):
                if name is None:
                    break
                # The offered Move itself when there is one (an equal value, not built anew).
                return plays[playable.index(name)] if name in playable else Move(PLAY, name)
            return END_THE_PHASE
        if moves[0].verb == PLAY_TREASURES:  # play every Treasure before buying
            return moves[0]
        names, buys, pool = buy_options(moves)
        if names:
            choice = self.buy_choice(view, pool, view.coins)
            if choice is not None:
                if self._blind:
                    known = self.known
                    assert known is not None   # (set by `answer`)
                    known.add(view.player, choice)
                # The offered Move itself when there is one (an equal value, not built anew).
                return buys[names.index(choice)] if choice in names else Move(BUY, choice)
        return END_THE_PHASE

    # -- cards ---------------------------------------------------------------------------------

    def select(self, d, view) -> tuple:
        rule = SELECT_BY_CARD.get((d.card, d.purpose)) or SELECT_BY_PURPOSE.get(d.purpose)
        if rule is None:
            return lowest(d.cards, d.min)
        return rule(self, d, view, d.cards)

    def choose(self, d, view) -> tuple:
        options = d.options
        if options == ("yes", "no"):
            yes_no = YES_NO_BY_CARD.get(d.card)
            yes = yes_no(self, d, view) if yes_no is not None else True
            return ("yes",) if yes else ("no",)
        if all(o in CARDS for o in options):  # naming or picking a card: like a SELECT
            select = SELECT_BY_CARD.get((d.card, d.purpose)) or SELECT_BY_PURPOSE.get(d.purpose)
            picked = select(self, d, view, options) if select is not None else ()
            if len(picked) < d.min:
                picked += tuple(o for o in options if o not in picked)[:d.min - len(picked)]
            return tuple(dict.fromkeys(picked))
        choose = CHOOSE_BY_CARD.get(d.card)
        if choose is not None:
            return choose(self, d, view)
        scored = sorted(options, key=lambda o: -option_value(self, o, d, view))
        k = max(d.min, min(d.max, 1))
        return tuple(scored[:k])

    def order(self, d, view) -> tuple:
        """Best card on top (first)."""
        return highest(d.cards, len(d.cards))

    # -- what the bot can tell about its own game ------------------------------------------

    def me(self, view):
        return view.players[view.player]

    def coins_in_hand(self, view) -> int:
        """Coins this turn if every Treasure in hand is played."""
        return view.coins + treasure_coins(self.me(view).hand or ())

    def my_turn(self, view) -> bool:
        return view.current == view.player

    def provinces_left(self, view) -> int:
        return supply_left(view, "Province")


def supply_left(view, pile: str) -> int:
    """Cards left in the named Supply pile as ``view`` shows them (0: no such pile)."""
    if type(view) is Observation:
        return view.supply_left(pile)
    for name, left, _ in view.supply:
        if name == pile:
            return left
    return 0


def default_action_order(playable) -> list:
    """Actions that give +Actions first (they cost nothing to play), then the most expensive."""
    return sorted(playable, key=lambda n: (CARDS[n].plus_actions == 0, -CARDS[n].cost, n))


# ---------------------------------------------------------------------------------------------
# SELECT policies: fn(bot, decision, view, pool) -> tuple within decision.min..max
# ---------------------------------------------------------------------------------------------

def discard_junk(bot, d, view, pool) -> tuple:
    """Discard dead cards (Curses, Victory cards) first; when more must go, the least useful."""
    junk = [c for c in pool if is_junk(c)]
    k = max(d.min, min(d.max, len(junk)))
    return lowest(pool, k)


def trash_junk(bot, d, view, pool) -> tuple:
    """Trash Curses, then Estates (not late in the game), then Coppers when the card trashes for
    a living (Chapel) or must trash; when more must go, the least valuable."""
    late = bot.provinces_left(view) <= 3
    wanted = [c for c in pool if c == "Curse" or (c == "Estate" and not late)
              or (c == "Copper" and d.card in TRASHES_COPPER)]
    k = max(d.min, min(d.max, len(wanted)))
    return tuple(sorted(pool, key=trash_rank)[:k])


# Cards whose trashing of Coppers is the point (Chapel thins; Moneylender pays $3 for it).
TRASHES_COPPER = frozenset(("Chapel", "Moneylender", "Trading Post"))


def trash_for_gain(bot, d, view, pool) -> tuple:
    """Remodel-like trashing (a gain follows): late in the game turn Gold into Province,
    otherwise trash the junk."""
    if bot.provinces_left(view) <= 4 and "Gold" in pool and d.card in ("Remodel", "Replace"):
        return ("Gold",)[:max(d.min, 1)]
    return tuple(sorted(pool, key=trash_rank)[:max(d.min, min(d.max, 1))])


def trash_treasure_to_upgrade(bot, d, view, pool) -> tuple:
    """Mine: upgrade a Treasure (Silver to Gold first)."""
    for name in ("Silver", "Copper"):
        if name in pool:
            return (name,)
    return tuple(sorted(pool, key=trash_rank)[:d.min])


def gain_best(bot, d, view, pool) -> tuple:
    """Gain what the strategy would buy; else the most expensive useful card. An optional gain
    of a Curse is declined."""
    if d.max == 0:
        return ()
    choice = None
    names = [n for n in dict.fromkeys(pool)]
    if names:
        costs = {n: _cost_now(view, n) for n in names}
        choice = bot.buy_choice(view, names, max(costs.values()))
        if choice is None:
            choice = max(names, key=lambda n: (costs[n], keep_value(n), n))
    if choice is None or (d.min == 0 and CARDS[choice].is_curse):
        return tuple(pool[:d.min])
    rest = list(pool)
    rest.remove(choice)
    return (choice,) + tuple(rest[:max(0, d.min - 1)])


def gain_worst(bot, d, view, pool) -> tuple:
    """The attacker picks for a victim (Swindler): the least useful card."""
    return lowest(pool, max(d.min, min(d.max, 1)))


def topdeck_for_next_turn(bot, d, view, pool) -> tuple:
    """Put back the best card for next turn that does not lower this turn's buying tier (from
    the hand on one's own turn: Courtyard, Artisan); otherwise the best cards (Secret Chamber,
    Harbinger), and nothing optional that is not worth drawing again."""
    k = max(d.min, min(d.max, len(pool)))
    hand = bot.me(view).hand or ()
    if not bot.my_turn(view) or not _is_sub_multiset(pool, hand):
        best = highest(pool, k)
        if d.min == 0:
            best = tuple(c for c in best if keep_value(c) >= 3)
        return best
    chosen: list = []
    rest = list(hand)
    coins_now = view.coins
    can_play = view.phase == "action" and view.actions > 0
    for _ in range(d.min):
        def score(c):
            left = list(rest)
            left.remove(c)
            usable_now = can_play and CARDS[c].is_action
            return (tier(coins_now + treasure_coins(left)), not usable_now, keep_value(c))
        candidates = sorted({c for c in pool if pool.count(c) > chosen.count(c)})
        pick = max(candidates, key=score)
        chosen.append(pick)
        rest.remove(pick)
    return tuple(chosen)


def react_once(bot, d, view, pool) -> tuple:
    """Reveal each Reaction once per Attack (Moat, Secret Chamber, Diplomat): revealing again
    gains nothing and, for a card that stays in hand, would never end."""
    current = view.players[view.current]
    attack = (view.turn, view.current, len(current.in_play), d.card)
    if bot._reacted is None or bot._reacted[0] != attack:
        bot._reacted = (attack, set())
    done = bot._reacted[1]
    for name in sorted(pool, key=lambda n: (n != "Moat", n)):
        if name not in done:
            done.add(name)
            return (name,)
    return ()


def play_best(bot, d, view, pool) -> tuple:
    """Throne Room and the like: the Action the strategy plays first."""
    for name in bot.action_order(view, sorted(set(pool))):
        if name is not None:
            return (name,)
    return tuple(pool[:d.min])


def name_likely(bot, d, view, pool) -> tuple:
    """Wishing Well: name the card most common among my cards not in hand or play."""
    me = bot.me(view)
    owned = Counter(bot.known.counts[view.player])
    for zone in (me.hand or (), me.in_play, me.aside):
        for c in zone:
            owned[c] -= 1
    best = max(pool, key=lambda n: (owned.get(n, 0), n))
    return (best,)


def thief_trash(bot, d, view, pool) -> tuple:
    """Thief: the attacker trashes the victim's best Treasure."""
    return highest(pool, max(d.min, min(d.max, 1)))


def thief_gain(bot, d, view, pool) -> tuple:
    """Thief: take every trashed Treasure better than Copper."""
    good = tuple(c for c in pool if c != "Copper")
    return good[:d.max] if len(good) >= d.min else tuple(pool[:d.min])


def _is_sub_multiset(small, big) -> bool:
    big = list(big)
    for c in small:
        if c in big:
            big.remove(c)
        else:
            return False
    return True


def _cost_now(view, name: str) -> int:
    for pile, _, cost in view.supply:
        if pile == name:
            return cost
    return CARDS[name].cost


def pass_worst(bot, d, view, pool) -> tuple:
    """Masquerade: pass the least useful card."""
    return lowest(pool, max(d.min, min(d.max, 1)))


def reveal_most_types(bot, d, view, pool) -> tuple:
    """Courtier: reveal the card with the most types (one option per type); it stays in hand."""
    return (max(sorted(pool), key=lambda c: (len(CARDS[c].types), keep_value(c))),)


def insert_for_next_turn(bot, d, view, pool) -> tuple:
    """Secret Passage: the card to put into the deck, chosen as for a topdeck (the position
    question that follows names it in ``about_cards``)."""
    return topdeck_for_next_turn(bot, d, view, pool)


def secret_chamber_discard(bot, d, view, pool) -> tuple:
    """Secret Chamber: +$1 per card discarded, so discard dead cards, and Actions when no
    Action is left to play them."""
    dead = [c for c in pool if is_junk(c) or (CARDS[c].is_action and view.actions == 0)]
    return tuple(sorted(dead))[:d.max]


SELECT_BY_PURPOSE = {
    "discard": discard_junk,
    "trash": trash_junk,
    "gain": gain_best,
    "topdeck": topdeck_for_next_turn,
    "react": react_once,
    "play": play_best,
    "name": name_likely,
    "pass": pass_worst,
    "give": gain_worst,
    "reveal": reveal_most_types,
    "insert": insert_for_next_turn,
}

SELECT_BY_CARD = {
    ("Remodel", "trash"): trash_for_gain,
    ("Replace", "trash"): trash_for_gain,
    ("Upgrade", "trash"): trash_for_gain,
    ("Mine", "trash"): trash_treasure_to_upgrade,
    ("Thief", "trash"): thief_trash,
    ("Thief", "gain"): thief_gain,
    ("Secret Chamber", "discard"): secret_chamber_discard,
}


# ---------------------------------------------------------------------------------------------
# CHOOSE policies
# ---------------------------------------------------------------------------------------------

def _mining_village_trash(bot, d, view) -> bool:
    """Trash Mining Village for +$2 only when the $2 reaches a better buy (Province, Gold)."""
    now = bot.coins_in_hand(view)
    return tier(now + 2) > tier(now) and tier(now + 2) >= 6


def _library_skip(bot, d, view) -> bool:
    """Library: skip an Action only when no Action is left to play it."""
    return view.actions == 0


def _mill_discard(bot, d, view) -> bool:
    """Mill: discarding 2 for +$2 is worth it when one of them is a dead card and the other
    no better than a Copper."""
    hand = bot.me(view).hand or ()
    cheap = [c for c in hand if keep_value(c) <= 0.5]
    return any(is_junk(c) for c in hand) and len(cheap) >= 2


def _spy_discard(bot, d, view) -> bool:
    """Spy: discard my own card (``about_player`` None) when it is not worth drawing (Copper or
    worse), another player's when it is. The revealed card is ``about_cards``."""
    good = keep_value(d.about_cards[0]) >= 3
    return not good if d.about_player is None else good


YES_NO_BY_CARD = {
    "Mining Village": _mining_village_trash,
    "Library": _library_skip,
    "Mill": _mill_discard,
    "Spy": _spy_discard,
}


def _secret_passage_position(bot, d, view) -> tuple:
    """Secret Passage: a card worth drawing goes on top, a dead one to the bottom (the card is
    the decision's ``about_cards``)."""
    good = keep_value(d.about_cards[0]) >= 3
    return (d.options[0],) if good else (d.options[-1],)


CHOOSE_BY_CARD = {
    "Secret Passage": _secret_passage_position,
}

_COINS = re.compile(r"\+\s*\$\s*(\d+)")
_CARDS = re.compile(r"\+\s*(\d+)\s*cards?")
_ACTIONS = re.compile(r"\+\s*(\d+)\s*actions?")
_BUYS = re.compile(r"\+\s*(\d+)\s*buys?")


def option_value(bot, label: str, d, view) -> float:
    """How good a labelled option is, read from its words (Pawn, Steward, Nobles, Minion,
    Courtier, Torturer, Lurker, ...): +$ and +Cards are worth about a coin each, +Actions only
    when Actions wait in hand, trashing by the junk in hand, a Curse is worse than discarding."""
    text = label.lower()
    me = bot.me(view)
    hand = me.hand or ()
    value = 0.0
    if "discard your hand" in text or "discard the hand" in text:  # Minion's second option
        return 4 * 1.1 - treasure_coins(hand) - 0.5 * sum(1 for c in hand if CARDS[c].is_action)
    m = _COINS.search(text)
    if m:
        n = int(m.group(1))
        now = bot.coins_in_hand(view)
        value += n + (1.0 if tier(now + n) > tier(now) else 0.0)
    m = _CARDS.search(text)
    if m:
        value += 1.0 * int(m.group(1))
    m = _ACTIONS.search(text)
    if m:
        waiting = sum(1 for c in hand if CARDS[c].is_action)
        need = max(0, waiting - view.actions)
        value += 3.0 * min(need, int(m.group(1))) + 0.1  # an Action waiting: about a Smithy
    m = _BUYS.search(text)
    if m:
        value += 0.3
    if "gold" in text and "gain" in text:
        value += 3.5
    if "curse" in text:
        value -= 5.0
    if "trash" in text:
        if "from the supply" in text:
            value += 0.1
        elif "from the trash" in text or "gain" in text:
            best = max((keep_value(c) for c in view.trash if CARDS[c].is_action), default=-1)
            value += best / 2
        else:
            junk = sum(1 for c in hand if c in ("Curse", "Estate"))
            value += 1.75 * min(junk, 2) - (1.0 if junk == 0 else 0.0)
    elif "discard" in text:
        value -= sum(max(0.0, keep_value(c)) for c in lowest(hand, 2)) / 3
    return value
