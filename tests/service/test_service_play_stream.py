"""The Play stream end to end against the real server: whole games, each answer's outcome on the
stream, SubmitAnswer's guarantees (stale, duplicate and out-of-turn answers refused and never
applied twice, tokens checked), resumption after a disconnect, malformed streams refused."""
from __future__ import annotations

import asyncio
import time

import grpc
import pytest

import dominion
import dominion.bots
from dominion_client.aio import AsyncClient
from dominion_client.botrunner import play_seat_async, play_seat_with
from dominion_client.client import TOKEN_METADATA, PlayCall
from dominion_client.convert import answer_to_pb, decision_from_pb, view_from_pb
from dominion_proto import dominion_pb2 as pb
from dominion_service.storage import AnswerConflict, SeatRecord, SqliteStorage, StoredGame
from tests.service.test_service_games import assert_record_replays

ABORTED = grpc.StatusCode.ABORTED.value[0]
FAILED_PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION.value[0]
INVALID_ARGUMENT = grpc.StatusCode.INVALID_ARGUMENT.value[0]


def open_play(client, game, seat, from_event=0, batched=False, token=None):
    token = game.tokens[seat] if token is None else token
    return PlayCall(client.stub, game.game_id, from_event, ((TOKEN_METADATA, token),), batched)


def next_decision(play):
    """Read until a decision comes; (its message, the events read on the way)."""
    events = []
    while True:
        update = play.receive()
        assert update is not None, "the stream ended without a decision"
        events.extend(e.index for e in update.events)
        if update.HasField("decision"):
            return update.decision, events


def outcome(play):
    """The next outcome on the stream (an accepted sequence number, or a Refusal)."""
    while True:
        update = play.receive()
        assert update is not None, "the stream ended without an outcome"
        if update.HasField("accepted"):
            return update.accepted
        if update.HasField("refused"):
            return update.refused


def first_move(decision_msg):
    return decision_from_pb(decision_msg.decision).moves[-1]


def test_a_whole_game_over_play_each_answer_accepted_on_the_stream(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=41)
    play = open_play(client, game, 0)
    bot = dominion.bots.make_bot("big-money", 1)
    accepted, answered, events, result = [], [], [], None
    try:
        while result is None:
            update = play.receive()
            assert update is not None
            events.extend(e.index for e in update.events)
            if update.HasField("accepted"):
                accepted.append(update.accepted)
            assert not update.HasField("refused")
            if update.HasField("decision"):
                msg = update.decision
                decision = decision_from_pb(msg.decision)
                answer = bot.answer(decision, view_from_pb(msg.view, decision))
                play.send(answer_to_pb(decision.kind, answer, msg.decision.sequence))
                answered.append(msg.decision.sequence)
            if update.HasField("game_over"):
                result = update.game_over
        assert play.receive() is None        # the end is the stream's last message
    finally:
        play.close()
    assert accepted == answered and answered
    record = client.record(game.game_id)
    assert events == list(range(len(client.spectate(game.game_id).view(log_from=0).log)))
    assert [record.answers[n][0] for n in answered] == [0] * len(answered)
    assert dominion.winners(dominion.replay(record)) == tuple(result.winners)


