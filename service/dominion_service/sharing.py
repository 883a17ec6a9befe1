"""Servers sharing one PostgreSQL database (``dominion serve --shared``): what one server learns
of the others, and the leases on the server bots.

- **Answers stored elsewhere.** The storage listens for the other servers' announcements
  (``game_id:number``, `storage_pg.PostgresStorage.listen`). A game held here that they
  changed is marked `Game.behind`; one that a stream here follows, or whose bots this server
  plays, catches up at once (`Answering.catch_up`: the rows are read from the table), the
  others at their next use. A game this server does not know is read when first asked for.
- **Bot leases.** Every `LEASE_EVERY` seconds the server renews its leases and takes over those
  expired (a server that died or stopped): their games catch up and their bots play on here.
- **Forgetting.** A game the others play and nobody here has asked for in `FORGET_AFTER`
  seconds (no stream follows it, its bots are not played here) is dropped from memory, and
  read again from the database if it is asked for: a server holds the games it serves, not
  every game the others play.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Awaitable, Callable, Optional

import dominion

from .answers import Answering
from .table import Game, GameTable

log = logging.getLogger("dominion_service")

LEASE_EVERY = 1.0   # seconds between renewals (a lease lasts storage_pg.LEASE_SECONDS)
RETRY_AFTER = 1.0   # seconds before a followed game whose catch-up failed tries again
FORGET_AFTER = 60.0   # seconds unused here after which a game played elsewhere is dropped


class Sharing:
    def __init__(self, table: GameTable, answering: Answering,
                 lookup: Callable[[str], Awaitable[Game]]):
        self.table = table
        self.answering = answering
        self.lookup = lookup          # a game by id, read from the database when unknown
        self.storage = answering.writer.storage
        self._loop = None
        self._tasks: set = set()
        self._leasing = None
        self._early: Optional[list] = None
        self._renewed = 0.0           # time.monotonic() of the last renewal that went through

    async def listen(self) -> None:
        """Listen to the other servers (before the games are loaded: nothing stored after it
        is missed)."""
        self._loop = asyncio.get_running_loop()
        self._early = []   # what is told while the games load, told again after (`start`)
        await self.answering.writer.read(self.storage.listen, self._told_threadsafe)

    async def start(self) -> None:
        """Take this server's first leases and play their bots; from then on renew them every
        `LEASE_EVERY` seconds."""
        early, self._early = self._early, None
        for game_id, number in early:
            self.told(game_id, number)
        await self._renew()
        self._leasing = asyncio.ensure_future(self._lease_forever())

    async def stop(self) -> None:
        """Hand this server's bots on (their leases expire now) and stop renewing."""
        if self._leasing is not None:
            self._leasing.cancel()
        self.answering.leased = set()
        try:
            await self.answering.writer.call(self.storage.release_leases)
        except Exception:   # they expire by themselves
            log.warning("the bot leases could not be handed on; they expire in seconds")

    def lease(self, game: Game) -> None:
        """A game this server just created: its bots are played here (its lease says so)."""
        if game.bots:
            self.answering.leased.add(game.id)

    # --- what the other servers say -------------------------------------------------------------

    def _told_threadsafe(self, game_id, number: int) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.told, game_id, number)

    def told(self, game_id, number: int) -> None:
        """Another server stored answer ``number`` of ``game_id`` (-1: ended the game as
        abandoned); ``game_id`` None: anything may have changed (listening was cut)."""
        if self._early is not None:   # the games are being loaded
            self._early.append((game_id, number))
            return
        if game_id is None:
            for game in list(self.table.playing.values()):
                self._behind(game)
            return
        game = self.table.playing.get(game_id)
        if game is not None:
            if number < 0 or number >= dominion.decision_number(game.state):
                self._behind(game)
        elif number == 0 and self.table.held(game_id) is None \
                and game_id not in self.table.broken:
            self._spawn(self._learn(game_id))   # a new game (its first number): read it

    def _behind(self, game: Game) -> None:
        game.behind = True
        game.last_change = time.monotonic()
        if (game.watchers or self.answering.plays_bots(game)) and not game.refreshing:
            game.refreshing = True
            self._spawn(self.refresh(game))

    async def refresh(self, game: Game) -> None:
        """Catch ``game`` up with the database and play its bots if they are this server's.
        When the database is away, again after `RETRY_AFTER` seconds while a stream follows
        the game or its bots are played here (they would wait for ever: nothing else tells
        them of answers stored meanwhile)."""
        async with game.lock:
            game.refreshing = False
            try:
                await self.answering.catch_up(game)
            except Exception:   # the database is away
                game.behind = True
                log.warning("game %s could not catch up with the database; again in %g s",
                            game.id, RETRY_AFTER)
                if self._loop is not None and not self.answering.stopping.is_set():
                    self._loop.call_later(RETRY_AFTER, self._again, game)
                return
            await self.answering.play_bots(game)

    def _again(self, game: Game) -> None:
        if game.behind and self.table.playing.get(game.id) is game:
            self._behind(game)

    async def _learn(self, game_id: str) -> None:
        try:
            await self.lookup(game_id)
        except Exception:   # gone, or the database is away: read when asked for
            log.debug("game %s could not be read", game_id, exc_info=True)

    def _spawn(self, coroutine) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- bot leases ----------------------------------------------------------------------------

    async def _lease_forever(self) -> None:
        while not self.answering.stopping.is_set():
            await asyncio.sleep(LEASE_EVERY)
            await self._renew()
            self.forget(FORGET_AFTER)

    def forget(self, after: float) -> int:
        """Drop the games played elsewhere (behind) that nobody here has used for ``after``
        seconds: no stream follows them, no answer is being applied, their bots are not
        played here. Returns how many."""
        now = time.monotonic()
        idle = [game for game in self.table.playing.values()
                if game.behind and now - game.last_use > after and not game.watchers
                and not game.refreshing and not game.lock.locked()
                and not self.answering.plays_bots(game)]
        for game in idle:
            del self.table.playing[game.id]
        return len(idle)

    async def _renew(self) -> None:
        from .storage_pg import LEASE_SECONDS
        try:
            held, taken = await self.answering.writer.call(self.storage.leases)
        except Exception as e:
            log.warning("the bot leases could not be renewed (%s)", e.__class__.__name__)
            if time.monotonic() - self._renewed > LEASE_SECONDS - LEASE_EVERY:
                self.answering.leased = set()   # another server may take them over by now
            return
        self._renewed = time.monotonic()
        self.answering.leased = held
        for game_id in taken:
            self._spawn(self._take_over(game_id))

    async def _take_over(self, game_id: str) -> None:
        try:
            game = await self.lookup(game_id)
        except Exception:
            log.debug("game %s of a lease taken over could not be read", game_id,
                      exc_info=True)
            return
        log.info("game %s: its bots play on this server now", game_id)
        await self.refresh(game)
