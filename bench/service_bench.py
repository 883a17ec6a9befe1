"""Service benchmark: complete games over loopback, every seat a bot answering over the network.

What runs, all on this machine: ``dominion serve`` in its own process (in-memory SQLite by
default: the storage calls and commits are made, the sync to disk is not; ``--db PATH`` for a
file), and the clients in ``--procs`` processes (default 1: this one), each playing its share of
the seats as network bots with `dominion_client.aio`: all of a process's seats on one PlaySeats
stream (`botrunner.play_seats_async`, batched; each message carries the updates or answers of
every seat that has one ready), or with ``--per-seat`` one coroutine and one Play stream per
seat (`botrunner.play_seat_async`). Every decision goes over gRPC: the server sends it with the
seat's view, the client's bot (the engine's ``big-money``) answers it on the stream, the server
stores and applies it. Prints the answered decisions per second, for one game at a
time and for many games at once, with the CPU time the server and the clients used per decision.
Games are created before the clock starts; client processes start and connect before it too.

    python bench/service_bench.py                    # 3 games one by one, then 50 at once
    python bench/service_bench.py --procs 2 --runs 5 # clients in 2 processes, 5 runs
    python bench/service_bench.py --db /tmp/b.db     # with a SQLite file (durable commits)
    python bench/service_bench.py --per-seat         # a Play stream per seat (the old way)
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

# gRPC's C core logs at INFO level by itself (one line for every idle connection it ends); the
# benchmarks' clients keep to errors, as the `dominion` command does (set it to see them).
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

import dominion
import dominion.bots
from dominion_client.aio import AsyncClient
from dominion_client.botrunner import play_seat_async, play_seats_async
from dominion_client.client import connect

ROOT = Path(__file__).resolve().parent.parent
KINGDOM = ("Cellar", "Chapel", "Moat", "Village", "Workshop", "Gardens", "Militia", "Smithy",
           "Throne Room", "Witch")


def start_server(db: str, *extra: str) -> tuple:
    """``dominion serve`` on a free port (``extra``: more of its options); returns (process,
    "host:port")."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "dominion_client.cli", "serve", "--port", "0", "--no-web",
         "--db", db, *extra,
         # seeded games, and more games at once from one client than a public server allows
         "--allow-seed", "--max-games-per-client", "100000", "--max-creates-per-minute",
         "100000"],
        stdout=subprocess.PIPE, text=True, cwd=ROOT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, line.split("listening on ", 1)[1].split()[0]


