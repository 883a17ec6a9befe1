"""Engine subcommands: ``dominion cards``, ``dominion kingdoms``, ``dominion simulate``,
``dominion tournament``."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import dominion
import dominion.bots

from .outfiles import add_write_options


def register(sub) -> None:
    p = sub.add_parser("cards", help="list every card with its cost, types and set",
                       description="List every card: name, cost, types and set.")
    p.add_argument("--json", action="store_true", help="print a JSON array of objects")
    p.set_defaults(run=run_cards)

    p = sub.add_parser("kingdoms", help="list the recommended Kingdoms and their cards",
                       description="List the recommended Kingdoms of the rulebooks: name, the "
                                   "sets they use and their 10 cards. Any of these names works "
                                   "as --kingdom.")
    p.add_argument("--json", action="store_true",
                   help="print a JSON array of objects with keys name, sets, cards")
    p.set_defaults(run=run_kingdoms)

    p = sub.add_parser(
        "simulate", help="play many bot games in parallel and report win rates",
        description="Play games between bots (built-in names or strategy files) on every core "
                    "and report, per bot, the win rate with a 95%% confidence interval (Wilson), "
                    "shared wins, average score and turns, and games per second. Seats rotate "
                    "from game to game so that no bot keeps the first-player advantage; the "
                    "same seed gives the same results whatever the number of workers.",
        epilog=f"bots: {', '.join(dominion.bots.bot_names())}, or a strategy file "
               "(path/to/strategy.toml; format in docs/bots.md). Default Kingdom: First Game, "
               "with the Kingdom cards the bots' strategies buy put in first.")
    _game_options(p)
    p.add_argument("--bots", required=True, type=_bot_list,
                   help="2 to 6 comma-separated bots, one per seat, e.g. "
                        "smithy-big-money,big-money")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (games, seed, wins, ties, errors, "
                        "games_per_second, bots, results, ...)")
    p.add_argument("--records", metavar="FILE.jsonl", default=None,
                   help="write each game's record (engine version, config with its seed, "
                        "answers, bots, result, how it ended) as one JSON line; "
                        "`dominion replay FILE.jsonl:N` shows game N. Output files are "
                        "written beside their place and renamed over it when the run ends "
                        "(an interrupted run: with the games it finished); a run that fails "
                        "leaves an existing file as it was")
    p.add_argument("--cluster", metavar="ADDRESS", default=None,
                   help="play the games on a Dask distributed cluster (its scheduler's "
                        "address, e.g. tcp://10.0.0.5:8786; needs the [cluster] extra): the "
                        "same seed gives the same results as a local run")
    p.add_argument("--csv", metavar="FILE.csv", default=None,
                   help="write one row per game as the games finish: index, seed, Kingdom, "
                        "bots by seat, scores, winners, turns, error")
    add_write_options(p)
    p.set_defaults(run=run_simulate)

    p = sub.add_parser(
        "replay", help="show a recorded game's log in words",
        description="Replay a game from a records file (`dominion simulate --records`) and "
                    "print its log in Dominion Online's words as one seat saw it, or as a "
                    "spectator did, or as JSON events; in the engine's words (the default "
                    "--style), then the scores and the winners, or for a game that did not "
                    "end (abandoned, cut short) that it did not end and the scores so far.")
    p.add_argument("record", metavar="FILE.jsonl[:I]", nargs="?", default=None,
                   help="a records file, and the game's index I in its simulation (from 0, "
                        "the record's `index`, as --index counts; default: the first line); "
                        "or the record the web page downloads at a game's end (FILE.json)")
    p.add_argument("--index", type=int, default=None, metavar="I",
                   help="instead of a file: game I of the simulation given by --bots, --seed "
                        "(and --kingdom, --sets), played again (games are pure functions of "
                        "the seed and the index)")
    p.add_argument("--bots", type=_bot_list, default=None,
                   help="with --index: the simulation's bots, as given to simulate")
    p.add_argument("--seed", type=seed_arg, default=None, help="with --index: its seed")
    p.add_argument("--kingdom", default=None, help="with --index: its --kingdom")
    p.add_argument("--sets", default=None, help="with --index: its --sets")
    p.add_argument("--seat", type=int, default=None,
                   help="show the game as this seat saw it (default: as a spectator)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object per event (kind, player, cards, hidden, detail, "
                        "text)")
    p.add_argument("--style", choices=dominion.STYLES, default="engine",
                   help="the log's words: the engine's (default), or Dominion Online's exact "
                        "log format (short names, header lines, (+$N)), which its players' "
                        "log parsers and deck trackers read")
    p.add_argument("--ratings", type=_ratings, default=None, metavar="R,R,...",
                   help="with --style dominion-online: a rated game's header, 'Game #N, "
                        "rated.' and a 'name: rating' line per player, with these ratings (one "
                        "number per seat, in seat order), which some log parsers need")
    p.set_defaults(run=run_replay)

    p = sub.add_parser(
        "tournament", help="play every pair of bots and print a table of win rates",
        description="A round robin: every pair of bots plays --games 2-player games (seats "
                    "rotated, same seed for every pair); prints each bot's win rate against "
                    "each other bot and its average.",
        epilog=f"bots: {', '.join(dominion.bots.bot_names())}, or strategy files (.toml).")
    _game_options(p)
    p.add_argument("--bots", required=True, type=_bot_list,
                   help="at least 2 comma-separated bots, e.g. big-money,smithy-big-money,"
                        "witch-big-money")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_tournament)


def bot_arg(text: str) -> str:
    """One bot: a built-in name, a strategy file or ``package.module:Class`` (the one resolver,
    `dominion.bots.make_bot`, checks it now, so a wrong name fails before any game)."""
    try:
        dominion.bots.make_bot(text.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text.strip()


def _bot_list(text: str) -> list:
    bots = dominion.bots.split_bot_list(text)
    for b in bots:
        try:
            dominion.bots.make_bot(b)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return bots


def seed_arg(text: str) -> int:
    """A --seed value: an integer from 0 to 2**64 - 1, as everywhere (`dominion.check_seed`)."""
    try:
        return dominion.check_seed(int(text))
    except (ValueError, dominion.DominionError):
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a seed (an integer from 0 to 2**64 - 1)") from None


def _ratings(text: str) -> tuple:
    """--ratings: comma-separated numbers."""
    try:
        return tuple(float(r) for r in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a list of numbers, e.g. "
                                          "41.5,39") from None


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:   # not on every system
        return os.cpu_count() or 1


def _workers(text: str) -> int:
    """A --workers value: at least 1, and capped, with a word, at the cores this process may
    use (more processes than cores only share them and slow the games down)."""
    n = _positive(text)
    cores = usable_cores()
    if n > cores:
        print(f"dominion: --workers {n} is more than the {cores} cores this machine lets "
              f"it use; using {cores}", file=sys.stderr)
        return cores
    return n


def _game_options(p) -> None:
    p.add_argument("--games", type=_positive, default=100,
                   help="number of games (per pair, for a tournament; default 100)")
    p.add_argument("--kingdom", default=None,
                   help="a recommended Kingdom (see `dominion kingdoms`), 'random' (drawn per "
                        "game from --sets), or 10 comma-separated card names")
    p.add_argument("--sets", default=None,
                   help=f"comma-separated sets for --kingdom random: {', '.join(dominion.SETS)} "
                        "(default: all)")
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="seed of the whole run, 0 to 2**64 - 1 (default: random, and printed)")
    p.add_argument("--workers", type=_workers, default=None,
                   help="worker processes (default: every core; at most the cores this "
                        "machine lets the process use)")


def run_kingdoms(args) -> int:
    rows = [{"name": name, "sets": list(sets), "cards": list(cards)}
            for name, (sets, cards) in dominion.RECOMMENDED.items()]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            print(f"{r['name']} ({', '.join(r['sets'])})")
            print(f"    {', '.join(r['cards'])}")
    return 0


def format_duration(seconds: float) -> str:
    """"42 s", "3 min 5 s", "2 h 10 min": an estimate to read at a glance."""
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


class Progress:
    """A progress bar on stderr, drawn only on a terminal."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.started = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        width = 30
        filled = width * done // total
        rate = done / max(1e-9, time.perf_counter() - self.started)
        eta = (total - done) / rate if rate > 0 else 0
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, "
                         f"{rate:.0f}/s, {format_duration(eta)} left ")
        if done == total:
            sys.stderr.write("\r" + " " * (width + 40) + "\r")
        sys.stderr.flush()


