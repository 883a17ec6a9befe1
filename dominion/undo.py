"""Taking back a move: a seat's own last answers, while they revealed nothing.

A take-back is a record entry (`TakeBack`) that `step` applies like an answer, so a game's
record keeps it and replays it exactly. It rebuilds the game from the record with the seat's
last answer left out (the record is the truth), so the game's position afterwards is the one
before that answer, field for field; only two things stay as they were, because they are
append-only: the record (``answers`` gains the take-back entry, so decision numbers never go
back) and the log (the taken-back answer's events stay, followed by a ``take_back`` event
whose ``detail`` is the index of the first of them: everyone saw the move, then saw it taken
back, and a reader that counts from the log knows what to undo).

An answer can be taken back (`reveals` is None) when it told nobody anything hidden, so that
taking it back leaves every seat knowing only what it knew plus public facts that the take-back
restores:

- the game still waits for the same seat (no other seat was asked or answered, the game did
  not end);
- nothing random happened (the random generator's state is unchanged: no shuffle);
- no deck changed and the seat looked at nothing (no card drawn, revealed, looked at or put
  onto a deck), and no card was passed;
- no other seat's cards changed;
- no Attack was played (whether another seat is asked about a Reaction, or has to discard,
  depends on its hidden hand);
- its log events are only the seat's own plays, buys, gains, trashes, discards, cards set
  aside and names (no draw, reveal, look, shuffle, pass, topdeck).

Cards that leave the seat's own hand for a public place (a Treasure played, Chapel's trashed
cards, the Estate Baron discards) may be taken back: they tell the others about that seat's
own hand, which it chose to show, and tell the seat nothing it did not know.
"""
from __future__ import annotations

from typing import Optional

from .card import CARDS
from .errors import TakeBackRefusedError
from .game import Record, pending, replay, step
from .state import TAKE_BACK, Event, State, TakeBack

# The log events an answer that can be taken back may have: the seat's own moves between its
# hand, play, the Supply, the trash and its discard pile.
QUIET_EVENTS = ("play", "buy", "gain", "trash", "discard", "set_aside", "name")


def _kept(answers) -> list:
    """(position in ``answers``, entry) of each answer that stands (`kept_answers`)."""
    kept: list = []
    for position, entry in enumerate(answers):
        if entry[1].__class__ is TakeBack:
            kept.pop()
        else:
            kept.append((position, entry))
    return kept


def kept_answers(answers) -> tuple:
    """The answers of a record that stand: each take-back entry removes the answer before it
    that still stood (its seat's). ``answers``: (seat, answer) entries, as `State.answers`."""
    return tuple(entry for _, entry in _kept(answers))


def _events_start(state: State, position: int, made: int) -> int:
    """The index in ``state.log`` of the first event of the record's entry at ``position``,
    an answer that stands and made ``made`` events. Every entry after it was taken back, so
    the log after its events holds only those entries' events, each take-back's event last
    and naming where its answer's events began: read back from the log's end, each
    take-back jumps over the answer it took back and all between."""
    answers, log = state.answers, state.log
    end, q = len(log), len(answers) - 1
    while q > position:   # entry q is a take-back; r, the answer it took back
        depth, r = 0, q
        while True:
            depth += 1 if answers[r][1].__class__ is TakeBack else -1
            if depth == 0:
                break
            r -= 1
        end, q = log[end - 1].detail, r - 1
    return end - made


