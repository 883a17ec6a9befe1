"""``dominion serve``: the server's subcommand, registered with the ``dominion`` command through
the ``dominion.commands`` entry point (pyproject.toml), so that the client package never imports
the service: the command has ``serve`` exactly when the service is installed."""
from __future__ import annotations

import argparse
import asyncio
import gc
import signal
import subprocess
import sys
import time


def register(sub) -> None:
    from .limits import ServiceOptions

    p = sub.add_parser(
        "serve", help="run the game server (gRPC, and the web page with Connect and gRPC-Web)",
        description="Run the Dominion service (dominion.v1.DominionService): native gRPC with "
                    "health checking and reflection on --port, and on --web-port the web page "
                    "and the same service over Connect and gRPC-Web. Games are stored in SQLite "
                    "or PostgreSQL and resumed when the server starts again. docs/service.md, \"Running in "
                    "public\", explains each limit.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1; 0.0.0.0 for every interface)")
    p.add_argument("--port", type=int, default=50051,
                   help="port to listen on, 1-65535 (default: 50051; 0 picks a free one, "
                        "printed)")
    p.add_argument("--web-port", type=int, default=8080,
                   help="port of the web door: the web page, and the same service over Connect "
                        "(JSON or binary) and gRPC-Web for browsers and curl (default: 8080; "
                        "0 picks a free one, printed)")
    p.add_argument("--no-web", action="store_true",
                   help="serve native gRPC only: no web page, no Connect or gRPC-Web")
    p.add_argument("--db", metavar="PATH|URL", default=None,
                   help="SQLite file for the games (default: $XDG_DATA_HOME/dominion/games.db "
                        "or ~/.local/share/dominion/games.db; a missing folder is created); "
                        "':memory:' keeps nothing; or a PostgreSQL database, "
                        "postgresql://user@host:port/dbname (password in the URL or in "
                        "PGPASSWORD; docs/scaling.md)")
    p.add_argument("--shared", action="store_true",
                   help="serve a PostgreSQL database together with other servers started with "
                        "--shared (on this machine or others): any of them serves any game "
                        "(docs/scaling.md)")
    p.add_argument("--processes", type=int, default=1, metavar="N",
                   help="run N server processes on the same ports, sharing the PostgreSQL "
                        "database of --db (--shared is implied): a machine's cores; the "
                        "system spreads the connections among them (default: 1)")
    p.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--allow-seed", action="store_true",
                   help="accept a chosen seed in CreateGame (whoever chooses it can compute "
                        "every seat's cards: for tests and tournaments, not in public)")
    p.add_argument("--tls-cert", metavar="PEM", default=None,
                   help="serve both doors over TLS with this certificate (chain) file; needs "
                        "--tls-key")
    p.add_argument("--tls-key", metavar="PEM", default=None,
                   help="the private key of --tls-cert")
    d = ServiceOptions()
    p.add_argument("--search-playouts", type=int, default=d.search_playouts, metavar="N",
                   help="playouts per decision of the search bot's seats (default: "
                        f"{d.search_playouts})")
    p.add_argument("--search-seconds", type=float, default=d.search_seconds, metavar="S",
                   help="time limit per decision of a search bot; 0: none (default: "
                        f"{d.search_seconds})")
    p.add_argument("--search-plan", type=int, default=d.search_plan, metavar="GAMES",
                   help="games a search bot plans its Kingdom with at its first decision (like "
                        "dominion plan, on one core of the search threads; the plan is kept "
                        "for the Kingdom while the server runs); 0: no plan, the Kingdom's "
                        f"best built-in strategy (default: {d.search_plan})")
    p.add_argument("--max-search-seats", type=int, default=d.max_search_seats, metavar="N",
                   help="search bots searching at once, each in a thread; the others wait "
                        f"(default: {d.max_search_seats})")
    limits = [
        ("--max-games", "max_games", int, "N", "games in progress the server holds at most"),
        ("--max-games-per-client", "max_games_per_client", int, "N",
         "games in progress one client address may have (kept across restarts)"),
        ("--max-creates-per-minute", "max_creates_per_minute", int, "N",
         "games one client address may create in a minute"),
        ("--max-connections", "max_connections", int, "N",
         "connections open at once on each door; more are refused at once (lowered to fit "
         "the file limit)"),
        ("--max-connections-per-address", "max_connections_per_address", int, "N",
         "connections open at once from one address on each door (a --trusted-proxy's "
         "are not counted); more are refused at once; 0: no cap per address (behind a proxy "
         "that caps them; the gRPC door then needs no relay)"),
        ("--idle-timeout", "idle_timeout", float, "S",
         "seconds a connection may stay open with no call under way, or with a request still "
         "arriving"),
        ("--stream-stall-timeout", "stream_stall_timeout", float, "S",
         "seconds a Play or PlaySeats client may leave outcomes unread before its stream ends "
         "RESOURCE_EXHAUSTED"),
        ("--abandon-after", "abandon_after", float, "S",
         "seconds a game in progress may wait for an answer before it is ended as abandoned "
         "(0: never)"),
    ]
    for flag, name, kind, metavar, text in limits:
        p.add_argument(flag, type=kind, default=getattr(d, name), metavar=metavar, dest=name,
                       help=f"{text} (default: {getattr(d, name):g})")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                   dest="trusted_proxies",
                   help="a proxy (address or network, e.g. 10.0.0.0/8) whose forwarding "
                        "header (--forwarded-header) names the client; repeat for several "
                        "(default: none, every client is its connection's address)")
    p.add_argument("--forwarded-header", default=d.forwarded_header, metavar="NAME",
                   help="the one header that --trusted-proxy proxies name the client in, "
                        "nearest last: X-Forwarded-For, Forwarded (RFC 7239) or another such "
                        "as X-Real-IP; others are ignored (default: X-Forwarded-For)")
    p.set_defaults(run=run_serve)


