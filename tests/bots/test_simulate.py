"""The simulator: reproducible whatever the worker count, seats rotated, statistics honest,
broken games counted, and the command line's output."""
import json

import pytest

import dominion
from dominion.bots import default_kingdom
from dominion.simulate import SimulationError, seating, simulate, tournament, wilson
from dominion_client.cli import main


def _games(summary):
    return [(r["seed"], tuple(r["bots"]), tuple(r["scores"]), tuple(r["winners"]), r["turns"])
            for r in summary["results"]]


def test_the_same_seed_gives_the_same_results_whatever_the_workers():
    one = simulate(("smithy-big-money", "big-money"), 12, seed=5, workers=1)
    two = simulate(("smithy-big-money", "big-money"), 12, seed=5, workers=2)
    assert _games(one) == _games(two) and one["wins"] == two["wins"]
    other = simulate(("smithy-big-money", "big-money"), 12, seed=6, workers=1)
    assert _games(other) != _games(one)


def test_seats_rotate_so_each_bot_starts_equally_often():
    assert [seating(i, 3) for i in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    summary = simulate(("big-money", "random", "big-money-ultimate"), 6, seed=1, workers=1)
    firsts = [r["bots"][0] for r in summary["results"]]
    assert sorted(firsts) == sorted(["big-money", "random", "big-money-ultimate"] * 2)


def test_identical_bots_get_distinct_labels_and_mirror_games():
    summary = simulate(("big-money", "big-money"), 8, seed=3, workers=1)
    assert set(summary["wins"]) == {"big-money", "big-money#2"}
    assert summary["wins"]["big-money"] == summary["wins"]["big-money#2"]


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(0, 0) == (0.0, 1.0)


def test_default_kingdom_holds_the_cards_the_strategies_buy():
    assert default_kingdom(("big-money", "random")) == "First Game"
    assert default_kingdom(("smithy-big-money", "big-money")) == "First Game"
    kingdom = default_kingdom(("witch-big-money", "torturer-big-money"))
    assert "Witch" in kingdom and "Torturer" in kingdom and len(kingdom) == 10
    dominion.make_config(2, kingdom)


def test_a_game_that_raises_is_counted_in_errors_with_its_seed(monkeypatch):
    import dominion.game as game
    real = game.step
    calls = {"n": 0}

    def flaky(state, answer, player=None):
        calls["n"] += 1
        if calls["n"] == 30:
            raise RuntimeError("boom")
        return real(state, answer, player)
    monkeypatch.setattr(game, "step", flaky)
    summary = simulate(("big-money", "big-money"), 3, seed=9, workers=1)
    assert summary["errors"] == 1 and summary["failed"][0]["index"] == 0
    assert "boom" in summary["failed"][0]["error"]
    assert summary["failed"][0]["seed"] == summary["results"][0]["seed"]
    assert sum(b["games"] for b in summary["bots"][:1]) == 2


def test_bad_requests_fail_before_any_game():
    with pytest.raises(SimulationError):
        simulate(("big-money",), 2)
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(("big-money", "no-such-bot"), 2)
    with pytest.raises(dominion.DominionError):
        simulate(("big-money", "big-money"), 2, kingdom="Nowhere")


def test_simulate_json_has_the_documented_keys(capsys):
    assert main(["simulate", "--games", "4", "--bots", "big-money,random", "--seed", "2",
                 "--json", "--workers", "1", "--kingdom", "random", "--sets",
                 "intrigue-2e"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("games", "seed", "wins", "ties", "errors", "games_per_second", "results",
                "bots"):
        assert key in out
    assert out["games"] == 4 and out["seed"] == 2 and set(out["wins"]) == {"big-money", "random"}
    for game in out["results"]:
        assert {"seed", "kingdom", "scores", "winners", "turns"} <= set(game)
        assert set(game["kingdom"]) <= set(dominion.kingdom_pool(["intrigue-2e"]))


def test_simulate_prints_win_rates_with_confidence_intervals(capsys):
    assert main(["simulate", "--games", "4", "--bots", "smithy-big-money,big-money",
                 "--seed", "1", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "95% CI" in out and "smithy-big-money" in out and "games/s" in out


def test_tournament_plays_every_pair(capsys):
    result = tournament(("big-money", "random", "big-money-ultimate"), 2, seed=1, workers=1)
    assert len(result["matches"]) == 3 and set(result["table"]["random"]) == {
        "big-money", "big-money-ultimate"}
    assert main(["tournament", "--bots", "big-money,random", "--games", "2", "--seed", "1",
                 "--workers", "1"]) == 0
    assert "average" in capsys.readouterr().out


def test_kingdoms_lists_every_recommended_set(capsys):
    assert main(["kingdoms", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == list(dominion.RECOMMENDED)
    assert all(len(r["cards"]) == 10 and r["sets"] for r in rows)


def test_each_command_has_help(capsys):
    for command in ("simulate", "kingdoms", "tournament"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "usage" in capsys.readouterr().out
