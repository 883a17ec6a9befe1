"""Network subcommands: ``dominion serve``, ``dominion bot`` and ``dominion play``."""
from __future__ import annotations

import asyncio
import gc
import signal
import sys

import grpc

import dominion.bots


def register(sub) -> None:
    from dominion_service import ServiceOptions

    from .commands_engine import _bot_list, bot_arg, seed_arg

    p = sub.add_parser(
        "serve", help="run the game server (gRPC, and the web page with Connect and gRPC-Web)",
        description="Run the Dominion service (dominion.v1.DominionService): native gRPC with "
                    "health checking and reflection on --port, and on --web-port the web page "
                    "and the same service over Connect and gRPC-Web. Games are stored in SQLite "
                    "or PostgreSQL and resumed when the server starts again.")
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
                        "or ~/.local/share/dominion/games.db); ':memory:' keeps nothing; or a "
                        "PostgreSQL database, postgresql://user@host:port/dbname (password in "
                        "the URL or in PGPASSWORD; docs/scaling.md)")
    p.add_argument("--allow-seed", action="store_true",
                   help="accept a chosen seed in CreateGame (whoever chooses it can compute "
                        "every seat's cards: for tests and tournaments, not in public)")
    defaults = ServiceOptions()
    p.add_argument("--max-games", type=int, default=defaults.max_games, metavar="N",
                   help=f"games in progress the server holds at most (default: "
                        f"{defaults.max_games})")
    p.add_argument("--max-games-per-client", type=int, default=defaults.max_games_per_client,
                   metavar="N", help="games in progress one client address may have (default: "
                                     f"{defaults.max_games_per_client})")
    p.add_argument("--max-creates-per-minute", type=int,
                   default=defaults.max_creates_per_minute, metavar="N",
                   help="games one client address may create in a minute (default: "
                        f"{defaults.max_creates_per_minute})")
    p.set_defaults(run=run_serve)

    p = sub.add_parser(
        "bot", help="play seats of games on a server with a bot",
        description="Join games on a server with seat tokens and play those seats with a bot "
                    "until the games end; prints the scores. One seat: --game ID --token T. "
                    "Several seats (all on one PlaySeats stream): --game ID with several "
                    "--token (seats of one game), or one --game per --token, paired in order.")
    p.add_argument("--server", required=True, metavar="HOST:PORT", help="the server's address")
    p.add_argument("--game", required=True, metavar="ID", action="append",
                   help="the game id (from CreateGame); once for every --token, or once for "
                        "all of them")
    p.add_argument("--token", required=True, metavar="T", action="append",
                   help="a seat's secret token; repeat it to play several seats")
    p.add_argument("--bot", default="big-money", type=bot_arg,
                   help="the bot that plays every seat: a built-in name, a strategy file "
                        "(.toml) or a Python class package.module:Class (default: big-money; "
                        f"built-ins: {', '.join(dominion.bots.bot_names())})")
    p.add_argument("--seed", type=seed_arg, default=0,
                   help="the bot's own random seed (the Nth seat's bot gets seed + N - 1)")
    p.add_argument("--connect-timeout", type=float, default=5.0, metavar="S",
                   help="give up when no server answers at --server within S seconds "
                        "(default: 5)")
    p.set_defaults(run=run_bot)

    p = sub.add_parser(
        "play", help="play a game in the terminal against built-in bots",
        description="Start a local game server and play one game in the terminal against "
                    "built-in bots over gRPC. Answer each question by number or by name.")
    p.add_argument("--bots", default="big-money", metavar="BOT,...", type=_bot_list,
                   help="the opponents, comma-separated, one seat each: built-in names, "
                        "strategy files (.toml) or Python classes package.module:Class "
                        f"(default: big-money; built-ins: {', '.join(dominion.bots.bot_names())})")
    p.add_argument("--kingdom", default=None,
                   help="a recommended Kingdom's name, 10 comma-separated card names, or "
                        "'random' (default: First Game)")
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="the game's seed, 0 to 2**64 - 1 (default: random)")
    p.add_argument("--name", default="Player", help="your name in the game (default: Player)")
    p.set_defaults(run=run_play)


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


def run_serve(args) -> int:
    from dominion_service import ServiceOptions, start_server
    from dominion_service.storage import StorageError, open_storage

    async def serve() -> None:
        tune_gc()
        storage = open_storage(args.db)
        try:
            running = await start_server(storage, args.host, args.port, ServiceOptions(
                allow_seed=args.allow_seed, max_games=args.max_games,
                max_games_per_client=args.max_games_per_client,
                max_creates_per_minute=args.max_creates_per_minute),
                None if args.no_web else args.web_port)
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
        print(f"Dominion service listening on {args.host}:{running.port} "
              f"(games: {storage.path}, {len(running.service.games)} in progress, "
              f"{len(running.service.finished)} over)", flush=True)
        if running.web is not None:
            from dominion_service.web import page_address
            print(f"Web page, Connect and gRPC-Web on {page_address(args.host, running.web_port)}",
                  flush=True)
        await stop.wait()
        await running.stop(grace=5.0)

    try:
        check_port(args.port, "--port")
        if not args.no_web:
            check_port(args.web_port, "--web-port")
            if args.web_port == args.port and args.port:
                raise ServeError(f"--web-port must differ from --port ({args.port})")
        asyncio.run(serve())
    except (ServeError, StorageError) as e:
        print(f"dominion serve: {e}", file=sys.stderr)
        return 2
    return 0