def reveals(before: State, after: State, seat: int) -> Optional[str]:
    """Why the answer of ``seat`` that led from ``before`` to ``after`` cannot be taken back
    (what it revealed or whom it involved), or None when it can: see the module's rule."""
    decision = pending(after)
    if decision is None:
        return "it ended the game"
    if decision.player != seat:
        return "the game went on to another seat"
    for i, (was, now) in enumerate(zip(before.players, after.players)):
        if i != seat and was != now:
            return "it changed another player's cards"
        if was.deck != now.deck or was.looking != now.looking:
            return "cards were drawn, revealed or looked at since"
    if after.rng != before.rng:
        return "something random happened since (a shuffle)"
    if after.hidden_passes != before.hidden_passes:
        return "a card was passed"
    for event in after.log[len(before.log):]:
        if event.player != seat or event.kind not in QUIET_EVENTS:
            return f"it revealed something ({event.kind.replace('_', ' ')})"
        if event.kind == "play" and any(CARDS[c].is_attack for c in event.cards if c in CARDS):
            return "it played an Attack (the others' hands answer to it)"
    return None


def _before(state: State, seat: int, previous: Optional[State] = None) -> tuple:
    """(the game as it was before ``seat``'s last standing answer, the index in the log of
    that answer's first event), when that answer can be taken back now; else
    TakeBackRefusedError saying why not. ``previous``: the state that answer was given in,
    when the caller has it (a server keeps it): used, once stepping it again is seen to give
    ``state``, instead of replaying the record."""
    decision = pending(state)
    if decision is None:
        raise TakeBackRefusedError("the game is over")
    if decision.player != seat:
        raise TakeBackRefusedError("the game waits for another seat: only the seat it waits "
                                   "for can take back its last answer")
    answers = state.answers
    # The last entry, when an answer, is the last that stands: most refusals end here,
    # without reading the whole record.
    last = answers[-1] if answers else None
    kept = [(len(answers) - 1, last)] if last is not None and \
        last[1].__class__ is not TakeBack else _kept(answers)
    if not kept:
        raise TakeBackRefusedError("there is no answer to take back")
    position, (who, answer) = kept[-1]
    if who != seat:
        raise TakeBackRefusedError(f"the last answer is seat {who}'s "
                                   f"({state.config.players[who]}), not yours to take back")
    if previous is not None and len(previous.answers) + 1 == len(state.answers) and \
            state.answers[-1][1].__class__ is not TakeBack and \
            (after := step(previous, answer, seat)) == state:
        before = previous
    else:
        before = replay(Record(state.config, kept_answers(answers)[:-1]))
        after = step(before, answer, seat)
    if after._replace(answers=state.answers, log=state.log) != state:
        raise TakeBackRefusedError("this game cannot be rebuilt from its record (a position "
                                   "built by hand is not a record), so nothing can be taken "
                                   "back")
    why = reveals(before, after, seat)
    if why is not None:
        raise TakeBackRefusedError(f"your last answer cannot be taken back: {why}")
    return before, _events_start(state, position, len(after.log) - len(before.log))


def take_back_refusal(state: State, seat: int, previous: Optional[State] = None) -> Optional[str]:
    """Why ``seat`` cannot take back its last answer now, or None when it can. ``previous``:
    the state before the game's last answer, if the caller has it (spares a replay)."""
    try:
        _before(state, seat, previous)
    except TakeBackRefusedError as e:
        return str(e)
    return None


def can_take_back(state: State, seat: int, previous: Optional[State] = None) -> bool:
    """Whether ``seat`` may take back its last answer now (`take_back_refusal` is None)."""
    return take_back_refusal(state, seat, previous) is None


def take_back(state: State, seat: int, previous: Optional[State] = None) -> State:
    """The game with ``seat``'s last answer taken back: the position before it, with the
    record and the log kept (see the module's doc); TakeBackRefusedError saying why not. The
    ``take_back`` event's ``detail`` is the index of the first log event of the answer taken
    back: a reader that counts from the log (`bots.knowledge.Holdings`) undoes what it
    counted from there on, except what an earlier take-back undid already.
    `step` calls it for a `TakeBack` entry; ``previous`` as for `take_back_refusal`."""
    before, start = _before(state, seat, previous)
    return before._replace(answers=state.answers.append((seat, TAKE_BACK)),
                           log=state.log.append(Event("take_back", seat, detail=start)))
