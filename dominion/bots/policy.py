"""Default answers a sensible player gives, for every decision kind and purpose.

A strategy only says what it cares about (what to buy, which Actions to play first); every other
question (Militia's discard, Chapel's trash, Courtyard's topdeck, Steward's choice, ...) is
answered here from the decision's ``kind`` and ``purpose``, with card-specific overrides only where
the generic rule would be wrong (Swindler picks a card for a victim, Thief trashes an opponent's
Treasure). Every answer is legal for its decision: it is built from the decision's own pool,
options or moves, within ``min``..``max``.

Inside a turn the answers look at what the turn can reach (`next_action`): Actions are played by
their role (non-terminal draw, villages, other non-terminals, then terminals, drawing first while
Actions remain), and with the last Action the terminal whose expected outcome reaches the best
buy, over the cards the seat may know are left to draw (`draw_pile`: its own counted cards minus
what it sees; never the deck's real order). The strategy's play order only breaks ties. Minion,
Steward, Nobles, Chapel, Cellar and Torturer's victims are decided the same way. Every such
decision is a few dictionary sums and one cached distribution: no engine step.
"""
from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter
from functools import lru_cache
from typing import Any, Final, Optional

from ..card import CARDS
from ..cards.intrigue import (MINION_CARDS, MINION_COINS, NOBLES_ACTIONS, NOBLES_CARDS,
                              STEWARD_CARDS, STEWARD_COINS, STEWARD_TRASH, TORTURER_CURSE,
                              TORTURER_DISCARD)
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
            name = next_action(self, view, self.action_order(view, playable))
            if name is None:
                return END_THE_PHASE
            # The offered Move itself when there is one (an equal value, not built anew).
            return plays[playable.index(name)] if name in playable else Move(PLAY, name)
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
        return _by_words(self, d, view)

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
# What the turn can reach: the next Action, by the buy it enables
# ---------------------------------------------------------------------------------------------
# Cheap on purpose (a scripted bot plays hundreds of games a second): a play is valued by the
# buying tier its coins reach, over the cards the seat may know are left to draw (its own cards as
# counted, minus what it sees in hand, in play and set aside), never by stepping the engine and
# never by the real order of the deck.

# Utility of reaching a buying tier ($8 Province, $6 Gold, $5, $3 Silver); a little per coin.
TIER_UTILITY = ((8, 5.0), (6, 3.0), (5, 2.0), (3, 1.0))
# The most coins a played Action is counted for when drawn live (a draw's worth is capped).
MAX_ACTION_WORTH = 4
# What some Actions do beyond their printed +Cards/+$ this turn, in tier-utility units (a gain
# is a card for later; an Attack's harm to the others). Attacks that give Curses are worth more
# while Curses are left (`attack_worth`). Minion's was measured (1,200 games of minion-chapel
# against big-money-ultimate: 0.8 64.9%, 1.2 65.7%, 1.6 64.4%, 2.4 57.0%; 0.4 62.4% of 800).
LATER_WORTH = {"Workshop": 0.8, "Ironworks": 0.8, "Feast": 1.0, "Artisan": 1.5, "Bandit": 1.2,
               "Bureaucrat": 0.5, "Remodel": 0.4, "Replace": 0.5, "Mine": 0.6, "Upgrade": 0.3,
               "Masquerade": 0.2, "Trading Post": 0.4, "Council Room": -0.3}
ATTACK_WORTH = {"Witch": 1.5, "Torturer": 0.8, "Militia": 0.6, "Minion": 1.2, "Swindler": 0.4,
                "Saboteur": 0.5, "Bandit": 0.3, "Bureaucrat": 0.3, "Replace": 0.2, "Thief": 0.2}
CURSING = frozenset(("Witch", "Torturer"))
# Actions whose +Actions is a choice (Nobles, Pawn, Courtier) or a condition (Diplomat): played
# before the terminals they may free an Action for.
FLEXIBLE = frozenset(("Nobles", "Pawn"))


@lru_cache(maxsize=8192)
def utility(coins: int, buys: int = 1) -> float:
    """How good ending the turn with ``coins`` and ``buys`` is: the best tier reached, and with a
    second Buy half the tier the rest reaches."""
    for t, u in TIER_UTILITY:
        if coins >= t:
            if buys > 1 and coins - t >= 3:
                return u + 0.5 * utility(coins - t, buys - 1) + 0.02 * coins
            return u + 0.02 * coins
    return 0.02 * coins


