"""The one path an answer takes into a game, whichever call brought it (SubmitAnswer, Play,
PlaySeats) and the server's own bots: check, step, store, publish.

Ordering guarantees (what every caller relies on):

1. **One answer at a time per game.** An answer is checked and stepped under its game's lock
   (`table.GameLock`, first come first served), against the state current at that moment;
   answers to other games go on meanwhile.
2. **Stored before seen.** A new state becomes current (`Game.publish`, which wakes the
   streams) only once the answer that led to it is durable. An answer that cannot be stored
   changes nothing; its caller learns it was not applied (UNAVAILABLE: send it again).
3. **Outcome before the bots.** A caller's ``applied`` callback runs once its answer is stored
   and current, before the server's bots answer after it, so a stream sends the answer's
   outcome with the events it caused and before the bots' events.
4. **In the order sent.** Callers apply one seat's answers one after another (SubmitAnswer
   per call, Play's reader and each PlaySeats seat await each answer before the next), so a
   seat's answers are applied, and their outcomes sent, in the order they came.
5. **Batched, not reordered.** `Answering.apply` takes at once the locks of a batch that are
   free (PlaySeats: the first answers of the seats one message wakes), stores those answers in
   one write, and applies the others one by one as their locks come free.
6. **Never half done.** Callers shield `apply` from their client hanging up (or run it as a
   task no stream cancels): an answer stored is always made current.

Servers sharing a PostgreSQL database (``--shared``, `shared`): a game held here may be behind
the database, where other servers store answers too. The database decides (answer N is stored
only while the game has N answers), so an answer checked against a state that is behind is
never stored; an answer refused or not stored here is checked again after catching up from the
table (`catch_up`: the answers past those held, stepped in order), so that its outcome is
that of the game as stored (ABORTED for a decision another server's answer took). A game that
another server said it changed (`Game.behind`) is caught up before an answer is checked. The
server bots of a game are played by the one server holding its lease (`leased`).
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable, Optional

import grpc

import dominion
import dominion.bots
from dominion_proto import dominion_pb2 as pb

from .convert import AnswerShapeError, answer_from_pb
from .limits import ServiceError, short
from .search_seats import SearchSeats
from .storage import AnswerConflict, answer_from_json
from .table import Game, GameTable, abandoned_message, bot_seed, unreadable
from .writer import GroupWriter

log = logging.getLogger("dominion_service")

NO_SEQUENCE = "Answer.sequence is required: the Decision.sequence you answer"
SHARED_ATTEMPTS = 5   # tries of one answer, catching up in between (servers sharing a database)


class Pending:
    """One answer on its way in, and after `Answering.apply`, how it went: ``error`` (a
    ServiceError; None when applied) and ``after`` (the game's pending decision number and
    whether it is over, after the server's bots)."""

    __slots__ = ("game", "seat", "answer", "applied", "error", "after", "stored")

    def __init__(self, game: Game, seat: int, answer: pb.Answer,
                 applied: Optional[Callable[[], None]] = None):
        self.game = game
        self.seat = seat
        self.answer = answer
        self.applied = applied    # called once stored and current, before the bots answer
        self.error: Optional[ServiceError] = None
        self.after: tuple = (0, False)
        self.stored = False


class InFlight:
    """Work a stop must wait for (answers being applied, games being created): counted, so
    that a server with none stops at once instead of waiting its whole grace."""

    def __init__(self):
        self.count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def __enter__(self):
        self.count += 1
        self._idle.clear()

    def __exit__(self, *exc):
        self.count -= 1
        if not self.count:
            self._idle.set()

    async def drained(self) -> None:
        await self._idle.wait()


class Answering:
    def __init__(self, table: GameTable, writer: GroupWriter, stopping: asyncio.Event,
                 search_seats: SearchSeats):
        self.table = table
        self.search_seats = search_seats   # answers for the server's bots
        self.writer = writer
        self.stopping = stopping
        self.in_flight = InFlight()
        self._tasks: set = set()   # `play_bots_later`'s
        self.shared = bool(getattr(writer.storage, "shared", False))
        # Shared: the games whose server bots this server plays (their leases); else None
        # (every game's).
        self.leased: Optional[set] = set() if self.shared else None

    def plays_bots(self, game: Game) -> bool:
        return bool(game.bots) and (self.leased is None or game.id in self.leased)

    async def catch_up(self, game: Game) -> bool:
        """Shared: apply the answers other servers stored past those this server holds (and
        their end, when one ended the game as abandoned); True when the game changed. Caller
        holds the game's lock. UNAVAILABLE (ServiceError) when the database cannot be read."""
        if not self.shared or game.id in self.table.broken:
            return False
        game.behind = False
        state = game.state
        try:
            found = await self.writer.read(self.writer.storage.answers_after, game.id,
                                           dominion.decision_number(state))
        except Exception:  # the database is away: still behind, and the caller is told
            game.behind = True
            raise unreadable(game.id) from None
        if found is None:
            return False
        _, _, abandoned, rows = found
        try:
            for number, seat, text in rows:
                if number != dominion.decision_number(state):
                    raise ValueError(f"answer {number} stored where "
                                     f"{dominion.decision_number(state)} was expected")
                state = dominion.step(state, answer_from_json(text), seat)
        except Exception as e:  # a record this server cannot follow: not served from here on
            self.table.report_broken(game.id, f"its stored answers cannot be followed: "
                                              f"{short(str(e), 200)}")
            self.table.playing.pop(game.id, None)
            return False
        changed = state is not game.state
        if changed:
            self.publish(game, state)
        if abandoned and not game.abandoned:
            game.abandoned = changed = True
            self.table.retire(game)
            game.publish(game.state)   # its streams see that it ended
        return changed

    async def apply(self, items: list) -> None:
        """Apply each answer of ``items`` (`Pending`) or record why not, keeping the module's
        ordering guarantees: the free locks are taken at once and their answers stored
        together; the rest wait for their locks, one by one."""
        with self.in_flight:
            await self._apply(items)

    async def _apply(self, items: list) -> None:
        now, later = [], []
        for item in items:
            (now if item.game.lock.try_acquire() else later).append(item)
        if now:
            await self._apply_locked(now)
        for item in later:
            await item.game.lock.acquire()
            await self._apply_locked([item])

    async def _apply_locked(self, items: list) -> None:
        """Check, step, store and publish ``items``, whose games' locks this call holds (and
        releases: first those of games without server bots, the others after their bots).
        Shared: an answer refused or not stored is tried again once its game has caught up
        with the database, for as long as catching up finds something new."""
        held = list(items)
        try:
            todo = items
            for _ in range(SHARED_ATTEMPTS if self.shared else 1):
                for game in {id(i.game): i.game for i in todo if i.game.behind}.values():
                    await self._caught_up(game)   # when it fails, the database still decides
                again = await self._try_apply(todo)
                if not self.shared:
                    break
                todo = []
                for item in again:
                    if await self._caught_up(item.game):
                        item.error = None
                        todo.append(item)
                if not todo:
                    break
            for item in [i for i in held if not (i.stored and self.plays_bots(i.game))]:
                item.after = _position(item.game.state)
                held.remove(item)
                item.game.lock.release()
            while held:
                item = held[0]
                await self.play_bots(item.game)
                item.after = _position(item.game.state)
                held.pop(0)
                item.game.lock.release()
        finally:
            for item in held:   # only when this call was stopped mid-way
                item.game.lock.release()

    async def _try_apply(self, items: list) -> list:
        """Check, step, store and publish ``items`` (their games' locks held); returns those
        refused or not stored because their game may be behind the database (shared)."""
        stepped, stale = [], []
        for item in items:
            try:
                stepped.append((item, self._stepped(item)))
            except ServiceError as e:
                item.error = e
                stale.append(item)
            except Exception:  # a fault of the server: the answer still gets an outcome
                item.error = _internal(item)
        if stepped:
            try:
                errors = await self.writer.write_rows([answer_row(item.game, new, item.seat)
                                                       for item, new in stepped])
            except Exception as e:  # a fault of the write itself: none is stored
                errors = [e] * len(stepped)
            for (item, new), error in zip(stepped, errors):
                if error is not None:
                    if self.shared and isinstance(error, AnswerConflict):
                        item.error = taken_elsewhere(new)
                        stale.append(item)
                    else:
                        item.error = not_stored(item.game, new, error)
                    continue
                self.publish(item.game, new)
                item.stored = True
                if item.applied is not None:
                    item.applied()
        return stale

    async def _caught_up(self, game: Game) -> bool:
        """`catch_up`, False when the database cannot be read (nothing changed)."""
        try:
            return await self.catch_up(game)
        except ServiceError:
            return False

    def _stepped(self, item: Pending) -> dominion.State:
        """The state ``item``'s answer leads its game to, or ServiceError changing nothing.
        Checks in the order of the status codes' precedence: shape of the request, over,
        stale, whose turn (a resignation may come from any seat), legal."""
        game, seat, answer = item.game, item.seat, item.answer
        if not answer.HasField("sequence"):
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, NO_SEQUENCE)
        state = game.state
        decision = dominion.pending(state)
        number = dominion.decision_number(state)
        if game.abandoned:
            raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION, abandoned_message(game))
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
        if answer.HasField("take_back"):
            return _taken_back(game, state, seat)
        if decision.player != seat and answer.WhichOneof("value") != "resign":
            raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                               f"decision {number} is for seat {decision.player} "
                               f"({state.config.players[decision.player]}), not for your "
                               f"seat {seat}")
        try:
            return dominion.step(state, answer_from_pb(decision, answer), seat)
        except (AnswerShapeError, dominion.DominionError) as e:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, short(str(e))) from None

    def publish(self, game: Game, state: dominion.State) -> None:
        """Make ``state``, whose answer is stored, current (a game over leaves the games in
        progress)."""
        game.last_change = time.monotonic()
        game.publish(state)
        if dominion.is_over(state):
            self.table.retire(game)

    async def store_and_publish(self, game: Game, state: dominion.State, seat: int) -> None:
        """Store the answer that led to ``state`` (durably), then make ``state`` current; or
        raise UNAVAILABLE changing nothing. Caller holds the game's lock. Shared: when
        another server stored an answer to that decision first, the game catches up with the
        database instead."""
        try:
            (error,) = await self.writer.write_rows([answer_row(game, state, seat)])
        except Exception as e:  # a fault of the write itself: not stored either
            error = e
        if error is not None:
            if isinstance(error, AnswerConflict) and await self.catch_up(game):
                return
            raise not_stored(game, state, error)
        self.publish(game, state)

    async def abandon_idle(self, after: float) -> int:
        """End as abandoned every game in progress that has had no answer for ``after``
        seconds and is not answering now: recorded (`Storage.abandon_game`), its slot freed,
        its streams ended. Returns how many."""
        now = time.monotonic()
        ended = 0
        for game in [g for g in self.table.playing.values() if now - g.last_change > after]:
            if not game.lock.try_acquire():
                continue
            try:
                await self.writer.call(self.writer.storage.abandon_game, game.id)
                game.abandoned = True
                self.table.retire(game)
                game.publish(game.state)   # its streams see that it ended
                ended += 1
                log.info("game %s ended as abandoned: no answer for %.0f s", game.id, after)
            except Exception:
                log.exception("game %s could not be recorded as abandoned; kept", game.id)
            finally:
                game.lock.release()
        return ended

    # --- the server's bots ------------------------------------------------------------------------

    async def play_bots(self, game: Game) -> None:
        """Answer for the server's bots for as long as one of them is asked. Caller holds the
        game's lock. A bot's answer that cannot be stored is not applied, and the bots try
        again a little later (the caller's own answer stands: it was stored). Shared: only
        the server holding the game's bot lease plays them."""
        if not self.plays_bots(game):
            return
        try:
            await self._play_bots_now(game)
        except ServiceError:
            delay = game.bot_retry = min(2 * game.bot_retry or 0.05, 5.0)
            asyncio.get_running_loop().call_later(
                delay, lambda: self.play_bots_later(game))
        else:
            game.bot_retry = 0.0

    def play_bots_later(self, game: Game) -> None:
        """`play_bots` in a task of its own, once the game's lock is free: the caller does
        not wait for the bots (a retry, or a search seat planning its Kingdom first)."""
        task = asyncio.ensure_future(self._play_bots_locked(game))
        self._tasks.add(task)   # (asyncio holds tasks weakly)
        task.add_done_callback(self._tasks.discard)

    async def _play_bots_locked(self, game: Game) -> None:
        if self.stopping.is_set():
            return
        async with game.lock:
            await self.play_bots(game)

    async def _play_bots_now(self, game: Game) -> None:
        while True:
            state = game.state
            decision = dominion.pending(state)
            if decision is None or decision.player not in game.bots \
                    or not self.plays_bots(game):
                return
            seat = decision.player
            bot = game.bots[seat]
            try:   # a search bot searches in `search_seats`' threads: the loop serves on
                new = dominion.step(state, await self.search_seats.answer(
                    bot, state, seat, game.show_planning), seat)
            except Exception:  # a faulty bot must not stop the game: answer at random instead
                log.exception("bot %s in game %s failed; answering at random",
                              game.bot_names[seat], game.id)
                fallback = dominion.bots.make_bot("random", bot_seed(state.config.seed, seat))
                new = dominion.step(state, fallback.answer(decision, dominion.view(state, seat)),
                                    seat)
            await self.store_and_publish(game, new, seat)


