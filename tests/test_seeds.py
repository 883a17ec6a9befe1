"""One seed range everywhere, 0 to 2**64 - 1: the engine, the CLI and the wire (uint64) agree,
and refuse what does not fit, so a seed names the same game in every door."""
import subprocess
import sys
from pathlib import Path

import pytest

import dominion
from tests.support import zone

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 2 ** 70, True, 1.0, "7"])
def test_the_engine_refuses_a_seed_outside_the_range(seed):
    with pytest.raises(dominion.InvalidConfigError, match="0 to 2\\*\\*64 - 1"):
        dominion.new_game(seed=seed)


def test_the_largest_seed_is_a_game():
    assert dominion.new_game(seed=2 ** 64 - 1).config.seed == 2 ** 64 - 1


@pytest.mark.parametrize("seed", ["-1", str(2 ** 64), "x"])
def test_the_cli_refuses_a_seed_outside_the_range(seed):
    out = subprocess.run([sys.executable, "-m", "dominion_client.cli", "simulate", "--games",
                          "2", "--bots", "big-money,random", "--seed", seed],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 2 and "is not a seed" in out.stderr


def test_a_seed_above_2_63_is_the_same_game_over_the_wire():
    from dominion_client.client import connect
    from dominion_service.local import LocalServer
    seed = 2 ** 64 - 5
    local = dominion.new_game(players=["A", "B"], kingdom="First Game", seed=seed)
    with LocalServer() as server, connect(server.target) as client:
        game = client.create_game(["A", "B"], kingdom="First Game", seed=seed)
        assert game.first_player == local.config.first_player
        seat = client.seat(game.game_id, game.tokens[local.config.first_player])
        assert seat.view().players[local.config.first_player].hand == \
            tuple(sorted(zone(local, "hand", local.config.first_player)))
