"""Storage benchmark: the service on a SQLite file against the service on PostgreSQL, in one run.

Each backend gets a new database and its own ``dominion serve`` process; the same games (same
seeds, every seat a network bot on one PlaySeats stream, as in `service_bench`) are played on
each, the backends taking turns run by run. Both commit durably: SQLite with its write-ahead log
and full sync, PostgreSQL with its defaults (fsync, synchronous_commit on). Printed for each:
answered decisions per second, and CPU time per decision of the server process and (PostgreSQL)
of the database's own processes (medians over the runs), then the ratio the goal is about:
server CPU per decision on PostgreSQL over SQLite's (at most 1.5).

PostgreSQL is a throwaway server started here (tests/postgres_server.py: initdb in a temporary
folder, 127.0.0.1, a free port), or the one ``--pg URL`` names (a new database is made on it).

    python bench/storage_bench.py                 # 50 games at once, 3 runs per backend
    python bench/storage_bench.py --games 20 --runs 5
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import dominion  # noqa: E402
from dominion_client.client import connect  # noqa: E402
from service_bench import play_games, start_server  # noqa: E402
from tests.postgres_server import TemporaryPostgres  # noqa: E402


def cluster_cpu_seconds(postmaster: int) -> float:
    """CPU time so far of a PostgreSQL server: its postmaster and every process it started
    (connection backends, writers), as far as they are alive now."""
    total = 0.0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:   # ended meanwhile
            continue
        if int(entry.name) == postmaster or int(fields[1]) == postmaster:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


class Backend:
    """One backend's server process and its measured runs."""

    def __init__(self, label: str, db: str, postmaster: int = 0):
        self.label, self.db, self.postmaster = label, db, postmaster
        self.runs: list = []   # (answers, seconds, server CPU s, clients CPU s, database CPU s)
        self.proc, self.target = start_server(db)
        self.client = connect(self.target)
        self.client.wait_ready(10)

    def run(self, games: int, seed: int, procs: int) -> None:
        before = cluster_cpu_seconds(self.postmaster) if self.postmaster else 0.0
        answers, seconds, server, clients = play_games(self.client, self.target, self.proc.pid,
                                                       games, 2, "big-money", seed, procs)
        database = cluster_cpu_seconds(self.postmaster) - before if self.postmaster else 0.0
        self.runs.append((answers, seconds, server, clients, database))

    def stop(self) -> None:
        self.client.close()
        self.proc.terminate()
        self.proc.wait(10)

    def median(self) -> tuple:
        """The medians over the runs of decisions/s, server CPU us per decision and database
        CPU us per decision (each its own median: the machine is shared and noisy), and
        every run's rate."""
        rates = [a / s for a, s, *_ in self.runs]
        server = statistics.median(1e6 * cpu / a for a, _, cpu, _, _ in self.runs)
        database = statistics.median(1e6 * cpu / a for a, _, _, _, cpu in self.runs)
        return statistics.median(rates), server, database, rates


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
        for i in range(args.runs):
            for backend in backends:   # taking turns: a drift of the machine hits both
                backend.run(args.games, 5000 + 1000 * i, args.procs)
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
        print(f"{backend.label:12s}: median {rate:6.0f} answered decisions/s (runs: "
              f"{', '.join(f'{r:.0f}' for r in rates)}); CPU per decision: server "
              f"{server:.0f} us{db_cpu}")
    ratio = figures["PostgreSQL"] / figures["SQLite file"]
    print(f"server CPU per decision, PostgreSQL / SQLite: {ratio:.2f} (goal: at most 1.5)")
    print(f"({args.games} games at once, 2 seats each, big-money on one PlaySeats stream per "
          f"client process, client processes {args.procs}, {args.runs} runs per backend, "
          f"engine {'compiled' if dominion.COMPILED else 'pure Python'}, "
          f"{os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
