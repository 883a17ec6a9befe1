"""Storage benchmark: the service on a SQLite file against the service on PostgreSQL, in one run,
with one server process and with two sharing the database.

Each backend gets a new database and its own ``dominion serve`` processes; the same games (same
seeds, every seat a network bot on one PlaySeats stream per server, as in `service_bench`) are
played on each, the backends taking turns run by run:

- ``SQLite file``: one server on a file (write-ahead log, full sync);
- ``PostgreSQL``: one server holding the database alone;
- ``PG shared x1``: one server started with ``--shared`` (it announces every answer: NOTIFY);
- ``PG shared x2``: two ``--shared`` servers on one database, the games split evenly between
  them (each game's seats on one; the client process has a connection to each).

PostgreSQL commits with its defaults (fsync, synchronous_commit on). Printed for each: answered
decisions per second, and CPU time per decision of the server processes (added up) and of
PostgreSQL's own processes (medians over the runs), then the ratio the goal is about: server
CPU per decision on PostgreSQL over SQLite's (at most 1.5).

In a second run of the same load after each measured one, a probe plays one more game at a
time with two network bots: each answer
goes to the first server (SubmitAnswer), each decision comes from StreamEvents on the last
server; the time from sending an answer to receiving the next decision is its latency (p50 and
p99 over the runs). With two servers that is the cross-server path: the answer stored by one,
announced (NOTIFY), read from the table by the other and streamed; with one server, the same
path within one process, for comparison.

PostgreSQL is a throwaway server started here (tests/postgres_server.py: initdb in a temporary
folder, 127.0.0.1, a free port), or the one ``--pg URL`` names (a new database is made on it).

    python bench/storage_bench.py                 # 50 games at once, 3 runs per backend
    python bench/storage_bench.py --games 20 --runs 5
"""
from __future__ import annotations

import argparse
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import dominion  # noqa: E402
import dominion.bots  # noqa: E402
from dominion_client.client import TOKEN_METADATA, DecisionTracker, connect  # noqa: E402
from dominion_proto import dominion_pb2 as pb  # noqa: E402
from service_bench import KINGDOM, cpu_seconds, play_games, start_server  # noqa: E402
from tests.postgres_server import TemporaryPostgres  # noqa: E402


def probe(answer_to: str, stream_from: str, stop: threading.Event, samples: list) -> None:
    """Play games of two network bots one after another until ``stop``: answers sent to
    ``answer_to``, decisions read from StreamEvents on ``stream_from``; appends to ``samples``
    the seconds from each answer sent to the next decision received."""
    with connect(answer_to) as sender, connect(stream_from) as reader:
        seed = 0
        while not stop.is_set():
            seed += 1
            game = sender.create_game(["P", "Q"], kingdom=KINGDOM, seed=900_000 + seed)
            arrived: queue.Queue = queue.Queue()

            def read(seat_no: int) -> None:
                seat = reader.seat(game.game_id, game.tokens[seat_no])
                tracker = DecisionTracker(seat)
                for update in reader.stub.StreamEvents(
                        pb.StreamEventsRequest(game_id=game.game_id),
                        metadata=((TOKEN_METADATA, game.tokens[seat_no]),)):
                    pending = tracker.read(update)
                    if pending is not None:
                        arrived.put((time.perf_counter(), seat_no, pending))
                    if update.HasField("game_over"):
                        break
                arrived.put(None)

            readers = [threading.Thread(target=read, args=(s,), daemon=True) for s in (0, 1)]
            for t in readers:
                t.start()
            bots = [dominion.bots.make_bot("big-money", s) for s in (0, 1)]
            sent = None
            while True:
                item = arrived.get(timeout=60)
                if item is None:
                    break
                received, seat_no, pending = item
                if sent is not None:
                    samples.append(received - sent)
                answer = bots[seat_no].answer(pending.decision, pending.view)
                sent = time.perf_counter()
                sender.seat(game.game_id, game.tokens[seat_no]).answer(pending.message.decision,
                                                                       answer)
            for t in readers:
                t.join(10)


def commits(url: str) -> int:
    """The next transaction id of the PostgreSQL server of ``url``: the difference between two
    readings, less one, is the writing transactions between them (group commits, games
    created, lease renewals; reads take no id)."""
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        return int(conn.execute("SELECT pg_current_xact_id()::text").fetchone()[0])


