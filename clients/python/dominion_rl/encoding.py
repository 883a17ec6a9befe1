"""The one encoding of Dominion for learning and search: the action ids, the action mask and the
observation vector. `DominionEnv` (PettingZoo), `BatchedDominionEnv` (NumPy arrays, many games)
and the OpenSpiel game (`dominion_rl.openspiel`) all go through these functions, so an action id
or an observation field means the same thing everywhere (docs/research.md lists them).

A multi-card question (select, choose, order) is answered one pick at a time and closed by
DONE, so that a mask over single actions is exact: the picks made so far are part of the input
(``picked``), held by whoever steps the game.
"""
from __future__ import annotations

from collections import Counter
from typing import Optional

import numpy as np

import dominion
from dominion import BUY, CHOOSE, END_PHASE, ORDER, PLAY, PLAY_TREASURES, SELECT, TURN, Move

CARDS = dominion.card_names()          # every card, sorted: the card axis of actions and fields
CARD_INDEX = {name: i for i, name in enumerate(CARDS)}
K = len(CARDS)
MAX_OPTIONS = 128                      # options of one choose question (Secret Passage's
                                       # positions are the most: the deck's size + 1)
MAX_PLAYERS = 6
DEFAULT_MAX_TURNS = 100                # truncation: a seat's turns (see `turn_limit_reached`)

# The action space: one Discrete(ACTIONS), laid out in blocks.
DONE = 0                               # close a question answered pick by pick
END = 1                                # turn: end the phase
PLAY_ALL = 2                           # turn: play every Treasure
PLAY_AT = 3                            # turn: play card k (PLAY_AT + k)
BUY_AT = PLAY_AT + K                   # turn: buy card k
PICK_AT = BUY_AT + K                   # select / order: pick card k (one copy)
OPTION_AT = PICK_AT + K                # choose: pick option i of decision.options
ACTIONS = OPTION_AT + MAX_OPTIONS

KINDS = (TURN, SELECT, CHOOSE, ORDER)
PHASES = (dominion.ACTION, dominion.BUY, dominion.CLEANUP)


def action_labels() -> tuple:
    """A label for every action index ("done", "end_phase", "play Smithy", "buy Gold",
    "pick Copper", "option 3")."""
    return (("done", "end_phase", "play_treasures") + tuple(f"play {c}" for c in CARDS)
            + tuple(f"buy {c}" for c in CARDS) + tuple(f"pick {c}" for c in CARDS)
            + tuple(f"option {i}" for i in range(MAX_OPTIONS)))


def observation_fields() -> tuple:
    """(name, size) of each block of the observation vector, in order (docs/research.md)."""
    return (("hand", K), ("in_play", K), ("supply", K), ("in_supply", K), ("cost", K),
            ("trash", K), ("pool", K), ("picked", K), ("discard_top", K),
            ("turn_state", 3 + len(PHASES)), ("decision", len(KINDS) + 2 + 1),
            ("seats", 5 * MAX_PLAYERS))


OBSERVATION_SIZE = sum(n for _, n in observation_fields())
_AT = {}
_offset = 0
for _name, _size in observation_fields():
    _AT[_name] = _offset
    _offset += _size
del _offset, _name, _size


def check_setup(players, max_turns, bounded: bool = False) -> None:
    """ValueError unless ``players`` is 2 to 6 and ``max_turns`` a positive int (or None, no
    limit, unless ``bounded``): every environment's and the OpenSpiel game's check."""
    if type(players) is not int or not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be 2 to {MAX_PLAYERS}, not {players!r}")
    if max_turns is None and not bounded:
        return
    if type(max_turns) is not int or max_turns < 1:
        need = "a positive int" + ("" if bounded else " or None")
        why = " (OpenSpiel needs a bounded game)" if bounded else ""
        raise ValueError(f"max_turns must be {need}{why}, not {max_turns!r}")