def is_terminal(name: str) -> bool:
    """An Action that leaves no Action to play another with (no printed +Actions)."""
    c = CARDS[name]
    return c.is_action and c.plus_actions == 0


@lru_cache(maxsize=None)
def live_worth(name: str) -> int:
    """Coins a card drawn this turn adds when it can be played: a Treasure's value; an Action's
    +$ (or the most it can make) and a coin per card it draws."""
    c = CARDS[name]
    if c.is_treasure:
        return c.coins
    if c.is_action:
        up_to = c.coins_up_to if c.coins_up_to is not None and c.coins_up_to > 0 else c.plus_coins
        return min(MAX_ACTION_WORTH, up_to + c.plus_cards)
    return 0


@lru_cache(maxsize=None)
def dead_worth(name: str) -> int:
    """Coins a card drawn this turn adds when no Action is left: a Treasure's value only."""
    c = CARDS[name]
    return c.coins if c.is_treasure else 0


def draw_pile(bot, view) -> dict:
    """The seat's cards it cannot see, as it may know them: its own cards as counted
    (`Holdings`) minus its hand, its cards in play, set aside and being looked at. Never the
    real order of its deck."""
    known = bot.known
    me = bot.me(view)
    pile = dict(known.counts[view.player]) if known is not None else {}
    for zone in (me.hand or (), me.in_play, me.aside, me.looking or ()):
        for c in zone:
            pile[c] = pile.get(c, 0) - 1
    return {c: k for c, k in pile.items() if k > 0}


def pile_worths(pile: dict, live: bool) -> tuple:
    """The pile as (coins a drawn card adds, how many such cards), sorted: the key of
    `draw_coins`."""
    worth = live_worth if live else dead_worth
    groups: dict = {}
    for c, k in pile.items():
        w = worth(c)
        groups[w] = groups.get(w, 0) + k
    return tuple(sorted(groups.items()))


@lru_cache(maxsize=4096)
def draw_coins(groups: tuple, k: int) -> tuple:
    """The coins ``k`` cards drawn at random from ``groups`` add, as ((coins, probability), ...):
    the multivariate hypergeometric distribution, exact (a deck has few distinct worths)."""
    total = sum(n for _, n in groups)
    k = min(k, total)
    if k <= 0:
        return ((0, 1.0),)
    ways: dict = {}
    _count_draws(groups, 0, k, 0, 1, ways)
    all_ways = math.comb(total, k)
    return tuple((coins, n / all_ways) for coins, n in sorted(ways.items()))


def _count_draws(groups: tuple, i: int, left: int, coins: int, ways: int, out: dict) -> None:
    """Add to ``out`` (coins: ways) every way to draw ``left`` more cards from ``groups[i:]``."""
    if i == len(groups):
        if left == 0:
            out[coins] = out.get(coins, 0) + ways
        return
    worth, n = groups[i]
    rest = 0
    for _, m in groups[i + 1:]:
        rest += m
    for j in range(max(0, left - rest), min(n, left) + 1):
        _count_draws(groups, i + 1, left - j, coins + worth * j, ways * math.comb(n, j), out)


@lru_cache(maxsize=8192)
def expected_utility(base: int, groups: tuple, k: int, buys: int) -> float:
    """The expected `utility` of ending with ``base`` coins plus ``k`` cards drawn."""
    return sum(p * utility(base + x, buys) for x, p in draw_coins(groups, k))


def cards_drawn(name: str, hand_after: int) -> int:
    """Cards a play of ``name`` draws (Library draws to 7; Nobles and Steward are valued at
    their drawing option here)."""
    if name == "Library":
        return max(0, 7 - hand_after)
    if name == "Nobles":
        return 3
    if name in ("Steward", "Pawn"):
        return 2 if name == "Steward" else 1
    return CARDS[name].plus_cards


def extra_coins(name: str, hand: list) -> int:
    """Coins a play makes this turn beyond its printed +$ that depend on the hand: Moneylender
    trashing a Copper, Baron discarding an Estate, Coppersmith's Coppers, Secret Chamber's
    discarded dead cards; Courtier's +$3 and Tribute's usual $2."""
    if name == "Moneylender":
        return 2 if "Copper" in hand else 0   # +$3 for a Copper that no longer pays
    if name == "Baron":
        return 4 if "Estate" in hand else 0
    if name == "Coppersmith":
        return hand.count("Copper")
    if name == "Secret Chamber":
        return sum(1 for c in hand if is_junk(c))
    return {"Courtier": 3, "Tribute": 2}.get(name, 0)


