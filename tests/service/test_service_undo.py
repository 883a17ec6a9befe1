"""The Undo call: a seat takes back its own last answer when the engine's rule and the game's
setting allow it; refused otherwise, changing nothing; stored like an answer (a restart
resumes after it, on both backends); the record keeps it and replays."""
from __future__ import annotations

import json

import grpc
import pytest

import dominion
from dominion import END_PHASE, PLAY_TREASURES, Move
from dominion_client.botrunner import play_seat_with
from dominion_client.client import connect
from dominion_proto import dominion_pb2 as pb
from dominion_service.local import LocalServer
from dominion_service import SqliteStorage


def refused(code, fn) -> str:
    with pytest.raises(grpc.RpcError) as info:
        fn()
    assert info.value.code() == code, info.value.details()
    return info.value.details()


def answer(seat, move) -> pb.View:
    """Answer seat's pending turn decision with ``move``; the seat's view after it."""
    view = seat.view_message()
    seat.answer(view.decision, move)
    return seat.view_message()


def to_buy_phase(client, kingdom, undo=True):
    """A game (Net against big-money, always_ask: the Buy phase is asked again after the
    last buy) at Net's first Buy phase with Treasures played: (game id, Net's seat)."""
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=3,
                              first_player=0, always_ask=True, undo=undo)
    seat = client.seat(game.game_id, game.tokens[0])
    answer(seat, Move(END_PHASE))   # the Action phase (asked: always_ask)
    answer(seat, Move(PLAY_TREASURES))
    return game.game_id, seat


def pile(view, name):
    return next(p.count for p in view.supply if p.name == name)


def test_undo_takes_back_a_buy_and_the_view_offers_it_only_to_the_seat_that_can(client, kingdom):
    game_id, seat = to_buy_phase(client, kingdom)
    before = seat.view_message()
    assert before.can_undo                       # playing Treasures can be taken back
    bought = answer(seat, Move("buy", "Silver"))
    assert bought.can_undo and pile(bought, "Silver") == pile(before, "Silver") - 1
    assert not client.spectate(game_id).view_message().can_undo
    reply = seat.undo(bought.sequence)
    assert reply.sequence == bought.sequence + 1   # sequences only grow
    after = seat.view_message(log_from=0)
    assert (after.coins, after.buys, pile(after, "Silver")) == \
        (before.coins, before.buys, pile(before, "Silver"))
    assert after.log[-1].kind == "take_back" and after.log[-1].text == "Net takes back a move."
    assert after.decision.turn == before.decision.turn   # the same question, asked again
    assert after.can_undo                                 # the Treasures can go back too
    # Answer.take_back sent as an answer is the same Undo: the Treasures go back to the hand
    client.stub.SubmitAnswer(pb.SubmitAnswerRequest(game_id=game_id, answer=pb.Answer(
        sequence=after.sequence, take_back=pb.TakeBack())), metadata=seat.metadata)
    start = seat.view_message()
    assert start.coins == 0 and pb.Move(verb=pb.VERB_PLAY_TREASURES) in start.decision.turn.moves


def test_undo_is_refused_with_a_clear_error_and_changes_nothing(client, kingdom):
    game_id, seat = to_buy_phase(client, kingdom)
    answer(seat, Move("buy", "Silver"))
    view = seat.view_message(log_from=0)
    refused(grpc.StatusCode.ABORTED, lambda: seat.undo(view.sequence - 1))
    missing = refused(grpc.StatusCode.INVALID_ARGUMENT, lambda: client.stub.Undo(
        pb.UndoRequest(game_id=game_id), metadata=seat.metadata))
    assert "sequence" in missing
    refused(grpc.StatusCode.UNAUTHENTICATED, lambda: client.stub.Undo(
        pb.UndoRequest(game_id=game_id, sequence=view.sequence)))
    answer(seat, Move(END_PHASE))   # the turn ends: its Clean-up draws, the bot plays
    after_turn = seat.view_message()
    why = refused(grpc.StatusCode.FAILED_PRECONDITION, lambda: seat.undo(after_turn.sequence))
    assert "nothing was taken back" in why
    assert seat.view_message() == after_turn and not after_turn.can_undo


