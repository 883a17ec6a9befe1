"""A SQLite file damaged on disk: a damaged page is found at start (SQLite's quick_check) and
the server refuses to start, saying so, rather than saying SERVING and refusing every write;
a finished game whose row cannot be read once the server runs answers DATA_LOSS, not UNKNOWN."""
from __future__ import annotations

import contextlib
import sqlite3

import grpc
import pytest

from dominion_client.client import connect
from dominion_service import SqliteStorage
from dominion_service.local import LocalServer
from dominion_service.storage import StorageError
from tests.service.test_serve_command import dominion as run_dominion
from tests.service.test_serve_command import refused


def stored_games(db: str, kingdom) -> list:
    """20 finished all-bot games and one in progress stored in ``db``; the finished ids."""
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        done = [client.create_game(["A", "B"], bots={0: "big-money", 1: "big-money"},
                                   kingdom=list(kingdom), seed=i).game_id for i in range(20)]
        client.create_game(["A", "B"], kingdom=list(kingdom), seed=99)
    return done


def damage(db: str, index: str = "sqlite_autoindex_games_1") -> None:
    """Overwrite the cells of every leaf page of ``index`` with garbage, as a bad disk
    would, then commit a change of SQLite's own (so that a server running on the file reads
    its pages again)."""
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = [p for (p,) in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf'", (index,))]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        assert pages
        with open(db, "r+b") as f:
            for page in pages:
                f.seek((page - 1) * size + 8)
                f.write(b"\xff" * 200)
        conn.execute("CREATE TABLE touched (x)")


def test_a_damaged_index_page_is_found_at_start_and_the_server_does_not_start(tmp_path,
                                                                               kingdom):
    db = str(tmp_path / "games.db")
    stored_games(db, kingdom)
    damage(db)
    with pytest.raises(StorageError, match="is damaged .*quick_check"):
        SqliteStorage(db)
    refused(run_dominion("serve", "--port", "0", "--no-web", "--db", db), "is damaged",
            "quick_check", ".recover")


def test_a_finished_game_whose_row_cannot_be_read_answers_data_loss(tmp_path, kingdom):
    """Its row unreadable (SQLite says the file is malformed) or not found through the
    damaged index (a game listed at start: games are never deleted): DATA_LOSS either way."""
    db = str(tmp_path / "games.db")
    done = stored_games(db, kingdom)
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        damage(db)   # while it runs: found when a finished game is read again
        for game_id in done[:5]:
            with pytest.raises(grpc.RpcError) as info:
                client.spectate(game_id).view_message()
            assert info.value.code() == grpc.StatusCode.DATA_LOSS, info.value
            assert "cannot be" in info.value.details()
