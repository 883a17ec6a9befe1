"""The streams: StreamEvents and Play (one seat or a spectator: `Streams.follow`), and PlaySeats
(many seats on one stream). A stream sleeps until something it follows changes (`Game.publish`
wakes every watcher), then sends what is new: events, the seat's decision with its view, what
the game waits for, the end, and for Play and PlaySeats each answer's outcome. Answers read
from a stream take the one path of `answers`."""
from __future__ import annotations

import asyncio
import logging
from typing import Optional

import grpc

import dominion
from dominion_proto import dominion_pb2 as pb

from .answers import Answering, Pending
from .convert import decision_to_bytes, events_to_bytes, view_to_bytes, waiting_to_bytes
from .limits import MAX_SEATS_BATCH, MAX_STREAM_SEATS, ServiceError
from .table import Game, abandoned_message
from .wire import (SEAT_UPDATE_REF, SEATS_UPDATES, UPDATE_ACCEPTED, UPDATE_DECISION,
                   UPDATE_GAME_OVER, UPDATE_REFUSED, UPDATE_WAITING,
                   YOUR_DECISION_DECISION, YOUR_DECISION_VIEW, field, varint)

log = logging.getLogger("dominion_service")

EVENT_BATCH = 256  # most events in one stream message
STOPPING = "the server is stopping; resume the stream from the next event once it is back"
# Flow control: what a stream holds for a client that sends answers but does not read their
# outcomes. Past this many (answers queued and outcomes not sent), the stream stops reading
# answers until the client reads; after `ServiceOptions.stream_stall_timeout` seconds so, it
# ends RESOURCE_EXHAUSTED. A PlaySeats message may add up to `MAX_SEATS_BATCH` on top.
PLAY_BACKLOG = 64
SEATS_BACKLOG = 1024
STALLED = ("the stream ended: you sent answers and did not read their outcomes for {:.0f} s "
           "(the server holds at most {} unsent for a stream); read the stream as you send")
# After a Play stream's game_over, how long it waits for the client to close its side, giving
# each answer that arrives meanwhile (sent before the client saw the end) its outcome.
END_GRACE = 5.0


class Undecodable:
    """Stands for request bytes that are not the method's message, so that the handler can
    refuse them with INVALID_ARGUMENT (a deserializer that raises gives UNKNOWN)."""

    __slots__ = ("type_name", "error")

    def __init__(self, type_name: str, error: str):
        self.type_name = type_name
        self.error = error

    def message(self) -> str:
        return (f"the request is not a valid {self.type_name} message ({self.error}); "
                "send the message the method takes, serialized")


class PlayStream:
    """What a Play stream's reading side tells its writing side: outcomes of answers to send,
    a malformed message that ends the stream, the client's end of sending."""

    __slots__ = ("wake", "outcomes", "fatal", "finished", "batched", "room", "applying")

    def __init__(self, batched: bool):
        self.batched = batched       # PlayStart.batched
        self.wake = asyncio.Event()
        self.room = asyncio.Event()  # set while fewer than PLAY_BACKLOG outcomes wait
        self.room.set()
        self.outcomes: list = []     # (sequence, None) applied, or (sequence, ServiceError)
        self.fatal: Optional[tuple] = None   # (status code, message) to end the stream with
        self.finished = False
        self.applying = False        # an answer read is being applied: its outcome is to come

    def set(self) -> None:   # a watcher of its game
        self.wake.set()

    def accept(self, sequence: int) -> None:
        self.refuse(sequence, None)

    def refuse(self, sequence: int, error: Optional[ServiceError]) -> None:
        self.outcomes.append((sequence, error))
        if len(self.outcomes) >= PLAY_BACKLOG:
            self.room.clear()
        self.wake.set()

    def fail(self, message: str) -> None:
        self.fatal = (grpc.StatusCode.INVALID_ARGUMENT, message)
        self.wake.set()

    def reading_done(self) -> None:
        self.finished = True
        self.wake.set()

    def must_send(self, state: dominion.State, seat: int, sent_decision) -> bool:
        """Batched: whether a message must go now (a new decision of the seat, a refusal, the
        end); everything else waits for it."""
        decision = dominion.pending(state)
        if decision is None or any(error is not None for _, error in self.outcomes):
            return True
        return decision.player == seat and dominion.decision_number(state) != sent_decision

    def outcome(self, update):
        """Put the oldest outcome not sent yet into ``update`` (a PlayResponse)."""
        if self.outcomes:
            sequence, error = self.outcomes.pop(0)
            if len(self.outcomes) < PLAY_BACKLOG:
                self.room.set()
            if error is None:
                update.accepted = sequence
            else:
                update.refused.sequence = sequence
                update.refused.code = error.code.value[0]
                update.refused.message = error.message
        return update


