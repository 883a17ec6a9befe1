"""The engine's public functions: set up a game, see what it waits for, answer, look, score.

All of them are pure: they take states and return new values, never changing their input.
Arguments they check themselves are annotated ``Any``: compiled by mypyc (``setup.py``), an
``int`` parameter would turn ``True`` into 1 and refuse ``1.0`` with a bare TypeError before
the check could say what is wrong.
"""
from __future__ import annotations

import os
from collections import Counter
from functools import lru_cache
from operator import itemgetter
from typing import Any, NamedTuple, Optional

from pyrsistent import pvector

from . import rng
from .card import CARDS, CONTINUATIONS, card
from .engine import (BASIC_PILES, Work, _quote, variable_vp_in, all_cards, check_answer, draw,
                     pile_costs, player_score, push, run, score_counts, start_turn,
                     supply_count, zones_score)  # player_score: public
from .errors import (GameOverError, InvalidConfigError, InvalidPositionError,
                     NotYourDecisionError, StaleAnswerError)
from .kingdoms import resolve_kingdom
from .state import (ACTION, BUY, NO_EFFECTS, SELECT, Config, Decision, Event, Move,
                    PlayerState, PublicDecision, State, TurnEffects)
from .text import describe_waiting

_new_tuple = tuple.__new__
_KIND = itemgetter(0)   # an event's kind
MIN_PLAYERS, MAX_PLAYERS = 2, 6
STARTING_DECK = ("Copper",) * 7 + ("Estate",) * 3


class Record(NamedTuple):
    """A game's record: its configuration and every answer as (seat, answer), in order.
    ``replay(record)`` rebuilds the identical game."""
    config: Config
    answers: tuple


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------

def pile_size(name: str, num_players: int) -> int:
    """Cards in a Supply pile at setup (cards.md, Supply sizes); Copper and Estate after the
    starting decks are dealt."""
    big = num_players >= 5  # 5-6 players: the Treasures of two base sets
    if name == "Copper":
        return (120 if big else 60) - 7 * num_players
    if name == "Silver":
        return 80 if big else 40
    if name == "Gold":
        return 60 if big else 30
    if name == "Province":
        return {2: 8, 3: 12, 4: 12, 5: 15, 6: 18}[num_players]
    if name == "Curse":
        return 10 * (num_players - 1)
    if CARDS[name].is_victory:  # Estate, Duchy and Victory Kingdom piles
        return 8 if num_players == 2 else 12
    return 10


def supply_order(kingdom) -> tuple:
    """Pile order: the basic piles, then the Kingdom by cost and name."""
    return BASIC_PILES + tuple(sorted(kingdom, key=lambda n: (CARDS[n].cost, n)))


@lru_cache(maxsize=256)
def setup_piles(kingdom: tuple, num_players: int) -> tuple:
    """(pile names, cards in each pile at setup) for a Kingdom (memoized: simulations set up
    the same Kingdom game after game)."""
    pile_names = supply_order(kingdom)
    return pile_names, tuple(pile_size(name, num_players) for name in pile_names)