def percentile(values: list, fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Backend:
    """One backend's server processes and its measured runs."""

    def __init__(self, label: str, db: str, postmaster: int = 0, servers: int = 1,
                 extra: tuple = ()):
        self.label, self.db, self.postmaster = label, db, postmaster
        self.runs: list = []   # (answers, seconds, server CPU s, clients CPU s, database CPU s)
        self.latencies: list = []   # the probe's, seconds
        self.commits: list = []     # PostgreSQL: transactions committed per run
        started = [start_server(db, *extra) for _ in range(servers)]
        self.procs = [proc for proc, _ in started]
        self.targets = tuple(target for _, target in started)
        self.client = connect(self.targets[0])
        self.client.wait_ready(10)

    def run(self, games: int, seed: int, procs: int, probing: bool = False,
            watch=None) -> None:
        """One measured run; ``probing``: a run under the probe instead, measuring only its
        latencies (the probe's own calls would count in the CPU per decision). ``watch``: see
        `service_bench.play_games`."""
        committed = commits(self.db) if self.postmaster and not probing else 0
        before = cpu_seconds(self.postmaster) if self.postmaster else 0.0
        stop = threading.Event()
        prober = threading.Thread(target=probe, args=(self.targets[0], self.targets[-1], stop,
                                                      self.latencies), daemon=True)
        if probing:
            prober.start()
        answers, seconds, server, clients = play_games(
            self.client, self.targets if len(self.targets) > 1 else self.targets[0],
            tuple(p.pid for p in self.procs), games, 2, "big-money", seed, procs, watch=watch)
        if probing:
            stop.set()
            prober.join(60)
            return
        database = cpu_seconds(self.postmaster) - before if self.postmaster else 0.0
        self.runs.append((answers, seconds, server, clients, database))
        if self.postmaster:
            self.commits.append(commits(self.db) - committed - 1)

    def stop(self) -> None:
        self.client.close()
        for proc in self.procs:
            proc.terminate()
            proc.wait(10)

    def median(self) -> tuple:
        """The medians over the runs of decisions/s, server CPU us per decision and database
        CPU us per decision (each its own median: the machine is shared and noisy), and
        every run's rate."""
        rates = [a / s for a, s, *_ in self.runs]
        server = statistics.median(1e6 * cpu / a for a, _, cpu, _, _ in self.runs)
        database = statistics.median(1e6 * cpu / a for a, _, _, _, cpu in self.runs)
        return statistics.median(rates), server, database, rates


def database_next_to(url: str, name: str) -> str:
    """A new database on the PostgreSQL server of ``url``; its URL."""
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games at once (default: 50)")
    parser.add_argument("--runs", type=int, default=3, help="runs per backend (default: 3)")
    parser.add_argument("--procs", type=int, default=1,
                        help="client processes sharing the seats (default: 1, this one)")
    parser.add_argument("--pg", metavar="URL", default=None,
                        help="a PostgreSQL server to use (a new database is made on it) "
                             "instead of a throwaway one")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="dominion-storage-bench-"))
    pg = None
    backends = []
    try:
        if args.pg is None:
            pg = TemporaryPostgres(durable=True).__enter__()
            pg_url = pg.create_database("bench")
            postmaster = pg.postmaster_pid()
        else:
            import psycopg
            name = f"dominion_bench_{int(time.time())}"
            with psycopg.connect(args.pg, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            pg_url = args.pg.rsplit("/", 1)[0] + "/" + name
            postmaster = 0   # not ours: its CPU is not measured
        backends = [Backend("SQLite file", str(folder / "games.db")),
                    Backend("PostgreSQL", pg_url, postmaster)]
        # each PostgreSQL backend on a database of its own
        name = pg_url.rsplit("/", 1)[1]
        shared_url = database_next_to(pg_url, f"{name}_shared1")
        shared2_url = database_next_to(pg_url, f"{name}_shared2")
        backends += [Backend("PG shared x1", shared_url, postmaster, 1, ("--shared",)),
                     Backend("PG shared x2", shared2_url, postmaster, 2, ("--shared",))]
        for i in range(args.runs):
            for backend in backends:   # taking turns: a drift of the machine hits all
                backend.run(args.games, 5000 + 1000 * i, args.procs)
            for backend in backends:
                backend.run(args.games, 5500 + 1000 * i, args.procs, probing=True)
    finally:
        for backend in backends:
            backend.stop()
        if pg is not None:
            pg.__exit__(None, None, None)
    figures = {}
    for backend in backends:
        rate, server, database, rates = backend.median()
        figures[backend.label] = server
        db_cpu = f", database processes {database:.0f} us" if backend.postmaster else ""
        if backend.commits:   # group commits, with the reads and the leases' transactions
            per = statistics.median(a / c for (a, *_), c in zip(backend.runs, backend.commits))
            db_cpu += (f"; {per:.1f} answers per writing transaction (median; "
                       f"{statistics.median(backend.commits):.0f} a run)")
        lat = backend.latencies
        print(f"{backend.label:12s}: median {rate:6.0f} answered decisions/s (runs: "
              f"{', '.join(f'{r:.0f}' for r in rates)}); CPU per decision: server "
              f"{server:.0f} us{db_cpu}; probe answer-to-next-decision "
              f"{'across two servers' if len(backend.targets) > 1 else 'on one server'}: "
              f"p50 {1e3 * percentile(lat, 0.5):.1f} ms, p99 {1e3 * percentile(lat, 0.99):.1f} "
              f"ms ({len(lat)} samples)")
    for label in ("PostgreSQL", "PG shared x1", "PG shared x2"):
        print(f"server CPU per decision, {label} / SQLite: "
              f"{figures[label] / figures['SQLite file']:.2f} (goal: at most 1.5)")
    print(f"({args.games} games at once, 2 seats each, big-money on one PlaySeats stream per "
          f"client process, client processes {args.procs}, {args.runs} runs per backend, "
          f"engine {'compiled' if dominion.COMPILED else 'pure Python'}, "
          f"{os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
