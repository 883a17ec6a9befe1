"""The community's known-best scripts, each played against Big Money Ultimate on its own board.

Each script in bench/strategies/ is played against ``big-money-ultimate`` on a Kingdom that holds
its cards (`dominion.bots.default_kingdom`: its Kingdom cards first, filled up from First Game),
on the same seeds for every script (common random numbers), every game in both seatings
(`dominion.simulate` rotates the seats). The table shows each script's win share with its 95%
Wilson interval, beside the figure another simulator (Geronimoo's) publishes against plain Big
Money where there is one; ``--big-money`` also plays each against ``big-money`` to compare like
with like. ``--builtins`` adds the built-in strategies (dominion/bots/strategies/). A played
engine that loses to money where the community says it wins is a defect of the play policy.

    .venv/bin/python bench/known_scripts.py --games 400 --workers 1            # a few minutes
    .venv/bin/python bench/known_scripts.py --games 400 --builtins --big-money
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dominion.bots import STRATEGY_DIR, default_kingdom  # noqa: E402
from dominion.simulate import simulate  # noqa: E402

SCRIPTS_DIR = ROOT / "bench" / "strategies"
# The known-best scripts (file stems in bench/strategies/) and the win share against Big Money
# that Geronimoo's simulator publishes for the same plan (None: no published figure).
KNOWN = (
    ("double-witch", 0.992),
    ("chapel-witch", 0.958),
    ("double-smithy", 0.928),
    ("workshop-gardens", 0.935),
    ("double-courtyard", None),
    ("lab-militia-chapel", None),
    ("torturer-village", None),
    ("minion-chapel", None),
    ("masquerade-nobles", None),
    ("throne-room-smithy", None),
    ("throne-room-witch", None),
    ("witch-lab", None),
)
OPPONENT = "big-money-ultimate"
BIG_MONEY = "big-money"
NOT_BUILTIN = (OPPONENT, BIG_MONEY)   # the opponents themselves


def builtin_names() -> list:
    """The built-in strategies worth playing against the opponent (every one but the money
    baselines)."""
    return sorted(p.stem for p in STRATEGY_DIR.glob("*.toml") if p.stem not in NOT_BUILTIN)


def play(script: str, opponent: str, games: int, seed: int, workers: int) -> dict:
    """``script`` (a path or a built-in's name) against ``opponent`` on the script's board."""
    kingdom = default_kingdom((script,))
    summary = simulate((script, opponent), games, kingdom=kingdom, seed=seed, workers=workers,
                       keep_results=False)
    if summary["errors"]:
        raise SystemExit(f"{script}: {summary['errors']} games failed: {summary['failed'][:2]}")
    me = summary["bots"][0]
    cards = kingdom if isinstance(kingdom, str) else ", ".join(kingdom[:3])
    return {"script": Path(script).stem, "opponent": opponent, "games": me["games"],
            "wins": me["wins"], "ties": me["ties"], "win_rate": me["win_rate"],
            "ci95": me["ci95"], "board": cards}


def _cell(r: dict | None) -> str:
    if r is None:
        return "-"
    lo, hi = r["ci95"]
    return f"{100 * r['win_rate']:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}]"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="games per pairing (default 400)")
    ap.add_argument("--seed", type=int, default=2026, help="the seed every pairing shares")
    ap.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--only", default="", help="comma-separated script names to play")
    ap.add_argument("--builtins", action="store_true",
                    help="also play the built-in strategies against the opponent")
    ap.add_argument("--big-money", action="store_true",
                    help="also play each against big-money (the published figures' opponent)")
    ap.add_argument("--json", help="write the rows to this file")
    args = ap.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        ap.error("--games and --workers must be at least 1")
    published = dict(KNOWN)
    entries = [(str(SCRIPTS_DIR / f"{name}.toml"), name) for name, _ in KNOWN]
    if args.builtins:
        entries += [(name, name) for name in builtin_names()]
    if args.only:
        wanted = {n.strip() for n in args.only.split(",") if n.strip()}
        unknown = wanted - {name for _, name in entries}
        if unknown:
            ap.error(f"unknown script(s): {', '.join(sorted(unknown))}")
        entries = [e for e in entries if e[1] in wanted]
    started = time.perf_counter()
    rows = []
    header = (f"{'script':<22} {'board (first cards)':<36} {'vs ' + OPPONENT:<26} "
              f"{'vs big-money':<26} published vs big-money")
    print(f"{args.games} games per pairing, seed {args.seed}, both seats; win share with the "
          "95% Wilson interval")
    print(header)
    print("-" * len(header))
    for spec, name in entries:
        r = play(spec, OPPONENT, args.games, args.seed, args.workers)
        bm = play(spec, BIG_MONEY, args.games, args.seed, args.workers) if args.big_money \
            else None
        pub = published.get(name)
        print(f"{name:<22} {r['board']:<36} {_cell(r):<26} {_cell(bm):<26} "
              f"{'-' if pub is None else f'{100 * pub:.1f}%'}", flush=True)
        rows.append({"script": name, "vs_" + OPPONENT: r, "vs_" + BIG_MONEY: bm,
                     "published": pub})
    print(f"({time.perf_counter() - started:.0f} s)")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