def _run(fn, args, **kw):
    from dominion.simulate import SimulationError
    sets = [s.strip() for s in args.sets.split(",")] if args.sets else None
    try:
        return fn(args.bots, args.games, kingdom=args.kingdom, sets=sets, seed=args.seed,
                  workers=args.workers, progress=Progress(not args.json), **kw)
    except (SimulationError, dominion.DominionError, ValueError) as exc:
        print(f"dominion: {exc}", file=sys.stderr)
        return None


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


CSV_COLUMNS = ("index", "seed", "kingdom", "bots", "scores", "winners", "turns", "error")


def run_simulate(args) -> int:
    """Simulate; per-game output goes to --records (JSON lines) and --csv as games finish, so
    that only the statistics stay in memory (all results are kept only for --json). Every
    argument (bots, Kingdom, sets, the cluster) is checked before a file is touched, and the
    files are written beside their place and renamed over it at the end (`OutputFile`): a run
    that fails leaves what was there; an interrupted one writes the games it finished."""
    import contextlib
    import csv

    from dominion.simulate import SimulationError, make_setup, simulate

    from .outfiles import OutputError, OutputFile, write_mode
    sets = [s.strip() for s in args.sets.split(",")] if args.sets else None
    try:
        setup = make_setup(args.bots, args.games, args.kingdom, sets, args.seed)
    except (SimulationError, dominion.DominionError, ValueError) as exc:
        print(f"dominion: {exc}", file=sys.stderr)
        return 2
    args.kingdom, args.seed = setup.kingdom, setup.seed   # checked, and the seed drawn once
    paths = [p for p in (args.records, args.csv) if p is not None]
    if len(paths) == 2 and os.path.abspath(paths[0]) == os.path.abspath(paths[1]):
        print("dominion: --records and --csv name the same file", file=sys.stderr)
        return 2
    with contextlib.ExitStack() as files:
        hooks = {}
        if args.cluster is not None:
            try:
                from .cluster import connect_cluster
                hooks["executor"] = files.enter_context(connect_cluster(args.cluster))
            except (ImportError, OSError) as exc:
                print(f"dominion: {exc}", file=sys.stderr)
                return 2
        outputs = []
        mode = write_mode(args)
        try:
            if args.records is not None:
                records = files.enter_context(OutputFile(args.records, "--records", mode))
                outputs.append(records)

                def write_record(line: dict) -> None:
                    records.file.write(json.dumps(line, separators=(",", ":")) + "\n")
                hooks["on_record"] = write_record
            if args.csv is not None:
                table = files.enter_context(OutputFile(args.csv, "--csv", mode,
                                                       header=",".join(CSV_COLUMNS)))
                outputs.append(table)
                rows = csv.writer(table.file)
                if table.empty:
                    rows.writerow(CSV_COLUMNS)

                def write_row(r: dict) -> None:
                    rows.writerow([r["index"], r["seed"], " | ".join(r.get("kingdom", ())),
                                   " | ".join(r["bots"]),
                                   " ".join(map(str, r.get("scores", ()))),
                                   " | ".join(r.get("winners", ())), r.get("turns", ""),
                                   r.get("error", "")])
                hooks["on_result"] = write_row
        except OutputError as exc:
            print(f"dominion: {exc}", file=sys.stderr)
            return 2
        summary = _run(simulate, args, keep_results=args.json, **hooks)
        if summary is not None:
            try:
                for out in outputs:
                    out.commit()
            except OSError as exc:
                print(f"dominion: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
                return 2
    if summary is None:
        return 2
    if args.json:
        print(json.dumps(summary))
        return 130 if summary["interrupted"] else 0
    kingdom = summary["kingdom"]
    if kingdom == "random":
        sets = ", ".join(summary["sets"] or dominion.SETS)
        kingdom = f"random, drawn for each group of games from {sets} (see --records, --csv)"
    elif not isinstance(kingdom, str):
        kingdom = ", ".join(kingdom)
    else:
        kingdom = f"{kingdom} ({', '.join(dominion.RECOMMENDED[kingdom][1])})" \
            if kingdom in dominion.RECOMMENDED else kingdom
    stopped = " (interrupted: the games finished so far)" if summary["interrupted"] else ""
    print(f"{summary['games']} games{stopped}, seed {summary['seed']}, Kingdom: {kingdom}")
    width = max(len(b["bot"]) for b in summary["bots"]) + 2
    print(f"{'bot':<{width}} {'wins':>6} {'win rate':>8}  {'95% CI':<15} {'ties':>5} "
          f"{'avg score':>9} {'avg turns':>9}")
    for b in summary["bots"]:
        lo, hi = b["ci95"]
        print(f"{b['bot']:<{width}} {b['wins']:>6} {_pct(b['win_rate']):>8}  "
              f"[{_pct(lo)},{_pct(hi)}] {b['ties']:>5} {b['avg_score']:>9.1f} "
              f"{b['avg_turns']:>9.1f}")
    print(f"ties: {summary['ties']}, errors: {summary['errors']}, "
          f"{summary['games_per_second']:.0f} games/s")
    for f in summary["failed"][:10]:
        print(f"  game {f['index']} (seed {f['seed']}): {f['error']}")
    if summary["interrupted"]:
        return 130
    return 1 if summary["errors"] else 0


def _record_spec(spec: str) -> tuple:
    """(FILE, I) of FILE.jsonl[:I]; I is None when not given. ValueError for ``FILE:X`` where
    FILE exists (and ``FILE:X`` does not) and X is not a game number."""
    path, _, index_text = spec.rpartition(":")
    if not path or not index_text.isdigit():
        if path and os.path.isfile(path) and not os.path.exists(spec):
            raise ValueError(f"{index_text[:40]!r} after {path}: is not a game number (games "
                             "are numbered from 0: FILE.jsonl:0, FILE.jsonl:1, ...)")
        return spec, None
    return path, int(index_text)


def _read_record_line(spec: str) -> dict:
    """The JSON record of game I in FILE.jsonl[:I]: the line whose ``index`` is I, the game's
    number in its simulation, counted from 0 like ``--index`` (a line without ``index`` is
    numbered by its place in the file, from 0); without ``:I``, the file's first line. Games are
    written as they finish, so with several workers the lines need not be in index order; the
    file is read line by line (a records file can be as long as a simulation). Or a file that
    is one JSON document (the web page's download)."""
    path, wanted = _record_spec(spec)
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline()
            try:
                data = json.loads(first)
            except json.JSONDecodeError:   # not a JSON line: the whole file is one document
                try:
                    return json.loads(first + f.read())
                except json.JSONDecodeError:
                    raise ValueError(f"{path} is neither a records file (a JSON object per "
                                     "line) nor one record (a JSON document)") from None
            line = 0
            while True:
                index = data.get("index", line) if isinstance(data, dict) else line
                if wanted is None or index == wanted:
                    return data
                text = f.readline()
                if not text:
                    break
                line += 1
                try:
                    data = json.loads(text)
                except json.JSONDecodeError:
                    raise ValueError(f"line {line + 1} of {path} is not JSON") from None
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a records file (a JSON object per line) nor a record "
                         "(a JSON document): it is not text") from None
    raise ValueError(f"{path} has no game {wanted} (games are numbered from 0)")


