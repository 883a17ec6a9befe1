"""The known-best scripts benchmark (bench/known_scripts.py) runs: at a tiny size it plays every
script in bench/strategies/ against Big Money Ultimate on its own board and prints the table with
the published figures beside it."""
from tests.support import run_benchmark


def test_the_known_scripts_benchmark_plays_every_script_and_prints_the_table():
    out = run_benchmark("known_scripts.py", "--games", "2", "--big-money")
    for script in ("double-witch", "chapel-witch", "double-smithy", "workshop-gardens",
                   "double-courtyard", "lab-militia-chapel", "torturer-village", "minion-chapel",
                   "masquerade-nobles", "throne-room-smithy", "throne-room-witch",
                   "witch-lab"):
        assert f"\n{script} " in out, out
    assert "99.2%" in out and "93.5%" in out, out   # the published figures beside ours


def test_the_known_scripts_benchmark_refuses_an_unknown_script():
    import subprocess
    import sys
    from tests.support import PROJECT_ROOT
    done = subprocess.run([sys.executable, str(PROJECT_ROOT / "bench" / "known_scripts.py"),
                           "--only", "no-such-script"], capture_output=True, text=True,
                          cwd=PROJECT_ROOT, timeout=60)
    assert done.returncode != 0 and "unknown script(s): no-such-script" in done.stderr
