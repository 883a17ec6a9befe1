"""Several `dominion serve --shared` processes on one PostgreSQL database: any of them serves any
game, a stream on one sees the answers given through another, the database decides a race for
one decision (one OK, one ABORTED), and the server bots of a game resume on another server
within 5 s when theirs is killed."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
import time
import urllib.request
from pathlib import Path

import grpc
import pytest

import dominion
import dominion.bots
from dominion_client.client import connect
from dominion_client.convert import view_from_pb
from dominion_proto import dominion_pb2 as pb
from tests.service.test_serve_command import dominion as run_dominion
from tests.service.test_serve_command import refused, start_serve, stop


def shared_server(pg_url, *extra):
    return start_serve("--no-web", "--shared", "--allow-seed", "--db", pg_url, *extra)


@contextlib.contextmanager
def two_servers(pg_url, *extra):
    """Two `dominion serve --shared` on one database, and a client of each: ((process,
    address, client), (process, address, client)). A server the test killed is not stopped."""
    started = [shared_server(pg_url, *extra) for _ in range(2)]
    try:
        with connect(started[0][1]) as c1, connect(started[1][1]) as c2:
            c1.wait_ready(10)
            c2.wait_ready(10)
            yield (*started[0], c1), (*started[1], c2)
    finally:
        for proc, _ in started:
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)   # a server the test stopped (SIGSTOP)
                stop(proc)


def answer_for(bots: dict, seat_no: int, view: dominion.View):
    return bots[seat_no].answer(view.decision, view)


def wait_for(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def spectator_events(target: str, game_id: str, out: list, done: threading.Event) -> None:
    """Every StreamEvents message of a spectator on ``target``, from event 0 to the end."""
    with connect(target) as client:
        for update in client.stub.StreamEvents(pb.StreamEventsRequest(game_id=game_id)):
            out.append(update)
            if update.HasField("game_over"):
                break
    done.set()


def test_two_servers_serve_one_game_answered_through_both_and_a_stream_on_one_sees_all(
        pg_url):
    """A game created on server 1, its answers sent alternately through server 1 and server 2
    (each reading the decision from the server it answers through), while a spectator stream
    on server 2 follows it: the game ends, the stream's events are gapless and the same as
    those server 1 streams afterwards from the record, and GetRecord is the same on both."""
    with two_servers(pg_url) as ((p1, t1, c1), (p2, t2, c2)):
        game = c1.create_game(["A", "B"], kingdom="First Game", seed=11)
        streamed, done = [], threading.Event()
        watcher = threading.Thread(target=spectator_events,
                                   args=(t2, game.game_id, streamed, done), daemon=True)
        watcher.start()
        bots = {s: dominion.bots.make_bot("big-money", s) for s in (0, 1)}
        clients = (c1, c2)
        answered = 0
        while True:
            client = clients[answered % 2]
            public = client.spectate(game.game_id).view_message()
            assert public.sequence == answered and not public.game_over
            seat_no = public.waiting_for
            seat = client.seat(game.game_id, game.tokens[seat_no])
            message = seat.view_message()
            reply = seat.answer(message.decision,
                                answer_for(bots, seat_no, view_from_pb(message)))
            answered += 1
            assert reply.sequence == answered
            if reply.game_over:
                break
        assert answered > 50
        assert done.wait(20), "the stream on server 2 did not see the end"
        record1, record2 = c1.record(game.game_id), c2.record(game.game_id)
        assert record1 == record2 and len(record1.answers) == answered
        again = []
        spectator_events(t1, game.game_id, again, threading.Event())
        live = [e for u in streamed for e in u.events]
        replayed = [e for u in again for e in u.events]
        assert [e.index for e in live] == list(range(len(live)))
        assert live == replayed
        assert len(live) == len(dominion.replay(record1).log)
        assert streamed[-1].game_over == again[-1].game_over


def test_a_race_for_one_decision_through_two_servers_gives_one_ok_and_one_aborted(pg_url):
    with two_servers(pg_url) as ((p1, t1, c1), (p2, t2, c2)):
        game = c1.create_game(["A", "B"], kingdom="First Game", seed=5)
        bots = {s: dominion.bots.make_bot("big-money", s) for s in (0, 1)}
        for number in range(12):
            seat_no = c2.spectate(game.game_id).view_message().waiting_for
            seats = [c.seat(game.game_id, game.tokens[seat_no]) for c in (c1, c2)]
            view = seats[0].view_message()
            message = view.decision
            answer = answer_for(bots, seat_no, view_from_pb(view))
            barrier, outcomes = threading.Barrier(2), [None, None]

            def send(i):
                barrier.wait()
                try:
                    outcomes[i] = seats[i].answer(message, answer).sequence
                except grpc.RpcError as e:
                    outcomes[i] = (e.code(), e.details())

            threads = [threading.Thread(target=send, args=(i,)) for i in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(20)
            ok = [o for o in outcomes if o == number + 1]
            aborted = [o for o in outcomes if isinstance(o, tuple)]
            assert len(ok) == 1 and len(aborted) == 1, outcomes
            assert aborted[0][0] == grpc.StatusCode.ABORTED
            assert f"decision {number}" in aborted[0][1]
            for c in (c1, c2):
                assert c.spectate(game.game_id).view_message().sequence == number + 1
        summaries = {g.game_id: g.sequence for g in c1.list_games()}
        assert summaries[game.game_id] == 12


def test_the_bots_of_a_killed_server_play_on_another_within_5_seconds(pg_url):
    """A game of a client's seat against a server bot, created on server 1 (which plays the
    bot); the client plays through server 2. Server 1 is killed (SIGKILL) while the client's
    seat is to answer: the bot's next decision is answered by server 2 within 5 s of the kill,
    and the game ends, its record whole."""
    with two_servers(pg_url) as ((p1, t1, c1), (p2, t2, c2)):
        game = c1.create_game(["Me", "Bot"], bots={1: "big-money"}, kingdom="First Game",
                              seed=3, first_player=0)
        me = c2.seat(game.game_id, game.tokens[0])
        mine = dominion.bots.make_bot("big-money", 9)

        def my_turn():   # my pending decision, or the game's end
            view = me.view_message()
            return view if view.HasField("decision") or view.game_over else None

        for _ in range(30):   # a few turns, the bot's answered by server 1
            view = wait_for(my_turn, 5, "my decision")
            me.answer(view.decision, answer_for({0: mine}, 0, view_from_pb(view)))
        p1.send_signal(signal.SIGKILL)
        p1.wait(10)
        killed = time.monotonic()
        bot_answered = None
        while True:
            view = me.view_message()
            if view.game_over:
                break
            if view.HasField("decision"):
                me.answer(view.decision, answer_for({0: mine}, 0, view_from_pb(view)))
                continue
            wait_for(my_turn, 10, "the bot's answer on server 2")   # the bot's turn
            if bot_answered is None:
                bot_answered = time.monotonic() - killed
        assert bot_answered is not None and bot_answered <= 5.0, bot_answered
        record = c2.record(game.game_id)
        assert dominion.is_over(dominion.replay(record))


def test_shared_needs_postgres_and_a_server_alone_excludes_shared_ones(tmp_path, pg_url):
    refused(run_dominion("serve", "--port", "0", "--no-web", "--shared", "--db",
                         str(tmp_path / "g.db")), "--shared needs a PostgreSQL database")
    alone, _ = start_serve("--no-web", "--db", pg_url)
    try:
        refused(run_dominion("serve", "--port", "0", "--no-web", "--shared", "--db", pg_url),
                "holds it alone", "--shared")
    finally:
        stop(alone)
    shared, _ = shared_server(pg_url)
    try:
        refused(run_dominion("serve", "--port", "0", "--no-web", "--db", pg_url),
                "in use by another server", "--shared")
    finally:
        stop(shared)


def test_per_client_limits_are_counted_in_the_database_for_all_servers(pg_url):
    """Two servers, each allowing 3 games in progress, 2 per client and 2 creations a minute
    per client: the limits hold for the two together (clients told apart by a forwarding
    header from a trusted proxy)."""
    limits = ("--max-games", "3", "--max-games-per-client", "2",
              "--max-creates-per-minute", "2", "--trusted-proxy", "127.0.0.1")
    with two_servers(pg_url, *limits) as ((_, _, c1), (_, _, c2)):

        def create(client, who, bots=False):
            request = pb.CreateGameRequest(seats=[
                pb.SeatSpec(name=n, bot="big-money" if bots else "") for n in "AB"])
            return client.stub.CreateGame(request, metadata=(("x-forwarded-for", who),))

        def refused_with(client, who, words, bots=False):
            with pytest.raises(grpc.RpcError) as info:
                create(client, who, bots)
            assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert words in info.value.details(), info.value.details()

        create(c1, "10.0.0.1")
        create(c2, "10.0.0.1")
        refused_with(c1, "10.0.0.1", "you have 2 games in progress")
        # All-bot games end as they are created: over, but created this minute.
        assert create(c1, "10.0.0.2", bots=True).game_id
        assert create(c2, "10.0.0.2", bots=True).game_id
        refused_with(c1, "10.0.0.2", "at most 2 games a minute", bots=True)
        create(c1, "10.0.0.3")
        refused_with(c2, "10.0.0.4", "maximum of 3 games")
        # The first server learns of the second's games when it is told (NOTIFY), not at once.
        wait_for(lambda: len(c1.list_games(include_finished=True)) == 5, 5,
                 "the first server to list the five games")


def children_of(pid: int) -> list:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def bot_lease_owners(pg_url) -> set:
    import psycopg
    with psycopg.connect(pg_url) as conn:
        return {row[0] for row in conn.execute("SELECT owner FROM bot_leases")}


def test_processes_share_one_port_and_one_database_and_a_killed_one_is_replaced(pg_url):
    """`dominion serve --processes 2`: one gRPC port and one web port (the page served), two
    processes (the games created through 16 connections have their bots played by both: two
    lease owners), any game served through any connection; a process killed is started again
    and the service goes on."""
    proc, target = start_serve("--processes", "2", "--db", pg_url)
    try:
        page = proc.stdout.readline().split(" on ", 1)[1].strip()
        for _ in range(4):   # the web door too, on one port
            with urllib.request.urlopen(page, timeout=10) as reply:
                assert b"app.js" in reply.read()
        children = children_of(proc.pid)
        assert len(children) == 2, children
        games = []
        # New connections: the system spreads them among the processes that listen. A process
        # may start listening a little after it is started (on a busy machine, after the first
        # 16 connections went to the other): connect until both served one, for up to 30 s.
        deadline = time.monotonic() + 30
        while len(games) < 16 or (len(bot_lease_owners(pg_url)) < 2
                                  and time.monotonic() < deadline):
            with connect(target) as client:
                client.wait_ready(10)
                games.append(client.create_game(["Me", "Bot"], bots={1: "big-money"},
                                                kingdom="First Game", first_player=0))
        assert len(bot_lease_owners(pg_url)) == 2
        os.kill(children[0], signal.SIGKILL)
        wait_for(lambda: len(children_of(proc.pid)) == 2
                 and children[0] not in children_of(proc.pid), 20, "a new process")
        for game in games:
            with connect(target) as client:
                seat = client.seat(game.game_id, game.tokens[0])
                view = wait_for(lambda: (lambda v: v if v.HasField("decision") else None)(
                    seat.view_message()), 10, "my decision")
                assert seat.answer(view.decision, dominion.bots.make_bot("big-money", 1).answer(
                    view_from_pb(view).decision, view_from_pb(view))).sequence == \
                    view.sequence + 1
    finally:
        stop(proc)


def test_processes_need_postgres_and_a_free_port(tmp_path, pg_url):
    refused(run_dominion("serve", "--processes", "2", "--no-web", "--db",
                         str(tmp_path / "g.db")), "--processes needs a PostgreSQL database")
    with socket.socket() as other:   # another program's port
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        refused(run_dominion("serve", "--processes", "2", "--no-web", "--port", str(port),
                             "--db", pg_url), "cannot listen", str(port))


class SlowBigMoney:
    """big-money thinking 20 ms per answer, so that a game lasts through a server's kill."""

    def __init__(self, seed: int = 0):
        self.bot = dominion.bots.make_bot("big-money", seed)
        self.log_from = self.bot.log_from

    def answer(self, decision, view):
        time.sleep(0.02)
        answer = self.bot.answer(decision, view)
        self.log_from = self.bot.log_from
        return answer


