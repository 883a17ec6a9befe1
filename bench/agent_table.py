"""The agent table: the search bot against the scripted bots, 2 and 4 players, written into the
README with the date, the budget and the command.

2 players: the search bot against big-money-ultimate, witch-big-money, double-witch
(bench/strategies/double-witch.toml: two Witches, then money) and the best built-in for each
Kingdom (`dominion.bots.best_strategy_for`, also the search bot's own rollout strategy), on
recommended Kingdoms and random Kingdoms of all four sets (a Kingdom without a Witch gets one,
in place of its last card, against the Witch bots). Every Kingdom is played from both seats
(seats rotate within a pair of games sharing one seed). 4 players: one search bot against
three copies of the best built-in. Win share counts a shared win as 1/k of a win (a 2-player
tie is half); intervals are Wilson 95% intervals. Time per decision is the search bot's, at
every decision it answers (searched or not) and at the decisions it searched, on one core
per game.

    .venv/bin/python bench/agent_table.py                       # the README's table (< 1 hour)
    .venv/bin/python bench/agent_table.py --games 20 --games4 8 # a quick look, not written
    .venv/bin/python bench/agent_table.py --rank                # the rollout preference order
"""
from __future__ import annotations

import argparse
import collections
import datetime
import hashlib
import tempfile
import multiprocessing
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import dominion  # noqa: E402
from dominion.bots import (SearchBot, best_strategy_for, builtin_strategies,  # noqa: E402
                           default_kingdom, fitting_strategies, make_bot, search_options)
from dominion.bots.planner import best_single, remember_plan  # noqa: E402
from dominion.bots.search import DEFAULT_CANDIDATES, DEFAULT_MARGIN, DEFAULT_SCALE  # noqa: E402
from dominion.bots.playout import play_out  # noqa: E402
from dominion.simulate import game_seed, simulate, wilson  # noqa: E402

DOUBLE_WITCH = str(ROOT / "bench" / "strategies" / "double-witch.toml")
OPPONENTS = ("big-money-ultimate", "witch-big-money", DOUBLE_WITCH, "best", "bmu-best")
BMU_BEST = "BMU + the Kingdom's best card (found by simulation)"
PLAN_SECONDS: dict = {}   # players -> seconds each new plan took (`prepare_plans`)
PLANS = Path(tempfile.mkdtemp(prefix="agent-table-plans-"))   # the bmu-best opponents' files
RECOMMENDED_KINGDOMS = ("First Game", "Size Distortion", "Silver & Gold", "Interaction",
                        "Best Wishes", "The Plot Thickens", "Underlings", "Hand Madness")
RANDOM_KINGDOMS = 8
README = ROOT / "README.md"
BEGIN, END = "<!-- agent-table: begin -->", "<!-- agent-table: end -->"


def label(spec: str) -> str:
    return "double-witch" if spec == DOUBLE_WITCH else spec


def kingdoms(seed: int, sets=None) -> list:
    """The recommended Kingdoms, then random ones from all four sets (drawn with ``seed``);
    with ``sets`` (e.g. ("base-2e",), domibot's terms), every recommended Kingdom of those sets
    alone, then random ones drawn from them."""
    if sets:
        out = [cards for name, (of, cards) in dominion.RECOMMENDED.items()
               if set(of) <= set(sets)]
    else:
        out = [dominion.RECOMMENDED[name][1] for name in RECOMMENDED_KINGDOMS]
    for i in range(RANDOM_KINGDOMS):
        out.append(dominion.make_config(2, "random", sets, game_seed(seed, i, 1)).kingdom)
    return out


def with_witch(kingdom: tuple) -> tuple:
    return kingdom if "Witch" in kingdom else tuple(kingdom[:9]) + ("Witch",)


