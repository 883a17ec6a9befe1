"""The paired speed suite against pyminion (a mutable pure-Python Dominion engine), one core, one
run: the same games on both engines, with each side's own bots, in alternating rounds (ours,
theirs, ours, ...) so that a busy machine slows both alike.

Games: Big Money vs Big Money (2 players); Big Money with Smithy in both seats (2 players, the
buys of pyminion's BigMoneySmithy, `bench/strategies/smithy-big-money-pyminion.toml`); Big
Money (4 players); and an Attack game, Big Money with a Bandit and Smithies (3 players, the
buys of pyminion's BanditBot, `bench/strategies/bandit-big-money.toml`). Where a built-in bot
of ours plays another strategy than pyminion's example, a strategy file plays theirs, so that
both engines play games of about the same length. Each on the First Game
Kingdom (with Bandit instead of Workshop for the last). For each game: games per second of each
side, the median of the per-round ratios (ours / theirs), and rounds of turns per second of
each side (the two engines' bots may play games of different lengths).

``--engine-only`` shows what our bots and their views cost: our side replays the records of the
same games (`dominion.replay`: `new_game`, then `step` with each answer), timed without the
bots, while pyminion's side still plays whole games with its bots. Its ratio is the most the
whole game's ratio could reach with bots that cost nothing.

    .venv/bin/pip install -e '.[bench]'     # pyminion (0.4.0; the dev extra has it too)
    .venv/bin/python bench/suite.py [--games N] [--rounds R] [--engine-only]
"""
from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dominion  # noqa: E402
from dominion.simulate import Setup, labels_for, play_game  # noqa: E402

try:
    from pyminion.bots.examples import BanditBot, BigMoney, BigMoneySmithy
    from pyminion.expansions import base
    from pyminion.game import Game
except ImportError:  # pragma: no cover
    raise SystemExit("pyminion is not installed: .venv/bin/pip install -e '.[bench]'")

FIRST_GAME = ("Cellar", "Market", "Merchant", "Militia", "Mine", "Moat", "Remodel", "Smithy",
              "Village", "Workshop")
WITH_BANDIT = FIRST_GAME[:-1] + ("Bandit",)   # Workshop out, Bandit in
BANDIT = str(ROOT / "bench" / "strategies" / "bandit-big-money.toml")
SMITHY = str(ROOT / "bench" / "strategies" / "smithy-big-money-pyminion.toml")

# (label, our bots by seat, their bot class, Kingdom)
GAMES = (
    ("Big Money, 2 players", ("big-money",) * 2, BigMoney, FIRST_GAME),
    ("Big Money with Smithy, 2 players", (SMITHY,) * 2, BigMoneySmithy, FIRST_GAME),
    ("Big Money, 4 players", ("big-money",) * 4, BigMoney, FIRST_GAME),
    ("Bandit (an Attack), 3 players", (BANDIT,) * 3, BanditBot, WITH_BANDIT),
)


def ours(bots, kingdom, games: int, start: int) -> tuple:
    """(seconds, rounds) of ``games`` of our games (a round: every player takes a turn)."""
    setup = Setup(bots, labels_for(bots), kingdom, None, 7)
    turns = 0
    t = time.perf_counter()
    for i in range(start, start + games):
        result = play_game(setup, i)
        if "error" in result:
            raise SystemExit(f"our game {i} failed: {result['error']}")
        turns += result["turns"] / len(bots)   # rounds, as pyminion counts its turns
    return time.perf_counter() - t, turns


def ours_replayed(bots, kingdom, games: int, start: int) -> tuple:
    """(seconds, rounds) of replaying the records of the ``games`` games `ours` plays: the
    engine alone. The games are played (untimed) first, to record their answers."""
    setup = Setup(bots, labels_for(bots), kingdom, None, 7, records=True)
    records, turns = [], 0
    for i in range(start, start + games):
        result = play_game(setup, i)
        if "error" in result:
            raise SystemExit(f"our game {i} failed: {result['error']}")
        records.append(dominion.record_from_data(result["record"]))
        turns += result["turns"] / len(bots)
    t = time.perf_counter()
    for rec in records:
        dominion.replay(rec)
    return time.perf_counter() - t, turns


def theirs(bot, players: int, kingdom, games: int, start: int) -> tuple:
    """(seconds, rounds) of ``games`` of pyminion's games (its `GameResult.turns`)."""
    cards = [getattr(base, name.lower().replace(" ", "_")) for name in kingdom]
    turns = 0
    t = time.perf_counter()
    for i in range(start, start + games):
        random.seed(i)
        game = Game(players=[bot(f"p{k}") for k in range(players)],
                    expansions=[base.base_set], kingdom_cards=cards, log_stdout=False)
        turns += game.play().turns
    return time.perf_counter() - t, turns


def run(label, bots, bot, kingdom, games: int, rounds: int, engine_only: bool = False) -> dict:
    play_ours = ours_replayed if engine_only else ours
    play_ours(bots, kingdom, 3, 10**6)                  # warm up both
    theirs(bot, len(bots), kingdom, 3, 10**6)
    a_time = b_time = 0.0
    a_turns = b_turns = 0
    ratios = []
    for r in range(rounds):
        a, at = play_ours(bots, kingdom, games, r * games)
        b, bt = theirs(bot, len(bots), kingdom, games, r * games)
        a_time, b_time, a_turns, b_turns = a_time + a, b_time + b, a_turns + at, b_turns + bt
        ratios.append(b / a)
    n = games * rounds
    return {"game": label, "ours": n / a_time, "theirs": n / b_time,
            "median_ratio": statistics.median(ratios), "our_turns": a_turns / a_time,
            "their_turns": b_turns / b_time}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--engine-only", action="store_true",
                        help="our side replays the games' records without its bots")
    args = parser.parse_args()
    logging.getLogger().setLevel(logging.WARNING)
    print(f"our engine: {'compiled (mypyc)' if dominion.COMPILED else 'pure Python'}"
          + (", replaying its games' records without the bots" if args.engine_only else ""))
    print(f"{'game':<36} {'ours g/s':>9} {'theirs g/s':>10} {'ratio':>6} "
          f"{'ours rounds/s':>13} {'theirs rounds/s':>15}")
    for label, bots, bot, kingdom in GAMES:
        r = run(label, bots, bot, kingdom, args.games, args.rounds, args.engine_only)
        print(f"{label:<36} {r['ours']:>9.0f} {r['theirs']:>10.0f} {r['median_ratio']:>6.2f} "
              f"{r['our_turns']:>13.0f} {r['their_turns']:>15.0f}")
    print(f"(median of {args.rounds} alternating rounds of {args.games} games per engine; "
          "ratio = ours / theirs, games per second)")


if __name__ == "__main__":
    main()
