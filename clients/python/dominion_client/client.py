"""A small typed client for the Dominion game service.

    from dominion_client.client import connect

    with connect("127.0.0.1:50051") as client:
        game = client.create_game(["Me", "Bot"], bots={1: "big-money"})
        seat = client.seat(game.game_id, game.tokens[0])
        for turn in seat.decisions():              # blocks until each of my decisions comes
            print(turn.decision.prompt)
            seat.answer(turn, turn.decision.moves[-1])
        print(seat.view().scores)

Decisions and views come as engine values (`dominion.Decision`, `dominion.View`), so any
`dominion.bots` bot can answer them; the wire messages are there too (``turn.message``).
`Seat.decisions` plays on one Play stream, and `Seat.answer` sends each answer on it.
"""
from __future__ import annotations

import queue
import threading
import time
from typing import Iterator, Mapping, NamedTuple, Optional, Sequence, Union

import grpc

import dominion
from dominion_proto import dominion_pb2 as pb
from dominion_proto import dominion_pb2_grpc as pb_grpc

from .convert import (answer_to_pb, decision_from_pb, event_from_pb, record_from_pb,
                      view_from_pb)

TOKEN_METADATA = "x-seat-token"

# A channel's options. Reconnect soon after a server restart (gRPC's default backoff grows to
# two minutes). While a call is under way, ping the server every 15 s and give up on the
# connection when a ping is not answered in 5 s: a server that hangs with its connections open
# (a stopped process, a machine cut off) ends the stream UNAVAILABLE within about 20 s, and a
# client with several servers moves on (gRPC's own ping timeout is a minute; the server allows
# a ping every 10 s, `dominion_service.server.grpc_options`). Idle connections are not pinged.
CHANNEL_OPTIONS = (("grpc.initial_reconnect_backoff_ms", 200),
                   ("grpc.min_reconnect_backoff_ms", 200),
                   ("grpc.max_reconnect_backoff_ms", 2000),
                   ("grpc.keepalive_time_ms", 15_000),
                   ("grpc.keepalive_timeout_ms", 5_000),
                   ("grpc.http2.ping_timeout_ms", 5_000),
                   ("grpc.http2.max_pings_without_data", 0))
# A connection's streams: the server takes 100 calls at once on one connection (a call past
# them waits, silently, for one to end); past this many streams the clients open another
# connection, leaving room for the calls that come and go.
STREAMS_PER_CONNECTION = 90
# A channel of its own connection (gRPC shares one among channels alike, by default).
SEPARATE = (("grpc.use_local_subchannel_pool", 1),)


def channel_args(target: str, ca_file: Optional[str] = None) -> tuple:
    """(address, credentials) for a server ``target``: "host:port" or "http://host:port" in
    clear, "https://host:port" over TLS (the system's trusted certificates, or ``ca_file``'s:
    a PEM file, for a server with its own certificate; given alone it also means TLS).
    Credentials are None in clear."""
    scheme, sep, rest = target.partition("://")
    if not sep:
        scheme, rest = "", target
    if scheme not in ("", "http", "https"):
        raise ValueError(f"a server address is host:port, http://host:port or "
                         f"https://host:port, not {target!r}")
    address = rest.rstrip("/")
    if scheme == "http" and ca_file is None:
        return address, None
    if scheme == "" and ca_file is None:
        return address, None
    if scheme == "http":
        raise ValueError("a CA file is for a TLS server: give https://host:port")
    roots = None
    if ca_file is not None:
        with open(ca_file, "rb") as f:
            roots = f.read()
    return address, grpc.ssl_channel_credentials(root_certificates=roots)


