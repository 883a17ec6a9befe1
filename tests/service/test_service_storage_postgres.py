"""PostgreSQL storage on its own: the database picks one of two racing answers, a server holds
its database, the schema is versioned, and a password is never shown."""
from __future__ import annotations

import logging
import threading
import time

import psycopg
import pytest

import dominion
from dominion_service.storage import (AnswerConflict, SeatRecord, StorageError, StoredGame,
                                      open_storage)
from dominion_service.storage_pg import PG_MIGRATIONS, PostgresStorage, redact
from tests.postgres_server import PASSWORD

ROUNDS = 20


def test_of_two_storages_racing_for_one_decision_the_database_stores_exactly_one(pg_url,
                                                                                  kingdom):
    """Two storage objects (as two servers would have) on one database write answer N of the
    same game at the same moment, N = 0..19: each time one is stored and the other is refused
    with AnswerConflict, and the record holds the winner's answer."""
    first, second = (PostgresStorage(pg_url, exclusive=False) for _ in range(2))
    try:
        first.create_game(StoredGame("race", dominion.Config(("A", "B"), kingdom, 1, 0),
                                     (SeatRecord("", ""),) * 2, 0.0))
        barrier = threading.Barrier(2)
        winners = []
        for number in range(ROUNDS):
            outcomes = {}

            def write(storage, seat):
                barrier.wait()
                try:
                    if number % 2:   # both ways of writing: one row, and a group commit
                        storage.append_answer("race", number, seat, dominion.Move("end_phase"))
                        outcomes[seat] = None
                    else:
                        (outcomes[seat],) = storage.append_answers(
                            [("race", number, seat, dominion.Move("end_phase"))])
                except AnswerConflict as e:
                    outcomes[seat] = e

            threads = [threading.Thread(target=write, args=(s, seat))
                       for seat, s in enumerate((first, second))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            stored = [seat for seat, e in outcomes.items() if e is None]
            refused = [e for e in outcomes.values() if e is not None]
            assert len(stored) == 1 and len(refused) == 1, outcomes
            assert isinstance(refused[0], AnswerConflict)
            assert "stored first" in str(refused[0])
            winners.append(stored[0])
        record = second.load_game("race")
        assert [seat for seat, _ in record.answers] == winners
    finally:
        first.close()
        second.close()


def test_a_database_a_server_holds_is_refused_to_a_second_one_until_it_closes(pg_url):
    holder = open_storage(pg_url)
    with pytest.raises(StorageError, match="in use by another server"):
        open_storage(pg_url)
    holder.close()
    open_storage(pg_url).close()


def test_a_new_database_gets_every_schema_step_once_even_when_servers_start_together(pg_url):
    storages = [None] * 4

    def open_one(i):
        storages[i] = PostgresStorage(pg_url, exclusive=False)

    threads = [threading.Thread(target=open_one, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert all(s is not None and s.schema_version() == PG_MIGRATIONS[-1].version
                   for s in storages)
    finally:
        for s in storages:
            if s is not None:
                s.close()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM schema_version ORDER BY version").fetchall() \
            == [(m.version,) for m in PG_MIGRATIONS]


def test_the_password_is_never_shown(postgres, pg_url, monkeypatch, caplog):
    """A wrong password, an unreachable server, and a password from PGPASSWORD: each error is a
    StorageError that does not contain the password, nothing logged contains it, and the
    database's name as shown masks it."""
    caplog.set_level(logging.DEBUG)
    dbname = pg_url.rsplit("/", 1)[1]
    wrong = "Wr0ng-and-Secret"
    cases = [postgres.url(dbname, password=wrong),
             f"postgresql://postgres:{wrong}@127.0.0.1:1/{dbname}",
             f"postgresql://127.0.0.1:{postgres.port}/{dbname}?user=postgres&password={wrong}"]
    for url in cases:
        with pytest.raises(StorageError) as info:
            open_storage(url)
        assert wrong not in str(info.value) and "***" in str(info.value), str(info.value)
    monkeypatch.setenv("PGPASSWORD", wrong)
    with pytest.raises(StorageError) as info:
        open_storage(postgres.url(dbname, password=None))
    assert "password authentication failed" in str(info.value)
    assert wrong not in str(info.value)
    assert wrong not in caplog.text
    monkeypatch.setenv("PGPASSWORD", PASSWORD)   # the environment's credentials are used
    storage = open_storage(postgres.url(dbname, password=None))
    assert PASSWORD not in storage.path
    storage.close()
    assert redact(postgres.url(dbname)) == \
        f"postgresql://postgres:***@127.0.0.1:{postgres.port}/{dbname}"


def test_after_the_database_restarts_one_write_fails_unstored_and_the_next_go_through(
        postgres, pg_url, kingdom):
    """A restart of PostgreSQL ends the storage's connections: the write in flight fails
    (and is not stored: the server answers UNAVAILABLE, the client sends it again), the pool
    connects again, and the server lock is taken again, so a second server is still refused."""
    storage = open_storage(pg_url)
    try:
        storage.create_game(StoredGame("g", dominion.Config(("A", "B"), kingdom, 1, 0),
                                       (SeatRecord("", ""),) * 2, 0.0))
        move = dominion.Move("end_phase")
        storage.append_answer("g", 0, 0, move)
        postgres.restart()
        with pytest.raises(psycopg.OperationalError):
            storage.append_answers([("g", 1, 0, move)])
        assert storage.append_answers([("g", 1, 0, move)]) == [None]
        storage.append_answer("g", 2, 1, move)
        assert [seat for seat, _ in storage.load_game("g").answers] == [0, 0, 1]
        with pytest.raises(StorageError, match="in use by another server"):
            open_storage(pg_url)
    finally:
        storage.close()


def test_shared_after_the_database_restarts_listening_again_replaces_the_ended_connections(
        postgres, pg_url, kingdom):
    """A shared storage hears that its listening connection was made again after a restart
    (told(None, -1)); by then the pool's idle connections, which the restart ended, are
    replaced: the next read goes through, where it failed once."""
    storage = open_storage(pg_url, shared=True)
    told = []
    try:
        storage.create_game(StoredGame("g", dominion.Config(("A", "B"), kingdom, 1, 0),
                                       (SeatRecord("", ""),) * 2, 0.0))
        storage.listen(lambda game_id, number: told.append((game_id, number)))
        postgres.restart()
        deadline = time.monotonic() + 15
        while (None, -1) not in told:
            assert time.monotonic() < deadline, "listening never came back"
            time.sleep(0.05)
        assert storage.load_game("g").game_id == "g"
    finally:
        storage.close()


def stalled_backend(watcher: psycopg.Connection, conn: psycopg.Connection) -> int:
    """Once ``conn``'s backend has run what was sent and waits for more: its pid."""
    pid = conn.pgconn.backend_pid
    deadline = time.monotonic() + 5
    while not watcher.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s AND state = "
                              "'active' AND wait_event = 'ClientRead'", (pid,)).fetchall():
        assert time.monotonic() < deadline, "the stalled statement never ran"
        time.sleep(0.05)
    return pid


def test_a_server_stalled_in_the_middle_of_a_statement_holds_its_games_row_only_until_ended(
        pg_url, kingdom, monkeypatch):
    """A server stopped while its group commit's pipeline is half sent: its transaction has
    locked the game's row and waits for the rest of the statement (to PostgreSQL 'active', not
    idle, so idle_in_transaction_session_timeout does not end it). Another server's answer to
    that game waits for the lock, ends that transaction once it has stalled for
    STALLED_SECONDS, and is stored; a stalled connection of another program is left alone. A
    creation waits out a server stalled in another creation the same way."""
    from dominion_service import storage_pg

    monkeypatch.setattr(storage_pg, "STALLED_SECONDS", 1.0)
    monkeypatch.setattr(storage_pg, "LOCK_WAIT", 0.5)
    game = StoredGame("stalled", dominion.Config(("A", "B"), kingdom, 1, 0),
                      (SeatRecord("", ""),) * 2, 0.0)

    def stall(application: str) -> psycopg.Connection:
        conn = psycopg.connect(pg_url, autocommit=True, application_name=application)
        conn.execute("BEGIN")
        pg = conn.pgconn
        pg.enter_pipeline_mode()   # an UPDATE sent and run, its pipeline never ended
        pg.send_query_params(b"UPDATE games SET turn = turn WHERE game_id = $1", [b"stalled"])
        pg.flush()
        return conn

    storage = PostgresStorage(pg_url, exclusive=False)
    watcher = psycopg.connect(pg_url, autocommit=True)

    try:
        creating = psycopg.connect(pg_url, autocommit=True,
                                   application_name=storage_pg.APPLICATION)
        creating.execute("BEGIN")   # a server stalled in a creation: it holds the creations' turn
        creating.pgconn.enter_pipeline_mode()
        creating.pgconn.send_query_params(b"SELECT pg_advisory_xact_lock($1)",
                                          [str(storage_pg._CREATION_LOCK).encode()])
        creating.pgconn.flush()
        stalled_backend(watcher, creating)
        started = time.monotonic()
        storage.create_game(game, check=lambda games, mine, recent: None)   # waits it out
        assert 1.0 <= time.monotonic() - started < 10
        assert not watcher.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s",
                                   (creating.pgconn.backend_pid,)).fetchall()
        creating.close()
        other = stall("psql")
        stalled_backend(watcher, other)
        time.sleep(1.5)
        with pytest.raises(psycopg.errors.LockNotAvailable):   # another program's: waited out
            storage.append_answer("stalled", 0, 0, dominion.Move("end_phase"))
        other.close()
        server = stall(storage_pg.APPLICATION)
        pid = stalled_backend(watcher, server)
        started = time.monotonic()
        storage.append_answer("stalled", 0, 0, dominion.Move("end_phase"))
        assert time.monotonic() - started < 10
        assert [seat for seat, _ in storage.load_game("stalled").answers] == [0]
        assert not watcher.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s",
                                   (pid,)).fetchall()   # its transaction ended, unstored
        server.close()
        (rows,) = storage.append_answers([("stalled", 1, 1, dominion.Move("end_phase"))])
        assert rows is None
    finally:
        watcher.close()
        storage.close()


