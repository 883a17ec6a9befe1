"""GetReplay on the real server: a finished game step by step as each seat saw it, from its id
or from a record the caller gives, and hostile records refused with nothing kept."""
from __future__ import annotations

import grpc
import pytest

import dominion
from dominion_proto import dominion_pb2 as pb
from tests.service.test_service_errors import refused


@pytest.fixture
def finished(client, kingdom):
    game = client.create_game(["Ann", "Bob"], bots={0: "big-money", 1: "smithy-big-money"},
                              kingdom=kingdom, seed=13)
    assert client.spectate(game.game_id).view().game_over
    return game.game_id, client.stub.GetRecord(pb.GetRecordRequest(game_id=game.game_id))


def replay(client, **fields):
    return client.stub.GetReplay(pb.GetReplayRequest(**fields))


def test_each_step_of_a_finished_game_is_the_table_as_the_engine_had_it(client, finished):
    game_id, record = finished
    assert record.engine_version == dominion.ENGINE_VERSION
    rec = dominion.Record(dominion.Config(tuple(record.config.players),
                                          tuple(record.config.kingdom), record.config.seed,
                                          record.config.first_player, False),
                          tuple((a.seat, None) for a in record.answers))
    state = dominion.new_game(rec.config)
    steps = len(record.answers)
    start = replay(client, game_id=game_id, seat=0, step=0, log_from=0)
    assert start.steps == steps and start.step == 0 and start.next.seat == record.answers[0].seat
    assert list(start.view.players[0].hand) == list(dominion.view(state, 0).players[0].hand)
    assert not start.view.players[1].hand and not start.decks
    middle = replay(client, game_id=game_id, seat=1, step=steps // 2, log_from=0)
    assert middle.view.players[1].hand and not middle.view.players[0].hand
    end = replay(client, game_id=game_id, step=steps + 50, log_from=0)   # past the end: the end
    assert end.step == steps and end.view.game_over and not end.HasField("next")
    assert list(end.view.scores) == list(record.scores)
    assert len(end.view.log) > len(middle.view.log) > len(start.view.log)
    for deck, score in zip(end.decks, record.scores):
        assert sum(c.vp for c in deck.cards) == score
        assert sum(c.count for c in deck.cards) >= 10
        assert any(c.card == "Province" or c.card == "Estate" for c in deck.cards)
    tail = replay(client, game_id=game_id, step=steps, log_from=len(end.view.log) - 3)
    assert [e.index for e in tail.view.log] == [e.index for e in end.view.log[-3:]]


def test_a_record_the_caller_gives_replays_as_the_game_did(client, finished):
    game_id, record = finished
    steps = len(record.answers)
    for step in (0, 7, steps // 3, steps):
        by_id = replay(client, game_id=game_id, seat=0, step=step, log_from=0)
        given = replay(client, record=record, seat=0, step=step, log_from=0)
        assert given.view.players == by_id.view.players
        assert [e.text for e in given.view.log] == [e.text for e in by_id.view.log]
        assert given.decks == by_id.decks


def test_hostile_or_foreign_records_are_refused_with_what_is_wrong(client, finished, kingdom):
    game_id, record = finished
    invalid = grpc.StatusCode.INVALID_ARGUMENT
    older = pb.GetRecordResponse()
    older.CopyFrom(record)
    older.engine_version = "0"
    assert "engine version" in refused(invalid, replay, client, record=older)
    bad_answer = pb.GetRecordResponse()
    bad_answer.CopyFrom(record)
    bad_answer.answers[3].answer.move.card = "Province"
    bad_answer.answers[3].answer.move.verb = pb.VERB_BUY
    assert "answer 3" in refused(invalid, replay, client, record=bad_answer)
    bad_config = pb.GetRecordResponse()
    bad_config.CopyFrom(record)
    bad_config.config.kingdom[0] = "No Such Card"
    assert "config" in refused(invalid, replay, client, record=bad_config)
    too_long = pb.GetRecordResponse()
    too_long.CopyFrom(record)
    too_long.answers.append(record.answers[-1])
    assert "ended" in refused(invalid, replay, client, record=too_long)
    assert "seat" in refused(invalid, replay, client, game_id=game_id, seat=2)
    assert "game_id" in refused(invalid, replay, client)
    refused(grpc.StatusCode.NOT_FOUND, replay, client, game_id="nope")
    going = client.create_game(["Ann", "Bob"], bots={1: "big-money"}, kingdom=kingdom, seed=3)
    assert "not over" in refused(grpc.StatusCode.FAILED_PRECONDITION, replay, client,
                                 game_id=going.game_id)


def test_dominion_replay_reads_the_record_the_web_page_downloads(client, finished, tmp_path,
                                                                 capsys):
    """The page saves GetRecordResponse as indented JSON (protobuf's JSON names); `dominion
    replay` shows that game as a records file's line would."""
    from google.protobuf import json_format

    from dominion_client.cli import main
    game_id, record = finished
    download = tmp_path / "dominion-game.json"
    download.write_text(json_format.MessageToJson(record, indent=2))
    assert main(["replay", str(download), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    names = record.config.players
    assert f"Scores: {names[0]} {record.scores[0]}, {names[1]} {record.scores[1]}" in out
    assert "Turn 1 -" in out or "Turn 1" in out
    older = json_format.MessageToDict(record)
    older["engineVersion"] = "0"
    download.write_text(json_format.MessageToJson(json_format.ParseDict(
        older, pb.GetRecordResponse())))
    assert main(["replay", str(download)]) == 2
    assert "engine version" in capsys.readouterr().err


def test_whole_replays_are_rationed_per_client(finished):
    """Replaying a record from its start costs what a game does: a client gets a few a
    minute; steps of a record replayed already are free."""
    import asyncio

    from dominion_service.replay import Replays, ReplayRefused
    _, record = finished
    rec = dominion.Record(dominion.Config(tuple(record.config.players),
                                          tuple(record.config.kingdom), record.config.seed,
                                          record.config.first_player, False), ())
    replays = Replays(capacity=1, per_minute=2)

    async def run():
        await replays.state_at(rec, 0, "ann")
        await replays.state_at(rec, 0, "ann")        # kept: not counted
        other = rec._replace(config=rec.config._replace(seed=rec.config.seed + 1))
        await replays.state_at(other, 0, "ann")
        with pytest.raises(ReplayRefused) as refused_:
            await replays.state_at(rec, 0, "ann")     # pushed out by `other`: a third
        assert refused_.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        await replays.state_at(rec, 0, "bob")        # another client has its own count
    asyncio.run(run())
