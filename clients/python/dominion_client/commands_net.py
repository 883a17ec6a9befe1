"""Network subcommands: ``dominion bot`` and ``dominion play`` (``dominion serve`` is the
service's own, `dominion_service.cli`)."""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys

import grpc

import dominion.bots


def register(sub) -> None:
    from .commands_engine import _bot_list, bot_arg, seed_arg

    p = sub.add_parser(
        "bot", help="play seats of games on a server with a bot",
        description="Join games on a server with seat tokens and play those seats with a bot "
                    "until the games end; prints the scores. One seat: --game ID --token T. "
                    "Several seats (all on one PlaySeats stream): --game ID with several "
                    "--token (seats of one game), or one --game per --token, paired in order.")
    p.add_argument("--server", required=True, metavar="HOST:PORT", action="append",
                   help="the server's address; https://HOST:PORT for a server with TLS. "
                        "Several servers of the same games (dominion serve --shared): "
                        "repeat it, or separate them with commas; the bot moves to the next "
                        "when one stops answering")
    p.add_argument("--ca-file", metavar="PEM", default=None,
                   help="trust this certificate (or CA) for the server's TLS, e.g. a server's "
                        "own certificate (default: the system's trusted certificates)")
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
    p.add_argument("--plan-budget", type=_plan_budget, default=None, metavar="GAMES",
                   help="games the search bot's plan of the Kingdom is found with, before the "
                        "game, on every core (cached: see dominion plan); 0: no plan, the "
                        "Kingdom's best built-in (default: dominion plan's default budget)")
    p.add_argument("--record", default=None, metavar="FILE",
                   help="keep the game's record here when it ends (or is left), for `dominion "
                        "replay FILE` (default: dominion-GAME.json in this directory; '-': "
                        "keep none)")
    p.set_defaults(run=run_play)


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

    try:
        client = connect(",".join(args.server), args.ca_file)
    except (ValueError, OSError) as e:
        print(f"dominion bot: {e}", file=sys.stderr)
        return 2
    with client:
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
    """The line for servers that did not accept calls within --connect-timeout: for each,
    why (`why_unanswered`: TLS asked in clear and the reverse, an untrusted certificate)."""
    from .client import why_none_answered
    return (f"dominion bot: {why_none_answered(','.join(args.server), args.ca_file)} (waited "
            f"{args.connect_timeout:g} s; check --server)")


CHECK_TIMEOUT = 10.0   # seconds for a seat's GetView (a server that hangs: the next)


async def _run_bots(args, seats: list) -> int:
    """`dominion bot` for several seats: each seat's number is learned (its token checked)
    with GetView, retried as the game is (`botrunner.Reconnects`: a server stopping or whose
    database is away is tried again, or the next --server), then all are played on one
    PlaySeats stream (`play_seats_async`); a line per seat at the end, in the order given."""
    from dominion_proto import dominion_pb2 as pb

    from .aio import AsyncClient
    from .botrunner import RECONNECT_FOR, Reconnects, play_seats_async
    from .client import TOKEN_METADATA

    try:
        opened = AsyncClient(",".join(args.server), args.ca_file)
    except (ValueError, OSError) as e:
        print(f"dominion bot: {e}", file=sys.stderr)
        return 2
    async with opened as client:
        try:
            await client.wait_ready(args.connect_timeout)
        except asyncio.TimeoutError:
            print(_no_server(args), file=sys.stderr)
            return 2
        numbers = []
        reconnects = Reconnects(RECONNECT_FOR)
        for n, (game_id, token) in enumerate(seats, 1):
            while True:
                used = client.servers.current
                try:
                    reply = await client.stub.GetView(pb.GetViewRequest(game_id=game_id),
                                                      metadata=((TOKEN_METADATA, token),),
                                                      timeout=CHECK_TIMEOUT)
                    reconnects.working()
                    break
                except grpc.RpcError as e:
                    try:   # a server stopping, or its database away: again, or the next
                        delay = reconnects.delay_after(e, client, used)
                    except grpc.RpcError:
                        print(f"dominion bot: seat {n} (game {game_id}): {e.code().name}: "
                              f"{e.details()}", file=sys.stderr)
                        return 1
                    await asyncio.sleep(delay)
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


def _plan_budget(text: str) -> int:
    from .commands_plan import budget_arg
    return budget_arg(text, zero_ok=True)


def _plan_for_search(kingdom, players: int, budget=None):
    """Plan the Kingdom for the game's search bots before it starts, on every core, with a
    progress bar (or from the plan cache at once), and hand the plan to them: the search seats
    then play it (`dominion.bots.planner.remember_plan`). The budget, or None after an error
    (said on stderr)."""
    from dominion.bots.planner import DEFAULT_BUDGET, remember_plan
    from .commands_plan import PlanProgress, plan_or_cached, resolve
    try:
        cards = resolve(kingdom if isinstance(kingdom, str) else ",".join(kingdom), players,
                        None, 0)
    except dominion.DominionError as e:
        print(f"dominion play: {e}", file=sys.stderr)
        return None
    if sys.stderr.isatty():
        print("Planning the Kingdom for the search bot (a minute the first time; cached)...",
              file=sys.stderr)
    budget = budget or DEFAULT_BUDGET
    data, _ = plan_or_cached(cards, players, budget, 0, progress=PlanProgress())
    remember_plan(cards, players, budget, 0, data["plan"])
    return budget


def run_play(args) -> int:
    """A terminal game against bots on an in-process server: built-in bots play on the server,
    strategy files and Python classes in threads of this process, each through its own seat."""
    import threading

    from .botrunner import play_seat
    from .client import connect
    from .cli import service_entry
    from .terminal import TerminalGame

    bots = args.bots
    builtin = set(dominion.bots.bot_names())
    searches = sorted({b for b in bots if dominion.bots.is_search_spec(b)})
    options = dominion.bots.search_options(searches[0]) if searches else {}
    if len(searches) > 1 or set(options) - {"playouts", "time_limit"}:
        print("dominion play: the search bots of one game share one budget: give one "
              "search:playouts=N,time=S (other options are for dominion simulate)",
              file=sys.stderr)
        return 2
    bots = ["search" if b in searches else b for b in bots]
    budget = {name: options[key] for key, name in (("playouts", "search_playouts"),
                                                  ("time_limit", "search_seconds"))
              if key in options}
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
    if searches and args.plan_budget != 0:
        if kingdom == "random":   # drawn here, so that the plan is the game's Kingdom's
            if args.seed is None:
                args.seed = int.from_bytes(os.urandom(8), "little")
            kingdom = list(dominion.make_config(len(names), "random", None, args.seed).kingdom)
        planned = _plan_for_search(kingdom, len(names), args.plan_budget)
        if planned is None:
            return 2
        budget["search_plan"] = planned
    LocalServer = service_entry("local_server")
    if LocalServer is None:
        print("dominion play: it runs a game server in this process, and the service "
              "(dominion_service) is not installed", file=sys.stderr)
        return 2
    with LocalServer(**budget) as server, connect(server.target) as client:
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
        finally:
            keep_record(client, game.game_id, args.record)
    return 0


def keep_record(client, game_id: str, where) -> None:
    """Write the game's record (as far as it was played) where `dominion replay` reads it."""
    if where == "-":
        return
    path = where or f"dominion-{game_id}.json"
    data = dominion.record_to_data(client.record(game_id))
    with open(path, "w", encoding="utf-8") as out:
        json.dump(data, out)
        out.write("\n")
    print(f"The game's record is in {path}: `dominion replay {path}` shows it again.",
          file=sys.stderr)
