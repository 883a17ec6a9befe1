"""The gRPC service (``dominion.v1.DominionService``) on ``grpc.aio``.

Games are held in memory as engine states and stored as records (`storage`). Each game has an
`asyncio.Lock`: answers to one game are applied one at a time, other games go on meanwhile. Every
change of a game wakes the streams that follow it. Seats played by the server's bots are played
right after the change that puts a decision in front of them.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import socket
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple, Optional

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

import dominion
import dominion.bots
from dominion_proto import dominion_pb2 as pb
from dominion_proto import dominion_pb2_grpc as pb_grpc

from .convert import (TAG_1, TAG_2, TAG_3, TAG_4, TAG_6, AnswerShapeError, answer_from_pb,
                      answer_to_pb, config_to_pb, decision_to_bytes, events_to_bytes, field,
                      public_decision_to_bytes, varint, view_to_bytes, view_to_pb)
from . import replay
from .storage import BrokenGame, FinishedGame, SeatRecord, Storage, StoredGame

log = logging.getLogger("dominion_service")

TOKEN_METADATA = "x-seat-token"
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["DominionService"].full_name
DEFAULT_KINGDOM = "First Game"
_EVENT_BATCH = 256  # most events in one stream message
_STOPPING = "the server is stopping; resume the stream from the next event once it is back"
MAX_STREAM_SEATS = 1024   # seats on one PlaySeats stream at once
MAX_SEATS_BATCH = 1024    # adds and answers in one PlaySeatsRequest


# Limits on what a request may carry: every string and list is bounded, so that no request (and
# no stored game) can grow without bound, and no error message quotes more than a line.
MAX_NAME = 64          # seat names, bot names, card names, Kingdom and set names
MAX_GAME_ID = 64
MAX_LIST = 32          # cards, sets or seats in one request
MAX_QUOTE = 80         # characters of bad input an error message quotes
DEFAULT_PAGE, MAX_PAGE = 50, 200   # ListGames page sizes
RECENT_FINISHED = 64   # games over kept as states after they end or are read (the rest: rows)


def quote(value) -> str:
    """``repr(value)`` cut to MAX_QUOTE characters, for error messages."""
    text = repr(value)
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE - 3] + "..."


class ServiceOptions(NamedTuple):
    """What a server allows. ``allow_seed``: accept CreateGameRequest.seed (anyone who chooses
    the seed can compute every other seat's hand and deck order: for tests and tournaments,
    not for a server in public). The game limits bound what anyone can make the server hold
    and compute (all-bot games are played at once, so they count against the rate)."""
    allow_seed: bool = False
    max_games: int = 1000            # games not over, in all
    max_games_per_client: int = 20   # games not over, created from one client address
    max_creates_per_minute: int = 60 # games one client address may create in a minute


class ServiceError(Exception):
    """A refused request: the status code and a message the caller can act on."""

    def __init__(self, code: grpc.StatusCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bot_seed(seed: int, seat: int) -> int:
    """A bot's own seed, fixed by the game's seed and its seat (so a game replays alike) but
    telling nothing about the game's seed."""
    digest = hashlib.sha256(f"dominion-bot:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


class GameLock(asyncio.Lock):
    """A game's `asyncio.Lock`, which can also be taken without waiting (`try_acquire`)."""

    def try_acquire(self) -> bool:
        """Take the lock when it is free and nobody waits for it (what `acquire` would take at
        once), and return True; else False, changing nothing."""
        if self._locked or self._waiters:   # asyncio.Lock's state (its waiters: None or a deque)
            return False
        self._locked = True
        return True


class Game:
    """A game being served: its current state, seats, bots, lock, and change signal."""

    def __init__(self, game_id: str, state: dominion.State, seats: tuple, created: float,
                 creator: str = ""):
        self.id = game_id
        self.creator = creator                             # the creating client's address
        self.state = state
        self.seats = seats                                 # SeatRecord per seat
        self.bot_names = tuple(s.bot for s in seats)
        self.bots = {seat: dominion.bots.make_bot(s.bot, bot_seed(state.config.seed, seat))
                     for seat, s in enumerate(seats) if s.bot}
        self.created = created
        self.lock = GameLock()
        self.watchers: set = set()   # one asyncio.Event per stream following the game
        self.bot_retry = 0.0   # seconds before the bots try again after a storage failure
        self.wire_events: dict = {}   # serialized events (`convert.events_to_bytes`)

    def publish(self, state: dominion.State) -> None:
        """Make ``state`` current and wake every stream that follows the game."""
        self.state = state
        for wake in self.watchers:
            wake.set()

    def seat_of_token(self, token: str) -> Optional[int]:
        digest = token_digest(token)
        for seat, s in enumerate(self.seats):
            if s.token_digest and hmac.compare_digest(s.token_digest, digest):
                return seat
        return None


class DominionService(pb_grpc.DominionServiceServicer):
    """The RPC handlers. Refusals raise `ServiceError`; each handler turns it into its status
    with `context.abort`."""

    def __init__(self, storage: Storage, options: ServiceOptions = ServiceOptions()):
        self.storage = storage
        self.options = options
        self.games: dict[str, Game] = {}          # games not over, held as states
        self.finished: dict[str, FinishedGame] = {}  # games over: a summary; the record is
        self._recent: "OrderedDict[str, Game]" = OrderedDict()  # read when asked (LRU)
        self.broken: dict[str, str] = {}          # stored games that cannot be served: why
        self._replays = replay.Replays()          # GetReplay's checkpoints of recent records
        self._creations: dict[str, list] = {}     # client address -> recent creation times
        self.stopping = asyncio.Event()   # set at shutdown: streams end UNAVAILABLE (retry)
        # Storage calls run in one worker thread: the event loop keeps serving while a write
        # is made durable, and writes reach the database in the order they were made.
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dominion-db")
        # Answers waiting to be stored, and whether a group commit is under way (`_write`).
        self._writes: list = []
        self._writing = False
        self._tasks: set = set()   # PlaySeats answer tasks (held: asyncio keeps weak refs)
        self._seat_streams: set = set()   # open PlaySeats streams, woken at shutdown

    # --- life cycle ---------------------------------------------------------------------------

    async def load(self) -> None:
        """Rebuild every stored game that is not over by replaying its record (games over are
        listed from their rows, and read only when asked for, so a restart does not grow
        with the history), then let bots that are to answer play on. A game that cannot be
        served is reported (`broken`, with the reason) and kept in the database."""
        stored = await self._store(lambda: list(self.storage.load_games()))
        for g in stored:
            game = self._revive(g)
            if game is not None:
                self.games[g.game_id] = game
        for f in await self._store(lambda: list(self.storage.finished_games())):
            if isinstance(f, BrokenGame):
                self._report_broken(f.game_id, f.reason)
            else:
                self.finished[f.game_id] = f
        for game in list(self.games.values()):
            async with game.lock:
                await self._play_bots(game)

    def _revive(self, g) -> Optional[Game]:
        """A served game from its stored form, or None (reported) when it cannot be."""
        if isinstance(g, BrokenGame):
            self._report_broken(g.game_id, g.reason)
            return None
        try:
            state = dominion.replay((g.config, g.answers))
            return Game(g.game_id, state, g.seats, g.created)
        except Exception as e:  # a record this engine cannot replay, a bot it does not have
            self._report_broken(g.game_id, f"it cannot be replayed by this version: "
                                           f"{_short(str(e), 200)}")
            return None

    def _report_broken(self, game_id: str, reason: str) -> None:
        self.broken[game_id] = reason
        log.error("game %s is not served: %s (it stays in the database)", game_id, reason)

    def stop_streams(self) -> None:
        """Shutdown: every open stream wakes up and ends UNAVAILABLE (clients resume it)."""
        self.stopping.set()
        for game in list(self.games.values()) + list(self._recent.values()):
            game.publish(game.state)
        for stream in self._seat_streams:   # also those that play no seat now
            stream.wake.set()

    def close(self) -> None:
        self._db.shutdown(wait=True)
        self.storage.close()

    async def _store(self, fn, *args):
        if getattr(self.storage, "inline", False):  # no disk: not worth a thread hop
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    # --- helpers --------------------------------------------------------------------------------

    async def _game(self, game_id: str) -> Game:
        """The game ``game_id``: one being played, or one over (its record read again if it
        is not among the recent ones)."""
        if not game_id:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, "game_id is required")
        if len(game_id) > MAX_GAME_ID:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"game_id is at most {MAX_GAME_ID} characters, not "
                               f"{len(game_id)}")
        game = self.games.get(game_id) or self._recent.get(game_id)
        if game is not None:
            return game
        if game_id in self.broken:
            raise ServiceError(grpc.StatusCode.DATA_LOSS,
                               f"game {game_id} cannot be served: {self.broken[game_id]}")
        if game_id in self.finished:
            stored = await self._store(self.storage.load_game, game_id)
            game = self._revive(stored) if stored is not None else None
            if game is None:
                self.finished.pop(game_id, None)
                return await self._game(game_id)
            self._remember(game)
            return game
        raise ServiceError(grpc.StatusCode.NOT_FOUND,
                           f"no game {quote(game_id)} on this server; ListGames lists them")

    def _remember(self, game: Game) -> None:
        """Keep a game that is over among the recent ones (a few, least recently used out)."""
        self._recent[game.id] = game
        self._recent.move_to_end(game.id)
        while len(self._recent) > RECENT_FINISHED:
            self._recent.popitem(last=False)

    def _retire(self, game: Game) -> None:
        """A game just ended: keep its summary, and its state only among the recent ones."""
        state = game.state
        self.games.pop(game.id, None)
        self.finished[game.id] = FinishedGame(
            game.id, state.config.players, game.bot_names, state.config.kingdom, game.created,
            state.turn, dominion.decision_number(state))
        self._remember(game)

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

    async def _commit(self, game: Game, state: dominion.State, seat: int) -> None:
        """Store the answer that led to ``state`` (durably), then make ``state`` current. When
        it cannot be stored, nothing changes: the game stays where it was, and the caller
        learns that the answer was not applied (UNAVAILABLE: retry it)."""
        try:
            (error,) = await self._write_rows([_answer_row(game, state, seat)])
        except Exception as e:  # a fault of the write itself: not stored either
            error = e
        if error is not None:
            raise self._not_stored(game, state, error)
        self._publish(game, state)

    def _publish(self, game: Game, state: dominion.State) -> None:
        """Make ``state``, whose answer is stored, current."""
        game.publish(state)
        if dominion.is_over(state):
            self._retire(game)

    @staticmethod
    def _not_stored(game: Game, state: dominion.State, error: BaseException) -> ServiceError:
        number = dominion.decision_number(state) - 1
        log.error("game %s: answer %d could not be stored; not applied", game.id, number,
                  exc_info=error)
        return ServiceError(grpc.StatusCode.UNAVAILABLE,
                            f"answer {number} could not be stored, so it was not applied; "
                            "send it again")

    async def _write_rows(self, rows: list) -> list:
        """Store answers (`Storage.append_answer`'s arguments, a tuple each); returns once they
        are durable, with each one's exception or None. Answers that arrive while a write is
        under way are stored together in the next one (a group commit: one transaction, one
        sync for many games), each with its own outcome."""
        done = asyncio.get_running_loop().create_future()
        self._writes.append((rows, done))
        if not self._writing:
            self._writing = True
            asyncio.ensure_future(self._write_batches())
        return await done

    async def _write_batches(self) -> None:
        try:
            while self._writes:
                batch, self._writes = self._writes, []
                rows = [row for group, _ in batch for row in group]
                try:
                    errors = await self._store(self._append_rows, rows)
                except Exception as e:  # the whole batch failed (its transaction, the worker)
                    errors = [e] * len(rows)
                start = 0
                for group, done in batch:
                    if not done.done():
                        done.set_result(errors[start:start + len(group)])
                    start += len(group)
        finally:
            self._writing = False

    def _append_rows(self, rows: list) -> list:
        """In the storage thread: store ``rows``, one transaction when the storage can
        (`SqliteStorage.append_answers`); each row's exception or None."""
        many = getattr(self.storage, "append_answers", None)
        if many is not None:
            return many(rows)
        errors = []
        for row in rows:
            try:
                self.storage.append_answer(*row)
                errors.append(None)
            except Exception as e:
                errors.append(e)
        return errors

    async def _play_bots(self, game: Game) -> None:
        """Answer for the server's bots for as long as one of them is asked. Caller holds the
        game's lock. A bot's answer that cannot be stored is not applied, and the bots try
        again a little later (the caller's own answer stands: it was stored)."""
        try:
            await self._play_bots_now(game)
        except ServiceError:
            delay = game.bot_retry = min(2 * game.bot_retry or 0.05, 5.0)
            asyncio.get_running_loop().call_later(
                delay, lambda: asyncio.ensure_future(self._retry_bots(game)))
        else:
            game.bot_retry = 0.0

    async def _retry_bots(self, game: Game) -> None:
        if self.stopping.is_set():
            return
        async with game.lock:
            await self._play_bots(game)

    async def _play_bots_now(self, game: Game) -> None:
        while True:
            state = game.state
            decision = dominion.pending(state)
            if decision is None or decision.player not in game.bots:
                return
            seat = decision.player
            bot = game.bots[seat]
            # A bot reads the log from where it stopped, to count the cards it owns.
            seen = dominion.view(state, seat, log_from=bot.log_from)
            try:
                new = dominion.step(state, bot.answer(decision, seen), seat)
            except Exception:  # a faulty bot must not stop the game: answer at random instead
                log.exception("bot %s in game %s failed; answering at random",
                              game.bot_names[seat], game.id)
                fallback = dominion.bots.make_bot("random", bot_seed(state.config.seed, seat))
                new = dominion.step(state, fallback.answer(decision, seen), seat)
            await self._commit(game, new, seat)

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
        return pb.ListBotsResponse(bots=dominion.bots.bot_names())

    # --- games --------------------------------------------------------------------------------

    async def CreateGame(self, request, context):
        try:
            creator = _client_address(context)
            self._check_limits(creator)
            return await asyncio.shield(self._create_game(request, creator))
        except ServiceError as e:
            await context.abort(e.code, e.message)

    def _check_limits(self, creator: str) -> None:
        """RESOURCE_EXHAUSTED past the server's game limits (`ServiceOptions`); counts this
        creation against the client's rate."""
        o = self.options
        if len(self.games) >= o.max_games:
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"this server holds its maximum of {o.max_games} games in "
                               "progress; try again when some have ended")
        mine = sum(1 for g in self.games.values() if g.creator == creator)
        if mine >= o.max_games_per_client:
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"you have {mine} games in progress, the most this server "
                               "allows one client; finish some first")
        now = time.monotonic()
        recent = [t for t in self._creations.get(creator, ()) if now - t < 60]
        if len(recent) >= o.max_creates_per_minute:
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"at most {o.max_creates_per_minute} games a minute from one "
                               "client; try again shortly")
        self._creations[creator] = recent + [now]
        if len(self._creations) > 10_000:  # forget idle clients
            self._creations = {k: v for k, v in self._creations.items()
                               if v and now - v[-1] < 60}

    async def _create_game(self, request, creator: str = "") -> pb.CreateGameResponse:
        check_create_request(request)
        bots = dominion.bots.bot_names()
        for i, s in enumerate(request.seats):
            if s.bot and s.bot not in bots:
                raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"seat {i}: unknown bot {quote(s.bot)}; bots: "
                                   f"{', '.join(bots)}")
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
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, _short(str(e))) from None
        tokens = [None if s.bot else secrets.token_hex(24) for s in request.seats]
        seats = tuple(SeatRecord(s.bot, token_digest(t) if t else "")
                      for s, t in zip(request.seats, tokens))
        game_id = secrets.token_hex(8)
        created = time.time()
        try:
            await self._store(self.storage.create_game,
                              StoredGame(game_id, state.config, seats, created))
        except Exception:
            log.exception("game %s could not be stored; not created", game_id)
            raise ServiceError(grpc.StatusCode.UNAVAILABLE,
                               "the game could not be stored, so it was not created; try "
                               "again") from None
        game = Game(game_id, state, seats, created, creator)
        self.games[game_id] = game
        async with game.lock:
            await self._play_bots(game)
        return pb.CreateGameResponse(
            game_id=game_id, kingdom=state.config.kingdom,
            first_player=state.config.first_player,
            seats=[pb.SeatToken(seat=i, name=names[i], bot=s.bot, token=t or "")
                   for i, (s, t) in enumerate(zip(request.seats, tokens))])

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
        for field in ("player", "bot"):
            if len(getattr(request, field)) > MAX_NAME:
                raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"{field} is at most {MAX_NAME} characters")
        filters = hashlib.sha256(repr((request.include_finished, request.player, request.bot,
                                       request.waiting_for_client)).encode()).hexdigest()[:8]
        after = None
        if request.page_token:
            after = _read_page_token(request.page_token, filters)
        games = list(self.games.values())
        if request.include_finished:
            games += self.finished.values()
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
            game = await self._game(request.game_id)
            seat = self._seat(game, context, required=False)
            state = game.state
            log_from = request.log_from if request.HasField("log_from") else None
            if log_from is not None and log_from > len(state.log):
                raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"log_from {log_from} is past the log's end "
                                   f"({len(state.log)} events)")
            return pb.GetViewResponse(view=view_to_pb(game.id, state, seat, game.bot_names,
                                                      log_from))
        except ServiceError as e:
            await context.abort(e.code, e.message)

    async def SubmitAnswer(self, request, context):
        try:
            return await self._submit_answer(request, context)
        except ServiceError as e:
            await context.abort(e.code, e.message)

    async def _submit_answer(self, request, context) -> pb.SubmitAnswerResponse:
        """Checks in the order of the status codes' precedence: which game, who, what shape;
        then, under the game's lock: over, stale, whose turn, legal."""
        game = await self._game(request.game_id)
        seat = self._seat(game, context, required=True)
        answer = request.answer
        if not answer.HasField("sequence"):
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                               "Answer.sequence is required: the Decision.sequence you answer")
        # Shielded: a caller hanging up mid-way must not leave a stored answer unapplied.
        sequence, over = await asyncio.shield(self._answer(game, seat, answer))
        return pb.SubmitAnswerResponse(sequence=sequence, game_over=over)

    async def _answer(self, game: Game, seat: int, answer: pb.Answer,
                      applied=None) -> tuple:
        """Apply ``answer`` for ``seat``, or raise ServiceError changing nothing; returns the
        game's pending decision number and whether it is over, after the server's bots.
        ``applied()`` is called as soon as the answer is stored and current, before the
        server's bots answer after it (Play sends the outcome with the events it caused)."""
        async with game.lock:
            new = _stepped(game, seat, answer)
            await self._commit(game, new, seat)
            if applied is not None:
                applied()
            if game.bots:
                await self._play_bots(game)
            state = game.state
        return dominion.decision_number(state), dominion.is_over(state)

    async def StreamEvents(self, request, context):
        try:
            game = await self._game(request.game_id)
            seat = self._seat(game, context, required=False)
            self._check_from_event(game, request.from_event)
        except ServiceError as e:
            await context.abort(e.code, e.message)
        async for update in self._follow(game, seat, request.from_event, context,
                                         pb.StreamEventsResponse, asyncio.Event()):
            yield update

    @staticmethod
    def _check_from_event(game: Game, from_event: int) -> None:
        if from_event > len(game.state.log):
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"from_event {from_event} is past the log's end "
                               f"({len(game.state.log)} events)")

    async def _follow(self, game: Game, seat: Optional[int], cursor: int, context, message,
                      wake: asyncio.Event, play: Optional["_PlayStream"] = None):
        """The updates of StreamEvents and Play (``message``: their response class, whose
        fields 1 to 4 are alike): new events, the seat's decision with its view, what the game
        waits for, and the end; for Play also each answer's outcome. Sleeps until ``wake``
        is set: by every change of the game, at shutdown, and by Play's reader."""
        game.watchers.add(wake)
        try:
            sent_decision = sent_waiting = None
            names = game.state.config.players
            while True:
                wake.clear()
                if play is not None and play.fatal is not None:
                    await context.abort(*play.fatal)
                state = game.state
                if play is not None and play.batched and not play.must_send(state, seat,
                                                                            sent_decision):
                    if play.finished:
                        return
                    if game.state is state and not wake.is_set():
                        await wake.wait()
                    if self.stopping.is_set():
                        await context.abort(grpc.StatusCode.UNAVAILABLE, _STOPPING)
                    continue
                events = state.log
                # A long backlog goes out in slices, letting other calls run between them.
                while len(events) - cursor > _EVENT_BATCH:
                    update = message()
                    update.MergeFromString(events_to_bytes(
                        events, cursor, cursor + _EVENT_BATCH, seat, names, game.wire_events))
                    yield update
                    cursor += _EVENT_BATCH
                update = message()
                if cursor < len(events):
                    update.MergeFromString(events_to_bytes(events, cursor, len(events), seat,
                                                           names, game.wire_events))
                cursor = len(events)
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
                    return
                if seat is not None and decision.player == seat and number != sent_decision:
                    sent_decision = number
                    wire = decision_to_bytes(decision, number)
                    update.MergeFromString(field(TAG_2, field(TAG_1, wire) + field(
                        TAG_2, view_to_bytes(game.id, state, seat, game.bot_names, wire))))
                waiting = dominion.public_decision(decision, names,
                                                   len(state.players[decision.player].hand))
                if waiting != sent_waiting:
                    sent_waiting = waiting
                    update.MergeFromString(field(TAG_4, public_decision_to_bytes(waiting)))
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
                    await wake.wait()   # set by every change, and at shutdown (`stop_streams`)
                if self.stopping.is_set():
                    await context.abort(grpc.StatusCode.UNAVAILABLE, _STOPPING)
        finally:
            game.watchers.discard(wake)

    async def Play(self, requests, context):
        try:
            try:
                first = await requests.__anext__()
            except StopAsyncIteration:   # the client closed the stream without a word
                return
            start = _play_start(first)
            game = await self._game(start.game_id)
            seat = self._seat(game, context, required=True)
            self._check_from_event(game, start.from_event)
        except ServiceError as e:
            await context.abort(e.code, e.message)
        play = _PlayStream(start.batched)
        reader = asyncio.ensure_future(self._read_answers(requests, game, seat, play))
        try:
            async for update in self._follow(game, seat, start.from_event, context,
                                             pb.PlayResponse, play.wake, play):
                yield update
        finally:
            reader.cancel()

    async def _read_answers(self, requests, game: Game, seat: int, play: "_PlayStream"):
        """Play's reading side: applies each answer as SubmitAnswer does, and hands its outcome
        to the writing side (`_follow`). A malformed message ends the stream."""
        try:
            async for request in requests:
                if isinstance(request, _Undecodable):
                    return play.fail(_undecodable_message(request))
                kind = request.WhichOneof("kind")
                if kind != "answer":
                    return play.fail(
                        "this stream is started already: send PlayRequest.answer messages"
                        if kind == "start" else
                        "the message is empty: send PlayRequest.answer (or start, first)")
                answer = request.answer
                sequence = answer.sequence
                try:
                    if not answer.HasField("sequence"):
                        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                                           "Answer.sequence is required: the Decision.sequence "
                                           "you answer")
                    # Shielded: a client hanging up must not leave a stored answer unapplied.
                    await asyncio.shield(self._answer(game, seat, answer,
                                                      lambda: play.accept(sequence)))
                except ServiceError as e:
                    play.refuse(sequence, e)
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away mid-read: the call is over anyway
            log.debug("game %s: a Play stream stopped reading", game.id, exc_info=True)
        finally:
            play.reading_done()

    async def PlaySeats(self, requests, context):
        """Many seats on one stream (`_SeatsStream`): the reader adds seats and starts their
        answers; this writer sends, in one message, the updates of every seat marked since
        the last one."""
        stream = _SeatsStream()
        self._seat_streams.add(stream)
        reader = asyncio.ensure_future(self._read_seats(requests, stream))
        try:
            while True:
                stream.wake.clear()
                if stream.fatal is not None:
                    await context.abort(*stream.fatal)
                if self.stopping.is_set():
                    await context.abort(grpc.StatusCode.UNAVAILABLE, _STOPPING)
                # The response is built serialized (`_seat_updates`); the handler's serializer
                # passes bytes through (`service_handler`).
                out = [field(TAG_1, u.SerializeToString()) for u in stream.extra]
                stream.extra = []
                dirty, stream.dirty = stream.dirty, {}
                closing = stream.finished and not stream.busy
                seats = stream.seats
                for sp in dirty:
                    if seats.get(sp.ref) is sp and _seat_updates(sp, out, closing):
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
            self._seat_streams.discard(stream)
            for sp in stream.seats.values():
                sp.game.watchers.discard(sp)

    async def _read_seats(self, requests, stream: "_SeatsStream") -> None:
        """PlaySeats' reading side: adds seats, and queues each answer on its seat, whose
        answers one task applies in order (`_seat_answers`) while other seats' go on. A
        malformed message ends the stream. The first answers of the seats a message wakes
        are applied together (`_seats_answers`)."""
        starting: list = []   # seats whose answers are to be applied, none being applied
        try:
            async for request in requests:
                if isinstance(request, _Undecodable):
                    return stream.fail(_undecodable_message(request))
                entries = len(request.add) + len(request.answers)
                if not entries:
                    return stream.fail("the message is empty: send PlaySeatsRequest.add or "
                                       "answers")
                if entries > MAX_SEATS_BATCH:
                    return stream.fail(f"at most {MAX_SEATS_BATCH} adds and answers in one "
                                       f"message, not {entries}")
                for start in request.add:
                    if start.ref in stream.seats:
                        return stream.fail(f"ref {start.ref} is in use by a seat of this stream "
                                           "(until its game_over or closed is sent)")
                    await self._add_seat(stream, start)
                for item in request.answers:
                    sp = stream.seats.get(item.ref)
                    if sp is None:
                        stream.extra.append(pb.SeatUpdate(ref=item.ref, refused=pb.Refusal(
                            sequence=item.answer.sequence,
                            code=grpc.StatusCode.FAILED_PRECONDITION.value[0],
                            message=f"ref {item.ref} names no seat on this stream: add it "
                                    "with PlaySeatsRequest.add first (a seat leaves the stream "
                                    "once its game_over or closed is sent)")))
                        stream.wake.set()
                        continue
                    sp.queue.append(item.answer)
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

    async def _add_seat(self, stream: "_SeatsStream", start) -> None:
        """Put a seat on the stream, or refuse it alone (SeatUpdate.closed), as Play would."""
        try:
            if len(stream.seats) >= MAX_STREAM_SEATS:
                raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                   f"this stream plays its maximum of {MAX_STREAM_SEATS} seats; "
                                   "add more after some have ended, or on another stream")
            game = await self._game(start.game_id)
            if not start.token:
                raise ServiceError(grpc.StatusCode.UNAUTHENTICATED,
                                   "SeatStart.token is required: the seat token from "
                                   "CreateGame")
            seat = game.seat_of_token(start.token)
            if seat is None:
                raise ServiceError(grpc.StatusCode.PERMISSION_DENIED,
                                   f"this seat token belongs to no seat of game {game.id}")
            self._check_from_event(game, start.from_event)
        except ServiceError as e:
            stream.extra.append(pb.SeatUpdate(ref=start.ref, closed=pb.SeatClosed(
                code=e.code.value[0], message=e.message)))
            stream.wake.set()
            return
        sp = _SeatPlay(stream, start.ref, game, seat, start.from_event, start.batched)
        stream.seats[start.ref] = sp
        game.watchers.add(sp)
        sp.set()

    def _spawn(self, coroutine) -> None:
        """Run ``coroutine`` as a task that is held (asyncio keeps weak references) and never
        cancelled by a stream: an answer stored is applied even when the client has gone."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _seats_answers(self, sps: list, stream: "_SeatsStream") -> None:
        """Apply the first queued answer of each PlaySeats seat in ``sps`` (seats marked busy,
        in the order their answers came), as `_seat_answers` does, but together: each answer
        is checked and stepped under its game's lock, all are stored in one write, then each
        is made current (or refused) and its lock released. That saves a task, a lock wait
        and a wake-up per answer. A seat whose game's lock is taken (or that has server bots,
        which play after it under the lock) has its answers applied by `_seat_answers`, as
        has each seat's next answer."""
        later = []      # seats whose queue `_seat_answers` goes on with
        stepped = []    # (seat, sequence, new state): checked, lock held, not stored yet
        released = 0    # locks of `stepped` released
        try:
            for sp in sps:
                game = sp.game
                if game.bots or not game.lock.try_acquire():
                    later.append(sp)
                    continue
                answer = sp.queue.pop(0)
                sequence = answer.sequence
                try:
                    if not answer.HasField("sequence"):
                        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, _NO_SEQUENCE)
                    stepped.append((sp, sequence, _stepped(game, sp.seat, answer)))
                except ServiceError as e:
                    game.lock.release()
                    sp.outcome(sequence, e)
                    later.append(sp)
                except Exception:  # a fault of the server: the answer still gets an outcome
                    game.lock.release()
                    self._failed(sp, sequence)
                    later.append(sp)
            if not stepped:
                return
            try:
                errors = await self._write_rows([_answer_row(sp.game, new, sp.seat)
                                                 for sp, _, new in stepped])
            except Exception as e:  # a fault of the write itself: none is stored
                errors = [e] * len(stepped)
            for (sp, sequence, new), error in zip(stepped, errors):
                game = sp.game
                applied = False
                try:
                    if error is not None:
                        sp.outcome(sequence, self._not_stored(game, new, error))
                    else:
                        self._publish(game, new)
                        applied = True
                        sp.outcome(sequence, None)
                except Exception:
                    self._failed(sp, sequence, applied)
                finally:
                    released += 1
                    game.lock.release()
                    later.append(sp)
        finally:
            for sp, _, _ in stepped[released:]:   # only when this task was stopped mid-way
                sp.game.lock.release()
                later.append(sp)
            for sp in later:
                if sp.queue:
                    self._spawn(self._seat_answers(sp, stream))
                else:
                    sp.busy = False
                    stream.busy -= 1
                    sp.set()

    @staticmethod
    def _failed(sp: "_SeatPlay", sequence: int, applied: bool = False) -> None:
        """A fault of the server applying an answer: logged, and the answer's outcome, unless
        it was applied, is INTERNAL."""
        log.exception("game %s: answer %d on a PlaySeats stream failed", sp.game.id, sequence)
        if not applied:
            sp.outcome(sequence, ServiceError(grpc.StatusCode.INTERNAL,
                                              f"answer {sequence} failed in the server; see "
                                              "its log"))

    async def _seat_answers(self, sp: "_SeatPlay", stream: "_SeatsStream") -> None:
        """Apply a PlaySeats seat's queued answers in order, as SubmitAnswer does. Never
        cancelled: an answer stored is applied even when the client has gone."""
        try:
            while sp.queue:
                answer = sp.queue.pop(0)
                sequence = answer.sequence
                applied: list = []
                try:
                    if not answer.HasField("sequence"):
                        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, _NO_SEQUENCE)
                    await self._answer(sp.game, sp.seat, answer, lambda: (
                        applied.append(sequence), sp.outcome(sequence, None)))
                except ServiceError as e:
                    sp.outcome(sequence, e)
                except Exception:  # a fault of the server: the answer still gets an outcome
                    self._failed(sp, sequence, bool(applied))
        finally:
            sp.busy = False
            stream.busy -= 1
            sp.set()

    async def GetReplay(self, request, context):
        """The replay viewer's steps: `replay.get_replay`."""
        try:
            return await replay.get_replay(self._replays, request, self._finished_record,
                                           _client_address(context))
        except (ServiceError, replay.ReplayRefused) as e:
            await context.abort(e.code, e.message)

    async def _finished_record(self, game_id: str) -> tuple:
        game = await self._game(game_id)
        if not dominion.is_over(game.state):
            raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                               f"game {game.id} is not over; it can be replayed once it ends")
        return dominion.record(game.state), game.bot_names

    async def GetRecord(self, request, context):
        try:
            game = await self._game(request.game_id)
            state = game.state
            if not dominion.is_over(state):
                raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                                   f"game {game.id} is not over; its record (and seed) is "
                                   "secret until it ends")
        except ServiceError as e:
            await context.abort(e.code, e.message)
        rec = dominion.record(state)
        out = pb.GetRecordResponse(config=config_to_pb(rec.config), scores=dominion.score(state),
                                   winners=dominion.winners(state),
                                   engine_version=dominion.ENGINE_VERSION,
                                   bots=game.bot_names)
        replayed = dominion.new_game(rec.config)  # to learn each answer's decision kind
        for number, (seat, answer) in enumerate(rec.answers):
            kind = dominion.pending(replayed).kind
            out.answers.append(pb.RecordedAnswer(seat=seat,
                                                 answer=answer_to_pb(kind, answer, number)))
            replayed = dominion.step(replayed, answer, seat)
            if number % 200 == 199:
                await asyncio.sleep(0)
        return out