def attack_worth(name: str, view) -> float:
    """What an Attack's harm is worth to the attacker (Curses only while any are left)."""
    worth = ATTACK_WORTH.get(name, 0.3 if CARDS[name].is_attack else 0.0)
    if name in CURSING and supply_left(view, "Curse") == 0:
        return worth / 4
    return worth


def play_value(bot, view, name: str, pile: dict, times: int = 1, from_hand: bool = True) -> float:
    """The expected utility of the turn if ``name`` is played now (``times`` times, under
    Throne Room) and its coins and draws are all it does, then the best terminal waiting in hand
    if an Action is left for it; what it does for later turns (gains, Attacks, trashing) added
    in the same units."""
    c = CARDS[name]
    hand = list(bot.me(view).hand or ())
    if name in hand:
        hand.remove(name)
    actions = view.actions - (1 if from_hand else 0) + times * c.plus_actions
    coins = view.coins + treasure_coins(hand) + times * (c.plus_coins + extra_coins(name, hand))
    k = times * cards_drawn(name, len(hand))
    if actions > 0:   # a terminal waiting in hand is played next: its draw and +$ count too
        waiting = [t for t in hand if is_terminal(t)]
        if waiting:
            then = max(waiting, key=lambda t: (CARDS[t].plus_cards + CARDS[t].plus_coins, t))
            k += CARDS[then].plus_cards
            coins += CARDS[then].plus_coins
            actions -= 1
    value = expected_utility(coins, pile_worths(pile, actions > 0), k,
                             view.buys + times * c.plus_buys)
    later = LATER_WORTH.get(name, 0.0) + attack_worth(name, view)
    if name == "Chapel":
        later += 0.4 * sum(1 for x in hand if is_junk(x))
    return value + times * later


def _order_index(order: list):
    return {n: i for i, n in enumerate(order)}


def next_action(bot, view, order) -> Optional[str]:
    """The Action to play next, or None to stop: non-terminal draw first, then villages (they
    enable the terminals), other non-terminals (Cellar, Minion last: it may discard the hand),
    the flexible ones (Nobles, Pawn) when terminals wait; then the terminals, drawing first
    while Actions remain; with the last Action, the terminal whose expected outcome over the
    cards left to draw reaches the best buy. ``order`` is the strategy's preference (a None in
    it stops), which breaks ties. (Not drawing once the hand reaches $8 was measured and did
    not help: 1,600 games each of four Smithy and Courtyard scripts, -1.6 to +0.7 points.)"""
    names: list = []
    for n in order:
        if n is None:
            break
        if n not in names:
            names.append(n)
    if len(names) <= 1:   # (most turns: nothing to weigh, and the view's hands are not built)
        return names[0] if names else None
    rank = _order_index(names)
    # Throne Room first when it has another Action to play twice
    for n in names:
        if CARDS[n].plays_twice and any(not CARDS[o].plays_twice for o in names):
            return n
    cantrips: list = []
    villages: list = []
    others: list = []
    flexible: list = []
    terms: list = []
    for n in names:
        c = CARDS[n]
        if c.plus_actions >= 2:
            villages.append(n)
        elif c.plus_actions == 1 and c.plus_cards > 0:
            cantrips.append(n)
        elif c.plus_actions == 1:
            others.append(n)
        elif n in FLEXIBLE:
            flexible.append(n)
        else:
            terms.append(n)
    if cantrips:
        return min(cantrips, key=lambda n: (-CARDS[n].plus_cards, rank[n]))
    if villages:
        # Shanty Town last: it draws only when no other Action is in hand
        return min(villages, key=lambda n: (n == "Shanty Town", -CARDS[n].plus_cards, rank[n]))
    if others:
        return min(others, key=lambda n: (n == "Minion", rank[n]))
    hand = bot.me(view).hand or ()
    if flexible and sum(1 for n in hand if is_terminal(n)) > view.actions:
        return min(flexible, key=lambda n: rank[n])
    terms += flexible
    if len(terms) == 1:
        return terms[0]
    if view.actions >= 2:   # draw first: what it draws may be played with the Actions left
        drawing = [n for n in terms if cards_drawn(n, len(hand) - 1) > 0]
        if drawing:
            return min(drawing, key=lambda n: (-cards_drawn(n, len(hand) - 1), rank[n]))
    pile = draw_pile(bot, view)
    return max(terms, key=lambda n: (play_value(bot, view, n, pile), -rank[n]))


