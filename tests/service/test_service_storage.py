"""Games stored as records: answers as stable JSON that converts back exactly. The storage
contract holds for both backends (``open_db``: a SQLite file and a PostgreSQL database)."""
from __future__ import annotations

import sqlite3

import pytest

import dominion
from dominion_service.storage import (SQLITE_MIGRATIONS, AnswerConflict, SeatRecord,
                                      SqliteStorage, StorageError, StoredGame, answer_from_json,
                                      answer_to_json, config_to_json, default_db_path)


def test_answers_round_trip_through_stable_json():
    for answer in (dominion.Move("buy", "Gold"), dominion.Move("end_phase"), ("Copper", "Estate"),
                   (), ("yes",)):
        assert answer_from_json(answer_to_json(answer)) == answer
    assert answer_to_json(dominion.Move("buy", "Gold")) == '{"move":["buy","Gold"]}'
    assert answer_to_json(("Copper", "Estate")) == '{"items":["Copper","Estate"]}'


def test_stored_game_loads_with_its_answers(open_db, kingdom):
    config = dominion.Config(("A", "B"), kingdom, 2**63 - 1, 1)
    seats = (SeatRecord("", "ab" * 32), SeatRecord("big-money", ""))
    store = open_db()
    store.create_game(StoredGame("g1", config, seats, 1.5))
    store.append_answer("g1", 0, 1, dominion.Move("play_treasures"))
    store.append_answer("g1", 1, 1, dominion.Move("buy", "Silver"))
    store.close()
    (loaded,) = open_db().load_games()
    assert loaded == StoredGame("g1", config, seats, 1.5,
                                ((1, dominion.Move("play_treasures")),
                                 (1, dominion.Move("buy", "Silver"))))


def test_default_database_is_in_the_users_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "dominion" / "games.db"


def test_answers_of_many_games_stored_together_keep_each_games_count_end_and_turn(open_db,
                                                                                  kingdom):
    """append_answers writes a group of rows together; each game's answer count, end and turn
    are those of its own row, as with append_answer one row at a time."""
    store = open_db()
    config = dominion.Config(("A", "B"), kingdom, 1, 0)
    for game_id in ("a", "b", "c"):
        store.create_game(StoredGame(game_id, config, (SeatRecord("", ""),) * 2, float(ord(
            game_id))))
    move = dominion.Move("end_phase")
    assert store.append_answers([("a", 0, 0, move), ("b", 0, 1, move, False, 1)]) == [None] * 2
    assert store.append_answers([("a", 1, 1, move, True, 7), ("b", 1, 0, move, False, 2),
                                 ("c", 0, 0, ("Copper",), False, 1)]) == [None] * 3
    playing = {g.game_id: g for g in store.load_games()}
    assert sorted(playing) == ["b", "c"]
    assert playing["b"].answers == ((1, move), (0, move))
    assert playing["c"].answers == ((0, ("Copper",)),)
    (over,) = store.finished_games()
    assert (over.game_id, over.answer_count, over.turn) == ("a", 2, 7)
    assert store.load_game("a").answers == ((0, move), (1, move))
    assert store.load_game("nope") is None


def test_only_the_next_answer_of_a_game_is_stored(open_db, kingdom):
    """The database decides: answer N is stored only while the game has N answers. A second
    answer to one decision, a gap, and a game that is not there are refused and change
    nothing; in a group, only the rows refused are left out."""
    store = open_db()
    config = dominion.Config(("A", "B"), kingdom, 1, 0)
    store.create_game(StoredGame("g", config, (SeatRecord("", ""),) * 2, 0.0))
    move, buy = dominion.Move("end_phase"), dominion.Move("buy", "Copper")
    store.append_answer("g", 0, 0, move)
    for number, words in ((0, "stored first"), (2, "next is number 1")):
        with pytest.raises(AnswerConflict, match=words):
            store.append_answer("g", number, 0, buy)
    with pytest.raises(AnswerConflict, match="no such game"):
        store.append_answer("other", 0, 0, move)
    errors = store.append_answers([("g", 0, 1, buy), ("g", 1, 1, move), ("g", 3, 1, move),
                                   ("g", 2, 0, move, False, 2)])
    assert [type(e).__name__ if e else None for e in errors] == \
        ["AnswerConflict", None, "AnswerConflict", None]
    assert store.load_game("g").answers == ((0, move), (1, move), (0, move))


