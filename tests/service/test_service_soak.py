"""Soak: games played by network bots while the real server (`dominion serve`) is killed
(SIGKILL) or stopped (SIGTERM) and started again at random moments. No acknowledged answer is
ever lost, and every game finishes. Bounded in time: it stops by itself."""
from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import dominion
import dominion.bots
from dominion_client.botrunner import play_seat
from dominion_client.client import Seat, connect

ROOT = Path(__file__).resolve().parents[2]
GAMES = 6
RESTARTS = 6
TIME_LIMIT = 90.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`dominion serve` on a fixed port and database, started again after each stop."""

    def __init__(self, port: int, db: str):
        self.port, self.db, self.proc = port, db, None

    def start(self) -> None:
        deadline = time.monotonic() + 20
        while True:  # the old process may still hold the port or the lock for a moment
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "dominion_client.cli", "serve", "--port", str(self.port),
                 "--no-web", "--db", str(self.db), "--allow-seed"], stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, cwd=ROOT,
                env=dict(os.environ, PYTHONUNBUFFERED="1"))
            if "listening on" in self.proc.stdout.readline():
                return
            self.proc.wait(10)
            assert time.monotonic() < deadline, self.proc.stderr.read()
            time.sleep(0.2)

    def stop(self, sig) -> None:
        self.proc.send_signal(sig)
        self.proc.wait(20)


class SlowBot:
    """A bot that thinks ``think`` seconds per answer while ``stirring`` is set, so that the
    games are still going when the server is stopped (at 10 ms, games sometimes ended before
    the last restarts); once the test clears it, at once: the games then only have to end
    (they took some 4 s more, proving nothing more)."""

    think = 0.03

    def __init__(self, bot, stirring: threading.Event):
        self.bot, self.stirring = bot, stirring

    def answer(self, decision, view):
        if self.stirring.is_set():
            time.sleep(self.think)
        return self.bot.answer(decision, view)


class RecordingSeat(Seat):
    """A seat that remembers every answer the server acknowledged: (sequence, answer)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.acknowledged = []

    def answer(self, decision, answer):
        reply = super().answer(decision, answer)
        self.acknowledged.append((decision.sequence, answer))
        return reply

    def check_in(self, record, seat_no: int) -> None:
        """Every answer acknowledged to this seat is in ``record`` at its number, as sent;
        no decision was acknowledged twice."""
        sequences = [sequence for sequence, _ in self.acknowledged]
        assert len(sequences) == len(set(sequences)), "a decision acknowledged twice"
        for sequence, answer in self.acknowledged:
            stored_seat, stored = record.answers[sequence]
            assert stored_seat == seat_no, (self.game_id, sequence)
            assert stored == (tuple(answer) if not isinstance(answer, dominion.Move)
                              else answer), (self.game_id, sequence, stored, answer)


def test_no_acknowledged_answer_is_lost_and_every_game_ends_across_kills(database):
    """On each backend: a SQLite file, and a PostgreSQL database."""
    rng = random.Random(7)
    server = Server(free_port(), database)
    server.start()
    target = f"127.0.0.1:{server.port}"
    seats, threads, results = [], [], {}
    stirring = threading.Event()
    stirring.set()
    started = time.monotonic()
    try:
        with connect(target) as client:
            client.wait_ready(10)
            for g in range(GAMES):
                game = client.create_game(["A", "B"], kingdom="First Game", seed=g)
                for s, token in game.tokens.items():
                    seat = RecordingSeat(client, game.game_id, token)
                    bot = SlowBot(dominion.bots.make_bot("big-money" if s else "random",
                                                         g * 10 + s), stirring)
                    seats.append((game.game_id, s, seat))
                    t = threading.Thread(target=lambda k=(game.game_id, s), st=seat, b=bot:
                                         results.__setitem__(k, play_seat(st, b, 60)),
                                         daemon=True)
                    threads.append(t)
                    t.start()
            during_play = 0
            for i in range(RESTARTS):
                time.sleep(rng.uniform(0.2, 0.8))
                during_play += any(t.is_alive() for t in threads)
                server.stop(signal.SIGKILL if i % 2 == 0 else signal.SIGTERM)
                time.sleep(rng.uniform(0.0, 0.3))
                server.start()
            stirring.clear()
            for t in threads:
                t.join(max(1.0, TIME_LIMIT - (time.monotonic() - started)))
            assert not any(t.is_alive() for t in threads), "a game did not finish in time"
            assert during_play >= RESTARTS - 1, f"only {during_play} stops came during play"
            assert len(results) == 2 * GAMES
            for game_id, seat_no, seat in seats:
                record = client.record(game_id)
                assert dominion.is_over(dominion.replay(record))
                seat.check_in(record, seat_no)
    finally:
        if server.proc and server.proc.poll() is None:
            server.stop(signal.SIGTERM)