class _PlayStream:
    """What a Play stream's reading side tells its writing side: outcomes of answers to send,
    a malformed message that ends the stream, the client's end of sending."""

    __slots__ = ("wake", "outcomes", "fatal", "finished", "batched")

    def __init__(self, batched: bool):
        self.batched = batched       # PlayStart.batched
        self.wake = asyncio.Event()
        self.outcomes: list = []     # (sequence, None) applied, or (sequence, ServiceError)
        self.fatal: Optional[tuple] = None   # (status code, message) to end the stream with
        self.finished = False

    def accept(self, sequence: int) -> None:
        self.outcomes.append((sequence, None))
        self.wake.set()

    def refuse(self, sequence: int, error: ServiceError) -> None:
        self.outcomes.append((sequence, error))
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
            if error is None:
                update.accepted = sequence
            else:
                update.refused.sequence = sequence
                update.refused.code = error.code.value[0]
                update.refused.message = error.message
        return update


class _SeatsStream:
    """A PlaySeats stream's shared parts: its seats by ref, those with something new to send
    (`dirty`, in the order marked), updates not tied to a seat in play (`extra`), and what
    ends it."""

    __slots__ = ("wake", "seats", "dirty", "extra", "fatal", "finished", "busy")

    def __init__(self):
        self.wake = asyncio.Event()
        self.seats: dict = {}        # ref -> _SeatPlay
        self.dirty: dict = {}        # _SeatPlay -> None, an ordered set
        self.extra: list = []        # SeatUpdate: closed seats, answers for no seat
        self.fatal: Optional[tuple] = None
        self.finished = False        # the client closed its side (or went away)
        self.busy = 0                # seats whose answers are being applied

    def fail(self, message: str) -> None:
        self.fatal = (grpc.StatusCode.INVALID_ARGUMENT, message)
        self.wake.set()


