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

import functools
import json
import logging
import os
import secrets
import socket
import threading
import time
from typing import Iterable, Iterator, Optional
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import conninfo as pg_conninfo
from psycopg_pool import ConnectionPool

from .storage import (SCHEMA_VERSION_TABLE, GameRows, Migration, SeatTaken, StorageError,
                      StoredGame,
                      answer_conflict, answer_to_json, check_same_game, config_to_json,
                      finished_game, pending_migrations, seats_to_json, stored_game)

log = logging.getLogger("dominion_service")

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


def _v2(conn: psycopg.Connection) -> None:
    conn.execute("ALTER TABLE games ADD COLUMN creator TEXT NOT NULL DEFAULT ''")
    conn.execute("ALTER TABLE games ADD COLUMN abandoned BOOLEAN NOT NULL DEFAULT FALSE")


# Version 3: which server plays each game's bots (servers sharing the database, ``--shared``):
# a lease per game with server bots, its owner and when it expires (the database's clock), so
# that exactly one server plays them and another takes over when its owner dies. Games in
# progress with bots get an expired lease: the first shared server to look takes it.
_V3 = (
    """CREATE TABLE bot_leases (
        game_id TEXT PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
        owner   TEXT NOT NULL,                  -- the server playing the bots ('' for none)
        expires TIMESTAMPTZ NOT NULL            -- past it, any shared server may take it over
    )""",
    "CREATE INDEX bot_leases_expires ON bot_leases (expires)",
    "CREATE INDEX bot_leases_owner ON bot_leases (owner)",
    # Servers sharing the database count each client's games in it (`create_game`'s check).
    "CREATE INDEX games_creator ON games (creator, created)",
)


def _v3(conn: psycopg.Connection) -> None:
    for statement in _V3:
        conn.execute(statement)
    for game_id, seats in conn.execute("SELECT game_id, seats FROM games WHERE NOT over") \
            .fetchall():
        if has_bots(seats):
            conn.execute(_NEW_LEASE, (game_id, "", False))


def has_bots(seats: str) -> bool:
    """Whether a game's stored seats (JSON) name a server bot; False for seats that cannot be
    read (such a game is not served)."""
    try:
        return any(seat[0] for seat in json.loads(seats))
    except (ValueError, TypeError, IndexError, KeyError):
        return False


# A later step is appended here (and to storage.SQLITE_MIGRATIONS), never edited in place.
PG_MIGRATIONS = (
    Migration(1, "games and their answers", _v1),
    Migration(2, "each game's creator, and games ended as abandoned", _v2),
    Migration(3, "leases on the server bots of each game, and games by creator (servers "
                 "sharing a database)", _v3),
)

# Servers sharing a database (``shared``) tell each other of every answer stored, on this
# channel, with a payload ``game_id:number`` (the rows themselves are read from the tables).
CHANNEL = "dominion_answers"
LEASE_SECONDS = 3.0   # a lease not renewed for this long may be taken over by another server

# Servers that start together take turns at migrating (a transaction-level advisory lock).
_MIGRATION_LOCK = 0x446F6D696E696F6E   # "Dominion"
# The server that holds a database (a session-level advisory lock on a connection of its own,
# released by PostgreSQL when that connection ends, even when the process is killed).
_SERVER_LOCK = 0x446F6D696E696F6F
# Creations that count the limits take turns (a transaction-level advisory lock).
_CREATION_LOCK = 0x446F6D696E696F70

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
# The same for servers sharing the database, where a game over (or abandoned) takes no answer;
# the answers stored are announced to the others in the same transaction (`_announce`).
_APPEND_SHARED = _APPEND.replace("AND answer_count = %(number)s",
                                 "AND answer_count = %(number)s AND NOT over")
NOTIFY_BYTES = 7000   # a NOTIFY's payload is under 8000 bytes

_NEW_LEASE = ("INSERT INTO bot_leases (game_id, owner, expires) VALUES (%s, %s, CASE WHEN %s "
              f"THEN now() + interval '{LEASE_SECONDS} s' ELSE '-infinity' END)")

_COLUMNS = "game_id, config, seats, created, answer_count, turn, creator, abandoned"
_ALL_COLUMNS = "game_id, config, seats, created, answer_count, over, turn, creator, abandoned"


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