def _game_index(data, spec: str) -> int:
    """The index of the game read from ``spec``: its record's ``index``, else the I asked
    for, else 0."""
    index = data.get("index") if isinstance(data, dict) else None
    if isinstance(index, int):
        return index
    return _record_spec(spec)[1] or 0


def record_of(data) -> dominion.Record:
    """The record in ``data``: a records file's line (`dominion.record_from_data`), or the
    JSON of GetRecordResponse that the web page downloads (answers as ``{"seat", "answer"}``);
    a record of another engine version is refused."""
    answers = data.get("answers") if isinstance(data, dict) else None
    if not (answers and isinstance(answers[0], dict)):
        return dominion.record_from_data(data)
    from google.protobuf import json_format

    from dominion_proto import dominion_pb2 as pb

    from .convert import record_from_pb
    try:
        msg = json_format.ParseDict(data, pb.GetRecordResponse(), ignore_unknown_fields=True)
    except json_format.ParseError as e:
        raise dominion.InvalidConfigError(f"this game record cannot be read: {e}") from None
    rec = record_from_pb(msg)   # then the engine's own checks (its version, its count)
    return dominion.record_from_data(dict(
        dominion.record_to_data(rec), engine_version=msg.engine_version or
        dominion.ENGINE_VERSION, answer_count=msg.answer_count or len(rec.answers)))


