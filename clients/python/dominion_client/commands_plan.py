"""``dominion plan KINGDOM``: a strong strategy for a Kingdom, found by simulation
(`dominion.bots.planner`), written as a strategy file, with a table of the finalists, a plot of
the leader's score by generation, and a cache so that a second game on the Kingdom starts at
once."""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Optional

import dominion
from dominion.bots import fitting_strategies
from dominion.bots.planner import DEFAULT_BUDGET, MIN_BUDGET, PLANNER_VERSION, plan_kingdom

from .commands_engine import _workers, format_duration, seed_arg
from .outfiles import OutputError, OutputFile


def register(sub) -> None:
    p = sub.add_parser(
        "plan", help="find a strong strategy for a Kingdom by simulation",
        description="Plan a Kingdom: search Big Money with its best cards, the engines its "
                    "villages, draw, payload and +Buy make, its rushes and the built-in "
                    "strategies that fit, against a league of the best so far (both seats, the "
                    "same seeds for every plan), and write the winner as a strategy file "
                    "(docs/bots.md) that every command taking a bot reads. Plans are cached by "
                    "Kingdom, players, budget and seed: the same plan comes back at once.",
        epilog="The same Kingdom, players, budget and seed give the same plan on any machine "
               "and with any number of workers. Play the plan: dominion simulate --bots "
               "PLAN.toml,big-money-ultimate --kingdom KINGDOM; dominion play --bots search "
               "plans the Kingdom itself.")
    p.add_argument("kingdom", metavar="KINGDOM",
                   help="a recommended Kingdom (see `dominion kingdoms`), 10 comma-separated "
                        "card names, or 'random' (drawn with --seed from --sets)")
    p.add_argument("--players", type=_players, default=2, help="2 to 6 (default 2)")
    p.add_argument("--budget", type=budget_arg, default=DEFAULT_BUDGET,
                   help="games to play (default %(default)s: under 30 s on 2 cores; more "
                        "is more thorough)")
    p.add_argument("--seed", type=seed_arg, default=0, help="the search's seed (default 0)")
    p.add_argument("--sets", default=None, help="with KINGDOM random: the sets to draw from")
    p.add_argument("--workers", type=_workers, default=None,
                   help="worker processes (default: every core)")
    p.add_argument("--cluster", metavar="ADDRESS", default=None,
                   help="play the games on a Dask cluster (its scheduler's address; needs the "
                        "[cluster] extra): the same plan as a local run")
    p.add_argument("--out", metavar="FILE.toml", default=None,
                   help="the strategy file to write (default: plan-KINGDOM-Np.toml here)")
    p.add_argument("--plot", metavar="FILE.svg", default=None,
                   help="the picture of the leader's score by generation (default: the "
                        "strategy file's name with .svg)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace the strategy file and the picture if they exist")
    p.add_argument("--no-cache", action="store_true",
                   help="plan again even if the cache has this plan (the new plan is cached)")
    p.add_argument("--json", action="store_true",
                   help="print the result as one JSON object (plan, finalists, league, history)")
    p.set_defaults(run=run_plan)