class _Watcher:
    """A StreamEvents stream's wake-up, as a watcher of its game."""

    __slots__ = ("wake",)

    def __init__(self):
        self.wake = asyncio.Event()

    def set(self) -> None:
        self.wake.set()


class SeatsStream:
    """A PlaySeats stream's shared parts: its seats by ref, those with something new to send
    (`dirty`, in the order marked), updates not tied to a seat in play (`extra`), and what
    ends it."""

    __slots__ = ("wake", "seats", "dirty", "extra", "fatal", "finished", "busy", "backlog",
                 "room")

    def __init__(self):
        self.wake = asyncio.Event()
        self.backlog = 0             # answers queued or outcomes (and `extra`) not sent
        self.room = asyncio.Event()  # set while `backlog` is under SEATS_BACKLOG
        self.room.set()
        self.seats: dict = {}        # ref -> SeatPlay
        self.dirty: dict = {}        # SeatPlay -> None, an ordered set
        self.extra: list = []        # SeatUpdate: closed seats, answers for no seat
        self.fatal: Optional[tuple] = None
        self.finished = False        # the client closed its side (or went away)
        self.busy = 0                # seats whose answers are being applied

    def fail(self, message: str) -> None:
        self.fatal = (grpc.StatusCode.INVALID_ARGUMENT, message)
        self.wake.set()

    def hold(self, n: int = 1) -> None:
        """``n`` more answers queued or updates to send (`backlog`)."""
        self.backlog += n
        if self.backlog >= SEATS_BACKLOG:
            self.room.clear()

    def sent(self, n: int) -> None:
        """``n`` of the backlog went out."""
        self.backlog -= n
        if self.backlog < SEATS_BACKLOG:
            self.room.set()

    def add_extra(self, update: pb.SeatUpdate) -> None:
        self.extra.append(update)
        self.hold()
        self.wake.set()


async def wait_for_room(room: asyncio.Event, timeout: float, limit: int, context) -> bool:
    """Wait until the stream has room for more answers (its client reads); after ``timeout``
    seconds end it RESOURCE_EXHAUSTED (from the reading side: the writing side may be
    blocked on a client that does not read) and return False."""
    if room.is_set():
        return True
    try:
        await asyncio.wait_for(room.wait(), timeout)
        return True
    except asyncio.TimeoutError:
        pass
    try:
        await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, STALLED.format(timeout, limit))
    except Exception:   # the abort's own exception: the call is over
        pass
    return False


class SeatPlay:
    """One seat on a PlaySeats stream: where its updates stand, its answers waiting to be
    applied, and their outcomes. A watcher of its game (`Game.publish` calls `set`)."""

    __slots__ = ("stream", "ref", "game", "seat", "cursor", "batched", "sent_decision",
                 "sent_waiting", "outcomes", "queue", "busy")

    def __init__(self, stream: SeatsStream, ref: int, game: Game, seat: int, cursor: int,
                 batched: bool):
        self.stream = stream
        self.ref = ref
        self.game = game
        self.seat = seat
        self.cursor = cursor
        self.batched = batched
        self.sent_decision = self.sent_waiting = None
        self.outcomes: list = []     # (sequence, None) applied, or (sequence, ServiceError)
        self.queue: list = []        # answers not applied yet
        self.busy = False            # a task is applying `queue`

    def set(self) -> None:
        """Something may be new for this seat: mark it for the stream's next message."""
        stream = self.stream
        stream.dirty[self] = None
        stream.wake.set()

    def outcome(self, sequence: int, error: Optional[ServiceError]) -> None:
        self.outcomes.append((sequence, error))
        self.set()


