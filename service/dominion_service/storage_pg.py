"""Games in PostgreSQL: the same `storage.Storage` protocol as SQLite, for servers that share one
database (``dominion serve --db postgresql://user@host/dbname``).

psycopg 3 (synchronous) with psycopg_pool: the server makes its storage calls from one worker
thread, so a blocking driver fits them as they are (asyncpg would need the calls moved onto the
event loop or a second loop in that thread). The pool replaces a connection that broke (the
database restarted, a network cut) without the server noticing more than the failed call, which
it already answers with UNAVAILABLE and a retry; psycopg prepares the statements it runs often,
and sends the answers of a group commit in one pipeline.

Credentials come from the URL or from libpq's environment (PGPASSWORD, PGUSER, PGHOST, ~/.pgpass,
...). The password is never printed: `path` is the URL with it masked, and an error message is
scrubbed of it before it is raised.
"""
from __future__ import annotations

import os
import time
from typing import Iterable, Iterator, Optional
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import conninfo as pg_conninfo
from psycopg_pool import ConnectionPool

from .storage import (SCHEMA_VERSION_TABLE, GameRows, Migration, StorageError, StoredGame,
                      answer_conflict, answer_to_json, check_same_game, config_to_json,
                      finished_game, pending_migrations, seats_to_json, stored_game)

_V1 = (
    """CREATE TABLE games (
        game_id TEXT PRIMARY KEY,
        config  TEXT NOT NULL,          -- JSON: players, kingdom, seed, first_player, always_ask
        seats   TEXT NOT NULL,          -- JSON: [[bot, token_digest], ...]
        created DOUBLE PRECISION NOT NULL,
        answer_count INTEGER NOT NULL DEFAULT 0,   -- answers acknowledged; the next answer's
                                                   -- number (the exactly-once guard)
        over BOOLEAN NOT NULL DEFAULT FALSE,       -- true once the game has ended
        turn INTEGER NOT NULL DEFAULT 0            -- turns started, as of the last answer
    )""",
    "CREATE INDEX games_over_created ON games (over, created, game_id)",
    """CREATE TABLE answers (
        game_id TEXT NOT NULL REFERENCES games (game_id),
        number  INTEGER NOT NULL,       -- the decision's sequence number
        seat    INTEGER NOT NULL,
        answer  TEXT NOT NULL,          -- JSON, see storage.answer_to_json
        PRIMARY KEY (game_id, number)   -- one answer per decision, whoever writes it
    )""",
)


def _v1(conn: psycopg.Connection) -> None:
    for statement in _V1:
        conn.execute(statement)


# A later step is appended here (and to storage.SQLITE_MIGRATIONS), never edited in place.
PG_MIGRATIONS = (
    Migration(1, "games and their answers", _v1),
)

# Servers that start together take turns at migrating (a transaction-level advisory lock).
_MIGRATION_LOCK = 0x446F6D696E696F6E   # "Dominion"
# The server that holds a database (a session-level advisory lock on a connection of its own,
# released by PostgreSQL when that connection ends, even when the process is killed).
_SERVER_LOCK = 0x446F6D696E696F6F

# Answer N is stored only while the game has N answers: the UPDATE locks the game's row, so a
# second writer of the same number waits, then finds the count moved and stores nothing.
_APPEND = """
WITH next AS (
    UPDATE games SET answer_count = %(number)s + 1, over = %(over)s, turn = %(turn)s
    WHERE game_id = %(game_id)s AND answer_count = %(number)s
    RETURNING game_id)
INSERT INTO answers (game_id, number, seat, answer)
SELECT game_id, %(number)s, %(seat)s, %(answer)s FROM next
"""

_COLUMNS = "game_id, config, seats, created, answer_count, turn"
_ALL_COLUMNS = "game_id, config, seats, created, answer_count, over, turn"


