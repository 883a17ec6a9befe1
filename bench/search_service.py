"""The service's responsiveness while search bots play: the latency of a person's requests
(GetView of a game of their own) with no search running, then while ``--games`` all-bot games
(a search bot against big-money-ultimate) play on the same server, whose search seats are
capped by ``--max-search-seats``. The server is a separate process (`dominion serve`), so the
measuring client does not share its interpreter.

    .venv/bin/python bench/search_service.py [--games 6] [--max-search-seats 2] [--seconds 20]
"""
from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402

from dominion_client.client import connect  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def latencies(seat, seconds: float) -> list:
    out = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        started = time.perf_counter()
        seat.view()
        out.append(time.perf_counter() - started)
        time.sleep(0.01)
    return out


def describe(name: str, values: list) -> str:
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
    return (f"{name}: {len(values)} GetView calls, median {statistics.median(values) * 1000:.1f} "
            f"ms, p99 {p99 * 1000:.1f} ms, worst {values[-1] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--max-search-seats", type=int, default=2)
    parser.add_argument("--playouts", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "dominion_client.cli", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--no-web", "--db", ":memory:", "--max-games-per-client", "1000",
         "--max-creates-per-minute", "1000", "--search-playouts", str(args.playouts),
         "--max-search-seats", str(args.max_search_seats)], cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with connect(f"127.0.0.1:{port}") as client:
            client.wait_ready(timeout=30)
            mine = client.create_game(["Me", "You"], kingdom="First Game")
            seat = client.seat(mine.game_id, mine.tokens[0])
            seat.view()
            print(describe("idle server", latencies(seat, args.seconds / 2)))
            # An all-bot game is played to its end inside CreateGame: each from its own thread.
            def play_search_game():
                try:
                    client.create_game(["Search", "BMU"], kingdom="First Game",
                                       bots={0: "search", 1: "big-money-ultimate"})
                except grpc.RpcError:   # the bench ends (the channel closes) before it does
                    pass
            for i in range(args.games):
                threading.Thread(target=play_search_game, daemon=True).start()
            time.sleep(2.0)
            busy = client.list_games()
            playing = sum(1 for g in busy if "search" in g.bots)
            print(describe(f"{playing} search games playing, {args.max_search_seats} search "
                           f"seats at once, {args.playouts} playouts",
                           latencies(seat, args.seconds)))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