def _players(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 2 <= n <= 6:
        raise argparse.ArgumentTypeError(f"players must be 2 to 6, not {text!r}")
    return n


def budget_arg(text: str, zero_ok: bool = False) -> int:
    """A budget of games: at least `MIN_BUDGET` (or 0, "no plan", where ``zero_ok``)."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < MIN_BUDGET and not (zero_ok and n == 0):
        raise argparse.ArgumentTypeError(
            f"the budget is {'0 (no plan) or ' if zero_ok else ''}a number of games, at least "
            f"{MIN_BUDGET}, not {text!r}")
    return n


def cache_dir() -> Path:
    """Where plans are kept: $DOMINION_PLAN_CACHE, else $XDG_CACHE_HOME/dominion/plans, else
    ~/.cache/dominion/plans."""
    if os.environ.get("DOMINION_PLAN_CACHE"):
        return Path(os.environ["DOMINION_PLAN_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dominion" / "plans"


def cache_key(kingdom, players: int, budget: int, seed: int) -> str:
    """The cache's name for a plan: the Kingdom (in any order), players, budget, seed, and the
    planner's and engine's versions (a plan of another version is planned again)."""
    key = json.dumps([sorted(kingdom), players, budget, seed, PLANNER_VERSION,
                      dominion.ENGINE_VERSION])
    return hashlib.sha256(key.encode()).hexdigest()[:24]


def cached_plan(kingdom, players: int, budget: int, seed: int) -> Optional[dict]:
    """The cached result for these arguments (`PlanResult.to_data`), or None."""
    path = cache_dir() / f"{cache_key(kingdom, players, budget, seed)}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("planner") != PLANNER_VERSION or sorted(data.get("kingdom", ())) != \
            sorted(kingdom):
        return None
    return data


def store_plan(data: dict) -> Optional[Path]:
    """Keep a result in the cache (whole or not at all); None when the cache cannot be
    written (planning still worked)."""
    folder = cache_dir()
    path = folder / f"{cache_key(data['kingdom'], data['players'], data['budget'], data['seed'])}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with OutputFile(str(path), "the plan cache", "overwrite") as out:
            out.file.write(json.dumps(data, indent=1))
            out.commit()
    except (OSError, OutputError):
        return None
    return path


def plan_or_cached(kingdom, players: int, budget: int, seed: int, workers: Optional[int] = None,
                   executor=None, progress=None, use_cache: bool = True) -> tuple:
    """(the result's data, whether it came from the cache): the cached plan, or a new one
    planned on ``workers`` processes (or ``executor``) and cached."""
    if use_cache:
        data = cached_plan(kingdom, players, budget, seed)
        if data is not None:
            return data, True
    built_ins = fitting_strategies(kingdom)
    if executor is not None:
        result = plan_kingdom(kingdom, players, budget, seed, executor, progress, built_ins)
    else:
        workers = workers or os.cpu_count() or 1
        if workers > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else None)
            with ProcessPoolExecutor(workers, mp_context=context) as pool:
                result = plan_kingdom(kingdom, players, budget, seed, pool, progress, built_ins)
        else:
            result = plan_kingdom(kingdom, players, budget, seed, None, progress, built_ins)
    data = result.to_data()
    store_plan(data)
    return data, False


class PlanProgress:
    """A progress bar on stderr, drawn only on a terminal."""

    def __init__(self, enabled: bool = True, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.started = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, total: int, stage: str) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if stage != "done" and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = width * done // max(1, total)
        rate = done / max(1e-9, now - self.started)
        eta = (total - done) / rate if rate > 0 else 0
        self.stream.write(f"\rPlanning [{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                          f"games, {rate:.0f}/s, {format_duration(eta)} left ")
        if stage == "done":
            self.stream.write("\r" + " " * (width + 50) + "\r")
        self.stream.flush()


def resolve(kingdom: str, players: int, sets, seed: int) -> tuple:
    """The 10 Kingdom cards of KINGDOM (a preset, names, or random with the seed)."""
    if "," in kingdom:
        kingdom = tuple(c.strip() for c in kingdom.split(","))
    return tuple(dominion.make_config(players, kingdom, sets, seed).kingdom)


def default_name(kingdom_arg: str, kingdom: tuple, players: int) -> str:
    """plan-first-game-2p.toml for a preset, plan-<card initials and a hash>-Np.toml else."""
    if kingdom_arg in dominion.RECOMMENDED:
        slug = re.sub(r"[^a-z0-9]+", "-", kingdom_arg.lower()).strip("-")
    else:
        slug = "kingdom-" + hashlib.sha256(",".join(sorted(kingdom)).encode()).hexdigest()[:8]
    return f"plan-{slug}-{players}p.toml"


def history_svg(data: dict) -> str:
    """The leader's win share against its generation's league, by generation, as an SVG line
    chart (a picture any browser opens)."""
    history = data["history"]
    width, height, left, right, top, bottom = 640, 370, 60, 20, 60, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(1, len(history) - 1)

    def x(i):
        return left + plot_w * i / n

    def y(share):
        return top + plot_h * (1 - share)
    kingdom = f"{data['players']} players: {', '.join(data['kingdom'])}"
    if len(kingdom) > 100:
        kingdom = kingdom[:97] + "..."
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="16" text-anchor="middle" font-size="13">'
             "The leader's win share against its generation's league</text>",
             f'<text x="{width / 2}" y="31" text-anchor="middle" font-size="10">'
             f'{_escape(kingdom)}</text>']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{left}" y1="{y(tick):.1f}" x2="{width - right}" '
                     f'y2="{y(tick):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">'
                     f'{tick:.0%}</text>')
    for i, (generation, _, _) in enumerate(history):
        parts.append(f'<text x="{x(i):.1f}" y="{height - bottom + 18}" text-anchor="middle">'
                     f'{generation}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 12}" text-anchor="middle">'
                 'generation</text>')
    points = " ".join(f"{x(i):.1f},{y(share):.1f}" for i, (_, _, share) in enumerate(history))
    parts.append(f'<polyline points="{points}" fill="none" stroke="#1f5fbf" stroke-width="2"/>')
    for i, (_, label, share) in enumerate(history):
        parts.append(f'<circle cx="{x(i):.1f}" cy="{y(share):.1f}" r="4" fill="#1f5fbf">'
                     f'<title>{_escape(label)}: {share:.1%}</title></circle>')
    final = data["finalists"][0]
    parts.append(f'<text x="{left}" y="{top - 10}">Plan: {_escape(final["label"][:70])} '
                 f'({final["mixture"]:.1%} on fresh seeds)</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def table_lines(data: dict) -> list:
    """The finalists against the final league (numbered in a legend below): mixture, worst
    matchup, each matchup."""
    league = data["league"]
    width = min(72, max(len(f["label"]) for f in data["finalists"])) + 2
    lines = [f"{'plan':<{width}} {'mixture':>7} {'worst':>6}  " +
             " ".join(f"{'#' + str(j + 1):>5}" for j in range(len(league)))]
    for f in data["finalists"]:
        label = f["label"] if len(f["label"]) <= width - 2 else f["label"][:width - 5] + "..."
        lines.append(f"{label:<{width}} {f['mixture']:>7.1%} {f['worst']:>6.1%}  " +
                     " ".join(f"{share:>5.0%}" for share in f["matchups"]))
    lines.append("league: " + "; ".join(f"#{j + 1} {name}" for j, name in enumerate(league)))
    return lines


def run_plan(args) -> int:
    sets = [s.strip() for s in args.sets.split(",")] if args.sets else None
    try:
        kingdom = resolve(args.kingdom, args.players, sets, args.seed)
    except dominion.DominionError as exc:
        print(f"dominion: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out or default_name(args.kingdom, kingdom, args.players))
    plot = Path(args.plot) if args.plot else out.with_suffix(".svg")
    mode = "overwrite" if args.overwrite else "new"
    with contextlib.ExitStack() as files:
        try:   # both checked (and opened beside their place) before any game is played
            plan_file = files.enter_context(OutputFile(str(out), "--out", mode,
                                                          appendable=False))
            plot_file = files.enter_context(OutputFile(str(plot), "--plot", mode,
                                                          appendable=False))
        except OutputError as exc:
            print(f"dominion: {exc}", file=sys.stderr)
            return 2
        data, cached, seconds = _plan(args, kingdom)
        if data is None:
            return cached
        plan_file.file.write(data["plan"])
        plot_file.file.write(history_svg(data))
        plan_file.commit()
        plot_file.commit()
    if args.json:
        print(json.dumps(dict(data, file=str(out), plot=str(plot), cached=cached,
                              seconds=seconds)))
        return 0
    how = "from the cache" if cached else \
        f"in {format_duration(seconds)} ({data['games']} games)"
    print(f"Kingdom: {', '.join(kingdom)}; {args.players} players; planned {how}")
    print(f"Plan: {data['label']}")
    print()
    for line in table_lines(data):
        print(line)
    print()
    if data.get("best_single_label"):
        print(f"Best Big Money Ultimate + one card: {data['best_single_label']}")
    print("Leader by generation: " + "; ".join(f"{g}: {label} {share:.0%}"
                                               for g, label, share in data["history"]))
    print(f"Wrote {out} and {plot}. Play it: dominion simulate --bots {out},big-money-ultimate "
          f"--kingdom '{','.join(kingdom)}'")
    return 0


def _plan(args, kingdom) -> tuple:
    """(the result's data, whether it came from the cache, seconds), or (None, exit code,
    0) after an error said on stderr."""
    executor_context = None
    if args.cluster is not None:
        try:
            from .cluster import connect_cluster
            executor_context = connect_cluster(args.cluster)
        except (ImportError, OSError) as exc:
            print(f"dominion: {exc}", file=sys.stderr)
            return None, 2, 0
    started = time.perf_counter()
    try:
        if executor_context is not None:
            with executor_context as client:
                data, cached = plan_or_cached(kingdom, args.players, args.budget, args.seed,
                                              executor=client, progress=PlanProgress(),
                                              use_cache=not args.no_cache)
        else:
            data, cached = plan_or_cached(kingdom, args.players, args.budget, args.seed,
                                          args.workers, progress=PlanProgress(),
                                          use_cache=not args.no_cache)
    except KeyboardInterrupt:
        print("dominion: planning interrupted: nothing written", file=sys.stderr)
        return None, 130, 0
    return data, cached, time.perf_counter() - started
