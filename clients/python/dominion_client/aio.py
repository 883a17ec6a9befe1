"""The client on asyncio (``grpc.aio``): many seats in one thread, without a thread per seat or
per stream: each on its Play stream (`AsyncSeat`), or all on one PlaySeats stream
(`SeatsStream`, and `botrunner.play_seats_async` for bots: the fastest way for one process to
play many seats, as the benchmark does). `client.Seat` is the same for code that is not
asynchronous.

    async with AsyncClient("127.0.0.1:50051") as client:
        seat = client.seat(game_id, token)
        async for pending in seat.decisions():
            await seat.answer(pending, bot.answer(pending.decision, pending.view))
"""
from __future__ import annotations

import asyncio
from typing import AsyncIterator, Optional

import grpc

from dominion_proto import dominion_pb2 as pb

from .client import (_STATUS, CHANNEL_OPTIONS, SEPARATE, TOKEN_METADATA, AnswerRefused,
                     DecisionTracker, GameResult, PendingDecision, PlayStreamEnded, Servers,
                     channel_args, server_addresses)
from .convert import answer_to_pb


class AsyncClient:
    """A connection to a server, or to one of several that serve the same games (as
    `client.Client`), for coroutines of one event loop."""

    def __init__(self, target, ca_file: Optional[str] = None):
        for address in server_addresses(target):
            channel_args(address, ca_file)   # a bad address or CA file: ValueError now

        def open_channel(address: str, separate: bool = False):
            address, credentials = channel_args(address, ca_file)
            options = CHANNEL_OPTIONS + (SEPARATE if separate else ())
            return (grpc.aio.insecure_channel(address, options=options)
                    if credentials is None else
                    grpc.aio.secure_channel(address, credentials, options=options))
        self.servers = Servers(target, open_channel)

    @property
    def target(self) -> str:
        return self.servers.addresses[self.servers.current]

    @property
    def channel(self):
        return self.servers.channel()

    @property
    def stub(self):
        return self.servers.stub()

    def failover(self, used: int) -> bool:
        return self.servers.failover(used)

    async def wait_ready(self, timeout: float) -> None:
        """Until a server accepts calls (asyncio.TimeoutError after ``timeout`` seconds); with
        several, the first of them to accept becomes the current one."""
        servers = self.servers
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for index in range(len(servers.addresses)):
                try:
                    await asyncio.wait_for(servers.channel(index).channel_ready(),
                                           min(0.2, timeout))
                    servers.current = index
                    return
                except asyncio.TimeoutError:
                    if asyncio.get_running_loop().time() > deadline:
                        raise

    async def close(self) -> None:
        for channel in self.servers.channels():
            await channel.close()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    def seat(self, game_id: str, token: str) -> "AsyncSeat":
        return AsyncSeat(self, game_id, token)