# ---------------------------------------------------------------------------------------------
# SELECT policies: fn(bot, decision, view, pool) -> tuple within decision.min..max
# ---------------------------------------------------------------------------------------------

def discard_junk(bot, d, view, pool) -> tuple:
    """Discard dead cards (Curses, Victory cards) first; when more must go, the least useful (for
    a victim discarding from its hand, a second terminal counts for less than a Copper: its
    next turn has one Action)."""
    junk = [c for c in pool if is_junk(c)]
    k = max(d.min, min(d.max, len(junk)))
    if not bot.my_turn(view) and _is_sub_multiset(pool, bot.me(view).hand or ()):
        return lowest(pool, k, key=_victim_keep(pool))   # a victim keeps one live terminal
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
    """The attacker picks for a victim (Swindler): the least valuable card to own, points
    included (a Curse for a Copper, never a Duchy when a $5 Action is offered)."""
    return lowest(pool, max(d.min, min(d.max, 1)), key=owner_value)


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
    """Throne Room's target: a village when a doubled terminal would still leave terminals
    waiting with no Action to play them (a village doubled frees them), else the Action whose
    doubled play reaches the best buy (a Laboratory doubled keeps its Actions; a Smithy doubled
    draws six). Another Throne Room only when nothing else is offered."""
    offered = list(dict.fromkeys(pool))
    names = [n for n in offered if not CARDS[n].plays_twice] or offered
    if not names:
        return tuple(pool[:d.min])
    hand = bot.me(view).hand or ()
    waiting = sum(1 for c in hand if CARDS[c].is_action and is_terminal(c))
    villages = [n for n in names if CARDS[n].plus_actions >= 2]
    rank = _order_index([n for n in bot.action_order(view, names) if n is not None])
    if villages and waiting - 1 > view.actions:   # a terminal doubled still leaves some dead
        return (min(villages, key=lambda n: rank.get(n, 99)),)
    pile = draw_pile(bot, view)
    best = max(names, key=lambda n: (play_value(bot, view, n, pile, times=2, from_hand=False),
                                     -rank.get(n, 99)))
    return (best,)


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


@lru_cache(maxsize=None)
def owner_value(name: str) -> float:
    """What owning a card is worth, its Victory points included: the measure for a card that
    changes owner (Masquerade's pass, Swindler's gift), where `keep_value` (a card's use in a
    hand) would rank a Province with the Estates."""
    c = CARDS[name]
    if c.is_curse:
        return -10.0
    if c.is_victory and not (c.is_action or c.is_treasure):
        return 2.0 * c.cost - 5   # Estate -1, Gardens 3, Duchy 5, Province 11
    return keep_value(name)


def pass_worst(bot, d, view, pool) -> tuple:
    """Masquerade: pass the least valuable card to own, points included (a Curse, an Estate
    while the game is young, a Copper), never a Duchy or Province while anything less is
    there. Late in the game an Estate's point is worth more than a Copper."""
    late = bot.provinces_left(view) <= 4

    def value(c):
        return 1.0 if c == "Estate" and late else owner_value(c)
    return lowest(pool, max(d.min, min(d.max, 1)), key=value)


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



# ---------------------------------------------------------------------------------------------
# Card questions decided by what the turn can reach
# ---------------------------------------------------------------------------------------------

# Chapel (and any trasher that may trash Coppers) keeps this much money in the deck: the coins
# of its Treasures plus what its Actions make, so that the thinned deck still buys.
MONEY_FLOOR = 5


def deck_money(bot, view) -> int:
    """The coins the seat's whole deck makes, as counted: Treasures' values plus the most each
    Action makes (Minion's $2, Militia's $2)."""
    known = bot.known
    if known is None:
        return 0
    total = 0
    for name, k in known.counts[view.player].items():
        c = CARDS[name]
        if c.is_treasure:
            total += k * c.coins
        elif c.is_action and c.coins_up_to:
            total += k * c.coins_up_to
    return total