class ServeError(Exception):
    """A reason `dominion serve` cannot start, as one line for the person who started it."""


def check_port(value: int, option: str) -> int:
    """A port to listen on: 1-65535, or 0 for any free one (the chosen one is printed)."""
    if not 0 <= value <= 65535:
        raise ServeError(f"{option} must be a port from 1 to 65535 (or 0 for any free port), "
                         f"not {value}")
    return value


def tune_gc() -> None:
    """For a long-running server: what is loaded before it serves (modules, cards, tables) is
    left out of the collector's scans (`gc.freeze`), and the collector runs after 20,000 new
    objects instead of 700. Each decision makes a few hundred short-lived objects (states, views,
    messages), nearly all freed by reference counting; with the default threshold the
    collector ran several times a second, scanning the games held in memory, and took about
    a twentieth of the server's time."""
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def serve_options(args):
    """The `ServiceOptions` of the command line, or ServeError for a value out of range."""
    from .limits import ServiceOptions, TrustedProxies, check_header_name

    for name in ("max_games", "max_games_per_client", "max_creates_per_minute",
                 "max_connections", "search_playouts", "max_search_seats"):
        if getattr(args, name) < 1:
            raise ServeError(f"--{name.replace('_', '-')} must be at least 1")
    if args.max_connections_per_address < 0:
        raise ServeError("--max-connections-per-address must be 0 (no cap) or more")
    for name in ("idle_timeout", "stream_stall_timeout"):
        if not getattr(args, name) > 0:
            raise ServeError(f"--{name.replace('_', '-')} must be more than 0 seconds")
    if args.search_plan != 0 and args.search_plan < 1000:
        raise ServeError("--search-plan must be 0 (no plan) or at least 1000 games")
    if not args.search_seconds >= 0:
        raise ServeError("--search-seconds must be 0 (no limit) or more seconds")
    if not args.abandon_after >= 0:
        raise ServeError("--abandon-after must be 0 (never) or more seconds")
    try:
        TrustedProxies(args.trusted_proxies)
    except ValueError as e:
        raise ServeError(f"--trusted-proxy: {e}") from None
    try:
        header = check_header_name(args.forwarded_header)
    except ValueError as e:
        raise ServeError(f"--forwarded-header: {e}") from None
    return ServiceOptions(
        allow_seed=args.allow_seed, max_games=args.max_games,
        max_games_per_client=args.max_games_per_client,
        max_creates_per_minute=args.max_creates_per_minute,
        max_connections=args.max_connections,
        max_connections_per_address=args.max_connections_per_address,
        idle_timeout=args.idle_timeout,
        stream_stall_timeout=args.stream_stall_timeout, abandon_after=args.abandon_after,
        trusted_proxies=tuple(args.trusted_proxies), forwarded_header=header,
        search_playouts=args.search_playouts,
        search_seconds=args.search_seconds or None, max_search_seats=args.max_search_seats,
        search_plan=args.search_plan)


def run_serve(args) -> int:
    from .limits import raise_file_limit
    from .logs import native_stderr_through_limit
    from .server import start_server
    from .storage import StorageError, open_storage
    from .web import page_address

    async def serve() -> None:
        tune_gc()
        native_stderr_through_limit()   # gRPC's C core logs to stderr itself
        raise_file_limit()   # room for many connections; each door still refuses before it
        options = serve_options(args)
        tls = None
        if args.tls_cert or args.tls_key:
            if not (args.tls_cert and args.tls_key):
                raise ServeError("--tls-cert and --tls-key go together")
            tls = (args.tls_cert, args.tls_key)
        storage = open_storage(args.db, args.shared)
        try:
            running = await start_server(storage, args.host, args.port, options,
                                         None if args.no_web else args.web_port, tls,
                                         reuse_port=args.reuse_port)
        except OSError as e:
            storage.close()
            raise ServeError(str(e)) from None
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):  # before saying it listens: a stop then
            loop.add_signal_handler(sig, stop.set)   # is always a clean one
        if storage.created_folder:
            print(f"dominion serve: created the folder {storage.created_folder} for the games "
                  "database", file=sys.stderr)
        for game_id, reason in running.service.broken.items():
            print(f"dominion serve: game {game_id} is not served: {reason}", file=sys.stderr)
        print(f"Dominion service listening on {args.host}:{running.port}"
              f"{' (TLS)' if tls else ''} (games: {storage.path}"
              f"{', shared with other servers' if args.shared else ''}, "
              f"{len(running.service.games)} in progress, "
              f"{len(running.service.finished)} over)", flush=True)
        if running.web is not None:
            print(f"Web page, Connect and gRPC-Web on "
                  f"{page_address(args.host, running.web_port, tls is not None)}", flush=True)
        await stop.wait()
        await running.stop(grace=5.0)

    try:
        check_port(args.port, "--port")
        if not args.no_web:
            check_port(args.web_port, "--web-port")
            if args.web_port == args.port and args.port:
                raise ServeError(f"--web-port must differ from --port ({args.port})")
        if args.processes < 1:
            raise ServeError("--processes must be at least 1")
        if args.processes > 1:
            return run_processes(args)
        asyncio.run(serve())
    except (ServeError, StorageError) as e:
        print(f"dominion serve: {e}", file=sys.stderr)
        return 2
    return 0