class AsyncSeat:
    """One seat of one game, played on a Play stream (as `client.Seat.decisions`)."""

    def __init__(self, client: AsyncClient, game_id: str, token: str):
        self.client = client
        self.game_id = game_id
        self.metadata = ((TOKEN_METADATA, token),)
        self.next_event = 0     # index of the first event no stream has delivered yet
        self.result: Optional[GameResult] = None
        self._call = None
        self._unread: list = []

    async def decisions(self, on_event=None, batched: bool = True) -> \
            AsyncIterator[PendingDecision]:
        """My decisions until the game ends (then `result` is set), from where the last
        stream stopped. ``batched`` (the default here, for bots): PlayStart.batched, one
        message per decision."""
        stub, ended = self.client.servers.stream_stub()
        call = self._call = stub.Play(metadata=self.metadata)
        call.add_done_callback(ended)
        self._unread = []
        tracker = DecisionTracker(self, on_event)
        try:
            await call.write(pb.PlayRequest(start=pb.PlayStart(
                game_id=self.game_id, from_event=self.next_event, batched=batched)))
            while True:
                update = self._unread.pop(0) if self._unread else await call.read()
                if update is grpc.aio.EOF:
                    return
                pending = tracker.read(update)
                if pending is not None:
                    yield pending
                if self.result is not None:
                    return
        finally:
            if self._call is call:
                self._call = None
            call.cancel()

    async def answer(self, pending: PendingDecision, answer) -> None:
        """Answer ``pending`` (from `decisions`, whose stream must be open) with an
        engine-shaped answer. Returns once the server applied it (the message that says so
        is kept for `decisions`); raises `AnswerRefused` (a grpc.RpcError) when it refused it
        (nothing changed)."""
        if self._call is None:
            raise RuntimeError("answer a decision while its decisions() stream is open")
        decision = pending.message.decision
        sequence = decision.sequence
        await self._call.write(pb.PlayRequest(
            answer=answer_to_pb(decision.WhichOneof("kind"), answer, sequence)))
        while True:
            update = await self._call.read()
            if update is grpc.aio.EOF:
                raise PlayStreamEnded()
            self._unread.append(update)
            if update.HasField("accepted") and update.accepted == sequence:
                return
            if update.HasField("refused") and update.refused.sequence == sequence:
                raise AnswerRefused(update.refused)


class SeatClosed(grpc.RpcError):
    """A seat the server would not play on a PlaySeats stream (SeatUpdate.closed): the status
    its Play stream would have ended with (PERMISSION_DENIED for a wrong token, ...)."""

    def __init__(self, closed: pb.SeatClosed):
        super().__init__(f"{_STATUS.get(closed.code, grpc.StatusCode.UNKNOWN).name}: "
                         f"{closed.message}")
        self.closed = closed

    def code(self) -> grpc.StatusCode:
        return _STATUS.get(self.closed.code, grpc.StatusCode.UNKNOWN)

    def details(self) -> str:
        return self.closed.message


class SeatsStream:
    """One PlaySeats stream: many seats, one message each way for all of them. Seats added
    and answers given are gathered until `flush`, which sends them as one message; `read`
    returns the next PlaySeatsResponse (its `updates` tagged with the refs given to `add`).

        stream = SeatsStream(client)
        stream.add(0, game_id, token)
        await stream.flush()
        while (response := await stream.read()) is not None:
            for update in response.updates: ... stream.answer(update.ref, decision, answer)
            await stream.flush()
    """

    def __init__(self, client: AsyncClient):
        stub, ended = client.servers.stream_stub()
        self.call = stub.PlaySeats()
        self.call.add_done_callback(ended)
        self._adds: list = []
        self._answers: list = []

    def add(self, ref: int, game_id: str, token: str, from_event: int = 0,
            batched: bool = True) -> None:
        """Play the seat of ``token`` under ``ref`` (sent with the next `flush`)."""
        self._adds.append(pb.SeatStart(ref=ref, game_id=game_id, token=token,
                                       from_event=from_event, batched=batched))

    def answer(self, ref: int, decision: pb.Decision, answer) -> None:
        """Answer the wire ``decision`` of seat ``ref`` with an engine-shaped answer (sent with
        the next `flush`; its outcome comes as SeatUpdate.accepted or .refused)."""
        self._answers.append(pb.SeatAnswer(ref=ref, answer=answer_to_pb(
            decision.WhichOneof("kind"), answer, decision.sequence)))

    async def flush(self) -> None:
        """Send what `add` and `answer` gathered, as one message (nothing when empty)."""
        if self._adds or self._answers:
            request = pb.PlaySeatsRequest(add=self._adds, answers=self._answers)
            self._adds, self._answers = [], []
            await self.call.write(request)

    async def read(self) -> Optional[pb.PlaySeatsResponse]:
        """The next message; None once the stream has ended well."""
        response = await self.call.read()
        return None if response is grpc.aio.EOF else response

    async def close(self) -> None:
        """Close the client's side (the server sends what is left, then ends)."""
        await self.call.done_writing()

    def cancel(self) -> None:
        self.call.cancel()
