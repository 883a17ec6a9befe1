"""The server's search bots: their budget and how many search at once.

A search bot (`dominion.bots.SearchBot`) plays thousands of games forward per decision, so it
must neither block the event loop (every other game would wait) nor let one game take the
machine. Its searches run in a thread pool of ``max_search_seats`` threads: at most that many
seats search at once, the others queue, and the event loop keeps serving meanwhile. The
operator sets the budget of every search seat (``search_playouts`` per decision, and
``search_seconds``, a time limit per decision, and ``search_plan``, the games it plans its
Kingdom with at its first decision); a client only names the bot (``search``).
With the time limit reached, a game's bot answers are no longer reproducible from its seed
(the game's record still replays it exactly).
"""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Optional

import dominion
import dominion.bots


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

    async def answer(self, bot, state: dominion.State, seat: int):
        """``bot``'s answer for ``seat`` to ``state``'s pending decision."""
        if getattr(bot, "reads_state", False) is True:
            return await asyncio.get_running_loop().run_in_executor(
                self._pool, bot.answer_state, state)
        # A bot reads the log from where it stopped, to count the cards it owns.
        seen = dominion.view(state, seat, log_from=bot.log_from)
        return bot.answer(dominion.pending(state), seen)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