class Streams:
    """The streams of one service: ``lookup`` finds a game by id for a stream to start from
    (as the RPCs do: caught up with the database when servers share it), answers go through
    ``answering``, and ``stopping`` ends every stream UNAVAILABLE. Servers sharing a database:
    ``fresh_many`` catches up the games of many seats added at once, all together, and then
    ``find`` (no catching up again) finds each; a seat whose game could not be caught up is
    refused with the reason (`_found`)."""

    def __init__(self, lookup, answering: Answering, stopping: asyncio.Event,
                 stall_timeout: float = 60.0, fresh_many=None, find=None):
        self.lookup = lookup
        self.fresh_many = fresh_many
        self.find = find
        self.stall_timeout = stall_timeout
        self.answering = answering
        self.stopping = stopping
        self.seat_streams: set = set()   # open PlaySeats streams, woken at shutdown
        self._tasks: set = set()   # PlaySeats answer tasks (held: asyncio keeps weak refs)

    def wake_all(self, games) -> None:
        """Shutdown: every open stream wakes up and sees ``stopping``."""
        for game in games:
            game.publish(game.state)
        for stream in self.seat_streams:   # also those that play no seat now
            stream.wake.set()

    # --- StreamEvents and Play --------------------------------------------------------------

    async def follow(self, game: Game, seat: Optional[int], cursor: int, context, message,
                     play: Optional[PlayStream] = None, chat_from: Optional[int] = None):
        """The updates of StreamEvents and Play (``message``: their response class, whose
        first fields are alike): new events, the seat's decision with its view, what the game
        waits for, and the end; for Play also each answer's outcome; for StreamEvents the chat
        lines from ``chat_from`` on (None: none). Sleeps until woken: by every change of the
        game, a chat line, at shutdown, and by Play's reader."""
        watcher = play if play is not None else _Watcher()
        wake = watcher.wake
        game.watchers.add(watcher)
        try:
            sent_decision = sent_waiting = None
            names = game.state.config.players
            while True:
                wake.clear()
                # Checked after every wake-up is cleared: a wake-up at shutdown is never lost.
                if self.stopping.is_set():
                    await context.abort(grpc.StatusCode.UNAVAILABLE, STOPPING)
                if play is not None and play.fatal is not None:
                    await context.abort(*play.fatal)
                if game.abandoned:
                    await context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                                        abandoned_message(game))
                state = game.state
                if state.config.players is not names:   # a seat taken with a new name
                    names, sent_waiting = state.config.players, None   # (JoinGame): said again
                if play is not None and play.applying and dominion.pending(state) is None:
                    await wake.wait()   # the outcome of an answer in flight goes before the end
                    continue
                if play is not None and play.batched and not play.must_send(state, seat,
                                                                            sent_decision):
                    if play.finished:
                        return
                    if game.state is state and not wake.is_set():
                        await wake.wait()
                    if self.stopping.is_set():
                        await context.abort(grpc.StatusCode.UNAVAILABLE, STOPPING)
                    continue
                events = state.log
                # A long backlog goes out in slices, letting other calls run between them.
                while len(events) - cursor > EVENT_BATCH:
                    update = message()
                    update.MergeFromString(events_to_bytes(
                        events, cursor, cursor + EVENT_BATCH, seat, names, game.wire_events))
                    yield update
                    cursor += EVENT_BATCH
                update = message()
                if cursor < len(events):
                    update.MergeFromString(events_to_bytes(events, cursor, len(events), seat,
                                                           names, game.wire_events))
                cursor = len(events)
                if chat_from is not None:
                    lines = game.chat.since(chat_from)
                    if lines:
                        update.chat.extend(lines)
                        chat_from = lines[-1].index + 1
                decision = dominion.pending(state)
                number = dominion.decision_number(state)
                if decision is None:
                    if play is not None:   # outcomes first; the end is the last message
                        while len(play.outcomes) > 1:
                            yield play.outcome(message())
                        play.outcome(update)
                    update.game_over.scores.extend(dominion.score(state))
                    update.game_over.winners.extend(dominion.winners(state))
                    yield update
                    if play is not None:
                        async for late in self._late_outcomes(play, message):
                            yield late
                    return
                if seat is not None and decision.player == seat and number != sent_decision:
                    sent_decision = number
                    wire = decision_to_bytes(decision, number)
                    update.MergeFromString(field(UPDATE_DECISION, field(
                        YOUR_DECISION_DECISION, wire) + field(YOUR_DECISION_VIEW, view_to_bytes(
                            game.id, state, seat, game.bot_names, wire,
                            can_undo=game.can_undo(state, seat)))))
                waiting = (dominion.public_decision(decision, names,
                                                    len(state.players[decision.player].hand)),
                           game.planning)
                if waiting != sent_waiting:
                    sent_waiting = waiting
                    update.MergeFromString(field(UPDATE_WAITING, waiting_to_bytes(*waiting)))
                if play is not None:
                    play.outcome(update)
                if update.ListFields():
                    yield update
                if play is not None:
                    if play.outcomes:
                        continue
                    if play.finished:   # the client closed its side; every outcome is sent
                        return
                if game.state is state and not wake.is_set():
                    await wake.wait()   # set by every change, and at shutdown
                if self.stopping.is_set():
                    await context.abort(grpc.StatusCode.UNAVAILABLE, STOPPING)
        finally:
            game.watchers.discard(watcher)

    async def _late_outcomes(self, play: PlayStream, message):
        """After a Play stream's end was sent: the outcome of each answer read until the
        client closes its side (its answers sent before it saw the end), for `END_GRACE`
        seconds at most, or until the server stops. Every answer read gets exactly one
        outcome."""
        deadline = asyncio.get_running_loop().time() + END_GRACE
        while True:
            play.wake.clear()
            while play.outcomes:
                yield play.outcome(message())
            if (play.finished and not play.applying) or self.stopping.is_set():
                return
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(play.wake.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def read_answers(self, requests, game: Game, seat: int, play: PlayStream, context):
        """Play's reading side: applies each answer (`Answering.apply`), and hands its outcome
        to the writing side (`follow`). A malformed message ends the stream; so does a client
        that does not read (flow control: `PLAY_BACKLOG`)."""
        try:
            while await wait_for_room(play.room, self.stall_timeout, PLAY_BACKLOG, context):
                try:
                    request = await requests.__anext__()
                except StopAsyncIteration:
                    break
                if isinstance(request, Undecodable):
                    return play.fail(request.message())
                kind = request.WhichOneof("kind")
                if kind != "answer":
                    return play.fail(
                        "this stream is started already: send PlayRequest.answer messages"
                        if kind == "start" else
                        "the message is empty: send PlayRequest.answer (or start, first)")
                sequence = request.answer.sequence
                item = Pending(game, seat, request.answer, lambda: play.accept(sequence))
                play.applying = True
                try:
                    # Shielded: a client hanging up must not leave a stored answer unapplied.
                    await asyncio.shield(self.answering.apply([item]))
                finally:
                    play.applying = False
                    play.wake.set()
                if item.error is not None:
                    play.refuse(sequence, item.error)
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away mid-read: the call is over anyway
            log.debug("game %s: a Play stream stopped reading", game.id, exc_info=True)
        finally:
            play.reading_done()

    # --- PlaySeats --------------------------------------------------------------------------

    async def play_seats(self, requests, context):
        """Many seats on one stream (`SeatsStream`): the reader adds seats and starts their
        answers; this writer sends, in one message, the updates of every seat marked since
        the last one, built serialized (the handler's serializer passes bytes through)."""
        stream = SeatsStream()
        self.seat_streams.add(stream)
        reader = asyncio.ensure_future(self._read_seats(requests, stream, context))
        try:
            while True:
                stream.wake.clear()
                if stream.fatal is not None:
                    await context.abort(*stream.fatal)
                if self.stopping.is_set():
                    await context.abort(grpc.StatusCode.UNAVAILABLE, STOPPING)
                out = [field(SEATS_UPDATES, u.SerializeToString()) for u in stream.extra]
                stream.sent(len(stream.extra))
                stream.extra = []
                dirty, stream.dirty = stream.dirty, {}
                closing = stream.finished and not stream.busy
                seats = stream.seats
                for sp in dirty:
                    if seats.get(sp.ref) is sp and seat_updates(sp, out, closing):
                        del seats[sp.ref]
                        sp.game.watchers.discard(sp)
                if out:
                    yield b"".join(out)
                if closing and not stream.extra:
                    if not any(sp.outcomes for sp in seats.values()):
                        return
                    stream.dirty = dict.fromkeys(sp for sp in seats.values() if sp.outcomes)
                    continue
                if not stream.dirty and not stream.extra and not stream.wake.is_set():
                    await stream.wake.wait()
        finally:
            reader.cancel()
            self.seat_streams.discard(stream)
            for sp in stream.seats.values():
                sp.game.watchers.discard(sp)

    async def _read_seats(self, requests, stream: SeatsStream, context) -> None:
        """PlaySeats' reading side: adds seats, and queues each answer on its seat. The first
        answers of the seats a message wakes are applied together (`_seats_answers`), each
        seat's next ones in order by a task of its own (`_seat_answers`), while other seats'
        go on. A malformed message ends the stream."""
        starting: list = []   # seats whose answers are to be applied, none being applied
        try:
            while await wait_for_room(stream.room, self.stall_timeout, SEATS_BACKLOG, context):
                try:
                    request = await requests.__anext__()
                except StopAsyncIteration:
                    break
                if isinstance(request, Undecodable):
                    return stream.fail(request.message())
                entries = len(request.add) + len(request.answers)
                if not entries:
                    return stream.fail("the message is empty: send PlaySeatsRequest.add or "
                                       "answers")
                if entries > MAX_SEATS_BATCH:
                    return stream.fail(f"at most {MAX_SEATS_BATCH} adds and answers in one "
                                       f"message, not {entries}")
                lookup = self.lookup
                if self.fresh_many is not None and len(request.add) > 1:
                    lookup = self._found(await self.fresh_many(
                        [start.game_id for start in request.add]))
                for start in request.add:
                    if start.ref in stream.seats:
                        return stream.fail(f"ref {start.ref} is in use by a seat of this stream "
                                           "(until its game_over or closed is sent)")
                    await self._add_seat(stream, start, lookup)
                for item in request.answers:
                    sp = stream.seats.get(item.ref)
                    if sp is None:
                        stream.add_extra(pb.SeatUpdate(ref=item.ref, refused=pb.Refusal(
                            sequence=item.answer.sequence,
                            code=grpc.StatusCode.FAILED_PRECONDITION.value[0],
                            message=f"ref {item.ref} names no seat on this stream: add it "
                                    "with PlaySeatsRequest.add first (a seat leaves the stream "
                                    "once its game_over or closed is sent)")))
                        continue
                    sp.queue.append(item.answer)
                    stream.hold()
                    if not sp.busy:
                        sp.busy = True
                        stream.busy += 1
                        starting.append(sp)
                if starting:
                    self._spawn(self._seats_answers(starting, stream))
                    starting = []
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away mid-read: the call is over anyway
            log.debug("a PlaySeats stream stopped reading", exc_info=True)
        finally:
            if starting:   # marked busy: they get their outcomes
                self._spawn(self._seats_answers(starting, stream))
            stream.finished = True
            stream.wake.set()

    def _found(self, failed: dict):
        """The lookup of the games `fresh_many` has just caught up: ``find`` (no catching up
        again), or the refusal of a game it could not catch up (``failed``, by id)."""
        async def lookup(game_id: str) -> Game:
            error = failed.get(game_id)
            if error is not None:
                raise error
            return await self.find(game_id)
        return lookup

    async def _add_seat(self, stream: SeatsStream, start, lookup) -> None:
        """Put a seat on the stream, or refuse it alone (SeatUpdate.closed), as Play would."""
        try:
            if len(stream.seats) >= MAX_STREAM_SEATS:
                raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                   f"this stream plays its maximum of {MAX_STREAM_SEATS} seats; "
                                   "add more after some have ended, or on another stream")
            game = await lookup(start.game_id)
            if not start.token:
                raise ServiceError(grpc.StatusCode.UNAUTHENTICATED,
                                   "SeatStart.token is required: the seat token from "
                                   "CreateGame")
            seat = game.seat_of_token(start.token)
            if seat is None:
                raise ServiceError(grpc.StatusCode.PERMISSION_DENIED,
                                   f"this seat token belongs to no seat of game {game.id}")
            check_from_event(game, start.from_event)
        except ServiceError as e:
            stream.add_extra(pb.SeatUpdate(ref=start.ref, closed=pb.SeatClosed(
                code=e.code.value[0], message=e.message)))
            return
        sp = SeatPlay(stream, start.ref, game, seat, start.from_event, start.batched)
        stream.seats[start.ref] = sp
        game.watchers.add(sp)
        sp.set()

    def _spawn(self, coroutine) -> None:
        """Run ``coroutine`` as a task that is held (asyncio keeps weak references) and never
        cancelled by a stream: an answer stored is applied even when the client has gone."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _seats_answers(self, sps: list, stream: SeatsStream) -> None:
        """Apply the first queued answer of each seat in ``sps`` (seats marked busy, in the
        order their answers came) in one `Answering.apply`; then each seat's next answers
        (`_seat_answers`)."""
        items = []
        try:
            for sp in sps:
                answer = sp.queue.pop(0)
                sequence = answer.sequence
                items.append((sp, sequence, Pending(
                    sp.game, sp.seat, answer,
                    lambda sp=sp, sequence=sequence: sp.outcome(sequence, None))))
            await self.answering.apply([item for _, _, item in items])
            for sp, sequence, item in items:
                if item.error is not None:
                    sp.outcome(sequence, item.error)
        finally:
            for sp in sps:
                if sp.queue:
                    self._spawn(self._seat_answers(sp, stream))
                else:
                    _idle(sp, stream)

    async def _seat_answers(self, sp: SeatPlay, stream: SeatsStream) -> None:
        """Apply a PlaySeats seat's queued answers in order. Never cancelled: an answer
        stored is applied even when the client has gone."""
        try:
            while sp.queue:
                answer = sp.queue.pop(0)
                sequence = answer.sequence
                item = Pending(sp.game, sp.seat, answer, lambda: sp.outcome(sequence, None))
                await self.answering.apply([item])
                if item.error is not None:
                    sp.outcome(sequence, item.error)
        finally:
            _idle(sp, stream)


def _idle(sp: SeatPlay, stream: SeatsStream) -> None:
    """A seat's answers are all applied: its end (if it came) may be sent."""
    sp.busy = False
    stream.busy -= 1
    sp.set()


