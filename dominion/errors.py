"""Typed errors raised by the engine.

Every error says what was wrong and what is allowed; raising never changes a game (states are
immutable values, so a failed call simply returns nothing new).
"""
import difflib


def did_you_mean(value, choices) -> str:
    """" (did you mean 'X'?)" for the choice closest to a mistyped ``value`` (the same letters
    in another case first), or "" when none is close: one hint for every name a person types
    (cards, Kingdoms, sets, bots), put right after the name it corrects."""
    text = str(value)
    names = [str(c) for c in choices]
    same = [c for c in names if c.lower() == text.lower()]
    close = same or difflib.get_close_matches(text, names, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class DominionError(Exception):
    """Base class of every error the engine raises on bad input."""


class UnknownCardError(DominionError, KeyError):
    """A card name that is not a card of this engine."""

    def __str__(self):  # KeyError would otherwise quote the message
        return str(self.args[0]) if self.args else ""


class InvalidKingdomError(DominionError, ValueError):
    """A Kingdom that is not 10 distinct Kingdom cards (or an unknown preset or set)."""


class InvalidConfigError(DominionError, ValueError):
    """A game configuration that cannot be set up (player count, seed, names)."""


class InvalidPositionError(DominionError, ValueError):
    """A position given to `position()` that breaks the rules' invariants."""


class IllegalAnswerError(DominionError, ValueError):
    """An answer that is not one of the pending decision's legal answers."""


class NotYourDecisionError(DominionError):
    """An answer from a player whom the pending decision does not ask."""


class StaleAnswerError(DominionError):
    """An answer meant for another decision than the pending one (``step(..., number=N)``):
    already answered, or not asked yet."""


class GameOverError(DominionError):
    """An answer given after the game has ended."""


class TakeBackRefusedError(DominionError):
    """A take-back (`dominion.TakeBack`) that is not allowed: there is no answer of the seat's
    to take back, or taking it back would undo something that revealed information (a draw,
    a shuffle, another seat's question or cards); the message says which."""