def _taken_back(game: Game, state: dominion.State, seat: int) -> dominion.State:
    """The state after ``seat`` takes back its last answer (Undo), or FAILED_PRECONDITION
    saying why not, changing nothing: the game's setting, then the engine's rule."""
    if not game.undo:
        raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                           f"game {game.id} does not allow taking back a move (it was created "
                           "with undo off)")
    try:
        return dominion.take_back(state, seat, game.previous)
    except dominion.TakeBackRefusedError as e:
        raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                           f"nothing was taken back: {e}") from None


def _position(state: dominion.State) -> tuple:
    return dominion.decision_number(state), dominion.is_over(state)


def _internal(item: Pending) -> ServiceError:
    """A fault of the server applying an answer: logged, and the answer's outcome."""
    sequence = item.answer.sequence
    log.exception("game %s: answer %d failed", item.game.id, sequence)
    return ServiceError(grpc.StatusCode.INTERNAL,
                        f"answer {sequence} failed in the server; see its log")


def answer_row(game: Game, state: dominion.State, seat: int) -> tuple:
    """The stored row (`Storage.append_answer`'s arguments) of the answer that led to
    ``state``."""
    number = dominion.decision_number(state) - 1
    return (game.id, number, seat, state.answers[number][1], dominion.is_over(state),
            state.turn)


def taken_elsewhere(state: dominion.State) -> ServiceError:
    number = dominion.decision_number(state) - 1
    return ServiceError(grpc.StatusCode.ABORTED,
                        f"decision {number} was answered through another server first; your "
                        "answer was not applied (read the game again)")


def not_stored(game: Game, state: dominion.State, error: BaseException) -> ServiceError:
    number = dominion.decision_number(state) - 1
    log.error("game %s: answer %d could not be stored; not applied", game.id, number,
              exc_info=error)
    return ServiceError(grpc.StatusCode.UNAVAILABLE,
                        f"answer {number} could not be stored, so it was not applied; "
                        "send it again")
