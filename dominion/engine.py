"""The rules machinery: a working copy of a state, the primitives cards are written with, and the
turn structure (Action, Buy, Clean-up).

`step` (in ``game.py``) copies a `State` into a `Work`, lets the rules change the copy, and
freezes it into a new `State` once: a state is never changed in place, and a step costs one
record write however many cards move. Everything that must wait for an answer is a frame on
``w.stack``: either ``(name, *args)``, a registered continuation run as ``fn(w, *args)``, or an
ask frame ``("?", decision, name, args)`` whose continuation runs as ``fn(w, answer, *args)``.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, Callable, Final, Optional

from pyrsistent import PVector

from . import rng
from .card import CARDS, CONTINUATIONS, FRAME_NAMES, card, continuation
from ._native import tuple_maker
from .errors import IllegalAnswerError
from .state import (ACTION, BUY, CHOOSE, CLEANUP, END_PHASE, FROM_SUPPLY, ORDER, OVER, PLAY,
                    PLAY_TREASURES, NO_EFFECTS, SELECT, TURN, BUY as BUY_VERB, Config, Decision,
                    Event, Move, PlayerState, State, TurnEffects)

ASK: Final = "?"
# Builds a NamedTuple from a tuple of its fields, not by its Python __new__ (`tuple_maker`).
_new_tuple: Final = tuple_maker()
# The other modules' names read at every step, bound again here as Final: the compiled engine
# reads a Final name from a C variable, and any other module-level name from the module's
# dictionary, a lookup at every use (with the turn's phases called as Python functions, below,
# 6% of the instructions of a compiled simulation, measured 2026-11-26).
_Event: Final = Event
_State: Final = State
_PlayerState: Final = PlayerState
_Decision: Final = Decision
_Move: Final = Move
_TurnEffects: Final = TurnEffects
_NO_EFFECTS: Final = NO_EFFECTS
_BOUGHT_ONLY: Final = NO_EFFECTS._replace(bought=True)   # a turn's effects after a plain buy
_CARDS: Final = CARDS
_CONTINUATIONS: Final = CONTINUATIONS
_FRAME_NAMES: Final = FRAME_NAMES

PLAY_ALL_TREASURES: Final = Move(PLAY_TREASURES)
END_THE_PHASE: Final = Move(END_PHASE)

BASIC_PILES = ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")
PROVINCE_PILE: Final = BASIC_PILES.index("Province")   # the Supply starts with the basic piles


class Memo:
    """Values of a pure function kept by key, all dropped at once when ``limit`` are kept. The
    rules' memoized functions on the step's path keep their values here, not in an
    `lru_cache`: the compiled engine looks one up in a dictionary, where an `lru_cache` is
    called through Python (those calls were 12% of a compiled Smithy game's instructions,
    callgrind, 2026-11-27)."""

    def __init__(self, limit: int) -> None:
        self.values: dict[Any, Any] = {}
        self.limit = limit
        self.last: tuple[Any, Any] = (self, None)   # `of`'s last (owner, value): no owner yet

    def keep(self, key: Any, value: Any) -> Any:
        """Keep ``value`` under ``key`` and return it."""
        values = self.values
        if len(values) >= self.limit:
            values.clear()
        values[key] = value
        return value

    def of(self, owner: Any, make: Callable[[Any], Any]) -> Any:
        """``make(owner)``, kept by ``owner``'s identity: a game's states share one tuple of
        pile names, so a value of the names is found without hashing them, most often as the
        last one asked for (one attribute: threads sharing a memo read a whole entry). An entry
        holds its owner, so its identity is not another object's while it is kept."""
        last = self.last
        if last[0] is owner:
            return last[1]
        key = id(owner)
        entry: Optional[tuple[Any, Any]] = self.values.get(key)
        if entry is None or entry[0] is not owner:
            entry = self.keep(key, (owner, make(owner)))
        self.last = entry
        return entry[1]


class PlayerWork:
    """Mutable copy of one player's zones, alive only inside one step (`Seats` makes them,
    `Work.freeze` freezes them)."""
    __slots__ = PlayerState._fields
    hand: tuple
    deck: tuple
    discard: tuple
    in_play: tuple
    aside: tuple
    looking: tuple

    def __init__(self, ps: PlayerState):
        self.hand, self.deck, self.discard, self.in_play, self.aside, self.looking = ps


class Seats:
    """The players' zones in a `Work`, by seat, each copied into a `PlayerWork` when it is first
    used (copy-on-write): most steps use one player's zones, and copying every seat at every
    step was a quarter of a step with 4 players. Reads like the tuple of players it copies
    (``len``, indexing, iteration in seat order); `Work.freeze` keeps the seats never used as
    they were."""
    __slots__ = ("base", "used", "last_seat", "last")
    base: tuple        # the copied state's players
    used: dict[int, PlayerWork]   # the seats used so far (typed: compiled, their zones are
                                  # read as fields, not looked up by name)
    last_seat: int     # the seat asked for last, and its zones: a step asks for one seat's
    last: PlayerWork   # zones again and again (-1: none yet)

    def __init__(self, base: tuple):
        self.base = base
        self.used = {}
        self.last_seat = -1

    def __getitem__(self, seat: int) -> PlayerWork:
        if seat == self.last_seat:
            return self.last
        p = self.used.get(seat)
        if p is None:
            p = self.used[seat] = PlayerWork(self.base[seat])
        self.last_seat, self.last = seat, p
        return p

    def __len__(self) -> int:
        return len(self.base)

    def __iter__(self):
        return iter([self[seat] for seat in range(len(self.base))])


