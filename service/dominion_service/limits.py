"""What a server allows: the options an operator sets (`ServiceOptions`), the bounds on what a
request may carry, and the per-client game limits. Every refusal is a `ServiceError` with a
message the caller can act on."""
from __future__ import annotations

import ipaddress
import re
import resource
import time
from typing import Callable, NamedTuple, Optional

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
    # Connections (each door): the most open at once (further ones are refused at once, and
    # the figure is lowered to fit the process's file limit, `fit_to_file_limit`), and the
    # seconds a connection may stay open with no request under way (idle, or a request's
    # headers or body still coming: slowloris) before it is closed.
    max_connections: int = 1000
    idle_timeout: float = 20.0
    # Each door: connections open at once from one address (a trusted proxy's are not
    # counted), so that one client cannot take the slots of the others (`ConnectionCounts`);
    # 0: no cap per address (for a server behind a proxy that caps them: the gRPC door then
    # has no relay, `relay.GrpcRelay`).
    max_connections_per_address: int = 50
    # Seconds a Play or PlaySeats client may leave its answers' outcomes unread (the stream
    # stops reading its answers meanwhile) before the stream ends RESOURCE_EXHAUSTED.
    stream_stall_timeout: float = 60.0
    # Seconds a game in progress may wait for an answer before it is ended as abandoned
    # (0: never).
    abandon_after: float = 7 * 24 * 3600.0
    # Addresses (or networks, "10.0.0.0/8") of proxies whose forwarding header names the
    # client; nobody's by default. The one header read (lower case): X-Forwarded-For by
    # default, `Forwarded` (RFC 7239's for=), or another that the proxies set, such as
    # X-Real-IP; any other is ignored, so a client cannot add one its proxy passes through.
    trusted_proxies: tuple = ()
    forwarded_header: str = "x-forwarded-for"
    # The search bot's seats (`search_seats`): playouts per decision, a time limit per decision
    # (None: none), and how many search at once (threads; the others queue).
    search_playouts: int = 64
    search_seconds: Optional[float] = 2.0
    max_search_seats: int = 2
    # Games a search seat plans its Kingdom with at its first decision (`dominion plan`'s
    # planner, one core, the same plan for the Kingdom in the whole process); 0: no plan, the
    # Kingdom's best built-in strategy.
    search_plan: int = 0


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
        now = time.monotonic()
        recent = [t for t in self._creations.get(creator, ()) if now - t < 60]
        over_limits(self.options, len(playing),
                    sum(1 for g in playing if g.creator == creator), len(recent))
        self._creations[creator] = recent + [now]
        if len(self._creations) > 10_000:  # forget idle clients
            self._creations = {k: v for k, v in self._creations.items()
                               if v and now - v[-1] < 60}


def over_limits(o: ServiceOptions, games: int, mine: int, recent: int) -> None:
    """RESOURCE_EXHAUSTED when one more game is past the limits of ``o``: ``games`` in
    progress in all, ``mine`` of them created by the client, ``recent`` games it created in
    the last minute. Servers sharing a database count these in it, for all of them
    (`storage_pg.PostgresStorage.create_game`)."""
    if games >= o.max_games:
        raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                           f"this server holds its maximum of {o.max_games} games in "
                           "progress; try again when some have ended")
    if mine >= o.max_games_per_client:
        raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                           f"you have {mine} games in progress, the most this server "
                           "allows one client; finish some first")
    if recent >= o.max_creates_per_minute:
        raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                           f"at most {o.max_creates_per_minute} games a minute from one "
                           "client; try again shortly")


FILE_RESERVE = 64   # descriptors kept for the database, logs and the server's own sockets


def raise_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (allowed without
    privileges), and return the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft


