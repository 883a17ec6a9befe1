"""The search bot as a server-side seat: listed by ListBots, played with the server's budget in
its thread pool (the event loop serves on), a whole game against a network seat; refused by
`dominion bot`, which sees only views."""
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


def test_the_bot_command_refuses_the_search_bot_with_a_reason():
    run = subprocess.run([sys.executable, "-m", "dominion_client.cli", "bot", "--server",
                          "127.0.0.1:1", "--game", "g", "--token", "t", "--bot", "search"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 2
    assert "needs the game's state" in run.stderr


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