def turn_limit_reached(state, max_turns: Optional[int]) -> bool:
    """True when the game is to be truncated: the seat whose turn it is has started more than
    ``max_turns`` turns (each seat's own count, as "Turn 12 - Ann" numbers them). None: no
    limit. A finished game is never truncated."""
    return (max_turns is not None and state.turns_taken[state.current] > max_turns
            and not dominion.is_over(state))


def final_rewards(state) -> tuple:
    """Each seat's reward for a finished game: the winners share +1, the others share -1
    (0 for everyone when all tie)."""
    winners = dominion.winners(state)
    n = len(state.players)
    if len(winners) == n:
        return (0.0,) * n
    return tuple(1.0 / len(winners) if seat in winners else -1.0 / (n - len(winners))
                 for seat in range(n))


def new_game_seed(generator: np.random.Generator) -> int:
    """A game's seed drawn from an environment's generator (every environment draws alike)."""
    return int(generator.integers(0, 2 ** 63))


def legal_actions(d, picked: list) -> list:
    """The legal action ids for decision ``d`` with ``picked`` made so far, ascending."""
    if d is None:
        return []
    if d.kind == TURN:
        return list(_turn_actions(d.moves)[0])
    if d.kind == CHOOSE:
        if len(d.options) > MAX_OPTIONS:
            raise RuntimeError(f"a question with {len(d.options)} options; the action "
                               f"space holds {MAX_OPTIONS}")
        out = [DONE] if d.min <= len(picked) else []
        if len(picked) < d.max:
            out += [OPTION_AT + i for i, option in enumerate(d.options) if option not in picked]
        return out
    full = len(picked) >= (d.max if d.kind == SELECT else len(d.cards))
    done = (d.min <= len(picked)) if d.kind == SELECT else full
    out = [DONE] if done else []
    if not full:
        left = Counter(d.cards)
        left.subtract(picked)
        out += sorted(PICK_AT + CARD_INDEX[c] for c, n in left.items() if n > 0)
    return out


_TURN_ACTIONS: dict = {}


def _turn_actions(moves: tuple) -> tuple:
    """The action ids of a turn's moves, ascending, as a tuple and as an index array
    (remembered: a game has few move sets)."""
    ids = _TURN_ACTIONS.get(moves)
    if ids is None:
        ids = []
        for m in moves:
            if m.verb == END_PHASE:
                ids.append(END)
            elif m.verb == PLAY_TREASURES:
                ids.append(PLAY_ALL)
            elif m.verb == PLAY:
                ids.append(PLAY_AT + CARD_INDEX[m.card])
            else:
                ids.append(BUY_AT + CARD_INDEX[m.card])
        ids = (tuple(sorted(ids)), np.array(sorted(ids), np.intp))
        if len(_TURN_ACTIONS) > 100_000:   # bounded: the move sets of many Kingdoms
            _TURN_ACTIONS.clear()
        _TURN_ACTIONS[moves] = ids
    return ids


def action_mask(d, picked: list, out: Optional[np.ndarray] = None) -> np.ndarray:
    """The 0/1 mask of `legal_actions` (written into ``out``, a row of ACTIONS int8, if given)."""
    if out is None:
        out = np.zeros(ACTIONS, np.int8)
    else:
        out.fill(0)
    if d is not None and d.kind == TURN:
        out[_turn_actions(d.moves)[1]] = 1
    else:
        out[legal_actions(d, picked)] = 1
    return out


def apply_action(d, picked: list, action: int):
    """The engine answer once a question is complete, else None (``action`` appended to
    ``picked`` as a card or an option). ``action`` must be legal (see `legal_actions`)."""
    if d.kind == TURN:
        if action == END:
            return Move(END_PHASE)
        if action == PLAY_ALL:
            return Move(PLAY_TREASURES)
        if action < BUY_AT:
            return Move(PLAY, CARDS[action - PLAY_AT])
        return Move(BUY, CARDS[action - BUY_AT])
    if action == DONE:
        return list(picked)
    if d.kind == CHOOSE:
        picked.append(d.options[action - OPTION_AT])
    else:
        picked.append(CARDS[action - PICK_AT])
    return None