def live_terminals(hand, actions: int) -> int:
    """How many terminal Actions of ``hand`` can be played with ``actions`` (villages in hand
    add theirs)."""
    if actions <= 0:
        return 0
    return actions + sum(CARDS[c].plus_actions - 1 for c in hand if CARDS[c].plus_actions >= 2)


def dead_cards(hand, actions: int) -> list:
    """The cards of ``hand`` that cannot help this turn or a turn played with ``actions``:
    Curses and Victory cards, and the terminal Actions beyond those the Actions can play (the
    least valuable of them)."""
    dead = [c for c in hand if is_junk(c)]
    terminals = sorted((c for c in hand if CARDS[c].is_action and is_terminal(c)),
                       key=lambda c: (-keep_value(c), c))
    dead += terminals[live_terminals(hand, actions):]
    if actions <= 0:
        dead += [c for c in hand if CARDS[c].is_action and not is_terminal(c)]
    return dead


def discard_dead(bot, d, view, pool) -> tuple:
    """Cellar: discard the dead cards (Curses, Victory cards, the terminals no Action is left
    for) and draw as many."""
    dead = dead_cards(pool, view.actions)
    k = max(d.min, min(d.max, len(dead)))
    picked = sorted(dead, key=lambda c: (keep_value(c), c))[:k]
    rest = list(pool)
    for c in picked:
        rest.remove(c)
    return tuple(picked) + lowest(rest, k - len(picked))


def trash_thin(bot, d, view, pool) -> tuple:
    """Chapel: trash Curses and Estates (not late in the game), and Coppers while the deck keeps
    `MONEY_FLOOR` coins of money; none when the hand buys a $5 card or better as it is."""
    late = bot.provinces_left(view) <= 3
    junk = sorted((c for c in pool if c == "Curse" or (c == "Estate" and not late)),
                  key=trash_rank)
    picked = junk[:d.max]
    coppers = pool.count("Copper")
    if coppers and len(picked) < d.max and not _buys_well(bot, view):
        room = deck_money(bot, view) - MONEY_FLOOR
        picked += ["Copper"] * max(0, min(coppers, d.max - len(picked), room))
    if len(picked) < d.min:
        rest = list(pool)
        for c in picked:
            rest.remove(c)
        picked += sorted(rest, key=trash_rank)[:d.min - len(picked)]
    return tuple(picked)


def _buys_well(bot, view) -> bool:
    """Whether the hand's coins as they are buy Gold or better, or a $5 card the strategy
    wants."""
    coins = bot.coins_in_hand(view)
    if coins >= 6:
        return True
    if coins < 5:
        return False
    pool = frozenset(n for n, left, cost in view.supply if left > 0 and cost <= coins)
    choice = bot.buy_choice(view, pool, coins)
    return choice is not None and _cost_now(view, choice) >= 5


def _option(d, label: str) -> tuple:
    return (label,) if label in d.options else (d.options[0],)


def _minion_choice(bot, d, view) -> tuple:
    """Minion: discard the hand for 4 new cards (and attack) when that reaches a better buy than
    +$2 with the hand kept (its Actions played too)."""
    hand = list(bot.me(view).hand or ())
    actions = view.actions
    keep = view.coins + 2 + treasure_coins(hand) + sum(
        live_worth(c) for c in hand if CARDS[c].is_action) * (actions > 0)
    pile = draw_pile(bot, view)
    fresh = expected_utility(view.coins, pile_worths(pile, actions > 0), 4, view.buys)
    attacked = any(p.hand_size >= 5 for i, p in enumerate(view.players) if i != view.player)
    if fresh + (attack_worth("Minion", view) if attacked else 0.0) > utility(keep, view.buys):
        return _option(d, MINION_CARDS)
    return _option(d, MINION_COINS)


def _steward_choice(bot, d, view) -> tuple:
    """Steward: trash two dead cards when the hand holds them, unless +$2 or +2 Cards would lift
    the buy by two tiers' worth (to a Province from Gold); otherwise +$2 or +2 Cards, whichever
    reaches the better buy."""
    hand = list(bot.me(view).hand or ())
    coins = view.coins + treasure_coins(hand)
    pile = draw_pile(bot, view)
    cash = utility(coins + 2, view.buys)
    draw = expected_utility(coins, pile_worths(pile, view.actions > 0), 2, view.buys)
    junk = sum(1 for c in hand if is_junk(c) and not (c == "Estate"
                                                      and bot.provinces_left(view) <= 3))
    if junk >= 2 and max(cash, draw) < utility(coins, view.buys) + 2:   # (2: e.g. $6 to $8)
        return _option(d, STEWARD_TRASH)
    return _option(d, STEWARD_COINS if cash >= draw else STEWARD_CARDS)


