"""``dominion play``: a person plays in the terminal over gRPC; answers by number or name, and a
bad answer gets a message and the question again."""
from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dominion
from dominion_client.client import connect
from dominion_client.terminal import BadAnswer, TerminalGame, parse_answer

ROOT = Path(__file__).resolve().parents[2]

BUY_PHASE = dominion.Decision(0, dominion.TURN, "Buy phase", moves=(
    dominion.Move("play_treasures"), dominion.Move("play", "Copper"), dominion.Move("buy", "Copper"),
    dominion.Move("buy", "Silver"), dominion.Move("end_phase")), min=1, max=1)
DISCARD = dominion.Decision(0, dominion.SELECT, "Discard", "Cellar", "discard",
                            cards=("Copper", "Copper", "Estate"), min=0, max=3)


def test_turn_answer_by_number_label_or_unique_card():
    assert parse_answer(BUY_PHASE, "4", "buy") == dominion.Move("buy", "Silver")
    assert parse_answer(BUY_PHASE, "Buy Silver", "buy") == dominion.Move("buy", "Silver")
    assert parse_answer(BUY_PHASE, "silver", "buy") == dominion.Move("buy", "Silver")
    assert parse_answer(BUY_PHASE, "end your turn", "buy") == dominion.Move("end_phase")


@pytest.mark.parametrize("text", ["0", "6", "Province", "Copper", ""])
def test_turn_answer_that_names_no_single_move_is_refused(text):
    with pytest.raises(BadAnswer):
        parse_answer(BUY_PHASE, text, "buy")


def test_select_answer_by_numbers_or_names_each_item_once():
    assert parse_answer(DISCARD, "1 3") == ("Copper", "Estate")
    assert parse_answer(DISCARD, "Copper, copper") == ("Copper", "Copper")
    assert parse_answer(DISCARD, "") == ()
    for bad in ("1 1", "Copper, Copper, Copper", "Gold"):
        with pytest.raises(BadAnswer):
            parse_answer(DISCARD, bad)


def test_terminal_game_rejects_bad_answers_then_plays_to_the_end(client, kingdom):
    game = client.create_game(["Me", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=51)
    answers = itertools.chain(["bogus", "99"], itertools.repeat("1"))
    out = io.StringIO()
    result = TerminalGame(client.seat(game.game_id, game.tokens[0]),
                          input_fn=lambda prompt: next(answers), out=out).run()
    text = out.getvalue()
    assert "Bad answer: 'bogus' is not a legal move" in text
    assert "Bad answer: 99 is not one of the numbers" in text
    assert "Hand: " in text and "Copper $0 (" in text and "Game over." in text
    assert result.winners


def test_dominion_play_command_through_stdin(kingdom, tmp_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.run(
        [sys.executable, "-m", "dominion_client.cli", "play", "--bots", "big-money",
         "--kingdom", ",".join(kingdom), "--seed", "7", "--name", "Tester",
         "--record", str(tmp_path / "game.json")],
        input="nonsense\n" + "1\n" * 3000, capture_output=True, text=True, timeout=60, cwd=ROOT,
        env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Bad answer: 'nonsense' is not a legal move" in proc.stdout
    assert "Game over." in proc.stdout and "Tester:" in proc.stdout
    assert (tmp_path / "game.json").exists()   # the record, where --record put it


def test_dominion_serve_and_dominion_bot_play_a_game_in_other_processes(tmp_path, kingdom):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    db = tmp_path / "games.db"
    server = subprocess.Popen(
        [sys.executable, "-m", "dominion_client.cli", "serve", "--port", "0", "--no-web",
         "--db", str(db)],
        stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        line = server.stdout.readline()
        assert "listening on 127.0.0.1:" in line
        target = line.split("listening on ", 1)[1].split()[0]
        with connect(target) as client:
            game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom)
            bot = subprocess.run(
                [sys.executable, "-m", "dominion_client.cli", "bot", "--server", target,
                 "--game", game.game_id, "--token", game.tokens[0], "--bot", "big-money"],
                capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
            assert bot.returncode == 0, bot.stderr
            assert "game over: scores" in bot.stdout
            assert client.spectate(game.game_id).view().game_over
    finally:
        server.terminate()
        assert server.wait(10) == 0
    assert db.exists()


def test_terminal_shows_which_cards_and_seat_a_question_is_about():
    from dominion_client.client import PendingDecision
    from tests.support import at, play
    s = play(at("Spy", players=2, hands=[["Spy"], []], decks=[["Copper", "Estate"], ["Gold"]]),
             "Spy")
    s = dominion.step(s, "yes")  # the attacker's own Estate
    d = dominion.pending(s)
    answered = []

    class Seat:
        def answer(self, pending, answer):
            answered.append(answer)

    out = io.StringIO()
    TerminalGame(Seat(), input_fn=lambda prompt: "1", out=out).ask(
        PendingDecision(dominion.decision_number(s), d, dominion.view(s, 0), None))
    assert "about: a Gold (Player 2)" in out.getvalue()
    assert answered == [("yes",)]