def check_action(d, picked: list, action) -> int:
    """``action`` as an int if it is legal now, else ValueError naming the problem."""
    try:
        a = int(action)
    except (TypeError, ValueError):
        raise ValueError(f"action {action!r} is not an action id (0 to {ACTIONS - 1})") from None
    if a != action or not 0 <= a < ACTIONS or a not in legal_actions(d, picked):
        raise ValueError(f"action {action!r} is not legal now (see the action mask)")
    return a


def observation(state, seat: int, picked: list, out: Optional[np.ndarray] = None) -> np.ndarray:
    """The vector of `observation_fields` for ``seat`` (written into ``out``, a float32 row of
    OBSERVATION_SIZE, if given), built from `dominion.view` of that seat and its own ``picked``
    only, so it never holds a card the seat may not see."""
    if out is None:
        out = np.zeros(OBSERVATION_SIZE, np.float32)
    else:
        out.fill(0)
    v = dominion.view(state, seat)
    me = v.players[seat]
    index = CARD_INDEX
    row = memoryview(out)   # element writes through a memoryview: several times numpy's speed
    for at, cards in ((_HAND, me.hand), (_IN_PLAY, me.in_play), (_TRASH, v.trash)):
        for c in cards:
            k = at + index[c]
            row[k] = row[k] + 1
    d = v.decision
    if d is not None:
        if d.kind == SELECT or d.kind == ORDER:
            for at, cards in ((_POOL, d.cards), (_PICKED, picked)):
                for c in cards:
                    k = at + index[c]
                    row[k] = row[k] + 1
        at = _DECISION
        row[at + KINDS.index(d.kind)] = 1
        row[at + len(KINDS)] = d.min
        row[at + len(KINDS) + 1] = d.max
    row[_DECISION + len(KINDS) + 2] = 1 if v.current == seat else 0
    if me.discard_top is not None:
        row[_DISCARD_TOP + index[me.discard_top]] = 1
    at = _TURN_STATE
    row[at] = v.actions
    row[at + 1] = v.buys
    row[at + 2] = v.coins
    if v.phase in PHASES:
        row[at + 3 + PHASES.index(v.phase)] = 1
    at = _SEATS
    players = v.players
    n = len(players)
    for k in range(n):  # seats in turn order from this one: 0 is always the observer
        p = players[(seat + k) % n]
        row[at] = p.vp
        row[at + 1] = p.hand_size
        row[at + 2] = p.deck_size
        row[at + 3] = p.discard_size
        row[at + 4] = p.turns_taken
        at += 5
    block = _SUPPLY_BLOCKS.get(v.supply)
    if block is None:
        block = _supply_block(v.supply)
    out[_SUPPLY:_TRASH] = block
    return out


(_HAND, _IN_PLAY, _SUPPLY, _IN_SUPPLY, _COST, _TRASH, _POOL, _PICKED, _DISCARD_TOP, _TURN_STATE,
 _DECISION, _SEATS) = (_AT[name] for name, _ in observation_fields())
_SUPPLY_BLOCKS: dict = {}


def _supply_block(listing: tuple) -> np.ndarray:
    """The supply, in_supply and cost blocks of a view's Supply listing, remembered by the
    listing (a game has a few dozen; the memory is bounded)."""
    block = np.zeros(_TRASH - _SUPPLY, np.float32)
    for name, left, price in listing:
        k = CARD_INDEX[name]
        block[k] = left
        block[K + k] = 1
        block[2 * K + k] = price
    if len(_SUPPLY_BLOCKS) >= 50_000:
        _SUPPLY_BLOCKS.clear()
    _SUPPLY_BLOCKS[listing] = block
    return block
