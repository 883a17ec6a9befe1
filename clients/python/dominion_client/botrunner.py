"""Play one seat over the network with a built-in bot: ``dominion bot`` and the benchmark."""
from __future__ import annotations

import asyncio
import time
from typing import Optional

import grpc

import dominion.bots

from .client import AnswerRefused, DecisionTracker, GameResult, PlayStreamEnded, Seat


# What a call sees while the server stops, restarts or is briefly away: the call is retried
# (the stream resumes where it broke; an answer is resent with its sequence number, so it is
# never applied twice), on the next server when the client has several (`Client.failover`).
# Anything else is the server refusing the request, and final.
RETRIED = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED,
           grpc.StatusCode.DEADLINE_EXCEEDED)
_ABORTED = grpc.StatusCode.ABORTED.value[0]
RECONNECT_FOR = 30.0   # seconds a bot runner keeps trying a server that broke


class Reconnects:
    """The one reconnect policy of the bot runners: a broken connection or a server that
    cannot serve for now (`RETRIED`: stopping, its database away) is tried again after 0.1 s,
    then twice as long each time up to 2 s (a database restart takes seconds), for up to
    ``seconds`` since it last worked; any other error, or one past that time, is raised."""
    DELAY = 0.1
    MAX_DELAY = 2.0

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.broken_since: Optional[float] = None
        self.tries = 0

    def working(self) -> None:
        self.broken_since = None
        self.tries = 0

    def delay_after(self, error: grpc.RpcError, client=None, used: int = 0) -> float:
        """Seconds to wait before reconnecting after ``error``; raises it when not to. With
        the ``client`` whose server ``used`` (its `servers.current` when the call began)
        broke, moves it to its next server, if it has several."""
        if error.code() not in RETRIED:
            raise error
        self.broken_since = self.broken_since or time.monotonic()
        if time.monotonic() - self.broken_since > self.seconds:
            raise error
        if client is not None and client.failover(used):
            return 0.0   # another server: at once
        self.tries += 1
        return min(self.DELAY * 2 ** (self.tries - 1), self.MAX_DELAY)


def play_seat(seat: Seat, bot, reconnect_for: float = RECONNECT_FOR) -> GameResult:
    """Answer every decision of ``seat`` with ``bot`` (``bot.answer(decision, view)``, see
    `dominion.bots`) until the game ends; returns the scores and winners.

    When the server goes away or restarts (a call ends UNAVAILABLE, CANCELLED, ...: `RETRIED`),
    reconnects for up to ``reconnect_for`` seconds (to the next server, when the seat's client
    has several) and resumes the stream where it broke: the
    pending decision comes again, with the same sequence number, if the answer in flight was
    lost. An answer refused as stale (ABORTED) was already applied, and is skipped.

    Plays on a batched Play stream (`Seat.decisions`): one message each way per decision."""
    reconnects = Reconnects(reconnect_for)
    while True:
        used = seat.client.servers.current
        try:
            for pending in seat.decisions(batched=True):
                reconnects.working()
                try:
                    seat.answer(pending, bot.answer(pending.decision, pending.view))
                except grpc.RpcError as e:
                    if e.code() != grpc.StatusCode.ABORTED:
                        raise
            return seat.result
        except grpc.RpcError as e:
            time.sleep(reconnects.delay_after(e, seat.client, used))


async def play_seat_async(seat, bot, reconnect_for: float = RECONNECT_FOR) -> GameResult:
    """`play_seat` for an `aio.AsyncSeat`: many seats play in one thread."""
    reconnects = Reconnects(reconnect_for)
    while True:
        used = seat.client.servers.current
        try:
            async for pending in seat.decisions(batched=True):
                reconnects.working()
                try:
                    await seat.answer(pending, bot.answer(pending.decision, pending.view))
                except grpc.RpcError as e:
                    if e.code() != grpc.StatusCode.ABORTED:
                        raise
            return seat.result
        except grpc.RpcError as e:
            await asyncio.sleep(reconnects.delay_after(e, seat.client, used))


class _Playing:
    """A seat `play_seats_async` plays: where its log stands (for `DecisionTracker`) and its
    result."""

    def __init__(self, game_id: str, token: str, bot):
        self.game_id = game_id
        self.token = token
        self.bot = bot
        self.next_event = 0
        self.result: Optional[GameResult] = None


async def play_seats_async(client, seats, reconnect_for: float = RECONNECT_FOR) -> list:
    """Play many seats with their bots on one PlaySeats stream of ``client`` (an
    `aio.AsyncClient`); ``seats``: (game_id, token, bot) each. Returns each seat's
    `GameResult`, in order. Every message read is answered at once: the answers of all the
    seats it asks go back in one message. After a broken stream (`RETRIED`), the seats not
    over are added again on a new one, each from its first event not received, for up to
    ``reconnect_for`` seconds (`Reconnects`); so after an answer or a seat refused for now
    (`RETRIED`: its database away). An answer whose outcome was lost is not resent (its
    decision comes again if it was not applied). Any other refusal than ABORTED, or a seat
    the server will not play, raises (`AnswerRefused`, `aio.SeatClosed`)."""
    from .aio import SeatClosed, SeatsStream

    playing = [_Playing(game_id, token, bot) for game_id, token, bot in seats]
    trackers = {ref: DecisionTracker(p) for ref, p in enumerate(playing)}
    reconnects = Reconnects(reconnect_for)
    while True:
        left = {ref: p for ref, p in enumerate(playing) if p.result is None}
        if not left:
            return [p.result for p in playing]
        used = client.servers.current
        stream = SeatsStream(client)
        try:
            for ref, p in left.items():
                trackers[ref] = DecisionTracker(p)
                stream.add(ref, p.game_id, p.token, p.next_event)
            await stream.flush()
            while left:
                response = await stream.read()
                if response is None:
                    raise PlayStreamEnded()
                for update in response.updates:
                    ref = update.ref
                    if update.HasField("closed"):
                        raise SeatClosed(update.closed)
                    if update.HasField("refused") and update.refused.code != _ABORTED:
                        raise AnswerRefused(update.refused)
                    pending = trackers[ref].read(update)
                    p = left.get(ref)
                    if p is None:
                        continue
                    if pending is not None:
                        stream.answer(ref, pending.message.decision,
                                      p.bot.answer(pending.decision, pending.view))
                    if p.result is not None:
                        del left[ref]
                reconnects.working()   # a message with no seat refused for now
                await stream.flush()
            await stream.close()
        except grpc.RpcError as e:
            await asyncio.sleep(reconnects.delay_after(e, client, used))
        finally:
            stream.cancel()


def play_seat_with(seat: Seat, bot_name: str, seed: int = 0) -> GameResult:
    """`play_seat` with a built-in bot by name (`dominion.bots.bot_names()`)."""
    return play_seat(seat, dominion.bots.make_bot(bot_name, seed))