class _SeatPlay:
    """One seat on a PlaySeats stream: where its updates stand, its answers waiting to be
    applied, and their outcomes. A watcher of its game (`Game.publish` calls `set`)."""

    __slots__ = ("stream", "ref", "game", "seat", "cursor", "batched", "sent_decision",
                 "sent_waiting", "outcomes", "queue", "busy")

    def __init__(self, stream: _SeatsStream, ref: int, game: Game, seat: int, cursor: int,
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


def _stepped(game: Game, seat: int, answer: pb.Answer) -> dominion.State:
    """The state ``answer`` for ``seat`` leads ``game`` to (the caller holds the game's lock),
    or ServiceError changing nothing. Checks in the order of the status codes' precedence:
    over, stale, whose turn, legal."""
    state = game.state
    decision = dominion.pending(state)
    number = dominion.decision_number(state)
    if decision is None:
        if answer.sequence < number:  # a retried answer: it was applied, and ended it
            raise ServiceError(grpc.StatusCode.ABORTED,
                               f"decision {answer.sequence} is already answered; the "
                               f"game is over")
        raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                           f"game {game.id} is over; no answer is expected")
    if answer.sequence != number:
        when = "already answered" if answer.sequence < number else "not asked yet"
        raise ServiceError(grpc.StatusCode.ABORTED,
                           f"decision {answer.sequence} is {when}; the pending decision "
                           f"is number {number}")
    if decision.player != seat:
        raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                           f"decision {number} is for seat {decision.player} "
                           f"({state.config.players[decision.player]}), not for your "
                           f"seat {seat}")
    try:
        return dominion.step(state, answer_from_pb(decision, answer), seat)
    except (AnswerShapeError, dominion.DominionError) as e:
        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, _short(str(e))) from None


