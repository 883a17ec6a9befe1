"""GetReplay: a finished game (or a record a caller gives) step by step, for the page's replay
viewer, which cannot run the engine itself.

A record from a caller is hostile input: its size is bounded, its config goes through the
engine's own checks (`dominion.make_config`) and every answer through `dominion.step`, so a
record that is not a game of this engine is refused with the answer that is wrong and nothing
is kept. Replays are rebuilt from checkpoints (every `CHECKPOINT` answers, for the few records
read last), so stepping through a game costs a few engine steps per call, not the whole game.
"""
from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Optional

import grpc

import dominion
from dominion_proto import dominion_pb2 as pb

from .convert import AnswerShapeError, answer_to_pb, verb_from_pb, view_to_pb
from .limits import MAX_NAME, ServiceError

MAX_REPLAY_ANSWERS = 10_000   # far more than a game takes; a whole replay costs ~80 µs an answer
CHECKPOINT = 64               # answers between kept states
CACHED_REPLAYS = 16           # records whose checkpoints are kept (least recently used out)
YIELD_EVERY = 200             # engine steps between letting other calls run
NEW_REPLAYS_PER_MINUTE = 60   # records one client may have replayed from the start a minute


def _invalid(message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, message)


class Replays:
    """Checkpoints of the records replayed last: record -> states after 0, CHECKPOINT,
    2*CHECKPOINT, ... answers (states are immutable values, so keeping them is safe)."""

    def __init__(self, capacity: int = CACHED_REPLAYS,
                 per_minute: int = NEW_REPLAYS_PER_MINUTE):
        self.capacity = capacity
        self.per_minute = per_minute
        self._checkpoints: OrderedDict = OrderedDict()
        self._started: dict = {}   # client address -> when its recent whole replays began

    async def state_at(self, record: dominion.Record, step: int,
                       client: str = "") -> dominion.State:
        points = self._checkpoints.get(record)
        if points is None:
            self._charge(client)
            points = await _checkpoints(record)
            self._checkpoints[record] = points
            while len(self._checkpoints) > self.capacity:
                self._checkpoints.popitem(last=False)
        self._checkpoints.move_to_end(record)
        state = points[step // CHECKPOINT]
        for seat, answer in record.answers[step - step % CHECKPOINT:step]:
            state = dominion.step(state, answer, seat)
        return state


    def _charge(self, client: str) -> None:
        """A whole replay costs what a game does: a client gets `per_minute` of them."""
        now = time.monotonic()
        recent = [t for t in self._started.get(client, ()) if now - t < 60]
        if len(recent) >= self.per_minute:
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                f"at most {self.per_minute} new replays a minute from one "
                                "client; try again shortly")
        self._started[client] = recent + [now]
        if len(self._started) > 10_000:   # forget idle clients
            self._started = {k: v for k, v in self._started.items() if v and now - v[-1] < 60}


async def _checkpoints(record: dominion.Record) -> list:
    """Replay the whole record once (every answer checked by the engine), keeping a state
    every CHECKPOINT answers."""
    try:
        state = dominion.new_game(record.config)
    except dominion.DominionError as e:
        raise _invalid(f"the record's game cannot be set up: {e}") from None
    points = [state]
    for number, (seat, answer) in enumerate(record.answers):
        if dominion.is_over(state):
            raise _invalid(f"the record has {len(record.answers)} answers but its game ended "
                           f"after {number}")
        try:
            state = dominion.step(state, answer, seat)
        except dominion.DominionError as e:
            raise _invalid(f"answer {number} of the record (seat {seat}) is not legal in this "
                           f"game: {e}") from None
        if (number + 1) % CHECKPOINT == 0:
            points.append(state)
        if number % YIELD_EVERY == YIELD_EVERY - 1:
            await asyncio.sleep(0)
    return points