def _waiting_out_stalled(write):
    """A write of `PostgresStorage` (a game's creation, answers, its abandonment, the renewal
    of bot leases) that, when it waited `LOCK_WAIT` seconds for a lock, ends the transactions
    of servers stalled in the middle of a statement for `STALLED_SECONDS` (a stopped server
    that held its game's row, its leases, or the turn of creations) and is tried again, until
    it has waited for longer than a stalled transaction lasts."""
    @functools.wraps(write)
    def waiting(self, *args, **kwargs):
        deadline = time.monotonic() + STALLED_SECONDS + 2 * LOCK_WAIT
        while True:
            try:
                return write(self, *args, **kwargs)
            except psycopg.errors.LockNotAvailable:
                if time.monotonic() > deadline:
                    raise
                self._end_stalled()
    return waiting


class PostgresStorage:
    """Games in a PostgreSQL database named by a URL. Each write is one committed transaction
    (durable once PostgreSQL's commit returns, with its default ``synchronous_commit``). The
    schema is brought to `PG_MIGRATIONS`' latest version when the storage opens. Several
    writers may use one database: answer numbers are arbitrated by the database
    (`storage.AnswerConflict` for the loser).

    ``exclusive`` (the server's way): the database is held by this storage alone, as a SQLite
    file is, until it is closed; another exclusive storage on it is refused. A server keeps its
    games in memory, so two on one database would each serve its own copy of a game (the
    database would still refuse the second answer to any decision).

    ``shared`` (``dominion serve --shared``): servers that share the database. Each holds the
    database's lock in shared mode (so a server holding it alone, and shared ones, exclude
    each other), every answer stored is announced to the others (NOTIFY on `CHANNEL`,
    `listen`), and each game's server bots are played under a lease (`leases`), ``owner``
    naming this storage's server."""

    inline = False   # network round trips: the server calls it from its storage thread
    created_folder = None

    def __init__(self, url: str, exclusive: bool = True, pool_size: int = 2,
                 connect_timeout: float = 10.0, shared: bool = False):
        self.path = redact(url)
        self.shared = shared
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}" \
            if shared else ""
        self._append = _APPEND_SHARED if shared else _APPEND
        self._listener: Optional[threading.Thread] = None
        self._closing = threading.Event()
        self._own_pids: set = set()   # this storage's connections (its own NOTIFYs are not news)
        self._url = url
        self._connect_timeout = max(1, int(connect_timeout))
        self._secrets = _secrets(url)
        self._pool: Optional[ConnectionPool] = None
        self._holder: Optional[psycopg.Connection] = None
        self._exclusive = exclusive or shared
        if shared:   # the storage thread, two readers (catching up), and one spare
            pool_size = max(pool_size, 4)
        self._recheck = False   # a write failed on the connection: is the lock still held?
        try:
            # One plain connection first: its failure says why (a pool only times out).
            conn = psycopg.connect(url, autocommit=True, connect_timeout=self._connect_timeout)
            try:
                if exclusive or shared:
                    self._hold(conn)
                self._migrate(conn)
                self._check_writable(conn)
            finally:
                if self._holder is None:
                    conn.close()
            self._pool = ConnectionPool(url, min_size=1, max_size=pool_size, open=False,
                                        kwargs={"autocommit": True,
                                                "application_name": APPLICATION},
                                        name="dominion-db",
                                        timeout=connect_timeout, configure=_bound_waits)
            self._pool.open(wait=True, timeout=connect_timeout)
        except Exception as e:  # psycopg's, the pool's, or a StorageError of ours
            self.close()
            if isinstance(e, StorageError):
                raise
            raise StorageError(f"{self.path}: cannot be used as the games database "
                               f"({self._scrub(str(e).strip())})") from None

    def _hold(self, conn: psycopg.Connection) -> None:
        take = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
        (held,) = conn.execute(f"SELECT {take}(%s)", (_SERVER_LOCK,)).fetchone()
        if not held:
            if self.shared:
                raise StorageError(f"{self.path} is in use by a server that holds it alone "
                                   "(started without --shared); stop it, or start every "
                                   "server on this database with --shared")
            raise StorageError(f"{self.path} is in use by another server (it holds the "
                               "database's lock); stop that server or use another database, "
                               "or start every server on it with --shared")
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

    @_waiting_out_stalled
    def create_game(self, game: StoredGame, check=None) -> None:
        """Store a new game. ``check(games, mine, recent)``: called first, in the same
        transaction, with the games in progress in the whole database, those of them that the
        game's creator created, and the games it created in the last minute; what it raises
        stores nothing. Creations with a check take turns (an advisory lock), so that servers
        sharing the database hold every client to its limits together."""
        with self._writing(), self._pool.connection() as conn, conn.transaction():
            if check is not None:
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_CREATION_LOCK,))
                (games,) = conn.execute("SELECT count(*) FROM games WHERE NOT over").fetchone()
                mine, recent = conn.execute(
                    "SELECT count(*) FILTER (WHERE NOT over), count(*) FILTER (WHERE created > "
                    "%s) FROM games WHERE creator = %s",
                    (time.time() - 60, game.creator)).fetchone()
                check(games, mine, recent)
            conn.execute("INSERT INTO games (game_id, config, seats, created, answer_count, "
                         "creator) VALUES (%s, %s, %s, %s, %s, %s)",
                         (game.game_id, config_to_json(game.config, game.undo),
                          seats_to_json(game.seats),
                          game.created, len(game.answers), game.creator))
            if any(seat.bot for seat in game.seats):   # its bots: played by this server
                conn.execute(_NEW_LEASE, (game.game_id, self.owner, self.owner != ""))
            self._announce(conn, [(game.game_id, len(game.answers))])   # a game new to them
            if game.answers:
                conn.cursor().executemany(
                    "INSERT INTO answers VALUES (%s, %s, %s, %s)",
                    [(game.game_id, i, seat, answer_to_json(a))
                     for i, (seat, a) in enumerate(game.answers)])

    @_waiting_out_stalled
    def append_answer(self, game_id: str, number: int, seat: int, answer, over: bool = False,
                      turn: int = 0) -> None:
        with self._writing(), self._pool.connection() as conn, conn.transaction():
            if conn.execute(self._append, _params(game_id, number, seat, answer, over,
                                                  turn)).rowcount != 1:
                raise self._conflict(conn, game_id, number)
            self._announce(conn, [(game_id, number)])

    @_waiting_out_stalled
    def append_answers(self, rows) -> list:
        """Store many answers (``append_answer``'s arguments, one tuple each) in one
        transaction and one pipeline: the server's group commit. Each row is one statement
        that stores it or nothing, so the rows that are not their game's next answer get an
        `AnswerConflict` in their place and the others are stored; when the transaction
        fails, the exception is raised and none is stored. Shared: the announcement goes in
        the same pipeline, naming every row (one that another server stored first costs the
        listeners a read that finds nothing new, not a round trip here)."""
        errors: list = []
        with self._writing(), self._pool.connection() as conn:
            with conn.transaction():
                with conn.pipeline():
                    self._announce(conn, [row[:2] for row in rows])
                    cur = conn.cursor()
                    cur.executemany(self._append, [_params(*row) for row in rows],
                                    returning=True)
                for row in rows:
                    errors.append(None if cur.rowcount == 1 else (row[0], row[1]))
                    cur.nextset()
            return [None if e is None else self._conflict(conn, *e) for e in errors]

    @_waiting_out_stalled
    def abandon_game(self, game_id: str) -> None:
        with self._writing(), self._pool.connection() as conn:
            conn.execute("UPDATE games SET over = TRUE, abandoned = TRUE "
                         "WHERE game_id = %s AND NOT over", (game_id,))
            self._announce(conn, [(game_id, -1)])   # the others read that it ended

    def claim_seat(self, game_id: str, seats: tuple, claimed: tuple, config) -> None:
        with self._writing(), self._pool.connection() as conn:
            if conn.execute("UPDATE games SET seats = %s, config = %s "
                            "WHERE game_id = %s AND seats = %s AND NOT over",
                            (seats_to_json(claimed), config_to_json(config), game_id,
                             seats_to_json(seats))).rowcount != 1:
                raise SeatTaken(f"the seats of game {game_id} changed, or it is over")

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
        for game_id, config, seats, created, count, _, creator, abandoned in games:
            yield stored_game(game_id, config, seats, created, count,
                              answers.get(game_id, []), creator, abandoned)

    def finished_games(self) -> Iterator:
        with self._pool.connection() as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM games WHERE over "
                                "ORDER BY created, game_id").fetchall()
        for game_id, config, seats, created, count, turn, _, abandoned in rows:
            yield finished_game(game_id, config, seats, created, count, turn, abandoned)

    def load_game(self, game_id: str):
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute(f"SELECT {_COLUMNS} FROM games WHERE game_id = %s",
                               (game_id,)).fetchone()
            if row is None:
                return None
            answer_rows = self._answer_rows(conn, game_id)
        game_id, config, seats, created, count, _, creator, abandoned = row
        return stored_game(game_id, config, seats, created, count, answer_rows, creator,
                           abandoned)

    @staticmethod
    def _answer_rows(conn: psycopg.Connection, game_id: str) -> list:
        return conn.execute("SELECT number, seat, answer FROM answers WHERE game_id = %s "
                            "ORDER BY number", (game_id,)).fetchall()

    # --- copies ----------------------------------------------------------------------------------

    def dump_games(self) -> Iterator:
        with self._pool.connection() as conn, conn.transaction():
            rows = conn.execute(f"SELECT {_ALL_COLUMNS} FROM games "
                                "ORDER BY created, game_id").fetchall()
            games = [GameRows(*row, tuple(self._answer_rows(conn, row[0])))
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
                             "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)", game[:9])
                if game.answers:
                    conn.cursor().executemany("INSERT INTO answers VALUES (%s, %s, %s, %s)",
                                              [(game.game_id, *a) for a in game.answers])
                if not game.over and has_bots(game.seats):
                    conn.execute(_NEW_LEASE, (game.game_id, "", False))
                stored += 1
        return stored, same

    # --- servers sharing the database ------------------------------------------------------

    def answers_after(self, game_id: str, held: int):
        """What a server holding ``held`` answers of a game lacks: (answer count, over,
        abandoned, [(number, seat, answer JSON), ...] numbered from ``held`` on), read in one
        transaction; None when there is no such game."""
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute("SELECT answer_count, over, abandoned FROM games "
                               "WHERE game_id = %s", (game_id,)).fetchone()
            if row is None:
                return None
            rows = conn.execute("SELECT number, seat, answer FROM answers WHERE game_id = %s "
                                "AND number >= %s ORDER BY number", (game_id, held)).fetchall()
        return (*row, rows)

    @_waiting_out_stalled
    def leases(self) -> tuple:
        """Renew this server's bot leases and take over those expired (their server died or
        stopped), dropping the leases of games over: (games whose bots this server plays,
        those of them just taken over). An expired lease that another transaction holds is
        skipped; when that transaction is a server's stalled in the middle of a statement (a
        stopped server that was renewing its leases), it is ended, and the lease is taken at
        the next renewal."""
        with self._writing(), self._pool.connection() as conn, conn.transaction():
            conn.execute("DELETE FROM bot_leases l USING games g "
                         "WHERE l.game_id = g.game_id AND g.over")
            held = {r[0] for r in conn.execute(
                "UPDATE bot_leases SET expires = now() + make_interval(secs => %s) "
                "WHERE owner = %s RETURNING game_id", (LEASE_SECONDS, self.owner))}
            taken = [r[0] for r in conn.execute(
                "UPDATE bot_leases SET owner = %s, expires = now() + make_interval(secs => %s) "
                "WHERE game_id IN (SELECT game_id FROM bot_leases WHERE expires < now() "
                "ORDER BY expires LIMIT 500 FOR UPDATE SKIP LOCKED) RETURNING game_id",
                (self.owner, LEASE_SECONDS))]
            (held_elsewhere,) = conn.execute(
                "SELECT count(*) FROM bot_leases WHERE expires < now()").fetchone()
        if held_elsewhere and len(taken) < 500:
            self._end_stalled()
        return held | set(taken), taken

    def _end_stalled(self) -> int:
        """End the transactions of servers stalled in the middle of a statement for
        `STALLED_SECONDS` (`_END_STALLED`): how many."""
        with self._pool.connection() as conn:
            ended = conn.execute(_END_STALLED, (APPLICATION, STALLED_SECONDS)).rowcount
        if ended:
            log.warning("ended %d transaction(s) of a server stalled in the middle of a "
                        "statement, which held locks other servers wait for", ended)
        return ended

    def release_leases(self) -> None:
        """A server stopping hands its bots on at once (their leases expire now)."""
        with self._pool.connection() as conn:
            conn.execute("UPDATE bot_leases SET expires = '-infinity' WHERE owner = %s",
                         (self.owner,))

    def listen(self, told) -> None:
        """Call ``told(game_id, number)`` (in a thread of its own) for every answer another
        server stores (number -1: a game ended as abandoned), and ``told(None, -1)`` each time
        the listening connection is made again after a failure: anything may have changed
        meanwhile (and the pool's idle connections are checked first: those a database
        restart ended are replaced, so that the next call does not fail on one). Runs until `close`. Returns once listening (so that nothing stored after
        it returns is missed); StorageError when the first connection fails."""
        listening = threading.Event()
        first_error: list = []

        def run() -> None:
            failed = False
            while not self._closing.is_set():
                try:
                    with psycopg.connect(self._url, autocommit=True,
                                         connect_timeout=self._connect_timeout) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        listening.set()
                        if failed:   # the database is back (restarted, perhaps)
                            self._pool.check()   # its idle connections the restart ended: new
                            told(None, -1)
                            failed = False
                        while not self._closing.is_set():
                            for note in conn.notifies(timeout=0.5):
                                if note.pid in self._own_pids:
                                    continue
                                for item in note.payload.split(","):
                                    game_id, _, number = item.rpartition(":")
                                    told(game_id, int(number))
                except (psycopg.Error, OSError, ValueError) as e:
                    if not listening.is_set():
                        first_error.append(self._scrub(str(e).strip()))
                        listening.set()
                        return
                    failed = True
                    log.warning("listening for other servers' answers failed (%s); again "
                                "in a second", self._scrub(str(e).strip()))
                    self._closing.wait(1.0)
        self._listener = threading.Thread(target=run, name="dominion-listen", daemon=True)
        self._listener.start()
        listening.wait()
        if first_error:
            raise StorageError(f"{self.path}: cannot listen for the other servers' answers "
                               f"({first_error[0]})")

    def _announce(self, conn: psycopg.Connection, stored: list) -> None:
        """Shared: tell the other servers, at this transaction's commit, of the answers
        ``stored`` ((game_id, number) each; number -1: the game ended as abandoned), in as
        few NOTIFYs as fit: ``game:number,game:number,...`` (one per group commit, mostly)."""
        if not self.shared or not stored:
            return
        if len(self._own_pids) > 64:   # connections replaced over time: keep it small
            self._own_pids.clear()
        self._own_pids.add(conn.info.backend_pid)   # its NOTIFYs are not news to this server
        chunk: list = []
        size = 0
        for game_id, number in stored:
            item = f"{game_id}:{number}"
            if chunk and size + len(item) >= NOTIFY_BYTES:
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, ",".join(chunk)))
                chunk, size = [], 0
            chunk.append(item)
            size += len(item) + 1
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, ",".join(chunk)))

    def close(self) -> None:
        self._closing.set()
        if self._listener is not None:
            self._listener.join(5)
            self._listener = None
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


