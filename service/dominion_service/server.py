"""The gRPC service (``dominion.v1.DominionService``) on ``grpc.aio``: the RPC handlers, thin,
over the service's rooms:

- `table`: the games held (states, seats, locks, watchers), those over and those broken;
- `writer`: the storage thread and its group commit;
- `answers`: the one path of an answer (check, step, store, publish) with its ordering
  guarantees, used by SubmitAnswer, Play, PlaySeats and the server's bots;
- `streams`: StreamEvents, Play and PlaySeats;
- `limits`: what a request may carry and what one client may hold;
- `wire`: protobuf tags from the descriptors, for messages built serialized.
"""
from __future__ import annotations

import asyncio
import errno
import functools
import hashlib
import logging
import secrets
import socket
import ssl
import time
from typing import NamedTuple, Optional

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

import dominion
import dominion.bots
from dominion_proto import dominion_pb2 as pb
from dominion_proto import dominion_pb2_grpc as pb_grpc

from . import replay
from .answers import Answering, Pending
from .convert import abandoned_view, answer_to_pb, config_to_pb, view_to_pb
from .limits import (DEFAULT_PAGE, MAX_NAME, MAX_PAGE, CreationLimits,
                     ServiceError, ServiceOptions, TrustedProxies, check_create_request,
                     fit_to_file_limit, over_limits, quote, short)
from .logs import rate_limited
from .relay import GrpcRelay
from .storage import FinishedGame, SeatRecord, SeatTaken, Storage, StoredGame
from .search_seats import SearchSeats
from .sharing import Sharing
from .streams import PlayStream, Streams, Undecodable, check_from_event
from .table import Game, GameTable, token_digest, unreadable
from .writer import GroupWriter

log = logging.getLogger("dominion_service")

TOKEN_METADATA = "x-seat-token"
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["DominionService"].full_name

__all__ = ["DominionService", "ServiceOptions", "ServiceError", "RunningServer",
           "start_server", "TOKEN_METADATA", "SERVICE_NAME"]


