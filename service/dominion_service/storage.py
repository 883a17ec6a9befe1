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


class Storage(Protocol):
    def create_game(self, game: StoredGame) -> None:
        """Store a new game (no answers yet)."""

    def append_answer(self, game_id: str, number: int, seat: int, answer) -> None:
        """Store answer number ``number`` (0-based, the decision's sequence number)."""

    def load_games(self) -> Iterator[StoredGame]:
        """Every stored game with its answers, in creation order."""

    def close(self) -> None:
        ...


# ---------------------------------------------------------------------------------------------
# Answers as stable JSON: a Move is [verb, card]; card tuples and option tuples are lists.
# ---------------------------------------------------------------------------------------------

def answer_to_json(answer) -> str:
    """A stable JSON text for an engine answer: ``{"move": [verb, card]}`` for a Move,
    ``{"items": [...]}`` for a SELECT, CHOOSE or ORDER answer."""
    if isinstance(answer, dominion.Move):
        value = {"move": [answer.verb, answer.card]}
    else:
        value = {"items": list(answer)}
    return json.dumps(value, separators=(",", ":"))


def answer_from_json(text: str):
    """The engine answer stored by `answer_to_json`."""
    value = json.loads(text)
    if "move" in value:
        return dominion.Move(*value["move"])
    return tuple(value["items"])


def config_to_json(config: dominion.Config) -> str:
    return json.dumps({"players": list(config.players), "kingdom": list(config.kingdom),
                       "seed": config.seed, "first_player": config.first_player,
                       "always_ask": config.always_ask},
                      separators=(",", ":"))


def config_from_json(text: str) -> dominion.Config:
    value = json.loads(text)
    return dominion.Config(tuple(value["players"]), tuple(value["kingdom"]), value["seed"],
                           value["first_player"], value.get("always_ask", False))


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
    created REAL NOT NULL
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
            self._conn.execute("INSERT INTO games VALUES (?, ?, ?, ?)",
                               (game.game_id, config_to_json(game.config), seats, game.created))
            self._conn.executemany(
                "INSERT INTO answers VALUES (?, ?, ?, ?)",
                [(game.game_id, i, seat, answer_to_json(a))
                 for i, (seat, a) in enumerate(game.answers)])

    def append_answer(self, game_id: str, number: int, seat: int, answer) -> None:
        with self._transaction():
            self._conn.execute("INSERT INTO answers VALUES (?, ?, ?, ?)",
                               (game_id, number, seat, answer_to_json(answer)))

    def load_games(self) -> Iterator[StoredGame]:
        games = self._conn.execute(
            "SELECT game_id, config, seats, created FROM games ORDER BY created, game_id").fetchall()
        for game_id, config, seats, created in games:
            rows = self._conn.execute(
                "SELECT number, seat, answer FROM answers WHERE game_id = ? ORDER BY number",
                (game_id,)).fetchall()
            answers = tuple((seat, answer_from_json(a)) for _, seat, a in rows)
            yield StoredGame(game_id, config_from_json(config),
                             tuple(SeatRecord(*s) for s in json.loads(seats)), created, answers)

    def close(self) -> None:
        self._conn.close()
        self._release()

    def _transaction(self):
        return _Transaction(self._conn)


class _Transaction:
    """BEGIN ... COMMIT, or ROLLBACK when the body raises."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb):
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
        return False


def open_storage(path: Optional[str]) -> SqliteStorage:
    """The storage for a ``--db`` option: a path, ``":memory:"``, or None for the default file."""
    return SqliteStorage(default_db_path() if path is None else path)
