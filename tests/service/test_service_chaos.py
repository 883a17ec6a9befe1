"""Chaos: three `dominion serve --shared` on one PostgreSQL database, 30 games of network bots
(each client given the three addresses), one server at random killed (SIGKILL) and started
again about every second for 30 s, and the database itself stopped for 2 s twice meanwhile.
Every game finishes; no acknowledged answer is lost; no decision is acknowledged twice; every
spectator stream (moving among the servers as they die, resuming from its next event) saw the
events gapless, the same as the record's. The bots think while the chaos lasts, so that every
game is in play through it, and answer at once after it: the games then only have to end."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time

import grpc

import dominion
import dominion.bots
from dominion_client.botrunner import RETRIED, play_seat
from dominion_client.client import connect
from dominion_proto import dominion_pb2 as pb
from tests.service.test_service_soak import ROOT, RecordingSeat, SlowBot, free_port

SERVERS = 3
GAMES = 30
CHAOS_SECONDS = 30.0
TIME_LIMIT = 90.0     # from the start of play to the end of every game
THINK = 0.22          # seconds a bot thinks per answer in the chaos: its games (~130 decisions) last through it
OUTAGES = (10.0, 20.0)   # seconds into the chaos at which the database stops ...
OUTAGE = 2.0             # ... for this long (the servers stay up, their clients retry)


class Server:
    """`dominion serve --shared` on a fixed port, started again after each kill."""

    def __init__(self, port: int, db: str):
        self.port, self.db, self.proc = port, db, None
        self.target = f"127.0.0.1:{port}"

    def start(self) -> None:
        deadline = time.monotonic() + 20
        while True:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "dominion_client.cli", "serve", "--port", str(self.port),
                 "--no-web", "--shared", "--db", self.db, "--allow-seed",
                 "--max-games-per-client", "1000", "--max-creates-per-minute", "1000"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
                env=dict(os.environ, PYTHONUNBUFFERED="1"))
            if "listening on" in self.proc.stdout.readline():
                return
            self.proc.wait(10)
            assert time.monotonic() < deadline, "a server did not start again"
            time.sleep(0.1)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


class SlowerBot(SlowBot):
    """Thinks THINK seconds an answer while the chaos lasts, then none (after the chaos the
    games took some 15 s more to end, proving nothing more)."""

    think = THINK


def follow(client, game_id: str, out: list) -> None:
    """A spectator's events of one game to its end, on whichever server answers: after a
    broken stream, the next server, from the next event."""
    seat = client.spectate(game_id)
    while True:
        used = client.servers.current
        try:
            for update in seat.updates():
                out.extend(update.events)
                if update.HasField("game_over"):
                    return
        except grpc.RpcError as e:
            if e.code() not in RETRIED and e.code() != grpc.StatusCode.NOT_FOUND:
                raise
            if not client.failover(used):
                time.sleep(0.1)


def test_three_servers_one_killed_every_second_lose_nothing(postgres, pg_url):
    rng = random.Random(22)
    servers = [Server(free_port(), pg_url) for _ in range(SERVERS)]
    for server in servers:
        server.start()
    targets = [s.target for s in servers]
    # Clients given the three addresses, each starting on another server.
    clients = [connect(",".join(targets[i:] + targets[:i])) for i in range(SERVERS)]
    seats, threads, results, streamed, errors = [], [], {}, {}, []
    chaos = threading.Event()
    chaos.set()

    def run(key, fn, *args):
        try:
            results[key] = fn(*args)
        except Exception as e:  # reported below
            errors.append((key, repr(e)))

    try:
        for c in clients:
            c.wait_ready(10)
        games = [clients[g % SERVERS].create_game(["A", "B"], kingdom="First Game", seed=g,
                                                  always_ask=True)
                 for g in range(GAMES)]
        started = time.monotonic()
        for g, game in enumerate(games):
            streamed[game.game_id] = []
            threads.append(threading.Thread(
                target=run, args=(("follow", g), follow, clients[(g + 1) % SERVERS],
                                  game.game_id, streamed[game.game_id]), daemon=True))
            for s, token in game.tokens.items():
                seat = RecordingSeat(clients[(g + s) % SERVERS], game.game_id, token)
                bot = SlowerBot(dominion.bots.make_bot("big-money", g * 10 + s), chaos)
                seats.append((game.game_id, s, seat))
                threads.append(threading.Thread(target=run, args=((game.game_id, s),
                                                                  play_seat, seat, bot, 60),
                                                daemon=True))
        for t in threads:
            t.start()
        kills = during_play = outages = 0
        while time.monotonic() - started < CHAOS_SECONDS:   # a start takes most of a second
            time.sleep(rng.uniform(0.1, 0.4))
            during_play += any(t.is_alive() for t in threads)
            if outages < len(OUTAGES) and time.monotonic() - started >= OUTAGES[outages]:
                postgres.stop()   # no server is started meanwhile: a start needs it
                try:
                    time.sleep(OUTAGE)
                finally:
                    postgres.start()
                outages += 1
                continue
            victim = rng.choice(servers)
            victim.kill()
            kills += 1
            victim.start()
        chaos.clear()
        for t in threads:
            t.join(max(1.0, TIME_LIMIT - (time.monotonic() - started)))
        assert not errors, errors[:5]
        assert not any(t.is_alive() for t in threads), "a game did not finish in time"
        assert outages == len(OUTAGES) and kills >= 12, (outages, kills)
        assert during_play >= kills + outages - 2, (kills, during_play)
        with connect(",".join(targets)) as reader:
            for game in games:
                record = reader.record(game.game_id)
                final = dominion.replay(record)
                assert dominion.is_over(final)
                events = streamed[game.game_id]
                assert [e.index for e in events] == list(range(len(final.log))), game.game_id
                fresh = []
                for update in reader.stub.StreamEvents(pb.StreamEventsRequest(
                        game_id=game.game_id)):
                    fresh.extend(update.events)
                assert events == fresh, game.game_id
            for game_id, seat_no, seat in seats:
                seat.check_in(reader.record(game_id), seat_no)
    finally:
        for c in clients:
            c.close()
        for server in servers:
            if server.proc is not None and server.proc.poll() is None:
                server.proc.terminate()
                server.proc.wait(15)
