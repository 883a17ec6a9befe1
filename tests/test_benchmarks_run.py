"""The benchmarks behind the README's Speed figures run (a benchmark that no longer starts would
leave its figures unrepeatable): each, at a tiny size, prints what it measures. The search
bot's benchmarks are in tests/bots/test_search_benchmarks_run.py, the storage benchmark's in
tests/service/test_storage_benchmark_runs.py (it needs PostgreSQL), the scale benchmark's
pieces in tests/service/test_scale_bench.py (it is run by hand: it needs a quiet machine)."""
import pytest

from tests.support import run_benchmark


@pytest.mark.parametrize("args, printed", [
    ((), "our engine: "),
    (("--engine-only",), "replaying its games' records without the bots"),
])
def test_the_paired_suite_against_pyminion_runs_every_game(args, printed):
    out = run_benchmark("suite.py", "--games", "1", "--rounds", "1", *args)
    assert printed in out, out
    for game in ("Big Money, 2 players", "Big Money with Smithy, 2 players",
                 "Big Money, 4 players", "Bandit (an Attack), 3 players"):
        assert game in out, out


@pytest.mark.parametrize("script, args, printed", [
    ("engine_bench.py", ("--games", "5"), "games/s"),
    ("rl_bench.py", ("--steps", "50", "--rounds", "1", "--games", "2"), "batched / DominionEnv"),
    ("service_bench.py", ("--games", "2", "--single", "1", "--runs", "1"),
     "answered decisions/s"),
    ("service_bench.py", ("--games", "2", "--single", "1", "--runs", "1", "--procs", "2"),
     "client processes 2"),
    ("planner.py", ("--kingdoms", "1", "--budget", "1000", "--games", "10"),
     "seconds per Kingdom: median"),
])
def test_a_speed_benchmark_runs_at_a_tiny_size(script, args, printed):
    out = run_benchmark(script, *args)
    assert printed in out, out