class Work:
    """Mutable copy of a `State`, alive only inside one call of `step` (an evolver). Its
    ``supply`` stays a tuple, changed through `take_from_pile`; ``log`` is the copied state's
    log, ``events`` what was logged since."""
    __slots__ = State._fields + ("events", "owners_changed")
    config: Config
    pile_names: tuple
    supply: tuple
    trash: tuple
    players: Seats
    current: int
    phase: str
    actions: int
    buys: int
    coins: int
    turn: int
    turns_taken: tuple
    effects: TurnEffects
    next_uid: int
    stack: list
    rng: int
    log: PVector
    answers: PVector
    vp: tuple
    hidden_passes: tuple
    events: list
    owners_changed: Optional[set]   # seats whose cards changed owner in this step

    def __init__(self, s: State):
        # Unpacked by position, in `State._fields` order, as `freeze` packs them: reading the
        # fields by name instead cost 9% of a simulation's speed in the compiled engine.
        # tests/properties/test_positions.py round-trips a state through a Work.
        (self.config, self.pile_names, self.supply, self.trash, players, self.current, self.phase,
         self.actions, self.buys, self.coins, self.turn, self.turns_taken, self.effects,
         self.next_uid, stack, self.rng, self.log, self.answers, self.vp,
         self.hidden_passes) = s
        self.players = Seats(players)
        self.stack = list(stack)
        self.events = []
        self.owners_changed = None

    def freeze(self) -> State:
        log = self.log.extend(self.events) if self.events else self.log
        seats = self.players
        if self.owners_changed:
            vp = list(self.vp)
            for seat in self.owners_changed:
                vp[seat] = zones_score(seats[seat])
            self.vp = tuple(vp)
        players = list(seats.base)
        for seat, p in seats.used.items():  # the seats used in this step
            players[seat] = _new_tuple(_PlayerState, (p.hand, p.deck, p.discard, p.in_play,
                                                     p.aside, p.looking))
        return _new_tuple(_State, (   # in `State._fields` order, as `__init__` unpacks them
            self.config, self.pile_names, self.supply, self.trash, tuple(players), self.current,
            self.phase, self.actions, self.buys, self.coins, self.turn, self.turns_taken,
            self.effects, self.next_uid, tuple(self.stack), self.rng, log, self.answers, self.vp,
            self.hidden_passes))

    # Small conveniences used everywhere.
    @property
    def num_players(self) -> int:
        return len(self.players)


# ---------------------------------------------------------------------------------------------
# Frames
# ---------------------------------------------------------------------------------------------

def push(w: Work, fn, *args) -> None:
    """Schedule ``fn(w, *args)`` to run once everything pushed after it has finished."""
    w.stack.append((_FRAME_NAMES[fn],) + args)


def run(w: Work) -> None:
    """Run frames until one asks a question or none is left (the game is over)."""
    stack = w.stack
    conts = _CONTINUATIONS
    while stack:
        frame = stack[-1]
        name = frame[0]
        if name == ASK:
            return
        stack.pop()
        # Most frames carry no argument or one: called without building an argument tuple
        # (the compiled engine then calls them directly, not through a star-call).
        n = len(frame)
        if n == 1:
            conts[name](w)
        elif n == 2:
            conts[name](w, frame[1])
        else:
            conts[name](w, *frame[1:])


def _ask(w: Work, decision: Decision, cont, args: tuple) -> None:
    w.stack.append((ASK, decision, _FRAME_NAMES[cont], args))


# Purposes whose chosen cards land on a pile together, in the answer's order (the last one
# discarded ends on top of the discard pile; the first one put onto the deck ends on top): for
# them, two different cards in a different order are a different answer.
ORDERED_PURPOSES = frozenset(("discard", "topdeck"))


def select_is_forced(pool: tuple, lo: int, hi: int, purpose: str) -> bool:
    """Whether every legal answer to "choose ``lo``..``hi`` cards from ``pool``" leads to the
    same game: choose nothing, or the only multiset there is (all copies of one card, or the
    whole pool when its order does not matter). Such questions are not asked (unless the game
    asks every question, `Config.always_ask`)."""
    if hi == 0:
        return True
    kinds = len(set(pool))
    if kinds == 1:
        return lo == hi
    return lo == len(pool) and purpose not in ORDERED_PURPOSES


def ask_select(w: Work, player: int, prompt: str, card, purpose: str, pool, lo: int, hi: int,
               cont, *args, about_cards=(), about_player=None, from_hand=False) -> None:
    """Ask ``player`` to choose ``lo``..``hi`` cards from ``pool`` (a multiset of names); then
    ``cont(w, chosen_tuple, *args)``. Does as much as possible: ``lo`` and ``hi`` are clipped to
    the pool, and a forced answer (`select_is_forced`) is not asked unless the game asks every
    question. ``about_cards``/``about_player`` go into the Decision (see its docstring).
    ``from_hand``: the pool is picked out of the player's hidden hand (its Coppers, its
    Actions), so the others are told the bounds clipped by the hand's size only
    (`Decision.shown`)."""
    pool = tuple(sorted(pool))
    n = len(pool)
    shown: tuple = ()
    if from_hand:
        size = len(w.players[player].hand)
        shown_hi = min(hi, size)
        shown = (min(lo, shown_hi), shown_hi)
    hi = min(hi, n)
    lo = min(lo, hi)
    if not w.config.always_ask and select_is_forced(pool, lo, hi, purpose):
        cont(w, pool[:lo], *args)
    else:
        _ask(w, Decision(player, SELECT, prompt, card, purpose, cards=pool, min=lo, max=hi,
                         about_cards=tuple(about_cards), about_player=about_player,
                         shown=() if shown == (lo, hi) else shown),
             cont, args)


def ask_choose(w: Work, player: int, prompt: str, card, purpose: str, options, lo: int, hi: int,
               cont, *args, about_cards=(), about_player=None) -> None:
    """Ask ``player`` to choose ``lo``..``hi`` distinct options (strings, in the given order);
    then ``cont(w, chosen_tuple, *args)``, the chosen options in the order of ``options``. A
    forced answer (nothing to choose, or every option) is not asked unless the game asks every
    question."""
    options = tuple(options)
    hi = min(hi, len(options))
    lo = min(lo, hi)
    if not w.config.always_ask and (hi == 0 or lo == len(options)):
        cont(w, options[:lo], *args)
    else:
        _ask(w, Decision(player, CHOOSE, prompt, card, purpose, options=options, min=lo, max=hi,
                         about_cards=tuple(about_cards), about_player=about_player),
             cont, args)


def ask_yes_no(w: Work, player: int, prompt: str, card, purpose: str, cont, *args,
               about_cards=(), about_player=None) -> None:
    """A CHOOSE between "yes" and "no"; ``cont(w, True|False, *args)``."""
    _ask(w, Decision(player, CHOOSE, prompt, card, purpose, options=("yes", "no"), min=1, max=1,
                     about_cards=tuple(about_cards), about_player=about_player),
         _yes_no_answer, (FRAME_NAMES[cont], args))


@continuation
def _yes_no_answer(w: Work, answer: tuple, cont_name: str, args: tuple) -> None:
    CONTINUATIONS[cont_name](w, answer[0] == "yes", *args)


