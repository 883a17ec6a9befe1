"""Bots of your own everywhere: one resolver (built-in name, strategy file, or
package.module:Class) behind simulate, tournament, play and bot; and the examples/ folder, each
example run."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dominion
import dominion.bots
from dominion.simulate import simulate, tournament

ROOT = Path(__file__).resolve().parents[2]
CLASS_BOT = "examples.smithy_bot:SmithyBot"
ENV = dict(os.environ)   # the examples are found from the current folder, as a user runs them


def cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "dominion_client.cli", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, env=ENV, **kw)


def test_a_python_class_is_a_bot_for_the_simulator():
    summary = simulate([CLASS_BOT, "big-money"], 8, seed=3, workers=1)
    assert summary["errors"] == 0 and summary["bots"][0]["bot"] == "smithy-class"
    assert dominion.bots.bot_kingdom_cards(CLASS_BOT) == ("Smithy",)


def test_the_example_strategy_file_and_class_play_in_the_cli():
    run = cli("simulate", "--games", "6", "--workers", "1", "--seed", "2",
              "--bots", f"{CLASS_BOT},examples/priority.toml")
    assert run.returncode == 0, run.stderr
    assert "smithy-class" in run.stdout and "village-smithy" in run.stdout


@pytest.mark.parametrize("spec,words", [
    ("no_such_module:Bot", "cannot import"), ("examples.smithy_bot:Nope", "no class"),
    ("dominion.state:Move", "no answer"), ("nonexistent-bot", "unknown bot")])
def test_a_bot_that_cannot_be_resolved_is_refused_by_name(spec, words):
    with pytest.raises(ValueError, match=words):
        dominion.bots.make_bot(spec)
    run = cli("simulate", "--games", "2", "--bots", f"{spec},big-money")
    assert run.returncode == 2 and words in run.stderr


def test_a_tournament_labels_every_bot_uniquely_and_plays_one_kingdom(tmp_path):
    other = tmp_path / "priority.toml"           # same strategy name as the example's
    other.write_text((ROOT / "examples" / "priority.toml").read_text())
    result = tournament(["examples/priority.toml", str(other), "witch-big-money"], 4, seed=1,
                        workers=1)
    assert result["bots"] == ["village-smithy", "village-smithy#2", "witch-big-money"]
    assert len({tuple(m["kingdom"]) if isinstance(m["kingdom"], list) else m["kingdom"]
                for m in result["matches"]}) == 1
    assert "Witch" in result["kingdom"]
    assert set(result["ties"]["village-smithy"]) == {"village-smithy#2", "witch-big-money"}


def test_play_uses_the_default_kingdom_rule_and_plays_class_bots(tmp_path):
    """`play --bots witch-big-money` is on a Kingdom with a Witch (the one default rule), and
    a class bot plays its seat from this process."""
    answers = "\n".join(["end"] * 400) + "\n"
    run = cli("play", "--bots", f"witch-big-money,{CLASS_BOT}", "--seed", "5", "--record", "-",
              input=answers)
    assert "Witch" in run.stdout.split("Your hand", 1)[0], run.stdout[:2000]
    assert "smithy-class" in run.stdout


def test_bot_command_takes_a_class_bot():
    from dominion_client.client import connect
    from dominion_service.local import LocalServer
    with LocalServer() as server, connect(server.target) as client:
        game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom="First Game")
        run = cli("bot", "--server", server.target, "--game", game.game_id, "--token",
                  game.tokens[0], "--bot", CLASS_BOT)
        assert run.returncode == 0, run.stderr
        assert "game over" in run.stdout


def test_the_network_bot_example_plays_a_seat():
    from dominion_client.client import connect
    from dominion_service.local import LocalServer
    with LocalServer() as server, connect(server.target) as client:
        game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom="First Game")
        run = subprocess.run([sys.executable, "examples/network_bot.py", server.target,
                              game.game_id, game.tokens[0], CLASS_BOT], capture_output=True,
                             text=True, cwd=ROOT, timeout=120, env=ENV)
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith("scores ")
        assert client.spectate(game.game_id).view().game_over
