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

import collections
import math
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass
from typing import Callable, Optional

from . import game as _game
from .bots.playout import play_out
from . import rng
from .bots import RandomBot, StrategyBot, bot_label, default_kingdom, make_bot
from .errors import DominionError
from .kingdoms import kingdom_pool

MAX_DECISIONS = 20_000  # a game still running after this many answers is counted as an error
_MASK = (1 << 64) - 1
BUILT_IN_BOTS = (StrategyBot, RandomBot)   # bots that read a view's fields by name only


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


def play_game(setup: Setup, index: int, max_decisions: int = MAX_DECISIONS) -> dict:
    """Play game ``index`` of a simulation to the end; a game that raises is returned with its
    error instead of scores."""
    n = len(setup.bots)
    seed = game_seed(setup.seed, index, n)
    seats = seating(index, n)
    labels = tuple(setup.labels[b] for b in seats)
    result = {"index": index, "seed": seed, "bots": list(labels)}
    try:
        state = _game.new_game(players=labels, kingdom=setup.kingdom, sets=setup.sets, seed=seed,
                               first_player=0)
        result["kingdom"] = list(state.config.kingdom)
        bots = [make_bot(setup.bots[b], _mix(seed ^ (s + 1))) for s, b in enumerate(seats)]
        # The built-in bots see each decision through an `Observation`, which builds only the
        # fields they read; other bots get a `View` as always.
        cheap = [type(bot) in BUILT_IN_BOTS for bot in bots]
        state, _ = play_out(state, bots, cheap, _game.step, max_decisions)
        if setup.records:   # also of a game cut short, which says so
            result["record"] = _game.record_to_data(_game.record(state), _game.ending(state))
        if state.stack:
            raise RuntimeError(f"the game did not end within {max_decisions} decisions")
        scores = _game.score(state)
        result.update(scores=list(scores), winners=[labels[s] for s in _game.winners(state)],
                      turns=state.turn, turns_taken=list(state.turns_taken))
    except Exception as exc:  # a simulation reports broken games, it does not stop at them
        result["error"] = f"{type(exc).__name__}: {exc}"
        d = getattr(exc, "decision", None)
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


MAX_FAILED = 100   # games with an error listed in a summary (all are counted)
IN_FLIGHT = 64     # chunks of games handed to an executor (a cluster) at a time


class Tally:
    """The statistics of a simulation, folded in game by game: memory stays the same for any
    number of games (per-game results are kept only when asked)."""

    def __init__(self, labels: tuple, keep_results: bool):
        self.labels = labels
        self.stats = {label: [0, 0, 0, 0] for label in labels}  # wins, ties, score, turns
        self.played = self.ties = self.errors = 0
        self.failed = []
        self.results = [] if keep_results else None

    def add(self, r: dict) -> None:
        if self.results is not None:
            self.results.append(r)
        if "error" in r:
            self.errors += 1
            if len(self.failed) < MAX_FAILED:
                self.failed.append({"index": r["index"], "seed": r["seed"], "error": r["error"]})
            return
        self.played += 1
        shared = len(r["winners"]) > 1
        self.ties += shared
        for seat, label in enumerate(r["bots"]):
            st = self.stats[label]
            st[2] += r["scores"][seat]
            st[3] += r["turns_taken"][seat]
            if label in r["winners"]:
                st[1 if shared else 0] += 1

    @property
    def games(self) -> int:
        return self.played + self.errors


def summarize(setup: Setup, tally: Tally, seconds: float, interrupted: bool = False) -> dict:
    """The report: totals, per-bot statistics, and the games when they were kept."""
    n = tally.played
    per_bot = []
    for label in setup.labels:
        wins, ties, score_sum, turn_sum = tally.stats[label]
        lo, hi = wilson(wins, n)
        per_bot.append({"bot": label, "games": n, "wins": wins, "ties": ties,
                        "win_rate": wins / n if n else 0.0, "ci95": [lo, hi],
                        "avg_score": score_sum / n if n else 0.0,
                        "avg_turns": turn_sum / n if n else 0.0})
    kingdom = setup.kingdom if isinstance(setup.kingdom, str) else list(setup.kingdom)
    summary = {
        "games": tally.games, "seed": setup.seed, "bots": per_bot,
        "wins": {b["bot"]: b["wins"] for b in per_bot}, "ties": tally.ties,
        "errors": tally.errors, "failed": tally.failed,
        "games_per_second": tally.games / seconds if seconds > 0 else 0.0,
        "seconds": seconds, "kingdom": kingdom,
        "sets": list(setup.sets) if setup.sets else None, "interrupted": interrupted,
    }
    if tally.results is not None:
        summary["results"] = tally.results
    return summary


