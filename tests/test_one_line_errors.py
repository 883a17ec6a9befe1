"""Bad input gets one clear line naming what is wrong: `dominion replay` of a bad game number,
a binary file or a broken record; the engine's score_by_card, new_game's sets, log_lines; a
mistyped bot class; the network bot example against no server, a bad game or token."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import dominion
import dominion.bots

ROOT = Path(__file__).resolve().parents[1]


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "dominion_client.cli", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def one_line(run, *words):
    assert run.returncode == 2, (run.returncode, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    for w in words:
        assert w in lines[0], lines[0]


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    path = tmp_path_factory.mktemp("records") / "games.jsonl"
    run = cli("simulate", "--games", "2", "--bots", "big-money,random", "--seed", "2",
              "--workers", "1", "--records", str(path))
    assert run.returncode == 0, run.stderr
    return path


def test_replay_says_a_game_number_is_not_one(records):
    for bad in ("abc", "-1"):
        one_line(cli("replay", f"{records}:{bad}"), f"{bad!r} after {records}: is not a game "
                 "number")


def test_replay_of_a_binary_file_names_it(tmp_path):
    binary = tmp_path / "game.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    one_line(cli("replay", str(binary)), f"{binary} is not a records file", "not text")


@pytest.mark.parametrize("key, value, words", [
    ("players", 9, "its config's players must be a list of names, not 9"),
    ("kingdom", "Smithy", "its config's kingdom must be a list of names"),
    ("seed", None, "a seed is an integer from 0 to 2**64 - 1, not None")])
def test_replay_of_a_record_with_a_broken_config_says_which_part(records, tmp_path, key, value,
                                                                   words):
    data = json.loads(records.read_text().splitlines()[0])
    data["config"][key] = value
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    one_line(cli("replay", str(broken)), words)
    assert "TypeError" not in cli("replay", str(broken)).stderr


def test_score_by_card_refuses_an_unknown_card_by_name():
    with pytest.raises(dominion.UnknownCardError, match="unknown card 'Platinum'"):
        dominion.score_by_card(["Platinum", "Copper"])


def test_sets_may_be_one_comma_separated_string():
    state = dominion.new_game(sets="base-2e", kingdom="random", seed=3)
    assert all("base-2e" in dominion.CARDS[c].editions for c in state.config.kingdom)
    two = dominion.new_game(sets="base-2e, intrigue-2e", kingdom="random", seed=3)
    assert len(two.config.kingdom) == 10
    with pytest.raises(dominion.InvalidKingdomError, match="unknown set 'base2e' \\(did you "
                                                           "mean 'base-2e'\\?\\)"):
        dominion.new_game(sets="base2e", kingdom="random")


def test_a_mistyped_bot_class_gets_a_did_you_mean():
    with pytest.raises(ValueError, match="has no class 'StrategyBoy' \\(did you mean "
                                         "'StrategyBot'\\?\\)"):
        dominion.bots.make_bot("dominion.bots:StrategyBoy")


def test_log_lines_wants_a_name_per_seat_and_a_whole_game_number():
    state = dominion.new_game(players=3, seed=1)
    with pytest.raises(dominion.InvalidConfigError, match="player_names has 2 names"):
        dominion.log_lines(state.log, ["A", "B"])
    for bad in ("x", -1, 1.5, True):
        with pytest.raises(dominion.InvalidConfigError, match="game_number must be a whole"):
            dominion.log_lines(state.log, ["A", "B", "C"], style="dominion-online",
                               game_number=bad)
    assert dominion.log_lines(state.log, ["A", "B", "C"], style="dominion-online",
                              game_number=4)[0] == "Game #4, unrated."


def test_replay_help_says_which_style_prints_the_scores():
    text = " ".join(cli("replay", "--help").stdout.split())
    assert "in the engine's words (the default --style), then the scores" in text


def test_the_network_bot_example_says_in_one_line_what_is_wrong():
    from dominion_client.client import connect
    from dominion_service.local import LocalServer

    def network_bot(*args):
        return subprocess.run([sys.executable, "examples/network_bot.py", *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
    closed = network_bot("127.0.0.1:9", "game", "token")
    assert closed.returncode == 2 and "Traceback" not in closed.stderr
    assert closed.stderr.strip() == "network_bot: 127.0.0.1:9: no Dominion server answers there"
    with LocalServer() as server, connect(server.target) as client:
        game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom="First Game")
        for game_id, token, words in (("nope", game.tokens[0], "NOT_FOUND"),
                                      (game.game_id, "wrong", "PERMISSION_DENIED")):
            run = network_bot(server.target, game_id, token)
            assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
            assert run.stderr.startswith(f"network_bot: {words}")
            assert len(run.stderr.strip().splitlines()) == 1