class DominionService(pb_grpc.DominionServiceServicer):
    """The RPC handlers. Refusals raise `ServiceError`; each handler turns it into its status
    with `context.abort`."""

    def __init__(self, storage: Storage, options: ServiceOptions = ServiceOptions()):
        self.storage = storage
        self.options = options
        self.search_seats = SearchSeats(options.search_playouts, options.search_seconds,
                                        options.max_search_seats, options.search_plan)
        self.table = GameTable(self.search_seats.make_bot)
        self.limits = CreationLimits(options)
        self.writer = GroupWriter(storage)
        self.replays = replay.Replays()   # GetReplay's checkpoints of recent records
        self.stopping = asyncio.Event()   # set at shutdown: streams end UNAVAILABLE (retry)
        self.answering = Answering(self.table, self.writer, self.stopping,
                                   self.search_seats)
        self.streams = Streams(self._fresh_game, self.answering, self.stopping,
                               options.stream_stall_timeout,
                               self._fresh_games if self.answering.shared else None,
                               self._game)
        # Servers sharing a PostgreSQL database (--shared): what they tell each other.
        self.sharing = Sharing(self.table, self.answering, self._game) \
            if self.answering.shared else None
        # The forwarding header: read only from a proxy the operator trusts
        self.proxies = TrustedProxies(options.trusted_proxies, options.forwarded_header)
        # The gRPC door's relay (`relay.GrpcRelay`), which names each connection's client
        self.relay: Optional[GrpcRelay] = None
        self._sweeper: Optional[asyncio.Task] = None

    # What tests and tools read: the games in progress, over, and broken, by id.
    @property
    def games(self) -> dict:
        return self.table.playing

    @property
    def finished(self) -> dict:
        return self.table.finished

    @property
    def broken(self) -> dict:
        return self.table.broken

    # --- life cycle ---------------------------------------------------------------------------

    async def load(self) -> None:
        """Rebuild every stored game that is not over by replaying its record (games over are
        listed from their rows, and read only when asked for, so a restart does not grow
        with the history), then let bots that are to answer play on. A game that cannot be
        served is reported (`broken`, with the reason) and kept in the database."""
        table = self.table
        if self.sharing is not None:
            await self.sharing.listen()
        for g in await self.writer.call(lambda: list(self.storage.load_games())):
            game = table.revive(g)
            if game is not None:
                table.playing[g.game_id] = game
        for f in await self.writer.call(lambda: list(self.storage.finished_games())):
            if isinstance(f, FinishedGame):
                table.finished[f.game_id] = f
            else:
                table.report_broken(f.game_id, f.reason)
        if self.sharing is not None:
            await self.sharing.start()
        for game in list(table.playing.values()):
            async with game.lock:
                await self.answering.play_bots(game)

    def start_sweeping(self) -> None:
        """End abandoned games (`ServiceOptions.abandon_after`) from now on, checking a few
        times per period."""
        after = self.options.abandon_after
        if after > 0 and self._sweeper is None:
            self._sweeper = asyncio.ensure_future(self._sweep(after, min(60.0, after / 4)))

    async def _sweep(self, after: float, every: float) -> None:
        while not self.stopping.is_set():
            await asyncio.sleep(every)
            try:
                await self.answering.abandon_idle(after)
            except Exception:   # never stops the sweeping
                log.exception("ending abandoned games failed")

    def stop_streams(self) -> None:
        """Shutdown: every open stream wakes up and ends UNAVAILABLE (clients resume it)."""
        self.stopping.set()
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.streams.wake_all(self.table.all_held())

    def close(self) -> None:
        self.search_seats.close()
        self.writer.close()

    def client_address(self, context) -> str:
        """Who the caller is, for the per-client limits: the connection's address, or what a
        trusted proxy's forwarding header says (`limits.TrustedProxies`)."""
        peer = context.peer() or ""
        if self.relay is not None:
            peer = self.relay.client_peer(peer)
        kind, _, rest = peer.partition(":")
        host = (rest.rsplit(":", 1)[0] if kind in ("ipv4", "ipv6") else peer).strip("[]")
        if not self.proxies.networks:
            return host
        metadata = context.invocation_metadata() or ()

        def header(name: str) -> Optional[str]:
            values = [value for key, value in metadata if key == name]
            return ",".join(values) if values else None
        return self.proxies.client(host, header)

    async def _game(self, game_id: str) -> Game:
        """The game ``game_id``: one being played, or one over (its record read again if it
        is not among the recent ones). Shared: a game this server does not hold is read from
        the database."""
        game = await self._find_game(game_id)
        game.last_use = time.monotonic()
        return game

    async def _find_game(self, game_id: str) -> Game:
        table = self.table
        table.check_id(game_id)
        game = table.held(game_id)
        if game is not None:
            return game
        if self.sharing is not None and game_id not in table.broken:
            try:
                stored = await self.writer.read(self.storage.load_game, game_id)
            except Exception:  # the database is away
                raise unreadable(game_id) from None
            game = table.held(game_id)   # read meanwhile by another call
            if game is not None:
                return game
            game = table.revive(stored) if stored is not None else None
            if game is None:
                raise table.refuse_missing(game_id)
            if dominion.is_over(game.state) or game.abandoned:
                table.retire(game)
            else:
                table.playing[game_id] = game
            return game
        if game_id in table.finished and game_id not in table.broken:
            stored = await self.writer.call(self.storage.load_game, game_id)
            if stored is None:   # listed at start, and games are never deleted
                table.report_broken(game_id, "its row cannot be found again (the database "
                                             "may be damaged)")
            game = table.revive(stored) if stored is not None else None
            if game is None:   # reported: DATA_LOSS from now on
                table.finished.pop(game_id, None)
                return await self._find_game(game_id)
            table.remember(game)
            return game
        raise table.refuse_missing(game_id)

    async def _fresh_game(self, game_id: str) -> Game:
        """`_game`, caught up with the database when servers share it (`Answering.catch_up`):
        what a view or a stream starts from."""
        game = await self._game(game_id)
        if self.sharing is not None and game_id in self.table.playing:
            async with game.lock:
                await self.answering.catch_up(game)
        return game

    async def _fresh_games(self, game_ids: list) -> dict:
        """`_fresh_game` for many games at once (the seats a PlaySeats message adds), each on
        its own: returns the refusal of each game that could not be found or caught up (by
        id), so that its seats are refused with it (UNAVAILABLE while the database is away)
        rather than played from a stale copy."""
        ids = list(dict.fromkeys(game_ids))
        results = await asyncio.gather(*(self._fresh_game(game_id) for game_id in ids),
                                       return_exceptions=True)
        failed = {}
        for game_id, result in zip(ids, results):
            if isinstance(result, ServiceError):
                failed[game_id] = result
            elif isinstance(result, BaseException):
                failed[game_id] = unreadable(game_id, result)
        return failed

    @staticmethod
    def _seat(game: Game, context, required: bool) -> Optional[int]:
        """The seat whose token the call carries; None for a spectator."""
        token = None
        for key, value in context.invocation_metadata() or ():
            if key == TOKEN_METADATA:
                token = value
        if not token:
            if required:
                raise ServiceError(grpc.StatusCode.UNAUTHENTICATED,
                                   f"send the seat token from CreateGame as call metadata "
                                   f"'{TOKEN_METADATA}'")
            return None
        seat = game.seat_of_token(token)
        if seat is None:
            raise ServiceError(grpc.StatusCode.PERMISSION_DENIED,
                               f"this seat token belongs to no seat of game {game.id}")
        return seat

    # --- catalogue ----------------------------------------------------------------------------

    async def ListCards(self, request, context):
        cards = sorted(dominion.CARDS.values(), key=lambda c: (c.set != "basic", c.set, c.cost,
                                                                c.name))
        return pb.ListCardsResponse(cards=[
            pb.Card(name=c.name, cost=c.cost, types=c.types, set=c.set, editions=c.editions,
                    text=c.text, coins=c.coins, vp=c.vp, plural=c.plural) for c in cards])

    async def ListKingdoms(self, request, context):
        return pb.ListKingdomsResponse(kingdoms=[
            pb.Kingdom(name=name, sets=sets, cards=cards)
            for name, (sets, cards) in dominion.RECOMMENDED.items()])

    async def ListBots(self, request, context):
        names = dominion.bots.bot_names()
        return pb.ListBotsResponse(bots=names, descriptions=[dominion.bots.bot_description(n)
                                                             for n in names])

    # --- games --------------------------------------------------------------------------------

    async def CreateGame(self, request, context):
        try:
            creator = self.client_address(context)
            # Servers sharing a database count the games in it, as they store one
            # (`_create_game`); each still counts the creations it is sent.
            self.limits.check(creator, () if self.sharing is not None else
                              self.table.playing.values())
            with self.answering.in_flight:
                return await asyncio.shield(self._create_game(request, creator))
        except ServiceError as e:
            await context.abort(e.code, e.message)

    async def _create_game(self, request, creator: str = "") -> pb.CreateGameResponse:
        check_create_request(request)
        bots = dominion.bots.bot_names()
        for i, s in enumerate(request.seats):
            if s.bot and s.bot not in bots:
                raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"seat {i}: unknown bot {quote(s.bot)}; bots: "
                                   f"{', '.join(bots)}")
            if s.open and s.bot:
                raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"seat {i}: an open seat is a person's, not a bot's")
            if s.open and self.sharing is not None:
                raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, SHARED_OPEN_SEATS)
        if request.HasField("seed") and not self.options.allow_seed:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                               "this server does not accept a chosen seed: whoever chooses it "
                               "can compute every other seat's cards (start the server with "
                               "--allow-seed for tests and tournaments)")
        names = [s.name or f"Player {i + 1}" for i, s in enumerate(request.seats)]
        choice = request.WhichOneof("kingdom")
        sets = None
        if choice == "preset":
            kingdom = request.preset
        elif choice == "cards":
            kingdom = tuple(request.cards.cards)
        elif choice == "random":
            kingdom, sets = "random", tuple(request.random.sets) or None
        else:   # the one rule: the bots' Kingdom cards in First Game (as on the command line)
            kingdom = dominion.bots.default_kingdom([s.bot for s in request.seats if s.bot])
        seed = request.seed if request.HasField("seed") else secrets.randbits(64)
        first = request.first_player if request.HasField("first_player") else None
        try:
            config = dominion.make_config(names, kingdom, sets, seed, first, request.always_ask)
            state = dominion.new_game(config)
        except dominion.DominionError as e:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, short(str(e))) from None
        tokens = [None if s.bot or s.open else secrets.token_hex(24) for s in request.seats]
        seats = tuple(SeatRecord(s.bot, token_digest(t) if t else "")
                      for s, t in zip(request.seats, tokens))
        game_id = secrets.token_hex(8)
        created = time.time()
        undo = request.undo != pb.UNDO_SETTING_OFF   # the default: allowed (docs/service.md)
        stored = StoredGame(game_id, state.config, seats, created, creator=creator, undo=undo)
        try:
            if self.sharing is not None:
                await self.writer.call(self.storage.create_game, stored,
                                       functools.partial(over_limits, self.options))
            else:
                await self.writer.call(self.storage.create_game, stored)
        except ServiceError:
            raise
        except Exception:
            log.exception("game %s could not be stored; not created", game_id)
            raise ServiceError(grpc.StatusCode.UNAVAILABLE,
                               "the game could not be stored, so it was not created; try "
                               "again") from None
        game = Game(game_id, state, seats, created, creator, time.monotonic(),
                    self.search_seats.make_bot)
        game.undo = undo
        self.table.playing[game_id] = game
        if self.sharing is not None:
            self.sharing.lease(game)
        if self.search_seats.plans_first(game.bots, state):
            # Its creator need not wait tens of seconds: the seats see the planning instead.
            self.answering.play_bots_later(game)
        else:
            async with game.lock:
                await self.answering.play_bots(game)
        return pb.CreateGameResponse(
            game_id=game_id, kingdom=state.config.kingdom,
            first_player=state.config.first_player, undo_allowed=undo,
            seats=[pb.SeatToken(seat=i, name=names[i], bot=s.bot, token=t or "", open=s.open)
                   for i, (s, t) in enumerate(zip(request.seats, tokens))])

    async def JoinGame(self, request, context):
        try:
            with self.answering.in_flight:
                return await asyncio.shield(self._join_game(request))
        except ServiceError as e:
            await context.abort(e.code, e.message)

    async def _join_game(self, request) -> pb.JoinGameResponse:
        """Hand out an open seat's token, once: the database stores the new token's digest
        (and the seat's name) only while the seat is still open (`Storage.claim_seat`)."""
        if self.sharing is not None:
            raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION, SHARED_OPEN_SEATS)
        name = request.name.strip()
        if len(name) > MAX_NAME:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"name is at most {MAX_NAME} characters, not {len(name)}")
        game = await self._game(request.game_id)
        async with game.lock:
            seat, state = request.seat, game.state
            if not 0 <= seat < len(game.seats):
                raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"seat must be 0 to {len(game.seats) - 1}, not {seat}")
            if game.abandoned or dominion.is_over(state):
                raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                                   f"game {game.id} is over; its seats cannot be taken")
            if not game.seats[seat].open_seat:
                raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                                   f"seat {seat} of game {game.id} is not open: " +
                                   ("a bot plays it" if game.seats[seat].bot else
                                    "a person holds it already"))
            token = secrets.token_hex(24)
            seats = game.seats[:seat] + (SeatRecord("", token_digest(token)),) + \
                game.seats[seat + 1:]
            if name:
                state = dominion.rename(state, seat, name)
            try:
                await self.writer.call(self.storage.claim_seat, game.id, game.seats, seats,
                                       state.config)
            except SeatTaken:
                raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                                   f"seat {seat} of game {game.id} was taken first") from None
            except Exception:
                log.exception("game %s: seat %d could not be stored as taken", game.id, seat)
                raise ServiceError(grpc.StatusCode.UNAVAILABLE,
                                   "the seat could not be stored as yours, so it was not "
                                   "taken; try again") from None
            game.seats = seats
            game.wire_events.clear()   # the log's lines name the seat anew
            game.publish(state)        # streams say what the table waits for, named anew
        return pb.JoinGameResponse(seat=pb.SeatToken(
            seat=seat, name=state.config.players[seat], token=token))

    async def ListGames(self, request, context):
        try:
            return self._list_games(request)
        except ServiceError as e:
            await context.abort(e.code, e.message)

    def _list_games(self, request) -> pb.ListGamesResponse:
        """Newest first; a page token is the position after the last game listed, bound to the
        filters it was made with."""
        size = request.page_size or DEFAULT_PAGE
        if size < 0:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"page_size must be >= 0, not {request.page_size}")
        size = min(size, MAX_PAGE)
        for name in ("player", "bot"):
            if len(getattr(request, name)) > MAX_NAME:
                raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"{name} is at most {MAX_NAME} characters")
        filters = hashlib.sha256(repr((request.include_finished, request.player, request.bot,
                                       request.waiting_for_client)).encode()).hexdigest()[:8]
        after = None
        if request.page_token:
            after = _read_page_token(request.page_token, filters)
        games = list(self.table.playing.values())
        if request.include_finished:
            games += self.table.finished.values()
        games.sort(key=lambda g: (-g.created, g.game_id if isinstance(g, FinishedGame) else g.id))
        out = pb.ListGamesResponse()
        for g in games:
            summary = _summary(g)
            if after is not None and (-summary.created, summary.game_id) <= after:
                continue
            if request.player and request.player not in summary.players:
                continue
            if request.bot and request.bot not in summary.bots:
                continue
            if request.waiting_for_client and (
                    not summary.HasField("waiting_for") or summary.bots[summary.waiting_for]):
                continue
            if len(out.games) == size:
                last = out.games[-1]
                out.next_page_token = f"{filters}:{last.created!r}:{last.game_id}"
                break
            out.games.append(summary)
        return out

    async def GetView(self, request, context):
        try:
            game = await self._fresh_game(request.game_id)
            seat = self._seat(game, context, required=False)
            state = game.state
            log_from = request.log_from if request.HasField("log_from") else None
            if log_from is not None and log_from > len(state.log):
                raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"log_from {log_from} is past the log's end "
                                   f"({len(state.log)} events)")
            view = view_to_pb(game.id, state, seat, game.bot_names, log_from,
                              can_undo=not game.abandoned and game.can_undo(state, seat),
                              planning=game.planning)
            return pb.GetViewResponse(
                view=abandoned_view(view) if game.abandoned else view,
                chat=game.chat.since(request.chat_from) if request.HasField("chat_from")
                else ())
        except ServiceError as e:
            await context.abort(e.code, e.message)

    async def SubmitAnswer(self, request, context):
        """Checks in the order of the status codes' precedence: which game, who; then the
        answer takes the one path (`answers`)."""
        try:
            game = await self._game(request.game_id)
            seat = self._seat(game, context, required=True)
            item = Pending(game, seat, request.answer)
            # Shielded: a caller hanging up mid-way must not leave a stored answer unapplied.
            await asyncio.shield(self.answering.apply([item]))
            if item.error is not None:
                raise item.error
            sequence, over = item.after
            return pb.SubmitAnswerResponse(sequence=sequence, game_over=over)
        except ServiceError as e:
            await context.abort(e.code, e.message)

    async def Undo(self, request, context):
        """Take back the caller's last answer: a take-back entry on the one path of an answer
        (`answers`), so it is checked, stored and published like one (the rule: the engine's
        `dominion.take_back`; the game's setting: `Answering`)."""
        try:
            game = await self._game(request.game_id)
            seat = self._seat(game, context, required=True)
            answer = pb.Answer(take_back=pb.TakeBack())
            if request.HasField("sequence"):
                answer.sequence = request.sequence
            item = Pending(game, seat, answer)
            await asyncio.shield(self.answering.apply([item]))
            if item.error is not None:
                raise item.error
            return pb.UndoResponse(sequence=item.after[0])
        except ServiceError as e:
            await context.abort(e.code, e.message)

    async def StreamEvents(self, request, context):
        try:
            game = await self._fresh_game(request.game_id)
            seat = self._seat(game, context, required=False)
            check_from_event(game, request.from_event)
        except ServiceError as e:
            await context.abort(e.code, e.message)
        async for update in self.streams.follow(
                game, seat, request.from_event, context, pb.StreamEventsResponse,
                chat_from=request.from_chat if request.HasField("from_chat") else None):
            yield update

    async def SendChat(self, request, context):
        """A seat's line to the table (`chat.Chat`), then every follower is woken to send it.
        Its text and the caller's token are never logged."""
        try:
            if self.sharing is not None:
                raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                                   "servers sharing a database (--shared) carry no chat: each "
                                   "keeps only its own memory")
            game = await self._game(request.game_id)
            seat = self._seat(game, context, required=True)
            if game.abandoned or dominion.is_over(game.state):
                raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                                   f"game {game.id} is over; its chat is closed")
            line = game.chat.say(seat, game.state.config.players[seat], request.text)
            game.publish(game.state)
            return pb.SendChatResponse(index=line.index)
        except ServiceError as e:
            await context.abort(e.code, e.message)

    async def Play(self, requests, context):
        try:
            try:
                first = await requests.__anext__()
            except StopAsyncIteration:   # the client closed the stream without a word
                return
            start = _play_start(first)
            game = await self._fresh_game(start.game_id)
            seat = self._seat(game, context, required=True)
            check_from_event(game, start.from_event)
        except ServiceError as e:
            await context.abort(e.code, e.message)
        play = PlayStream(start.batched)
        reader = asyncio.ensure_future(self.streams.read_answers(requests, game, seat, play,
                                                                 context))
        try:
            async for update in self.streams.follow(game, seat, start.from_event, context,
                                                    pb.PlayResponse, play):
                yield update
        finally:
            reader.cancel()

    async def PlaySeats(self, requests, context):
        async for response in self.streams.play_seats(requests, context):
            yield response

    async def GetReplay(self, request, context):
        """The replay viewer's steps: `replay.get_replay`."""
        try:
            return await replay.get_replay(self.replays, request, self._finished_record,
                                           self.client_address(context))
        except ServiceError as e:
            await context.abort(e.code, e.message)

    async def _finished_record(self, game_id: str) -> tuple:
        game = await self._fresh_game(game_id)
        if game.abandoned:
            raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                               f"game {game.id} was abandoned before its end; GetRecord has "
                               "its record")
        if not dominion.is_over(game.state):
            raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                               f"game {game.id} is not over; it can be replayed once it ends")
        return dominion.record(game.state), game.bot_names

    async def GetRecord(self, request, context):
        try:
            game = await self._fresh_game(request.game_id)
            state = game.state
            if not dominion.is_over(state) and not game.abandoned:
                raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                                   f"game {game.id} is not over; its record (and seed) is "
                                   "secret until it ends")
        except ServiceError as e:
            await context.abort(e.code, e.message)
        rec = dominion.record(state)
        out = pb.GetRecordResponse(config=config_to_pb(rec.config),
                                   engine_version=dominion.ENGINE_VERSION, bots=game.bot_names,
                                   ended=dominion.ending(state, game.abandoned),
                                   answer_count=len(rec.answers))
        if dominion.is_over(state):
            out.scores.extend(dominion.score(state))
            out.winners.extend(dominion.winners(state))
        replayed = dominion.new_game(rec.config)  # to learn each answer's decision kind
        for number, (seat, answer) in enumerate(rec.answers):
            kind = dominion.pending(replayed).kind
            out.answers.append(pb.RecordedAnswer(seat=seat,
                                                 answer=answer_to_pb(kind, answer, number)))
            replayed = dominion.step(replayed, answer, seat)
            if number % 200 == 199:
                await asyncio.sleep(0)
        return out


