"""Every refusal has its status code, a message, and changes nothing; tokens decide who sees
what: a spectator and a wrong token never see a hand."""
from __future__ import annotations

import grpc

import dominion
import dominion.bots
import pytest

from dominion_client.botrunner import play_seat_with
from dominion_client.client import TOKEN_METADATA
from dominion_proto import dominion_pb2 as pb

NOBODY = "not-a-token"


@pytest.fixture
def duel(client, kingdom):
    """A game of two network seats, seat 0 to begin: (client, game id, tokens)."""
    game = client.create_game(["Ann", "Bob"], kingdom=kingdom, seed=41, first_player=0)
    return client, game.game_id, game.tokens


def refused(code, call, *args, **kw):
    with pytest.raises(grpc.RpcError) as info:
        call(*args, **kw)
    assert info.value.code() == code, info.value.details()
    assert info.value.details()
    return info.value.details()


def snapshot(client, game_id, tokens):
    """Everything each seat may see, with the whole log."""
    return [client.seat(game_id, t).view_message(log_from=0) for t in tokens.values()]


def submit(client, game_id, answer, token):
    metadata = ((TOKEN_METADATA, token),) if token else ()
    return client.stub.SubmitAnswer(pb.SubmitAnswerRequest(game_id=game_id, answer=answer),
                                    metadata=metadata)


def pending_decision(client, game_id, token) -> pb.Decision:
    return client.seat(game_id, token).view_message().decision


def end_phase(sequence) -> pb.Answer:
    return pb.Answer(sequence=sequence, move=pb.Move(verb=pb.VERB_END_PHASE))


def test_unknown_game_is_not_found(client):
    refused(grpc.StatusCode.NOT_FOUND, client.stub.GetView, pb.GetViewRequest(game_id="nope"))
    refused(grpc.StatusCode.NOT_FOUND, submit, client, "nope", end_phase(0), NOBODY)
    refused(grpc.StatusCode.NOT_FOUND, client.stub.GetRecord, pb.GetRecordRequest(game_id="nope"))
    refused(grpc.StatusCode.NOT_FOUND,
            lambda: list(client.stub.StreamEvents(pb.StreamEventsRequest(game_id="nope"))))


def test_answer_without_token_is_unauthenticated_and_changes_nothing(duel):
    client, game_id, tokens = duel
    before = snapshot(client, game_id, tokens)
    refused(grpc.StatusCode.UNAUTHENTICATED, submit, client, game_id, end_phase(0), None)
    assert snapshot(client, game_id, tokens) == before


def test_wrong_token_is_permission_denied_and_sees_nothing(duel):
    client, game_id, tokens = duel
    before = snapshot(client, game_id, tokens)
    refused(grpc.StatusCode.PERMISSION_DENIED, submit, client, game_id, end_phase(0), NOBODY)
    refused(grpc.StatusCode.PERMISSION_DENIED, client.seat(game_id, NOBODY).view)
    refused(grpc.StatusCode.PERMISSION_DENIED, lambda: list(client.seat(game_id, NOBODY).updates()))
    assert snapshot(client, game_id, tokens) == before


def test_token_of_another_game_is_permission_denied(duel, kingdom):
    client, game_id, tokens = duel
    other = client.create_game(2, kingdom=kingdom, seed=5)
    refused(grpc.StatusCode.PERMISSION_DENIED, submit, client, game_id, end_phase(0),
            other.tokens[0])


def test_answer_out_of_turn_is_failed_precondition_and_changes_nothing(duel):
    """Bob's token never acts for Ann, even with the right sequence number."""
    client, game_id, tokens = duel
    before = snapshot(client, game_id, tokens)
    sequence = pending_decision(client, game_id, tokens[0]).sequence
    refused(grpc.StatusCode.FAILED_PRECONDITION, submit, client, game_id, end_phase(sequence),
            tokens[1])
    assert snapshot(client, game_id, tokens) == before


def test_stale_sequence_is_aborted_so_a_retry_is_not_applied_twice(duel):
    client, game_id, tokens = duel
    decision = pending_decision(client, game_id, tokens[0])
    answer = pb.Answer(sequence=decision.sequence, move=decision.turn.moves[0])
    submit(client, game_id, answer, tokens[0])
    after_first = snapshot(client, game_id, tokens)
    message = refused(grpc.StatusCode.ABORTED, submit, client, game_id, answer, tokens[0])
    assert "already answered" in message
    refused(grpc.StatusCode.ABORTED, submit, client, game_id, end_phase(decision.sequence + 5),
            tokens[0])
    assert snapshot(client, game_id, tokens) == after_first


