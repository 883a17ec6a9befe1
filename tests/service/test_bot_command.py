"""`dominion bot` with several seats in one process (one PlaySeats stream), against the real
server on a free loopback port: seats of one game, seats of several games, each seat's result
printed; bad combinations of --game and --token refused with a message; one seat as before."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dominion_client.client import connect
from dominion_client.commands_net import bot_seats
from dominion_service.local import LocalServer

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")


def bot(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "dominion_client.cli", "bot", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=ENV)


@pytest.fixture(scope="module")
def served():
    with LocalServer() as server, connect(server.target) as client:
        yield server.target, client


def final_view(client, game_id):
    view = client.spectate(game_id).view()
    assert view.game_over
    return view


def test_one_process_plays_every_network_seat_of_several_games(served, kingdom):
    target, client = served
    two = client.create_game(["A", "B"], kingdom=kingdom, seed=11)
    three = client.create_game(["C", "Bot", "D"], bots={1: "big-money"}, kingdom=kingdom,
                               seed=12)
    seats = [(two.game_id, 0), (three.game_id, 2), (two.game_id, 1), (three.game_id, 0)]
    args = ["--server", target, "--bot", "big-money", "--seed", "5"]
    for game_id, seat in seats:
        token = (two if game_id == two.game_id else three).tokens[seat]
        args += ["--game", game_id, "--token", token]
    run = bot(*args)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(seats)
    for line, (game_id, seat) in zip(lines, seats):
        view = final_view(client, game_id)
        outcome = "wins" if seat in view.winners else "does not win"
        assert line == (f"game {game_id}, seat {seat}: scores {list(view.scores)}, winners "
                        f"{list(view.winners)}; this seat {outcome}")


def test_one_game_and_several_tokens_are_seats_of_that_game(served, kingdom):
    target, client = served
    game = client.create_game(["A", "B", "C"], kingdom=kingdom, seed=21)
    run = bot("--server", target, "--game", game.game_id, "--token", game.tokens[2],
              "--token", game.tokens[0], "--token", game.tokens[1])
    assert run.returncode == 0, run.stderr
    view = final_view(client, game.game_id)
    assert [line.split(":")[0] for line in run.stdout.splitlines()] == [
        f"game {game.game_id}, seat {seat}" for seat in (2, 0, 1)]
    assert f"scores {list(view.scores)}" in run.stdout


def test_one_seat_prints_as_before(served, kingdom):
    target, client = served
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=31)
    run = bot("--server", target, "--game", game.game_id, "--token", game.tokens[0])
    assert run.returncode == 0, run.stderr
    view = final_view(client, game.game_id)
    outcome = "wins" if 0 in view.winners else "does not win"
    assert run.stdout == (f"game over: scores {list(view.scores)}, winners "
                          f"{list(view.winners)}; this seat (0) {outcome}\n")


def test_a_wrong_token_or_game_among_several_seats_is_named_before_any_play(served, kingdom):
    target, client = served
    game = client.create_game(["A", "B"], kingdom=kingdom, seed=41)
    run = bot("--server", target, "--game", game.game_id, "--token", game.tokens[0],
              "--token", "not-a-token")
    assert run.returncode == 1
    assert f"seat 2 (game {game.game_id}): PERMISSION_DENIED" in run.stderr
    run = bot("--server", target, "--game", game.game_id, "--token", game.tokens[0],
              "--game", "nosuchgame", "--token", game.tokens[1])
    assert run.returncode == 1
    assert "seat 2 (game nosuchgame): NOT_FOUND" in run.stderr
    assert client.spectate(game.game_id).view_message().sequence == 0    # nobody played


@pytest.mark.parametrize("args, words", [
    (["--game", "g1", "--game", "g2", "--token", "a", "--token", "b", "--token", "c"],
     "give one --game for every --token (paired in order), or one --game for all of them; "
     "not 2 --game and 3 --token"),
    (["--game", "g1", "--game", "g2", "--token", "a"], "not 2 --game and 1 --token"),
    (["--game", "g1", "--token", "a", "--token", "b", "--token", "a"],
     "seat 3 is seat 1 again"),
    (["--game", "g1", "--token", "a", "--token", ""], "seat 2: --game and --token must not"),
])
def test_bad_combinations_of_games_and_tokens_are_refused_with_a_message(args, words):
    run = bot("--server", "127.0.0.1:9", *args, timeout=30)
    assert run.returncode == 2
    assert run.stderr.startswith("dominion bot: ") and words in run.stderr
    assert run.stderr.count("\n") == 1 and run.stdout == ""   # one line, no traceback


def test_seats_pair_games_and_tokens_in_order():
    assert bot_seats(["g"], ["a"]) == [("g", "a")]
    assert bot_seats(["g"], ["a", "b"]) == [("g", "a"), ("g", "b")]
    assert bot_seats(["g", "h", "g"], ["a", "b", "b"]) == [("g", "a"), ("h", "b"), ("g", "b")]
    assert bot_seats(["g"], [""]) == [("g", "")]   # one seat: the server says what is wrong
    with pytest.raises(ValueError, match="at most 1024 seats"):
        bot_seats(["g"], [str(n) for n in range(1025)])


def test_help_describes_several_seats():
    run = subprocess.run([sys.executable, "-m", "dominion_client.cli", "bot", "--help"],
                         capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=30)
    text = re.sub(r"\s+", " ", run.stdout)
    assert "one --game per --token, paired in order" in text
    assert "repeat it to play several seats" in text
