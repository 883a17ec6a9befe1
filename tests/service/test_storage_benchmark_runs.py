"""The storage benchmark (the README's SQLite and PostgreSQL figures) runs at a tiny size, every
backend of its table, on the throwaway PostgreSQL server it starts itself (as by default)."""
import os

import pytest

from tests.postgres_server import find_initdb
from tests.support import run_benchmark


def test_the_storage_benchmark_runs_every_backend():
    if find_initdb() is None and os.environ.get("CI") != "true":
        pytest.skip("PostgreSQL (initdb) is not installed; CI installs it")
    out = run_benchmark("storage_bench.py", "--games", "2", "--runs", "1")
    for backend in ("SQLite file", "PostgreSQL  :", "PG shared x1", "PG shared x2"):
        assert backend in out, out