def ask_may(w: Work, player: int, can: bool, prompt: str, card, purpose: str, cont, *args,
            about_cards=()) -> None:
    """A "you may" question that only makes sense when ``can`` (Baron with an Estate in hand):
    asked as yes/no when it can be done; otherwise ``cont(w, False, *args)`` at once, or, when
    the game asks every question, asked with "no" as its only option, so that the question's
    presence tells the others nothing about the hand."""
    if can:
        ask_yes_no(w, player, prompt, card, purpose, cont, *args, about_cards=about_cards)
    elif w.config.always_ask:
        _ask(w, Decision(player, CHOOSE, prompt, card, purpose, options=("no",), min=1, max=1,
                         about_cards=tuple(about_cards)),
             _yes_no_answer, (FRAME_NAMES[cont], args))
    else:
        cont(w, False, *args)


def ask_order(w: Work, player: int, prompt: str, card, cards, cont, *args,
              about_cards=(), about_player=None) -> None:
    """Ask ``player`` to order ``cards``; ``cont(w, ordered, *args)``, first = to end on top.
    Not asked when every order is the same (unless the game asks every question)."""
    cards = tuple(sorted(cards))
    if len(set(cards)) <= 1 and not w.config.always_ask:
        cont(w, cards, *args)
    else:
        _ask(w, Decision(player, ORDER, prompt, card, "order", cards=cards,
                         min=len(cards), max=len(cards),
                         about_cards=tuple(about_cards), about_player=about_player),
             cont, args)


# ---------------------------------------------------------------------------------------------
# Costs, counting, seats
# ---------------------------------------------------------------------------------------------

def card_cost(name: str, reduction: int) -> int:
    """The cost rule, the one place costs are computed: Bridge lowers every cost this turn,
    cumulatively, never below 0 (rulebook, Bridge)."""
    c = _CARDS[name].cost - reduction
    return c if c > 0 else 0


def cost(w: Work | State, name: str) -> int:
    """A card's cost now. Works on a `Work` or a `State`."""
    return card_cost(name, w.effects.cost_reduction)


@lru_cache(maxsize=None)
def pile_costs(pile_names: tuple, reduction: int) -> tuple:
    """Every Supply pile's cost now, by pile index (memoized `card_cost`: the Buy phase asks
    this at every decision)."""
    return tuple(card_cost(name, reduction) for name in pile_names)


@lru_cache(maxsize=None)
def buy_moves(pile_names: tuple) -> tuple:
    """The Move buying each pile, by pile index (memoized: moves are immutable values)."""
    return tuple(Move(BUY_VERB, name) for name in pile_names)


def _new_table(_owner: Any) -> dict:
    return {}


# Per game (its pile names): (cost reduction, coins) -> (`affordable_buys`, `affordable_moves`).
_AFFORDABLE: Final = Memo(64)


def _affordable(pile_names: tuple, reduction: int, coins: int) -> tuple:
    table = _AFFORDABLE.of(pile_names, _new_table)
    key = (reduction, coins)
    found = table.get(key)
    if found is None:
        buys = tuple((i, m) for i, (m, c) in enumerate(zip(buy_moves(pile_names),
                                                           pile_costs(pile_names, reduction)))
                     if c <= coins)
        found = table[key] = (buys, tuple(m for _, m in buys))
    return found


def affordable_buys(pile_names: tuple, reduction: int, coins: int) -> tuple:
    """(pile index, Move buying it) for every pile costing at most ``coins`` now, by pile
    index (memoized: the Buy phase asks this at every decision; emptiness is checked after)."""
    return _affordable(pile_names, reduction, coins)[0]


def affordable_moves(pile_names: tuple, reduction: int, coins: int) -> tuple:
    """The Moves of `affordable_buys` alone, for when no pile is empty (memoized)."""
    return _affordable(pile_names, reduction, coins)[1]


@lru_cache(maxsize=None)
def play_move(name: str) -> Move:
    """The Move playing ``name`` (memoized)."""
    return Move(PLAY, name)


def _pile_index(pile_names: tuple) -> dict:
    return {name: i for i, name in enumerate(pile_names)}


_PILE_INDEX: Final = Memo(64)


def pile_index(pile_names: tuple) -> dict:
    """Supply pile name -> index into ``supply`` (memoized: a pure function of the names)."""
    index: dict = _PILE_INDEX.of(pile_names, _pile_index)
    return index


def take_from_pile(w: Work, i: int) -> None:
    """One card fewer in Supply pile ``i``. The Supply stays a tuple in a `Work`: it changes
    at most a few times in a step, while copying it to a list and back would cost at every
    step."""
    supply = list(w.supply)
    supply[i] -= 1
    w.supply = tuple(supply)


def supply_count(w, name: str) -> int:
    """Cards left in the named Supply pile (0 for a card that has no pile in this game)."""
    i = pile_index(w.pile_names).get(name)
    return 0 if i is None else w.supply[i]


def empty_piles(w: Work | State) -> int:
    """How many Supply piles are empty. A loop over typed counts: compiled, it compares machine
    integers, where ``supply.count(0)`` calls Python's comparison for every pile (the Buy phase
    asks at every turn)."""
    supply: tuple[int, ...] = w.supply
    empty = 0
    for left in supply:
        if left == 0:
            empty += 1
    return empty


def others(w, player: int) -> list[int]:
    """The other seats in turn order, starting at ``player``'s left."""
    n = len(w.players)
    return [(player + i) % n for i in range(1, n)]


def owner_changed(w: Work, player: int) -> None:
    """``player`` gained or lost a card (gain, trash, pass): their VP is counted again when the
    step ends."""
    if w.owners_changed is None:
        w.owners_changed = {player}
    else:
        w.owners_changed.add(player)


def vp_change(w: Work, player: int, name: str, sign: int) -> None:
    """``player`` gained (``sign`` 1) or lost (-1) the card ``name``: their VP changes by the
    card's VP, or, in a game with a card whose VP depends on the others (Gardens, Duke), is
    counted again when the step ends (`owner_changed`); so is a card whose VP depends on the
    others in a position whose Kingdom has no pile of it."""
    if variable_vp_in(w.pile_names):
        owner_changed(w, player)
        return
    vp = _vp_marks().get(name)
    if vp == _VARIABLE_VP:
        owner_changed(w, player)
    elif vp:
        scores = list(w.vp)
        scores[player] += sign * vp
        w.vp = tuple(scores)


def _variable_vp_in(pile_names: tuple) -> bool:
    variable = _vp_tables()[1]
    return any(name in variable for name in pile_names)


_VARIABLE_VP_IN: Final = Memo(64)


def variable_vp_in(pile_names: tuple) -> bool:
    """Whether any Supply pile's card scores by the owner's other cards (memoized per game)."""
    variable: bool = _VARIABLE_VP_IN.of(pile_names, _variable_vp_in)
    return variable


