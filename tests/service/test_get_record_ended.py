"""GetRecord says how a game ended, and the record of an abandoned game, downloaded as the web
page saves it, replays in `dominion replay` as a game that did not end, with no winner."""
from __future__ import annotations

import time

from google.protobuf import json_format

from dominion_client.cli import main
from dominion_client.client import connect
from dominion_proto import dominion_pb2 as pb
from dominion_service import SqliteStorage
from dominion_service.local import LocalServer
from tests.service.test_public_server import END_THE_PHASE, _seat_to_answer, options


def test_an_abandoned_games_record_says_so_and_replays_without_a_winner(tmp_path, kingdom,
                                                                        capsys):
    with LocalServer(SqliteStorage(tmp_path / "games.db"),
                     options=options(abandon_after=0.4)) as server, \
            connect(server.target) as client:
        game = client.create_game(["Me", "Bot"], kingdom=list(kingdom), seed=3)
        seat = _seat_to_answer(client, game)
        seat.answer(seat.view_message().decision, END_THE_PHASE)
        deadline = time.monotonic() + 5
        while game.game_id in server.service.games and time.monotonic() < deadline:
            time.sleep(0.05)
        record = client.stub.GetRecord(pb.GetRecordRequest(game_id=game.game_id))
    assert (record.ended, record.answer_count, len(record.answers)) == ("abandoned", 1, 1)
    assert not record.scores and not record.winners
    download = tmp_path / "dominion-game.json"
    download.write_text(json_format.MessageToJson(record, indent=2))
    assert main(["replay", str(download)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("The game did not end (abandoned, after 1 answers); scores so far: "
                           "Me 3, Bot 3")
    cut = json_format.MessageToDict(record)
    cut["answerCount"] = 4   # a copy that lost answers
    download.write_text(json_format.MessageToJson(json_format.ParseDict(
        cut, type(record)())))
    assert main(["replay", str(download)]) == 2
    assert "holds 1 answers of the 4" in capsys.readouterr().err


def test_a_finished_games_record_says_it_is_over(client, kingdom):
    game = client.create_game(["Ann", "Bob"], bots={0: "big-money", 1: "big-money"},
                              kingdom=kingdom, seed=13)
    assert client.spectate(game.game_id).view().game_over
    record = client.stub.GetRecord(pb.GetRecordRequest(game_id=game.game_id))
    assert record.ended == "over" and record.answer_count == len(record.answers) > 0
    assert list(record.winners)
