"""PlaySeats end to end against the real server: many seats of many games on one stream, each
seat with Play's guarantees (stale and duplicate answers refused and never applied twice, a bad
token or game refused for its seat alone), answers for refs never added, resumption after a
disconnect, malformed streams refused."""
from __future__ import annotations

import asyncio
import queue

import grpc
import pytest

import dominion
import dominion.bots
from dominion_client.aio import AsyncClient
from dominion_client.botrunner import play_seats_async
from dominion_client.client import GameResult
from dominion_client.client import connect
from dominion_client.convert import answer_to_pb, decision_from_pb, view_from_pb
from dominion_client.local import LocalServer
from dominion_proto import dominion_pb2 as pb
from dominion_service import SqliteStorage
from tests.service.test_service_games import assert_record_replays

ABORTED = grpc.StatusCode.ABORTED.value[0]
FAILED_PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION.value[0]


class SeatsCall:
    """A PlaySeats stream from a test: messages go through a queue, updates are read one at a
    time (across messages), in order."""

    def __init__(self, client):
        self.requests: queue.SimpleQueue = queue.SimpleQueue()
        self.call = client.stub.PlaySeats(iter(self.requests.get, None))
        self.unread: list = []
        self.held: dict = {}     # ref -> its updates read while waiting for another seat's
        self.messages = 0

    def add(self, *starts) -> None:
        self.requests.put(pb.PlaySeatsRequest(add=[pb.SeatStart(**s) for s in starts]))

    def answer(self, ref, decision_msg, answer) -> None:
        self.requests.put(pb.PlaySeatsRequest(answers=[pb.SeatAnswer(
            ref=ref, answer=answer_to_pb(decision_msg.WhichOneof("kind"), answer,
                                         decision_msg.sequence))]))

    def send(self, request: pb.PlaySeatsRequest) -> None:
        self.requests.put(request)

    def next(self):
        """The next SeatUpdate, or None once the stream has ended."""
        while not self.unread:
            response = next(self.call, None)
            if response is None:
                return None
            self.messages += 1
            self.unread.extend(response.updates)
        return self.unread.pop(0)

    def until(self, ref, field):
        """Read until ``ref``'s update with ``field`` comes; (it, ``ref``'s event indexes read
        on the way). Other seats' updates read meanwhile are kept for their own `until`."""
        events = []
        while True:
            held = self.held.setdefault(ref, [])
            update = held.pop(0) if held else self.next()
            assert update is not None, f"the stream ended before {field} for ref {ref}"
            if update.ref != ref:
                self.held.setdefault(update.ref, []).append(update)
                continue
            events.extend(e.index for e in update.events)
            if update.HasField(field):
                return update, events

    def close(self) -> None:
        self.requests.put(None)
        self.call.cancel()


def first_move(update):
    return decision_from_pb(update.decision.decision).moves[-1]


def test_whole_games_for_many_seats_of_many_games_on_one_stream(client, server, kingdom):
    games = [client.create_game(2, kingdom=kingdom, seed=70 + i) for i in range(3)]
    mixed = client.create_game(["Net", "BM", "Net2"], bots={1: "big-money"}, kingdom=kingdom,
                               seed=74)
    seats = [(g.game_id, t, dominion.bots.make_bot("big-money", s))
             for g in games + [mixed] for s, t in sorted(g.tokens.items())]

    async def play():
        async with AsyncClient(server.target) as aclient:
            return await play_seats_async(aclient, seats)
    results = asyncio.run(play())
    assert len(results) == 8 and all(isinstance(r, GameResult) for r in results)
    for i, g in enumerate(games):
        assert results[2 * i] == results[2 * i + 1]
        assert_record_replays(client, g.game_id, results[2 * i])
    assert results[6] == results[7]
    assert_record_replays(client, mixed.game_id, results[6])


