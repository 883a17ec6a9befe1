"""The search bot as a server-side seat (listed by ListBots, played with the server's budget in
its thread pool, the event loop serving on; a whole game against a network seat) and as a
network client (`dominion bot`, from its seat's views)."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

import dominion
import dominion.bots
from dominion_client.botrunner import play_seat
from dominion_client.client import connect
from dominion_service.local import LocalServer
from dominion_proto import dominion_pb2 as pb
from dominion_service import ServiceOptions, SqliteStorage

ROOT = Path(__file__).resolve().parents[2]


def test_a_search_seat_plays_a_whole_game_with_the_servers_budget(kingdom):
    options = ServiceOptions(allow_seed=True, search_playouts=4, search_seconds=None,
                             max_search_seats=1)
    with LocalServer(SqliteStorage(":memory:"), options=options) as server, \
            connect(server.target) as client:
        listed = client.stub.ListBots(pb.ListBotsRequest())
        descriptions = dict(zip(listed.bots, listed.descriptions))
        assert len(listed.descriptions) == len(listed.bots)
        assert "searches its buys" in descriptions["search"]
        assert descriptions["big-money"].startswith("Buys Province")
        game = client.create_game(["Net", "Search"], bots={1: "search"}, kingdom=kingdom,
                                  seed=5)
        service_bot = server.service.games[game.game_id].bots[1]
        result = play_seat(client.seat(game.game_id, game.tokens[0]),
                           dominion.bots.make_bot("big-money", 1))
        view = client.spectate(game.game_id).view()
        assert view.game_over and list(view.winners) == list(result.winners)
        assert service_bot.playouts == 4 and service_bot.searched > 0


def test_over_the_network_the_search_bot_searches_from_its_seats_views(kingdom, monkeypatch):
    """A client seat has no state, only its views: the search bot follows the log streamed to
    it, rebuilds its samples from what it was shown and searches its buys; every view adds up
    (no sampler refused)."""
    from dominion.bots.search import ViewSampler
    made = []
    real_of = ViewSampler.of
    monkeypatch.setattr(ViewSampler, "of", lambda *args: made.append(real_of(*args)) or made[-1])
    with LocalServer(SqliteStorage(":memory:"), options=ServiceOptions(allow_seed=True)) as \
            server, connect(server.target) as client:
        game = client.create_game(["Search", "BM"], bots={1: "big-money-ultimate"},
                                  kingdom=kingdom, seed=3)
        bot = dominion.bots.make_bot("search:playouts=4,candidates=3,horizon=3", 1)
        result = play_seat(client.seat(game.game_id, game.tokens[0]), bot)
        assert client.spectate(game.game_id).view().game_over and result.scores
    assert bot.searched > 5 and len(made) == bot.searched and None not in made
    assert bot.log_from is not None   # the whole log was shown, nothing missed


def test_the_bot_command_plays_the_search_bot(kingdom):
    """`dominion bot --bot search:...`: two seats of one game on one stream."""
    with LocalServer(SqliteStorage(":memory:"), options=ServiceOptions(allow_seed=True)) as \
            server, connect(server.target) as client:
        game = client.create_game(["S1", "S2"], kingdom=kingdom, seed=4)
        run = subprocess.run(
            [sys.executable, "-m", "dominion_client.cli", "bot", "--server", server.target,
             "--game", game.game_id, "--token", game.tokens[0], "--token", game.tokens[1],
             "--bot", "search:playouts=4,candidates=3,horizon=3"],
            capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert run.returncode == 0, run.stderr
        assert run.stdout.count("scores [") == 2
        assert client.spectate(game.game_id).view().game_over


def test_the_server_serves_other_requests_while_a_search_bot_searches(kingdom):
    """A search seat with a budget it cannot spend within its time limit: while it searches
    (its first buy still pending), the server answers another game's requests."""
    import threading
    options = ServiceOptions(allow_seed=True, search_playouts=10 ** 7, search_seconds=1.0,
                             max_search_seats=1)
    with LocalServer(SqliteStorage(":memory:"), options=options) as server, \
            connect(server.target) as client:
        other = client.create_game(["A", "B"], kingdom=kingdom, seed=2)
        def create():   # returns once the bot has played its turn; or the server stops
            try:
                client.create_game(["Search", "Net"], bots={0: "search"}, kingdom=kingdom,
                                   seed=9, first_player=0)
            except Exception:
                pass

        creating = threading.Thread(target=create, daemon=True)
        creating.start()
        while True:   # the search game, once the server holds it
            games = [g for g in list(server.service.games.values()) if g.bots]
            if games:
                break
        (game,) = games
        bot = game.bots[0]
        while bot.searched == 0:   # its first buy: the search starts, then runs 1 s
            client.seat(other.game_id, other.tokens[0]).view()
        number = dominion.decision_number(game.state)
        for _ in range(10):
            client.seat(other.game_id, other.tokens[0]).view()
            client.list_bots()
        assert bot.searched == 1 and dominion.decision_number(game.state) == number