def _player_names(players) -> tuple:
    if isinstance(players, bool) or not isinstance(players, (int, tuple, list)):
        raise InvalidConfigError(f"players must be a count (2-6) or a list of names, not {players!r}")
    names = tuple(f"Player {i + 1}" for i in range(players)) if isinstance(players, int) \
        else tuple(str(p) for p in players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidConfigError(f"Dominion is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                                 f"not {len(names)}")
    return names


SEED_LIMIT = 2 ** 64   # seeds are 0 to 2**64 - 1 in the engine, the CLI and on the wire (uint64)


def check_seed(seed) -> int:
    """``seed`` if it is a seed (an int from 0 to 2**64 - 1: one range everywhere, so a seed
    names the same game in-process, in a simulation and over the wire); else
    InvalidConfigError."""
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise InvalidConfigError(f"a seed is an integer from 0 to 2**64 - 1, not "
                                 f"{_quote(seed)}")
    return seed


def make_config(players=2, kingdom="First Game", sets=None, seed: Any = None,
                first_player: Any = None, always_ask: Any = False) -> Config:
    """Resolve a game request into a `Config` (see `new_game` for the arguments)."""
    names = _player_names(players)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    check_seed(seed)
    kingdom = resolve_kingdom(kingdom, sets, seed)
    if first_player is None:
        _, first_player = rng.below(rng.seed_state(seed ^ 0x4649525354), len(names))
    if isinstance(first_player, bool) or not isinstance(first_player, int) or \
            not 0 <= first_player < len(names):
        raise InvalidConfigError(f"first_player must be a seat from 0 to {len(names) - 1}")
    if type(always_ask) is not bool:
        raise InvalidConfigError(f"always_ask must be True or False, not {always_ask!r}")
    return Config(names, kingdom, seed, first_player, always_ask)


def _blank_state(config: Config, pile_names: tuple, supply: tuple, players: tuple,
                 current: int) -> State:
    n = len(players)
    return State(config=config, pile_names=pile_names, supply=supply, trash=(),
                 players=players, current=current, phase=ACTION, actions=0, buys=0, coins=0,
                 turn=0, turns_taken=(0,) * n, effects=NO_EFFECTS,
                 next_uid=0, stack=(), rng=rng.seed_state(config.seed),
                 log=pvector(), answers=pvector(),
                 vp=tuple(zones_score(p) for p in players), hidden_passes=())


def new_game(config: Any = None, *, players=2, kingdom="First Game", sets=None,
             seed: Any = None, first_player: Any = None, always_ask: Any = False) -> State:
    """Set up a game and run it to its first decision.

    ``players``: a count from 2 to 6, or the seats' names. ``kingdom``: 10 Kingdom card names
    (a list, or one comma-separated string), a recommended set's name (``"First Game"``), or
    ``"random"`` to draw 10 from ``sets`` (e.g. ``["base-2e", "intrigue-2e"]``; all sets if
    omitted) with the seed. ``seed``: an integer from 0 to 2**64 - 1; a random one if omitted
    (it is in ``state.config``). ``first_player``: the seat that starts; drawn with the seed if
    omitted (rulebook: randomly choose a starting player). ``always_ask``: ask every question
    that could arise, even a forced one (README, "Hidden information"). Or pass a resolved
    `Config`.
    """
    if config is None:
        config = make_config(players, kingdom, sets, seed, first_player, always_ask)
    else:
        config = make_config(config.players, config.kingdom, None, config.seed,
                             config.first_player, config.always_ask)
    n = len(config.players)
    pile_names, supply = setup_piles(config.kingdom, n)
    players = tuple(PlayerState(discard=STARTING_DECK) for _ in range(n))
    w = Work(_blank_state(config, pile_names, supply, players, config.first_player))
    for seat in range(n):  # each player shuffles their starting deck and draws 5
        draw(w, seat, 5)
    push(w, start_turn)
    run(w)
    return w.freeze()


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
    from .engine import action_phase, buy_phase
    state = state._replace(phase=phase, turn=sum(turns_taken), turns_taken=turns_taken,
                           trash=trash, effects=effects, next_uid=1000, **counters)
    w = Work(state)
    push(w, action_phase if phase == ACTION else buy_phase)
    run(w)
    return w.freeze()


def _check_count(label: str, value) -> None:
    if type(value) is not int or value < 0:
        raise InvalidPositionError(f"{label} must be an integer >= 0, not {_quote(value)}")


def _check_effects(effects, n: int) -> None:
    """Refuse ``effects`` unless it is a `TurnEffects` that a turn of ``n`` seats can have."""
    if type(effects) is not TurnEffects:
        raise InvalidPositionError(f"effects must be a dominion.TurnEffects, not {_quote(effects)}")
    _check_count("effects.actions_played", effects.actions_played)
    _check_count("effects.cost_reduction", effects.cost_reduction)
    if type(effects.bought) is not bool:
        raise InvalidPositionError(f"effects.bought must be True or False, not "
                                   f"{_quote(effects.bought)}")
    if type(effects.left_play) is not tuple or \
            any(type(uid) is not int for uid in effects.left_play):
        raise InvalidPositionError(f"effects.left_play must be a tuple of instance ids, not "
                                   f"{_quote(effects.left_play)}")
    if type(effects.immune) is not tuple or \
            any(type(s) is not int or not 0 <= s < n for s in effects.immune):
        raise InvalidPositionError(f"effects.immune must be a tuple of seats, not "
                                   f"{_quote(effects.immune)}")
    marks = effects.marks
    if type(marks) is not tuple or any(type(m) is not tuple or len(m) != 2 for m in marks):
        raise InvalidPositionError(f"effects.marks must be a tuple of (card name, value) pairs, "
                                   f"not {_quote(marks)}")
    for name, _ in marks:
        card(name)
    if list(marks) != sorted(marks, key=_KIND) or len({m[0] for m in marks}) != len(marks):
        raise InvalidPositionError(f"effects.marks must name each card once, sorted by name, "
                                   f"not {_quote(marks)}")


# ---------------------------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------------------------

def pending(state: State) -> Optional[Decision]:
    """The one decision the game waits for, or None when the game is over."""
    if not state.stack:
        return None
    return state.stack[-1][1]


def decision_number(state: State) -> int:
    """How many answers the game has taken: the sequence number of the pending decision."""
    return len(state.answers)


def step(state: State, answer, player: Any = None, *, number: Any = None) -> State:
    """Apply one answer to the pending decision and run the rules to the next decision.

    The answer's shape depends on the decision's kind: a `Move` for TURN, a list or tuple of
    card names for SELECT and ORDER, a list or tuple of options (or one option) for CHOOSE.
    ``player``, if given, is the seat answering (an int): an answer from a seat that is not
    asked raises `NotYourDecisionError`. ``number``, if given, is the decision number the
    answer is meant for (`decision_number` when it was asked, like the wire's sequence): an
    answer meant for another decision raises `StaleAnswerError` instead of being applied to
    whatever question is pending. Illegal answers raise `IllegalAnswerError`; the given state
    is never changed.
    """
    if player is not None and type(player) is not int:
        raise InvalidConfigError(f"player must be a seat number (an int) or None, not "
                                 f"{_quote(player)}")
    if number is not None:
        if type(number) is not int:
            raise InvalidConfigError(f"number must be a decision number (an int) or None, not "
                                     f"{_quote(number)}")
        if number != len(state.answers):
            when = "already answered" if number < len(state.answers) else "not asked yet"
            raise StaleAnswerError(f"decision {number} is {when}; the pending decision is "
                                   f"number {len(state.answers)}")
    if not state.stack:
        raise GameOverError("the game is over; no answer is expected")
    frame = state.stack[-1]
    decision = frame[1]
    if player is not None and player != decision.player:
        # Says only whom the game waits for: the question itself may name cards that only the
        # asked seat may know (Library's drawn Action, Secret Passage's card).
        raise NotYourDecisionError(
            f"seat {player} answered, but the game waits for seat {decision.player} "
            f"({state.config.players[decision.player]})")
    answer = check_answer(decision, answer)
    w = Work(state)
    w.stack.pop()
    w.answers = state.answers.append((decision.player, answer))
    CONTINUATIONS[frame[2]](w, answer, *frame[3])
    run(w)
    return w.freeze()


def record(state: State) -> Record:
    """The game's record (config and answers), enough to replay it exactly."""
    return Record(state.config, tuple(state.answers))


# The version of the rules' meaning: a record (config and answers) made by one engine version
# replays to the same game on any engine of the same version. Raised whenever the same answers
# could mean another game (a rule, a card, the order of a question's pool, a forced question).
ENGINE_VERSION = "1"


def answer_to_data(answer):
    """An answer as JSON-ready data: ``{"move": [verb, card]}`` for a Move, ``{"items":
    [...]}`` for the cards or options of the other kinds (the stored form too)."""
    if isinstance(answer, Move):
        return {"move": [answer.verb, answer.card]}
    return {"items": list(answer)}


def answer_from_data(value):
    """The answer `answer_to_data` made."""
    if "move" in value:
        verb, card = value["move"]
        return Move(verb, card)
    return tuple(value["items"])


def record_to_data(rec) -> dict:
    """A game's record as JSON-ready data, with the engine version that made it."""
    config, answers = rec
    return {"engine_version": ENGINE_VERSION, "config": dict(Config(*config)._asdict()),
            "answers": [[seat, answer_to_data(a)] for seat, a in answers]}


def record_from_data(data) -> Record:
    """The `Record` in data made by `record_to_data`; refuses a record of another engine
    version (its answers may mean another game here) and data that is not a record."""
    if not isinstance(data, dict) or "config" not in data or "answers" not in data:
        raise InvalidConfigError("this is not a game record (it needs config and answers)")
    version = data.get("engine_version")
    if version != ENGINE_VERSION:
        raise InvalidConfigError(f"this record was made by engine version {version!r}; this "
                                 f"engine is version {ENGINE_VERSION!r}, where the same answers "
                                 "may be another game")
    try:
        c = data["config"]
        config = Config(tuple(c["players"]), tuple(c["kingdom"]), c["seed"], c["first_player"],
                        c.get("always_ask", False))
        answers = tuple((seat, answer_from_data(a)) for seat, a in data["answers"])
    except (KeyError, TypeError, ValueError) as e:
        raise InvalidConfigError(f"this game record cannot be read: {_quote(e)}") from None
    return Record(config, answers)


def replay(rec) -> State:
    """Rebuild a game from its record: the same config and answers give the same state."""
    config, answers = rec
    state = new_game(Config(*config))
    for seat, answer in answers:
        state = step(state, answer, seat)
    return state


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


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------

def score(state: State) -> tuple:
    """Each seat's victory points now."""
    return tuple(zones_score(p) for p in state.players)


def winners(state: State) -> tuple:
    """Seats that win: most VP; among them, fewest turns; ties beyond that share the win
    (rulebook, Game End)."""
    scores = score(state)
    best = max(scores)
    tied = [s for s in range(len(scores)) if scores[s] == best]
    fewest = min(state.turns_taken[s] for s in tied)
    return tuple(s for s in tied if state.turns_taken[s] == fewest)


def is_over(state: State) -> bool:
    return not state.stack


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


# Private events whose ``detail`` is public (not a count): a pass names its receiving seat.
PUBLIC_DETAIL = ("pass",)


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
        None if over else _public_decision(d.player, d.kind, d.card, d.purpose, d.min, d.max,
                                           s.config.players, len(s.players[d.player].hand))))


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
        counts = {}
        for g, r, c in unseen:
            for seat, sign in ((g, 1), (r, -1)):
                if seat not in counts:
                    counts[seat] = Counter(all_cards(s.players[seat]))
                counts[seat][c] += sign
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
        """(the events of `log` whose kind is in ``kinds``, the log's length): for a reader
        that follows a few kinds of events, found without building the others (every event's
        kind is public)."""
        log = self._state.log
        n = len(log)
        start = max(0, self.log_from or 0)
        player = self.player
        out = []
        for e in (log[start:] if start else log):
            if e[0] in kinds:
                seen = e[3]
                out.append(e if seen is None or player in seen else visible_event(e, player))
        return tuple(out), n

    def __getattr__(self, name):
        """Any other field: the whole `View`, built once."""
        if name.startswith("_"):
            raise AttributeError(name)
        if self._view is None:
            self._view = _view(self._state, self.player, self.log_from)
        return getattr(self._view, name)