def _play_start(request) -> pb.PlayStart:
    """The PlayStart of a Play stream's first message, or INVALID_ARGUMENT."""
    if isinstance(request, Undecodable):
        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, request.message())
    if request.WhichOneof("kind") != "start":
        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                           "the first message of a Play stream is PlayRequest.start, naming the "
                           "game; answers come after it")
    return request.start


def _summary(g) -> pb.GameSummary:
    """A ListGames entry for a game being played (`Game`) or one over (`FinishedGame`)."""
    if isinstance(g, FinishedGame):
        return pb.GameSummary(game_id=g.game_id, players=g.players, bots=g.bots,
                              kingdom=g.kingdom, game_over=True, turn=g.turn,
                              sequence=g.answer_count, created=g.created,
                              abandoned=g.abandoned)
    state = g.state
    decision = dominion.pending(state)
    summary = pb.GameSummary(game_id=g.id, players=state.config.players, bots=g.bot_names,
                             kingdom=state.config.kingdom, game_over=decision is None,
                             turn=state.turn, sequence=dominion.decision_number(state),
                             created=g.created, abandoned=g.abandoned)
    if decision is not None:
        summary.waiting_for = decision.player
        if not g.abandoned:
            summary.open_seats.extend(i for i, s in enumerate(g.seats) if s.open_seat)
    return summary


