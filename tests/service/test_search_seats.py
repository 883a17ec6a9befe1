"""The search bot as a server-side seat (listed by ListBots, played with the server's budget in
its thread pool, the event loop serving on; a whole game against a network seat) and as a
network client (`dominion bot`, from its seat's views)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
