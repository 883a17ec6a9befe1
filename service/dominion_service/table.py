"""The table of games a server holds: each game being played (its state, seats, bots, lock and
the streams that follow it), the summaries of games over, and the stored games it cannot
serve."""
from __future__ import annotations

import asyncio
import collections
import hashlib
import hmac
import logging
import time
from collections import OrderedDict
from typing import Optional

import grpc

import dominion
import dominion.bots

from .chat import Chat
from .limits import MAX_GAME_ID, ServiceError, quote, short
from .storage import BrokenGame, FinishedGame

log = logging.getLogger("dominion_service")

RECENT_FINISHED = 64   # games over kept as states after they end or are read (the rest: rows)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bot_seed(seed: int, seat: int) -> int:
    """A bot's own seed, fixed by the game's seed and its seat (so a game replays alike) but
    telling nothing about the game's seed."""
    digest = hashlib.sha256(f"dominion-bot:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


class GameLock:
    """A first-come first-served lock for one game's answers, which can also be taken without
    waiting (`try_acquire`: PlaySeats takes every free lock of a batch at once). Its own small
    lock rather than asyncio.Lock, whose waiters are private."""

    __slots__ = ("_held", "_waiters")

    def __init__(self):
        self._held = False
        self._waiters: collections.deque = collections.deque()   # futures, oldest first

    def locked(self) -> bool:
        return self._held

    def try_acquire(self) -> bool:
        """Take the lock when it is free and nobody waits for it, and return True; else
        False, changing nothing."""
        if self._held or self._waiters:
            return False
        self._held = True
        return True

    async def acquire(self) -> None:
        if self.try_acquire():
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter   # `release` hands the lock over by setting it
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()          # handed over as the waiter was cancelled: pass it on
            else:
                self._waiters.remove(waiter)
            raise

    def release(self) -> None:
        """Hand the lock to the oldest waiter still waiting, or free it."""
        if not self._held:
            raise RuntimeError("GameLock released while not held")
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)   # stays held, by the waiter now
                return
        self._held = False

    async def __aenter__(self):
        await self.acquire()

    async def __aexit__(self, *exc):
        self.release()


class Game:
    """A game being served: its current state, seats, bots, lock, and change signal."""

    def __init__(self, game_id: str, state: dominion.State, seats: tuple, created: float,
                 creator: str = "", now: float = 0.0, make_bot=dominion.bots.make_bot):
        self.id = game_id
        self.creator = creator                             # the creating client's address
        self.state = state
        self.seats = seats                                 # SeatRecord per seat
        self.bot_names = tuple(s.bot for s in seats)
        self.bots = {seat: make_bot(s.bot, bot_seed(state.config.seed, seat))
                     for seat, s in enumerate(seats) if s.bot}
        self.created = created
        self.lock = GameLock()
        self.watchers: set = set()   # one per stream following the game (`set()` wakes it)
        self.bot_retry = 0.0   # seconds before the bots try again after a storage failure
        self.wire_events: dict = {}   # serialized events (`convert.events_to_bytes`)
        self.last_change = now        # `time.monotonic()` of its last answer (or its start)
        self.abandoned = False        # ended by the server for want of answers (`abandon`)
        # Servers sharing a database: another server said it stored an answer (read it
        # before the next use), and a catching up is scheduled (`sharing.Sharing`).
        self.behind = False
        self.refreshing = False
        self.last_use = now           # `time.monotonic()` of the last request for it
        self.undo = True              # its seats may take back a move (CreateGameRequest.undo)
        self.previous: Optional[dominion.State] = None   # the state before the current one
        self.chat = Chat()            # what its people said (in memory only)
        # While the seat deciding is a search bot of this server planning its Kingdom: how
        # far, in percent (`show_planning`); None otherwise. In this server's memory only.
        self.planning: Optional[int] = None

    def publish(self, state: dominion.State) -> None:
        """Make ``state`` current and wake every stream that follows the game."""
        self.previous = self.state
        self.state = state
        for watcher in self.watchers:
            watcher.set()

    def show_planning(self, percent: Optional[int]) -> None:
        """Say how far the deciding bot's planning is (None: not planning) to every stream
        that follows the game; the state does not change."""
        if percent != self.planning:
            self.planning = percent
            for watcher in self.watchers:
                watcher.set()

    def can_undo(self, state: dominion.State, seat: Optional[int]) -> bool:
        """Whether ``seat`` may take back its last answer in ``state``: the game allows it and
        the engine's rule does (`dominion.can_take_back`, spared a replay by the state before
        the current one when ``state`` is current)."""
        if not self.undo or seat is None:
            return False
        return dominion.can_take_back(state, seat,
                                      self.previous if state is self.state else None)

    def seat_of_token(self, token: str) -> Optional[int]:
        digest = token_digest(token)
        for seat, s in enumerate(self.seats):
            if s.token_digest and hmac.compare_digest(s.token_digest, digest):
                return seat
        return None