@pytest.mark.parametrize("answer", [
    pb.Answer(sequence=0, move=pb.Move(verb=pb.VERB_BUY, card="Province")),   # $0: illegal
    pb.Answer(sequence=0, move=pb.Move(verb=pb.VERB_PLAY, card="No Such Card")),
    pb.Answer(sequence=0, move=pb.Move()),                                      # no verb
    pb.Answer(sequence=0, cards=pb.CardList(cards=["Copper"])),                 # wrong kind
    pb.Answer(sequence=0),                                                      # no value
    pb.Answer(move=pb.Move(verb=pb.VERB_END_PHASE)),                            # no sequence
], ids=["illegal-buy", "unknown-card", "no-verb", "wrong-kind", "no-value", "no-sequence"])
def test_illegal_or_malformed_answer_is_invalid_argument_and_changes_nothing(duel, answer):
    client, game_id, tokens = duel
    assert pending_decision(client, game_id, tokens[0]).sequence == 0
    before = snapshot(client, game_id, tokens)
    refused(grpc.StatusCode.INVALID_ARGUMENT, submit, client, game_id, answer, tokens[0])
    assert snapshot(client, game_id, tokens) == before


def test_answer_after_the_game_ended_is_failed_precondition(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=43)
    seat = client.seat(game.game_id, game.tokens[0])
    play_seat_with(seat, "big-money")
    final = seat.view_message().sequence
    refused(grpc.StatusCode.FAILED_PRECONDITION, submit, client, game.game_id,
            end_phase(final), game.tokens[0])


def test_seed_and_record_stay_secret_until_the_game_ends(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=44)
    refused(grpc.StatusCode.FAILED_PRECONDITION, client.record, game.game_id)
    play_seat_with(client.seat(game.game_id, game.tokens[0]), "big-money")
    assert client.record(game.game_id).config.seed == 44


@pytest.mark.parametrize("seats,kingdom", [
    ([pb.SeatSpec(name="Solo")], None),
    ([pb.SeatSpec(), pb.SeatSpec(bot="no-such-bot")], None),
    ([pb.SeatSpec(), pb.SeatSpec()], ["Village"] * 10),
    ([pb.SeatSpec(), pb.SeatSpec()], ["Not A Card"]),
], ids=["one-player", "unknown-bot", "repeated-card", "unknown-card"])
def test_bad_game_request_is_invalid_argument(client, seats, kingdom):
    request = pb.CreateGameRequest(seats=seats)
    if kingdom:
        request.cards.cards.extend(kingdom)
    refused(grpc.StatusCode.INVALID_ARGUMENT, client.stub.CreateGame, request)
    assert client.list_games(include_finished=True) == []


def test_unknown_preset_is_invalid_argument(client):
    request = pb.CreateGameRequest(seats=[pb.SeatSpec(), pb.SeatSpec()], preset="No Such Set")
    refused(grpc.StatusCode.INVALID_ARGUMENT, client.stub.CreateGame, request)


def test_spectator_never_sees_a_hand(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=45)
    spectator = client.spectate(game.game_id)
    view = spectator.view_message(log_from=0)
    assert not view.HasField("viewer") and not view.HasField("decision")
    assert all(not p.hand_visible and not p.hand and not p.looking for p in view.players)
    play_seat_with(client.seat(game.game_id, game.tokens[0]), "random", seed=4)
    updates = list(spectator.updates(from_event=0))
    assert not any(u.HasField("decision") for u in updates)
    draws = [e for u in updates for e in u.events if e.kind == "draw"]
    assert draws and all(not e.cards and e.hidden_count for e in draws)


def test_seat_sees_its_own_hand_and_only_sizes_of_others(duel):
    client, game_id, tokens = duel
    view = client.seat(game_id, tokens[0]).view_message(log_from=0)
    ann, bob = view.players
    assert view.viewer == 0 and ann.hand_visible and len(ann.hand) == ann.hand_size == 5
    assert not bob.hand_visible and not bob.hand and bob.hand_size == 5
    bob_draws = [e for e in view.log if e.kind == "draw" and e.player == 1]
    assert bob_draws and all(not e.cards and e.hidden_count == 5 for e in bob_draws)
    ann_draws = [e for e in view.log if e.kind == "draw" and e.player == 0]
    assert sorted(c for e in ann_draws for c in e.cards) == sorted(ann.hand)


