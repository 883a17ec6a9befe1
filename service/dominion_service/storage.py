"""Where games live between server runs: each game as its record (config and answers), plus its
seats (bot names and token digests).

`Storage` is the interface the server uses; `SqliteStorage` is the embedded default. Another
database (PostgreSQL) only has to implement the same four methods. Calls are synchronous and
made from one worker thread at a time; a method returns only once its write is durable, so an
answer acknowledged to a client is never lost.
"""
from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from pathlib import Path
from typing import Iterator, NamedTuple, Optional, Protocol

import dominion


class StorageError(Exception):
    """Storage that cannot be used, said in one line (a folder, a file that is not a database,
    a read-only file, a database another server holds)."""


class SeatRecord(NamedTuple):
    """A seat as stored: the bot playing it (``""`` for a client's seat) and the SHA-256 hex
    digest of its token (``""`` for a bot's seat). Tokens themselves are never stored."""
    bot: str
    token_digest: str


class StoredGame(NamedTuple):
    game_id: str
    config: dominion.Config
    seats: tuple                 # SeatRecord per seat
    created: float               # seconds since the epoch
    answers: tuple = ()          # (seat, answer) in the engine's form, in order
    creator: str = ""            # the creating client's address (its limits hold on restart)
    abandoned: bool = False      # ended by the server: no answer came for too long


class FinishedGame(NamedTuple):
    """What is kept in memory of a game that is over (its record is read when asked for)."""
    game_id: str
    players: tuple
    bots: tuple
    kingdom: tuple
    created: float
    turn: int
    answer_count: int
    abandoned: bool = False      # ended by the server, not by the rules


class BrokenGame(NamedTuple):
    """A stored game that cannot be served, and why (kept in the database for inspection)."""
    game_id: str
    reason: str


class Storage(Protocol):
    def create_game(self, game: StoredGame) -> None:
        """Store a new game (no answers yet)."""

    def append_answer(self, game_id: str, number: int, seat: int, answer, over: bool = False,
                      turn: int = 0) -> None:
        """Store answer number ``number`` (0-based, the decision's sequence number), and with
        it how many answers the game has acknowledged, whether it is over, and its turn."""

    # Optional: an attribute ``inline``, true when calls are quick enough (no disk sync) for the
    # server to make them on its event loop rather than in its storage thread.
    # Optional: append_answers(rows) -> list, storing several `append_answer` argument tuples
    # at once and returning each row's exception or None (see `SqliteStorage.append_answers`);
    # the server uses it when present, else calls append_answer once per row.

    def abandon_game(self, game_id: str) -> None:
        """Record that a game in progress was ended as abandoned (it is over from now on,
        and its record is as far as it went)."""

    def load_games(self) -> Iterator:
        """Every stored game that is not over, with its answers (`StoredGame`), or a
        `BrokenGame` for one that cannot be read, in creation order."""

    def finished_games(self) -> Iterator:
        """Every game that is over, as a `FinishedGame` (no answers read), or a
        `BrokenGame`."""

    def load_game(self, game_id: str):
        """One game with its answers (`StoredGame`), a `BrokenGame`, or None."""

    def close(self) -> None:
        ...


# ---------------------------------------------------------------------------------------------
# Answers as stable JSON: a Move is [verb, card]; card tuples and option tuples are lists.
# ---------------------------------------------------------------------------------------------

_answer_json: dict = {}   # answer -> its JSON text: most answers repeat (end_phase, a buy)


def answer_to_json(answer) -> str:
    """A stable JSON text for an engine answer (`dominion.answer_to_data`)."""
    text = _answer_json.get(answer)
    if text is None:
        text = json.dumps(dominion.answer_to_data(answer), separators=(",", ":"))
        if len(_answer_json) >= 4096:
            _answer_json.clear()
        _answer_json[answer] = text
    return text


def answer_from_json(text: str):
    """The engine answer stored by `answer_to_json`."""
    return dominion.answer_from_data(json.loads(text))


def config_to_json(config: dominion.Config) -> str:
    return json.dumps({"players": list(config.players), "kingdom": list(config.kingdom),
                       "seed": config.seed, "first_player": config.first_player,
                       "always_ask": config.always_ask},
                      separators=(",", ":"))


def config_from_json(text: str) -> dominion.Config:
    value = json.loads(text)
    return dominion.Config(tuple(value["players"]), tuple(value["kingdom"]), value["seed"],
                           value["first_player"], value.get("always_ask", False))