def test_bots_play_whole_games_over_batched_streams_sync_and_async(client, server, kingdom):
    game = client.create_game(["Sync", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=42)
    result = play_seat_with(client.seat(game.game_id, game.tokens[0]), "smithy-big-money", 2)
    assert_record_replays(client, game.game_id, result)

    games = [client.create_game(2, kingdom=kingdom, seed=50 + i) for i in range(3)]

    async def play_all():
        async with AsyncClient(server.target) as aclient:
            return await asyncio.gather(*(
                play_seat_async(aclient.seat(g.game_id, g.tokens[s]),
                                dominion.bots.make_bot("big-money", s))
                for g in games for s in (0, 1)))
    results = asyncio.run(play_all())
    for i, g in enumerate(games):
        assert results[2 * i] == results[2 * i + 1]
        assert_record_replays(client, g.game_id, results[2 * i])


def test_batched_stream_sends_one_message_per_decision_with_every_event_once(client, kingdom):
    game = client.create_game(2, kingdom=kingdom, seed=43)
    plays = [open_play(client, game, s, batched=True) for s in (0, 1)]
    bots = [dominion.bots.make_bot("big-money", s) for s in (0, 1)]
    seen = {0: [], 1: []}
    messages = {0: 0, 1: 0}
    over = set()
    try:
        while len(over) < 2:
            view = client.spectate(game.game_id).view()
            for s in (0, 1) if view.game_over else (view.waiting_for,):
                if s in over:
                    continue
                update = plays[s].receive()    # a batched stream sends only when it must
                messages[s] += 1
                seen[s].extend(e.index for e in update.events)
                if update.HasField("game_over"):
                    over.add(s)
                    continue
                assert update.HasField("decision"), update
                msg = update.decision
                decision = decision_from_pb(msg.decision)
                answer = bots[s].answer(decision, view_from_pb(msg.view, decision))
                plays[s].send(answer_to_pb(decision.kind, answer, msg.decision.sequence))
                while client.spectate(game.game_id).view_message().sequence <= \
                        msg.decision.sequence:
                    time.sleep(0.001)              # until the answer is applied
    finally:
        for p in plays:
            p.close()
    log = client.spectate(game.game_id).view(log_from=0).log
    for s in (0, 1):
        assert seen[s] == list(range(len(log)))
    answers = client.record(game.game_id).answers
    for s in (0, 1):   # one message per decision of the seat, and the end
        assert messages[s] == sum(1 for seat, _ in answers if seat == s) + 1


def test_a_stale_or_duplicate_answer_is_refused_and_never_applied_twice(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=44,
                              first_player=0)
    play = open_play(client, game, 0)
    seat = client.seat(game.game_id, game.tokens[0])
    try:
        msg, _ = next_decision(play)
        answer = answer_to_pb(dominion.TURN, first_move(msg), msg.decision.sequence)
        play.send(answer)
        assert outcome(play) == msg.decision.sequence
        before = seat.view_message(log_from=0)
        play.send(answer)                                  # the same answer again
        refused = outcome(play)
        assert refused.code == ABORTED and refused.sequence == msg.decision.sequence
        assert "already answered" in refused.message
        ahead = answer_to_pb(dominion.TURN, first_move(msg), before.sequence + 5)
        play.send(ahead)                                   # a number not asked yet
        assert outcome(play).code == ABORTED
        assert seat.view_message(log_from=0) == before     # nothing changed
    finally:
        play.close()
    record = client.record(game.game_id).answers if seat.view().game_over else None
    assert record is None or record[msg.decision.sequence][0] == 0


def test_an_illegal_or_unnumbered_answer_is_refused_and_the_stream_goes_on(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=45,
                              first_player=0)
    play = open_play(client, game, 0)
    seat = client.seat(game.game_id, game.tokens[0])
    try:
        msg, _ = next_decision(play)
        before = seat.view_message(log_from=0)
        play.send(answer_to_pb(dominion.TURN, dominion.Move("buy", "Province"),
                               msg.decision.sequence))
        refused = outcome(play)
        assert refused.code == INVALID_ARGUMENT and "Province" in refused.message
        play.send(pb.Answer(move=pb.Move(verb=pb.VERB_END_PHASE)))   # no sequence
        refused = outcome(play)
        assert refused.code == INVALID_ARGUMENT and "sequence is required" in refused.message
        assert seat.view_message(log_from=0) == before
        play.send(answer_to_pb(dominion.TURN, first_move(msg), msg.decision.sequence))
        assert outcome(play) == msg.decision.sequence    # the same stream takes a good one
    finally:
        play.close()


def test_an_answer_out_of_turn_is_refused(client, kingdom):
    game = client.create_game(2, kingdom=kingdom, seed=46, first_player=0)
    first = open_play(client, game, 0)
    second = open_play(client, game, 1)
    seat = client.seat(game.game_id, game.tokens[0])
    try:
        msg, _ = next_decision(first)
        before = seat.view_message(log_from=0)
        second.send(answer_to_pb(dominion.TURN, first_move(msg), msg.decision.sequence))
        refused = outcome(second)
        assert refused.code == FAILED_PRECONDITION
        assert "not for your seat 1" in refused.message
        assert seat.view_message(log_from=0) == before
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("token, code", [("", grpc.StatusCode.UNAUTHENTICATED),
                                         ("not-a-token", grpc.StatusCode.PERMISSION_DENIED)])
def test_a_missing_or_wrong_token_ends_the_stream(client, kingdom, token, code):
    game = client.create_game(2, kingdom=kingdom, seed=47)
    metadata = ((TOKEN_METADATA, token),) if token else ()
    play = PlayCall(client.stub, game.game_id, 0, metadata)
    with pytest.raises(grpc.RpcError) as info:
        play.receive()
    play.close()
    assert info.value.code() == code
    assert client.spectate(game.game_id).view().turn == 1   # nothing was played


def test_a_stream_for_no_game_or_past_the_log_is_refused(client, kingdom):
    game = client.create_game(2, kingdom=kingdom, seed=48)
    for game_id, from_event, code in (("nope", 0, grpc.StatusCode.NOT_FOUND),
                                      (game.game_id, 10**6, grpc.StatusCode.INVALID_ARGUMENT)):
        play = PlayCall(client.stub, game_id, from_event, ((TOKEN_METADATA, game.tokens[0]),))
        with pytest.raises(grpc.RpcError) as info:
            play.receive()
        play.close()
        assert info.value.code() == code


def test_reconnecting_mid_game_resumes_at_the_pending_decision(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=49,
                              first_player=0)
    play = open_play(client, game, 0)
    msg, events = next_decision(play)
    play.send(answer_to_pb(dominion.TURN, first_move(msg), msg.decision.sequence))
    assert outcome(play) == msg.decision.sequence
    pending, more = next_decision(play)
    events += more
    play.close()                                        # a disconnect before answering
    again = open_play(client, game, 0, from_event=events[-1] + 1)
    try:
        resent, repeated = next_decision(again)
        assert resent.decision == pending.decision      # the same decision, same number
        assert repeated == []                           # no event twice
        again.send(answer_to_pb(dominion.TURN, first_move(resent), resent.decision.sequence))
        assert outcome(again) == resent.decision.sequence
    finally:
        again.close()


def test_an_answer_sent_before_a_disconnect_is_applied_once(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=51,
                              first_player=0)
    play = open_play(client, game, 0)
    msg, _ = next_decision(play)
    answer = answer_to_pb(dominion.TURN, first_move(msg), msg.decision.sequence)
    play.send(answer)
    play.close()                                        # gone before reading the outcome
    again = open_play(client, game, 0)
    try:
        again.send(answer)                              # the retry: applied once at most
        result = outcome(again)
        applied = client.seat(game.game_id, game.tokens[0]).view_message().sequence > \
            msg.decision.sequence
        assert applied
        assert result == msg.decision.sequence or result.code == ABORTED
    finally:
        again.close()


def test_malformed_streams_are_refused_with_invalid_argument(client, server, kingdom):
    game = client.create_game(2, kingdom=kingdom, seed=52)
    metadata = ((TOKEN_METADATA, game.tokens[0]),)
    raw = client.channel.stream_stream("/dominion.v1.DominionService/Play",
                                       request_serializer=lambda data: data,
                                       response_deserializer=pb.PlayResponse.FromString)
    start = pb.PlayRequest(start=pb.PlayStart(game_id=game.game_id)).SerializeToString()
    answer = pb.PlayRequest(answer=pb.Answer(sequence=0)).SerializeToString()
    cases = [
        ([b"\xff\xff\xff"], "not a valid dominion.v1.PlayRequest"),       # undecodable
        ([answer], "first message of a Play stream is PlayRequest.start"),
        ([start, start], "started already"),
        ([start, b""], "the message is empty"),
        ([start, b"\x0a\x02\xff"], "not a valid dominion.v1.PlayRequest"),
    ]
    for messages, words in cases:
        call = raw(iter(messages), metadata=metadata)
        with pytest.raises(grpc.RpcError) as info:
            for _ in call:
                pass
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, messages
        assert words in info.value.details(), (messages, info.value.details())
    assert client.spectate(game.game_id).view_message().sequence == 0     # nothing was applied


def test_group_commit_stores_each_row_or_returns_its_error(kingdom):
    store = SqliteStorage(":memory:")
    config = dominion.Config(("A", "B"), kingdom, 1, 0)
    store.create_game(StoredGame("g", config, (SeatRecord("", ""),) * 2, 0.0))
    move = dominion.Move("end_phase")
    errors = store.append_answers([("g", 0, 0, move), ("g", 0, 0, move), ("g", 1, 1, move)])
    assert errors[0] is None and errors[2] is None
    assert isinstance(errors[1], AnswerConflict)      # the duplicate only
    assert "stored first" in str(errors[1])
    assert store.load_game("g").answers == ((0, move), (1, move))


def one_answer_from_the_end(client, kingdom, seed):
    """A game of two network seats played by big-money (answers sent with SubmitAnswer) up
    to its last decision: (game, the seat that answers it, the answer that ends the game)."""
    game = client.create_game(["A", "B"], kingdom=kingdom, seed=seed)
    state = dominion.new_game(dominion.make_config(("A", "B"), kingdom, None, seed))
    bots = [dominion.bots.make_bot("big-money", s) for s in (0, 1)]
    while True:
        decision = dominion.pending(state)
        seat = decision.player
        answer = bots[seat].answer(decision, dominion.view(state, seat))
        wire = answer_to_pb(decision.kind, answer, dominion.decision_number(state))
        state = dominion.step(state, answer, seat)
        if dominion.is_over(state):
            return game, seat, wire
        client.stub.SubmitAnswer(pb.SubmitAnswerRequest(game_id=game.game_id, answer=wire),
                                 metadata=((TOKEN_METADATA, game.tokens[seat]),))


def final_answer_on_two_play_streams(client, game, seat, final) -> list:
    """The updates of two Play streams of ``seat`` that both send ``final`` and close."""
    plays = [open_play(client, game, seat, from_event=0, batched=True) for _ in range(2)]
    try:
        for play in plays:
            next_decision(play)
        for play in plays:
            play.send(final)
        for play in plays:
            play._requests.put(None)   # the client's side closed: the stream ends
        return [list(iter(play.receive, None)) for play in plays]
    finally:
        for play in plays:
            play.close()


def final_answer_on_two_seats_streams(target, game, seat, final) -> list:
    """The same on two PlaySeats streams, each playing the seat (ref 0)."""
    from dominion_client.aio import SeatsStream

    async def run() -> list:
        async with AsyncClient(target) as client:
            streams = [SeatsStream(client) for _ in range(2)]
            try:
                for stream in streams:
                    stream.add(0, game.game_id, game.tokens[seat])
                    await stream.flush()
                for stream in streams:
                    while not any(u.HasField("decision") for u in (await stream.read()).updates):
                        pass
                for stream in streams:
                    stream._answers.append(pb.SeatAnswer(ref=0, answer=final))
                    await stream.flush()
                    await stream.close()
                out = []
                for stream in streams:
                    updates = []
                    while (response := await asyncio.wait_for(stream.read(), 10)) is not None:
                        updates.extend(response.updates)
                    out.append(updates)
                return out
            finally:
                for stream in streams:
                    stream.cancel()
    return asyncio.run(run())


@pytest.mark.parametrize("streams", ["Play", "PlaySeats"])
def test_the_answer_that_ends_the_game_sent_on_two_streams_gets_one_outcome_on_each(
        tmp_path, kingdom, streams):
    """The seat's last answer sent on two streams at once (a database file: storing it takes
    a while): one stream gets `accepted`, the other a refusal, each exactly once, and both
    the game's end."""
    from dominion_client.client import connect
    from dominion_service.local import LocalServer

    with LocalServer(SqliteStorage(str(tmp_path / "games.db"))) as server, \
            connect(server.target) as client:
        for seed in (61, 62, 63):
            game, seat, final = one_answer_from_the_end(client, kingdom, seed)
            updates = final_answer_on_two_play_streams(client, game, seat, final) \
                if streams == "Play" else \
                final_answer_on_two_seats_streams(server.target, game, seat, final)
            outcomes = [[u.accepted if u.HasField("accepted") else u.refused.code
                         for u in stream if u.HasField("accepted") or u.HasField("refused")]
                        for stream in updates]
            assert sorted(map(len, outcomes)) == [1, 1], outcomes
            assert sorted(o[0] for o in outcomes) == sorted([final.sequence, ABORTED]), outcomes
            assert all(any(u.HasField("game_over") for u in stream) for stream in updates)


def test_a_client_following_150_seats_opens_another_connection_before_the_stream_limit(
        server, kingdom):
    """150 Play streams of one AsyncClient (the server takes 100 calls at once on one
    connection): each gets its decision, and a GetView on the same client answers at once,
    because the client opens another connection once one carries
    `STREAMS_PER_CONNECTION` streams."""
    from dominion_client.client import STREAMS_PER_CONNECTION
    from dominion_service.server import MAX_CALLS_PER_CONNECTION

    assert STREAMS_PER_CONNECTION < MAX_CALLS_PER_CONNECTION

    async def run() -> None:
        async with AsyncClient(server.target) as client:
            reply = await client.stub.CreateGame(pb.CreateGameRequest(
                seats=[pb.SeatSpec(name="A"), pb.SeatSpec(name="B")], cards=pb.KingdomCards(
                    cards=list(kingdom)), seed=5, first_player=0))
            game_id, token = reply.game_id, reply.seats[0].token
            streams = [client.seat(game_id, token).decisions(batched=False)
                       for _ in range(150)]
            try:
                for n, stream in enumerate(streams):
                    pending = await asyncio.wait_for(stream.__anext__(), 5)
                    assert pending.message.decision.sequence == 0, n
                view = await client.stub.GetView(pb.GetViewRequest(game_id=game_id),
                                                 timeout=5)
                assert view.view.waiting_for == 0
                assert len(client.servers.channels()) == 2
            finally:
                for stream in streams:
                    await stream.aclose()
    asyncio.run(run())
