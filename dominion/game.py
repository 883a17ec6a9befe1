"""The game: set up, see what it waits for, answer, record and replay, score.

All the engine's public functions are pure: they take states and return new values, never
changing their input. Arguments they check themselves are annotated ``Any``: compiled by mypyc
(``setup.py``), an ``int`` parameter would turn ``True`` into 1 and refuse ``1.0`` with a bare
TypeError before the check could say what is wrong. What a seat may see is in ``views.py``;
positions built by hand and whole states laid open are in ``positions.py``.
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any, Final, NamedTuple, Optional

from pyrsistent import pvector

from . import rng
from .card import CARDS, CONTINUATIONS
from .engine import (BASIC_PILES, Work, _quote, check_answer, draw, log, player_score, push,
                     run, start_turn, zones_score)  # player_score: public
from .errors import GameOverError, InvalidConfigError, NotYourDecisionError, StaleAnswerError
from .kingdoms import resolve_kingdom
from .state import (ACTION, NO_EFFECTS, OVER, RESIGN, TAKE_BACK, Config, Decision, Move,
                    PlayerState, Resign, State, TakeBack)
from .state import PUBLIC_DETAIL  # noqa: F401  (read here by the wire's converters)

# Final: the compiled `step` reads it from a C variable, not from the module's dictionary.
_CONTINUATIONS: Final = CONTINUATIONS

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
    is never changed. `RESIGN` is the one answer that is not to the pending decision: any seat
    (``player``, required) may give it at any time, and it ends the game (`resign`).
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
    if answer.__class__ is Resign:
        return resign(state, player)
    frame = state.stack[-1]
    decision: Decision = frame[1]   # (typed: its fields are read by index)
    if player is not None and player != decision.player:
        # Says only whom the game waits for: the question itself may name cards that only the
        # asked seat may know (Library's drawn Action, Secret Passage's card).
        raise NotYourDecisionError(
            f"seat {player} answered, but the game waits for seat {decision.player} "
            f"({state.config.players[decision.player]})")
    if answer.__class__ is TakeBack:   # a record entry, not an answer: see undo.py
        from .undo import take_back
        return take_back(state, decision.player)
    answer = check_answer(decision, answer)
    w = Work(state)
    w.stack.pop()
    w.answers = state.answers.append((decision.player, answer))
    args = frame[3]
    if args:
        _CONTINUATIONS[frame[2]](w, answer, *args)
    else:   # most questions (every turn's): no argument tuple to spread
        _CONTINUATIONS[frame[2]](w, answer)
    run(w)
    return w.freeze()


def resign(state: State, player: Any) -> State:
    """``player`` resigns: the game ends at once, with the log's "Ann resigns." and its end,
    and `RESIGN` as the record's last answer (a replay ends the same way). Whose turn it is
    does not matter. The resigning seat is among no winners; the other seats are ranked by the
    rules' scoring (`winners`), so with two players the other one wins."""
    if type(player) is not int or not 0 <= player < len(state.players):
        raise InvalidConfigError(f"a resignation names the resigning seat, from 0 to "
                                 f"{len(state.players) - 1}, not {_quote(player)}")
    if not state.stack:
        raise GameOverError("the game is over; nobody can resign")
    w = Work(state)
    w.stack = []
    w.phase = OVER
    w.answers = state.answers.append((player, RESIGN))
    log(w, "resign", player)
    log(w, "game_over", player)
    return w.freeze()


def rename(state: State, seat: Any, name: Any) -> State:
    """The game with ``seat`` named ``name``. Names are words for people only (the rules, the
    shuffles and the bots never read them), so the game goes on as it would have, and its
    record, with the new name in its config, replays to it (a question asked before keeps the
    words it was asked with). A server names a seat that a person takes once the game has
    begun."""
    players = state.config.players
    if type(seat) is not int or not 0 <= seat < len(players):
        raise InvalidConfigError(f"a seat is a number from 0 to {len(players) - 1}, not "
                                 f"{_quote(seat)}")
    if type(name) is not str or not name:
        raise InvalidConfigError(f"a seat's name is a non-empty string, not {_quote(name)}")
    config = state.config._replace(players=players[:seat] + (name,) + players[seat + 1:])
    return state._replace(config=config)


def resigned(state: State) -> Optional[int]:
    """The seat whose resignation ended the game, or None."""
    answers = state.answers
    if answers and answers[-1][1].__class__ is Resign:
        seat: int = answers[-1][0]
        return seat
    return None


def record(state: State) -> Record:
    """The game's record (config and answers), enough to replay it exactly."""
    return Record(state.config, tuple(state.answers))


# The version of the rules' meaning: a record (config and answers) made by one engine version
# replays to the same game on any engine of the same version. Raised whenever the same answers
# could mean another game (a rule, a card, the order of a question's pool, a forced question).
ENGINE_VERSION = "1"