def test_unbatched_seats_get_every_event_once_and_each_answer_its_outcome(client, kingdom):
    games = [client.create_game(2, kingdom=kingdom, seed=80 + i) for i in range(2)]
    refs = {10 * i + s: (g, s) for i, g in enumerate(games) for s in (0, 1)}
    bots = {ref: dominion.bots.make_bot("big-money", ref) for ref in refs}
    stream = SeatsCall(client)
    events = {ref: [] for ref in refs}
    answered = {ref: [] for ref in refs}
    accepted = {ref: [] for ref in refs}
    over = set()
    try:
        stream.add(*(dict(ref=ref, game_id=g.game_id, token=g.tokens[s])
                     for ref, (g, s) in refs.items()))
        while len(over) < len(refs):
            update = stream.next()
            assert update is not None
            ref = update.ref
            assert ref in refs and ref not in over
            assert not update.HasField("refused") and not update.HasField("closed")
            events[ref].extend(e.index for e in update.events)
            if update.HasField("accepted"):
                accepted[ref].append(update.accepted)
            if update.HasField("decision"):
                msg = update.decision
                decision = decision_from_pb(msg.decision)
                stream.answer(ref, msg.decision,
                              bots[ref].answer(decision, view_from_pb(msg.view, decision)))
                answered[ref].append(msg.decision.sequence)
            if update.HasField("game_over"):
                over.add(ref)
        stream.requests.put(None)
        assert stream.next() is None              # ends OK once the client closed its side
    finally:
        stream.close()
    assert stream.messages < sum(len(a) for a in answered.values()) * 2   # coalesced
    for ref, (g, s) in refs.items():
        log = client.spectate(g.game_id).view(log_from=0).log
        assert events[ref] == list(range(len(log)))
        assert accepted[ref] == answered[ref] and answered[ref]
        record = client.record(g.game_id)
        assert [record.answers[n][0] for n in answered[ref]] == [s] * len(answered[ref])


def test_a_stale_or_duplicate_answer_is_refused_for_its_seat_and_never_applied_twice(
        client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=90,
                              first_player=0)
    other = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=91,
                               first_player=0)
    seat = client.seat(game.game_id, game.tokens[0])
    stream = SeatsCall(client)
    try:
        stream.add(dict(ref=5, game_id=game.game_id, token=game.tokens[0]),
                   dict(ref=6, game_id=other.game_id, token=other.tokens[0]))
        msg, _ = stream.until(5, "decision")
        stream.answer(5, msg.decision.decision, first_move(msg))
        assert stream.until(5, "accepted")[0].accepted == msg.decision.decision.sequence
        before = seat.view_message(log_from=0)
        stream.answer(5, msg.decision.decision, first_move(msg))        # the same again
        refused = stream.until(5, "refused")[0].refused
        assert refused.code == ABORTED and "already answered" in refused.message
        assert refused.sequence == msg.decision.decision.sequence
        late = msg.decision.decision.__class__()
        late.CopyFrom(msg.decision.decision)
        late.sequence = before.sequence + 5                                 # not asked yet
        stream.answer(5, late, first_move(msg))
        assert stream.until(5, "refused")[0].refused.code == ABORTED
        assert seat.view_message(log_from=0) == before                     # nothing changed
        theirs, _ = stream.until(6, "decision")                            # the other plays on
        stream.answer(6, theirs.decision.decision, first_move(theirs))
        assert stream.until(6, "accepted")[0].accepted == theirs.decision.decision.sequence
    finally:
        stream.close()


