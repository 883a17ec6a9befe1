"""Resigning through the real server (Answer.resign): out of turn, recorded, replayed, stored
across a restart on both databases; a spectator, a wrong token and a finished game are refused
and change nothing."""
from __future__ import annotations

import grpc
import pytest

import dominion
from dominion_client.client import connect
from dominion_proto import dominion_pb2 as pb
from dominion_service import open_storage
from dominion_service.local import LocalServer


def resign_answer(sequence: int) -> pb.Answer:
    return pb.Answer(sequence=sequence, resign=pb.Resign())


def test_a_person_resigns_out_of_turn_and_the_other_person_wins(client, kingdom):
    game = client.create_game(["Ann", "Bob"], kingdom=kingdom, seed=3, first_player=0)
    bob = client.seat(game.game_id, game.tokens[1])
    before = bob.view_message()
    assert before.waiting_for == 0            # Ann's turn: Bob resigns out of turn
    done = bob.resign()
    assert done.game_over and done.sequence == before.sequence + 1
    view = client.spectate(game.game_id).view_message(log_from=0)
    assert view.game_over and list(view.winners) == [0]
    assert [e.text for e in view.log[-2:]] == ["Bob resigns.", "The game is over."]
    record = client.stub.GetRecord(pb.GetRecordRequest(game_id=game.game_id))
    assert record.ended == "resigned" and list(record.winners) == [0]
    last = record.answers[-1]
    assert last.seat == 1 and last.answer.WhichOneof("value") == "resign"
    replayed = dominion.replay(client.record(game.game_id))
    assert dominion.resigned(replayed) == 1 and dominion.winners(replayed) == (0,)
    # the replay viewer reads the record as given, resignation included
    shown = client.stub.GetReplay(pb.GetReplayRequest(record=record, step=10**6, log_from=0))
    assert shown.view.game_over and shown.view.log[-2].text == "Bob resigns."


def test_dominion_replay_reads_a_resigned_games_download_and_says_who_resigned(
        client, kingdom, tmp_path, capsys):
    from google.protobuf import json_format

    from dominion_client.cli import main
    game = client.create_game(["Ann", "Bob"], kingdom=kingdom, seed=6)
    client.seat(game.game_id, game.tokens[0]).resign()
    record = client.stub.GetRecord(pb.GetRecordRequest(game_id=game.game_id))
    download = tmp_path / "dominion-game.json"
    download.write_text(json_format.MessageToJson(record, indent=2))   # as the page saves it
    assert main(["replay", str(download)]) == 0
    assert "Ann resigns." in capsys.readouterr().out


def test_with_three_seats_the_resigning_person_is_among_no_winners(client, kingdom):
    game = client.create_game(["Ann", "BM1", "BM2"], bots={1: "big-money", 2: "big-money"},
                              kingdom=kingdom, seed=8, first_player=1)
    ann = client.seat(game.game_id, game.tokens[0])
    ann.resign()
    view = ann.view()
    assert view.game_over and view.winners and 0 not in view.winners


def test_a_spectator_a_wrong_token_and_a_finished_game_cannot_resign(client, kingdom):
    game = client.create_game(["Ann", "Bob"], kingdom=kingdom, seed=4)
    sequence = client.spectate(game.game_id).view_message().sequence
    request = pb.SubmitAnswerRequest(game_id=game.game_id, answer=resign_answer(sequence))
    with pytest.raises(grpc.RpcError) as e:
        client.stub.SubmitAnswer(request)
    assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(grpc.RpcError) as e:
        client.stub.SubmitAnswer(request, metadata=(("x-seat-token", "not-a-token"),))
    assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert not client.spectate(game.game_id).view().game_over    # nothing changed
    client.seat(game.game_id, game.tokens[0]).resign()
    with pytest.raises(grpc.RpcError) as e:
        client.seat(game.game_id, game.tokens[1]).resign()
    assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert dominion.resigned(dominion.replay(client.record(game.game_id))) == 0


def test_a_resignation_is_stored_and_still_says_who_resigned_after_a_restart(open_db, kingdom):
    with LocalServer(open_storage(open_db.db)) as server, connect(server.target) as client:
        game = client.create_game(["Ann", "BM"], bots={1: "big-money"}, kingdom=kingdom,
                                  seed=9)
        client.seat(game.game_id, game.tokens[0]).resign()
    with LocalServer(open_storage(open_db.db)) as server, connect(server.target) as client:
        record = client.stub.GetRecord(pb.GetRecordRequest(game_id=game.game_id))
        assert record.ended == "resigned" and list(record.winners) == [1]
        assert record.answers[-1].seat == 0
        finished = client.list_games(include_finished=True)
        assert [g.game_over for g in finished if g.game_id == game.game_id] == [True]


def test_a_resignation_and_an_empty_selection_are_stored_apart():
    """Stored answers' JSON is kept by the answer: an empty selection must not lend its text to
    a resignation, nor the other way round."""
    from dominion_service.storage import answer_from_json, answer_to_json
    assert answer_to_json(()) == '{"items":[]}'
    assert answer_from_json(answer_to_json(dominion.RESIGN)) == dominion.RESIGN
    assert answer_from_json(answer_to_json(())) == ()