@pytest.mark.parametrize("how", ["SIGKILL", "SIGSTOP"])
def test_clients_with_two_servers_move_to_the_other_when_one_is_killed(pg_url, how):
    """Three clients given both servers' addresses, each starting on server 1: the library
    (`play_seat`, two seats of one game, every acknowledged answer recorded), `dominion bot
    --server A --server B`, and examples/network_bot.py A,B (each a seat against a server bot).
    Server 1 is killed (SIGKILL), or hangs with its connections open (SIGSTOP: the clients'
    pings go unanswered, its bot leases and any transaction it had open expire), while they
    play: each moves to server 2, resumes its stream and finishes its game; every acknowledged
    answer is in the record, in its place."""
    import subprocess
    import sys

    from dominion_client.botrunner import play_seat
    from tests.service.test_serve_command import ENV, ROOT
    from tests.service.test_service_soak import RecordingSeat

    with two_servers(pg_url) as ((p1, t1, c1), (_, t2, _)), connect(f"{t1},{t2}") as lib:
        both = f"{t1},{t2}"
        lib.wait_ready(10)
        assert lib.target == t1
        game = c1.create_game(["A", "B"], kingdom="First Game", seed=1)
        seats = {s: RecordingSeat(lib, game.game_id, game.tokens[s]) for s in (0, 1)}
        results = {}
        threads = [threading.Thread(target=lambda s=s: results.__setitem__(
            s, play_seat(seats[s], SlowBigMoney(s), 30)), daemon=True) for s in (0, 1)]
        against_bot = [c1.create_game(["Me", "Bot"], bots={1: "big-money"},
                                      kingdom="First Game", first_player=0)
                       for _ in range(2)]
        bot_class = "tests.service.test_serve_shared:SlowBigMoney"
        commands = [
            [sys.executable, "-m", "dominion_client.cli", "bot", "--server", t1, "--server",
             t2, "--game", against_bot[0].game_id, "--token", against_bot[0].tokens[0],
             "--bot", bot_class],
            [sys.executable, "examples/network_bot.py", both, against_bot[1].game_id,
             against_bot[1].tokens[0], bot_class]]
        procs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, cwd=ROOT, env=ENV) for c in commands]
        for t in threads:
            t.start()
        wait_for(lambda: all(len(s.acknowledged) > 20 for s in seats.values()), 20,
                 "the seats playing on server 1")
        p1.send_signal(getattr(signal, how))
        if how == "SIGKILL":
            p1.wait(10)
        for t in threads:
            t.join(90)
        assert len(results) == 2, "a seat did not finish its game"
        assert lib.target == t2
        record = lib.record(game.game_id)
        assert dominion.is_over(dominion.replay(record))
        for seat_no, seat in seats.items():
            seat.check_in(record, seat_no)
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
            assert "scores" in out, out
        for g in against_bot:
            assert dominion.is_over(dominion.replay(lib.record(g.game_id)))



