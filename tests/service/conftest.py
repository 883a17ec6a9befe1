"""Fixtures for the service's end-to-end tests: a real server on a free loopback port."""
from __future__ import annotations

import pytest

import dominion
from dominion_client.client import connect
from dominion_service.local import LocalServer
from dominion_service import SqliteStorage
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
