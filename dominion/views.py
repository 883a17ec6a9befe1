"""Views: what one seat, or a spectator, may know of a game (`view`), built at every decision,
and what a bot in the simulation loop reads of them (`Observation`; the loop itself is
`dominion.bots.playout.play_out`).
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, Final, NamedTuple, Optional

from ._native import tuple_maker
from .card import CARDS
from .engine import (_quote, all_cards, pile_costs, UNSEEN_CARD, score_counts, supply_count,
                     variable_vp_in)
from .errors import InvalidConfigError
from .game import score, winners
from .state import (PUBLIC_DETAIL, SELECT, Decision, Event, PublicDecision, State)
from .text import describe_waiting

_new_tuple: Final = tuple_maker()   # a NamedTuple from its fields (dominion/_native.py)


# ---------------------------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------------------------

class PlayerView(NamedTuple):
    """What a viewer may know about one seat. ``hand`` and ``looking`` are None for other
    seats; their sizes are always shown."""
    name: str
    hand: Optional[tuple]
    hand_size: int
    deck_size: int
    discard_size: int
    discard_top: Optional[str]
    in_play: tuple
    aside: tuple
    looking: Optional[tuple]
    looking_size: int
    turns_taken: int
    vp: int                  # victory points as the viewer can know them (`known_vp`)


class View(NamedTuple):
    """What one seat (or a spectator, ``player=None``) may know of a game."""
    player: Optional[int]
    kingdom: tuple
    supply: tuple            # (pile name, cards left, cost now) per pile
    trash: tuple
    players: tuple           # PlayerView per seat
    current: int
    phase: str
    turn: int
    actions: int
    buys: int
    coins: int
    decision: Optional[Decision]   # the pending decision, if it is this viewer's
    waiting_for: Optional[int]     # the seat the game waits for (None when over)
    log: tuple                     # events visible to the viewer, hidden cards removed
    log_start: int                 # index of the first event in ``log``
    game_over: bool
    scores: Optional[tuple]        # when the game is over
    winners: Optional[tuple]
    waiting: Optional[PublicDecision]  # the pending decision's public part, for every viewer


def visible_event(event: Event, viewer: Optional[int]) -> Event:
    """The event as ``viewer`` may see it: private cards become a count in ``detail`` (for a
    pass, which is always one card, ``detail`` stays the receiving seat). An event already
    redacted (no cards) comes back as it is."""
    if event.seen_by is None or (viewer is not None and viewer in event.seen_by) or \
            not event.cards:
        return event
    if event.kind in PUBLIC_DETAIL:  # who receives a pass is public; only the card is not
        return Event(event.kind, event.player, (), event.seen_by, event.detail)
    return Event(event.kind, event.player, (), event.seen_by, len(event.cards))



def view(state: State, player: Any = None, log_from: Any = None) -> View:
    """What ``player`` may know (``None``: a spectator): their own hand, every zone's size, the
    top of each discard pile, cards in play and set aside, the Supply, the trash and the log
    with other players' hidden cards removed. Never another hand or any deck's order.

    ``log_from``: the first log index to include; None (the default) includes no log, so that
    a view costs the same at turn 3 and at turn 300. A program that reads the log keeps the
    index it has read up to and asks only for what is new (the built-in bots keep
    ``bot.log_from``); ``log_from=0`` gives the whole log, at a cost that grows with the game.
    Bots call this at every decision, so it only builds what changed: the Supply listing is
    shared while the counts are unchanged."""
    if player is not None and (type(player) is not int or not 0 <= player < len(state.players)):
        raise InvalidConfigError(f"no seat {_quote(player)}; seats are 0 to "
                                 f"{len(state.players) - 1} (None: a spectator)")
    return _view(state, player, log_from)


def _view(s: State, player: Optional[int], log_from: Optional[int]) -> View:
    """`view` without checking ``player``."""
    d: Any = s.stack[-1][1] if s.stack else None
    over = d is None
    events, log_start = visible_log(s, player, log_from)
    return _new_tuple(View, (
        player, s.config.kingdom, _supply_listing(s.pile_names, s.supply, s.effects.cost_reduction),
        s.trash, player_views(s, player), s.current, s.phase, s.turn, s.actions, s.buys,
        s.coins, d if d is not None and d.player == player else None,
        None if over else d.player, events, log_start, over,
        score(s) if over else None, winners(s) if over else None,
        None if over else _public_decision(d.player, d.kind, d.card, d.purpose,
                                           (d.shown or (d.min, d.max))[0],
                                           (d.shown or (d.min, d.max))[1], s.config.players,
                                           len(s.players[d.player].hand))))


def player_views(s, player: Optional[int]) -> tuple:
    """`View.players`: a `PlayerView` per seat, as ``player`` may see them."""
    names = s.config.players
    turns_taken = s.turns_taken
    vp = known_vp(s, player)
    new = _new_tuple  # NamedTuples built from their fields: views are built at every decision
    out = []
    for seat, ps in enumerate(s.players):
        mine = seat == player
        hand, discard, looking = ps.hand, ps.discard, ps.looking
        out.append(new(PlayerView, (
            names[seat], tuple(sorted(hand)) if mine else None, len(hand), len(ps.deck),
            len(discard), discard[-1] if discard else None, ps.in_play, ps.aside,
            looking if mine else None, len(looking), turns_taken[seat], vp[seat])))
    return tuple(out)


def known_vp(s, viewer: Optional[int]) -> tuple:
    """Each seat's victory points as ``viewer`` (None: a spectator) can know them: every gain
    and trash is public, but a card passed face down (Masquerade) is seen only by its giver and
    receiver, so for any other viewer it still counts for its giver, as if never passed. A
    seat's own VP is always its true VP (it sees every pass it makes or receives); once the game
    is over every view shows the true VP (the scores are counted openly)."""
    passes = s.hidden_passes
    if not passes or not s.stack:
        return s.vp
    unseen = [(g, r, c) for g, r, c, seen_by in passes if viewer not in seen_by]
    if not unseen:
        return s.vp
    if variable_vp_in(s.pile_names):
        # The passed card counts for its giver, but how many cards each seat has is public
        # (Gardens): the giver lost, and the receiver holds, a card the viewer cannot name.
        counts = {}
        for g, r, c in unseen:
            for seat, sign in ((g, 1), (r, -1)):
                if seat not in counts:
                    counts[seat] = Counter(all_cards(s.players[seat]))
                counts[seat][c] += sign
                counts[seat][UNSEEN_CARD] -= sign
        return tuple(score_counts(counts[seat]) if seat in counts else v
                     for seat, v in enumerate(s.vp))
    vp = list(s.vp)
    for g, r, c in unseen:
        worth = CARDS[c].vp
        vp[g] += worth
        vp[r] -= worth
    return tuple(vp)


def visible_log(s, player: Optional[int], log_from: Optional[int]) -> tuple:
    """(`View.log`, `View.log_start`): the events from ``log_from`` on as ``player`` may see
    them; no events for ``log_from`` None."""
    if log_from is None:
        return (), 0
    start = max(0, log_from)
    return tuple([e if e.seen_by is None or player in e.seen_by else visible_event(e, player)
                  for e in s.log[start:]]), start


class Observation:
    """A seat's `View` of a state, each field built when it is first read: the built-in bots
    read a few fields of a view per decision, and building them all would cost as much as the
    rules. Every field is the `View`'s own, made by the same functions; it is not a tuple, so
    the simulation shows it to the built-in bots alone."""
    __slots__ = ("_state", "player", "log_from", "_log", "_supply", "_view", "_players")

    def __init__(self, state: State, player: int, log_from: Optional[int]):
        self._state, self.player = state, player
        self.log_from = log_from   # as asked (`log` and `log_start` are the View's fields)
        self._log: Optional[tuple] = None
        self._supply: Optional[tuple] = None
        self._view: Optional[View] = None
        self._players: Optional[tuple] = None

    # The fields bots read at most decisions, straight from the state.
    @property
    def coins(self) -> int:
        return self._state.coins

    @property
    def buys(self) -> int:
        return self._state.buys

    @property
    def actions(self) -> int:
        return self._state.actions

    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def current(self) -> int:
        return self._state.current

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def supply(self) -> tuple:
        if self._supply is None:
            s = self._state
            self._supply = supply = _supply_listing(s.pile_names, s.supply, s.effects.cost_reduction)
            return supply
        return self._supply

    @property
    def players(self) -> tuple:
        players = self._players
        if players is None:
            players = self._players = player_views(self._state, self.player)
        return players

    def supply_left(self, name: str) -> int:
        """Cards left in the named pile (0 if it has none in this game), without the listing
        of every pile that `supply` builds (strategies read Provinces left at every buy)."""
        return supply_count(self._state, name)

    @property
    def log(self) -> tuple:
        return self._visible_log()[0]

    @property
    def log_start(self) -> int:
        return self._visible_log()[1]

    def _visible_log(self) -> tuple:
        log = self._log
        if log is None:
            log = self._log = visible_log(self._state, self.player, self.log_from)
        return log

    def log_of(self, kinds: frozenset) -> tuple:
        """(the events of `log` whose kind is in ``kinds``, the log's length, their indices in
        the log): for a reader that follows a few kinds of events, found without building the
        others (every event's kind is public)."""
        log = self._state.log
        n = len(log)
        start = max(0, self.log_from or 0)
        player = self.player
        out = []
        at = []
        index = start
        for e in (log[start:] if start else log):
            event: tuple = e   # (typed: the compiled loop reads its fields directly)
            if event[0] in kinds:
                seen = event[3]
                out.append(event if seen is None or player in seen
                           else visible_event(e, player))
                at.append(index)
            index += 1
        return tuple(out), n, tuple(at)

    def __getattr__(self, name):
        """Any other field: the whole `View`, built once."""
        if name.startswith("_"):
            raise AttributeError(name)
        if self._view is None:
            self._view = _view(self._state, self.player, self.log_from)
        return getattr(self._view, name)


def _public_decision(player, kind, card, purpose, lo, hi, names, hand_size) -> PublicDecision:
    """`public_decision` from the decision's public fields alone, built without the pool or
    the options (views are built at every decision)."""
    return public_decision(_new_tuple(Decision, (player, kind, "", card, purpose, (), (), (), lo,
                                                 hi, (), None, ())), names, hand_size)


def public_decision(d: Decision, names: tuple, hand_size: int) -> PublicDecision:
    """The part of a decision everyone may know (see `PublicDecision`): its bounds are the
    ones the others are told (`Decision.shown`), never ones a hidden hand clipped."""
    if d.shown:
        d = d._replace(min=d.shown[0], max=d.shown[1], shown=())
    counted = d.kind == SELECT
    return PublicDecision(d.player, d.kind, d.card, d.purpose, d.min if counted else 0,
                          d.max if counted else 0, describe_waiting(d, names, hand_size))


@lru_cache(maxsize=4096)
def _supply_listing(pile_names: tuple, supply: tuple, reduction: int) -> tuple:
    """(pile name, cards left, cost now) per pile; memoized, as the Supply changes only when a
    card is gained or trashed from it."""
    return tuple(zip(pile_names, supply, pile_costs(pile_names, reduction)))