SHARED_OPEN_SEATS = ("servers sharing a database (--shared) do not offer open seats: give "
                     "each person their seat's link")


def _read_page_token(token: str, filters: str) -> tuple:
    """The (-created, game_id) position a ListGames page token stands for."""
    try:
        made_for, created, game_id = token.split(":", 2)
        position = (-float(created), game_id)
    except ValueError:
        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                           f"page_token {quote(token)} is not one ListGames gave") from None
    if made_for != filters:
        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                           "page_token was made for other filters; use the same filters as for "
                           "the first page")
    return position


class RunningServer(NamedTuple):
    server: grpc.aio.Server
    service: DominionService
    port: int
    web: Optional[object] = None   # the web door (`web.RunningWeb`) when it was asked for
    health: Optional[object] = None
    relay: Optional[GrpcRelay] = None   # the gRPC door's public port, with a per-address cap

    @property
    def web_port(self) -> Optional[int]:
        return self.web.port if self.web is not None else None

    async def stop(self, grace: Optional[float] = 1.0) -> None:
        """Stop: new calls are refused (UNAVAILABLE), open streams end UNAVAILABLE at once
        (clients resume them after a restart), answers in flight are applied and stored within
        ``grace`` seconds; then the storage is closed. With no answer in flight it takes a
        moment, not ``grace``: every stream ends at once (health Watch streams too)."""
        self.service.stop_streams()
        if self.relay is not None:
            self.relay.stop_listening()
        if self.health is not None:
            await self.health.enter_graceful_shutdown()
        stops = [asyncio.ensure_future(self.server.stop(grace))]
        if self.web is not None:
            stops.append(asyncio.ensure_future(self.web.stop(grace or 0.0)))
        # New calls are refused from here on; once no answer is in flight, what is left (a
        # connection still in its handshake, an idle stream) is cut rather than waited for.
        try:
            await asyncio.wait_for(self.service.answering.in_flight.drained(), grace or 0)
        except asyncio.TimeoutError:
            pass
        await self.server.stop(0)
        await asyncio.gather(*stops)
        if self.relay is not None:
            await self.relay.close()
        if self.service.sharing is not None:
            await self.service.sharing.stop()
        self.service.close()


