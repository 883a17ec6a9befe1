"""The simulation loop: a game played to its end by one bot per seat (`play_out`).

It lives with the bots, not with the views: it asks the built-in players directly, and the
views must not import the bots that read them (no import circle in `dominion`). Compiled with
the engine (``dominion/_compiled.py``): every simulated game and every search bot's rollout
runs through it.
"""
from __future__ import annotations

from typing import Any, Optional

from ..game import step
from ..state import Decision, State
from ..views import Observation, _view
from .policy import Player


def play_out(state: State, bots: list, cheap: list, step_fn, max_decisions: int) -> tuple:
    """Play ``state`` to its end with one bot per seat: (the final state, None), or (the state
    reached, the decision pending) when ``max_decisions`` answers did not end it. A seat whose
    ``cheap`` is true sees an `Observation`, any other a `View` (`dominion.simulate`). Each
    answer goes through ``step_fn`` (`step`, looked up by the caller). A bot whose
    ``reads_state`` is True (the search bot) is asked ``answer_state(state)`` instead: it reads
    the state only through its seat's view and `determinize`. An exception raised on
    the way carries the decision being answered as ``decision``, for the error report."""
    d: Any = None
    stateful = [getattr(bot, "reads_state", False) is True for bot in bots]
    direct = step_fn is step   # then called directly (compiled: not through Python's call)
    # The built-in players by seat, typed: compiled, they are asked directly, not through
    # Python's method call.
    built_in: list[Optional[Player]] = [
        bot if isinstance(bot, Player) and c else None for bot, c in zip(bots, cheap)]
    try:
        for _ in range(max_decisions):
            stack = state.stack
            if not stack:
                return state, None
            decision: Decision = stack[-1][1]   # (typed: its fields are read by index)
            d = decision
            seat: int = decision.player
            player: Optional[Player] = built_in[seat]
            if player is not None:
                answer = player.answer(decision, Observation(state, seat, player.log_from))
            elif stateful[seat]:
                answer = bots[seat].answer_state(state)
            else:
                bot = bots[seat]
                seen = Observation(state, seat, bot.log_from) if cheap[seat] else \
                    _view(state, seat, bot.log_from)
                answer = bot.answer(d, seen)
            state = step(state, answer) if direct else step_fn(state, answer)
    except Exception as exc:
        try:
            exc.decision = d   # type: ignore[attr-defined]
        except AttributeError:
            pass
        raise
    return state, (state.stack[-1][1] if state.stack else None)