PROCESSES_NEED_POSTGRES = ("--processes needs a PostgreSQL database (--db postgresql://...): a "
                           "SQLite file is served by one process at a time")


def run_processes(args) -> int:
    """``--processes N``: N server processes on the same ports (SO_REUSEPORT: the system
    spreads new connections among them), sharing the PostgreSQL database (``--shared``). This
    process checks what it can say in one line first (the database, ports in use), starts
    them, says where they listen once all do, starts again one that dies, and stops them all
    on SIGINT or SIGTERM."""
    from .server import check_address
    from .storage import POSTGRES_SCHEMES, open_storage

    if args.db is None or not str(args.db).startswith(POSTGRES_SCHEMES):
        raise ServeError(PROCESSES_NEED_POSTGRES)
    storage = open_storage(args.db, shared=True)   # its problems, said once (StorageError)
    where = storage.path
    storage.close()
    ports = []
    for port in [args.port] + ([] if args.no_web else [args.web_port]):
        try:
            check_address(args.host, port)   # a port another program holds is refused
        except OSError as e:
            raise ServeError(str(e)) from None
        ports.append(port or free_port(args.host, ports))
    argv = child_argv(args, *ports)
    stop = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.append(True))
    children = [start_child(argv) for _ in range(args.processes)]
    try:
        for child in children:
            if not child_ready(child, args.no_web):
                raise ServeError(f"a server process could not start (exit code "
                                 f"{child.wait()}); see its message above")
        print(f"Dominion service listening on {args.host}:{ports[0]}"
              f"{' (TLS)' if args.tls_cert else ''} ({args.processes} processes; games: "
              f"{where}, shared)", flush=True)
        if not args.no_web:
            from .web import page_address
            print(f"Web page, Connect and gRPC-Web on "
                  f"{page_address(args.host, ports[1], bool(args.tls_cert))}", flush=True)
        while not stop:
            time.sleep(0.2)
            for i, child in enumerate(children):
                if child.poll() is not None and not stop:
                    print(f"dominion serve: server process {child.pid} ended (exit code "
                          f"{child.returncode}); starting another", file=sys.stderr,
                          flush=True)
                    children[i] = start_child(argv)
                    if not child_ready(children[i], args.no_web):
                        time.sleep(1.0)   # it could not start: the next try a second later
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        codes = [child.wait() for child in children]
    return 0 if all(code == 0 for code in codes) else 1


def free_port(host: str, taken: list) -> int:
    """A free port on ``host`` for all the processes (port 0 asked for), none of ``taken``."""
    import socket
    while True:
        with socket.socket(socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM)[0][0]) as s:
            s.bind((host, 0))
            port = s.getsockname()[1]
        if port not in taken:
            return port


def child_argv(args, port: int, web_port: int = 0) -> list:
    """The command line of one of the server processes of ``--processes``."""
    argv = [sys.executable, "-m", "dominion_client.cli", "serve", "--host", args.host,
            "--port", str(port), "--db", args.db, "--shared", "--reuse-port"]
    argv += ["--no-web"] if args.no_web else ["--web-port", str(web_port)]
    if args.allow_seed:
        argv.append("--allow-seed")
    if args.tls_cert:
        argv += ["--tls-cert", args.tls_cert, "--tls-key", args.tls_key]
    for name in ("max_games", "max_games_per_client", "max_creates_per_minute",
                 "max_connections", "max_connections_per_address", "idle_timeout",
                 "stream_stall_timeout", "abandon_after"):
        argv += [f"--{name.replace('_', '-')}", repr(getattr(args, name))]
    for proxy in args.trusted_proxies:
        argv += ["--trusted-proxy", proxy]
    argv += ["--forwarded-header", args.forwarded_header]
    return argv


def start_child(argv: list) -> subprocess.Popen:
    from .relay import end_with_parent
    return subprocess.Popen(argv, stdout=subprocess.PIPE, text=True,
                            preexec_fn=end_with_parent)


def child_ready(child: subprocess.Popen, no_web: bool) -> bool:
    """Whether a server process says it listens (its lines are read, not repeated)."""
    ready = "listening on" in child.stdout.readline()
    if ready and not no_web:
        child.stdout.readline()
    return ready