def test_a_game_created_with_undo_off_refuses_it(client, kingdom):
    game_id, seat = to_buy_phase(client, kingdom, undo=False)
    view = seat.view_message()
    assert not view.can_undo
    why = refused(grpc.StatusCode.FAILED_PRECONDITION, lambda: seat.undo(view.sequence))
    assert "does not allow taking back" in why
    assert seat.view_message() == view
    seats = [pb.SeatSpec(name="A"), pb.SeatSpec(name="B")]
    for setting, allowed in ((pb.UNDO_SETTING_UNSPECIFIED, True), (pb.UNDO_SETTING_OFF, False)):
        reply = client.stub.CreateGame(pb.CreateGameRequest(seats=seats, undo=setting))
        assert reply.undo_allowed is allowed


def test_an_undo_is_stored_like_an_answer_a_restart_resumes_after_it_and_the_record_replays(
        open_db, kingdom):
    with LocalServer(open_db()) as server, connect(server.target) as client:
        game_id, seat = to_buy_phase(client, kingdom)
        before = seat.view_message()
        bought = answer(seat, Move("buy", "Silver"))
        seat.undo(bought.sequence)
        undone = seat.view_message()
        off_id, off_seat = to_buy_phase(client, kingdom, undo=False)
    with LocalServer(open_db()) as server, connect(server.target) as client:
        seat = client.seat(game_id, seat.token)
        assert seat.view_message() == undone
        assert (undone.coins, pile(undone, "Silver")) == (before.coins, pile(before, "Silver"))
        off = client.seat(off_id, off_seat.token)   # the setting is kept too
        assert "does not allow" in refused(grpc.StatusCode.FAILED_PRECONDITION,
                                           lambda: off.undo(off.view_message().sequence))
        play_seat_with(seat, "big-money")
        record = client.record(game_id)
        taken = [i for i, (_, a) in enumerate(record.answers) if a == dominion.TAKE_BACK]
        assert taken == [bought.sequence]
        final = dominion.replay(record)
        assert dominion.is_over(final) and dominion.record(final) == record
        replay = client.stub.GetReplay(pb.GetReplayRequest(game_id=game_id, step=taken[0]))
        assert replay.next.answer.HasField("take_back")
        data = dominion.record_to_data(record, "over")
        assert dominion.replay(dominion.record_from_data(data)) == final


def test_dominion_replay_reads_a_record_with_take_backs(tmp_path, capsys):
    from dominion_client.cli import main
    state = dominion.new_game(players=["Ann", "Bob"], kingdom="First Game", seed=2,
                              first_player=0)
    state = dominion.step(state, Move(PLAY_TREASURES), 0)
    state = dominion.step(state, dominion.TAKE_BACK, 0)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dominion.record_to_data(dominion.record(state), "cut short")))
    assert main(["replay", str(path), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "Ann plays" in out and "Ann takes back a move." in out
    assert main(["replay", str(path), "--style", "dominion-online"]) == 0
    assert "takes back a move." in capsys.readouterr().out


def test_an_undo_through_one_shared_server_is_seen_on_the_other_and_on_its_streams(pg_url):
    """Servers sharing a PostgreSQL database: answers through server 1, the Undo through
    server 2; server 1 serves the game as it stands after the take-back, and a spectator's
    stream there gets the "takes back a move" line (the log only grows)."""
    from tests.service.test_serve_shared import two_servers, wait_for
    with two_servers(pg_url) as ((_, t1, c1), (_, _, c2)):
        game = c1.create_game(["Net", "Bob"], kingdom="First Game", seed=3, first_player=0,
                              always_ask=True)
        seat1 = c1.seat(game.game_id, game.tokens[0])
        answer(seat1, Move(END_PHASE))
        before = answer(seat1, Move(PLAY_TREASURES))
        bought = answer(seat1, Move("buy", "Silver"))
        seat2 = c2.seat(game.game_id, game.tokens[0])
        assert seat2.view_message().can_undo
        seat2.undo(bought.sequence)
        after = wait_for(lambda: (v := seat1.view_message()).sequence > bought.sequence and v,
                         10, "server 1 to see the take-back")
        assert (after.coins, after.buys, pile(after, "Silver")) == \
            (before.coins, before.buys, pile(before, "Silver"))
        with connect(t1) as watcher:
            stream = watcher.stub.StreamEvents(pb.StreamEventsRequest(game_id=game.game_id),
                                               timeout=10)
            events = []
            for update in stream:
                events.extend(update.events)
                if events and events[-1].kind == "take_back":
                    break
            stream.cancel()
        assert events[-1].text == "Net takes back a move."
        assert events[-2].text == "Net buys and gains a Silver."   # seen, then taken back
