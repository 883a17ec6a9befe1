"""The community's long-standing simulation results hold (seeded runs, asserted with margins
well inside what the seeds give)."""
from dominion.simulate import simulate


def _rates(bots, games, seed):
    summary = simulate(bots, games, seed=seed, workers=2)
    assert summary["errors"] == 0, summary["failed"]
    return {b["bot"]: b for b in summary["bots"]}


def test_smithy_big_money_beats_big_money_clearly():
    r = _rates(("smithy-big-money", "big-money"), 200, seed=11)
    assert r["smithy-big-money"]["win_rate"] > 0.75
    assert r["smithy-big-money"]["ci95"][0] > r["big-money"]["ci95"][1]


def test_witch_big_money_beats_smithy_big_money_in_two_player_games():
    r = _rates(("witch-big-money", "smithy-big-money"), 200, seed=12)
    assert r["witch-big-money"]["win_rate"] > 0.6
    assert r["witch-big-money"]["ci95"][0] > r["smithy-big-money"]["ci95"][1]


def test_big_money_ultimate_beats_big_money():
    r = _rates(("big-money-ultimate", "big-money"), 300, seed=13)
    assert r["big-money-ultimate"]["ci95"][0] > r["big-money"]["ci95"][1]