def why_unanswered(target: str, ca_file: Optional[str] = None, timeout: float = 3.0) -> str:
    """Why a server at ``target`` did not accept gRPC calls, in words a person can act on:
    a TLS server asked in clear, a server in clear asked over TLS, a certificate the client
    does not trust; or that nothing answers there. Learned with one TCP connection and a TLS
    handshake of Python's own (gRPC says only that the channel never became ready)."""
    import socket
    import ssl
    address, credentials = channel_args(target, ca_file)
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    try:
        sock = socket.create_connection((host, int(port)), timeout=timeout)
    except (OSError, ValueError):
        return "no Dominion server answers there"
    with sock:
        if credentials is None:   # asked in clear: does it speak TLS?
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            try:
                with context.wrap_socket(sock, server_hostname=host or None):
                    return f"this server speaks TLS: use https://{address}"
            except (OSError, ssl.SSLError):
                return "no Dominion server answers there"
        context = ssl.create_default_context(cafile=ca_file)
        try:
            with context.wrap_socket(sock, server_hostname=host):
                return "no Dominion server answers there"
        except ssl.SSLCertVerificationError:
            if ca_file is None:
                return ("the server's certificate is not trusted: give --ca-file (the "
                        "server's certificate, or its CA's, as a PEM file)")
            return f"the server's certificate is not trusted by --ca-file {ca_file}"
        except (OSError, ssl.SSLError):
            return f"this server does not speak TLS: use http://{address}"


def why_none_answered(target, ca_file: Optional[str] = None) -> str:
    """`why_unanswered` for each server of ``target`` (one address or several, see
    `server_addresses`): "HOST:PORT: reason; ..."."""
    return "; ".join(f"{address}: {why_unanswered(address, ca_file)}"
                     for address in server_addresses(target))


def server_addresses(target: Union[str, Sequence[str]]) -> tuple:
    """The server addresses of ``target``: one address, several separated by commas
    ("a:50051,b:50051"), or a sequence of them; ValueError when there is none."""
    items = target.split(",") if isinstance(target, str) else list(target)
    found = tuple(item.strip() for item in items if item.strip())
    if not found:
        raise ValueError("no server address given: host:port, or several separated by commas")
    return found


class Servers:
    """Several addresses of servers that serve the same games (``dominion serve --shared`` on
    one database), one in use at a time: calls go to the current one, and `failover` moves to
    the next. A channel is opened (with ``open_channel(address, separate)``) when its server
    is first used and kept until `channels` are closed. Long streams go through
    `stream_stub`, which opens another connection to the server once each has
    `STREAMS_PER_CONNECTION` streams."""

    def __init__(self, target, open_channel):
        self.addresses = server_addresses(target)
        self._open = open_channel
        self._channels: list = [None] * len(self.addresses)
        self._stubs: list = [None] * len(self.addresses)
        self._more: list = [[] for _ in self.addresses]   # [channel, stub] beyond the first
        self._streams: dict = {}   # id(stub) -> streams open on its connection
        self._lock = threading.Lock()
        self.current = 0

    def use(self, index: int, channel) -> None:
        self._channels[index] = channel
        self._stubs[index] = pb_grpc.DominionServiceStub(channel)

    def channel(self, index: Optional[int] = None):
        index = self.current if index is None else index
        if self._channels[index] is None:
            self.use(index, self._open(self.addresses[index]))
        return self._channels[index]

    def stub(self):
        index = self.current
        if self._stubs[index] is None:
            self.channel(index)
        return self._stubs[index]

    def stream_stub(self) -> tuple:
        """For a stream (Play, PlaySeats, StreamEvents) to the current server: (a stub on a
        connection with fewer than `STREAMS_PER_CONNECTION` streams, a function to call once
        the stream has ended), a new connection when every one has as many."""
        index = self.current
        first = self.stub()
        with self._lock:
            stubs = [first] + [stub for _, stub in self._more[index]]
            stub = next((s for s in stubs
                         if self._streams.get(id(s), 0) < STREAMS_PER_CONNECTION), None)
            if stub is None:
                channel = self._open(self.addresses[index], True)
                stub = pb_grpc.DominionServiceStub(channel)
                self._more[index].append([channel, stub])
            self._streams[id(stub)] = self._streams.get(id(stub), 0) + 1
        ended = []

        def end(*_) -> None:
            with self._lock:
                if not ended:
                    ended.append(True)
                    self._streams[id(stub)] -= 1
        return stub, end

    def failover(self, used: int) -> bool:
        """After a call to server ``used`` broke: move to the next address, unless another
        caller has moved already (or there is only one); True when it moved now."""
        if len(self.addresses) < 2 or self.current != used:
            return False
        self.current = (used + 1) % len(self.addresses)
        return True

    def channels(self) -> list:
        """The channels opened so far."""
        return [c for c in self._channels if c is not None] + \
            [channel for more in self._more for channel, _ in more]


