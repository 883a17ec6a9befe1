"""Games stored as records: answers as stable JSON that converts back exactly."""
from __future__ import annotations

import dominion
from dominion_service.storage import (SeatRecord, SqliteStorage, StoredGame, answer_from_json,
                                      answer_to_json, default_db_path)


def test_answers_round_trip_through_stable_json():
    for answer in (dominion.Move("buy", "Gold"), dominion.Move("end_phase"), ("Copper", "Estate"),
                   (), ("yes",)):
        assert answer_from_json(answer_to_json(answer)) == answer
    assert answer_to_json(dominion.Move("buy", "Gold")) == '{"move":["buy","Gold"]}'
    assert answer_to_json(("Copper", "Estate")) == '{"items":["Copper","Estate"]}'


def test_stored_game_loads_with_its_answers(tmp_path, kingdom):
    path = tmp_path / "g.db"
    config = dominion.Config(("A", "B"), kingdom, 2**63 - 1, 1)
    seats = (SeatRecord("", "ab" * 32), SeatRecord("big-money", ""))
    store = SqliteStorage(path)
    store.create_game(StoredGame("g1", config, seats, 1.5))
    store.append_answer("g1", 0, 1, dominion.Move("play_treasures"))
    store.append_answer("g1", 1, 1, dominion.Move("buy", "Silver"))
    store.close()
    (loaded,) = SqliteStorage(path).load_games()
    assert loaded == StoredGame("g1", config, seats, 1.5,
                                ((1, dominion.Move("play_treasures")),
                                 (1, dominion.Move("buy", "Silver"))))


def test_default_database_is_in_the_users_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "dominion" / "games.db"


def test_answers_of_many_games_stored_together_keep_each_games_count_end_and_turn(kingdom):
    """append_answers writes a group of rows with two statements; each game's answer count,
    end and turn are those of its own row, as with append_answer one row at a time."""
    store = SqliteStorage(":memory:")
    config = dominion.Config(("A", "B"), kingdom, 1, 0)
    for game_id in ("a", "b", "c"):
        store.create_game(StoredGame(game_id, config, (SeatRecord("", ""),) * 2, 0.0))
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