def player_score(cards) -> int:
    """Victory points of one player's cards (rulebook: all cards, every zone). Counted card by
    card, and by kind only when a card's VP depends on the others (Gardens, Duke)."""
    return _zones_score((cards,))


def zones_score(p) -> int:
    """`player_score` of a player's zones (a `PlayerState` or `PlayerWork`), not joined first."""
    return _zones_score((p.hand, p.deck, p.discard, p.in_play, p.aside, p.looking))


def _zones_score(zones: tuple) -> int:
    marks = _vp_marks()
    total = 0
    for zone in zones:
        for name in zone:
            vp = marks.get(name)
            if vp is not None:
                if vp == _VARIABLE_VP:
                    return _score_by_kind(tuple(c for z in zones for c in z))
                total += vp
    return total


def _score_by_kind(cards: tuple) -> int:
    return score_counts(Counter(cards))


# In the counts `views.known_vp` makes for a viewer: a card whose name the viewer does not know
# (one passed face down to the seat, as the giver's card that left it): it counts toward how many
# cards the seat has (Gardens), and scores nothing itself.
UNSEEN_CARD = "?"


def score_counts(counts: Counter) -> int:
    """Victory points of the cards counted in ``counts`` (name -> how many; `UNSEEN_CARD`
    counts as a card and scores nothing)."""
    fixed = _vp_tables()[0]
    total = 0
    for name, k in counts.items():
        if name == UNSEEN_CARD:
            continue
        c = CARDS[name]
        if c.victory_points is not None:
            total += k * c.victory_points(counts)
        else:
            total += k * fixed[name]
    return total


def score_by_card(cards) -> tuple:
    """``(name, count, vp)`` for each kind of card among one player's ``cards`` (all their
    cards), by name: what an end screen shows. The VP sum to `player_score` of the cards."""
    counts = Counter(cards)
    fixed = _vp_tables()[0]
    out = []
    for name in sorted(counts):
        c = card(name)   # an unknown name: UnknownCardError, not a bare KeyError
        each = c.victory_points(counts) if c.victory_points is not None else fixed.get(name, 0)
        out.append((name, counts[name], counts[name] * each))
    return tuple(out)


_VARIABLE_VP: Final = -(1 << 40)   # in `_vp_marks`: the card's VP depends on the others


# The tables made from the card registry (filled when ``dominion.cards`` is imported), each made
# once, when first asked for.
_VP_MARKS: Final = Memo(1)
_VP_TABLES: Final = Memo(1)
_TREASURE_TABLE: Final = Memo(1)


def _vp_marks() -> dict[str, int]:
    """Card name -> its fixed VP, for the cards that have some, or `_VARIABLE_VP` (made once,
    like `_vp_tables`): most cards score nothing and are not looked at twice."""
    marks: dict[str, int] = _VP_MARKS.of(_CARDS, _make_vp_marks)
    return marks


def _make_vp_marks(_cards: Any) -> dict[str, int]:
    fixed, variable = _vp_tables()
    marks = {name: vp for name, vp in fixed.items() if vp}
    marks.update((name, _VARIABLE_VP) for name in variable)
    return marks


def _vp_tables() -> tuple[dict[str, int], frozenset]:
    """(card name -> fixed VP, names whose VP depends on the owner's cards)."""
    tables: tuple[dict[str, int], frozenset] = _VP_TABLES.of(_CARDS, _make_vp_tables)
    return tables


def _make_vp_tables(cards: Any) -> tuple[dict[str, int], frozenset]:
    return ({name: c.vp for name, c in cards.items()},
            frozenset(name for name, c in cards.items() if c.victory_points is not None))


def all_cards(ps) -> tuple:
    """Every card a player has, in every zone (rulebook: scoring counts all of them)."""
    return ps.hand + ps.deck + ps.discard + ps.in_play + ps.aside + ps.looking


def remove(zone: tuple, cards) -> tuple:
    """``zone`` without one copy of each of ``cards``; they must all be there. The topmost
    (last) copy goes, so a pile's other cards keep their order (Vassal playing the top card of
    the discard pile leaves the card below it on top)."""
    z = list(zone)
    for c in cards:
        i = len(z) - 1
        while z[i] != c:
            i -= 1
            if i < 0:
                raise ValueError(f"{c!r} is not in {zone!r}")
        del z[i]
    return tuple(z)


def log(w: Work, kind: str, player: int, cards: tuple = (), seen_by=None, detail=None) -> None:
    """Add an event to the game log; ``seen_by`` None means public."""
    w.events.append(_new_tuple(_Event, (kind, player, cards, seen_by, detail)))


# ---------------------------------------------------------------------------------------------
# Moving cards
# ---------------------------------------------------------------------------------------------

def shuffle_discard(w: Work, player: int) -> None:
    """Shuffle the discard pile into a new deck. Only called when the deck is empty (rulebook:
    shuffle only when you need to draw or reveal and your deck is empty)."""
    pl = w.players[player]
    w.rng, pl.deck = rng.shuffled(w.rng, pl.discard)
    pl.discard = ()
    log(w, "shuffle", player)


def take_from_deck(w: Work, player: int, n: int) -> tuple:
    """Remove up to ``n`` cards from the top of the deck, shuffling when it runs out, and return
    them top card first. The caller puts them somewhere; cards already taken are not in the
    discard pile, so they are never shuffled back in (rulebook: revealed or set-aside cards)."""
    pl = w.players[player]
    got: tuple = ()
    while n > 0:
        if not pl.deck:
            if not pl.discard:
                break
            shuffle_discard(w, player)
        deck = pl.deck
        k = n if n < len(deck) else len(deck)
        got += deck[:-k - 1:-1]
        pl.deck = deck[:-k]
        n -= k
    return got


def draw(w: Work, player: int, n: int) -> tuple:
    """Draw ``n`` cards (fewer if deck and discard run out); returns the cards drawn."""
    got = take_from_deck(w, player, n)
    if got:
        w.players[player].hand += got
        log(w, "draw", player, got, (player,))
    return got


def reveal_from_deck(w: Work, player: int, n: int) -> tuple:
    """Reveal the top ``n`` cards: they move to the player's public set-aside area (``aside``)
    and are returned top first; the caller moves them on."""
    got = take_from_deck(w, player, n)
    if got:
        w.players[player].aside += got
        log(w, "reveal", player, got)
    return got