def process_family(pid: int):
    """A process and every process it started, as far as they are alive now (Linux /proc): a
    server with its gRPC door's relay, a PostgreSQL postmaster with its backends and writers;
    (pid, the fields of /proc/PID/stat after the command) each."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:   # ended meanwhile
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            yield int(entry.name), fields


def cpu_seconds(pid: int) -> float:
    """User and system CPU time so far of a process and of every process it started
    (`process_family`)."""
    return sum(int(fields[11]) + int(fields[12])
               for _, fields in process_family(pid)) / os.sysconf("SC_CLK_TCK")


async def play_seats(target: str, seats: list, bot: str, go=None, per_seat=False) -> None:
    """Play ``seats`` ((game_id, seat, token) each) in this event loop: all on one PlaySeats
    stream, or (``per_seat``) one coroutine and Play stream each. ``go``: an async callable
    that returns when the clock starts (awaited after connecting)."""
    async with AsyncClient(target) as client:
        await client.channel.channel_ready()
        if go is not None:
            await go()
        if not per_seat:
            await play_seats_async(client, [(game_id, token, dominion.bots.make_bot(bot, seat))
                                            for game_id, seat, token in seats])
            return
        await asyncio.gather(*(
            play_seat_async(client.seat(game_id, token), dominion.bots.make_bot(bot, seat))
            for game_id, seat, token in seats))


def worker(targets, seats, bot, ready, go, results, per_seat=False, server=None) -> None:
    """A client process: connect, wait for the start, play, report CPU seconds (or an error).
    ``targets``: one server, or several of one database with ``server`` naming each game's
    (`play_split`)."""
    def wait_for_start():
        ready.wait()
        go.wait()
    start = sum(os.times()[:2])
    try:
        asyncio.run(play_split(targets, seats, bot, per_seat, server, wait_for_start))
        results.put(sum(os.times()[:2]) - start)
    except Exception as e:  # reported by the parent
        results.put(f"{type(e).__name__}: {e}")


def split_games(targets: tuple, seats: list) -> dict:
    """Each game's server (an index into ``targets``): the games, in their order, dealt out
    in turn."""
    games = list(dict.fromkeys(game_id for game_id, _, _ in seats))
    return {game_id: i % len(targets) for i, game_id in enumerate(games)}


async def play_split(targets: tuple, seats: list, bot: str, per_seat: bool = False,
                     server=None, go=None) -> None:
    """`play_seats` with the games split evenly among several servers of the same database
    (``dominion serve --shared``): a game's seats all on one of them (``server``: each game's,
    by default `split_games`), a connection to each. ``go``: as for `play_seats`, called once
    every connection is made."""
    server = split_games(targets, seats) if server is None else server
    mine = [[s for s in seats if server[s[0]] == i] for i in range(len(targets))]
    used = [i for i in range(len(targets)) if mine[i]]
    if go is not None and not used:   # no seats here: only the clock to wait for
        await asyncio.to_thread(go)
    connected, started = [], asyncio.Event()

    async def all_connected() -> None:   # the last to connect waits for the clock
        connected.append(1)
        if len(connected) == len(used):
            await asyncio.to_thread(go)
            started.set()
        await started.wait()

    await asyncio.gather(*(
        play_seats(targets[i], mine[i], bot, None if go is None else all_connected,
                   per_seat=per_seat)
        for i in used))


def play_games(client, target, server_pid, count: int, players: int, bot: str,
               seed: int, procs: int, per_seat: bool = False, watch=None) -> tuple:
    """Play ``count`` games at once; returns (answers, seconds, server CPU s, client CPU s).
    ``target`` and ``server_pid`` may be tuples: several servers of one database, the games
    split among them (`split_games`; each client process has a connection to each), their CPU
    added up. ``watch``: an object whose ``start()`` and ``stop()`` are called as the clock
    starts and stops (to measure more over the same time)."""
    pids = server_pid if isinstance(server_pid, tuple) else (server_pid,)
    targets = target if isinstance(target, tuple) else (target,)
    games = [client.create_game(players, kingdom=KINGDOM, seed=seed + i) for i in range(count)]
    seats = [(g.game_id, s, t) for g in games for s, t in g.tokens.items()]
    server = split_games(targets, seats)
    if procs <= 1:
        server_before = sum(map(cpu_seconds, pids))
        clients_before = sum(os.times()[:2])
        if watch is not None:
            watch.start()
        start = time.perf_counter()
        asyncio.run(play_split(targets, seats, bot, per_seat, server))
        seconds = time.perf_counter() - start
        if watch is not None:
            watch.stop()
        clients = sum(os.times()[:2]) - clients_before
    else:
        ctx = multiprocessing.get_context("spawn")
        ready, go, results = ctx.Barrier(procs + 1), ctx.Event(), ctx.Queue()
        workers = [ctx.Process(target=worker, args=(targets, seats[i::procs], bot, ready, go,
                                                    results, per_seat, server))
                   for i in range(procs)]
        for w in workers:
            w.start()
        ready.wait()
        server_before = sum(map(cpu_seconds, pids))
        if watch is not None:
            watch.start()
        start = time.perf_counter()
        go.set()
        outcomes = [results.get() for _ in workers]
        seconds = time.perf_counter() - start
        if watch is not None:
            watch.stop()
        for w in workers:
            w.join()
        errors = [o for o in outcomes if isinstance(o, str)]
        if errors:
            raise SystemExit(f"a client failed: {errors[0]}")
        clients = sum(outcomes)
    server_cpu = sum(map(cpu_seconds, pids)) - server_before
    answers = sum(len(client.record(g.game_id).answers) for g in games)
    return answers, seconds, server_cpu, clients


def report(label: str, runs: list) -> None:
    rates = [a / s for a, s, _, _ in runs]
    a, s, server, clients = runs[rates.index(statistics.median_low(rates))]
    print(f"{label}: median {statistics.median(rates):6.0f} answered decisions/s "
          f"(runs: {', '.join(f'{r:.0f}' for r in rates)}; median run: {a} in {s:.2f} s, "
          f"CPU per decision: server {1e6 * server / a:.0f} us, clients "
          f"{1e6 * clients / a:.0f} us)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=":memory:",
                        help="the server's database (default: :memory:; a path for SQLite file)")
    parser.add_argument("--games", type=int, default=50, help="games at once (default: 50)")
    parser.add_argument("--single", type=int, default=3,
                        help="games played one at a time for the single-game figure (default: 3)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="big-money")
    parser.add_argument("--procs", type=int, default=1,
                        help="client processes sharing the seats of the games at once "
                             "(default: 1, this process)")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs of the games at once; the median is printed (default: 3)")
    parser.add_argument("--per-seat", action="store_true",
                        help="a Play stream per seat instead of one PlaySeats stream per client "
                             "process")
    parser.add_argument("--serve", action="append", default=[], metavar="OPTION",
                        help="an option for `dominion serve` (repeat it), such as "
                             "--serve=--max-connections-per-address=0")
    args = parser.parse_args(argv)
    if args.db != ":memory:" and Path(args.db).exists():
        raise SystemExit(f"{args.db} exists; give a new file")
    proc, target = start_server(args.db, *args.serve)
    try:
        with connect(target) as client:
            client.wait_ready()
            single = [play_games(client, target, proc.pid, 1, args.players, args.bot,
                                 1000 + i, 1, args.per_seat) for i in range(args.single)]
            report("1 game at a time", [tuple(map(sum, zip(*single)))])
            report(f"{args.games} games at once", [
                play_games(client, target, proc.pid, args.games, args.players, args.bot,
                           2000 + 1000 * i, args.procs, args.per_seat)
                for i in range(args.runs)])
    finally:
        proc.terminate()
        proc.wait(10)
    streams = "a Play stream per seat" if args.per_seat else "one PlaySeats stream per process"
    print(f"({args.players} seats per game, bot {args.bot!r}, db {args.db}, client processes "
          f"{args.procs}, {streams}, serve options {args.serve or 'none'}, engine "
          f"{len(dominion.CARDS)} cards, {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
