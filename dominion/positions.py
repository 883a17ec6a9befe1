"""Positions: a game built at any turn position (`position`), and a whole state laid open
(`inspect`), for rules tests, puzzles, tools and bots' tests. A player's program reads `view`
(``views.py``), never `inspect`.
"""
from __future__ import annotations

from typing import Any, NamedTuple, Optional

from .card import card
from .engine import Work, _quote, action_phase, buy_phase, push, run
from .errors import InvalidPositionError
from .game import (_blank_state, _player_names, check_seed, decision_number, make_config,
                   pending, pile_size, supply_order)
from .kingdoms import resolve_kingdom
from .state import (ACTION, BUY, NO_EFFECTS, Config, Decision, PlayerState, State,
                    TurnEffects)
from .views import _supply_listing



def position(kingdom, *, players=2, hands=None, decks=None, discards=None, in_play=None,
             aside=None, looking=None, supply=None, trash=(), current: Any = 0,
             phase: Any = ACTION, actions: Any = 1, buys: Any = 1, coins: Any = 0,
             turn: Any = 1, turns_taken=None, effects: Any = NO_EFFECTS, seed: Any = 0,
             always_ask: Any = False) -> State:
    """Build a game at any position, for rules tests, puzzles and bots, and run it to the
    position's first decision (the current player's Action or Buy phase).

    ``kingdom`` is as for `new_game`. ``hands``, ``decks``, ``discards``, ``in_play``,
    ``aside`` (set aside, public) and ``looking`` (cards only their owner is looking at) are
    one sequence of card names per seat (missing seats: empty). **Every pile lists its top
    card first**: decks and discard piles alike (the discard pile's first card is the one
    everybody sees); the other zones have no top and keep the given order. ``supply`` maps
    pile names to counts (other piles keep their setup size); ``trash`` is any sequence of
    card names. ``phase`` is ``"action"`` or ``"buy"``; ``actions``, ``buys`` and ``coins``
    are the current turn's, and so are its ``effects``, a `TurnEffects` (Actions played,
    Bridges played, whether a card was bought, the cards' own marks such as Merchant's).
    ``turns_taken`` gives each seat's turns started (ties go to fewer turns); by default seat 0
    is taken to have started the game and seats up to ``current`` are on their ``turn``-th
    turn. The seed drives later shuffles. The position is not a record: it cannot be replayed
    from its config, only continued. `inspect(state).position_args()` gives the arguments
    that rebuild a turn's position.
    """
    names = _player_names(players)
    n = len(names)
    check_seed(seed)
    kingdom = resolve_kingdom(kingdom, None, seed)
    pile_names = supply_order(kingdom)
    counts = [pile_size(name, n) for name in pile_names]
    for name, count in dict(supply or {}).items():
        card(name)
        if name not in pile_names:
            raise InvalidPositionError(f"{name} is not a Supply pile in this game")
        if type(count) is not int or count < 0:
            raise InvalidPositionError(f"Supply count for {name} must be >= 0, not {_quote(count)}")
        counts[pile_names.index(name)] = count

    def zone(lists, seat):
        cards = tuple((lists or [])[seat]) if lists and seat < len(lists) else ()
        for c in cards:
            card(c)
        return cards

    for label, lists in (("hands", hands), ("decks", decks), ("discards", discards),
                         ("in_play", in_play), ("aside", aside), ("looking", looking)):
        if lists is not None and len(lists) > n:
            raise InvalidPositionError(f"{label} has {len(lists)} entries for {n} players")
    if type(current) is not int or not 0 <= current < n:
        raise InvalidPositionError(f"current must be a seat from 0 to {n - 1}")
    if phase not in (ACTION, BUY):
        raise InvalidPositionError(f"phase must be {ACTION!r} or {BUY!r}, not {_quote(phase)}")
    counters: dict[str, Any] = dict(actions=actions, buys=buys, coins=coins)
    for label, value in counters.items():
        _check_count(label, value)
    if type(turn) is not int or turn < 1:
        raise InvalidPositionError(f"turn must be an integer >= 1, not {_quote(turn)}")
    _check_effects(effects, n)
    if turns_taken is None:
        # Seat 0 is taken to have started the game: seats up to the current one are on ``turn``.
        turns_taken = tuple(turn if s <= current else turn - 1 for s in range(n))
    else:
        turns_taken = tuple(turns_taken)
        if len(turns_taken) != n or any(type(t) is not int or t < 0 for t in turns_taken) or \
                turns_taken[current] < 1:
            raise InvalidPositionError(f"turns_taken must be {n} integers >= 0, the current "
                                       f"seat's >= 1, not {_quote(turns_taken)}")
    trash = tuple(trash)
    for c in trash:
        card(c)
    players_state = tuple(
        PlayerState(hand=zone(hands, s), deck=tuple(reversed(zone(decks, s))),
                    discard=tuple(reversed(zone(discards, s))), in_play=zone(in_play, s),
                    aside=zone(aside, s), looking=zone(looking, s)) for s in range(n))
    config = make_config(names, kingdom, None, seed, current, always_ask)
    state = _blank_state(config, pile_names, tuple(counts), players_state, current)
    # Cards played from here on get ids above every id this turn's effects name (cards that left
    # play: a new card with such an id would be taken to have left play too).
    next_uid = max((FIRST_POSITION_UID,) + tuple(uid + 1 for uid in effects.left_play))
    state = state._replace(phase=phase, turn=sum(turns_taken), turns_taken=turns_taken,
                           trash=trash, effects=effects, next_uid=next_uid, **counters)
    w = Work(state)
    push(w, action_phase if phase == ACTION else buy_phase)
    run(w)
    return w.freeze()