def fit_to_file_limit(options: ServiceOptions, files_per_connection: int) -> ServiceOptions:
    """``options`` with `max_connections` lowered so that the doors at their maximum (each
    connection, on every door together, using ``files_per_connection`` descriptors) still
    leave `FILE_RESERVE` descriptors free: a new
    connection is refused before the process runs out of files, and the games in progress go
    on."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return options
    room = max(1, (soft - FILE_RESERVE) // max(1, files_per_connection))
    if options.max_connections <= room:
        return options
    return options._replace(max_connections=room)


class ConnectionCounts:
    """The connections open on one door, in all and per address, for its caps: at most
    ``max_connections`` in all and ``per_address`` from one address (0: no cap per address),
    a trusted proxy's (``proxies``: many clients' connections) counted only in all. Each door
    asks `admit` as a connection opens and calls `release` once it has gone."""

    def __init__(self, max_connections: int, per_address: int, proxies=None):
        self.max_connections = max_connections
        self.per_address = per_address
        self.proxies = proxies
        self.total = 0
        self._held: dict = {}   # address -> its connections open (capped ones)

    def _capped(self, address: Optional[str]) -> Optional[str]:
        if not self.per_address or address is None:
            return None
        if self.proxies is not None and self.proxies.trusts(address):
            return None
        return address

    def admit(self, address: Optional[str]) -> Optional[str]:
        """Count a new connection from ``address``; or, past a cap, count nothing and say
        why it is refused (for the log)."""
        if self.total >= self.max_connections:
            return f"{self.total} connections open, its maximum"
        capped = self._capped(address)
        if capped is not None:
            held = self._held.get(capped, 0)
            if held >= self.per_address:
                return f"{held} connections open from {capped}, its maximum for one address"
            self._held[capped] = held + 1
        self.total += 1
        return None

    def release(self, address: Optional[str]) -> None:
        """A connection `admit` counted has gone."""
        self.total -= 1
        capped = self._capped(address)
        if capped is not None:
            if self._held[capped] <= 1:
                del self._held[capped]
            else:
                self._held[capped] -= 1


class TrustedProxies:
    """Who a client is: the connection's address, unless that address is a proxy the operator
    named, in which case the one forwarding header the operator named (``header``: a list of
    addresses, nearest last, or `Forwarded`'s for= entries) says: the nearest address in it
    that is not itself a trusted proxy. A trusted proxy appends the address it saw, so what
    a client wrote stands further off, behind it, and is never read."""

    def __init__(self, names=(), header: str = "x-forwarded-for"):
        self.networks = tuple(ipaddress.ip_network(n, strict=False) for n in names)
        self.header = check_header_name(header)

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def client(self, peer: str, header: Callable[[str], Optional[str]]) -> str:
        """The client's address, given the connection's (``peer``) and the request's headers
        (``header(name)``: the values of one header joined by commas, or None)."""
        if not self.networks or not self.trusts(peer):
            return peer
        value = header(self.header) or ""
        chain = (_forwarded_for(value) if self.header == "forwarded" else
                 [part.strip() for part in value.split(",") if part.strip()])
        for address in reversed(chain):
            address = _bare_address(address)
            if address is None:
                return peer   # an address that cannot be read: the proxy is the client
            if not self.trusts(address):
                return address
        return peer


def check_header_name(name: str) -> str:
    """A forwarding header's name, in lower case (as both doors read headers); ValueError for
    one that is not an HTTP header name."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9-]{0,63}", name or ""):
        raise ValueError(f"{quote(name)} is not a header name (letters, digits and '-')")
    return name.lower()


def _forwarded_for(value: str) -> list:
    """The ``for=`` addresses of a `Forwarded` header (RFC 7239), nearest last."""
    out = []
    for element in value.split(","):
        for pair in element.split(";"):
            key, _, item = pair.strip().partition("=")
            if key.strip().lower() == "for":
                out.append(item.strip().strip('"'))
    return out


def _bare_address(text: str) -> Optional[str]:
    """An IP address from a forwarding header's entry ("1.2.3.4", "1.2.3.4:80", "[::1]:80",
    "::1"), or None."""
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None