def test_a_game_played_elsewhere_is_forgotten_when_unused_and_read_again_when_asked(
        pg_url, kingdom, monkeypatch):
    """Two shared servers in this process: a game created on the first, which the second
    learns of; played through the first, it is behind on the second, which forgets it once
    unused (no stream follows it) and reads it again, caught up, when asked for."""
    from dominion_service import sharing
    from dominion_service.local import LocalServer
    from dominion_service.storage import open_storage

    monkeypatch.setattr(sharing, "FORGET_AFTER", 0.5)
    with LocalServer(open_storage(pg_url, shared=True)) as one, \
            LocalServer(open_storage(pg_url, shared=True)) as two, \
            connect(one.target) as c1, connect(two.target) as c2:
        game = c1.create_game(["A", "B"], kingdom=kingdom, seed=4)
        wait_for(lambda: game.game_id in two.service.games, 5, "the second server to learn it")
        bots = {s: dominion.bots.make_bot("big-money", s) for s in (0, 1)}
        for _ in range(6):
            seat_no = c1.spectate(game.game_id).view_message().waiting_for
            seat = c1.seat(game.game_id, game.tokens[seat_no])
            view = seat.view_message()
            seat.answer(view.decision, answer_for(bots, seat_no, view_from_pb(view)))
        wait_for(lambda: game.game_id not in two.service.games, 5, "the second to forget it")
        assert game.game_id in one.service.games   # the first serves it: a stream follows
        assert c2.spectate(game.game_id).view_message().sequence == 6
        assert game.game_id in two.service.games


