"""Complete games through the real server: network bots, built-in bots, a restart in the middle,
streams resumed after a disconnect, health checking and reflection."""
from __future__ import annotations

import threading

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

import dominion
import dominion.bots
from dominion_client.botrunner import play_seat, play_seat_with
from dominion_client.client import connect
from dominion_client.convert import decision_from_pb, view_from_pb
from dominion_proto import dominion_pb2
from dominion_service.local import LocalServer
from dominion_service import SERVICE_NAME, SqliteStorage


def assert_record_replays(client, game_id, result):
    """The stored record replays to a finished game with the streamed result."""
    state = dominion.replay(client.record(game_id))
    assert dominion.is_over(state)
    assert dominion.score(state) == result.scores
    assert dominion.winners(state) == result.winners


def test_network_bot_finishes_a_game_against_builtin_bots(client, kingdom):
    game = client.create_game(["Net", "BM", "Rnd"], bots={1: "big-money", 2: "random"},
                              kingdom=kingdom, seed=11)
    assert set(game.tokens) == {0}
    result = play_seat_with(client.seat(game.game_id, game.tokens[0]), "random", seed=3)
    assert result is not None and result.winners
    assert_record_replays(client, game.game_id, result)
    finished = client.list_games(include_finished=True)
    assert [g.game_over for g in finished if g.game_id == game.game_id] == [True]
    assert all(g.game_id != game.game_id for g in client.list_games())


def test_two_network_bots_in_parallel_finish_the_same_game(client, kingdom):
    game = client.create_game(2, kingdom=kingdom, seed=12)
    results = {}

    def play(seat):
        results[seat] = play_seat_with(client.seat(game.game_id, game.tokens[seat]),
                                       "big-money", seed=seat)

    threads = [threading.Thread(target=play, args=(s,)) for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results[0] == results[1]
    assert_record_replays(client, game.game_id, results[0])


def test_game_of_only_builtin_bots_is_played_by_the_server(client, kingdom):
    game = client.create_game(2, bots={0: "big-money", 1: "random"}, kingdom=kingdom, seed=13)
    assert game.tokens == {}
    view = client.spectate(game.game_id).view()
    assert view.game_over and view.winners


def test_a_game_without_a_kingdom_gets_its_bots_kingdom_cards_as_on_the_command_line(client):
    """One rule (`dominion.bots.default_kingdom`) for CreateGame and the CLI: First Game with
    the bots' Kingdom cards put in, so a Witch bot has its Witch."""
    game = client.create_game(["Net", "Witch"], bots={1: "witch-big-money"}, seed=5)
    assert "Witch" in game.kingdom
    assert game.kingdom == dominion.resolve_kingdom(dominion.bots.default_kingdom(
        ["witch-big-money"]))
    plain = client.create_game(["Net", "BM"], bots={1: "big-money"}, seed=5)
    assert plain.kingdom == dominion.RECOMMENDED["First Game"][1]


def answer_some(seat, bot, count):
    """Answer ``count`` of the seat's decisions with ``bot``, then drop the stream."""
    answered = 0
    for pending in seat.decisions():
        seat.answer(pending, bot.answer(pending.decision, pending.view))
        answered += 1
        if answered == count:
            return


def test_restart_in_the_middle_of_a_game_resumes_it_exactly(tmp_path, kingdom):
    db = tmp_path / "games.db"
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom,
                                  seed=21)
        seat = client.seat(game.game_id, game.tokens[0])
        answer_some(seat, dominion.bots.make_bot("big-money", 1), 15)
        before = seat.view(log_from=0)
    assert not before.game_over
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        seat = client.seat(game.game_id, game.tokens[0])  # the token still holds
        assert seat.view(log_from=0) == before
        result = play_seat_with(seat, "big-money", seed=1)
        assert_record_replays(client, game.game_id, result)
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        assert client.spectate(game.game_id).view().winners == result.winners


def test_resumed_stream_misses_nothing_and_repeats_nothing(client, kingdom):
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=31)
    seat = client.seat(game.game_id, game.tokens[0])
    bot = dominion.bots.make_bot("big-money", 2)
    seen = []
    for stop_after in (3, 5, 10**6):  # two disconnects in the middle of the game
        answered = 0
        for update in seat.updates():
            seen.extend(e.index for e in update.events)
            if update.HasField("decision"):
                d = update.decision
                seat.answer(d.decision, bot.answer(decision_from_pb(d.decision),
                                                   view_from_pb(d.view)))
                answered += 1
                if answered == stop_after:
                    break
    full = client.seat(game.game_id, game.tokens[0]).view_message(log_from=0)
    assert full.game_over
    assert seen == list(range(len(full.log)))
    streamed_again = [e for u in seat.updates(from_event=0) for e in u.events]
    assert streamed_again == list(full.log)


