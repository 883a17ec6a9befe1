"""Many bot games, in parallel, reproducibly, with honest statistics.

``simulate(["smithy-big-money", "big-money"], games=1000, seed=1)`` plays the games and returns a
summary: per bot its wins with a 95% Wilson confidence interval, shared wins, average score and
turns; per game its seed, Kingdom, scores, winners and turns.

Reproducibility: game ``i`` is a pure function of (bots, Kingdom, sets, seed, i), so the results
do not depend on how many worker processes play them or in what order they finish.
Fairness: games come in groups of one per seat rotation. A group shares one game seed and the
first player is always seat 0, while the bots move one seat on from game to game; each bot takes
the first turn equally often and meets the same shuffles from every seat (common random numbers,
which also makes comparisons sharper than independent games would).
"""
from __future__ import annotations

import math
import multiprocessing
import os
import time
from dataclasses import dataclass
from typing import Callable, Optional

from . import game as _game
from . import rng
from .bots import bot_kingdom_cards, bot_label, make_bot
from .errors import DominionError
from .kingdoms import KINGDOM_SIZE, RECOMMENDED

DEFAULT_KINGDOM = "First Game"
MAX_DECISIONS = 20_000  # a game still running after this many answers is counted as an error
_MASK = (1 << 64) - 1


class SimulationError(DominionError, ValueError):
    """A simulation that cannot start (unknown bot, bad Kingdom, too few games...)."""


@dataclass(frozen=True)
class Setup:
    """Everything that decides the games (picklable, sent to the workers)."""
    bots: tuple        # bot names or strategy file paths, one per seat before rotation
    labels: tuple      # distinct display names, one per bot
    kingdom: object    # a preset's name, "random", or 10 card names
    sets: Optional[tuple]
    seed: int
    records: bool = False   # each game's result carries its record (`dominion.record_to_data`)


def _mix(x: int) -> int:
    """Independent-looking 64-bit seeds from consecutive integers: one splitmix64 output."""
    return rng.next_u64(x & _MASK)[1]


