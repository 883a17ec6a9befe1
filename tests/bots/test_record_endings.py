"""A record says how its game ended (over, abandoned, cut short) with its answer count, and
`dominion replay` of a game that did not end says so, with the scores so far and no winner."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import dominion
from dominion.simulate import Setup, labels_for, play_game

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "dominion_client.cli", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def unfinished(answers: int = 12):
    """A First Game played by answering each decision with its first move, ``answers`` times."""
    state = dominion.new_game(players=["Me", "Bot"], kingdom="First Game", seed=3)
    for _ in range(answers):
        d = dominion.pending(state)
        state = dominion.step(state, d.moves[0] if d.moves else (), d.player)
    return state


def test_a_record_says_how_its_game_ended_and_how_many_answers_it_holds():
    state = unfinished()
    assert dominion.ending(state) == "cut short"
    assert dominion.ending(state, abandoned=True) == "abandoned"
    data = dominion.record_to_data(dominion.record(state), dominion.ending(state))
    assert (data["ended"], data["answer_count"]) == ("cut short", 12)
    assert dominion.record_from_data(json.dumps(data)) == dominion.record(state)
    with pytest.raises(dominion.InvalidConfigError, match="a game ends 'over' or"):
        dominion.record_to_data(dominion.record(state), "finished")


def test_a_record_cut_in_two_is_refused_by_its_answer_count():
    data = dominion.record_to_data(dominion.record(unfinished()), "cut short")
    data["answers"] = data["answers"][:5]
    with pytest.raises(dominion.InvalidConfigError, match="holds 5 answers of the 12"):
        dominion.record_from_data(data)


def test_a_simulated_game_cut_short_by_the_decision_limit_keeps_a_record_that_says_so():
    bots = ("big-money", "random")
    setup = Setup(bots, labels_for(bots), "First Game", None, 5, True)
    result = play_game(setup, 0, max_decisions=30)
    assert "did not end within 30 decisions" in result["error"]
    assert result["record"]["ended"] == "cut short"
    assert result["record"]["answer_count"] == 30
    assert play_game(setup, 0)["record"]["ended"] == "over"


def test_replay_of_a_game_that_did_not_end_names_no_winner(tmp_path):
    state = unfinished()
    for ended, how in (("abandoned", "abandoned, "), ("cut short", "cut short, "),
                       (None, "")):
        data = dominion.record_to_data(dominion.record(state), ended)
        path = tmp_path / "game.json"
        path.write_text(json.dumps(data))
        run = cli("replay", str(path))
        assert run.returncode == 0, run.stderr
        scores = ", ".join(f"{n} {v}" for n, v in zip(("Me", "Bot"), dominion.score(state)))
        assert run.stdout.splitlines()[-1] == (
            f"The game did not end ({how}after 12 answers); scores so far: {scores}")
        assert "winner" not in run.stdout and "The game is over." not in run.stdout


def test_replay_refuses_a_record_that_says_over_when_its_answers_do_not_end_the_game(tmp_path):
    data = dominion.record_to_data(dominion.record(unfinished()), "over")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    run = cli("replay", str(path))
    assert run.returncode == 2
    assert "says its game is over, but its 12 answers do not end it" in run.stderr