def grpc_options(options: ServiceOptions, reuse_port: bool = False) -> list:
    """The gRPC door's channel arguments: its connection limits (`ServiceOptions`), keepalive
    enforcement (a client may not ping more often than every 10 s without calls: more is a
    flood and ends its connection), and bounds on what one connection may hold (messages: gRPC's 4 MiB, each string in them
    refused past `limits.MAX_NAME`)."""
    idle_ms = int(options.idle_timeout * 1000)
    return [
        ("grpc.so_reuseport", int(reuse_port)),
        ("grpc.max_allowed_incoming_connections", options.max_connections),
        ("grpc.server_handshake_timeout_ms", idle_ms),     # slow TLS or HTTP/2 preface
        ("grpc.max_connection_idle_ms", idle_ms),          # no call under way for this long
        ("grpc.max_connection_age_ms", 24 * 3600 * 1000),  # then a GOAWAY; streams resume
        ("grpc.max_connection_age_grace_ms", 3600 * 1000),
        ("grpc.max_concurrent_streams", MAX_CALLS_PER_CONNECTION),
        ("grpc.keepalive_time_ms", 60_000),                # the server pings to find dead peers
        ("grpc.keepalive_timeout_ms", 20_000),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
        ("grpc.http2.max_ping_strikes", 2),
        ("grpc.max_metadata_size", MAX_METADATA_BYTES),
    ]


