"""Servers sharing PostgreSQL while the database goes away and comes back: a seat that cannot
be caught up is refused UNAVAILABLE (retry), never played from a stale copy, and the bot
runners (`play_seats_async`, `dominion bot` with several tokens and servers) retry until the
database is back, so every game finishes."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time

import grpc

import dominion
import dominion.bots
from dominion_client.aio import AsyncClient, SeatsStream
from dominion_client.botrunner import play_seats_async
from dominion_client.client import connect
from dominion_client.convert import view_from_pb
from dominion_proto import dominion_pb2 as pb
from tests.service.test_serve_command import ENV, ROOT
from tests.service.test_serve_shared import answer_for, two_servers, wait_for


def record_once_back(client, game_id: str):
    """The game's record, asked again while the server answers UNAVAILABLE (its first read
    after the database came back may meet a connection the restart ended: retried, as any
    client does)."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return client.record(game_id)
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.UNAVAILABLE or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def sequence_of(client, game_id: str) -> int:
    """The game's pending decision number; -1 while the server answers UNAVAILABLE."""
    try:
        return client.spectate(game_id).view_message().sequence
    except grpc.RpcError as e:
        if e.code() != grpc.StatusCode.UNAVAILABLE:
            raise
        return -1


def test_seats_added_together_while_the_database_is_away_are_refused_unavailable_not_stale(
        postgres, pg_url):
    """Two shared servers; two games created and played six answers through the first, so the
    second holds them behind. With the database stopped, one PlaySeats message on the second
    adds both seats of each game (one game resuming past the second's copy, one from event 0):
    each seat is closed UNAVAILABLE, none is sent a decision answered long ago or refused
    INVALID_ARGUMENT. Once the database is back, the same seats finish their games there.
    (The second gives up on the database after 3 s, not the default 10 s: the test waits for
    its refusals, whose kind does not depend on how long it tried.)"""
    from dominion_service.local import LocalServer
    from dominion_service.storage import open_storage
    from dominion_service.storage_pg import PostgresStorage

    with LocalServer(open_storage(pg_url, shared=True)) as one, \
            LocalServer(PostgresStorage(pg_url, shared=True, connect_timeout=3)) as two, \
            connect(one.target) as c1:
        games = [c1.create_game(["A", "B"], kingdom="First Game", seed=30 + i)
                 for i in range(2)]
        wait_for(lambda: all(g.game_id in two.service.games for g in games), 5,
                 "the second server to learn the games")
        bots = {s: dominion.bots.make_bot("big-money", s) for s in (0, 1)}
        for game in games:
            for _ in range(6):
                seat_no = c1.spectate(game.game_id).view_message().waiting_for
                seat = c1.seat(game.game_id, game.tokens[seat_no])
                view = seat.view_message()
                seat.answer(view.decision, answer_for(bots, seat_no, view_from_pb(view)))
        seen = len(one.service.games[games[0].game_id].state.log)
        wait_for(lambda: all(two.service.games[g.game_id].behind for g in games), 5,
                 "the second server to hear of the answers")
        assert len(two.service.games[games[0].game_id].state.log) < seen
        seats = [(g.game_id, g.tokens[s]) for g in games for s in (0, 1)]

        async def add_all() -> list:
            async with AsyncClient(two.target) as client:
                stream = SeatsStream(client)
                try:
                    for ref, (game_id, token) in enumerate(seats):
                        stream.add(ref, game_id, token, seen if game_id == games[0].game_id
                                   else 0)
                    await stream.flush()
                    updates = []   # until every seat is closed, or 15 s
                    deadline = asyncio.get_running_loop().time() + 15
                    while sum(u.HasField("closed") for u in updates) < len(seats):
                        left = deadline - asyncio.get_running_loop().time()
                        try:
                            response = await asyncio.wait_for(stream.read(), max(left, 0))
                        except asyncio.TimeoutError:
                            break
                        updates.extend(response.updates)
                    return updates
                finally:
                    stream.cancel()

        postgres.stop()
        try:
            updates = asyncio.run(add_all())
        finally:
            postgres.start()
        assert sorted(u.ref for u in updates) == list(range(len(seats))), updates
        for update in updates:
            assert update.HasField("closed"), update
            assert update.closed.code == grpc.StatusCode.UNAVAILABLE.value[0], update

        async def play() -> list:
            async with AsyncClient(two.target) as client:
                return await play_seats_async(client, [
                    (game_id, token, dominion.bots.make_bot("big-money", n))
                    for n, (game_id, token) in enumerate(seats)])

        results = asyncio.run(asyncio.wait_for(play(), 60))
        assert all(r is not None for r in results)
        for game in games:
            assert dominion.is_over(dominion.replay(record_once_back(c1, game.game_id)))