def test_play_seats_on_one_server_plays_games_created_and_answered_on_another(pg_url):
    """Four seats of two games created on server 1, added in one PlaySeats message on server 2
    (their games read and caught up together) after each game's first answers went through
    server 1: every game ends, and its record is the same on both servers."""
    import asyncio

    from dominion_client.aio import AsyncClient
    from dominion_client.botrunner import play_seats_async

    with two_servers(pg_url) as ((_, t1, c1), (_, t2, c2)):
        games = [c1.create_game(["A", "B"], kingdom="First Game", seed=20 + i) for i in range(2)]
        bots = {s: dominion.bots.make_bot("big-money", s) for s in (0, 1)}
        for game in games:   # a few answers through server 1 first
            for _ in range(3):
                seat_no = c1.spectate(game.game_id).view_message().waiting_for
                seat = c1.seat(game.game_id, game.tokens[seat_no])
                view = seat.view_message()
                seat.answer(view.decision, answer_for(bots, seat_no, view_from_pb(view)))

        async def play():
            async with AsyncClient(t2) as client:
                return await play_seats_async(client, [
                    (g.game_id, g.tokens[s], dominion.bots.make_bot("big-money", s))
                    for g in games for s in (0, 1)])

        results = asyncio.run(play())
        assert len(results) == 4 and all(r is not None for r in results)
        for game in games:
            record = c2.record(game.game_id)
            assert record == c1.record(game.game_id)
            assert dominion.is_over(dominion.replay(record))