def _bound_waits(conn: psycopg.Connection) -> None:
    """A server that hangs in the middle of a transaction (a stopped process, a machine cut
    off) would keep its games' rows locked, and every other server waiting on them: PostgreSQL
    ends such a transaction after `STALLED_SECONDS` idle in it (its writes are not stored,
    and were never acknowledged). One that hangs in the middle of a statement (a group
    commit's pipeline half sent) is not idle to PostgreSQL: a write that waits `LOCK_WAIT`
    seconds for a lock ends such transactions itself (`_waiting_out_stalled`)."""
    conn.execute(f"SET idle_in_transaction_session_timeout = '{STALLED_SECONDS:g}s'")
    conn.execute(f"SET lock_timeout = '{LOCK_WAIT:g}s'")


STALLED_SECONDS = 10.0   # a server's transaction waiting this long for it is ended
LOCK_WAIT = 3.0          # seconds a write waits for a lock before it looks for stalled ones
APPLICATION = "dominion-serve"   # the servers' connections' name (pg_stat_activity)
# The servers' transactions stalled in the middle of a statement: waiting for their server to
# send the rest (a pipeline without its end) for `STALLED_SECONDS`.
_END_STALLED = ("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %s AND datname = current_database() "
                "AND pid <> pg_backend_pid() AND xact_start IS NOT NULL AND state = 'active' "
                "AND wait_event = 'ClientRead' "
                "AND state_change < now() - make_interval(secs => %s)")


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