def test_a_bad_token_or_game_closes_that_seat_alone(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=92,
                              first_player=0)
    stream = SeatsCall(client)
    try:
        stream.add(dict(ref=1, game_id=game.game_id, token="not-a-token"),
                   dict(ref=2, game_id=game.game_id, token=game.tokens[0]),
                   dict(ref=3, game_id=game.game_id),
                   dict(ref=4, game_id="nope", token=game.tokens[0]),
                   dict(ref=7, game_id=game.game_id, token=game.tokens[0], from_event=10**6))
        for ref, code in ((1, grpc.StatusCode.PERMISSION_DENIED),
                          (3, grpc.StatusCode.UNAUTHENTICATED),
                          (4, grpc.StatusCode.NOT_FOUND), (7, grpc.StatusCode.INVALID_ARGUMENT)):
            closed = stream.until(ref, "closed")[0].closed
            assert closed.code == code.value[0] and closed.message, (ref, closed)
        msg, _ = stream.until(2, "decision")                     # the good seat plays
        stream.answer(2, msg.decision.decision, first_move(msg))
        assert stream.until(2, "accepted")[0].accepted == msg.decision.decision.sequence
        stream.add(dict(ref=1, game_id=game.game_id, token=game.tokens[0], from_event=0))
        again = stream.until(1, "decision")[0]    # a closed seat's ref is free: the same seat
        assert again.decision.decision.sequence > msg.decision.decision.sequence
    finally:
        stream.close()


def test_an_answer_for_a_ref_never_added_is_refused_and_changes_nothing(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=93,
                              first_player=0)
    stream = SeatsCall(client)
    seat = client.seat(game.game_id, game.tokens[0])
    try:
        stream.add(dict(ref=0, game_id=game.game_id, token=game.tokens[0]))
        msg, _ = stream.until(0, "decision")
        before = seat.view_message(log_from=0)
        stream.answer(42, msg.decision.decision, first_move(msg))
        refused = stream.until(42, "refused")[0].refused
        assert refused.code == FAILED_PRECONDITION and "ref 42" in refused.message
        assert seat.view_message(log_from=0) == before
        stream.answer(0, msg.decision.decision, first_move(msg))          # the stream goes on
        assert stream.until(0, "accepted")[0].accepted == msg.decision.decision.sequence
    finally:
        stream.close()


def test_reconnecting_mid_game_resumes_each_seat_at_its_pending_decision(client, server,
                                                                         kingdom):
    games = [client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom,
                                seed=94 + i, first_player=0) for i in range(2)]
    stream = SeatsCall(client)
    pending, seen = {}, {0: [], 1: []}
    for ref, g in enumerate(games):
        stream.add(dict(ref=ref, game_id=g.game_id, token=g.tokens[0], batched=True))
    for ref in (0, 1):
        msg, events = stream.until(ref, "decision")
        seen[ref] += events
        stream.answer(ref, msg.decision.decision, first_move(msg))
    for ref in (0, 1):
        msg, events = stream.until(ref, "decision")       # batched: brings the acceptance
        seen[ref] += events
        pending[ref] = msg.decision
    stream.close()                                       # a disconnect before answering
    again = SeatsCall(client)
    try:
        for ref, g in enumerate(games):
            again.add(dict(ref=ref + 100, game_id=g.game_id, token=g.tokens[0],
                           from_event=seen[ref][-1] + 1, batched=True))
        for ref in (0, 1):
            resent, repeated = again.until(ref + 100, "decision")
            assert resent.decision == pending[ref]       # the same decision, same number
            assert repeated == []                        # no event twice
    finally:
        again.close()

    async def finish():
        async with AsyncClient(server.target) as aclient:
            return await play_seats_async(aclient, [
                (g.game_id, g.tokens[0], dominion.bots.make_bot("big-money", 1))
                for g in games])
    for g, result in zip(games, asyncio.run(finish())):
        assert_record_replays(client, g.game_id, result)


def test_streams_end_unavailable_when_the_server_stops_even_with_no_seat(kingdom):
    with LocalServer(SqliteStorage(":memory:")) as server, connect(server.target) as client:
        game = client.create_game(2, kingdom=kingdom, seed=97)
        playing, idle = SeatsCall(client), SeatsCall(client)
        playing.add(dict(ref=1, game_id=game.game_id, token=game.tokens[0]))
        assert playing.next().ref == 1
        idle.add(dict(ref=1, game_id="nope", token="x"))
        assert idle.next().HasField("closed")            # it plays no seat now
        server.stop()
        for stream in (playing, idle):
            with pytest.raises(grpc.RpcError) as info:
                while stream.next() is not None:
                    pass
            assert info.value.code() == grpc.StatusCode.UNAVAILABLE
            stream.close()