def answer_to_data(answer):
    """An answer as JSON-ready data: ``{"move": [verb, card]}`` for a Move, ``{"items":
    [...]}`` for the cards or options of the other kinds (the stored form too), ``{"take_back":
    true}`` for a take-back entry."""
    if answer.__class__ is TakeBack:
        return {"take_back": True}
    if isinstance(answer, Move):
        return {"move": [answer.verb, answer.card]}
    if isinstance(answer, Resign):
        return {"resign": True}
    return {"items": list(answer)}


def answer_from_data(value):
    """The answer `answer_to_data` made."""
    if "take_back" in value:
        return TAKE_BACK
    if "move" in value:
        verb, card = value["move"]
        return Move(verb, card)
    if "resign" in value:
        return RESIGN
    return tuple(value["items"])


# How a recorded game ended: by the rules; ended by its server when no answer came for too long;
# or stopped before its end by whoever played it (a simulation's decision limit, a program);
# or by a seat's resignation (scored: the resigning seat is among no winners).
ENDINGS = ("over", "abandoned", "cut short", "resigned")


def ending(state: State, abandoned: Any = False) -> str:
    """How the game of ``state`` ended, as a record says it (`ENDINGS`): "resigned" when a
    seat resigned, "over" when the rules ended it, else "abandoned" when its server gave up
    waiting, else "cut short"."""
    if resigned(state) is not None:
        return "resigned"
    return "over" if is_over(state) else "abandoned" if abandoned else "cut short"


def record_to_data(rec, ended: Any = None) -> dict:
    """A game's record as JSON-ready data, with the engine version that made it and its
    ``answer_count`` (a reader can tell a record cut in two from a whole one); ``ended``, one
    of `ENDINGS` (`ending`), says how the game ended, so that an unfinished game is never
    taken for a finished one."""
    config, answers = rec
    data = {"engine_version": ENGINE_VERSION, "config": dict(Config(*config)._asdict()),
            "answers": [[seat, answer_to_data(a)] for seat, a in answers],
            "answer_count": len(answers)}
    if ended is not None:
        if ended not in ENDINGS:
            raise InvalidConfigError(f"a game ends {' or '.join(map(repr, ENDINGS))}, not "
                                     f"{_quote(ended)}")
        data["ended"] = ended
    return data


def record_from_data(data) -> Record:
    """The `Record` in data made by `record_to_data`, or in a line of JSON holding it (a line
    of a ``--records`` file as it is); refuses a record of another engine version (its answers
    may mean another game here) and data that is not a record."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except ValueError:
            raise InvalidConfigError("this is not a game record (not a line of JSON)") from None
    if not isinstance(data, dict) or "config" not in data or "answers" not in data:
        raise InvalidConfigError("this is not a game record (it needs config and answers)")
    version = data.get("engine_version")
    if version != ENGINE_VERSION:
        raise InvalidConfigError(f"this record was made by engine version {version!r}; this "
                                 f"engine is version {ENGINE_VERSION!r}, where the same answers "
                                 "may be another game")
    c = data["config"]
    for key in ("players", "kingdom"):
        value = c.get(key) if isinstance(c, dict) else None
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise InvalidConfigError(f"this game record cannot be read: its config's {key} must "
                                     f"be a list of names, not {_quote(value)}")
    if "seed" in c:
        check_seed(c["seed"])   # None would replay with a random seed: another game
    try:
        config = Config(tuple(c["players"]), tuple(c["kingdom"]), c["seed"], c["first_player"],
                        c.get("always_ask", False))
        answers = tuple((seat, answer_from_data(a)) for seat, a in data["answers"])
    except (KeyError, TypeError, ValueError) as e:
        raise InvalidConfigError(f"this game record cannot be read: {_quote(e)}") from None
    count = data.get("answer_count", len(answers))
    if count != len(answers):
        raise InvalidConfigError(f"this game record is not whole: it holds {len(answers)} "
                                 f"answers of the {_quote(count)} it says it has")
    return Record(config, answers)


def replay(rec) -> State:
    """Rebuild a game from its record: the same config and answers give the same state."""
    config, answers = rec
    state = new_game(Config(*config))
    for seat, answer in answers:
        state = step(state, answer, seat)
    return state


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------

def score(state: State) -> tuple:
    """Each seat's victory points now."""
    return tuple(zones_score(p) for p in state.players)


def winners(state: State) -> tuple:
    """Seats that win: most VP; among them, fewest turns; ties beyond that share the win
    (rulebook, Game End). A seat that resigned is not in the running: the others are ranked
    so (`resign`)."""
    scores = score(state)
    out = resigned(state)
    running = [s for s in range(len(scores)) if s != out]
    best = max(scores[s] for s in running)
    tied = [s for s in running if scores[s] == best]
    fewest = min(state.turns_taken[s] for s in tied)
    return tuple(s for s in tied if state.turns_taken[s] == fewest)


def is_over(state: State) -> bool:
    return not state.stack
