"""Scale benchmark: answered decisions per second with 1, 2, 4 ``--shared`` servers on one
PostgreSQL, each server given the same small, fixed CPU share, as if each were a small machine
of its own: adding servers adds CPU, so that the throughput can grow with them, and where it
stops growing the figures printed say what bounds it.

Placement (Linux): this process, its client processes and PostgreSQL are pinned to the
``--client-cpus`` (default CPU 0), the servers to the ``--server-cpus`` (default CPU 1), and
each server is put in a cgroup (v1, ``/sys/fs/cgroup/cpu``) of its own capped at
``--server-cpu`` of a core (default 0.15: 1, 2 and 4 servers get 0.15, 0.3 and 0.6 of a core).
The default leaves the client CPU room: a client process spends about 115 us per decision and
PostgreSQL 50 to 65 us (the README's Speed figures), so 4 servers at 0.15 core (about 1e6 / 160
us x 0.6 = 3,700 decisions/s) keep one client CPU about two thirds busy; at 0.2 it would be
over 80%. The cgroups need root and cgroup v1's cpu controller; without them the benchmark
says so in one line and pins only: the servers then share their CPUs, which cannot show
scaling.

The load is `storage_bench`'s (the same games, the same seeds for every count of servers: every
seat a network bot, the games dealt out among the servers, each client process with one
PlaySeats stream to each server), each count on a database of its own on one throwaway
PostgreSQL (durable commits: its defaults), the counts taking turns run by run, medians
printed. For each count of servers:

- answered decisions per second, and the ratio to one server's;
- server CPU per decision (all the servers together), and how much of their share they used
  (and the share of cgroup periods in which they were throttled: at the cap);
- PostgreSQL's CPU per decision (all its processes);
- writing transactions with answers (group commits: each announces its answers in one NOTIFY,
  which a listener of this benchmark counts) per second, and answers per commit;
- the announcements each server received per second (every server's listening connection
  receives every NOTIFY; on average (N-1)/N of them are the other servers', with as many of
  the answers) and the answers they carried;
- how busy the client CPUs and the server CPUs were (a client CPU near 100% means the load
  generator, not the servers, was the limit: give a smaller ``--server-cpu``);
- from two counts, the server CPU that each answer announced costs each other server.

docs/scaling.md says how to read them and how to estimate a deployment of N machines from them.

    python bench/scale_bench.py                          # 1, 2, 4 servers at 0.15 core, 3 runs
    python bench/scale_bench.py --servers 1,2,4 --server-cpu 0.1 --games 400 --runs 5
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import dominion  # noqa: E402
from dominion_service.storage_pg import CHANNEL  # noqa: E402
from service_bench import cpu_seconds, process_family  # noqa: E402
from storage_bench import Backend  # noqa: E402
from tests.postgres_server import TemporaryPostgres  # noqa: E402

CGROUP_CPU = Path("/sys/fs/cgroup/cpu")   # cgroup v1's cpu controller
BUSY = 0.85   # client CPUs busier than this may have held the servers back
PERIOD_US = 20_000   # a short period: a capped server waits a few milliseconds at a time
MAX_SERVERS = 14   # all the counts together, all alive at once


def cpu_list(text: str) -> set:
    """``"0"``, ``"1,3"`` or ``"2-3"``: a set of CPU numbers."""
    cpus: set = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        cpus.update(range(int(low), int(high or low) + 1))
    return cpus


def counts(text: str) -> tuple:
    """``"1,2,4"``: the counts of servers, each at least 1."""
    values = tuple(int(part) for part in text.split(","))
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: counts of servers, each at least 1")
    return values


def pin(pid: int, cpus: set) -> None:
    """Every thread of process ``pid`` (and so the threads and processes they start later) to
    ``cpus`` (`os.sched_setaffinity` sets one thread's)."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:   # the process ended meanwhile
        return
    for tid in threads:
        try:
            os.sched_setaffinity(int(tid), cpus)
        except ProcessLookupError:   # the thread ended meanwhile
            pass


def cgroups_unusable(root: Path = CGROUP_CPU) -> str:
    """Why CPU caps cannot be made under ``root`` (empty: they can)."""
    if os.geteuid() != 0:
        return "not root"
    if not (root / "cpu.cfs_quota_us").is_file():
        return f"no cgroup v1 cpu controller at {root}"
    if not os.access(root, os.W_OK):
        return f"{root} is not writable"
    return ""


class Placement:
    """Where the processes run: the clients and PostgreSQL on ``client_cpus``, the servers on
    ``server_cpus``, each server (when ``share`` and cgroups can be used: `reason` is empty)
    in a cgroup of its own under ``root`` capped at ``share`` of a core. `close` removes the
    groups (once their servers have ended)."""

    def __init__(self, client_cpus: set, server_cpus: set, share, root: Path = CGROUP_CPU):
        self.client_cpus, self.server_cpus, self.share, self.root = \
            client_cpus, server_cpus, share, root
        self.reason = cgroups_unusable(root) if share else "--server-cpu 0"
        self.groups: dict = {}   # server pid: its cgroup's folder

    def describe(self) -> str:
        where = (f"clients and PostgreSQL on CPU {sorted(self.client_cpus)}, servers on CPU "
                 f"{sorted(self.server_cpus)}")
        if self.reason:
            return (f"{where}; CPU caps cannot be used ({self.reason}): the servers share "
                    f"their CPUs, which cannot show scaling")
        return (f"{where}, each server capped at {self.share:g} of a core (cgroup v1, period "
                f"{PERIOD_US // 1000} ms)")

    def client(self, pid: int) -> None:
        pin(pid, self.client_cpus)

    def server(self, pid: int) -> None:
        """Pin server ``pid``, and cap it."""
        pin(pid, self.server_cpus)
        if self.reason:
            return
        group = self.root / f"dominion-scale-{os.getpid()}-{pid}"
        group.mkdir()
        self.groups[pid] = group
        (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (group / "cpu.cfs_quota_us").write_text(str(max(1000, round(self.share * PERIOD_US))))
        (group / "cgroup.procs").write_text(str(pid))   # (v1: every thread of the process)

    def throttling(self, pids) -> tuple:
        """(periods, periods throttled) so far of the groups of servers ``pids``."""
        periods = throttled = 0
        for pid in pids:
            if pid in self.groups:
                stat = dict(line.split() for line in
                            (self.groups[pid] / "cpu.stat").read_text().splitlines())
                periods += int(stat["nr_periods"])
                throttled += int(stat["nr_throttled"])
        return periods, throttled

    def close(self) -> None:
        """Remove the groups: a process still in one (a server that did not end) is moved
        back to the root group first."""
        for group in self.groups.values():
            try:
                for pid in (group / "cgroup.procs").read_text().split():
                    (self.root / "cgroup.procs").write_text(pid)
                group.rmdir()
            except OSError as e:
                print(f"could not remove {group}: {e}", file=sys.stderr)
        self.groups = {}


class Announcements:
    """A listener on a database's announcement channel (what every shared server's listening
    connection receives): counts the NOTIFYs and the answers they carry."""

    def __init__(self, url: str):
        import psycopg
        self.notes = self.answers = 0
        self._stop = threading.Event()
        self._conn = psycopg.connect(url, autocommit=True)
        self._conn.execute(f"LISTEN {CHANNEL}")
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            for note in self._conn.notifies(timeout=0.2):
                self.notes += 1
                self.answers += note.payload.count(",") + 1

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._conn.close()


def busy_jiffies(cpus: set) -> tuple:
    """(busy, all) clock ticks so far of ``cpus`` (/proc/stat; idle and iowait are not
    busy)."""
    busy = total = 0
    for line in Path("/proc/stat").read_text().splitlines():
        name, *fields = line.split()
        if name.startswith("cpu") and name[3:].isdigit() and int(name[3:]) in cpus:
            ticks = [int(f) for f in fields[:8]]
            busy += sum(ticks) - ticks[3] - ticks[4]
            total += sum(ticks)
    return busy, total


class Watch:
    """What one run measures between the start and the stop of its clock, besides
    `service_bench.play_games`'s figures."""

    def __init__(self, backend: Backend, placement: Placement, heard: Announcements):
        self.backend, self.placement, self.heard = backend, placement, heard
        self.pids = tuple(p.pid for p in backend.procs)

    def _read(self) -> tuple:
        return (self.heard.notes, self.heard.answers,
                cpu_seconds(self.backend.postmaster) if self.backend.postmaster else 0.0,
                *busy_jiffies(self.placement.client_cpus),
                *busy_jiffies(self.placement.server_cpus),
                *self.placement.throttling(self.pids))

    def start(self) -> None:
        self._before = self._read()

    def stop(self) -> None:
        time.sleep(0.05)   # the last commits' announcements on their way to the listener
        self.delta = [b - a for a, b in zip(self._before, self._read())]


def summary(servers: int, share, runs: list) -> dict:
    """The medians over ``runs`` of one count of ``servers`` (each run: answers, seconds, server
    CPU s, clients CPU s, and a `Watch`'s delta: NOTIFYs, answers announced, PostgreSQL CPU s,
    client CPUs busy and all ticks, server CPUs busy and all ticks, cgroup periods and periods
    throttled), each figure its own median."""
    def med(f):
        return statistics.median(f(*run) for run in runs)
    return {
        "servers": servers,
        "rates": [a / s for a, s, *_ in runs],
        "rate": med(lambda a, s, *_: a / s),
        "server_us": med(lambda a, s, server, *_: 1e6 * server / a),
        "share_used": med(lambda a, s, server, *_: server / s / (servers * share))
        if share else None,
        "throttled": med(lambda a, s, sv, cl, d: d[8] / d[7] if d[7] else 0.0),
        "clients_us": med(lambda a, s, sv, clients, d: 1e6 * clients / a),
        "database_us": med(lambda a, s, sv, cl, d: 1e6 * d[2] / a),
        "commits": med(lambda a, s, sv, cl, d: d[0] / s),
        "per_commit": med(lambda a, s, sv, cl, d: d[1] / d[0] if d[0] else 0.0),
        "heard": med(lambda a, s, sv, cl, d: d[0] / s),
        "heard_others": med(lambda a, s, sv, cl, d: d[0] / s * (servers - 1) / servers),
        "answers_others": med(lambda a, s, sv, cl, d: d[1] / s * (servers - 1) / servers),
        "client_busy": med(lambda a, s, sv, cl, d: d[3] / d[4] if d[4] else 0.0),
        "server_busy": med(lambda a, s, sv, cl, d: d[5] / d[6] if d[6] else 0.0),
    }


def report(figures: list, share) -> list:
    """The lines printed for the `summary` of each count of servers (the first as the base)."""
    base = figures[0]
    lines = []
    for f in figures:
        n = f["servers"]
        cap = (f"{f['share_used']:.0%} of their {n * share:g} core used, throttled in "
               f"{f['throttled']:.0%} of periods" if f["share_used"] is not None else
               "not capped")
        lines.append(
            f"{n} server{'s' if n > 1 else ' '}: median {f['rate']:6.0f} answered decisions/s "
            f"(x{f['rate'] / base['rate']:.2f} of {base['servers']}'s; runs: "
            f"{', '.join(f'{r:.0f}' for r in f['rates'])}); per decision: servers "
            f"{f['server_us']:.0f} us ({cap}), PostgreSQL {f['database_us']:.0f} us, clients "
            f"{f['clients_us']:.0f} us; {f['commits']:.0f} group commits/s, "
            f"{f['per_commit']:.1f} answers each; each server received {f['heard']:.0f} "
            f"NOTIFYs/s, {f['heard_others']:.0f} of them the others' ({f['answers_others']:.0f}"
            f" answers/s); client CPUs {f['client_busy']:.0%} busy, server CPUs "
            f"{f['server_busy']:.0%}")
    for f in figures:
        if f["client_busy"] >= BUSY:
            lines.append(f"the client CPUs were {f['client_busy']:.0%} busy with "
                         f"{f['servers']} server{'s' if f['servers'] > 1 else ''}: the "
                         f"clients or PostgreSQL may have been the limit there (a smaller "
                         f"--server-cpu, or more --client-cpus)")
    for f in figures:
        if f["servers"] > base["servers"]:
            extra = (f["server_us"] - base["server_us"]) / (f["servers"] - base["servers"])
            lines.append(f"server CPU per decision, {f['servers']} servers against "
                         f"{base['servers']}: {extra:+.1f} us per server added (each answer "
                         f"announced, read by each other server)")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=counts, default=(1, 2, 4),
                        help="counts of servers, comma-separated (default: 1,2,4)")
    parser.add_argument("--server-cpu", type=float, default=0.15, metavar="SHARE",
                        help="each server's cap, in cores (default: 0.15; 0: no caps)")
    parser.add_argument("--games", type=int, default=200, help="games at once (default: 200)")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs per count of servers (default: 3)")
    parser.add_argument("--procs", type=int, default=1,
                        help="client processes sharing the seats (default: 1, this one)")
    parser.add_argument("--client-cpus", type=cpu_list, default={0},
                        help="CPUs of the clients and PostgreSQL (default: 0)")
    parser.add_argument("--server-cpus", type=cpu_list, default={1},
                        help="CPUs of the servers (default: 1)")
    args = parser.parse_args(argv)
    usable = os.sched_getaffinity(0)
    if not (args.client_cpus | args.server_cpus) <= usable or \
            args.client_cpus & args.server_cpus:
        parser.error(f"--client-cpus and --server-cpus must be apart, within the CPUs this "
                     f"process may use: {sorted(usable)}")
    if sum(args.servers) > MAX_SERVERS:
        parser.error(f"--servers: at most {MAX_SERVERS} servers in all (each holds up to 6 "
                     f"of the throwaway PostgreSQL's 100 connections)")
    if not 0 <= args.server_cpu <= len(args.server_cpus):
        parser.error("--server-cpu: a share of a core, at most the server CPUs given")
    placement = Placement(args.client_cpus, args.server_cpus, args.server_cpu)
    placement.client(os.getpid())   # this process, and so the clients and PostgreSQL it starts
    print(f"placement: {placement.describe()}", flush=True)
    pg = backends = None
    heard: list = []
    try:
        pg = TemporaryPostgres(durable=True).__enter__()
        postmaster = pg.postmaster_pid()
        for pid, _ in process_family(postmaster):   # those started already, too
            placement.client(pid)
        backends = []
        for n in args.servers:   # each count of servers on a database of its own
            url = pg.create_database(f"scale{n}")
            backends.append(Backend(f"{n} servers", url, postmaster, n, ("--shared",)))
            heard.append(Announcements(url))
            for proc in backends[-1].procs:
                placement.server(proc.pid)
        results: list = [[] for _ in backends]
        for backend in backends:   # not measured: the servers' first games
            backend.run(max(2, args.games // 5), 1000, args.procs)
        for i in range(args.runs):
            for backend, listener, runs in zip(backends, heard, results):   # taking turns
                watch = Watch(backend, placement, listener)
                backend.run(args.games, 5000 + 1000 * i, args.procs, watch=watch)
                runs.append((*backend.runs[-1][:4], watch.delta))
    finally:
        for listener in heard:
            listener.close()
        for backend in backends or ():
            backend.stop()
        placement.close()
        if pg is not None:
            pg.__exit__(None, None, None)
    figures = [summary(n, args.server_cpu, runs) for n, runs in zip(args.servers, results)]
    for line in report(figures, args.server_cpu):
        print(line)
    print(f"({args.games} games at once, 2 seats each, big-money, client processes "
          f"{args.procs}, each with a PlaySeats stream to each server; {args.runs} runs per "
          f"count, taking turns; PostgreSQL 15 committing durably; engine "
          f"{'compiled' if dominion.COMPILED else 'pure Python'}; {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