def make_setup(bots, games: int, kingdom=None, sets=None, seed: Optional[int] = None,
               records: bool = False) -> Setup:
    """The `Setup` of a simulation, every argument checked (bots, number of games, Kingdom,
    sets, seed; a random seed drawn when none is given): a command calls it before it touches
    any file, so that a typo fails with nothing written."""
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
    if sets:
        kingdom_pool(sets)   # a mistyped set fails also when the Kingdom is not random
    _game.make_config(len(bots), kingdom, sets, seed)  # a bad Kingdom or set fails here
    return Setup(bots, labels_for(bots), kingdom if isinstance(kingdom, str) else tuple(kingdom),
                 sets, seed, records)


def simulate(bots, games: int, kingdom=None, sets=None, seed: Optional[int] = None,
             workers: Optional[int] = None,
             progress: Optional[Callable[[int, int], None]] = None,
             on_record: Optional[Callable[[dict], None]] = None,
             on_result: Optional[Callable[[dict], None]] = None,
             keep_results: bool = True, executor=None) -> dict:
    """Play ``games`` games between ``bots`` (names, strategy file paths or
    ``package.module:Class``, 2 to 6) and return the summary (see `summarize`). ``kingdom``: a
    preset, ``"random"`` (drawn per game group from ``sets``), 10 names, or None for
    `default_kingdom`. ``workers``: processes (default: every core). ``progress(done, total)``
    is called as games finish; ``on_result(result)`` with each game's result and
    ``on_record(line)`` with its record (`game_record_line`), in game order. Games are handed
    to the workers a few at a time, and only the statistics are kept unless ``keep_results``,
    so memory stays the same for any number of games. Ctrl-C (KeyboardInterrupt) stops the
    workers; the summary of the games finished so far comes back with ``interrupted``.

    ``executor``: play the games elsewhere: any object whose ``submit(fn, *args)`` returns a
    future with ``result()`` (a ``concurrent.futures`` executor, or a Dask ``distributed.Client``
    for a cluster of machines). Game ``i`` is a pure function of the setup and ``i``, so the
    results are the same as a local run's, whatever the executor and its workers."""
    setup = make_setup(bots, games, kingdom, sets, seed, on_record is not None)
    tally = Tally(setup.labels, keep_results)

    def collect(part):
        for result in part:
            if on_record is not None:
                on_record(game_record_line(result))
            if on_result is not None:
                on_result(result)
            tally.add(result)
        if progress:
            progress(tally.games, games)

    workers = max(1, min(workers or os.cpu_count() or 1, games))
    started = time.perf_counter()
    interrupted = False
    if executor is not None:
        chunk = max(1, min(50, games // 256 or 1))
        pending = collections.deque()
        try:
            for start in range(0, games, chunk):  # lazily, at most IN_FLIGHT chunks out
                pending.append(executor.submit(_play_range,
                                               (setup, start, min(games, start + chunk))))
                if len(pending) >= IN_FLIGHT:
                    collect(pending.popleft().result())
            while pending:
                collect(pending.popleft().result())
        except KeyboardInterrupt:
            interrupted = True
            for future in pending:
                future.cancel()
    elif workers == 1:
        chunk = max(1, min(20, games // 50 or 1))
        try:
            for start in range(0, games, chunk):
                collect(_play_range((setup, start, min(games, start + chunk))))
        except KeyboardInterrupt:
            interrupted = True
    else:
        chunk = max(1, min(50, games // (workers * 8) or 1))
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        pool = ctx.Pool(workers, initializer=_ignore_interrupts)
        pending = collections.deque()
        try:
            for start in range(0, games, chunk):  # lazily: a few chunks in flight at a time
                pending.append(pool.apply_async(_play_range,
                                                ((setup, start, min(games, start + chunk)),)))
                if len(pending) >= 4 * workers:
                    collect(pending.popleft().get())
            while pending:
                collect(pending.popleft().get())
            pool.close()
        except KeyboardInterrupt:
            interrupted = True
            pool.terminate()
        finally:
            pool.join()
    return summarize(setup, tally, time.perf_counter() - started, interrupted)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them and reports what finished."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
