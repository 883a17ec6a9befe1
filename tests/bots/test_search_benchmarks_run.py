"""The search bot's benchmarks run (their figures are the README's; a benchmark that no longer
starts would leave them unrepeatable): each, at a tiny size, prints what it measures."""
import pytest

from tests.support import run_benchmark


@pytest.mark.parametrize("script, args, printed", [
    ("agent_table.py", ["--games", "2", "--games4", "4", "--playouts", "2",
                        "--opponents", "double-witch"], "| 4 | 3 x best built-in"),
    ("agent_table.py", ["--games", "2", "--games4", "0", "--playouts", "2", "--margin", "0.02",
                        "--opponents", "witch-big-money"], "--playouts 2 --margin 0.02`"),
    ("agent_table.py", ["--games", "2", "--games4", "0", "--playouts", "2", "--kingdoms", "1",
                        "--opponents", "bmu-best", "--search", "plan=1000,model=shown",
                        "--bmu-best-games", "400", "--sets", "base-2e"],
     "the Kingdom's plan (`dominion plan`'s planner, 1000 games per Kingdom and player count) "
     "and the others modelled by the Kingdom cards they have bought; 1 recommended Kingdom of "
     "base-2e only"),
    ("agent_table.py", ["--games", "2", "--games4", "0", "--playouts", "2", "--opponents", "",
                        "--scripts", "2"], "| 2 | known-best witch-lab (its board) | 2 |"),
    ("playouts.py", ["--playouts", "2"], "4 players:"),
    ("plans.py", ["--games", "2", "--pairs", "1", "--playouts", "2", "--plan-games", "2",
                  "--kingdoms", "2"], "PlanSearchBot against witch-big-money"),
    ("search_service.py", ["--games", "2", "--playouts", "2", "--seconds", "1"], "p99"),
    ("plan_quality.py", ["--kingdoms", "1", "--budget", "1000", "--games", "4"],
     "mean against the known-best scripts on their boards:"),
])
def test_a_search_benchmark_runs_at_a_tiny_size(script, args, printed, tmp_path, monkeypatch):
    monkeypatch.setenv("DOMINION_PLAN_CACHE", str(tmp_path))   # (plans made here stay here)
    out = run_benchmark(script, *args)
    assert printed in out, out[-2000:]