def test_malformed_streams_are_refused_with_invalid_argument(client, kingdom):
    game = client.create_game(2, kingdom=kingdom, seed=96)
    raw = client.channel.stream_stream("/dominion.v1.DominionService/PlaySeats",
                                       request_serializer=lambda data: data,
                                       response_deserializer=pb.PlaySeatsResponse.FromString)
    add = pb.PlaySeatsRequest(add=[pb.SeatStart(ref=1, game_id=game.game_id,
                                                token=game.tokens[0])]).SerializeToString()
    many = pb.PlaySeatsRequest(answers=[pb.SeatAnswer(ref=1)] * 1025).SerializeToString()
    cases = [
        ([b"\xff\xff\xff"], "not a valid dominion.v1.PlaySeatsRequest"),    # undecodable
        ([b""], "the message is empty"),
        ([add, add], "ref 1 is in use"),
        ([add, many], "at most 1024"),
    ]
    for messages, words in cases:
        call = raw(iter(messages))
        with pytest.raises(grpc.RpcError) as info:
            for _ in call:
                pass
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, messages
        assert words in info.value.details(), (messages, info.value.details())
    assert client.spectate(game.game_id).view_message().sequence == 0     # nothing was applied


def test_seat_updates_have_play_responses_fields_so_one_tracker_reads_both():
    fields = [(f.name, f.number, f.type) for f in pb.PlayResponse.DESCRIPTOR.fields]
    assert [(f.name, f.number, f.type) for f in pb.SeatUpdate.DESCRIPTOR.fields][:6] == fields


def test_answers_of_one_message_are_stored_together_each_with_its_own_outcome(kingdom):
    """The first answers of several seats in one message are stored in one write; when one
    row fails, that seat alone is refused UNAVAILABLE (nothing changed, resend it), the others
    are applied; a stale answer among them is refused ABORTED; each has one outcome."""
    from tests.service.test_service_storage_failures import FlakyStorage

    storage = FlakyStorage(SqliteStorage(":memory:"))
    with LocalServer(storage) as server, connect(server.target) as client:
        games = [client.create_game(["A", "B"], kingdom=kingdom, seed=90 + i, first_player=i % 2)
                 for i in range(3)]
        stream = SeatsCall(client)
        stream.add(*({"ref": 10 * i + s, "game_id": g.game_id, "token": g.tokens[s]}
                     for i, g in enumerate(games) for s in (0, 1)))   # outcomes sent at once
        asked = {10 * i + i % 2: stream.until(10 * i + i % 2, "decision")[0].decision.decision
                 for i in range(3)}             # each game's first player: 0, 11, 20
        assert sorted(asked) == [0, 11, 20]
        storage.fail_seat, storage.fail_next = 1, 1      # the row of game 1 (seat 1) fails
        request = pb.PlaySeatsRequest()
        for ref, wire in asked.items():
            move = decision_from_pb(wire).moves[-1]
            request.answers.add(ref=ref, answer=answer_to_pb(dominion.TURN, move, wire.sequence))
        request.answers.add(ref=0, answer=answer_to_pb(dominion.TURN, dominion.Move("end_phase"),
                                                       asked[0].sequence))   # sent twice
        stream.send(request)
        assert stream.until(0, "accepted")[0].accepted == 0
        assert stream.until(0, "refused")[0].refused.code == ABORTED   # the duplicate
        assert stream.until(20, "accepted")[0].accepted == 0
        refused = stream.until(11, "refused")[0].refused
        assert refused.code == grpc.StatusCode.UNAVAILABLE.value[0], refused
        assert "not applied" in refused.message
        views = [client.spectate(g.game_id).view_message() for g in games]
        assert [v.sequence for v in views] == [1, 0, 1]
        wire = asked[11]
        stream.answer(11, wire, decision_from_pb(wire).moves[-1])   # sent again: applied now
        assert stream.until(11, "accepted")[0].accepted == 0
        assert client.spectate(games[1].game_id).view_message().sequence == 1
        stream.close()
