"""``dominion db copy``: every game of a SQLite file into PostgreSQL, checked, served from there;
again changes nothing; refusals are one line and store nothing."""
from __future__ import annotations

import sqlite3

import psycopg

from dominion_client.cli import main
from dominion_client.client import connect
from dominion_client.local import LocalServer
from dominion_service.storage import open_storage
from tests.service.test_service_durability import make_games


def copy(capsys, *args) -> tuple:
    code = main(["db", "copy", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def refused(result, *words) -> None:
    code, out, err = result
    assert code == 2 and not out, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in lines[0], lines[0]


def test_every_game_is_copied_checked_and_served_from_postgres(tmp_path, pg_url, capsys,
                                                               kingdom):
    db = tmp_path / "games.db"
    opened, done = make_games(db, kingdom, unfinished=2, finished=1)
    with sqlite3.connect(db) as conn:   # a game that cannot be served is copied as it is
        conn.execute("UPDATE games SET config = '{not json' WHERE game_id = ?", (opened[1],))
    conn.close()
    code, out, err = copy(capsys, db, pg_url)
    assert code == 0, err
    assert "copied 3 games" in out and "all 3 games" in out and "read back identical" in out
    assert "s3cret" not in out
    with LocalServer(open_storage(pg_url)) as server, connect(server.target) as client:
        assert set(server.service.games) == {opened[0]}
        assert set(server.service.finished) == set(done)
        assert set(server.service.broken) == {opened[1]}
        assert client.spectate(opened[0]).view().waiting_for == 0
    code, out, err = copy(capsys, db, pg_url)
    assert code == 0 and "copied 0 games" in out and "3 were there already" in out


def test_a_different_game_under_the_same_id_refuses_the_copy_and_stores_nothing(
        tmp_path, pg_url, capsys, kingdom):
    db = tmp_path / "games.db"
    make_games(db, kingdom, unfinished=2, finished=0)
    assert copy(capsys, db, pg_url)[0] == 0
    with psycopg.connect(pg_url, autocommit=True) as conn:
        (first,) = conn.execute("SELECT game_id FROM games ORDER BY created LIMIT 1").fetchone()
        conn.execute("UPDATE games SET turn = turn + 1 WHERE game_id = %s", (first,))
        conn.execute("DELETE FROM answers WHERE game_id <> %s", (first,))
        conn.execute("DELETE FROM games WHERE game_id <> %s", (first,))
    refused(copy(capsys, db, pg_url), f"game {first} is there already with other contents",
            "nothing was copied")
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)


def test_a_source_that_is_not_a_file_is_refused(tmp_path, capsys):
    refused(copy(capsys, tmp_path / "missing.db", tmp_path / "t.db"),
            "missing.db: no such SQLite file")
    assert not (tmp_path / "t.db").exists()


def test_a_target_that_cannot_be_reached_is_refused_without_its_password(tmp_path, postgres,
                                                                         capsys, kingdom):
    db = tmp_path / "games.db"
    make_games(db, kingdom, unfinished=1, finished=0)
    result = copy(capsys, db, postgres.url("postgres", password="Not-The-Pw"))
    refused(result, "password authentication failed", "postgres:***@")
    assert "Not-The-Pw" not in result[2]


def test_a_target_a_server_is_using_is_refused(tmp_path, pg_url, capsys, kingdom):
    db = tmp_path / "games.db"
    make_games(db, kingdom, unfinished=1, finished=0)
    with LocalServer(open_storage(pg_url)):
        refused(copy(capsys, db, pg_url), "in use by another server")