def test_a_copy_of_every_game_is_identical_and_copying_again_changes_nothing(open_db, kingdom,
                                                                              tmp_path):
    """restore_games stores games exactly as dumped (even one that cannot be read), and refuses
    a different game under an id that is there, storing nothing of the lot."""
    source = SqliteStorage(tmp_path / "source.db")
    config = dominion.Config(("A", "B"), kingdom, 5, 0)
    source.create_game(StoredGame("done", config, (SeatRecord("", "x"),) * 2, 1.0))
    source.append_answer("done", 0, 0, dominion.Move("end_phase"), True, 3)
    source.create_game(StoredGame("playing", config, (SeatRecord("big-money", ""),) * 2, 2.0))
    source._conn.execute("UPDATE games SET config = '{not json' WHERE game_id = 'playing'")
    dumped = list(source.dump_games())
    target = open_db()
    assert target.restore_games(dumped) == (2, 0)
    assert list(target.dump_games()) == dumped
    assert target.restore_games(dumped) == (0, 2)
    changed = dumped[0]._replace(turn=4)
    fresh = dumped[1]._replace(game_id="fresh")
    with pytest.raises(StorageError, match="game done is there already with other contents"):
        target.restore_games([fresh, changed])
    assert list(target.dump_games()) == dumped


# --- schema versions --------------------------------------------------------------------------

OLDEST_SQLITE_SCHEMA = """
CREATE TABLE games (game_id TEXT PRIMARY KEY, config TEXT NOT NULL, seats TEXT NOT NULL,
                    created REAL NOT NULL);
CREATE TABLE answers (game_id TEXT NOT NULL REFERENCES games(game_id),
                      number INTEGER NOT NULL, seat INTEGER NOT NULL, answer TEXT NOT NULL,
                      PRIMARY KEY (game_id, number));
"""


def test_a_file_from_before_schema_versions_is_upgraded_in_place(tmp_path, kingdom):
    """A file of the first format (no answer count, end or turn; no schema_version table)
    opens at the latest version with its game whole (no creator, not abandoned), and its next
    answer is stored."""
    path = tmp_path / "old.db"
    config = dominion.Config(("A", "B"), kingdom, 9, 0)
    with sqlite3.connect(path) as conn:
        conn.executescript(OLDEST_SQLITE_SCHEMA)
        conn.execute("INSERT INTO games VALUES ('old', ?, '[[\"\",\"d\"],[\"big-money\",\"\"]]',"
                     " 3.0)", (config_to_json(config),))
        conn.execute("INSERT INTO answers VALUES ('old', 0, 0, ?)",
                     (answer_to_json(dominion.Move("end_phase")),))
    conn.close()
    store = SqliteStorage(path)
    assert store.schema_version() == SQLITE_MIGRATIONS[-1].version
    (game,) = store.load_games()
    assert game.answers == ((0, dominion.Move("end_phase")),)
    assert (game.creator, game.abandoned) == ("", False)
    store.append_answer("old", 1, 1, dominion.Move("end_phase"))
    store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version, summary FROM schema_version").fetchall() == \
            [(m.version, m.summary) for m in SQLITE_MIGRATIONS]
        assert conn.execute("SELECT answer_count FROM games").fetchone() == (2,)
    conn.close()


def test_a_database_of_a_newer_schema_is_refused_and_left_as_it_is(open_db):
    open_db().close()
    if open_db.backend == "sqlite":
        with sqlite3.connect(open_db.db) as conn:
            conn.execute("INSERT INTO schema_version VALUES (99, 'from the future', 0)")
        conn.close()
        latest = SQLITE_MIGRATIONS[-1].version
    else:
        import psycopg
        from dominion_service.storage_pg import PG_MIGRATIONS
        with psycopg.connect(open_db.db, autocommit=True) as conn:
            conn.execute("INSERT INTO schema_version VALUES (99, 'from the future', 0)")
        latest = PG_MIGRATIONS[-1].version
    with pytest.raises(StorageError,
                       match=f"schema is version 99, newer than this program's {latest}"):
        open_db()


def test_a_version_1_file_gets_creators_and_abandoned_games_in_place(tmp_path, kingdom):
    """Schema step 2 (each game's creator, games ended as abandoned) upgrades a file written at
    version 1: its games keep their answers, count for no client, and are not abandoned."""
    from dominion_service.storage import SCHEMA_VERSION_TABLE, _SQLITE_V1
    path = tmp_path / "v1.db"
    config = dominion.Config(("A", "B"), kingdom, 9, 0)
    with sqlite3.connect(path) as conn:
        for statement in _SQLITE_V1:
            conn.execute(statement)
        conn.execute(SCHEMA_VERSION_TABLE)
        conn.execute("INSERT INTO schema_version VALUES (1, 'games and their answers', 0)")
        conn.execute("INSERT INTO games (game_id, config, seats, created, answer_count) VALUES "
                     "('g', ?, '[[\"\",\"d\"],[\"\",\"e\"]]', 3.0, 0)", (config_to_json(config),))
    conn.close()
    store = SqliteStorage(path)
    assert store.schema_version() == 2
    (game,) = store.load_games()
    assert (game.game_id, game.creator, game.abandoned) == ("g", "", False)
    store.abandon_game("g")
    assert list(store.load_games()) == []
    (finished,) = store.finished_games()
    assert finished.abandoned
    store.close()