def run_tournament(args) -> int:
    from dominion.simulate import tournament
    if len(set(args.bots)) < 2:
        print("dominion: a tournament needs at least 2 different bots", file=sys.stderr)
        return 2
    result = _run(tournament, args)
    if result is None:
        return 2
    if args.json:
        print(json.dumps(result))
        return 0
    bots = result["bots"]
    table, ties = result["table"], result["ties"]
    kingdom = result["kingdom"]
    print(f"{result['games_per_pair']} games per pair, seed {result['seed']}, Kingdom: "
          f"{kingdom if isinstance(kingdom, str) else ', '.join(kingdom)}")
    print("row's wins / shared wins against column (the bots are numbered below)")
    width = len(str(len(bots))) + 2
    print(" " * width + "".join(f"{i:>14}" for i in range(1, len(bots) + 1)) + f"{'average':>10}")
    for i, a in enumerate(bots, 1):
        cells = "".join(f"{'-':>14}" if a == b else
                        f"{_pct(table[a][b]).strip():>7}/{_pct(ties[a][b]).strip():>6}"
                        for b in bots)
        print(f"{i:<{width}}{cells}{_pct(result['average_win_rate'][a]):>10}")
    for i, a in enumerate(bots, 1):
        print(f"  {i}: {a}")
    errors = sum(m["errors"] for m in result["matches"])
    print(f"errors: {errors}, {result['games_per_second']:.0f} games/s")
    return 1 if errors else 0