def _parse_game(config: str, seats: str) -> tuple:
    """(Config, SeatRecords) of a stored row; ValueError saying what is wrong with it."""
    try:
        cfg = config_from_json(config)
        seat_records = tuple(SeatRecord(*s) for s in json.loads(seats))
    except (ValueError, TypeError, KeyError) as e:
        raise ValueError(f"its stored configuration or seats cannot be read ({e})") from None
    if len(seat_records) != len(cfg.players):
        raise ValueError(f"it has {len(seat_records)} seats stored for {len(cfg.players)} "
                         "players")
    return cfg, seat_records


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/dominion/games.db``, else ``~/.local/share/dominion/games.db``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "dominion" / "games.db"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    config  TEXT NOT NULL,          -- JSON: players, kingdom, seed, first_player, always_ask
    seats   TEXT NOT NULL,          -- JSON: [[bot, token_digest], ...]
    created REAL NOT NULL,
    answer_count INTEGER NOT NULL DEFAULT 0,   -- answers acknowledged (a record shorter than
                                               -- this lost rows)
    over INTEGER NOT NULL DEFAULT 0,           -- 1 once the game has ended, 2 abandoned
    turn INTEGER NOT NULL DEFAULT 0,           -- turns started, as of the last answer
    creator TEXT NOT NULL DEFAULT ''           -- the creating client's address
);
CREATE TABLE IF NOT EXISTS answers (
    game_id TEXT NOT NULL REFERENCES games(game_id),
    number  INTEGER NOT NULL,       -- the decision's sequence number
    seat    INTEGER NOT NULL,
    answer  TEXT NOT NULL,          -- JSON, see answer_to_json
    PRIMARY KEY (game_id, number)
);
"""


class SqliteStorage:
    """Games in one SQLite file (or ``":memory:"``). Each write is its own committed
    transaction; the file uses write-ahead logging with full sync, so a committed answer
    survives a crash of the server or of the machine.

    A file is held by one server at a time (an exclusive lock on ``PATH.lock``, released when
    the storage is closed or the process ends), and is checked to be a writable SQLite database
    before any game is served; each problem is a `StorageError` saying what is wrong.
    ``created_folder`` names the folder made for the file, if it did not exist."""

    def __init__(self, path=":memory:"):
        path = str(path)
        self.path = path
        self.inline = path == ":memory:"   # nothing to sync: the server calls it directly
        self.created_folder = None
        self._lock = None
        if path != ":memory:":
            self._prepare_file(Path(path))
        # One worker thread uses the connection at a time (the server serializes calls).
        try:
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            if path != ":memory:":
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.executescript(_SCHEMA)
            self._add_missing_columns()
            self._check_writable()
        except sqlite3.Error as e:
            self._release()
            raise StorageError(f"{path}: cannot be used as the games database ({e})") from None

    def _prepare_file(self, path: Path) -> None:
        if path.is_dir():
            raise StorageError(f"{path} is a folder; --db names the database file in it, e.g. "
                               f"{path / 'games.db'}")
        if not path.parent.exists():
            try:
                path.parent.mkdir(parents=True)
            except OSError as e:
                raise StorageError(f"cannot create the folder {path.parent}: {e.strerror}") \
                    from None
            self.created_folder = str(path.parent)
        try:
            self._lock = open(f"{path}.lock", "a")
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._release()
            raise StorageError(f"{path} is in use by another server (its lock {path}.lock is "
                               "held); stop that server or use another --db") from None
        except OSError as e:
            self._release()
            raise StorageError(f"cannot lock {path}.lock: {e.strerror}") from None

    def _add_missing_columns(self) -> None:
        """Files from before a column existed get it (games already stored keep their
        records; their answer count is taken as the rows there are, their state as unfinished
        until replayed)."""
        have = {row[1] for row in self._conn.execute("PRAGMA table_info(games)")}
        for column in ("answer_count", "over", "turn"):
            if column not in have:
                self._conn.execute(f"ALTER TABLE games ADD COLUMN {column} INTEGER NOT NULL "
                                   "DEFAULT 0")
        if "answer_count" not in have:
            self._conn.execute("UPDATE games SET answer_count = (SELECT COUNT(*) FROM answers "
                               "WHERE answers.game_id = games.game_id)")
        if "creator" not in have:   # games stored before it count for no client
            self._conn.execute("ALTER TABLE games ADD COLUMN creator TEXT NOT NULL DEFAULT ''")

    def _check_writable(self) -> None:
        """Write and roll back, so that a read-only file is found before the server says it
        is SERVING (and not at the first answer)."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute("CREATE TABLE write_check (x)")
        finally:
            self._conn.execute("ROLLBACK")

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the file releases the lock
            self._lock = None

    def create_game(self, game: StoredGame) -> None:
        seats = json.dumps([list(s) for s in game.seats], separators=(",", ":"))
        with self._transaction():
            self._conn.execute(
                "INSERT INTO games (game_id, config, seats, created, answer_count, creator) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game.game_id, config_to_json(game.config), seats, game.created,
                 len(game.answers), game.creator))
            self._conn.executemany(
                "INSERT INTO answers VALUES (?, ?, ?, ?)",
                [(game.game_id, i, seat, answer_to_json(a))
                 for i, (seat, a) in enumerate(game.answers)])

    def append_answer(self, game_id: str, number: int, seat: int, answer, over: bool = False,
                      turn: int = 0) -> None:
        with self._transaction():
            self._conn.execute("INSERT INTO answers VALUES (?, ?, ?, ?)",
                               (game_id, number, seat, answer_to_json(answer)))
            self._conn.execute("UPDATE games SET answer_count = ?, over = ?, turn = ? "
                               "WHERE game_id = ?", (number + 1, int(over), turn, game_id))

    def append_answers(self, rows) -> list:
        """Store many answers (``append_answer``'s arguments, one tuple each, from different
        games) in one transaction, so one sync makes them all durable: the server's group
        commit. A row that fails is not stored and its exception is returned in its place
        (None for a row stored); when the commit itself fails, the exception is raised and
        none is stored. The rows are written together (two statements for all of them); when
        that fails, they are written again one by one, each in its own savepoint, to learn
        which failed. A subclass that overrides `append_answer` has it called for each row."""
        with self._transaction():
            if type(self).append_answer is SqliteStorage.append_answer and len(rows) > 1:
                conn = self._conn
                conn.execute("SAVEPOINT answers")
                try:
                    conn.executemany("INSERT INTO answers VALUES (?, ?, ?, ?)",
                                     [(game_id, number, seat, answer_to_json(answer))
                                      for game_id, number, seat, answer, *_ in rows])
                    conn.executemany("UPDATE games SET answer_count = ?, over = ?, turn = ? "
                                     "WHERE game_id = ?",
                                     [(row[1] + 1, int(_arg(row, 4, False)), _arg(row, 5, 0),
                                       row[0]) for row in rows])
                except Exception:   # some row failed: undone; each is tried on its own below
                    conn.execute("ROLLBACK TO answers")
                    conn.execute("RELEASE answers")
                else:
                    conn.execute("RELEASE answers")
                    return [None] * len(rows)
            errors = []
            for row in rows:
                try:
                    self.append_answer(*row)
                    errors.append(None)
                except Exception as e:  # this row only; it was rolled back to its savepoint
                    errors.append(e)
        return errors

    def abandon_game(self, game_id: str) -> None:
        with self._transaction():
            self._conn.execute("UPDATE games SET over = 2 WHERE game_id = ? AND over = 0",
                               (game_id,))

    _COLUMNS = "game_id, config, seats, created, answer_count, turn, creator, over"

    def load_games(self) -> Iterator:
        rows = self._conn.execute(f"SELECT {self._COLUMNS} FROM games WHERE over = 0 "
                                  "ORDER BY created, game_id").fetchall()
        for row in rows:
            yield self._read_game(row)

    def finished_games(self) -> Iterator:
        rows = self._conn.execute(f"SELECT {self._COLUMNS} FROM games WHERE over != 0 "
                                  "ORDER BY created, game_id").fetchall()
        for game_id, config, seats, created, count, turn, _, over in rows:
            try:
                cfg, seat_records = _parse_game(config, seats)
            except ValueError as e:
                yield BrokenGame(game_id, str(e))
                continue
            yield FinishedGame(game_id, cfg.players, tuple(s.bot for s in seat_records),
                               cfg.kingdom, created, turn, count, over == 2)

    def load_game(self, game_id: str):
        row = self._conn.execute(f"SELECT {self._COLUMNS} FROM games WHERE game_id = ?",
                                 (game_id,)).fetchone()
        return None if row is None else self._read_game(row)

    def _read_game(self, row):
        game_id, config, seats, created, count, _, creator, over = row
        try:
            cfg, seat_records = _parse_game(config, seats)
            rows = self._conn.execute(
                "SELECT number, seat, answer FROM answers WHERE game_id = ? ORDER BY number",
                (game_id,)).fetchall()
            if [n for n, _, _ in rows] != list(range(len(rows))) or len(rows) < count:
                return BrokenGame(game_id, f"its record has {len(rows)} answers in order but "
                                           f"{count} were acknowledged: answers are missing")
            answers = tuple((seat, answer_from_json(a)) for _, seat, a in rows)
        except (ValueError, KeyError, TypeError) as e:
            return BrokenGame(game_id, f"a stored answer cannot be read ({e})")
        return StoredGame(game_id, cfg, seat_records, created, answers, creator, over == 2)

    def close(self) -> None:
        self._conn.close()
        self._release()

    def _transaction(self):
        return _Transaction(self._conn)


def _arg(row: tuple, index: int, default):
    """An optional argument of `SqliteStorage.append_answer` in a row of its arguments."""
    return row[index] if len(row) > index else default


class _Transaction:
    """BEGIN ... COMMIT, or ROLLBACK when the body raises; inside a transaction already, a
    savepoint (released, or rolled back to when the body raises)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self.nested = False

    def __enter__(self):
        self.nested = self.conn.in_transaction
        self.conn.execute("SAVEPOINT answer" if self.nested else "BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb):
        if not self.nested:
            self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
        elif exc_type:
            self.conn.execute("ROLLBACK TO answer")
            self.conn.execute("RELEASE answer")
        else:
            self.conn.execute("RELEASE answer")
        return False


def open_storage(path: Optional[str]) -> SqliteStorage:
    """The storage for a ``--db`` option: a path, ``":memory:"``, or None for the default file."""
    return SqliteStorage(default_db_path() if path is None else path)

