"""Chat between the people of a game through the real server: a seat says a line, every
follower (seats and spectators) gets it live, a reload gets the lines kept; spectators read but
never write; lines are bounded, kept up to a cap, rate-limited per seat; nothing of a line or a
token reaches the server's log."""
from __future__ import annotations

import logging
import threading

import grpc
import pytest

from dominion_proto import dominion_pb2 as pb
from dominion_service import chat


def refused(call) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as e:
        call()
    return e.value.code()


def first_chat(client, game_id, metadata=()):
    """A follower that collects the first chat line its stream brings (in a thread)."""
    got = []
    stream = client.stub.StreamEvents(
        pb.StreamEventsRequest(game_id=game_id, from_chat=0), metadata=metadata)

    def read():
        for update in stream:
            if update.chat:
                got.extend(update.chat)
                return
    reader = threading.Thread(target=read)
    reader.start()
    return got, reader, stream


def test_a_line_reaches_every_follower_live_and_a_reload_gets_it_again(client, kingdom, caplog):
    caplog.set_level(logging.DEBUG)
    game = client.create_game(["Ann", "Bob"], kingdom=kingdom, seed=3)
    ann = client.seat(game.game_id, game.tokens[0])
    followers = [first_chat(client, game.game_id),                       # a spectator
                 first_chat(client, game.game_id, (("x-seat-token", game.tokens[1]),))]
    ann.view()   # the streams are open by now (a call on the same channel went through)
    said = "good luck <b>all</b>\nhave fun"
    assert ann.say(said) == 0
    for got, reader, stream in followers:
        reader.join(10)
        stream.cancel()
        (line,) = got
        assert (line.index, line.seat, line.name, line.text) == \
            (0, 0, "Ann", "good luck <b>all</b> have fun")   # as said, line break a space
    again = client.spectate(game.game_id).chat()
    assert [line.text for line in again] == ["good luck <b>all</b> have fun"]
    assert client.seat(game.game_id, game.tokens[1]).chat(from_index=1) == []
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "good luck" not in logged and game.tokens[0] not in logged


def test_spectators_read_but_cannot_write_and_bad_lines_are_refused(client, kingdom, caplog):
    caplog.set_level(logging.DEBUG)
    game = client.create_game(["Ann", "Bob"], kingdom=kingdom, seed=4)
    request = pb.SendChatRequest(game_id=game.game_id, text="hi")
    assert refused(lambda: client.stub.SendChat(request)) == grpc.StatusCode.UNAUTHENTICATED
    assert refused(lambda: client.stub.SendChat(
        request, metadata=(("x-seat-token", "wrong-token-123"),))) == \
        grpc.StatusCode.PERMISSION_DENIED
    ann = client.seat(game.game_id, game.tokens[0])
    assert refused(lambda: ann.say(" \n ")) == grpc.StatusCode.INVALID_ARGUMENT
    assert refused(lambda: ann.say("x" * (chat.MAX_CHARS + 1))) == \
        grpc.StatusCode.INVALID_ARGUMENT
    assert ann.chat() == []                       # nothing changed
    for i in range(chat.RATE_LINES):
        ann.say(f"line {i}")
    assert refused(lambda: ann.say("one too many")) == grpc.StatusCode.RESOURCE_EXHAUSTED
    bob = client.seat(game.game_id, game.tokens[1])
    assert bob.say("my turn to talk") == chat.RATE_LINES   # the limit is per seat
    ann.resign()
    assert refused(lambda: bob.say("gg")) == grpc.StatusCode.FAILED_PRECONDITION
    assert [line.text for line in bob.chat()][-1] == "my turn to talk"
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "wrong-token-123" not in logged and game.tokens[0] not in logged
    assert "line 0" not in logged and "one too many" not in logged


def test_a_game_keeps_its_last_lines_numbered_for_the_whole_game():
    lines = chat.Chat()
    for i in range(chat.KEPT + 5):   # a line every 10 s: never over the rate
        lines.say(0, "Ann", f"line {i}", now=i * chat.RATE_SECONDS)
    kept = lines.since(0)
    assert len(kept) == chat.KEPT and kept[0].index == 5 and kept[-1].text == f"line {chat.KEPT + 4}"
    assert [line.index for line in lines.since(chat.KEPT + 3)] == [chat.KEPT + 3, chat.KEPT + 4]


def test_servers_sharing_a_database_say_they_carry_no_chat(pg_url, kingdom):
    from dominion_client.client import connect
    from dominion_service import open_storage
    from dominion_service.local import LocalServer
    with LocalServer(open_storage(pg_url, shared=True)) as server, \
            connect(server.target) as client:
        game = client.create_game(["Ann", "Bob"], kingdom=kingdom)
        ann = client.seat(game.game_id, game.tokens[0])
        assert refused(lambda: ann.say("hi")) == grpc.StatusCode.FAILED_PRECONDITION