def game_seed(seed: int, index: int, seats: int) -> int:
    """The seed of game ``index``: shared by the ``seats`` rotations of one group."""
    return _mix(_mix(seed & _MASK) ^ (index // seats))


def seating(index: int, seats: int) -> tuple:
    """Bot index per seat in game ``index``: the bots move one seat on each game."""
    r = index % seats
    return tuple((s + r) % seats for s in range(seats))


def labels_for(bots) -> tuple:
    """Distinct names for the bots: a repeated name gets ``#2``, ``#3``..."""
    out, seen = [], {}
    for b in bots:
        base = bot_label(b)
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return tuple(out)


def default_kingdom(bots) -> object:
    """The Kingdom when none is asked for: First Game, with the Kingdom cards the strategies buy
    or play put in first (so "witch-big-money" gets its Witch), filled up from First Game."""
    wanted = []
    for b in bots:
        wanted.extend(c for c in bot_kingdom_cards(b) if c not in wanted)
    first_game = RECOMMENDED[DEFAULT_KINGDOM][1]
    if all(c in first_game for c in wanted):
        return DEFAULT_KINGDOM
    if len(wanted) > KINGDOM_SIZE:
        raise SimulationError(f"the bots use {len(wanted)} Kingdom cards ({', '.join(wanted)}), "
                              f"more than {KINGDOM_SIZE}: choose a Kingdom with --kingdom")
    return tuple(wanted + [c for c in first_game if c not in wanted][:KINGDOM_SIZE - len(wanted)])


def play_game(setup: Setup, index: int, max_decisions: int = MAX_DECISIONS) -> dict:
    """Play game ``index`` of a simulation to the end; a game that raises is returned with its
    error instead of scores."""
    n = len(setup.bots)
    seed = game_seed(setup.seed, index, n)
    seats = seating(index, n)
    labels = tuple(setup.labels[b] for b in seats)
    result = {"index": index, "seed": seed, "bots": list(labels)}
    d = None
    try:
        state = _game.new_game(players=labels, kingdom=setup.kingdom, sets=setup.sets, seed=seed,
                               first_player=0)
        result["kingdom"] = list(state.config.kingdom)
        bots = [make_bot(setup.bots[b], _mix(seed ^ (s + 1))) for s, b in enumerate(seats)]
        step, view = _game.step, _game.view
        for _ in range(max_decisions):
            stack = state.stack
            if not stack:
                break
            d = stack[-1][1]
            bot = bots[d.player]
            state = step(state, bot.answer(d, view(state, d.player, bot.log_from)))
        else:
            raise RuntimeError(f"the game did not end within {max_decisions} decisions")
        scores = _game.score(state)
        result.update(scores=list(scores), winners=[labels[s] for s in _game.winners(state)],
                      turns=state.turn, turns_taken=list(state.turns_taken))
        if setup.records:
            result["record"] = _game.record_to_data(_game.record(state))
    except Exception as exc:  # a simulation reports broken games, it does not stop at them
        result["error"] = f"{type(exc).__name__}: {exc}"
        if d is not None:
            result["decision"] = repr(d)
    return result


def _play_range(args) -> list:
    setup, start, stop = args
    return [play_game(setup, i) for i in range(start, stop)]


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple:
    """The Wilson score interval for a proportion (95% by default): honest also near 0 and 1
    and for few games, unlike the normal approximation."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    center = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, center - half), min(1.0, center + half))


def summarize(setup: Setup, results: list, seconds: float) -> dict:
    """The report: totals, per-bot statistics and the games."""
    played = [r for r in results if "error" not in r]
    per_bot = []
    for label in setup.labels:
        wins = ties = 0
        score_sum = turn_sum = 0
        for r in played:
            seat = r["bots"].index(label)
            score_sum += r["scores"][seat]
            turn_sum += r["turns_taken"][seat]
            if label in r["winners"]:
                if len(r["winners"]) == 1:
                    wins += 1
                else:
                    ties += 1
        n = len(played)
        lo, hi = wilson(wins, n)
        per_bot.append({"bot": label, "games": n, "wins": wins, "ties": ties,
                        "win_rate": wins / n if n else 0.0, "ci95": [lo, hi],
                        "avg_score": score_sum / n if n else 0.0,
                        "avg_turns": turn_sum / n if n else 0.0})
    failed = [{"index": r["index"], "seed": r["seed"], "error": r["error"]}
              for r in results if "error" in r]
    kingdom = setup.kingdom if isinstance(setup.kingdom, str) else list(setup.kingdom)
    return {
        "games": len(results), "seed": setup.seed, "bots": per_bot,
        "wins": {b["bot"]: b["wins"] for b in per_bot},
        "ties": sum(1 for r in played if len(r["winners"]) > 1),
        "errors": len(failed), "failed": failed,
        "games_per_second": len(results) / seconds if seconds > 0 else 0.0,
        "seconds": seconds, "kingdom": kingdom,
        "sets": list(setup.sets) if setup.sets else None,
        "results": results,
    }


def simulate(bots, games: int, kingdom=None, sets=None, seed: Optional[int] = None,
             workers: Optional[int] = None,
             progress: Optional[Callable[[int, int], None]] = None,
             on_record: Optional[Callable[[dict], None]] = None) -> dict:
    """Play ``games`` games between ``bots`` (names or strategy file paths, 2 to 6) and return
    the summary (see `summarize`). ``kingdom``: a preset, ``"random"`` (drawn per game group
    from ``sets``), 10 names, or None for `default_kingdom`. ``workers``: processes (default:
    every core). ``progress(done, total)`` is called as games finish. ``on_record(line)`` is
    called with each game's record, in game order as the games finish (`game_record_line`):
    it is not kept in the summary."""
    bots = tuple(bots)
    if not 2 <= len(bots) <= 6:
        raise SimulationError(f"a game needs 2 to 6 bots, not {len(bots)}")
    if games < 1:
        raise SimulationError(f"the number of games must be at least 1, not {games}")
    for b in bots:
        make_bot(b)  # unknown bots and bad strategy files fail here, before any game
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    if kingdom is None:
        kingdom = default_kingdom(bots)
    elif isinstance(kingdom, str) and "," in kingdom:
        kingdom = tuple(c.strip() for c in kingdom.split(","))
    sets = tuple(sets) if sets else None
    _game.make_config(len(bots), kingdom, sets, seed)  # a bad Kingdom or set fails here
    setup = Setup(bots, labels_for(bots), kingdom if isinstance(kingdom, str) else tuple(kingdom),
                  sets, seed, on_record is not None)

    def collect(part):
        for result in part:
            if on_record is not None:
                on_record(game_record_line(result))
            results.append(result)
    workers = max(1, min(workers or os.cpu_count() or 1, games))
    started = time.perf_counter()
    results = []
    if workers == 1:
        chunk = max(1, min(20, games // 50 or 1))
        for start in range(0, games, chunk):
            collect(_play_range((setup, start, min(games, start + chunk))))
            if progress:
                progress(len(results), games)
    else:
        chunk = max(1, min(50, games // (workers * 8) or 1))
        tasks = [(setup, s, min(games, s + chunk)) for s in range(0, games, chunk)]
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ctx.Pool(workers) as pool:
            for part in pool.imap(_play_range, tasks):
                collect(part)
                if progress:
                    progress(len(results), games)
    return summarize(setup, results, time.perf_counter() - started)


def game_record_line(result: dict) -> dict:
    """One game of a simulation as a line of a records file: its index and seed, the bot of
    each seat, the result (or the error), and the record (engine version, config, answers),
    which `dominion.record_from_data` reads and `dominion.replay` replays. Takes the record out
    of ``result``, so that the summary does not keep it."""
    line = {k: result[k] for k in ("index", "seed", "bots") if k in result}
    for k in ("scores", "winners", "turns", "error"):
        if k in result:
            line[k] = result[k]
    record = result.pop("record", None)
    if record is not None:
        line.update(record)
    return line


def tournament(bots, games: int, kingdom=None, sets=None, seed: Optional[int] = None,
               workers: Optional[int] = None, progress=None) -> dict:
    """Every pair of ``bots`` plays ``games`` 2-player games (same seed and, unless asked
    otherwise, the same Kingdom for every pair: `default_kingdom` of all the bots, so each pair
    meets the same shuffles on the same cards). Bots are shown by unique readable labels
    (`labels_for`). Returns per pair the summary's statistics, and tables of win and tie rates:
    ``table[a][b]`` is a's win rate against b, ``ties[a][b]`` the share of shared wins."""
    bots = tuple(dict.fromkeys(bots))
    if len(bots) < 2:
        raise SimulationError("a tournament needs at least 2 different bots")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    if kingdom is None:
        kingdom = default_kingdom(bots)
    labels = labels_for(bots)
    label_of = dict(zip(bots, labels))
    pairs = [(a, b) for i, a in enumerate(bots) for b in bots[i + 1:]]
    table = {label: {} for label in labels}
    ties = {label: {} for label in labels}
    matches = []
    started = time.perf_counter()
    for k, (a, b) in enumerate(pairs):
        done = k * games

        def report(n, total, done=done):
            if progress:
                progress(done + n, games * len(pairs))
        summary = simulate((a, b), games, kingdom, sets, seed, workers, report)
        sa, sb = summary["bots"]
        la, lb = label_of[a], label_of[b]
        table[la][lb] = sa["win_rate"]
        table[lb][la] = sb["win_rate"]
        played = sa["games"]
        ties[la][lb] = ties[lb][la] = summary["ties"] / played if played else 0.0
        matches.append({"bots": [la, lb], "kingdom": summary["kingdom"],
                        "games": summary["games"], "ties": summary["ties"],
                        "errors": summary["errors"], "failed": summary["failed"],
                        "stats": [dict(sa, bot=la), dict(sb, bot=lb)]})
    seconds = time.perf_counter() - started
    total = games * len(pairs)
    overall = {a: sum(table[a].values()) / len(table[a]) for a in labels}
    return {"bots": list(labels), "specs": list(bots), "games_per_pair": games, "seed": seed,
            "kingdom": kingdom if isinstance(kingdom, str) else list(kingdom),
            "matches": matches, "table": table, "ties": ties, "average_win_rate": overall,
            "games": total, "games_per_second": total / seconds if seconds > 0 else 0.0}