def open_channel(target: str, ca_file: Optional[str] = None,
                 separate: bool = False) -> grpc.Channel:
    """A channel to ``target``; ``separate``: on a connection of its own."""
    address, credentials = channel_args(target, ca_file)
    options = CHANNEL_OPTIONS + (SEPARATE if separate else ())
    if credentials is None:
        return grpc.insecure_channel(address, options=options)
    return grpc.secure_channel(address, credentials, options=options)


class CreatedGame(NamedTuple):
    game_id: str
    tokens: dict            # seat -> secret token, for the seats that are not bots'
    kingdom: tuple
    first_player: int


class PendingDecision(NamedTuple):
    """One of my decisions, as the stream delivered it."""
    sequence: int
    decision: dominion.Decision
    view: dominion.View     # my view when the decision was asked (without the log)
    message: pb.YourDecision


class GameResult(NamedTuple):
    scores: tuple
    winners: tuple


_STATUS = {code.value[0]: code for code in grpc.StatusCode}


class AnswerRefused(grpc.RpcError):
    """An answer the server refused on a Play stream (nothing changed): the status code and
    message SubmitAnswer would have failed with, so callers handle both alike."""

    def __init__(self, refusal: pb.Refusal):
        super().__init__(f"{_STATUS.get(refusal.code, grpc.StatusCode.UNKNOWN).name}: "
                         f"{refusal.message}")
        self.refusal = refusal

    def code(self) -> grpc.StatusCode:
        return _STATUS.get(self.refusal.code, grpc.StatusCode.UNKNOWN)

    def details(self) -> str:
        return self.refusal.message


class PlayStreamEnded(grpc.RpcError):
    """A Play stream that ended before an answer's outcome came (the answer may or may not
    have been applied: resume, and its sequence number tells)."""

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return "the Play stream ended before the answer's outcome came; resume the stream"


class PlayCall:
    """One Play stream from a thread. gRPC's sync API reads requests from an iterator in a
    thread of its own, so answers go through a queue; responses are read here. ``batched``:
    PlayStart.batched."""

    def __init__(self, stub, game_id: str, from_event: int, metadata, batched: bool = False):
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        self._requests.put(pb.PlayRequest(start=pb.PlayStart(
            game_id=game_id, from_event=from_event, batched=batched)))
        self._call = stub.Play(iter(self._requests.get, None), metadata=metadata)
        self.unread: list = []   # responses read while waiting for an outcome, not handled yet

    def send(self, answer: pb.Answer) -> None:
        self._requests.put(pb.PlayRequest(answer=answer))

    def receive(self) -> Optional[pb.PlayResponse]:
        """The next response not handled yet; None once the stream has ended."""
        if self.unread:
            return self.unread.pop(0)
        return next(self._call, None)

    def outcome(self, sequence: int) -> None:
        """Wait for the outcome of the answer with ``sequence``; raises `AnswerRefused` when it
        was refused. The responses read meanwhile are kept for `receive`."""
        while True:
            update = next(self._call, None)
            if update is None:
                raise PlayStreamEnded()
            self.unread.append(update)
            if update.HasField("accepted") and update.accepted == sequence:
                return
            if update.HasField("refused") and update.refused.sequence == sequence:
                raise AnswerRefused(update.refused)

    def close(self) -> None:
        self._requests.put(None)
        self._call.cancel()