MAX_CALLS_PER_CONNECTION = 100     # calls (streams) open at once on one gRPC connection
MAX_METADATA_BYTES = 16 * 1024


async def start_server(storage: Storage, host: str = "127.0.0.1", port: int = 0,
                       options: ServiceOptions = ServiceOptions(),
                       web_port: Optional[int] = None,
                       tls: Optional[tuple] = None, reuse_port: bool = False) -> RunningServer:
    """Load every stored game, then serve on ``host:port`` (port 0: a free one; see
    `RunningServer.port`) with health checking and reflection (v1 and v1alpha), and, when
    ``web_port`` is given, the same service over Connect and gRPC-Web with the web page on
    ``host:web_port`` (`web`). ``tls``: (certificate file, private key file), PEM, to serve
    both doors over TLS only. Ports are bound exclusively: a port another server holds is
    refused (OSError), never shared. Connections per door are capped to fit the process's
    file limit (`limits.fit_to_file_limit`). ``reuse_port`` (``dominion serve --processes``):
    the ports are shared with the other processes of the same server (SO_REUSEPORT; a port
    another program holds is still refused)."""
    if not reuse_port:   # else the other processes hold them already: the bind decides
        check_address(host, port)
        if web_port is not None:
            check_address(host, web_port)
    credentials = _server_credentials(tls) if tls is not None else None
    relayed = options.max_connections_per_address > 0
    # Descriptors per connection: 1 on each door, and on the gRPC door's relay process 2 (the
    # client's, its own to gRPC), which its own file limit, as large as this one, must hold.
    options = fit_to_file_limit(options, (2 if relayed else 1) + (web_port is not None))
    rate_limited()
    service = DominionService(storage, options)
    await service.load()
    server = grpc.aio.server(options=grpc_options(options, reuse_port))
    server.add_generic_rpc_handlers((service_handler(service),))
    health_service = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_service, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME, REFLECTION_V1), server)
    server.add_generic_rpc_handlers((_reflection_v1_handler(server),))
    relay = None
    if relayed:   # gRPC listens privately; the relay, with the caps, on the public port
        relay = service.relay = GrpcRelay(options, service.proxies)
    address = relay.private if relay is not None else f"{host}:{port}"
    try:
        if credentials is not None:
            bound = server.add_secure_port(address, credentials)
        else:
            bound = server.add_insecure_port(address)
    except RuntimeError:  # grpc raises this for an address it cannot bind
        bound = 0
    if bound and relay is not None:
        try:
            bound = await relay.start(host, port, reuse_port)
        except OSError:
            bound = 0
    if not bound:
        service.close()
        if relay is not None:
            await relay.close()
        raise OSError(f"cannot listen on {host}:{port} (in use, or not an address of this "
                      "machine)")
    web = None
    if web_port is not None:
        from .web import start_web
        try:
            web = await start_web(service, host, web_port, options, tls, reuse_port)
        except OSError:
            await server.stop(None)
            service.close()
            if relay is not None:
                await relay.close()
            raise
    await server.start()
    for name in ("", SERVICE_NAME):
        await health_service.set(name, health_pb2.HealthCheckResponse.SERVING)
    service.start_sweeping()
    return RunningServer(server, service, bound, web, health_service, relay)