FIRST_POSITION_UID = 1000   # the first instance id of a card played in a position


def _mark_card(mark: tuple) -> str:
    return mark[0]


def _check_count(label: str, value) -> None:
    if type(value) is not int or value < 0:
        raise InvalidPositionError(f"{label} must be an integer >= 0, not {_quote(value)}")


def _check_effects(effects: Any, n: int) -> None:
    """Refuse ``effects`` unless it is a `TurnEffects` that a turn of ``n`` seats can have.
    Its fields are read as plain values (``given``): compiled, reading them as a TurnEffects'
    typed fields would fail with a bare TypeError before the check could say what is wrong."""
    if type(effects) is not TurnEffects:
        raise InvalidPositionError(f"effects must be a dominion.TurnEffects, not {_quote(effects)}")
    given: dict = {}
    for name, value in zip(TurnEffects._fields, tuple(effects)):
        given[name] = value
    _check_count("effects.actions_played", given["actions_played"])
    _check_count("effects.cost_reduction", given["cost_reduction"])
    bought, left_play, immune, marks = (given["bought"], given["left_play"], given["immune"],
                                        given["marks"])
    if type(bought) is not bool:
        raise InvalidPositionError(f"effects.bought must be True or False, not {_quote(bought)}")
    if type(left_play) is not tuple or any(type(uid) is not int for uid in left_play):
        raise InvalidPositionError(f"effects.left_play must be a tuple of instance ids, not "
                                   f"{_quote(left_play)}")
    if type(immune) is not tuple or any(type(s) is not int or not 0 <= s < n for s in immune):
        raise InvalidPositionError(f"effects.immune must be a tuple of seats, not "
                                   f"{_quote(immune)}")
    if type(marks) is not tuple or any(type(m) is not tuple or len(m) != 2 for m in marks):
        raise InvalidPositionError(f"effects.marks must be a tuple of (card name, value) pairs, "
                                   f"not {_quote(marks)}")
    for name, _ in marks:
        card(name)
    if list(marks) != sorted(marks, key=_mark_card) or len({m[0] for m in marks}) != len(marks):
        raise InvalidPositionError(f"effects.marks must name each card once, sorted by name, "
                                   f"not {_quote(marks)}")



# ---------------------------------------------------------------------------------------------
# Reading a whole state (tools and tests; not what a player may know: see `view`)
# ---------------------------------------------------------------------------------------------

class SeatZones(NamedTuple):
    """Every zone of one seat. Piles (``deck``, ``discard``) list their top card first, as
    `position` takes them; the other zones keep the order cards came there."""
    name: str
    hand: tuple
    deck: tuple
    discard: tuple
    in_play: tuple
    aside: tuple
    looking: tuple
    turns_taken: int


class Inspection(NamedTuple):
    """A whole game laid open: every card of every zone, deck orders included. For tools,
    tests and puzzles that may know everything; a player's program reads `view` instead."""
    config: Config
    seats: tuple             # SeatZones per seat
    supply: tuple            # (pile name, cards left, cost now) per pile, in Supply order
    trash: tuple
    current: int
    phase: str
    actions: int
    buys: int
    coins: int
    turn: int                # turns started in the whole game
    effects: TurnEffects     # what this turn's plays left behind
    decision: Optional[Decision]   # the pending decision, whoever must answer it
    decision_number: int

    def position_args(self) -> dict:
        """The keyword arguments of `position` that rebuild this game's zones and turn (its
        log, its record and any card half-resolved are not part of a position)."""
        if self.phase not in (ACTION, BUY):
            raise InvalidPositionError(f"a game in its {self.phase!r} phase is not a turn's "
                                       "position")
        seats = self.seats
        return dict(
            kingdom=self.config.kingdom, players=self.config.players,
            hands=[z.hand for z in seats], decks=[z.deck for z in seats],
            discards=[z.discard for z in seats], in_play=[z.in_play for z in seats],
            aside=[z.aside for z in seats], looking=[z.looking for z in seats],
            supply={name: count for name, count, _ in self.supply}, trash=self.trash,
            current=self.current, phase=self.phase, actions=self.actions, buys=self.buys,
            coins=self.coins, turns_taken=tuple(z.turns_taken for z in seats),
            effects=self.effects, always_ask=self.config.always_ask)


def inspect(state: State) -> Inspection:
    """Read a whole state through documented fields (the `State` itself is opaque): every
    zone in the order `position` takes, the Supply, the trash, this turn's counters and the
    pending decision. Read-only: it is a new value; the state is never changed."""
    seats = tuple(
        SeatZones(state.config.players[s], ps.hand, ps.deck[::-1], ps.discard[::-1],
                  ps.in_play, ps.aside, ps.looking, state.turns_taken[s])
        for s, ps in enumerate(state.players))
    return Inspection(
        state.config, seats, _supply_listing(state.pile_names, state.supply,
                                             state.effects.cost_reduction),
        state.trash, state.current, state.phase, state.actions, state.buys, state.coins,
        state.turn, state.effects, pending(state), decision_number(state))