def test_health_reports_serving(server):
    with grpc.insecure_channel(server.target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for service in ("", SERVICE_NAME):
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service))
            assert reply.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_the_service(server):
    with grpc.insecure_channel(server.target) as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        replies = stub.ServerReflectionInfo(iter([
            reflection_pb2.ServerReflectionRequest(list_services=""),
            reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE_NAME)]))
        listed, described = list(replies)
        names = [s.name for s in listed.list_services_response.service]
        assert SERVICE_NAME == "dominion.v1.DominionService" and SERVICE_NAME in names
        assert described.file_descriptor_response.file_descriptor_proto


def test_catalogue_lists_every_card_kingdom_and_bot(client):
    assert {c.name for c in client.list_cards()} == set(dominion.CARDS)
    assert client.list_kingdoms() == {n: cards for n, (_, cards) in dominion.RECOMMENDED.items()}
    assert client.list_bots() == dominion.bots.bot_names()


def test_many_games_and_open_streams_at_once_all_finish(client, kingdom):
    """Idle streams waiting on a game and ten games played at once do not hold each other up."""
    waiting = client.create_game(2, kingdom=kingdom, seed=60)
    idle = [client.spectate(waiting.game_id).updates() for _ in range(5)]
    for stream in idle:
        next(stream)  # each stream is open and has sent the game so far
    games = [client.create_game(["Net", "Rnd"], bots={1: "random"}, kingdom=kingdom, seed=61 + i)
             for i in range(10)]
    results = [None] * len(games)

    def play(i):
        results[i] = play_seat_with(client.seat(games[i].game_id, games[i].tokens[0]),
                                    "big-money", seed=i)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(len(games))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert all(r is not None and r.winners for r in results)
    for stream in idle:
        stream.close()


class PausingBot:
    """Big Money that, at its ``pause_at``-th answer, asks for a server restart and waits."""

    def __init__(self, pause_at):
        self.inner = dominion.bots.make_bot("big-money", 5)
        self.calls = 0
        self.pause_at = pause_at
        self.paused = threading.Event()
        self.resume = threading.Event()

    def answer(self, decision, view):
        self.calls += 1
        if self.calls == self.pause_at:
            self.paused.set()
            self.resume.wait(20)
        return self.inner.answer(decision, view)


def test_network_bot_rides_through_a_server_restart(tmp_path, kingdom):
    db = tmp_path / "games.db"
    first = LocalServer(SqliteStorage(db)).start()
    client = connect(first.target)
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=71)
    seat = client.seat(game.game_id, game.tokens[0])
    bot = PausingBot(pause_at=12)
    outcome = {}
    player = threading.Thread(target=lambda: outcome.update(result=play_seat(seat, bot)))
    player.start()
    assert bot.paused.wait(20)
    first.stop()                      # the answer in flight will find no server
    second = LocalServer(SqliteStorage(db), port=first.port).start()
    try:
        bot.resume.set()
        player.join(30)
        result = outcome["result"]
        assert_record_replays(client, game.game_id, result)
        events = seat.view_message(log_from=0).log
        assert seat.next_event == len(events)
    finally:
        client.close()
        second.stop()


def test_network_decisions_carry_every_event_once_so_bots_can_count_their_cards(client, kingdom):
    game = client.create_game(2, bots={1: "big-money"}, kingdom=kingdom, seed=21)
    seat = client.seat(game.game_id, game.tokens[0])
    bot = dominion.bots.make_bot("smithy-big-money", 5)
    seen = []
    for pending in seat.decisions():
        view = pending.view
        assert view.log_start == len(seen)  # nothing missed, nothing repeated
        seen.extend(view.log)
        seat.answer(pending, bot.answer(pending.decision, view))
    full = client.spectate(game.game_id).view(log_from=0).log
    mine = dominion.replay(client.record(game.game_id))
    assert len(seen) <= len(full)
    expected = dominion.view(mine, 0, log_from=0).log[:len(seen)]
    assert [(e.kind, e.player, e.cards) for e in seen] == \
        [(e.kind, e.player, e.cards) for e in expected]