def _record_of_simulated_game(args) -> dict:
    """The record of game ``--index`` of the simulation ``--bots --seed [--kingdom --sets]``,
    played again (a game is a pure function of the simulation's setup and its index)."""
    from dominion.simulate import Setup, labels_for, play_game
    if args.bots is None or args.seed is None:
        raise dominion.InvalidConfigError("--index needs the simulation's --bots and --seed")
    if args.index < 0:
        raise dominion.InvalidConfigError("--index counts games from 0")
    kingdom = args.kingdom if args.kingdom is not None else \
        dominion.bots.default_kingdom(args.bots)
    if isinstance(kingdom, str) and "," in kingdom:
        kingdom = tuple(c.strip() for c in kingdom.split(","))
    sets = tuple(x.strip() for x in args.sets.split(",")) if args.sets else None
    setup = Setup(tuple(args.bots), labels_for(args.bots), kingdom, sets, args.seed, True)
    result = play_game(setup, args.index)
    if "error" in result:
        raise dominion.InvalidConfigError(f"game {args.index} raised: {result['error']}")
    return result["record"]


def run_replay(args) -> int:
    """Print a recorded game's log (see the ``replay`` command)."""
    try:
        if args.index is not None:
            data = _record_of_simulated_game(args)
        elif args.record is None:
            raise dominion.InvalidConfigError("give a records file (FILE.jsonl[:I]) or "
                                              "--index with the simulation's --bots and --seed")
        else:
            data = _read_record_line(args.record)
        state = dominion.replay(record_of(data))
        names = state.config.players
        ended = data.get("ended") if isinstance(data, dict) else None
        if ended == "over" and not dominion.is_over(state):
            raise ValueError(f"the record says its game is over, but its "
                             f"{len(state.answers)} answers do not end it")
        if args.seat is not None and not 0 <= args.seat < len(names):
            raise dominion.InvalidConfigError(f"--seat must be 0 to {len(names) - 1}")
        if args.ratings is not None and (args.style != dominion.STYLES[1] or args.json):
            raise dominion.InvalidConfigError("--ratings is for --style dominion-online")
        if args.ratings is not None and len(args.ratings) != len(names):
            raise dominion.InvalidConfigError(f"--ratings needs one number per seat "
                                              f"({len(names)}), not {len(args.ratings)}")
    except (dominion.DominionError, ValueError) as exc:
        print(f"dominion replay: {exc}", file=sys.stderr)
        return 2
    # Dominion Online's "Game #N": the game's index in its simulation (one numbering, from 0).
    game_number = args.index if args.index is not None else _game_index(data, args.record)
    if args.json:
        seen = dominion.view(state, args.seat, log_from=0).log
        for raw, event in zip(state.log, seen):
            line = dominion.log_line(raw, names, args.seat, args.style)
            hidden = not event.cards and event.seen_by is not None
            print(json.dumps({"kind": event.kind, "player": event.player,
                              "cards": list(event.cards),
                              "hidden": event.detail if hidden else 0,
                              "detail": None if hidden else event.detail, "text": line}))
    else:
        for line in dominion.log_lines(state.log, names, args.seat, args.style, game_number,
                                       args.ratings):
            print(line)
    if not args.json and args.style == "engine":
        print(result_line(state, ended))
    return 0


def result_line(state, ended) -> str:
    """The last line of a replay: the scores and the winners of a game that is over; of one
    that is not, that it did not end (how, when its record says: abandoned, cut short) after
    how many answers, and the scores so far, with no winner."""
    names = state.config.players
    scores = ", ".join(f"{n} {v}" for n, v in zip(names, dominion.score(state)))
    if dominion.is_over(state):
        won = dominion.winners(state)
        return (f"Scores: {scores}; winner{'s' if len(won) > 1 else ''}: "
                + ", ".join(names[w] for w in won))
    how = f"{ended}, " if ended in dominion.ENDINGS[1:] else ""
    return (f"The game did not end ({how}after {len(state.answers)} answers); scores so far: "
            f"{scores}")


def card_rows() -> list:
    order = {s: i for i, s in enumerate(("basic",) + dominion.SETS)}
    cards = sorted(dominion.CARDS.values(), key=lambda c: (order[c.set], c.cost, c.name))
    return [{"name": c.name, "cost": c.cost, "types": list(c.types), "set": c.set} for c in cards]


def run_cards(args) -> int:
    rows = card_rows()
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            print(f"{r['name']:<16} ${r['cost']}  {', '.join(r['types']):<22} {r['set']}")
    return 0
