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