def unreadable(game_id: str, error: Optional[BaseException] = None) -> ServiceError:
    """The refusal of a call about a game the database could not give (it is away): logged
    with what went wrong (``error``, else the exception being handled), UNAVAILABLE for the
    caller, who tries again."""
    log.warning("game %s could not be read from the database", game_id,
                exc_info=error if error is not None else True)
    return ServiceError(grpc.StatusCode.UNAVAILABLE,
                        f"game {game_id} could not be read from the database; try again")


def abandoned_message(game: Game) -> str:
    return (f"game {game.id} was ended as abandoned: nobody answered for too long; its "
            "record is kept (GetRecord)")


class GameTable:
    """Games by id: those being played (``playing``, states in memory), those over
    (``finished``: a summary; a few recent ones as states, the rest read again when asked
    for), and stored games that cannot be served (``broken``: why)."""

    def __init__(self, make_bot=dominion.bots.make_bot):
        self.make_bot = make_bot   # a seat's bot by name (the server's search budget in it)
        self.playing: dict[str, Game] = {}
        self.finished: dict[str, FinishedGame] = {}
        self.recent: "OrderedDict[str, Game]" = OrderedDict()   # least recently used first
        self.broken: dict[str, str] = {}

    def revive(self, g) -> Optional[Game]:
        """A served game from its stored form, or None (reported) when it cannot be."""
        if isinstance(g, BrokenGame):
            self.report_broken(g.game_id, g.reason)
            return None
        try:
            state = dominion.replay((g.config, g.answers))
            game = Game(g.game_id, state, g.seats, g.created, g.creator, time.monotonic(),
                        self.make_bot)
            game.abandoned = g.abandoned
            game.undo = g.undo
            return game
        except Exception as e:  # a record this engine cannot replay, a bot it does not have
            self.report_broken(g.game_id, f"it cannot be replayed by this version: "
                                          f"{short(str(e), 200)}")
            return None

    def report_broken(self, game_id: str, reason: str) -> None:
        self.broken[game_id] = reason
        log.error("game %s is not served: %s (it stays in the database)", game_id, reason)

    def held(self, game_id: str) -> Optional[Game]:
        """The game ``game_id`` when it is in memory."""
        return self.playing.get(game_id) or self.recent.get(game_id)

    def check_id(self, game_id: str) -> None:
        if not game_id:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, "game_id is required")
        if len(game_id) > MAX_GAME_ID:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"game_id is at most {MAX_GAME_ID} characters, not "
                               f"{len(game_id)}")

    def refuse_missing(self, game_id: str) -> ServiceError:
        if game_id in self.broken:
            return ServiceError(grpc.StatusCode.DATA_LOSS,
                                f"game {game_id} cannot be served: {self.broken[game_id]}")
        return ServiceError(grpc.StatusCode.NOT_FOUND,
                            f"no game {quote(game_id)} on this server; ListGames lists them")

    def remember(self, game: Game) -> None:
        """Keep a game that is over among the recent ones (a few, least recently used out)."""
        self.recent[game.id] = game
        self.recent.move_to_end(game.id)
        while len(self.recent) > RECENT_FINISHED:
            self.recent.popitem(last=False)

    def retire(self, game: Game) -> None:
        """A game just ended (or was abandoned): keep its summary, and its state only among
        the recent ones."""
        state = game.state
        self.playing.pop(game.id, None)
        self.finished[game.id] = FinishedGame(
            game.id, state.config.players, game.bot_names, state.config.kingdom, game.created,
            state.turn, dominion.decision_number(state), game.abandoned)
        self.remember(game)

    def all_held(self) -> list:
        return list(self.playing.values()) + list(self.recent.values())