def run_bot(args) -> int:
    try:
        seats = bot_seats(args.game, args.token)
    except ValueError as e:
        print(f"dominion bot: {e}", file=sys.stderr)
        return 2
    if len(seats) > 1:
        return asyncio.run(_run_bots(args, seats))
    from .botrunner import play_seat_with
    from .client import connect

    with connect(args.server) as client:
        try:
            client.wait_ready(timeout=args.connect_timeout)
        except grpc.FutureTimeoutError:
            print(_no_server(args), file=sys.stderr)
            return 2
        seat = client.seat(*seats[0])
        try:
            result = play_seat_with(seat, args.bot, args.seed)
        except grpc.RpcError as e:
            print(f"dominion bot: {e.code().name}: {e.details()}", file=sys.stderr)
            return 1
        view = seat.view()
    me = view.player
    print(f"game over: scores {list(result.scores)}, winners {list(result.winners)}; "
          f"this seat ({me}) {'wins' if me in result.winners else 'does not win'}")
    return 0


MAX_BOT_SEATS = 1024   # the seats one PlaySeats stream plays at once


def bot_seats(games: list, tokens: list) -> list:
    """The (game id, token) of each seat `dominion bot` plays, from its --game and --token
    options: one game for every token, or one game for all of them; ValueError saying what is
    wrong with any other combination, and, for several seats, an empty game id or token or a
    seat given twice (one seat goes to the server as it is, which says what is wrong)."""
    if len(games) == 1:
        games = games * len(tokens)
    elif len(games) != len(tokens):
        raise ValueError(f"give one --game for every --token (paired in order), or one --game "
                         f"for all of them; not {len(games)} --game and {len(tokens)} --token")
    seats = list(zip(games, tokens))
    first: dict = {}
    for n, seat in enumerate(seats if len(seats) > 1 else (), 1):
        if not all(seat):
            raise ValueError(f"seat {n}: --game and --token must not be empty")
        if seat in first:
            raise ValueError(f"seat {n} is seat {first[seat]} again (the same --game and "
                             "--token); give each seat once")
        first[seat] = n
    if len(seats) > MAX_BOT_SEATS:
        raise ValueError(f"at most {MAX_BOT_SEATS} seats in one process (one PlaySeats "
                         f"stream), not {len(seats)}")
    return seats


def _no_server(args) -> str:
    return (f"dominion bot: no Dominion server answers at {args.server} (waited "
            f"{args.connect_timeout:g} s); check --server")


async def _run_bots(args, seats: list) -> int:
    """`dominion bot` for several seats: each seat's number is learned (its token checked)
    with GetView, then all are played on one PlaySeats stream (`play_seats_async`); a line per
    seat at the end, in the order given."""
    from dominion_proto import dominion_pb2 as pb

    from .aio import AsyncClient
    from .botrunner import play_seats_async
    from .client import TOKEN_METADATA

    async with AsyncClient(args.server) as client:
        try:
            await asyncio.wait_for(client.channel.channel_ready(), args.connect_timeout)
        except asyncio.TimeoutError:
            print(_no_server(args), file=sys.stderr)
            return 2
        numbers = []
        for n, (game_id, token) in enumerate(seats, 1):
            try:
                reply = await client.stub.GetView(pb.GetViewRequest(game_id=game_id),
                                                  metadata=((TOKEN_METADATA, token),))
            except grpc.RpcError as e:
                print(f"dominion bot: seat {n} (game {game_id}): {e.code().name}: "
                      f"{e.details()}", file=sys.stderr)
                return 1
            numbers.append(reply.view.viewer)
        bots = [(game_id, token, dominion.bots.make_bot(args.bot, (args.seed + n) % 2**64))
                for n, (game_id, token) in enumerate(seats)]
        try:
            results = await play_seats_async(client, bots)
        except grpc.RpcError as e:
            print(f"dominion bot: {e.code().name}: {e.details()}", file=sys.stderr)
            return 1
    for (game_id, _), me, result in zip(seats, numbers, results):
        outcome = "wins" if me in result.winners else "does not win"
        print(f"game {game_id}, seat {me}: scores {list(result.scores)}, winners "
              f"{list(result.winners)}; this seat {outcome}")
    return 0


def run_play(args) -> int:
    """A terminal game against bots on an in-process server: built-in bots play on the server,
    strategy files and Python classes in threads of this process, each through its own seat."""
    import threading

    from .botrunner import play_seat
    from .client import connect
    from .local import LocalServer
    from .terminal import TerminalGame

    bots = args.bots
    builtin = set(dominion.bots.bot_names())
    labels = [dominion.bots.bot_label(b) for b in bots]
    names = [args.name] + [f"{label} {i}" for i, label in enumerate(labels, 1)]
    try:
        kingdom = args.kingdom if args.kingdom is not None else \
            dominion.bots.default_kingdom([*bots])
    except dominion.DominionError as e:
        print(f"dominion play: {e}", file=sys.stderr)
        return 2
    if isinstance(kingdom, tuple):
        kingdom = list(kingdom)
    with LocalServer() as server, connect(server.target) as client:
        try:
            game = client.create_game(
                names, bots={i: b for i, b in enumerate(bots, 1) if b in builtin},
                kingdom=kingdom, seed=args.seed)
        except grpc.RpcError as e:
            print(f"dominion play: {e.details()}", file=sys.stderr)
            return 2
        for i, b in enumerate(bots, 1):
            if b not in builtin:  # played here, over the network like any client
                bot = dominion.bots.make_bot(b, i)
                seat = client.seat(game.game_id, game.tokens[i])
                threading.Thread(target=play_seat, args=(seat, bot), daemon=True).start()
        try:
            TerminalGame(client.seat(game.game_id, game.tokens[0])).run()
        except EOFError:
            print("\ninput ended; the game is abandoned", file=sys.stderr)
            return 1
    return 0