class Client:
    """A connection to a server, or to one of several that serve the same games (``target``:
    addresses separated by commas, or a sequence): calls go to the current one, and
    `failover` moves to the next (the bot runners do when a server stops answering, and
    resume their streams there). Thread-safe; use one per process."""

    def __init__(self, target, channel: Optional[grpc.Channel] = None,
                 ca_file: Optional[str] = None):
        for address in server_addresses(target):
            channel_args(address, ca_file)   # a bad address or CA file: ValueError now
        self.servers = Servers(target, lambda address, separate=False:
                               open_channel(address, ca_file, separate))
        if channel is not None:
            self.servers.use(0, channel)
        self.servers.channel()

    @property
    def target(self) -> str:
        return self.servers.addresses[self.servers.current]

    @property
    def channel(self) -> grpc.Channel:
        return self.servers.channel()

    @property
    def stub(self):
        return self.servers.stub()

    def failover(self, used: int) -> bool:
        """`Servers.failover`: ``used`` is `servers.current` as it was when the broken call
        began."""
        return self.servers.failover(used)

    def close(self) -> None:
        for channel in self.servers.channels():
            channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until a server accepts calls (raises grpc.FutureTimeoutError); with several,
        the first of them to accept becomes the current one."""
        servers = self.servers
        if len(servers.addresses) == 1:
            grpc.channel_ready_future(self.channel).result(timeout=timeout)
            return
        deadline = time.monotonic() + timeout
        while True:
            for index in range(len(servers.addresses)):
                try:
                    grpc.channel_ready_future(servers.channel(index)).result(timeout=0.2)
                    servers.current = index
                    return
                except grpc.FutureTimeoutError:
                    if time.monotonic() > deadline:
                        raise

    # --- catalogue ----------------------------------------------------------------------------

    def list_cards(self) -> list:
        return list(self.stub.ListCards(pb.ListCardsRequest()).cards)

    def list_kingdoms(self) -> dict:
        """Recommended Kingdom name -> its 10 cards."""
        return {k.name: tuple(k.cards)
                for k in self.stub.ListKingdoms(pb.ListKingdomsRequest()).kingdoms}

    def list_bots(self) -> tuple:
        return tuple(self.stub.ListBots(pb.ListBotsRequest()).bots)

    def list_games(self, include_finished: bool = False, player: str = "", bot: str = "",
                   waiting_for_client: bool = False, page_size: int = 0) -> list:
        """Every game that passes the filters, newest first (all pages of ListGames)."""
        request = pb.ListGamesRequest(include_finished=include_finished, player=player, bot=bot,
                                      waiting_for_client=waiting_for_client, page_size=page_size)
        games = []
        while True:
            reply = self.stub.ListGames(request)
            games.extend(reply.games)
            if not reply.next_page_token:
                return games
            request.page_token = reply.next_page_token

    # --- games --------------------------------------------------------------------------------

    def create_game(self, players: Union[int, Sequence[str]] = 2,
                    bots: Optional[Mapping[int, str]] = None,
                    kingdom: Union[None, str, Sequence[str]] = None,
                    sets: Optional[Sequence[str]] = None, seed: Optional[int] = None,
                    first_player: Optional[int] = None, always_ask: bool = False,
                    undo: bool = True, open_seats: Sequence[int] = ()) -> CreatedGame:
        """Create a game. ``players``: a count or the seat names. ``bots``: seat -> bot name
        for the seats the server plays. ``open_seats``: people's seats handed out later, by
        `join` (no token now). ``kingdom``: a recommended Kingdom's name, 10 card
        names, or ``"random"`` (from ``sets``); the server's default when None.
        ``always_ask``: ask every question, even forced ones (README, "Hidden information").
        ``undo``: the seats may take back a move (`Seat.undo`)."""
        names = [""] * players if isinstance(players, int) else list(players)
        bots = bots or {}
        request = pb.CreateGameRequest(
            seats=[pb.SeatSpec(name=n, bot=bots.get(i, ""), open=i in open_seats)
                   for i, n in enumerate(names)])
        if isinstance(kingdom, str) and kingdom.lower() == "random":
            request.random.SetInParent()
            request.random.sets.extend(sets or ())
        elif isinstance(kingdom, str) and "," in kingdom:  # 10 comma-separated card names
            request.cards.cards.extend(c.strip() for c in kingdom.split(",") if c.strip())
        elif isinstance(kingdom, str):
            request.preset = kingdom
        elif kingdom is not None:
            request.cards.cards.extend(kingdom)
        if seed is not None:
            request.seed = seed
        if first_player is not None:
            request.first_player = first_player
        request.always_ask = always_ask
        request.undo = pb.UNDO_SETTING_ALLOWED if undo else pb.UNDO_SETTING_OFF
        reply = self.stub.CreateGame(request)
        return CreatedGame(reply.game_id, {s.seat: s.token for s in reply.seats if s.token},
                           tuple(reply.kingdom), reply.first_player)

    def seat(self, game_id: str, token: str) -> "Seat":
        """Act for the seat whose token this is."""
        return Seat(self, game_id, token)

    def join(self, game_id: str, seat: int, name: str = "") -> "Seat":
        """Take an open seat of a game (JoinGame), named ``name``; FAILED_PRECONDITION
        (grpc.RpcError) when it is not open (taken first, ...)."""
        reply = self.stub.JoinGame(pb.JoinGameRequest(game_id=game_id, seat=seat, name=name))
        return Seat(self, game_id, reply.seat.token)

    def spectate(self, game_id: str) -> "Seat":
        """Follow a game with no seat: public facts only."""
        return Seat(self, game_id, None)

    def record(self, game_id: str) -> dominion.Record:
        """A finished game's record, ready for `dominion.replay`."""
        return record_from_pb(self.stub.GetRecord(pb.GetRecordRequest(game_id=game_id)))


