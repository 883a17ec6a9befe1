"""What a simulation hands a researcher: per-game CSV rows, a summary that names its Kingdom,
a progress line with an estimate, and Ctrl-C that stops the workers and still reports, with
tasks made lazily so that any number of games starts at once."""
import csv
import signal
import subprocess
import sys
import time
from pathlib import Path

from dominion_client.commands_engine import format_duration

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "dominion_client.cli", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_csv_has_a_row_per_game(tmp_path):
    out = tmp_path / "games.csv"
    run = cli("simulate", "--games", "6", "--bots", "big-money,random", "--seed", "3",
              "--workers", "2", "--csv", str(out), "--kingdom", "random", "--sets", "base-2e")
    assert run.returncode == 0, run.stderr
    rows = list(csv.DictReader(out.open()))
    assert [int(r["index"]) for r in rows] == list(range(6))
    assert all(len(r["kingdom"].split(" | ")) == 10 and r["winners"] for r in rows)
    assert "drawn for each group of games from base-2e" in run.stdout


def test_the_summary_names_the_kingdom_played():
    run = cli("simulate", "--games", "2", "--bots", "big-money,random", "--workers", "1")
    assert "Kingdom: First Game (Cellar, Market," in run.stdout
    run = cli("simulate", "--games", "2", "--bots", "witch-big-money,random", "--workers", "1")
    assert "Kingdom: Witch, " in run.stdout


def test_ctrl_c_stops_the_workers_and_reports_the_games_finished():
    """A trillion games start at once (no task list is built first); Ctrl-C ends the run with
    the summary of what finished."""
    proc = subprocess.Popen([sys.executable, "-m", "dominion_client.cli", "simulate", "--games",
                             "1000000000000", "--bots", "big-money,random", "--workers", "2",
                             "--seed", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    try:
        time.sleep(4)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:   # a run that did not stop must not outlive the test (it plays for ever)
        if proc.poll() is None:
            subprocess.run(["pkill", "-KILL", "-P", str(proc.pid)], check=False)
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    first = out.splitlines()[0]
    assert "(interrupted: the games finished so far)" in first
    assert int(first.split()[0]) > 0 and "Traceback" not in err


def test_the_progress_estimate_reads_at_a_glance():
    assert [format_duration(s) for s in (4.2, 185, 7800)] == ["4 s", "3 min 5 s", "2 h 10 min"]


def test_a_mistyped_bot_or_kingdom_gets_a_did_you_mean():
    run = cli("simulate", "--games", "2", "--bots", "witch-bigmoney,random")
    assert run.returncode == 2 and "(did you mean 'witch-big-money'?)" in run.stderr
    run = cli("simulate", "--games", "2", "--bots", "big-money,random", "--kingdom", "Frist Game")
    assert run.returncode == 2 and "(did you mean 'First Game'?)" in run.stderr
    run = cli("simulate", "--games", "2", "--bots", "big-money,random", "--kingdom",
              "Cellar,Chapel,Moat,Vilage,Workshop,Smithy,Militia,Market,Mine,Witch")
    assert run.returncode == 2 and "(did you mean 'Village'?)" in run.stderr


def test_more_workers_than_cores_are_capped_with_a_word():
    from dominion_client.commands_engine import usable_cores
    run = cli("simulate", "--games", "2", "--bots", "big-money,random", "--workers", "100000")
    assert run.returncode == 0, run.stderr
    assert f"--workers 100000 is more than the {usable_cores()} cores" in run.stderr