def play_out(state: State, bots: list, cheap: list, step_fn, max_decisions: int) -> tuple:
    """Play ``state`` to its end with one bot per seat: (the final state, None), or (the state
    reached, the decision pending) when ``max_decisions`` answers did not end it. A seat whose
    ``cheap`` is true sees an `Observation`, any other a `View` (`dominion.simulate`). Each
    answer goes through ``step_fn`` (`step`, looked up by the caller). An exception raised on
    the way carries the decision being answered as ``decision``, for the error report."""
    d: Any = None
    try:
        for _ in range(max_decisions):
            stack = state.stack
            if not stack:
                return state, None
            d = stack[-1][1]
            seat = d.player
            bot = bots[seat]
            seen = Observation(state, seat, bot.log_from) if cheap[seat] else \
                _view(state, seat, bot.log_from)
            state = step_fn(state, bot.answer(d, seen))
    except Exception as exc:
        try:
            exc.decision = d   # type: ignore[attr-defined]
        except AttributeError:
            pass
        raise
    return state, (state.stack[-1][1] if state.stack else None)


def _public_decision(player, kind, card, purpose, lo, hi, names, hand_size) -> PublicDecision:
    """`public_decision` memoized by the decision's public fields (views are built at every
    decision, and the same public facts recur: "Ann is in the Buy phase.")."""
    return public_decision(_new_tuple(Decision, (player, kind, "", card, purpose, (), (), (), lo,
                                                 hi, (), None)), names, hand_size)


def public_decision(d: Decision, names: tuple, hand_size: int) -> PublicDecision:
    """The part of a decision everyone may know (see `PublicDecision`)."""
    counted = d.kind == SELECT
    return PublicDecision(d.player, d.kind, d.card, d.purpose, d.min if counted else 0,
                          d.max if counted else 0, describe_waiting(d, names, hand_size))


@lru_cache(maxsize=4096)
def _supply_listing(pile_names: tuple, supply: tuple, reduction: int) -> tuple:
    """(pile name, cards left, cost now) per pile; memoized, as the Supply changes only when a
    card is gained or trashed from it."""
    return tuple(zip(pile_names, supply, pile_costs(pile_names, reduction)))
