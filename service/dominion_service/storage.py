"""Where games live between server runs: each game as its record (config and answers), plus its
seats (bot names and token digests).

`Storage` is the interface the server uses; `SqliteStorage` is the embedded default and
`PostgresStorage` (storage_pg.py) keeps the same games in PostgreSQL; `open_storage` picks one
from the ``--db`` option. Calls are synchronous and made from one worker thread at a time; a
method returns only once its write is durable, so an answer acknowledged to a client is never
lost. The database, not the server, decides which answer to a decision is stored: answer
number N of a game is stored only when the game has exactly N answers (`AnswerConflict`
otherwise), so of two writers racing for one decision exactly one wins.

Each backend's schema is versioned: a ``schema_version`` table lists the numbered steps applied
(`Migration`), and opening a database applies the steps it lacks, in order, in one transaction.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple, Optional, Protocol

import dominion


class StorageError(Exception):
    """Storage that cannot be used, said in one line (a folder, a file that is not a database,
    a read-only file, a database another server holds)."""


class AnswerConflict(StorageError):
    """An answer the database refused because it is not the next one of its game: another
    answer to that decision was stored first (by this server or another on the same
    database), or the game is not there."""


class SeatTaken(StorageError):
    """A seat that `Storage.claim_seat` found no longer as the caller saw it: taken first."""


class SeatRecord(NamedTuple):
    """A seat as stored: the bot playing it (``""`` for a client's seat) and the SHA-256 hex
    digest of its token (``""`` for a bot's seat, and for an open seat: a person's seat whose
    token no one has taken yet, `open_seat`). Tokens themselves are never stored."""
    bot: str
    token_digest: str

    @property
    def open_seat(self) -> bool:
        return not self.bot and not self.token_digest


class StoredGame(NamedTuple):
    game_id: str
    config: dominion.Config
    seats: tuple                 # SeatRecord per seat
    created: float               # seconds since the epoch
    answers: tuple = ()          # (seat, answer) in the engine's form, in order
    creator: str = ""            # the creating client's address (its limits hold on restart)
    abandoned: bool = False      # ended by the server: no answer came for too long
    undo: bool = True            # its seats may take back a move (CreateGameRequest.undo);
                                 # kept in the config's JSON as "undo": false when off


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


class GameRows(NamedTuple):
    """A game exactly as stored, for copying between databases (`copy_games`): the JSON texts
    as they are, even those that cannot be read, so that nothing is lost or changed."""
    game_id: str
    config: str
    seats: str
    created: float
    answer_count: int
    over: bool
    turn: int
    creator: str
    abandoned: bool
    answers: tuple              # (number, seat, answer JSON text) in number order


class Migration(NamedTuple):
    """One numbered step of a backend's schema; ``apply(connection)`` runs inside the
    transaction that records it in ``schema_version``."""
    version: int
    summary: str
    apply: Callable


def pending_migrations(where: str, current: int, migrations: tuple) -> tuple:
    """The steps a database at schema ``current`` lacks; a `StorageError` when it was written
    by a newer version of this program (whose schema this one does not know)."""
    latest = migrations[-1].version
    if current > latest:
        raise StorageError(f"{where}: its schema is version {current}, newer than this "
                           f"program's {latest}; upgrade dominion to serve it")
    return tuple(m for m in migrations if m.version > current)


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

    def claim_seat(self, game_id: str, seats: tuple, claimed: tuple,
                   config: dominion.Config) -> None:
        """Store that an open seat was taken: the game's seats become ``claimed`` and its
        config ``config`` (the seat's new name), only if its seats are still ``seats`` and it
        is not over; else `SeatTaken`, storing nothing (of two takers of one seat, one wins)."""

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

    # For `copy_games` (``dominion db copy``): every game exactly as stored, and storing such
    # games; both backends have them.
    def dump_games(self) -> Iterator:
        """Every game as `GameRows`, in creation order."""

    def dump_game(self, game_id: str) -> Optional[GameRows]:
        """One game as `GameRows`, or None."""

    def restore_games(self, games: Iterable) -> tuple:
        """Store `GameRows` in one transaction; returns (stored, already there identical).
        A game whose id is there with other contents refuses the whole lot (`StorageError`)."""


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


def config_to_json(config: dominion.Config, undo: bool = True) -> str:
    """A game's setup as stored: the engine's config, and the table's setting ``undo``
    (written only when off, so that rows from before it existed read as before)."""
    value = {"players": list(config.players), "kingdom": list(config.kingdom),
             "seed": config.seed, "first_player": config.first_player,
             "always_ask": config.always_ask}
    if not undo:
        value["undo"] = False
    return json.dumps(value, separators=(",", ":"))


def config_from_json(text: str) -> dominion.Config:
    value = json.loads(text)
    return dominion.Config(tuple(value["players"]), tuple(value["kingdom"]), value["seed"],
                           value["first_player"], value.get("always_ask", False))


def undo_from_json(config: str) -> bool:
    """The ``undo`` setting stored in a game's config JSON (`config_to_json`)."""
    return json.loads(config).get("undo", True) is not False


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


def stored_game(game_id: str, config: str, seats: str, created: float, count: int,
                answer_rows: list, creator: str = "", abandoned: bool = False):
    """A `StoredGame` from its row and its answer rows ((number, seat, JSON) in order), or a
    `BrokenGame` saying what is wrong: its configuration, an answer, or answers missing."""
    try:
        cfg, seat_records = _parse_game(config, seats)
        if [n for n, _, _ in answer_rows] != list(range(len(answer_rows))) \
                or len(answer_rows) < count:
            return BrokenGame(game_id, f"its record has {len(answer_rows)} answers in order "
                                       f"but {count} were acknowledged: answers are missing")
        answers = tuple((seat, answer_from_json(a)) for _, seat, a in answer_rows)
    except (ValueError, KeyError, TypeError) as e:
        return BrokenGame(game_id, f"a stored answer cannot be read ({e})")
    return StoredGame(game_id, cfg, seat_records, created, answers, creator, bool(abandoned),
                      undo_from_json(config))


def finished_game(game_id: str, config: str, seats: str, created: float, count: int,
                  turn: int, abandoned: bool = False):
    """A `FinishedGame` from its row, or a `BrokenGame`."""
    try:
        cfg, seat_records = _parse_game(config, seats)
    except ValueError as e:
        return BrokenGame(game_id, str(e))
    return FinishedGame(game_id, cfg.players, tuple(s.bot for s in seat_records), cfg.kingdom,
                        created, turn, count, bool(abandoned))


def seats_to_json(seats: tuple) -> str:
    return json.dumps([list(s) for s in seats], separators=(",", ":"))


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/dominion/games.db``, else ``~/.local/share/dominion/games.db``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "dominion" / "games.db"


# Version 1: the schema as it was when versions began (files from before then get the columns
# they lack; their answer count is taken as the rows there are, their state as unfinished until
# replayed). A later step is appended to SQLITE_MIGRATIONS (and PG_MIGRATIONS in storage_pg).
_SQLITE_V1 = (
    """CREATE TABLE IF NOT EXISTS games (
        game_id TEXT PRIMARY KEY,
        config  TEXT NOT NULL,          -- JSON: players, kingdom, seed, first_player, always_ask
                                        -- (and "undo": false for a game without take-backs)
        seats   TEXT NOT NULL,          -- JSON: [[bot, token_digest], ...]
        created REAL NOT NULL,
        answer_count INTEGER NOT NULL DEFAULT 0,   -- answers acknowledged (a record shorter
                                                   -- than this lost rows)
        over INTEGER NOT NULL DEFAULT 0,           -- 1 once the game has ended
        turn INTEGER NOT NULL DEFAULT 0            -- turns started, as of the last answer
    )""",
    """CREATE TABLE IF NOT EXISTS answers (
        game_id TEXT NOT NULL REFERENCES games(game_id),
        number  INTEGER NOT NULL,       -- the decision's sequence number
        seat    INTEGER NOT NULL,
        answer  TEXT NOT NULL,          -- JSON, see answer_to_json
        PRIMARY KEY (game_id, number)
    )""",
)


def _sqlite_v1(conn: sqlite3.Connection) -> None:
    for statement in _SQLITE_V1:
        conn.execute(statement)
    have = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    for column in ("answer_count", "over", "turn"):
        if column not in have:
            conn.execute(f"ALTER TABLE games ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0")
    if "answer_count" not in have:
        conn.execute("UPDATE games SET answer_count = (SELECT COUNT(*) FROM answers "
                     "WHERE answers.game_id = games.game_id)")


# Version 2: who created each game (its client's per-client limits hold across restarts) and
# whether the server ended it as abandoned (no answer came for too long).
_V2_COLUMNS = (
    "ALTER TABLE games ADD COLUMN creator TEXT NOT NULL DEFAULT ''",   # '' before it existed
    "ALTER TABLE games ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0",
)


def _sqlite_v2(conn: sqlite3.Connection) -> None:
    for statement in _V2_COLUMNS:
        conn.execute(statement)


SQLITE_MIGRATIONS = (
    Migration(1, "games and their answers", _sqlite_v1),
    Migration(2, "each game's creator, and games ended as abandoned", _sqlite_v2),
)

# The same table in both backends: one row per schema step applied.
SCHEMA_VERSION_TABLE = ("CREATE TABLE IF NOT EXISTS schema_version ("
                         "version INTEGER PRIMARY KEY, summary TEXT NOT NULL, "
                         "applied DOUBLE PRECISION NOT NULL)")


class SqliteStorage:
    """Games in one SQLite file (or ``":memory:"``). Each write is its own committed
    transaction; the file uses write-ahead logging with full sync, so a committed answer
    survives a crash of the server or of the machine.

    A file is held by one server at a time (an exclusive lock on ``PATH.lock``, released when
    the storage is closed or the process ends), is brought to the current schema
    (`SQLITE_MIGRATIONS`), and is checked to be a sound (SQLite's ``quick_check``) and writable
    SQLite database before any game is served; each problem is a `StorageError` saying what
    is wrong. ``created_folder`` names
    the folder made for the file, if it did not exist."""

    def __init__(self, path=":memory:"):
        path = str(path)
        self.path = path
        self.inline = path == ":memory:"   # nothing to sync: the server calls it directly
        self.created_folder = None
        self._lock = None
        self._made_lock = None
        if path != ":memory:":
            self._prepare_file(Path(path))
        # One worker thread uses the connection at a time (the server serializes calls).
        try:
            if path != ":memory:":
                self._check_sound(path)
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            if path != ":memory:":
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=FULL")
            self._migrate()
            self._check_writable()
        except sqlite3.Error as e:
            self._refused()
            raise StorageError(f"{path}: cannot be used as the games database ({e})") from None
        except StorageError:
            self._refused()
            raise

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
        lock = Path(f"{path}.lock")
        self._made_lock = None if lock.exists() else lock   # removed again if refused
        try:
            self._lock = open(lock, "a")
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._release()
            raise StorageError(f"{path} is in use by another server (its lock {path}.lock is "
                               "held); stop that server or use another --db") from None
        except OSError as e:
            self._release()
            raise StorageError(f"cannot lock {path}.lock: {e.strerror}") from None

    @staticmethod
    def _check_sound(path: str) -> None:
        """SQLite's ``quick_check`` on its own connection (its pages are not kept in the
        server's cache): a damaged page is found before the server says SERVING, not as a
        write refused 'try again' for ever."""
        with contextlib.closing(sqlite3.connect(path)) as conn:
            found = [line.strip() for (row,) in conn.execute("PRAGMA quick_check(5)")
                     for line in row.splitlines() if line.strip()]
        if found != ["ok"]:
            raise StorageError(
                f"{path} is damaged (SQLite's quick_check: {'; '.join(found)[:300]}); restore "
                f"a backup, or copy what can be read with: sqlite3 {path} .recover | sqlite3 "
                "recovered.db")

    def _migrate(self) -> None:
        """Apply the schema steps the file lacks, all in one transaction (a file from before
        versions began is at version 0)."""
        with self._transaction():
            self._conn.execute(SCHEMA_VERSION_TABLE)
            (current,) = self._conn.execute(
                "SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
            for step in pending_migrations(self.path, current, SQLITE_MIGRATIONS):
                step.apply(self._conn)
                self._conn.execute("INSERT INTO schema_version VALUES (?, ?, ?)",
                                   (step.version, step.summary, time.time()))

    def schema_version(self) -> int:
        return self._conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]

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

    def _refused(self) -> None:
        """Release the lock of a file refused as the games database, and remove the lock file
        if it was made for it: a refused --db leaves nothing beside the file."""
        self._release()
        if self._made_lock is not None:
            self._made_lock.unlink(missing_ok=True)
            self._made_lock = None

    def create_game(self, game: StoredGame) -> None:
        with self._transaction():
            self._conn.execute(
                "INSERT INTO games (game_id, config, seats, created, answer_count, creator) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game.game_id, config_to_json(game.config, game.undo), seats_to_json(game.seats),
                 game.created, len(game.answers), game.creator))
            self._conn.executemany(
                "INSERT INTO answers VALUES (?, ?, ?, ?)",
                [(game.game_id, i, seat, answer_to_json(a))
                 for i, (seat, a) in enumerate(game.answers)])

    _NEXT_ANSWER = ("UPDATE games SET answer_count = ?, over = ?, turn = ? "
                    "WHERE game_id = ? AND answer_count = ?")

    def append_answer(self, game_id: str, number: int, seat: int, answer, over: bool = False,
                      turn: int = 0) -> None:
        with self._transaction():
            if self._conn.execute(self._NEXT_ANSWER, (number + 1, int(over), turn, game_id,
                                                      number)).rowcount != 1:
                raise self._conflict(game_id, number)
            try:
                self._conn.execute("INSERT INTO answers VALUES (?, ?, ?, ?)",
                                   (game_id, number, seat, answer_to_json(answer)))
            except sqlite3.IntegrityError:   # a row past the count: a damaged record
                raise self._conflict(game_id, number) from None

    def _conflict(self, game_id: str, number: int) -> AnswerConflict:
        row = self._conn.execute("SELECT answer_count FROM games WHERE game_id = ?",
                                 (game_id,)).fetchone()
        return answer_conflict(game_id, number, None if row is None else row[0])

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
                    updated = conn.executemany(
                        self._NEXT_ANSWER,
                        [(row[1] + 1, int(_arg(row, 4, False)), _arg(row, 5, 0), row[0],
                          row[1]) for row in rows]).rowcount
                    if updated != len(rows):
                        raise AnswerConflict("some row is not its game's next answer")
                    conn.executemany("INSERT INTO answers VALUES (?, ?, ?, ?)",
                                     [(game_id, number, seat, answer_to_json(answer))
                                      for game_id, number, seat, answer, *_ in rows])
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
            self._conn.execute("UPDATE games SET over = 1, abandoned = 1 "
                               "WHERE game_id = ? AND over = 0",
                               (game_id,))

    def claim_seat(self, game_id: str, seats: tuple, claimed: tuple,
                   config: dominion.Config) -> None:
        with self._transaction():
            if self._conn.execute(
                    "UPDATE games SET seats = ?, config = ? "
                    "WHERE game_id = ? AND seats = ? AND over = 0",
                    (seats_to_json(claimed), config_to_json(config), game_id,
                     seats_to_json(seats))).rowcount != 1:
                raise SeatTaken(f"the seats of game {game_id} changed, or it is over")

    _COLUMNS = "game_id, config, seats, created, answer_count, turn, creator, abandoned"
    _ALL_COLUMNS = ("game_id, config, seats, created, answer_count, over, turn, creator, "
                    "abandoned")

    def load_games(self) -> Iterator:
        rows = self._conn.execute(f"SELECT {self._COLUMNS} FROM games WHERE over = 0 "
                                  "ORDER BY created, game_id").fetchall()
        for row in rows:
            yield self._read_game(row)

    def finished_games(self) -> Iterator:
        rows = self._conn.execute(f"SELECT {self._COLUMNS} FROM games WHERE over != 0 "
                                  "ORDER BY created, game_id").fetchall()
        for game_id, config, seats, created, count, turn, _, abandoned in rows:
            yield finished_game(game_id, config, seats, created, count, turn, abandoned)

    def load_game(self, game_id: str):
        try:
            row = self._conn.execute(f"SELECT {self._COLUMNS} FROM games WHERE game_id = ?",
                                     (game_id,)).fetchone()
        except sqlite3.OperationalError:   # locked, out of room: may pass
            raise
        except sqlite3.DatabaseError as e:   # a damaged file: this game is reported, kept
            return BrokenGame(game_id, f"its row cannot be read ({e})")
        return None if row is None else self._read_game(row)

    def _read_game(self, row):
        game_id, config, seats, created, count, _, creator, abandoned = row
        try:
            answer_rows = self._answer_rows(game_id)
        except sqlite3.DatabaseError as e:   # a damaged file: this game is reported, kept
            return BrokenGame(game_id, f"its answers cannot be read ({e})")
        return stored_game(game_id, config, seats, created, count, answer_rows, creator,
                           abandoned)

    def _answer_rows(self, game_id: str) -> list:
        return self._conn.execute(
            "SELECT number, seat, answer FROM answers WHERE game_id = ? ORDER BY number",
            (game_id,)).fetchall()

    def dump_games(self) -> Iterator:
        rows = self._conn.execute(f"SELECT {self._ALL_COLUMNS} FROM games "
                                  "ORDER BY created, game_id").fetchall()
        for row in rows:
            yield self._game_rows(row)

    def dump_game(self, game_id: str) -> Optional[GameRows]:
        row = self._conn.execute(f"SELECT {self._ALL_COLUMNS} FROM games WHERE game_id = ?",
                                 (game_id,)).fetchone()
        return None if row is None else self._game_rows(row)

    def _game_rows(self, row) -> GameRows:
        game_id, config, seats, created, count, over, turn, creator, abandoned = row
        return GameRows(game_id, config, seats, created, count, bool(over), turn, creator,
                        bool(abandoned), tuple(self._answer_rows(game_id)))

    def restore_games(self, games: Iterable) -> tuple:
        stored = same = 0
        with self._transaction():
            for game in games:
                there = self.dump_game(game.game_id)
                if there is not None:
                    check_same_game(self.path, there, game)
                    same += 1
                    continue
                self._conn.execute(f"INSERT INTO games ({self._ALL_COLUMNS}) "
                                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                   (game.game_id, game.config, game.seats, game.created,
                                    game.answer_count, int(game.over), game.turn,
                                    game.creator, int(game.abandoned)))
                self._conn.executemany("INSERT INTO answers VALUES (?, ?, ?, ?)",
                                       [(game.game_id, *a) for a in game.answers])
                stored += 1
        return stored, same

    def close(self) -> None:
        self._conn.close()
        self._release()

    def _transaction(self):
        return _Transaction(self._conn)


def answer_conflict(game_id: str, number: int, count: Optional[int]) -> AnswerConflict:
    """The refusal of answer ``number`` of a game that has ``count`` answers (None: no such
    game)."""
    if count is None:
        return AnswerConflict(f"answer {number} of game {game_id} not stored: no such game")
    if count > number:
        return AnswerConflict(f"answer {number} of game {game_id} not stored: another answer "
                              "to that decision was stored first")
    return AnswerConflict(f"answer {number} of game {game_id} not stored: the game has "
                          f"{count} answers, so the next is number {count}")


def check_same_game(where: str, there: GameRows, game: GameRows) -> None:
    """Refuse to store ``game`` over a different game ``there`` with the same id."""
    if there != game:
        raise StorageError(f"{where}: game {game.game_id} is there already with other "
                           "contents; nothing was copied (copy into an empty database, or "
                           "remove that game there first)")


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


class CopyReport(NamedTuple):
    games: int          # games in the source
    answers: int        # their answers
    copied: int         # games stored in the target
    already: int        # games the target had already, identical


def copy_games(source, target) -> CopyReport:
    """Copy every game of ``source`` into ``target`` exactly as stored (`GameRows`), in one
    transaction, then read each back from ``target`` and compare it with the source's. Games
    the target has already, identical, are left as they are (copying again changes nothing);
    a different game under the same id refuses the copy, and nothing is stored. A check that
    fails is a `StorageError`."""
    games = list(source.dump_games())
    copied, already = target.restore_games(games)
    for game in games:
        there = target.dump_game(game.game_id)
        if there != game:
            raise StorageError(f"the copy of game {game.game_id} in {target.path} differs from "
                               f"the original in {source.path}")
    return CopyReport(len(games), sum(len(g.answers) for g in games), copied, already)


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


SHARED_NEEDS_POSTGRES = ("--shared needs a PostgreSQL database (--db postgresql://...): a SQLite "
                         "file is served by one server process at a time")


def open_storage(db: Optional[str], shared: bool = False):
    """The storage for a ``--db`` option: a PostgreSQL URL (``postgresql://...``, credentials
    in it or in libpq's environment, PGPASSWORD and the rest), a SQLite path, ``":memory:"``,
    or None for the default SQLite file. ``shared``: a PostgreSQL database that several
    servers serve together (`storage_pg.PostgresStorage`); refused for SQLite."""
    is_postgres = db is not None and str(db).startswith(POSTGRES_SCHEMES)
    scheme, sep, _ = str(db).partition("://")
    if db is not None and not is_postgres and sep and scheme.isidentifier():
        raise StorageError(f"--db takes a file path or postgresql://user@host:port/dbname, not "
                           f"a {scheme}:// address")
    if shared and not is_postgres:
        raise StorageError(SHARED_NEEDS_POSTGRES)
    if is_postgres:
        try:
            from .storage_pg import PostgresStorage
        except ImportError as e:
            raise StorageError(f"PostgreSQL storage needs psycopg 3 and psycopg_pool ({e}); "
                               "install them with: pip install 'dominion-engine[postgres]'") \
                from None
        return PostgresStorage(str(db), shared=shared)
    return SqliteStorage(default_db_path() if db is None else db)
