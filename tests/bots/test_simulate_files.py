"""The files `dominion simulate` writes (--records, --csv) are written whole or not at all: every
argument is checked before a file is touched, an existing file is refused unless --overwrite or
--append asks otherwise, and the file appears only when the run has finished."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["simulate", "--games", "2", "--bots", "big-money,random", "--seed", "4",
         "--workers", "1"]


def cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "dominion_client.cli", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture
def kept(tmp_path):
    """A records file of 4 lines and a CSV of 4 rows from an earlier run."""
    run = cli("simulate", "--games", "4", "--bots", "big-money,random", "--seed", "1",
              "--workers", "1", "--records", "keep.jsonl", "--csv", "keep.csv", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    return tmp_path


def contents(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("bad", [["--kingdom", "Smithy"], ["--kingdom", "random", "--sets",
                                                                   "base2e"],
                                 ["--sets", "base2e"], ["--cluster", "tcp://127.0.0.1:1"]])
def test_a_failed_simulation_leaves_existing_files_as_they_were(kept, bad):
    before = contents(kept)
    run = cli(*GAMES, "--records", "keep.jsonl", "--csv", "keep.csv", "--overwrite", *bad,
              cwd=kept)
    assert run.returncode == 2 and run.stderr.startswith("dominion: ")
    assert "Traceback" not in run.stderr
    assert contents(kept) == before   # nothing touched, no partial file left beside


def test_an_existing_file_is_refused_without_overwrite_or_append(kept):
    before = contents(kept)
    for option in ("--records", "--csv"):
        name = "keep.jsonl" if option == "--records" else "keep.csv"
        run = cli(*GAMES, option, name, cwd=kept)
        assert run.returncode == 2
        assert run.stderr.strip() == (f"dominion: {option} {name}: the file exists; give "
                                      "--overwrite to replace it or --append to add to it")
    assert contents(kept) == before


def test_overwrite_replaces_and_append_adds_after_the_lines_that_were_there(kept):
    old = (kept / "keep.jsonl").read_text().splitlines()
    assert cli(*GAMES, "--records", "keep.jsonl", "--csv", "keep.csv", "--append",
               cwd=kept).returncode == 0
    lines = (kept / "keep.jsonl").read_text().splitlines()
    assert len(lines) == 6 and lines[:4] == old
    rows = (kept / "keep.csv").read_text().splitlines()
    assert len(rows) == 7 and rows[0].startswith("index,seed,") and rows.count(rows[0]) == 1
    assert cli(*GAMES, "--records", "keep.jsonl", "--overwrite", cwd=kept).returncode == 0
    assert len((kept / "keep.jsonl").read_text().splitlines()) == 2
    assert sorted(p.name for p in kept.iterdir()) == ["keep.csv", "keep.jsonl"]


def test_append_refuses_a_csv_of_other_columns(tmp_path):
    (tmp_path / "other.csv").write_text("name,score\nAnn,3\n")
    run = cli(*GAMES, "--csv", "other.csv", "--append", cwd=tmp_path)
    assert run.returncode == 2 and "does not begin with the columns" in run.stderr
    assert (tmp_path / "other.csv").read_text() == "name,score\nAnn,3\n"


def test_the_same_file_for_records_and_csv_is_refused(tmp_path):
    run = cli(*GAMES, "--records", "out", "--csv", "./out", cwd=tmp_path)
    assert run.returncode == 2 and "name the same file" in run.stderr
    assert not list(tmp_path.iterdir())