def redact(url: str) -> str:
    """``url`` with its password (in the user part or a ``password=`` parameter) masked."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            user, host = netloc.rsplit("@", 1)
            if ":" in user:
                netloc = f"{user.split(':', 1)[0]}:***@{host}"
        query = urlencode([(k, "***" if k == "password" else v)
                           for k, v in parse_qsl(parts.query, keep_blank_values=True)],
                          safe="*/:")
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    except ValueError:
        return "the PostgreSQL database (its URL cannot be shown)"


class PostgresStorage:
    """Games in a PostgreSQL database named by a URL. Each write is one committed transaction
    (durable once PostgreSQL's commit returns, with its default ``synchronous_commit``). The
    schema is brought to `PG_MIGRATIONS`' latest version when the storage opens. Several
    writers may use one database: answer numbers are arbitrated by the database
    (`storage.AnswerConflict` for the loser).

    ``exclusive`` (the server's way): the database is held by this storage alone, as a SQLite
    file is, until it is closed; another exclusive storage on it is refused. A server keeps its
    games in memory, so two on one database would each serve its own copy of a game (the
    database would still refuse the second answer to any decision)."""

    inline = False   # network round trips: the server calls it from its storage thread
    created_folder = None

    def __init__(self, url: str, exclusive: bool = True, pool_size: int = 2,
                 connect_timeout: float = 10.0):
        self.path = redact(url)
        self._url = url
        self._connect_timeout = max(1, int(connect_timeout))
        self._secrets = _secrets(url)
        self._pool: Optional[ConnectionPool] = None
        self._holder: Optional[psycopg.Connection] = None
        self._exclusive = exclusive
        self._recheck = False   # a write failed on the connection: is the lock still held?
        try:
            # One plain connection first: its failure says why (a pool only times out).
            conn = psycopg.connect(url, autocommit=True, connect_timeout=self._connect_timeout)
            try:
                if exclusive:
                    self._hold(conn)
                self._migrate(conn)
                self._check_writable(conn)
            finally:
                if self._holder is None:
                    conn.close()
            self._pool = ConnectionPool(url, min_size=1, max_size=pool_size, open=False,
                                        kwargs={"autocommit": True}, name="dominion-db",
                                        timeout=connect_timeout)
            self._pool.open(wait=True, timeout=connect_timeout)
        except Exception as e:  # psycopg's, the pool's, or a StorageError of ours
            self.close()
            if isinstance(e, StorageError):
                raise
            raise StorageError(f"{self.path}: cannot be used as the games database "
                               f"({self._scrub(str(e).strip())})") from None

    def _hold(self, conn: psycopg.Connection) -> None:
        (held,) = conn.execute("SELECT pg_try_advisory_lock(%s)", (_SERVER_LOCK,)).fetchone()
        if not held:
            raise StorageError(f"{self.path} is in use by another server (it holds the "
                               "database's lock); stop that server or use another database")
        self._holder = conn

    def _writing(self):
        """Around each write: after a write failed on its connection (the database restarted,
        a network cut), the server lock is checked first, and taken again on a new
        connection when its old one is gone; while another server holds it, every write is
        refused (`StorageError`) and nothing is stored."""
        return _Writing(self)

    def _rehold(self) -> None:
        if not self._exclusive:
            return
        try:
            self._holder.execute("SELECT 1")
            return   # the lock's connection lived through it: still held
        except psycopg.Error:
            self._holder.close()
        try:
            conn = psycopg.connect(self._url, autocommit=True,
                                   connect_timeout=self._connect_timeout)
        except psycopg.Error as e:
            raise StorageError(f"{self.path}: cannot connect to take the server lock again "
                               f"({self._scrub(str(e).strip())})") from None
        try:
            self._hold(conn)
        except StorageError:
            conn.close()
            raise

    def _scrub(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    def _migrate(self, conn: psycopg.Connection) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute(SCHEMA_VERSION_TABLE)
            (current,) = conn.execute(
                "SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
            for step in pending_migrations(self.path, current, PG_MIGRATIONS):
                step.apply(conn)
                conn.execute("INSERT INTO schema_version VALUES (%s, %s, %s)",
                             (step.version, step.summary, time.time()))

    def _check_writable(self, conn: psycopg.Connection) -> None:
        """A role that may not write the tables is found before the server says it is
        SERVING (and not at the first answer)."""
        (games, answers) = conn.execute(
            "SELECT has_table_privilege('games', 'INSERT, UPDATE'), "
            "has_table_privilege('answers', 'INSERT')").fetchone()
        if not (games and answers):
            raise StorageError(f"{self.path}: this role may not write the games and answers "
                               "tables")

    def schema_version(self) -> int:
        with self._pool.connection() as conn:
            return conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]

    # --- writes ----------------------------------------------------------------------------------

    def create_game(self, game: StoredGame) -> None:
        with self._writing(), self._pool.connection() as conn, conn.transaction():
            conn.execute("INSERT INTO games (game_id, config, seats, created, answer_count) "
                         "VALUES (%s, %s, %s, %s, %s)",
                         (game.game_id, config_to_json(game.config), seats_to_json(game.seats),
                          game.created, len(game.answers)))
            if game.answers:
                conn.cursor().executemany(
                    "INSERT INTO answers VALUES (%s, %s, %s, %s)",
                    [(game.game_id, i, seat, answer_to_json(a))
                     for i, (seat, a) in enumerate(game.answers)])

    def append_answer(self, game_id: str, number: int, seat: int, answer, over: bool = False,
                      turn: int = 0) -> None:
        with self._writing(), self._pool.connection() as conn:
            if conn.execute(_APPEND, _params(game_id, number, seat, answer, over,
                                             turn)).rowcount != 1:
                raise self._conflict(conn, game_id, number)

    def append_answers(self, rows) -> list:
        """Store many answers (``append_answer``'s arguments, one tuple each) in one
        transaction and one pipeline: the server's group commit. Each row is one statement
        that stores it or nothing, so the rows that are not their game's next answer get an
        `AnswerConflict` in their place and the others are stored; when the transaction
        fails, the exception is raised and none is stored."""
        errors: list = []
        with self._writing(), self._pool.connection() as conn:
            with conn.transaction():
                cur = conn.cursor()
                cur.executemany(_APPEND, [_params(*row) for row in rows], returning=True)
                for row in rows:
                    errors.append(None if cur.rowcount == 1 else (row[0], row[1]))
                    cur.nextset()
            return [None if e is None else self._conflict(conn, *e) for e in errors]

    def _conflict(self, conn: psycopg.Connection, game_id: str, number: int):
        row = conn.execute("SELECT answer_count FROM games WHERE game_id = %s",
                           (game_id,)).fetchone()
        return answer_conflict(game_id, number, None if row is None else row[0])

    # --- reads -----------------------------------------------------------------------------------

    def load_games(self) -> Iterator:
        with self._pool.connection() as conn, conn.transaction():
            games = conn.execute(f"SELECT {_COLUMNS} FROM games WHERE NOT over "
                                 "ORDER BY created, game_id").fetchall()
            answers: dict = {}
            for game_id, number, seat, answer in conn.execute(
                    "SELECT a.game_id, a.number, a.seat, a.answer FROM answers a "
                    "JOIN games g USING (game_id) WHERE NOT g.over "
                    "ORDER BY a.game_id, a.number"):
                answers.setdefault(game_id, []).append((number, seat, answer))
        for game_id, config, seats, created, count, _ in games:
            yield stored_game(game_id, config, seats, created, count,
                              answers.get(game_id, []))

    def finished_games(self) -> Iterator:
        with self._pool.connection() as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM games WHERE over "
                                "ORDER BY created, game_id").fetchall()
        for row in rows:
            yield finished_game(*row)

    def load_game(self, game_id: str):
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute(f"SELECT {_COLUMNS} FROM games WHERE game_id = %s",
                               (game_id,)).fetchone()
            if row is None:
                return None
            answer_rows = self._answer_rows(conn, game_id)
        game_id, config, seats, created, count, _ = row
        return stored_game(game_id, config, seats, created, count, answer_rows)

    @staticmethod
    def _answer_rows(conn: psycopg.Connection, game_id: str) -> list:
        return conn.execute("SELECT number, seat, answer FROM answers WHERE game_id = %s "
                            "ORDER BY number", (game_id,)).fetchall()

    # --- copies ----------------------------------------------------------------------------------

    def dump_games(self) -> Iterator:
        with self._pool.connection() as conn, conn.transaction():
            rows = conn.execute(f"SELECT {_ALL_COLUMNS} FROM games "
                                "ORDER BY created, game_id").fetchall()
            games = [GameRows(*row[:7], tuple(self._answer_rows(conn, row[0])))
                     for row in rows]
        yield from games

    def dump_game(self, game_id: str) -> Optional[GameRows]:
        with self._pool.connection() as conn:
            return self._dump_game(conn, game_id)

    def _dump_game(self, conn: psycopg.Connection, game_id: str) -> Optional[GameRows]:
        row = conn.execute(f"SELECT {_ALL_COLUMNS} FROM games WHERE game_id = %s",
                           (game_id,)).fetchone()
        return None if row is None else GameRows(*row, tuple(self._answer_rows(conn, game_id)))

    def restore_games(self, games: Iterable) -> tuple:
        stored = same = 0
        with self._writing(), self._pool.connection() as conn, conn.transaction():
            for game in games:
                there = self._dump_game(conn, game.game_id)
                if there is not None:
                    check_same_game(self.path, there, game)
                    same += 1
                    continue
                conn.execute(f"INSERT INTO games ({_ALL_COLUMNS}) "
                             "VALUES (%s, %s, %s, %s, %s, %s, %s)", game[:7])
                if game.answers:
                    conn.cursor().executemany("INSERT INTO answers VALUES (%s, %s, %s, %s)",
                                              [(game.game_id, *a) for a in game.answers])
                stored += 1
        return stored, same

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self._holder is not None:
            try:   # released before the connection ends: its end is not waited for
                self._holder.execute("SELECT pg_advisory_unlock(%s)", (_SERVER_LOCK,))
            except psycopg.Error:
                pass   # the connection is gone, and the lock with it
            self._holder.close()
            self._holder = None


class _Writing:
    def __init__(self, storage: PostgresStorage):
        self.storage = storage

    def __enter__(self):
        if self.storage._recheck:
            self.storage._rehold()
            self.storage._recheck = False

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, psycopg.OperationalError):
            self.storage._recheck = True
        return False


def _params(game_id: str, number: int, seat: int, answer, over: bool = False,
            turn: int = 0) -> dict:
    return {"game_id": game_id, "number": number, "seat": seat,
            "answer": answer_to_json(answer), "over": bool(over), "turn": turn}


def _secrets(url: str) -> tuple:
    """The passwords that must not appear in a message: the URL's and the environment's."""
    found = []
    try:
        password = pg_conninfo.conninfo_to_dict(url).get("password")
    except psycopg.Error:
        password = None
    for value in (password, os.environ.get("PGPASSWORD")):
        if value:
            found.append(str(value))
    return tuple(found)