def play_one(job) -> dict:
    """One game: ``job`` = (bot specs per seat, Kingdom, seed, search budget). Returns the search
    seat's win share and its seconds per decision."""
    specs, kingdom, seed, playouts, views, margin, options = job
    n = len(specs)
    state = dominion.new_game(players=n, kingdom=list(kingdom), seed=seed, first_player=0)
    bots = []
    for seat, spec in enumerate(specs):
        bot_seed = (seed * 31 + seat + 1) % 2 ** 64
        bots.append(SearchBot(bot_seed, playouts=playouts, margin=margin, **options)
                    if spec == "search" else make_bot(spec, bot_seed))
    times: list = []
    searched: list = []   # the times of the decisions it searched (its buys)
    search_seat = specs.index("search")
    search = bots[search_seat]
    original = search.answer if views else search.answer_state

    def timed(*args):
        started = time.perf_counter()
        before = search.searched
        answer = original(*args)
        times.append(time.perf_counter() - started)
        if search.searched > before:
            searched.append(times[-1])
        return answer
    if views:   # asked with its seat's views, as over the network (`dominion bot`)
        search.reads_state = False
        search.answer = timed
    else:
        search.answer_state = timed
    cheap = [spec != "search" for spec in specs]
    state, pending = play_out(state, bots, cheap, dominion.step, 20_000)
    if pending is not None:
        raise RuntimeError(f"game {seed} did not end")
    won = dominion.winners(state)
    share = 1.0 / len(won) if search_seat in won else 0.0
    return {"share": share, "times": times, "searched": searched,
            "changed": dict(search.changed), "switches": len(search.switches)}


def jobs_2p(opponent: str, games: int, seed: int, kingdom_list: list) -> list:
    """``games`` games (rounded up to pairs) spread over the Kingdoms, each pair one seed with
    the search bot in seat 0, then in seat 1."""
    jobs = []
    pairs = (games + 1) // 2
    for p in range(pairs):
        kingdom = kingdom_list[p % len(kingdom_list)]
        if opponent in ("witch-big-money", DOUBLE_WITCH):
            kingdom = with_witch(kingdom)
        other = best_strategy_for(kingdom) if opponent == "best" else \
            bmu_best(kingdom) if opponent == "bmu-best" else opponent
        s = game_seed(seed, p, 1)
        jobs.append((("search", other), kingdom, s))
        jobs.append(((other, "search"), kingdom, s))
    return jobs


BMU_BEST_GAMES = [3000]   # games to find each Kingdom's best card (--bmu-best-games)


def bmu_best(kingdom: tuple, players: int = 2) -> str:
    """The strategy file of Big Money Ultimate + the Kingdom's best card
    (`dominion.bots.planner.best_single`, 3,000 games by default), written once per Kingdom."""
    name = hashlib.sha256(",".join(sorted(kingdom)).encode()).hexdigest()[:12]
    path = PLANS / f"bmu-best-{players}p-{name}.toml"
    if not path.exists():
        plan = best_single(kingdom, players, BMU_BEST_GAMES[0], 0,
                           built_ins=fitting_strategies(kingdom))
        path.write_text(plan.toml())
    return str(path)


def prepare_plans(kingdom_list: list, players: tuple, budget: int, workers: int,
                  witch: bool, boards: list) -> None:
    """Plan every Kingdom for the search bot's ``plan`` option before the games (on every
    worker, from the plan cache where it has them), so that each game's bot finds its plan
    made (the workers are forked after this)."""
    from dominion_client.commands_plan import plan_or_cached
    for n in players:
        wanted = [tuple(k) for k in kingdom_list]
        if witch and n == 2:
            wanted += [with_witch(tuple(k)) for k in kingdom_list]
        if n == 2:
            wanted += [tuple(b) for b in boards]
        for kingdom in dict.fromkeys(wanted):
            started = time.perf_counter()
            data, cached = plan_or_cached(kingdom, n, budget, 0, workers)
            if not cached:
                PLAN_SECONDS.setdefault(n, []).append(time.perf_counter() - started)
            remember_plan(kingdom, n, budget, 0, data["plan"])
            print(f"planned {n}p {', '.join(kingdom)}: {data['label']}", file=sys.stderr,
                  flush=True)


