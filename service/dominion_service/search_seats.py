"""The server's search bots: their budget and how many search at once.

A search bot (`dominion.bots.SearchBot`) plays thousands of games forward per decision, so it
must neither block the event loop (every other game would wait) nor let one game take the
machine. Its searches run in a thread pool of ``max_search_seats`` threads: at most that many
seats search at once, the others queue, and the event loop keeps serving meanwhile. The
operator sets the budget of every search seat (``search_playouts`` per decision, and
``search_seconds``, a time limit per decision, and ``search_plan``, the games it plans its
Kingdom with at its first decision); a client only names the bot (``search``). While a seat
plans, `answer` tells the game how far it is, in steps of `PLANNING_STEP` percent (so that a
plan sends its followers a bounded number of updates).
With the time limit reached, a game's bot answers are no longer reproducible from its seed
(the game's record still replays it exactly).
"""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Optional

import dominion
import dominion.bots

PLANNING_STEP = 5   # percent: how far a plan moves before its followers are told again


class SearchSeats:
    """Makes the server's bots and answers for them: search bots in the pool, with the
    server's budget; the others at once, on the event loop (they take microseconds)."""

    def __init__(self, playouts: int, seconds: Optional[float], max_seats: int, plan: int = 0):
        if max_seats < 1:
            raise ValueError(f"max_search_seats must be at least 1, not {max_seats}")
        self.playouts = playouts
        self.seconds = seconds
        self.plan = plan
        self._pool = ThreadPoolExecutor(max_workers=max_seats, thread_name_prefix="dominion-search")

    def make_bot(self, name: str, seed: int):
        """The bot a seat names (a `ListBots` name), the search bot with the server's budget."""
        if name == dominion.bots.SearchBot.name:
            return dominion.bots.SearchBot(seed, playouts=self.playouts, time_limit=self.seconds,
                                           plan=self.plan)
        return dominion.bots.make_bot(name, seed)

    @staticmethod
    def plans_first(bots: dict, state: dominion.State) -> bool:
        """Whether the seat ``state`` waits for is one of ``bots`` (seat -> bot) that plans
        its Kingdom before it answers (a search bot with a plan, at its first decision)."""
        decision = dominion.pending(state)
        bot = bots.get(decision.player) if decision is not None else None
        return bool(getattr(bot, "plan", 0)) and getattr(bot, "policy", True) is None

    async def answer(self, bot, state: dominion.State, seat: int,
                     planning: Optional[Callable[[Optional[int]], None]] = None):
        """``bot``'s answer for ``seat`` to ``state``'s pending decision. ``planning``: told,
        on the event loop, how far a search bot planning its Kingdom is (percent, rounded down
        to `PLANNING_STEP`), then None once it answered."""
        if getattr(bot, "reads_state", False) is True:
            loop = asyncio.get_running_loop()
            if planning is None or not getattr(bot, "plan", 0):
                return await loop.run_in_executor(self._pool, bot.answer_state, state)
            shown = [-1, True]   # the step said last; still answering

            def said(percent: int) -> None:   # on the loop: nothing after the answer
                if shown[1]:
                    planning(percent)

            def progress(done: int, budget: int, stage: str) -> None:   # in the thread
                # Done is 100%: a plan may end a few games short of its budget.
                percent = 100 if stage == "done" else \
                    done * 100 // budget // PLANNING_STEP * PLANNING_STEP
                if percent > shown[0]:   # only forward: the planner's stages may report less
                    shown[0] = percent
                    try:
                        loop.call_soon_threadsafe(said, percent)
                    except RuntimeError:   # the loop is closed (the server stopped): unsaid
                        pass
            bot.plan_progress = progress
            try:
                return await loop.run_in_executor(self._pool, bot.answer_state, state)
            finally:
                bot.plan_progress = None
                shown[1] = False
                planning(None)
        # A bot reads the log from where it stopped, to count the cards it owns.
        seen = dominion.view(state, seat, log_from=bot.log_from)
        return bot.answer(dominion.pending(state), seen)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