def test_dominion_bot_with_several_tokens_and_servers_outlives_database_restarts(
        postgres, pg_url):
    """`dominion bot` playing six seats of three games with both servers' addresses starts
    while the database is away (its token checks are retried, not final) and plays through a
    3-second database outage in the middle of its games: it exits 0 with a line per seat,
    and every game is over in the database."""
    with two_servers(pg_url) as ((_, t1, c1), (_, t2, _)):
        games = [c1.create_game(["A", "B"], kingdom="First Game", seed=40 + i)
                 for i in range(3)]
        command = [sys.executable, "-m", "dominion_client.cli", "bot", "--server", t1,
                   "--server", t2, "--bot", "tests.service.test_serve_shared:SlowBigMoney"]
        for game in games:
            for s in (0, 1):
                command += ["--game", game.game_id, "--token", game.tokens[s]]
        postgres.stop()
        try:
            proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, cwd=ROOT, env=ENV)
            time.sleep(3)
            assert proc.poll() is None, proc.communicate()
        finally:
            postgres.start()
        try:
            wait_for(lambda: sequence_of(c1, games[0].game_id) > 20, 60,
                     "the games to be under way")
            postgres.stop()
            try:
                time.sleep(3)
            finally:
                postgres.start()
            out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        assert proc.returncode == 0, err
        lines = out.strip().splitlines()
        assert len(lines) == 6 and all("scores" in line for line in lines), out
        for game in games:
            assert dominion.is_over(dominion.replay(record_once_back(c1, game.game_id)))


def test_a_followed_game_whose_catch_up_fails_is_caught_up_again(pg_url, monkeypatch):
    """A seat's Play stream on the second server waits for its decision while the first
    server stores the other seat's answers; the second cannot read them (the database away
    for it) until they are all stored: it tries again by itself once the database is back,
    and the stream sees the decision, where it waited for ever (no answer came after)."""
    from dominion_client.client import PlayCall, TOKEN_METADATA
    from dominion_client.convert import answer_to_pb
    from dominion_service.local import LocalServer
    from dominion_service.storage import open_storage

    with LocalServer(open_storage(pg_url, shared=True)) as one, \
            LocalServer(open_storage(pg_url, shared=True)) as two, \
            connect(one.target) as c1, connect(two.target) as c2:
        game = c1.create_game(["A", "B"], kingdom="First Game", seed=7, first_player=0)
        wait_for(lambda: game.game_id in two.service.games, 5, "the second to learn it")
        play = PlayCall(c2.stub, game.game_id, 0, ((TOKEN_METADATA, game.tokens[1]),), True)
        try:
            wait_for(lambda: two.service.games[game.game_id].watchers, 5, "the stream")
            storage = two.service.storage
            real = storage.answers_after
            away, failures = [True], []

            def while_away(*args):
                if away:
                    failures.append(True)
                    raise OSError("the database is away")
                return real(*args)
            monkeypatch.setattr(storage, "answers_after", while_away)
            bot = dominion.bots.make_bot("big-money", 0)
            seat = c1.seat(game.game_id, game.tokens[0])
            while True:   # seat A plays its turn through the first server
                msg = seat.view_message()
                if msg.waiting_for != 0:
                    break
                view = view_from_pb(msg)
                c1.stub.SubmitAnswer(pb.SubmitAnswerRequest(
                    game_id=game.game_id, answer=answer_to_pb(
                        msg.decision.WhichOneof("kind"), bot.answer(view.decision, view),
                        msg.decision.sequence)), metadata=((TOKEN_METADATA, game.tokens[0]),))
            wait_for(lambda: failures, 5, "the second server to try to catch up")
            time.sleep(0.3)   # every announcement of the turn heard, and failed
            away.clear()      # the database is back; no answer comes after
            got = []
            reader = threading.Thread(target=lambda: got.append(play.receive()), daemon=True)
            reader.start()
            reader.join(10)
            assert got and got[0].HasField("decision"), got
        finally:
            play.close()