def look_at_deck(w: Work, player: int, n: int) -> tuple:
    """Take the top ``n`` cards for ``player`` alone to look at (``looking``, private)."""
    got = take_from_deck(w, player, n)
    if got:
        w.players[player].looking += got
        log(w, "look", player, got, (player,))
    return got


_ZONES = {"hand", "deck", "discard", "in_play", "aside", "looking"}


def move(w: Work, player: int, cards: tuple, src: str, dst: str, event: str | None = None,
         seen_by=None, detail=None) -> None:
    """Move cards between two of a player's zones. Onto the deck, the first card ends on top.
    Logs ``event`` (if given) with the given visibility."""
    if not cards:
        return
    pl = w.players[player]
    setattr(pl, src, remove(getattr(pl, src), cards))
    if dst == "deck":
        pl.deck += tuple(reversed(cards))
    else:
        setattr(pl, dst, getattr(pl, dst) + tuple(cards))
    if event:
        log(w, event, player, tuple(cards), seen_by, detail)


def discard(w: Work, player: int, cards: tuple, src: str = "hand") -> None:
    """Discard cards. Rulebook ("Discard"): discarding several cards at once you need not reveal
    them all, just the one you put on top; so from a hidden zone (hand, deck, looking) others
    see the cards only when one is discarded, else how many. Cards already revealed (set aside,
    in play) stay public."""
    public = len(cards) == 1 or src in ("aside", "in_play")
    move(w, player, cards, src, "discard", "discard", None if public else (player,))


def topdeck(w: Work, player: int, cards: tuple, src: str = "hand", public: bool = False) -> None:
    """Put cards onto the deck, the first on top; private unless revealed."""
    move(w, player, cards, src, "deck", "topdeck", None if public else (player,))


def to_hand(w: Work, player: int, cards: tuple, src: str) -> None:
    """Put cards from another zone into the hand."""
    move(w, player, cards, src, "hand", "to_hand", None if src == "aside" else (player,))


def trash(w: Work, player: int, cards: tuple, src: str = "hand") -> None:
    """Trash cards from one of the player's zones (public)."""
    if not cards:
        return
    pl = w.players[player]
    setattr(pl, src, remove(getattr(pl, src), cards))
    w.trash += tuple(cards)
    for name in cards:
        vp_change(w, player, name, -1)
    log(w, "trash", player, tuple(cards))


def still_in_play(w, player: int, name: str, uid: int) -> bool:
    """Whether the played card ``uid`` has not left play this turn (a card may trash itself
    only once, even when Throne Room plays it twice)."""
    return uid not in w.effects.left_play and name in w.players[player].in_play


def trash_self(w: Work, player: int, name: str, uid: int) -> bool:
    """Trash the card ``uid`` from play if it is still there (Feast, Mining Village): under
    Throne Room the second play finds it gone and does not trash another copy."""
    if not still_in_play(w, player, name, uid):
        return False
    set_effect(w, "left_play", w.effects.left_play + (uid,))
    trash(w, player, (name,), "in_play")
    return True


def gain(w: Work, player: int, name: str, to: str = "discard", event: str = "gain") -> bool:
    """Gain a card from the Supply to ``to`` ("discard", "hand" or "deck"). Returns False and
    does nothing when the pile is empty or not in this game. Logged as ``event``: a bought
    card's gain is the one "buy" event ("Ann buys and gains a Gold.")."""
    i = pile_index(w.pile_names).get(name)
    if i is None or w.supply[i] == 0:
        return False
    take_from_pile(w, i)
    pl = w.players[player]
    setattr(pl, to, getattr(pl, to) + (name,))
    vp_change(w, player, name, 1)
    log(w, event, player, (name,), None, to)
    return True


def pass_card(w: Work, giver: int, receiver: int, name: str) -> None:
    """``giver``'s card ``name``, already taken from its hand, goes into ``receiver``'s hand
    face down (Masquerade; rulebook, 1st ed.: a passed card is not revealed to the other
    players): only the two of them see which card it was. A pass that can change a score is
    kept in ``hidden_passes``, so that the others' views count the card where they last saw it
    (`views.known_vp`)."""
    w.players[receiver].hand += (name,)
    owner_changed(w, giver)
    owner_changed(w, receiver)
    seen_by = (giver, receiver)
    if scores_by_pass(w.pile_names, name):
        w.hidden_passes += ((giver, receiver, name, seen_by),)
    log(w, "pass", giver, (name,), seen_by, receiver)


def scores_by_pass(pile_names: tuple, name: str) -> bool:
    """Whether passing ``name`` can change a score in this game: it has VP, or some card's VP
    depends on the owner's other cards (Gardens counts every card)."""
    return variable_vp_in(pile_names) or bool(_vp_marks().get(name))


def gain_from_trash(w: Work, player: int, name: str, to: str = "discard") -> None:
    """Gain a card from the trash (Lurker, Thief)."""
    w.trash = remove(w.trash, (name,))
    pl = w.players[player]
    setattr(pl, to, getattr(pl, to) + (name,))
    vp_change(w, player, name, 1)
    log(w, "gain", player, (name,), None, to)


def trash_from_supply(w: Work, player: int, name: str) -> bool:
    """``player`` trashes the top card of a Supply pile (Lurker). Returns False and does
    nothing when the pile is empty or not in this game. Public."""
    i = pile_index(w.pile_names).get(name)
    if i is None or w.supply[i] == 0:
        return False
    take_from_pile(w, i)
    w.trash += (name,)
    log(w, "trash", player, (name,), None, FROM_SUPPLY)
    return True


def insert_into_deck(w: Work, player: int, name: str, above: int, src: str = "hand") -> None:
    """Put a card into the deck with ``above`` cards on top of it (0: on top; the deck's
    size: at the bottom) (Secret Passage). Which card, and where, only the player knows."""
    pl = w.players[player]
    setattr(pl, src, remove(getattr(pl, src), (name,)))
    deck = pl.deck
    at = len(deck) - above
    pl.deck = deck[:at] + (name,) + deck[at:]
    log(w, "insert", player, (name,), (player,), above)


def gainable(w, max_cost: int, pred=None, exact: bool = False) -> tuple:
    """Supply piles with cards left costing up to ``max_cost`` (exactly, if ``exact``)."""
    out = []
    for name, n in zip(w.pile_names, w.supply):
        if n:
            c = cost(w, name)
            if (c == max_cost if exact else c <= max_cost) and (pred is None or pred(CARDS[name])):
                out.append(name)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Playing cards
# ---------------------------------------------------------------------------------------------

