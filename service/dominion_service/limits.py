"""What a server allows: the options an operator sets (`ServiceOptions`), the bounds on what a
request may carry, and the per-client game limits. Every refusal is a `ServiceError` with a
message the caller can act on."""
from __future__ import annotations

import time
from typing import NamedTuple

import grpc

# Limits on what a request may carry: every string and list is bounded, so that no request (and
# no stored game) can grow without bound, and no error message quotes more than a line.
MAX_NAME = 64          # seat names, bot names, card names, Kingdom and set names
MAX_GAME_ID = 64
MAX_LIST = 32          # cards, sets or seats in one request
MAX_QUOTE = 80         # characters of bad input an error message quotes
DEFAULT_PAGE, MAX_PAGE = 50, 200   # ListGames page sizes
MAX_STREAM_SEATS = 1024   # seats on one PlaySeats stream at once
MAX_SEATS_BATCH = 1024    # adds and answers in one PlaySeatsRequest


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


def quote(value) -> str:
    """``repr(value)`` cut to MAX_QUOTE characters, for error messages."""
    text = repr(value)
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE - 3] + "..."


def short(message: str, limit: int = 1000) -> str:
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
        for name in ("name", "bot"):
            if len(getattr(seat, name)) > MAX_NAME:
                refuse(f"seat {i}: {name} is at most {MAX_NAME} characters, not "
                       f"{len(getattr(seat, name))}")
    names = list(request.cards.cards) + list(request.random.sets) + [request.preset]
    if len(request.cards.cards) > MAX_LIST or len(request.random.sets) > MAX_LIST:
        refuse(f"at most {MAX_LIST} cards or sets")
    for name in names:
        if len(name) > MAX_NAME:
            refuse(f"a card, set or Kingdom name is at most {MAX_NAME} characters: "
                   f"{quote(name)}")


class CreationLimits:
    """The game limits of `ServiceOptions`, counted over the games in progress (each knows its
    creator) and each client's recent creations."""

    def __init__(self, options: ServiceOptions):
        self.options = options
        self._creations: dict[str, list] = {}     # client address -> recent creation times

    def check(self, creator: str, playing) -> None:
        """RESOURCE_EXHAUSTED past the limits, ``playing`` being the games in progress; counts
        this creation against the client's rate."""
        o = self.options
        if len(playing) >= o.max_games:
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"this server holds its maximum of {o.max_games} games in "
                               "progress; try again when some have ended")
        mine = sum(1 for g in playing if g.creator == creator)
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
