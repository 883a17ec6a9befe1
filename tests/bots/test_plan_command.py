"""`dominion plan`: a strategy file and a picture written whole, the table printed, the cache
answering a second run at once, and bad input refused before any game or file."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree

import pytest

from dominion.bots import load_strategy
from dominion_client.cli import main


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("DOMINION_PLAN_CACHE", str(folder))
    return folder


def _plan(tmp_path, *more):
    return main(["plan", "First Game", "--budget", "1000", "--workers", "1",
                 "--out", str(tmp_path / "first.toml"), *more])


def test_a_plan_is_written_as_a_strategy_file_with_its_picture_and_table(tmp_path, cache,
                                                                         capsys):
    assert _plan(tmp_path) == 0
    out = capsys.readouterr().out
    assert "Plan: " in out and "mixture" in out and "league: #1" in out
    assert "Leader by generation: 0: " in out
    strategy = load_strategy(tmp_path / "first.toml")   # a file every command reads
    assert strategy.buy
    picture = ElementTree.parse(tmp_path / "first.svg").getroot()
    assert picture.tag.endswith("svg")
    assert any(e.tag.endswith("polyline") for e in picture.iter())
    assert len(list(cache.glob("*.json"))) == 1


def test_a_second_run_comes_from_the_cache_with_the_same_plan(tmp_path, cache, capsys):
    assert _plan(tmp_path) == 0
    first = (tmp_path / "first.toml").read_text()
    capsys.readouterr()
    assert _plan(tmp_path, "--overwrite") == 0
    assert "planned from the cache" in capsys.readouterr().out
    assert (tmp_path / "first.toml").read_text() == first
    assert _plan(tmp_path, "--overwrite", "--no-cache", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cached"] is False and data["plan"] == first
    assert data["finalists"][0]["label"] == data["label"]


def test_an_existing_file_is_refused_before_any_game(tmp_path, cache, capsys):
    (tmp_path / "first.toml").write_text("kept")
    assert _plan(tmp_path) == 2
    err = capsys.readouterr().err
    assert "the file exists; give --overwrite to replace it" in err and "--append" not in err
    assert (tmp_path / "first.toml").read_text() == "kept"
    assert not cache.exists()   # nothing was planned


@pytest.mark.parametrize("args, words", [
    (["plan", "Smithy"], "Kingdom"),
    (["plan", "First Game", "--players", "7"], "players must be 2 to 6"),
    (["plan", "First Game", "--budget", "10"], "at least 1000"),
])
def test_bad_input_gets_a_clear_error_and_writes_nothing(tmp_path, cache, capsys, args, words,
                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        code = main(args)
    except SystemExit as exc:   # argparse's own refusal
        code = exc.code
    assert code == 2
    assert words in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# No Attack and no question that "1" cannot answer (the test answers every question with "1").
PEACEFUL = ("Village,Smithy,Market,Festival,Laboratory,Moat,Merchant,Workshop,Gardens,"
            "Council Room")


def test_dominion_play_plans_the_kingdom_for_its_search_bot(tmp_path, cache):
    """`dominion play --bots search` plans the Kingdom before the game (here with a small
    budget) and keeps the plan in the cache; the game is then played to its end."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONUNBUFFERED="1", DOMINION_PLAN_CACHE=str(cache))
    proc = subprocess.run(
        [sys.executable, "-m", "dominion_client.cli", "play", "--bots", "search:playouts=2",
         "--kingdom", PEACEFUL, "--seed", "7", "--plan-budget", "1000"],
        input="1\n" * 5000, capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Game over." in proc.stdout
    assert len(list(cache.glob("*.json"))) == 1


def test_the_search_bot_plays_the_plan_made_for_its_kingdom():
    """A search bot with ``plan`` plays the plan `planned` gives for its Kingdom: its own buys
    and its seat in rollouts (here one remembered for the Kingdom, as `dominion play` hands it
    over)."""
    import dominion
    from dominion.bots import SearchBot
    from dominion.bots.planner import Want, money_plan, remember_plan
    kingdom = dominion.RECOMMENDED["First Game"][1]
    plan = money_plan(Want("Moat", 3))
    remember_plan(kingdom, 2, 1234, 0, plan.toml())
    bot = SearchBot(1, playouts=2, plan=1234)
    state = dominion.new_game(players=2, kingdom=list(kingdom), seed=1)
    bot.answer_state(state) if dominion.pending(state).player == 0 else None
    assert bot._policy_for(kingdom, 2).strategy.name == plan.label
    with pytest.raises(ValueError, match="plan must be 0"):
        SearchBot(1, plan=10)
    with pytest.raises(ValueError, match="not both"):
        SearchBot(1, plan=2000, rollout="big-money")