def test_an_expired_lease_held_by_a_stalled_server_is_taken_over_once_that_server_is_ended(
        pg_url, kingdom, monkeypatch):
    """A server stopped while renewing its bot leases: its transaction holds its lease's row
    (to PostgreSQL 'active', waiting for the rest of the statement) after the lease expired.
    Another server's renewal skips the row (it takes over only leases no one holds), ends that
    transaction once it has stalled for STALLED_SECONDS, and takes the lease at a following
    renewal: the stopped server's bots play on."""
    from dominion_service import storage_pg

    monkeypatch.setattr(storage_pg, "STALLED_SECONDS", 1.0)
    monkeypatch.setattr(storage_pg, "LOCK_WAIT", 0.5)
    stopped, other = (PostgresStorage(pg_url, exclusive=False, shared=True) for _ in range(2))
    watcher = psycopg.connect(pg_url, autocommit=True)
    try:
        stopped.create_game(StoredGame("leased", dominion.Config(("A", "B"), kingdom, 1, 0),
                                       (SeatRecord("", ""), SeatRecord("big-money", "")), 0.0))
        assert stopped.leases()[0] == {"leased"}
        watcher.execute("UPDATE bot_leases SET expires = now() - interval '1 s'")   # expired
        renewing = psycopg.connect(pg_url, autocommit=True,
                                   application_name=storage_pg.APPLICATION)
        renewing.execute("BEGIN")
        renewing.pgconn.enter_pipeline_mode()   # its renewal sent and run, never ended
        renewing.pgconn.send_query_params(
            b"UPDATE bot_leases SET expires = expires WHERE game_id = $1",
            [b"leased"])
        renewing.pgconn.flush()
        pid = stalled_backend(watcher, renewing)
        started = time.monotonic()
        assert other.leases() == (set(), [])   # (its lease is held: skipped, not waited for)
        taken: list = []
        while not taken:
            assert time.monotonic() - started < 10, "the lease was never taken over"
            time.sleep(0.2)
            taken = other.leases()[1]
        assert taken == ["leased"] and time.monotonic() - started >= 1.0
        assert not watcher.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s",
                                   (pid,)).fetchall()   # its transaction was ended
        assert watcher.execute("SELECT owner FROM bot_leases").fetchall() == [(other.owner,)]
        renewing.close()
    finally:
        watcher.close()
        stopped.close()
        other.close()