def check_from_event(game: Game, from_event: int) -> None:
    if from_event > len(game.state.log):
        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                           f"from_event {from_event} is past the log's end "
                           f"({len(game.state.log)} events)")


def _outcome_bytes(outcome: tuple) -> bytes:
    """An answer's outcome, (sequence, None) or (sequence, ServiceError), as SeatUpdate's
    `accepted` or `refused` field, serialized."""
    sequence, error = outcome
    if error is None:
        return UPDATE_ACCEPTED + varint(sequence)
    return field(UPDATE_REFUSED, pb.Refusal(sequence=sequence, code=error.code.value[0],
                                            message=error.message).SerializeToString())


def seat_updates(sp: SeatPlay, out: list, flush: bool = False) -> bool:
    """`_seat_updates`, counting the outcomes it sends off the stream's backlog."""
    before = len(sp.outcomes)
    try:
        return _seat_updates(sp, out, flush)
    finally:
        sp.stream.sent(before - len(sp.outcomes))


def _seat_updates(sp: SeatPlay, out: list, flush: bool = False) -> bool:
    """Add to ``out`` what a PlaySeats seat has new, as Play's `follow` sends it: serialized
    SeatUpdates, each as an `updates` entry of PlaySeatsResponse, so that the response is
    their concatenation. True when the seat's last update (the game's end) is among them.
    ``flush``: send held outcomes even when batched (the client closed its side). An update
    holds the new events, then the decision with the view, `waiting` and the oldest outcome
    not sent; each further outcome comes in an update of its own."""
    game = sp.game
    if game.abandoned:   # closed once its answers are refused (their outcomes not sent)
        if sp.busy:
            return False
        sp.outcomes.clear()
        out.append(field(SEATS_UPDATES, pb.SeatUpdate(ref=sp.ref, closed=pb.SeatClosed(
            code=grpc.StatusCode.FAILED_PRECONDITION.value[0],
            message=abandoned_message(game))).SerializeToString()))
        return True
    state = game.state
    seat = sp.seat
    decision = dominion.pending(state)
    number = dominion.decision_number(state)
    outcomes = sp.outcomes
    if sp.batched and not flush and decision is not None:
        if not ((decision.player == seat and number != sp.sent_decision) or
                any(error is not None for _, error in outcomes)):
            return False
    ref = SEAT_UPDATE_REF + varint(sp.ref)   # SeatUpdate.ref, ending each update
    events = state.log
    names = state.config.players
    cursor = sp.cursor
    while len(events) - cursor > EVENT_BATCH:
        out.append(field(SEATS_UPDATES, events_to_bytes(
            events, cursor, cursor + EVENT_BATCH, seat, names, game.wire_events) + ref))
        cursor += EVENT_BATCH
    parts = []
    if cursor < len(events):
        parts.append(events_to_bytes(events, cursor, len(events), seat, names,
                                     game.wire_events))
    sp.cursor = len(events)
    if decision is None:
        if outcomes:
            parts.append(_outcome_bytes(outcomes.pop(0)))
        more = [field(SEATS_UPDATES, _outcome_bytes(o) + ref) for o in outcomes]
        outcomes.clear()
        if sp.busy or more:
            if parts:
                out.append(field(SEATS_UPDATES, b"".join(parts) + ref))
            out.extend(more)
            if sp.busy:   # answers still being applied: the end comes after their outcomes
                return False
            parts = []
        parts.append(field(UPDATE_GAME_OVER, pb.GameOver(scores=dominion.score(state),
                                                         winners=dominion.winners(state))
                           .SerializeToString()))
        out.append(field(SEATS_UPDATES, b"".join(parts) + ref))
        return True
    if decision.player == seat and number != sp.sent_decision:
        sp.sent_decision = number
        wire = decision_to_bytes(decision, number)
        view = dominion.view(state, seat)
        parts.append(field(UPDATE_DECISION, field(YOUR_DECISION_DECISION, wire) + field(
            YOUR_DECISION_VIEW, view_to_bytes(game.id, state, seat, game.bot_names, wire,
                                              view, game.can_undo(state, seat)))))
        waiting = (view.waiting, game.planning)
    else:
        waiting = (dominion.public_decision(decision, names,
                                            len(state.players[decision.player].hand)),
                   game.planning)
    if waiting != sp.sent_waiting:
        sp.sent_waiting = waiting
        parts.append(field(UPDATE_WAITING, waiting_to_bytes(*waiting)))
    if outcomes:
        parts.append(_outcome_bytes(outcomes.pop(0)))
    if parts:
        out.append(field(SEATS_UPDATES, b"".join(parts) + ref))
    if outcomes:
        out.extend(field(SEATS_UPDATES, _outcome_bytes(o) + ref) for o in outcomes)
        outcomes.clear()
    return False