class Seat:
    """One seat of one game (or a spectator's place, without a token)."""

    def __init__(self, client: Client, game_id: str, token: Optional[str]):
        self.client = client
        self.game_id = game_id
        self.token = token
        self.metadata = ((TOKEN_METADATA, token),) if token else ()
        self.next_event = 0     # index of the first event the stream has not delivered yet
        self.result: Optional[GameResult] = None    # set when a stream saw the game end
        self.play: Optional[PlayCall] = None        # the Play stream `decisions` has open

    def view(self, log_from: Optional[int] = None) -> dominion.View:
        return view_from_pb(self.view_message(log_from))

    def view_message(self, log_from: Optional[int] = None) -> pb.View:
        request = pb.GetViewRequest(game_id=self.game_id)
        if log_from is not None:
            request.log_from = log_from
        return self.client.stub.GetView(request, metadata=self.metadata).view

    def updates(self, from_event: Optional[int] = None) -> Iterator[pb.StreamEventsResponse]:
        """The raw stream: events, my decisions, and the end of the game. Starts where the
        last stream of this object stopped (or at ``from_event``), so calling it again after
        a broken connection misses nothing and repeats nothing."""
        if from_event is not None:
            self.next_event = from_event
        stub, ended = self.client.servers.stream_stub()
        stream = stub.StreamEvents(
            pb.StreamEventsRequest(game_id=self.game_id, from_event=self.next_event),
            metadata=self.metadata)
        stream.add_done_callback(ended)
        try:
            for update in stream:
                if update.events:
                    self.next_event = update.events[-1].index + 1
                yield update
        finally:
            stream.cancel()

    def decisions(self, on_event=None, batched: bool = False) -> Iterator[PendingDecision]:
        """My decisions, one at a time, until the game ends; ``on_event(dominion.Event)`` is
        called for each event seen on the way. The game's result is then in `result`. Plays
        on one Play stream, on which `answer` sends the answers; it starts where the last
        stream of this object stopped, so calling it again after a broken connection misses
        nothing and repeats nothing (the pending decision comes again).

        Each decision's view carries, as its log, the events streamed since the previous
        decision (``log_start`` is the first one's index), so a bot that counts its cards from
        the log (``bot.log_from``) sees over the network what it would see in-process.

        ``batched`` (for bots): events come only with the seat's decisions (PlayStart.batched),
        one message per decision; `answer` then returns with the next message (the seat's next
        decision, or the end), which brings its outcome."""
        if not self.metadata:
            raise ValueError("a spectator has no decisions; follow the game with updates()")
        stub, ended = self.client.servers.stream_stub()
        play = self.play = PlayCall(stub, self.game_id, self.next_event, self.metadata,
                                    batched)
        play._call.add_done_callback(ended)
        tracker = DecisionTracker(self, on_event)
        try:
            while True:
                update = play.receive()
                if update is None:
                    return
                pending = tracker.read(update)
                if pending is not None:
                    yield pending
                if self.result is not None:
                    return
        finally:
            if self.play is play:
                self.play = None
            play.close()

    def undo(self, sequence: int) -> pb.UndoResponse:
        """Take back this seat's last answer (the Undo call); ``sequence``: the pending
        decision's. A refusal raises grpc.RpcError (FAILED_PRECONDITION saying why)."""
        return self.client.stub.Undo(pb.UndoRequest(game_id=self.game_id, sequence=sequence),
                                     metadata=self.metadata)

    def answer(self, decision: Union[PendingDecision, pb.Decision], answer) -> \
            Optional[pb.SubmitAnswerResponse]:
        """Answer ``decision`` (a `PendingDecision` or wire `Decision`) with an engine-shaped
        answer: a `dominion.Move` for a turn, card names, or options. On the Play stream of
        `decisions` when one is open (returns None once the server applied it), else with
        SubmitAnswer (returns its response). A refusal raises grpc.RpcError with the server's
        status (INVALID_ARGUMENT for an illegal answer, ...; `AnswerRefused` on the stream)."""
        if isinstance(decision, PendingDecision):
            decision = decision.message.decision
        msg = answer_to_pb(decision.WhichOneof("kind"), answer, decision.sequence)
        if self.play is not None:
            self.play.send(msg)
            self.play.outcome(decision.sequence)
            return None
        return self.client.stub.SubmitAnswer(
            pb.SubmitAnswerRequest(game_id=self.game_id, answer=msg), metadata=self.metadata)

    def say(self, text: str) -> int:
        """Say a line to the table (SendChat); returns its index in the game's chat."""
        return self.client.stub.SendChat(pb.SendChatRequest(game_id=self.game_id, text=text),
                                         metadata=self.metadata).index

    def chat(self, from_index: int = 0) -> list:
        """The game's chat lines the server keeps, from ``from_index`` on (pb.ChatLine)."""
        request = pb.GetViewRequest(game_id=self.game_id, chat_from=from_index)
        return list(self.client.stub.GetView(request, metadata=self.metadata).chat)

    def resign(self) -> pb.SubmitAnswerResponse:
        """Resign this seat's game now, whoever is to answer (Answer.resign, named for the
        decision pending as the server last said). ABORTED (grpc.RpcError) when an answer
        came in between: call it again."""
        sequence = self.view_message().sequence
        return self.client.stub.SubmitAnswer(
            pb.SubmitAnswerRequest(game_id=self.game_id, answer=pb.Answer(
                sequence=sequence, resign=pb.Resign())), metadata=self.metadata)