def _server_credentials(tls: tuple) -> grpc.ServerCredentials:
    """The gRPC door's TLS credentials from (certificate file, key file); OSError saying which
    file cannot be read."""
    cert_file, key_file = tls
    try:
        with open(cert_file, "rb") as f:
            cert = f.read()
        with open(key_file, "rb") as f:
            key = f.read()
    except OSError as e:
        raise OSError(f"cannot read the TLS file {e.filename}: {e.strerror}") from None
    if b"-----BEGIN" not in cert or b"-----BEGIN" not in key:
        raise OSError(f"the TLS certificate ({cert_file}) and key ({key_file}) must be PEM files")
    try:   # checked here: gRPC's own failure is a bind failure that names no file
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert_file, key_file)
    except ssl.SSLError as e:
        if e.reason == "KEY_VALUES_MISMATCH":
            raise OSError(f"the TLS key ({key_file}) does not match the certificate "
                          f"({cert_file})") from None
        raise OSError(f"the TLS certificate ({cert_file}) and key ({key_file}) cannot be used: "
                      f"{e.reason or e}") from None
    return grpc.ssl_server_credentials([(key, cert)])


def check_address(host: str, port: int) -> None:
    """Raise OSError with the system's reason when ``host:port`` cannot be listened on (an
    address of no interface here, a port in use), before gRPC tries and logs its own error."""
    if not 0 <= port <= 65535:
        raise OSError(f"cannot listen on {host}:{port}: a port is 0 to 65535")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise OSError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        # As gRPC binds: a port left in TIME_WAIT by a server that just stopped is free, a port
        # another server listens on is not (so_reuseport is off).
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as e:
            raise OSError(f"cannot listen on {host}:{port}: {e.strerror}") from None