def _nobles_choice(bot, d, view) -> tuple:
    """Nobles: +2 Actions only when Actions wait in hand that the Actions left cannot play."""
    hand = bot.me(view).hand or ()
    actions_waiting = [c for c in hand if CARDS[c].is_action]
    terminals = [c for c in actions_waiting if is_terminal(c)]
    need = view.actions == 0 and actions_waiting or len(terminals) > view.actions
    return _option(d, NOBLES_ACTIONS if need else NOBLES_CARDS)


def _torturer_choice(bot, d, view) -> tuple:
    """Torturer's victim: gain the Curse only when none are left (nothing happens) or when
    discarding 2 would lose the hand's Province; else discard the 2 least useful cards."""
    if supply_left(view, "Curse") == 0:
        return _option(d, TORTURER_CURSE)
    hand = list(bot.me(view).hand or ())
    if len(hand) <= 2:
        return _option(d, TORTURER_DISCARD)
    rest = list(hand)
    for c in lowest(hand, 2, key=_victim_keep(hand)):
        rest.remove(c)
    if tier(treasure_coins(hand)) >= 8 > tier(treasure_coins(rest)):
        return _option(d, TORTURER_CURSE)
    return _option(d, TORTURER_DISCARD)


# What each of Pawn's and Courtier's options adds: (coins, cards, actions, buys, later worth).
OPTION_EFFECTS = {"+1 Card": (0, 1, 0, 0, 0.0), "+1 Action": (0, 0, 1, 0, 0.0),
                  "+1 Buy": (0, 0, 0, 1, 0.0), "+$1": (1, 0, 0, 0, 0.0),
                  "+$3": (3, 0, 0, 0, 0.0), "gain a Gold": (0, 0, 0, 0, 1.5)}
# An Action that lets a waiting terminal be played: worth about a tier.
ENABLED_TERMINAL = 1.0


def _pick_options(bot, d, view) -> tuple:
    """Pawn, Courtier: the options (as many as asked) that together reach the best buy: +$ and
    +Buy by the tiers reached, +Card by what it may draw, +Action by the terminals waiting for
    one, a gained Gold for later."""
    if any(o not in OPTION_EFFECTS for o in d.options):
        return _by_words(bot, d, view)
    hand = list(bot.me(view).hand or ())
    coins = view.coins + treasure_coins(hand)
    need = max(0, sum(1 for c in hand if is_terminal(c)) - view.actions)
    pile = draw_pile(bot, view)

    def value(combo) -> float:
        plus = [sum(e) for e in zip(*(OPTION_EFFECTS[o] for o in combo))]
        actions = view.actions + plus[2]
        return (expected_utility(coins + plus[0], pile_worths(pile, actions > 0), plus[1],
                                 view.buys + plus[3])
                + plus[4] + ENABLED_TERMINAL * min(need, plus[2]))
    k = max(d.min, min(d.max, 1))
    return max(itertools.combinations(d.options, k), key=value)


def _by_words(bot, d, view) -> tuple:
    """Options valued from their words (`option_value`), the best ``min`` (at least one)."""
    scored = sorted(d.options, key=lambda o: -option_value(bot, o, d, view))
    return tuple(scored[:max(d.min, min(d.max, 1))])


def _victim_keep(hand):
    """A key for the cards a victim keeps for its next turn (one Action to play it): the
    terminals beyond the first count for less than a Copper."""
    dead = dead_cards(hand, 1)

    def key(c):
        return 0.4 if c in dead and not is_junk(c) else keep_value(c)
    return key


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
    ("Cellar", "discard"): discard_dead,
    ("Chapel", "trash"): trash_thin,
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
    "Minion": _minion_choice,
    "Steward": _steward_choice,
    "Nobles": _nobles_choice,
    "Torturer": _torturer_choice,
    "Pawn": _pick_options,
    "Courtier": _pick_options,
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