def play(w: Work, player: int, name: str, src: str = "hand") -> int:
    """Play a card: move it from ``src`` into play and resolve it. Returns its instance id.
    Does not spend an Action (the caller does, when the rules say so)."""
    pl = w.players[player]
    setattr(pl, src, remove(getattr(pl, src), (name,)))
    pl.in_play += (name,)
    uid = w.next_uid
    w.next_uid = uid + 1
    resolve_play(w, player, name, uid)
    return uid


def resolve_play(w: Work, player: int, name: str, uid: int, again: bool = False) -> None:
    """Resolve a played card (again, for Throne Room: the card does not move). An Attack first
    lets each other player, in turn order, reveal Reactions (rulebook: when another player plays
    an Attack, before it does anything)."""
    c = _CARDS[name]
    log(w, "play", player, (name,), None, "again" if again else None)
    if c.is_treasure:
        w.coins += treasure_value(w, name)
    if c.is_action:
        set_effect(w, "actions_played", w.effects.actions_played + 1)
        if c.is_attack:
            set_effect(w, "immune", ())
            push(w, _apply_action, player, name, uid)
            for victim in reversed(others(w, player)):
                push(w, reaction_window, victim, player, name)
        else:
            _apply_action(w, player, name, uid)


def play_all_treasures(w: Work, player: int) -> None:
    """Play every Treasure in hand, in hand order: the same as playing them one at a time
    (Treasures in scope have no text beyond their value, so the order cannot matter), logged
    as one event."""
    pl = w.players[player]
    hand = pl.hand
    names = _treasure_table()
    treasures = tuple([c for c in hand if c in names])  # this runs once in nearly every turn
    if not treasures:
        return
    pl.hand = tuple([c for c in hand if c not in names])
    pl.in_play += treasures
    w.next_uid += len(treasures)
    log(w, "play", player, treasures)
    w.coins += treasures_value(w, treasures)


def _treasure_table() -> dict[str, int]:
    """Treasure name -> its printed value, made once from the card registry."""
    table: dict[str, int] = _TREASURE_TABLE.of(_CARDS, _make_treasure_table)
    return table


def _make_treasure_table(cards: Any) -> dict[str, int]:
    return {name: c.coins for name, c in cards.items() if c.is_treasure}


def treasure_value(w: Work, name: str) -> int:
    """Coins a Treasure makes when played now (see `treasures_value`)."""
    return treasures_value(w, (name,))


def treasures_value(w: Work, names: tuple) -> int:
    """Coins the Treasures ``names`` make when played now, one after the other: their printed
    value, and what the cards with a mark this turn add (`Card.treasure_bonus`: Coppersmith,
    Merchant), which may change their marks."""
    table = _treasure_table()
    value = 0
    for name in names:
        value += table[name]
    marks = w.effects.marks
    if marks:
        new = []
        for card_name, mark in marks:
            bonus = _CARDS[card_name].treasure_bonus
            if bonus is not None:
                extra, mark = bonus(names, mark)
                value += extra
            new.append((card_name, mark))
        set_effect(w, "marks", tuple(new))
    return value


_EFFECT_AT: Final = {name: i for i, name in enumerate(TurnEffects._fields)}


def set_effect(w: Work, name: str, value) -> None:
    """Set one field of this turn's effects (`TurnEffects`), e.g. ``set_effect(w,
    "cost_reduction", 2)``. Built from the record's fields directly: a NamedTuple's
    ``_replace`` runs as Python and cost 6% of a compiled simulation (measured), as the Buy
    phase sets ``bought`` every turn."""
    fields = list(w.effects)
    fields[_EFFECT_AT[name]] = value
    w.effects = _new_tuple(_TurnEffects, fields)


def turn_mark(w, name: str, default=None):
    """The value card ``name`` marked this turn (`TurnEffects.marks`), or ``default``."""
    for card_name, mark in w.effects.marks:
        if card_name == name:
            return mark
    return default


def set_turn_mark(w: Work, name: str, value) -> None:
    """Mark this turn with ``value`` for card ``name`` (its turn-long effect); gone at the
    turn's end (`reset_turn`)."""
    marks = tuple(sorted([m for m in w.effects.marks if m[0] != name] + [(name, value)]))
    set_effect(w, "marks", marks)


@continuation
def _apply_action(w: Work, player: int, name: str, uid: int) -> None:
    c = _CARDS[name]
    if c.plus_cards:
        draw(w, player, c.plus_cards)
    if c.plus_actions:
        w.actions += c.plus_actions
    if c.plus_buys:
        w.buys += c.plus_buys
    if c.plus_coins:
        w.coins += c.plus_coins
    if c.effect is not None:
        c.effect(w, player, uid)


@continuation
def replay(w: Work, player: int, name: str, uid: int) -> None:
    """Play a card that is already in play once more (Throne Room's second play)."""
    resolve_play(w, player, name, uid, again=True)


def attacked(w, attacker: int) -> list[int]:
    """The other players an Attack affects, in turn order: those who revealed no Moat."""
    immune = w.effects.immune
    return [v for v in others(w, attacker) if v not in immune]


def each_attacked(w: Work, attacker: int, fn, *args) -> None:
    """Run ``fn(w, victim, *args)`` for each affected player in turn order, each one finishing
    (questions included) before the next starts."""
    for victim in reversed(attacked(w, attacker)):
        push(w, fn, victim, *args)


def reactions_available(w, player: int) -> tuple:
    """Reaction cards ``player`` may reveal now (Moat not again once it protects them)."""
    hand = w.players[player].hand
    out = []
    for name in sorted(set(hand)):
        c = _CARDS[name]
        if not c.is_reaction or c.reaction is None:
            continue
        if c.can_react is not None and not c.can_react(w, player):
            continue
        out.append(name)
    return tuple(out)


def reaction_prompt(attacker: str, attack: str, pool: tuple) -> str:
    """The question as a player would put it: "Reveal Moat against Bob's Militia?", "Bob
    played Militia: reveal Diplomat or Moat?"."""
    if len(pool) == 1:
        return f"Reveal {pool[0]} against {attacker}'s {attack}?"
    if not pool:
        return f"{attacker} played {attack}: you have no Reaction to reveal"
    return f"{attacker} played {attack}: reveal {' or '.join(pool)}?"


@continuation
def reaction_window(w: Work, victim: int, attacker: int, attack: str) -> None:
    """Offer ``victim`` to reveal one Reaction; after it resolves, offer again (rulebook:
    Reactions are revealed one at a time, each resolved before the next, also ones that came
    into hand through an earlier Reaction). When the game asks every question, every attacked
    player is asked, also one holding no Reaction."""
    pool = reactions_available(w, victim)
    if pool or w.config.always_ask:
        ask_select(w, victim, reaction_prompt(w.config.players[attacker], attack, pool), attack,
                   "react", pool, 0, 1, _reaction_answer, victim, attacker, attack,
                   about_player=attacker, from_hand=True)


