"""The storage benchmark (the README's SQLite and PostgreSQL figures) runs at a tiny size, every
backend of its table, on the throwaway PostgreSQL server it starts itself (as by default)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres_server import find_initdb

ROOT = Path(__file__).resolve().parents[2]


def test_the_storage_benchmark_runs_every_backend():
    if find_initdb() is None and os.environ.get("CI") != "true":
        pytest.skip("PostgreSQL (initdb) is not installed; CI installs it")
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "storage_bench.py"),
                           "--games", "2", "--runs", "1"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    for backend in ("SQLite file", "PostgreSQL  :", "PG shared x1", "PG shared x2"):
        assert backend in done.stdout, done.stdout