def _end_turn(seat, stub) -> None:
    """End ``seat``'s phases until its turn is over (SubmitAnswer returns once the server's
    bots have answered after it: their turn too)."""
    turn = seat.view_message().turn
    while True:
        view = seat.view_message()
        if view.turn != turn or not view.HasField("decision"):
            return
        stub.SubmitAnswer(pb.SubmitAnswerRequest(
            game_id=seat.game_id, answer=pb.Answer(sequence=view.decision.sequence,
                                                   move=pb.Move(verb=pb.VERB_END_PHASE))),
            metadata=seat.metadata)


@pytest.fixture
def planning_server(monkeypatch):
    """A server whose search seats plan their Kingdom with 1,000 games (``--search-plan``),
    planned afresh here, not remembered from another test."""
    from dominion.bots import planner
    monkeypatch.setattr(planner, "_MEMO", {})
    options = ServiceOptions(allow_seed=True, search_playouts=2, search_seconds=None,
                             max_search_seats=1, search_plan=1000)
    with LocalServer(SqliteStorage(":memory:"), options=options) as server:
        yield server


def test_the_other_seats_see_a_search_seat_planning_its_kingdom_and_how_far(kingdom,
                                                                             planning_server,
                                                                             monkeypatch):
    """A search seat of a server with ``--search-plan`` plans its Kingdom at its first
    decision: meanwhile GetView and the stream say so in `waiting.planning_percent` (in steps
    of 5, never going back, a bounded number of updates, ending at 100); once it answered,
    neither does."""
    import threading
    from dominion.bots import planner

    def ends_short(self, stage: str) -> None:   # a plan may end a few games short of its budget
        if self.progress is not None:
            self.progress(min(self.played, self.budget - 30), self.budget, stage)
    monkeypatch.setattr(planner.Planner, "_report", ends_short)
    server = planning_server
    with connect(server.target) as client:
        game = client.create_game(["Ann", "Search"], bots={1: "search"}, kingdom=kingdom,
                                  seed=5, first_player=0)
        ann = client.seat(game.game_id, game.tokens[0])
        streamed: list = []   # the stream's `waiting`: (seat, planning percent or None)

        def follow() -> None:
            for update in client.spectate(game.game_id).updates():
                if update.HasField("waiting"):
                    w = update.waiting
                    streamed.append((w.player, w.planning_percent
                                     if w.HasField("planning_percent") else None))
                    if w.player == 0 and any(p is not None for _, p in streamed):
                        return   # Ann's turn again, after the bot planned
        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        turn = threading.Thread(target=_end_turn, args=(ann, client.stub), daemon=True)
        turn.start()
        read = set()   # the planning percents GetView said
        while turn.is_alive():
            waiting = ann.view_message().waiting
            if waiting.HasField("planning_percent"):
                assert waiting.player == 1
                read.add(waiting.planning_percent)
            turn.join(0.02)
        follower.join(30)
        after = ann.view_message()
        assert after.HasField("decision") and not after.waiting.HasField("planning_percent")
        assert server.service.games[game.game_id].bots[1].policy is not None   # it planned
    assert read and read <= set(range(0, 101, 5))
    planning = [p for seat, p in streamed if p is not None]
    assert planning and planning == sorted(planning) and len(planning) <= 21
    assert planning[-1] == 100
    assert all(seat == 1 for seat, p in streamed if p is not None)
    assert streamed[-1] == (0, None)   # said no longer planning


def test_a_client_cannot_raise_the_search_seats_planning_budget(kingdom):
    """The budget is the operator's: CreateGame names a bot only, and a search bot with its
    own options (as `dominion play` and `dominion bot` take them) is refused."""
    import grpc
    options = ServiceOptions(allow_seed=True, search_plan=1000)
    with LocalServer(SqliteStorage(":memory:"), options=options) as server, \
            connect(server.target) as client:
        assert "plan" not in pb.SeatSpec.DESCRIPTOR.fields_by_name
        for bot in ("search:plan=100000", "search:playouts=100000"):
            with pytest.raises(grpc.RpcError) as refused:
                client.create_game(["Ann", "Search"], bots={1: bot}, kingdom=kingdom)
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "unknown bot" in refused.value.details()
        game = client.create_game(["Ann", "Search"], bots={1: "search"}, kingdom=kingdom)
        assert server.service.games[game.game_id].bots[1].plan == 1000


def test_a_search_seat_that_plays_first_plans_after_create_game_returned(kingdom,
                                                                          planning_server):
    """The search seat takes the first turn: CreateGame does not wait for its planning (tens
    of seconds at a real budget), so the person's page can show it; the bot then plays on."""
    server = planning_server
    with connect(server.target) as client:
        game = client.create_game(["Ann", "Search"], bots={1: "search"}, kingdom=kingdom,
                                  seed=5, first_player=1)
        ann = client.seat(game.game_id, game.tokens[0])
        read = []
        view = ann.view_message()
        while not view.HasField("decision"):
            assert view.waiting.player == 1 and not view.game_over
            if view.waiting.HasField("planning_percent"):
                read.append(view.waiting.planning_percent)
            time.sleep(0.02)
            view = ann.view_message()
        assert not view.waiting.HasField("planning_percent")
        assert server.service.games[game.game_id].bots[1].policy is not None
    assert read and read == sorted(read)
