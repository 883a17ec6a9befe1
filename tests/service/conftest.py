"""Fixtures for the service's end-to-end tests: a real server on a free loopback port."""
from __future__ import annotations

import itertools
import os

import pytest

import dominion
from dominion_client.client import connect
from dominion_client.local import LocalServer
from dominion_service import SqliteStorage, open_storage
from tests.postgres_server import TemporaryPostgres, find_initdb
from tests.support import PLAIN_KINGDOM


def simple_kingdom() -> tuple:
    """10 Kingdom cards that exist in the engine now: the plain test Kingdom, filled up from
    the base pool if some of its cards are missing."""
    out = [n for n in PLAIN_KINGDOM if n in dominion.CARDS]
    for n in dominion.kingdom_pool(dominion.SETS):
        if len(out) == 10:
            break
        if n not in out:
            out.append(n)
    return tuple(out)


@pytest.fixture
def kingdom():
    return simple_kingdom()


@pytest.fixture
def server():
    with LocalServer(SqliteStorage(":memory:")) as running:
        yield running


@pytest.fixture
def client(server):
    with connect(server.target) as c:
        c.wait_ready()
        yield c


# --- PostgreSQL: one throwaway server for the session, a new database for each test ------------

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server of our own (tests/postgres_server.py). In CI (CI=true) it is never
    skipped: a missing initdb fails the tests."""
    if find_initdb() is None and os.environ.get("CI") != "true":
        pytest.skip("PostgreSQL (initdb) is not installed; CI installs it")
    with TemporaryPostgres() as server:
        yield server


@pytest.fixture
def pg_url(postgres):
    """The URL of a new, empty database on the test PostgreSQL."""
    return postgres.create_database(f"test_{os.getpid()}_{next(_databases)}")


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    """A new database of each backend, as ``--db`` names it: a SQLite file, or the URL of a new
    PostgreSQL database."""
    return str(tmp_path / "games.db") if request.param == "sqlite" else \
        request.getfixturevalue("pg_url")


@pytest.fixture
def open_db(request, database):
    """Opens a storage on the test's `database`; each call opens it again, as a restarted
    server would. Storages left open are closed at the end."""
    db = database
    opened = []

    def open_it():
        storage = open_storage(db)
        opened.append(storage)
        return storage

    open_it.db = db
    open_it.backend = "postgres" if db.startswith("postgresql://") else "sqlite"
    yield open_it
    for storage in opened:
        try:
            storage.close()
        except Exception:
            pass