def _lenient(message_class):
    def deserialize(data: bytes):
        try:
            return message_class.FromString(data)
        except Exception as e:  # DecodeError, and whatever protobuf raises on garbage
            return Undecodable(message_class.DESCRIPTOR.full_name, str(e)[:200])
    return deserialize


def _refusing_undecodable(method, streaming: bool):
    """``method`` behind a check that its request could be decoded."""
    
    if streaming:
        async def stream(request, context):
            if isinstance(request, Undecodable):
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, request.message())
            async for reply in method(request, context):
                yield reply
        return stream

    async def unary(request, context):
        if isinstance(request, Undecodable):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, request.message())
        return await method(request, context)
    return unary


_SHORT_OF = (errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS, errno.ENOSPC)


def _fault(e: BaseException) -> tuple:
    """The status for an unexpected fault of the server: RESOURCE_EXHAUSTED when it is short
    of files or memory, else INTERNAL; the message names no path or detail of the machine
    (those go to the log, rate-limited)."""
    log.error("a call failed: %s", e.__class__.__name__, exc_info=e)
    if isinstance(e, MemoryError) or getattr(e, "errno", None) in _SHORT_OF:
        return (grpc.StatusCode.RESOURCE_EXHAUSTED,
                "the server is short of resources (open files or memory); try again shortly")
    return grpc.StatusCode.INTERNAL, "the call failed in the server; see its log"


def fault_guard(method, streaming: bool):
    """``method`` (an RPC handler of either door) with an unexpected OSError or MemoryError
    turned into its status (`_fault`) rather than UNKNOWN with the exception's text."""
    if streaming:
        async def stream(request, context):
            try:
                async for reply in method(request, context):
                    yield reply
            except (OSError, MemoryError) as e:
                await context.abort(*_fault(e))
        return stream

    async def unary(request, context):
        try:
            return await method(request, context)
        except (OSError, MemoryError) as e:
            await context.abort(*_fault(e))
    return unary


def service_handler(service: DominionService) -> grpc.GenericRpcHandler:
    """The DominionService methods, as the generated registration makes them, except that
    undecodable request bytes are refused with INVALID_ARGUMENT and a message (a streamed
    request's by the method itself: Play, PlaySeats)."""
    descriptor = pb.DESCRIPTOR.services_by_name["DominionService"]
    handlers = {}
    for m in descriptor.methods:
        request_class = getattr(pb, m.input_type.name)
        response_class = getattr(pb, m.output_type.name)
        method = fault_guard(getattr(service, m.name), m.server_streaming)
        if m.client_streaming:
            make = grpc.stream_stream_rpc_method_handler
        else:
            make = grpc.unary_stream_rpc_method_handler if m.server_streaming else \
                grpc.unary_unary_rpc_method_handler
            method = _refusing_undecodable(method, m.server_streaming)
        serialize = response_class.SerializeToString
        if m.name == "PlaySeats":   # its responses are built serialized
            serialize = _passing_bytes(serialize)
        handlers[m.name] = make(method, request_deserializer=_lenient(request_class),
                                response_serializer=serialize)
    return grpc.method_handlers_generic_handler(descriptor.full_name, handlers)


def _passing_bytes(serialize):
    """A response serializer that sends bytes as they are (a response built serialized)."""
    def serializer(response) -> bytes:
        return response if response.__class__ is bytes else serialize(response)
    return serializer


REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"


def _reflection_v1_handler(server) -> grpc.GenericRpcHandler:
    """Server reflection v1 (what current tools ask first) beside v1alpha: the two protocols'
    messages are the same fields with the same numbers, so v1 is served by the v1alpha
    servicer with its messages."""
    from grpc_reflection.v1alpha import reflection_pb2 as refl
    servicer = reflection.aio.ReflectionServicer(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME, REFLECTION_V1))
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=refl.ServerReflectionRequest.FromString,
        response_serializer=refl.ServerReflectionResponse.SerializeToString)
    return grpc.method_handlers_generic_handler(REFLECTION_V1, {"ServerReflectionInfo": handler})