def test_retrying_the_answer_that_ended_the_game_is_aborted(client, kingdom):
    """The answer was applied (and ended the game); its retry is stale, like any other retry."""
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=3)
    seat = client.seat(game.game_id, game.tokens[0])
    last = None
    for pending in seat.decisions():
        last = pending
        seat.answer(pending, dominion.bots.make_bot("big-money", 1).answer(pending.decision,
                                                                            pending.view))
    assert last is not None
    # The last answer the seat gave may or may not have been the one that ended the game (a
    # bot's turn may have ended it): resend it; either way it is stale now.
    resent = pb.Answer(sequence=last.sequence, move=pb.Move(verb=pb.VERB_END_PHASE))
    refused(grpc.StatusCode.ABORTED, submit, client, game.game_id, resent, game.tokens[0])
    ahead = pb.Answer(sequence=10**6, move=pb.Move(verb=pb.VERB_END_PHASE))
    refused(grpc.StatusCode.FAILED_PRECONDITION, submit, client, game.game_id, ahead,
            game.tokens[0])


@pytest.mark.parametrize("request_fn", [
    lambda: pb.CreateGameRequest(seats=[pb.SeatSpec(name="x" * 2_000_000), pb.SeatSpec()]),
    lambda: pb.CreateGameRequest(seats=[pb.SeatSpec(bot="b" * 100), pb.SeatSpec()]),
    lambda: pb.CreateGameRequest(seats=[pb.SeatSpec()] * 40),
    lambda: pb.CreateGameRequest(seats=[pb.SeatSpec()] * 2, preset="P" * 70_000),
    lambda: pb.CreateGameRequest(seats=[pb.SeatSpec()] * 2,
                                 cards=pb.KingdomCards(cards=["C" * 65_536] * 10)),
], ids=["2MiB-name", "long-bot", "40-seats", "64KiB-preset", "64KiB-cards"])
def test_oversized_strings_and_lists_are_refused_with_a_short_message(client, request_fn):
    details = refused(grpc.StatusCode.INVALID_ARGUMENT, client.stub.CreateGame, request_fn())
    assert len(details) < 300
    assert all(g.players for g in client.list_games(include_finished=True))


def test_a_long_unknown_game_id_is_quoted_only_so_far(client):
    details = refused(grpc.StatusCode.INVALID_ARGUMENT, client.stub.GetView,
                      pb.GetViewRequest(game_id="g" * 65_536))
    assert len(details) < 300
    details = refused(grpc.StatusCode.NOT_FOUND, client.stub.GetView,
                      pb.GetViewRequest(game_id="g" * 64))
    assert len(details) < 300


def test_a_long_bad_card_name_is_quoted_only_so_far(duel):
    client, game_id, tokens = duel
    seq = pending_decision(client, game_id, tokens[0]).sequence
    answer = pb.Answer(sequence=seq, move=pb.Move(verb=pb.VERB_BUY, card="X" * 65_536))
    details = refused(grpc.StatusCode.INVALID_ARGUMENT, submit, client, game_id, answer,
                      tokens[0])
    assert len(details) < 2_000


def test_a_chosen_seed_is_refused_unless_the_server_allows_it(kingdom):
    from dominion_client.client import connect
    from dominion_service.local import LocalServer
    from dominion_service import ServiceOptions, SqliteStorage
    with LocalServer(SqliteStorage(":memory:"), options=ServiceOptions()) as server, \
            connect(server.target) as client:
        with pytest.raises(grpc.RpcError) as info:
            client.create_game(2, kingdom=kingdom, seed=5)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "--allow-seed" in info.value.details()
        assert client.create_game(2, kingdom=kingdom).game_id   # a secret seed is fine


@pytest.mark.parametrize("method", ["GetView", "CreateGame", "SubmitAnswer", "StreamEvents"])
def test_undecodable_request_bytes_are_invalid_argument_with_a_message(server, method):
    with grpc.insecure_channel(server.target) as channel:
        if method == "StreamEvents":
            call = channel.unary_stream(f"/dominion.v1.DominionService/{method}")
            run = lambda: list(call(b"\xff\xff\xff\xff"))  # noqa: E731
        else:
            call = channel.unary_unary(f"/dominion.v1.DominionService/{method}")
            run = lambda: call(b"\xff\xff\xff\xff")  # noqa: E731
        details = refused(grpc.StatusCode.INVALID_ARGUMENT, run)
        assert "not a valid dominion.v1." in details and "<class" not in details