@continuation
def _reaction_answer(w: Work, chosen: tuple, victim: int, attacker: int, attack: str) -> None:
    if not chosen:
        return
    name = chosen[0]
    log(w, "reveal", victim, (name,), None, "reaction")
    push(w, reaction_window, victim, attacker, attack)
    react = CARDS[name].reaction
    assert react is not None  # `reactions_available` offers only cards with a reaction
    react(w, victim, attacker)


# ---------------------------------------------------------------------------------------------
# The turn
# ---------------------------------------------------------------------------------------------

def start_turn(w: Work) -> None:
    p = w.current
    w.phase = ACTION
    reset_turn(w, 1)
    w.turn += 1
    taken = list(w.turns_taken)
    taken[p] += 1
    w.turns_taken = tuple(taken)
    log(w, "turn", p, (), None, taken[p])  # the player's own turn number, as people count
    action_phase(w)  # called, not pushed: it is the last thing a turn's start does


def reset_turn(w: Work, actions_and_buys: int) -> None:
    """The one place a turn's counters and effects start afresh: at the turn's start (1 Action,
    1 Buy) and at its Clean-up (0 of each)."""
    w.actions = w.buys = actions_and_buys
    w.coins = 0
    w.effects = _NO_EFFECTS


ACTION_PROMPT: Final = "Action phase: play an Action or end the phase"
BUY_PROMPT: Final = "Buy phase: play Treasures, buy a card, or end your turn"


# The two below are memoized by the hand as it is (a tuple hashes without building anything,
# where a frozenset of its names cost as much as the lookup itself); a hand's order does not
# change its moves, so its orderings share a value, and few hands recur a lot.
_ACTION_MOVES: Final = Memo(4096)
_TREASURE_MOVES: Final = Memo(4096)


def action_moves(hand: tuple) -> tuple:
    """The Action phase's moves for ``hand``: play each Action kind, sorted, or end the phase;
    () when there is no Action (asked at every turn)."""
    moves = _ACTION_MOVES.values.get(hand)
    if moves is None:
        actions = sorted(c for c in set(hand) if CARDS[c].is_action)
        moves = _ACTION_MOVES.keep(hand, tuple(play_move(c) for c in actions) + (END_THE_PHASE,)
                                   if actions else ())
    return moves


def treasure_moves(hand: tuple) -> tuple:
    """The Buy phase's moves playing Treasures from ``hand``: all of them, then each kind,
    sorted; () when there is none."""
    moves = _TREASURE_MOVES.values.get(hand)
    if moves is None:
        treasures = sorted(c for c in set(hand) if CARDS[c].is_treasure)
        moves = _TREASURE_MOVES.keep(hand, (PLAY_ALL_TREASURES,) +
                                     tuple(play_move(c) for c in treasures) if treasures else ())
    return moves


# The turn's standing decisions, kept by seat, phase and the identity of their moves' parts
# (tuples the memos above own, or fresh ones that are then kept here): a decision repeats
# whenever a seat holds the same hand or coins again, and building one took about 1,300
# instructions (compiled, callgrind).
_TURN_DECISIONS: Final = Memo(4096)


def turn_decision(player: int, purpose: str, plays: tuple, buys: tuple) -> Decision:
    """The turn's standing decision: in the Action phase ``plays`` are its moves (END_THE_PHASE
    among them) and ``buys`` is empty; in the Buy phase its moves are ``plays``, ``buys`` and
    END_THE_PHASE."""
    key = id(plays) ^ id(buys) ^ player   # one int: hashed and compared at once
    entry: Optional[tuple[tuple, tuple, Decision]] = _TURN_DECISIONS.values.get(key)
    if entry is not None and entry[0] is plays and entry[1] is buys:
        decision = entry[2]
        if decision.player == player and decision.purpose == purpose:
            return decision
    if purpose == "action_phase":
        prompt, moves = ACTION_PROMPT, plays
    else:
        prompt, moves = BUY_PROMPT, plays + buys + (END_THE_PHASE,)
    decision = _new_tuple(_Decision, (player, TURN, prompt, None, purpose, (), (), moves, 1, 1,
                                      (), None, ()))
    _TURN_DECISIONS.keep(key, (plays, buys, decision))
    return decision


def action_phase(w: Work) -> None:
    """The Action phase's standing decision; skipped when no Action can be played (unless the
    game asks every question: then only the number of Actions left, which is public, skips it)."""
    p = w.current
    if w.actions > 0:
        moves = action_moves(w.players[p].hand)
        if not moves and w.config.always_ask:
            moves = (END_THE_PHASE,)
        if moves:
            _ask(w, turn_decision(p, "action_phase", moves, ()), turn_answer, ())
            return
    w.phase = BUY
    buy_phase(w)


def buy_phase(w: Work) -> None:
    """The Buy phase's standing decision: play Treasures (until the first buy), buy, or end.
    Skipped when there is nothing to do but end, unless the game asks every question."""
    p = w.current
    plays = () if w.effects.bought else treasure_moves(w.players[p].hand)
    buys: tuple = ()
    if w.buys > 0:
        supply = w.supply
        if empty_piles(w):  # some pile is empty: leave it out
            buys = tuple([m for i, m in affordable_buys(w.pile_names, w.effects.cost_reduction,
                                                        w.coins) if supply[i]])
        else:
            buys = affordable_moves(w.pile_names, w.effects.cost_reduction, w.coins)
    if not plays and not buys and not w.config.always_ask:
        cleanup(w)
        return
    _ask(w, turn_decision(p, "buy_phase", plays, buys), turn_answer, ())


def turn_answer(w: Work, move: Move) -> None:
    p = w.current
    verb, card = move
    card = card or ""   # every Move that names no card ends the phase or plays all Treasures
    if verb == END_PHASE:
        if w.phase == ACTION:
            w.phase = BUY
            buy_phase(w)
        else:
            cleanup(w)
    elif verb == PLAY:
        if w.phase == ACTION:
            w.actions -= 1
            push(w, action_phase)
        else:
            push(w, buy_phase)
        play(w, p, card)
    elif verb == PLAY_TREASURES:
        play_all_treasures(w, p)
        buy_phase(w)  # called, not pushed: playing Treasures leaves no work behind
    else:  # BUY
        w.buys -= 1
        w.coins -= cost(w, card)
        effects = w.effects
        if effects is _NO_EFFECTS:   # most turns' first buy: the one value it becomes
            w.effects = _BOUGHT_ONLY
        elif not effects.bought:
            set_effect(w, "bought", True)
        gain(w, p, card, event="buy")
        push(w, buy_phase)


