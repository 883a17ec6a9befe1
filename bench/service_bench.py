"""Service benchmark: complete games over loopback, every seat a bot answering over the network.

Starts ``dominion serve`` in its own process (so the server and the clients each have a core),
then plays games whose seats are all network bots (one client thread per seat), and prints the
answered decisions per second: for one game at a time, and for many games at once.

    python bench/service_bench.py                    # 3 games one by one, then 50 at once
    python bench/service_bench.py --db /tmp/b.db     # with a SQLite file (durable commits)
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import dominion
from dominion_client.botrunner import play_seat_with
from dominion_client.client import connect

ROOT = Path(__file__).resolve().parent.parent
KINGDOM = ("Cellar", "Chapel", "Moat", "Village", "Workshop", "Gardens", "Militia", "Smithy",
           "Throne Room", "Witch")


def start_server(db: str) -> tuple:
    """``dominion serve`` on a free port; returns (process, "host:port")."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "dominion_client.cli", "serve", "--port", "0", "--no-web",
         "--db", db,
         # seeded games, and more games at once from one client than a public server allows
         "--allow-seed", "--max-games-per-client", "100000", "--max-creates-per-minute",
         "100000"],
        stdout=subprocess.PIPE, text=True, cwd=ROOT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, line.split("listening on ", 1)[1].split()[0]


def play_games(client, count: int, players: int, bot: str, seed: int) -> tuple:
    """Play ``count`` games at once; returns (answers, seconds)."""
    games = [client.create_game(players, kingdom=KINGDOM, seed=seed + i) for i in range(count)]
    errors = []

    def seat_thread(game_id, seat, token):
        try:
            play_seat_with(client.seat(game_id, token), bot, seed=seat)
        except Exception as e:  # reported after the run
            errors.append(e)

    threads = [threading.Thread(target=seat_thread, args=(g.game_id, s, t))
               for g in games for s, t in g.tokens.items()]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - start
    if errors:
        raise errors[0]
    answers = sum(len(client.record(g.game_id).answers) for g in games)
    return answers, seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=":memory:",
                        help="the server's database (default: :memory:; a path for SQLite file)")
    parser.add_argument("--games", type=int, default=50, help="games at once (default: 50)")
    parser.add_argument("--single", type=int, default=3,
                        help="games played one at a time for the single-game figure (default: 3)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="big-money")
    args = parser.parse_args(argv)
    if args.db != ":memory:" and Path(args.db).exists():
        raise SystemExit(f"{args.db} exists; give a new file")
    proc, target = start_server(args.db)
    try:
        with connect(target) as client:
            client.wait_ready()
            answers = seconds = 0.0
            for i in range(args.single):
                a, s = play_games(client, 1, args.players, args.bot, seed=1000 + i)
                answers, seconds = answers + a, seconds + s
            print(f"1 game at a time:   {answers / seconds:8.0f} answered decisions/s "
                  f"({int(answers)} in {seconds:.2f} s, {args.single} games)")
            a, s = play_games(client, args.games, args.players, args.bot, seed=2000)
            print(f"{args.games} games at once: {a / s:8.0f} answered decisions/s "
                  f"({a} in {s:.2f} s)")
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"({args.players} seats per game, bot {args.bot!r}, db {args.db}, "
          f"engine {len(dominion.CARDS)} cards, {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