def record_from_request(msg: pb.GetRecordResponse) -> dominion.Record:
    """The engine record a caller sends, its shape checked (the engine checks the rest)."""
    version = msg.engine_version
    if version and version != dominion.ENGINE_VERSION:
        raise _invalid(f"this record was made by engine version {version!r}; this server's "
                       f"engine is version {dominion.ENGINE_VERSION!r}, where the same answers "
                       "may be another game")
    if len(msg.answers) > MAX_REPLAY_ANSWERS:
        raise _invalid(f"a record holds at most {MAX_REPLAY_ANSWERS} answers, not "
                       f"{len(msg.answers)}")
    c = msg.config
    if any(len(name) > MAX_NAME for name in list(c.players) + list(c.kingdom) + list(msg.bots)):
        raise _invalid(f"names in a record are at most {MAX_NAME} characters")
    try:
        config = dominion.make_config(list(c.players), list(c.kingdom), seed=c.seed,
                                      first_player=c.first_player, always_ask=c.always_ask)
    except dominion.DominionError as e:
        raise _invalid(f"the record's config is not a game: {e}") from None
    answers = []
    for number, recorded in enumerate(msg.answers):
        answers.append((recorded.seat, _answer(recorded.answer, number)))
    return dominion.Record(config, tuple(answers))


def _answer(msg: pb.Answer, number: int):
    """An answer of a record: a move, or the cards or options it names (any list field: a
    `simulate --records` line does not say which; the engine judges them)."""
    field = msg.WhichOneof("value")
    if field == "move":
        try:
            verb = verb_from_pb(msg.move.verb)
        except AnswerShapeError as e:
            raise _invalid(f"answer {number} of the record: {e}") from None
        return dominion.Move(verb, msg.move.card or None)
    if field == "options":
        return tuple(msg.options.options)
    if field in ("cards", "order"):
        return tuple(getattr(msg, field).cards)
    if field == "take_back":
        return dominion.TAKE_BACK
    if field == "resign":
        return dominion.RESIGN
    raise _invalid(f"answer {number} of the record carries no value")


def final_decks(state: dominion.State) -> list:
    """Every seat's cards with the VP they give (public once the game is over)."""
    seats = dominion.inspect(state).seats
    return [pb.FinalDeck(seat=s, cards=[
        pb.CardCount(card=name, count=count, vp=vp) for name, count, vp in
        dominion.score_by_card(z.hand + z.deck + z.discard + z.in_play + z.aside + z.looking)])
        for s, z in enumerate(seats)]


async def get_replay(replays: Replays, request: pb.GetReplayRequest, game_record,
                     client: str = "") -> pb.GetReplayResponse:
    """The GetReplay RPC; refusals are `ServiceError` (and whatever ``game_record`` raises).
    ``game_record(game_id)`` (the service's) gives a finished game's record and the names of
    its seats' bots; ``client``: the caller's address, whose whole replays are counted."""
    source = request.WhichOneof("source")
    if source == "game_id":
        game_id = request.game_id
        record, bots = await game_record(request.game_id)
    elif source == "record":
        game_id = ""
        record = record_from_request(request.record)
        bots = tuple(request.record.bots)
        if len(bots) != len(record.config.players):
            bots = ("",) * len(record.config.players)
    else:
        raise _invalid("say which game to replay: GetReplayRequest.game_id or .record")
    players = len(record.config.players)
    seat: Optional[int] = request.seat if request.HasField("seat") else None
    if seat is not None and not 0 <= seat < players:
        raise _invalid(f"seat must be 0 to {players - 1} (or absent, for a spectator), "
                       f"not {seat}")
    steps = len(record.answers)
    step = min(request.step, steps)
    state = await replays.state_at(record, step, client)
    log_from = min(request.log_from, len(state.log))
    out = pb.GetReplayResponse(
        view=view_to_pb(game_id, state, seat, bots, log_from), step=step, steps=steps,
        log_length=len(state.log))
    if step < steps:
        answer_seat, answer = record.answers[step]
        kind = dominion.pending(state).kind
        out.next.CopyFrom(pb.RecordedAnswer(seat=answer_seat,
                                            answer=answer_to_pb(kind, answer, step)))
    elif dominion.is_over(state):
        out.decks.extend(final_decks(state))
    return out