def _answer_row(game: Game, state: dominion.State, seat: int) -> tuple:
    """The stored row (`Storage.append_answer`'s arguments) of the answer that led to
    ``state``."""
    number = dominion.decision_number(state) - 1
    return (game.id, number, seat, state.answers[number][1], dominion.is_over(state),
            state.turn)


_NO_SEQUENCE = "Answer.sequence is required: the Decision.sequence you answer"


def _outcome_bytes(outcome: tuple) -> bytes:
    """An answer's outcome, (sequence, None) or (sequence, ServiceError), as SeatUpdate's
    `accepted` or `refused` field, serialized."""
    sequence, error = outcome
    if error is None:
        return b"\x28" + varint(sequence)   # field 5, a varint
    return field(TAG_6, pb.Refusal(sequence=sequence, code=error.code.value[0],
                                   message=error.message).SerializeToString())


def _seat_updates(sp: _SeatPlay, out: list, flush: bool = False) -> bool:
    """Add to ``out`` what a PlaySeats seat has new, as Play's `_follow` sends it: serialized
    SeatUpdates, each as an `updates` entry (field 1) of PlaySeatsResponse, so that the
    response is their concatenation. True when the seat's last update (the game's end) is
    among them. ``flush``: send held outcomes even when batched (the client closed its side).
    An update holds the new events, then the decision with the view, `waiting` and the oldest
    outcome not sent; each further outcome comes in an update of its own."""
    game = sp.game
    state = game.state
    seat = sp.seat
    decision = dominion.pending(state)
    number = dominion.decision_number(state)
    outcomes = sp.outcomes
    if sp.batched and not flush and decision is not None:
        if not ((decision.player == seat and number != sp.sent_decision) or
                any(error is not None for _, error in outcomes)):
            return False
    ref = b"\x38" + varint(sp.ref)   # SeatUpdate.ref (field 7), ending each update
    events = state.log
    names = state.config.players
    cursor = sp.cursor
    while len(events) - cursor > _EVENT_BATCH:
        out.append(field(TAG_1, events_to_bytes(events, cursor, cursor + _EVENT_BATCH, seat,
                                                names, game.wire_events) + ref))
        cursor += _EVENT_BATCH
    parts = []
    if cursor < len(events):
        parts.append(events_to_bytes(events, cursor, len(events), seat, names,
                                     game.wire_events))
    sp.cursor = len(events)
    if decision is None:
        if outcomes:
            parts.append(_outcome_bytes(outcomes.pop(0)))
        more = [field(TAG_1, _outcome_bytes(o) + ref) for o in outcomes]
        outcomes.clear()
        if sp.busy or more:
            if parts:
                out.append(field(TAG_1, b"".join(parts) + ref))
            out.extend(more)
            if sp.busy:   # answers still being applied: the end comes after their outcomes
                return False
            parts = []
        parts.append(field(TAG_3, pb.GameOver(scores=dominion.score(state),
                                              winners=dominion.winners(state))
                                 .SerializeToString()))
        out.append(field(TAG_1, b"".join(parts) + ref))
        return True
    if decision.player == seat and number != sp.sent_decision:
        sp.sent_decision = number
        wire = decision_to_bytes(decision, number)
        view = dominion.view(state, seat)
        parts.append(field(TAG_2, field(TAG_1, wire) + field(TAG_2, view_to_bytes(
            game.id, state, seat, game.bot_names, wire, view))))
        waiting = view.waiting
    else:
        waiting = dominion.public_decision(decision, names,
                                           len(state.players[decision.player].hand))
    if waiting != sp.sent_waiting:
        sp.sent_waiting = waiting
        parts.append(field(TAG_4, public_decision_to_bytes(waiting)))
    if outcomes:
        parts.append(_outcome_bytes(outcomes.pop(0)))
    if parts:
        out.append(field(TAG_1, b"".join(parts) + ref))
    if outcomes:
        out.extend(field(TAG_1, _outcome_bytes(o) + ref) for o in outcomes)
        outcomes.clear()
    return False