class DecisionTracker:
    """Turns a seat's stream updates (StreamEvents' or Play's) into `PendingDecision` values,
    keeping the seat's place in the log (`Seat.next_event`) and its result."""

    def __init__(self, seat, on_event=None):
        self.seat = seat
        self.on_event = on_event
        self.unseen: list = []
        self.first = seat.next_event

    def read(self, update) -> Optional[PendingDecision]:
        """Take in one update; the decision it brings, if any."""
        seat = self.seat
        events = update.events
        if events:
            unseen = self.unseen
            if not unseen:
                self.first = events[0].index
            converted = list(map(event_from_pb, events))
            on_event = self.on_event
            if on_event is not None:
                for event in converted:
                    on_event(event)
            unseen += converted
            seat.next_event = events[-1].index + 1
        pending = None
        if update.HasField("decision"):
            msg = update.decision
            wire = msg.decision
            decision = decision_from_pb(wire)
            view = msg.view
            if view.log or not self.unseen:
                view = view_from_pb(view, decision)
            else:   # the stream's events since the last decision are the view's log
                view = view_from_pb(view, decision, tuple(self.unseen), self.first)
            self.unseen = []
            pending = PendingDecision(wire.sequence, decision, view, msg)
        if update.HasField("game_over"):
            seat.result = GameResult(tuple(update.game_over.scores),
                                     tuple(update.game_over.winners))
        return pending


def connect(target, ca_file: Optional[str] = None) -> Client:
    """A client for the server at ``target`` ("host:port", or "https://host:port" for TLS;
    ``ca_file``: the PEM certificate(s) to trust for it, see `channel_args`), or for one of
    several servers of the same games: "a:50051,b:50051" (see `Client`)."""
    return Client(target, ca_file=ca_file)