def test_a_game_that_asks_every_question_is_created_stored_and_replayed(tmp_path, kingdom):
    """CreateGameRequest.always_ask reaches the engine, survives a restart and is in the record."""
    db = tmp_path / "games.db"
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom,
                                  seed=5, always_ask=True)
        seat = client.seat(game.game_id, game.tokens[0])
        first = next(seat.decisions())
        # Seat 0 holds no Action in its first hand, yet the Action phase is asked.
        assert first.decision.purpose == "action_phase"
    with LocalServer(SqliteStorage(db)) as server, connect(server.target) as client:
        seat = client.seat(game.game_id, game.tokens[0])
        result = play_seat_with(seat, "big-money", seed=1)
        record = client.record(game.game_id)
        assert record.config.always_ask is True
        assert_record_replays(client, game.game_id, result)


def test_the_wire_carries_log_lines_what_others_decide_and_victory_points(client, kingdom):
    """Event.text in each viewer's words, View.waiting and PlayerView.vp for every viewer, and
    StreamEvents telling a spectator what the game waits for."""
    game = client.create_game(["Ann", "Bot"], bots={1: "big-money"}, kingdom=kingdom, seed=9)
    seat = client.seat(game.game_id, game.tokens[0])
    mine = seat.view_message(log_from=0)
    theirs = client.spectate(game.game_id).view_message(log_from=0)
    own_draws = [e.text for e in mine.log if e.kind == "draw" and e.player == 0]
    public_draws = [e.text for e in theirs.log if e.kind == "draw" and e.player == 0]
    assert own_draws[0].startswith("Ann draws ") and "Copper" in own_draws[0] + own_draws[-1]
    assert public_draws[0] == "Ann draws 5 cards."
    assert all(e.text for e in mine.log)
    for view in (mine, theirs):
        assert [p.vp for p in view.players] == [3, 3]
        assert view.waiting.player == 0 and view.waiting.text.startswith("Ann is in the ")
    assert seat.view().waiting.text == mine.waiting.text
    stream = client.stub.StreamEvents(
        dominion_pb2.StreamEventsRequest(game_id=game.game_id, from_event=0))
    first = next(iter(stream))
    stream.cancel()
    assert first.HasField("waiting") and first.waiting.player == 0
    assert not first.HasField("decision")


def test_reflection_v1_is_served_beside_v1alpha(server):
    """Current tools (grpcurl, grpcui) ask reflection v1 first; its messages have the same
    fields as v1alpha's, so they are used here to speak it."""
    with grpc.insecure_channel(server.target) as channel:
        info = channel.stream_stream(
            "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
            request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
            response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
        replies = list(info(iter([
            reflection_pb2.ServerReflectionRequest(list_services=""),
            reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE_NAME)])))
        names = [s.name for s in replies[0].list_services_response.service]
        assert {SERVICE_NAME, "grpc.reflection.v1.ServerReflection",
                "grpc.reflection.v1alpha.ServerReflection"} <= set(names)
        assert replies[1].file_descriptor_response.file_descriptor_proto


def test_list_games_pages_newest_first_with_filters(client, kingdom):
    made = []
    for i in range(7):
        bots = {1: "big-money"} if i % 2 else {0: "random", 1: "random"}
        made.append(client.create_game([f"P{i}", "Other"], bots=bots, kingdom=kingdom).game_id)
    pages, token = [], ""
    while True:
        reply = client.stub.ListGames(dominion_pb2.ListGamesRequest(
            include_finished=True, page_size=3, page_token=token))
        pages.append([g.game_id for g in reply.games])
        token = reply.next_page_token
        if not token:
            break
    listed = [gid for page in pages for gid in page]
    assert all(len(p) <= 3 for p in pages) and len(pages) >= 3
    assert [gid for gid in listed if gid in made] == list(reversed(made))   # newest first
    assert len(listed) == len(set(listed))
    only = client.list_games(include_finished=True, player="P3")
    assert [g.game_id for g in only] == [made[3]]
    waiting = client.list_games(waiting_for_client=True)
    assert {g.game_id for g in waiting} >= {made[i] for i in (1, 3, 5)}
    assert all(g.waiting_for == 0 for g in waiting if g.game_id in made)
    with_bot = client.list_games(include_finished=True, bot="random")
    assert {g.game_id for g in with_bot} & set(made) == {made[i] for i in (0, 2, 4, 6)}


def test_a_page_token_is_refused_with_other_filters_or_made_up(client, kingdom):
    for _ in range(3):
        client.create_game(["A", "B"], bots={1: "big-money"}, kingdom=kingdom)
    first = client.stub.ListGames(dominion_pb2.ListGamesRequest(page_size=1))
    assert first.next_page_token
    for request in (dominion_pb2.ListGamesRequest(page_token=first.next_page_token, bot="random"),
                    dominion_pb2.ListGamesRequest(page_token="made-up"),
                    dominion_pb2.ListGamesRequest(page_size=-1)):
        with pytest.raises(grpc.RpcError) as info:
            client.stub.ListGames(request)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