def _play_start(request) -> pb.PlayStart:
    """The PlayStart of a Play stream's first message, or INVALID_ARGUMENT."""
    if isinstance(request, _Undecodable):
        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, _undecodable_message(request))
    if request.WhichOneof("kind") != "start":
        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                           "the first message of a Play stream is PlayRequest.start, naming the "
                           "game; answers come after it")
    return request.start


def _client_address(context) -> str:
    """The calling client's address without its port ("ipv4:127.0.0.1:5000" -> "127.0.0.1")."""
    peer = context.peer() or ""
    kind, _, rest = peer.partition(":")
    host = rest.rsplit(":", 1)[0] if kind in ("ipv4", "ipv6") else peer
    return host.strip("[]")


def _summary(g) -> pb.GameSummary:
    """A ListGames entry for a game being played (`Game`) or one over (`FinishedGame`)."""
    if isinstance(g, FinishedGame):
        return pb.GameSummary(game_id=g.game_id, players=g.players, bots=g.bots,
                              kingdom=g.kingdom, game_over=True, turn=g.turn,
                              sequence=g.answer_count, created=g.created)
    state = g.state
    decision = dominion.pending(state)
    summary = pb.GameSummary(game_id=g.id, players=state.config.players, bots=g.bot_names,
                             kingdom=state.config.kingdom, game_over=decision is None,
                             turn=state.turn, sequence=dominion.decision_number(state),
                             created=g.created)
    if decision is not None:
        summary.waiting_for = decision.player
    return summary


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


