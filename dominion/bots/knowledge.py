"""What a seat may legitimately know beyond one `View`: the cards each player owns, counted from
the public log (every gain and trash is public) and the starting decks.

A bot never reads the `State`. It is shown its seat's view with the log from the index it has
read up to (``view(state, seat, log_from=bot.log_from)``) and folds the new events in here.
"""
from __future__ import annotations

from collections import Counter
from typing import Final, Optional

from ..card import CARDS
from ..game import STARTING_DECK, player_score
from ..state import FROM_SUPPLY
from ..views import Observation

# Log events that move cards from one owner to another (Masquerade's passing). The engine logs a
# pass as an event of the giver with ``detail`` the receiving seat; its cards are visible only to
# the two of them, so a third seat sees an empty ``cards`` and cannot follow it.
PASS_EVENTS = ("pass",)
# Every event that can change what a seat owns.
OWNERSHIP_EVENTS = frozenset(("gain", "buy", "trash") + PASS_EVENTS)
# The events `Holdings` reads: those, a take-back (which undoes what was counted from its
# ``detail``, a log index, on) and a turn's start (no take-back reaches before it).
READ_EVENTS = OWNERSHIP_EVENTS | frozenset(("take_back", "turn"))


_STARTING_COUNTS: Final = dict(Counter(STARTING_DECK))


def _counts(counts: dict) -> Counter:
    """A new `Counter` holding ``counts``, made without ``Counter.__init__``, which runs as
    Python: a bot makes one per seat for every game, and a search bot's rollouts for every
    playout (1% of a simulation's instructions, measured)."""
    made = Counter.__new__(Counter)
    dict.update(made, counts)
    return made


class Holdings:
    """Cards owned by each seat, as far as the observing seat can tell from the public log.

    The observer's own counts are exact (it sees its own passes); another seat's counts miss only
    the cards passed to or from it out of the observer's sight. The counts are plain
    dictionaries: a `Counter`'s every write goes through Python (it defines ``__delitem__``), a
    few percent of an Attack game's instructions where the bots count at every buy; `owned`
    shows them as Counters.
    """
    __slots__ = ("counts", "log_from", "_scores", "_this_turn")

    def __init__(self, num_players: int):
        self.counts: list[dict[str, int]] = [dict(_STARTING_COUNTS) for _ in range(num_players)]
        self.log_from = 0
        self._scores: Optional[tuple] = None
        # (log index, seat, card, +1 or -1) per count changed since the turn began: what a
        # take-back may undo
        self._this_turn: list = []

    @property
    def owned(self) -> list:
        """Each seat's counts as a new `Counter` (a copy: `add` changes the counts)."""
        return [_counts(c) for c in self.counts]

    def add(self, seat: int, name: str, k: int = 1) -> None:
        """Count ``k`` more copies of ``name`` for ``seat`` (a bot shown no log counts its own
        buys)."""
        counts = self.counts[seat]
        counts[name] = counts.get(name, 0) + k
        self._scores = None

    def observe(self, view) -> None:
        """Fold in the events of ``view.log`` that were not seen yet."""
        if type(view) is Observation and view.log_from == self.log_from:
            events, self.log_from, at = view.log_of(READ_EVENTS)  # the same, found faster
            self._fold(events, at)
            return
        log = view.log
        if not log:
            return
        start = view.log_start
        end = start + len(log)
        if end <= self.log_from:
            return
        skip = max(self.log_from - start, 0)
        self._fold(log[skip:] if skip > 0 else log, range(start + skip, end))
        self.log_from = end

    def _fold(self, events, at) -> None:
        """Count ``events``, whose log indices are ``at`` (in order)."""
        owned = self.counts
        this_turn = self._this_turn
        for e, index in zip(events, at):
            event: tuple = e   # (typed: the compiled loop reads its fields directly)
            kind: str = event[0]
            if kind not in READ_EVENTS:  # most events (draws, plays, shuffles) move none
                continue
            if kind == "turn":
                this_turn.clear()
                continue
            if kind == "take_back":
                self._take_back(int(str(event[4])))
                continue
            cards: tuple = event[2]
            seat: int = event[1]
            counts = owned[seat]
            if kind == "gain" or kind == "buy":  # a buy is the gain of the bought card
                for name in cards:
                    counts[name] = counts.get(name, 0) + 1
                    this_turn.append((index, seat, name, 1))
                self._scores = None
            elif kind == "trash":
                if event[4] == FROM_SUPPLY:   # Lurker's: the card was nobody's
                    continue
                for name in cards:
                    counts[name] = counts.get(name, 0) - 1
                    this_turn.append((index, seat, name, -1))
                self._scores = None
            elif kind in PASS_EVENTS and cards and isinstance(event[4], int):
                receiver = owned[event[4]]
                for name in cards:
                    counts[name] = counts.get(name, 0) - 1
                    receiver[name] = receiver.get(name, 0) + 1
                self._scores = None

    def _take_back(self, first: int) -> None:
        """Undo what was counted from the log event ``first`` on (a take-back's ``detail``;
        what an earlier take-back undid is no longer there)."""
        this_turn = self._this_turn
        while this_turn and this_turn[-1][0] >= first:
            _, seat, name, change = this_turn.pop()
            counts = self.counts[seat]
            counts[name] = counts.get(name, 0) - change
            self._scores = None

    def copy(self) -> "Holdings":
        """An independent copy (a search bot's rollouts start from what the seat has counted)."""
        other = Holdings(0)
        other.counts = [dict(c) for c in self.counts]
        other.log_from = self.log_from
        other._scores = self._scores
        other._this_turn = list(self._this_turn)
        return other

    def count(self, seat: int, name: str) -> int:
        """Copies of the card ``name`` that ``seat`` owns."""
        return self.counts[seat].get(name, 0)

    def count_type(self, seat: int, card_type: str) -> int:
        """Cards of a type (``"Action"``, ``"Treasure"``, ...) that ``seat`` owns."""
        return sum(k for name, k in self.counts[seat].items() if card_type in CARDS[name].types)

    def total(self, seat: int) -> int:
        return sum(self.counts[seat].values())

    def scores(self) -> tuple:
        """Victory points of each seat's known cards."""
        scores = self._scores
        if scores is None:
            # every copy counts: a Counter iterates over its names once each
            scores = self._scores = tuple(player_score(tuple(c.elements())) for c in self.owned)
        return scores
