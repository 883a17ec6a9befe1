"""Damaged storage, games over kept out of memory, restarts that do not grow with history, and
the limits a public server sets."""
from __future__ import annotations

import sqlite3

import grpc
import pytest

import dominion
from dominion_client.botrunner import play_seat_with
from dominion_client.client import connect
from dominion_service.local import LocalServer
from dominion_service import ServiceOptions, SqliteStorage


def make_games(db, kingdom, unfinished=4, finished=1):
    """Games in ``db``: ``unfinished`` waiting for seat 0 after a few answers, ``finished``
    played to the end. Returns (unfinished ids, finished ids)."""
    open_ids, done_ids = [], []
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        for i in range(unfinished):
            game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom,
                                      seed=100 + i)
            seat = client.seat(game.game_id, game.tokens[0])
            for k, pending in enumerate(seat.decisions()):
                if k == 3:
                    break
                seat.answer(pending, pending.decision.moves[-1])
            open_ids.append(game.game_id)
        for i in range(finished):
            game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom,
                                      seed=200 + i)
            play_seat_with(client.seat(game.game_id, game.tokens[0]), "big-money")
            done_ids.append(game.game_id)
    return open_ids, done_ids


def refused(code, fn):
    with pytest.raises(grpc.RpcError) as info:
        fn()
    assert info.value.code() == code, info.value.details()
    return info.value.details()


def test_malformed_rows_are_reported_and_every_other_game_is_served(tmp_path, kingdom):
    db = tmp_path / "games.db"
    (good, bad_json, short_seats, lost_bot), _ = make_games(db, kingdom)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET config = '{not json' WHERE game_id = ?", (bad_json,))
        conn.execute("UPDATE games SET seats = '[[\"\", \"x\"]]' WHERE game_id = ?",
                     (short_seats,))
        conn.execute("UPDATE games SET seats = '[[\"\", \"x\"], [\"retired-bot\", \"\"]]' "
                     "WHERE game_id = ?", (lost_bot,))
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        assert set(server.service.broken) == {bad_json, short_seats, lost_bot}
        assert client.spectate(good).view().waiting_for == 0
        for game_id, words in ((bad_json, "cannot be read"), (short_seats, "1 seats stored"),
                               (lost_bot, "retired-bot")):
            details = refused(grpc.StatusCode.DATA_LOSS, client.spectate(game_id).view)
            assert words in details, details
    with sqlite3.connect(db) as conn:    # kept for inspection
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 5


def test_a_record_shorter_than_what_was_acknowledged_is_reported(tmp_path, kingdom):
    db = tmp_path / "games.db"
    (cut, whole, *_), _ = make_games(db, kingdom, unfinished=2, finished=0)
    with sqlite3.connect(db) as conn:
        last = conn.execute("SELECT MAX(number) FROM answers WHERE game_id = ?",
                            (cut,)).fetchone()[0]
        conn.execute("DELETE FROM answers WHERE game_id = ? AND number = ?", (cut, last))
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        assert "answers are missing" in server.service.broken[cut]
        assert whole not in server.service.broken
        refused(grpc.StatusCode.DATA_LOSS, client.spectate(cut).view)


def test_a_dropped_answers_table_rewinds_nothing(tmp_path, kingdom):
    db = tmp_path / "games.db"
    opened, done = make_games(db, kingdom, unfinished=2, finished=1)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE answers")
    with LocalServer(SqliteStorage(db)) as server:
        assert set(opened) <= set(server.service.broken)
        assert not server.service.games


def test_games_over_are_not_replayed_at_a_restart_but_read_when_asked(tmp_path, kingdom,
                                                                      monkeypatch):
    db = tmp_path / "games.db"
    opened, done = make_games(db, kingdom, unfinished=1, finished=3)
    replays = []
    real_replay = dominion.replay
    monkeypatch.setattr(dominion, "replay", lambda rec: replays.append(1) or real_replay(rec))
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        assert len(replays) == 1                       # only the game in progress
        assert set(server.service.finished) == set(done)
        assert set(server.service.games) == set(opened)
        listed = [g.game_id for g in client.list_games(include_finished=True)]
        assert set(listed) == set(opened) | set(done)
        record = client.record(done[0])                # read on demand
        assert dominion.is_over(real_replay(record)) and len(replays) == 2
        assert client.spectate(done[0]).view().game_over


def test_a_game_that_ends_leaves_memory_but_stays_readable(tmp_path, kingdom):
    with LocalServer(SqliteStorage(tmp_path / "g.db")) as server, \
            connect(server.target) as client:
        game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom)
        play_seat_with(client.seat(game.game_id, game.tokens[0]), "big-money")
        assert game.game_id not in server.service.games
        assert game.game_id in server.service.finished
        assert client.record(game.game_id).answers


@pytest.mark.parametrize("limit,words", [
    (dict(max_games_per_client=2), "you have 2 games in progress"),
    (dict(max_games=2), "maximum of 2 games"),
    (dict(max_creates_per_minute=2), "2 games a minute"),
])
def test_a_server_bounds_the_games_anyone_can_make(kingdom, limit, words):
    options = ServiceOptions(**limit)
    with LocalServer(SqliteStorage(":memory:"), options=options) as server, \
            connect(server.target) as client:
        for _ in range(2):
            client.create_game(["A", "B"], bots={1: "big-money"}, kingdom=kingdom)
        details = refused(grpc.StatusCode.RESOURCE_EXHAUSTED,
                          lambda: client.create_game(["A", "B"], bots={1: "big-money"},
                                                     kingdom=kingdom))
        assert words in details