def _short(message: str, limit: int = 1000) -> str:
    """An engine error message, cut to ``limit`` characters (some list every legal answer)."""
    return message if len(message) <= limit else message[:limit - 3] + "..."


def check_create_request(request) -> None:
    """Refuse a CreateGameRequest whose strings or lists exceed the limits, before anything
    reads them (INVALID_ARGUMENT)."""
    def refuse(what: str):
        raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, what)

    if len(request.seats) > MAX_LIST:
        refuse(f"at most {MAX_LIST} seats, not {len(request.seats)}")
    for i, seat in enumerate(request.seats):
        for field in ("name", "bot"):
            if len(getattr(seat, field)) > MAX_NAME:
                refuse(f"seat {i}: {field} is at most {MAX_NAME} characters, not "
                       f"{len(getattr(seat, field))}")
    names = list(request.cards.cards) + list(request.random.sets) + [request.preset]
    if len(request.cards.cards) > MAX_LIST or len(request.random.sets) > MAX_LIST:
        refuse(f"at most {MAX_LIST} cards or sets")
    for name in names:
        if len(name) > MAX_NAME:
            refuse(f"a card, set or Kingdom name is at most {MAX_NAME} characters: "
                   f"{quote(name)}")


class RunningServer(NamedTuple):
    server: grpc.aio.Server
    service: DominionService
    port: int
    web: Optional[object] = None   # the web door (`web.RunningWeb`) when it was asked for

    @property
    def web_port(self) -> Optional[int]:
        return self.web.port if self.web is not None else None

    async def stop(self, grace: Optional[float] = 1.0) -> None:
        """Stop: new calls are refused (UNAVAILABLE), open streams end UNAVAILABLE at once
        (clients resume them after a restart), answers in flight are applied and stored within
        ``grace`` seconds; then the storage is closed."""
        self.service.stop_streams()
        if self.web is not None:
            await self.web.stop(grace or 0.0)
        await self.server.stop(grace)
        self.service.close()