def script_groups(games: int, seed: int) -> list:
    """(row name, jobs) per known-best script (bench/known_scripts.py): the search bot against
    it on its own board (its Kingdom cards first, filled up from First Game), ``games`` games
    (rounded up to pairs) from both seats."""
    from known_scripts import KNOWN, SCRIPTS_DIR
    groups = []
    for name, _ in KNOWN:
        spec = str(SCRIPTS_DIR / f"{name}.toml")
        kingdom = script_board(spec)
        jobs = []
        for p in range((games + 1) // 2):
            s = game_seed(seed ^ 0x5C, p, 1)
            jobs += [(("search", spec), kingdom, s), ((spec, "search"), kingdom, s)]
        groups.append((f"known-best {name} (its board)", jobs))
    return groups


def script_board(spec: str) -> tuple:
    kingdom = default_kingdom((spec,))
    return dominion.RECOMMENDED[kingdom][1] if isinstance(kingdom, str) else tuple(kingdom)


def jobs_4p(games: int, seed: int, kingdom_list: list) -> list:
    jobs = []
    for g in range(games):
        kingdom = kingdom_list[(g // 4) % len(kingdom_list)]
        best = best_strategy_for(kingdom)
        specs = [best] * 4
        specs[g % 4] = "search"
        jobs.append((tuple(specs), kingdom, game_seed(seed ^ 0x4, g // 4, 1)))
    return jobs


def run_rows(groups: list, playouts: int, workers: int, views: bool = False,
             margin: float = DEFAULT_MARGIN, options: dict | None = None) -> list:
    """Play every group's games on ``workers`` processes; one row per group, each printed as
    it is done (a long run shows its rows as it goes)."""
    rows = []
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for name, jobs in groups:
            mine = pool.map(play_one, [job + (playouts, views, margin, options or {})
                                       for job in jobs], chunksize=1)
            share = sum(r["share"] for r in mine)
            times = [t for r in mine for t in r["times"]]
            searched = [t for r in mine for t in r["searched"]]
            lo, hi = wilson(share, len(mine))
            changed: collections.Counter = collections.Counter()
            for r in mine:
                changed.update(r["changed"])
            rows.append({"opponent": name, "games": len(mine), "share": share / len(mine),
                         "lo": lo, "hi": hi, "median": statistics.median(times),
                         "worst": max(times), "searched": statistics.median(searched),
                         "buys": len(searched), "changed": changed,
                         "switched": sum(1 for r in mine if r["switches"])})
            print(f"{name}: {rows[-1]}", file=sys.stderr, flush=True)
    return rows


VIEWS_NOTE = ", answered from its seat's views as over the network"


def table(rows2: list, rows4: list, args, seconds: float) -> str:
    today = datetime.date.today().isoformat()
    lines = [
        f"Measured {today} by `python bench/agent_table.py --games {args.games} --games4 "
        f"{args.games4} --playouts {args.playouts}{' --views' if args.views else ''}"
        f"{f' --margin {args.margin:g}' if args.margin != DEFAULT_MARGIN else ''}"
        f"{f' --search {args.search}' if args.search else ''}"
        f"{f' --scripts {args.scripts}' if args.scripts else ''}"
        f"{f' --kingdoms {args.kingdoms}' if args.kingdoms else ''}"
        f"{f' --sets {args.sets}' if args.sets else ''}` in "
        f"{seconds / 60:.0f} minutes on "
        f"{args.workers} busy cores (the compiled engine). Budget: {args.playouts} playouts "
        f"per searched decision (its buys{VIEWS_NOTE if args.views else ''}) where a rollout "
        "is as long as at its first search, "
        f"up to {DEFAULT_SCALE:g} times as many where rollouts are shorter; "
        f"{DEFAULT_CANDIDATES} candidates, rollouts to the end "
        + (f"with its own seat playing the Kingdom's plan (`dominion plan`'s planner, "
           f"{args.plan_games} games per Kingdom and player count) and the others modelled by "
           "the Kingdom cards they have bought; " if args.plan_games else
           "with the Kingdom's best built-in; ") +
        f"{kingdom_words(args.kingdoms, args.sets)}, each from both seats"
        + (f"; each known-best script on its own board, {args.scripts} games" if args.scripts
           else "") + ". Win share counts a shared win as 1/k; 95% Wilson intervals; time per "
        "decision over every decision the search bot answered (most are answered by its "
        "rollout strategy at once), and over the decisions it searched (its buys).",
        "",
        "| players | search bot against | games | win share | 95% interval | median ms per "
        "decision | median ms per searched decision | worst ms per decision |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for players, seconds in sorted(PLAN_SECONDS.items()):
        lines.insert(1, f"Planning each Kingdom ({players} players, {args.plan_games} games, "
                        f"{args.workers} workers): a median of "
                        f"{statistics.median(seconds):.0f} s, at most {max(seconds):.0f} s "
                        f"({len(seconds)} Kingdoms).")
    for players, rows in ((2, rows2), (4, rows4)):
        for r in rows:
            lines.append(f"| {players} | {r['opponent']} | {r['games']} | {r['share']:.1%} | "
                         f"{r['lo']:.1%} to {r['hi']:.1%} | {r['median'] * 1000:.2f} | "
                         f"{r['searched'] * 1000:.0f} | "
                         f"{r['worst'] * 1000:.0f} |")
    lines += ["", "Where the search changed its plan: of its searched buys, the share it "
              "answered otherwise than its plan, by what it bought instead; and the games in "
              "which it switched plans (with `switch=on`: every 3 own turns it also searches "
              "the Kingdom's best built-in and each other seat's plan as shown).", "",
              "| players | search bot against | searched buys | changed | changed to | "
              "games with a switch of plan |", "|---|---|---|---|---|---|"]
    for players, rows in ((2, rows2), (4, rows4)):
        for r in rows:
            changed = sum(r["changed"].values())
            to = ", ".join(f"{what} {k / max(1, r['buys']):.1%}"
                           for what, k in r["changed"].most_common())
            lines.append(f"| {players} | {r['opponent']} | {r['buys']} | "
                         f"{changed / max(1, r['buys']):.1%} | {to or '-'} | "
                         f"{r['switched']} of {r['games']} |")
    return "\n".join(lines)


def kingdom_words(first, sets=None) -> str:
    """Which Kingdoms the 2-player rows play: the first ``first`` of `kingdoms` (None: all)."""
    of = tuple(x.strip() for x in sets.split(",")) if sets else None
    listed = len(kingdoms(0, of)) - RANDOM_KINGDOMS
    total = listed + RANDOM_KINGDOMS
    n = min(first or total, total)
    recommended = min(n, listed)
    words = f"{recommended} recommended"
    if n > recommended:
        words += f" and {n - recommended} random"
    return words + (" Kingdom" if n == 1 else " Kingdoms") + \
        (f" of {sets} only" if sets else "") + \
        (" (random: from all four sets)" if n > recommended and not sets else "")


def write_readme(text: str) -> None:
    readme = README.read_text()
    block = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in readme:
        readme = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda m: block, readme,
                        flags=re.S)
    else:
        raise SystemExit(f"README.md has no {BEGIN} ... {END} block to write the table into")
    README.write_text(readme)


def rank(games: int, workers: int) -> None:
    """Each built-in strategy against big-money-ultimate on its default Kingdom: the order of
    `dominion.bots.search.ROLLOUT_PREFERENCE`."""
    rates = []
    for name in builtin_strategies():
        if name == "big-money-ultimate":
            continue
        s = simulate([name, "big-money-ultimate"], games, seed=1, workers=workers)
        b = s["bots"][0]
        rates.append((b["win_rate"] + s["ties"] / s["games"] / 2, name))
    for rate, name in sorted(rates, reverse=True):
        print(f"{name:28} {rate:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per 2-player pairing")
    parser.add_argument("--games4", type=int, default=80, help="4-player games")
    parser.add_argument("--playouts", type=int, default=64)
    parser.add_argument("--margin", type=float, default=DEFAULT_MARGIN,
                        help="win share another buy must gain over the default to replace it "
                             "(the search bot's margin, default %(default)s)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default=",".join(label(o) for o in OPPONENTS),
                        help="the 2-player pairings to play (default: all: %(default)s)")
    parser.add_argument("--write", action="store_true", help="write the table into README.md")
    parser.add_argument("--views", action="store_true",
                        help="the search bot answers from its seat's views, as over the network "
                             "(dominion bot), not from the state (not written into the README)")
    parser.add_argument("--bmu-best-games", type=int, default=BMU_BEST_GAMES[0], metavar="N",
                        help="games to find each Kingdom's best card for Big Money Ultimate "
                             "(default %(default)s)")
    parser.add_argument("--sets", default=None,
                        help="only Kingdoms of these sets (e.g. base-2e: domibot's terms): their "
                             "recommended Kingdoms, then random ones drawn from them")
    parser.add_argument("--kingdoms", type=int, default=None, metavar="N",
                        help="only the first N of the Kingdoms (a quick look)")
    parser.add_argument("--scripts", type=int, default=0, metavar="GAMES",
                        help="also play each known-best script (bench/known_scripts.py) on its "
                             "own board, GAMES games each (default 0: not)")
    parser.add_argument("--search", default="",
                        help="more search bot options, as in its name: e.g. plan=6000,"
                             "model=shown (plan: the Kingdoms are planned first, cached)")
    parser.add_argument("--rank", action="store_true",
                        help="measure the rollout preference order instead")
    args = parser.parse_args()
    if args.write and args.views:
        parser.error("the README's table is the search bot's with the state: drop --views")
    if args.rank:
        rank(2000, args.workers)
        return
    started = time.perf_counter()
    sets = tuple(x.strip() for x in args.sets.split(",")) if args.sets else None
    kingdom_list = kingdoms(args.seed, sets)[:args.kingdoms]
    options = search_options("search:" + args.search) if args.search else {}
    args.plan_games = options.get("plan", 0)
    BMU_BEST_GAMES[0] = args.bmu_best_games
    wanted = [o.strip() for o in args.opponents.split(",") if o.strip()]
    if options.get("plan"):
        boards = []
        if args.scripts:
            from known_scripts import KNOWN, SCRIPTS_DIR
            boards = [script_board(str(SCRIPTS_DIR / f"{name}.toml")) for name, _ in KNOWN]
        prepare_plans(kingdom_list, (2, 4) if args.games4 else (2,), options["plan"],
                      args.workers, any(w in wanted for w in ("witch-big-money",
                                                               "double-witch")), boards)
    groups = [(BMU_BEST if o == "bmu-best" else
               label(o) if o != "best" else "best built-in for the Kingdom",
               jobs_2p(o, args.games, args.seed, kingdom_list))
              for o in OPPONENTS if label(o) in wanted]
    if args.scripts:
        groups += script_groups(args.scripts, args.seed)
    rows2 = run_rows(groups, args.playouts, args.workers, args.views, args.margin, options) \
        if groups else []
    rows4 = run_rows([("3 x best built-in for the Kingdom",
                       jobs_4p(args.games4, args.seed, kingdom_list))], args.playouts,
                     args.workers, args.views, args.margin, options) if args.games4 else []
    text = table(rows2, rows4, args, time.perf_counter() - started)
    print(text)
    if args.write:
        write_readme(text)


if __name__ == "__main__":
    main()