# The turn's phases are registered as continuations here rather than by the decorator: a
# decorated function is called through Python even from compiled code, and these also call
# each other directly at every turn.
for _phase in (start_turn, action_phase, buy_phase, turn_answer):
    continuation(_phase)


def game_ends(w: Work | State) -> bool:
    """The game ends at the end of a turn when the Provinces are gone, or three Supply piles are
    empty (four with 5 or 6 players; rulebook, 5-6 player rules)."""
    if w.supply[PROVINCE_PILE] == 0:
        return True
    return empty_piles(w) >= (4 if len(w.players) >= 5 else 3)


def deadlocked(w) -> bool:
    """Whether no Supply pile can ever lose another card, so that the game can never reach its
    end (Provinces gone, or 3 or 4 empty piles). No rule covers such a game; its turns would
    pass forever, so it ends at that Clean-up and is scored as it stands.

    Sound, not exhaustive: it holds only when nobody owns a card whose text can gain from or
    trash from the Supply (`Card.changes_supply`), and the most $ that all the players' cards
    together could make in one turn (each Action played twice if a Throne Room is owned) is
    below the cheapest card left in the Supply. Cards pass between players (Masquerade,
    Thief), so every player's cards are counted together. A card with no known bound on its $
    (`Card.coins_up_to` None: Bridge, Coppersmith, Secret Chamber) keeps the game going."""
    if w.supply[0]:  # a Copper is left ($0, the first pile): anyone can buy it (most games)
        return False
    cheapest = None
    for c, n in zip(pile_costs(w.pile_names, 0), w.supply):
        if n and (cheapest is None or c < cheapest):
            if c == 0:
                return False  # a $0 card is left (a Curse): anyone can buy it
            cheapest = c
    if cheapest is None:
        return True  # nothing left at all: no pile can lose a card
    owned = [CARDS[c] for ps in w.players for c in all_cards(ps)]
    treasure_coins = action_coins = 0
    twice = False
    for c in owned:
        if c.changes_supply or c.coins_up_to is None:
            return False
        if c.is_action:
            action_coins += c.coins_up_to
            twice = twice or c.plays_twice
        else:
            treasure_coins += c.coins_up_to
    return treasure_coins + (2 if twice else 1) * action_coins < cheapest


def cleanup(w: Work) -> None:
    """Clean-up: discard hand and play (the hand underneath, so no hand card becomes the
    visible top of the discard pile), draw 5, then pass the turn or end the game."""
    p = w.current
    w.phase = CLEANUP
    pl = w.players[p]
    pl.discard += pl.hand + pl.in_play
    pl.hand = ()
    pl.in_play = ()
    log(w, "cleanup", p)
    draw(w, p, 5)
    reset_turn(w, 0)
    if game_ends(w) or deadlocked(w):
        w.phase = OVER
        log(w, "game_over", p)
        return
    w.current = (p + 1) % len(w.players)
    push(w, start_turn)


# ---------------------------------------------------------------------------------------------
# Checking answers
# ---------------------------------------------------------------------------------------------

_SHAPES = {
    TURN: "a Move, e.g. Move(\"buy\", \"Gold\")",
    SELECT: "a list or tuple of card names",
    CHOOSE: "a list or tuple of options, or one option as a string",
    ORDER: "a list or tuple of card names, the first to end on top",
}


def check_answer(d: Decision, answer):
    """Return the answer in its canonical form if it is legal for ``d``; raise otherwise.

    Only the documented shapes are accepted: a `Move` for TURN; a list or tuple of strings for
    SELECT and ORDER; a list or tuple of strings, or one string, for CHOOSE. Anything else (a
    dict, a set, a generator, bytes) is refused rather than guessed at: a set's order depends on
    the process's hash seed, and a dict's keys are not what its author meant. A SELECT answer
    keeps its order: where the chosen cards are discarded together, the last one ends on top
    (rulebook, Discard: you reveal only the one you put on top, and you choose it)."""
    kind = d.kind
    if kind == TURN:
        if type(answer) is not _Move or answer not in d.moves:
            shape = "" if type(answer) is Move else f" (a turn takes {_SHAPES[TURN]})"
            raise IllegalAnswerError(
                f"{_quote(answer)} is not a legal move now{shape}; legal moves: "
                f"{', '.join(str(m) for m in d.moves)}")
        return answer
    if kind == CHOOSE and type(answer) is str:
        answer = (answer,)
    if type(answer) not in (list, tuple) or not all(type(a) is str for a in answer):
        raise IllegalAnswerError(f"{_quote(answer)} is not {_SHAPES[kind]}; {describe_answer(d)}")
    answer = tuple(answer)
    if kind == SELECT:
        if not d.min <= len(answer) <= d.max:
            raise IllegalAnswerError(
                f"choose between {d.min} and {d.max} cards, not {len(answer)}; "
                f"{describe_answer(d)}")
        if Counter(answer) - Counter(d.cards):
            raise IllegalAnswerError(f"{_quote(list(answer))} is not part of the cards to "
                                     f"choose from; {describe_answer(d)}")
        return answer
    if kind == CHOOSE:
        if not d.min <= len(answer) <= d.max or len(set(answer)) != len(answer) or \
                not set(answer) <= set(d.options):
            raise IllegalAnswerError(f"{_quote(list(answer))} is not a legal choice; "
                                     f"{describe_answer(d)}")
        return tuple(o for o in d.options if o in answer)
    if kind == ORDER:
        if sorted(answer) != sorted(d.cards):
            raise IllegalAnswerError(f"{_quote(list(answer))} is not an order of these cards; "
                                     f"{describe_answer(d)}")
        return answer
    raise AssertionError(kind)


def _quote(value, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters: error messages quote input only so far."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def describe_answer(d: Decision) -> str:
    """A sentence saying what answers ``d`` takes."""
    if d.kind == TURN:
        return "legal moves: " + ", ".join(str(m) for m in d.moves)
    if d.kind == SELECT:
        return f"answer with {d.min} to {d.max} cards from {list(d.cards)}"
    if d.kind == CHOOSE:
        return f"answer with {d.min} to {d.max} different options from {list(d.options)}"
    return f"answer with an order (top first) of {list(d.cards)}"