async def start_server(storage: Storage, host: str = "127.0.0.1", port: int = 0,
                       options: ServiceOptions = ServiceOptions(),
                       web_port: Optional[int] = None) -> RunningServer:
    """Load every stored game, then serve on ``host:port`` (port 0: a free one; see
    `RunningServer.port`) with health checking and reflection (v1 and v1alpha), and, when
    ``web_port`` is given, the same service over Connect and gRPC-Web with the web page on
    ``host:web_port`` (`web`). Ports are bound exclusively: a port another server holds is
    refused (OSError), never shared."""
    check_address(host, port)
    if web_port is not None:
        check_address(host, web_port)
    service = DominionService(storage, options)
    await service.load()
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    server.add_generic_rpc_handlers((service_handler(service),))
    health_service = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_service, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME, REFLECTION_V1), server)
    server.add_generic_rpc_handlers((_reflection_v1_handler(server),))
    try:
        bound = server.add_insecure_port(f"{host}:{port}")
    except RuntimeError:  # grpc raises this for an address it cannot bind
        bound = 0
    if not bound:
        service.close()
        raise OSError(f"cannot listen on {host}:{port} (in use, or not an address of this "
                      "machine)")
    web = None
    if web_port is not None:
        from .web import start_web
        try:
            web = await start_web(service, host, web_port)
        except OSError:
            await server.stop(None)
            service.close()
            raise
    await server.start()
    for name in ("", SERVICE_NAME):
        await health_service.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningServer(server, service, bound, web)


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


class _Undecodable(NamedTuple):
    """Stands for request bytes that are not the method's message, so that the handler can
    refuse them with INVALID_ARGUMENT (a deserializer that raises gives UNKNOWN)."""
    type_name: str
    error: str


def _lenient(message_class):
    def deserialize(data: bytes):
        try:
            return message_class.FromString(data)
        except Exception as e:  # DecodeError, and whatever protobuf raises on garbage
            return _Undecodable(message_class.DESCRIPTOR.full_name, str(e)[:200])
    return deserialize


def _undecodable_message(request: _Undecodable) -> str:
    return (f"the request is not a valid {request.type_name} message ({request.error}); "
            "send the message the method takes, serialized")


def _refusing_undecodable(method, streaming: bool):
    """``method`` behind a check that its request could be decoded."""
    refusal = _undecodable_message

    if streaming:
        async def stream(request, context):
            if isinstance(request, _Undecodable):
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, refusal(request))
            async for reply in method(request, context):
                yield reply
        return stream

    async def unary(request, context):
        if isinstance(request, _Undecodable):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, refusal(request))
        return await method(request, context)
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
        method = getattr(service, m.name)
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
