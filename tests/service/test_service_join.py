"""Open seats (SeatSpec.open) taken with JoinGame through the real server: listed while open,
taken once with the joiner's name, a second take refused; kept across a restart on both
databases; bad requests refused, changing nothing."""
from __future__ import annotations

import grpc
import pytest

from dominion_client.client import connect
from dominion_proto import dominion_pb2 as pb
from dominion_service import open_storage
from dominion_service.local import LocalServer


def summary(client, game_id):
    (found,) = [g for g in client.stub.ListGames(pb.ListGamesRequest(include_finished=True)).games
                if g.game_id == game_id]
    return found


def refused(call) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as e:
        call()
    return e.value.code()


def test_an_open_seat_is_listed_taken_once_with_a_name_and_then_played(client, kingdom):
    game = client.create_game(["Ann", "Player 2"], kingdom=kingdom, seed=3, first_player=1,
                              open_seats=[1])
    assert set(game.tokens) == {0}               # no token for the open seat
    assert list(summary(client, game.game_id).open_seats) == [1]
    following = client.spectate(game.game_id).updates()
    assert next(following).waiting.text.startswith("Player 2 is")
    bob = client.join(game.game_id, 1, "Bob")
    assert next(following).waiting.text.startswith("Bob is")   # a stream open before: told
    following.close()
    view = bob.view_message(log_from=0)
    assert view.viewer == 1 and view.players[1].name == "Bob" and view.players[1].hand
    assert view.decision.player == 1             # Bob is asked: the token acts for the seat
    assert any(e.text.startswith("Turn 1 - Bob") for e in view.log)
    assert list(summary(client, game.game_id).open_seats) == []
    assert list(summary(client, game.game_id).players) == ["Ann", "Bob"]
    assert refused(lambda: client.join(game.game_id, 1, "Cid")) == \
        grpc.StatusCode.FAILED_PRECONDITION   # taken: never twice
    assert client.seat(game.game_id, game.tokens[0]).view().players[1].name == "Bob"


def test_seats_that_are_not_open_cannot_be_taken(client, kingdom):
    game = client.create_game(["Ann", "BM", "Cid"], bots={1: "big-money"}, kingdom=kingdom,
                              seed=4, open_seats=[2])
    for seat in (0, 1):                          # a person's from the start, a bot's
        assert refused(lambda: client.join(game.game_id, seat, "Eve")) == \
            grpc.StatusCode.FAILED_PRECONDITION
    assert refused(lambda: client.join(game.game_id, 3, "Eve")) == \
        grpc.StatusCode.INVALID_ARGUMENT
    assert refused(lambda: client.join(game.game_id, 2, "E" * 1000)) == \
        grpc.StatusCode.INVALID_ARGUMENT
    assert refused(lambda: client.join("nope", 2, "Eve")) == grpc.StatusCode.NOT_FOUND
    assert list(summary(client, game.game_id).open_seats) == [2]    # nothing changed
    client.seat(game.game_id, game.tokens[0]).resign()
    assert refused(lambda: client.join(game.game_id, 2, "Eve")) == \
        grpc.StatusCode.FAILED_PRECONDITION      # over
    assert list(summary(client, game.game_id).open_seats) == []
    with pytest.raises(grpc.RpcError) as e:
        client.stub.CreateGame(pb.CreateGameRequest(seats=[
            pb.SeatSpec(name="Ann"), pb.SeatSpec(bot="big-money", open=True)]))
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_a_taken_seat_is_stored_with_its_name_and_token_across_a_restart(open_db, kingdom):
    with LocalServer(open_storage(open_db.db)) as server, connect(server.target) as client:
        game = client.create_game(["Ann", "Player 2"], kingdom=kingdom, seed=9, open_seats=[1])
        token = client.join(game.game_id, 1, "Bob").token
    with LocalServer(open_storage(open_db.db)) as server, connect(server.target) as client:
        view = client.seat(game.game_id, token).view_message()
        assert view.viewer == 1 and view.players[1].name == "Bob"
        assert list(summary(client, game.game_id).open_seats) == []
        assert refused(lambda: client.join(game.game_id, 1, "Cid")) == \
            grpc.StatusCode.FAILED_PRECONDITION


def test_the_database_lets_one_of_two_takers_of_a_seat_win(open_db, kingdom):
    """Two servers' worth of takers: the second claim, made from the seats as they were
    before the first, is refused by the database."""
    import dominion
    from dominion_service.storage import SeatRecord, SeatTaken, StoredGame
    store = open_db()
    config = dominion.make_config(["Ann", "Player 2"], kingdom, seed=1)
    seats = (SeatRecord("", "a" * 64), SeatRecord("", ""))
    store.create_game(StoredGame("g1", config, seats, 1.0))
    first = (seats[0], SeatRecord("", "b" * 64))
    store.claim_seat("g1", seats, first, config._replace(players=("Ann", "Bob")))
    with pytest.raises(SeatTaken):
        store.claim_seat("g1", seats, (seats[0], SeatRecord("", "c" * 64)), config)
    store.close()
    loaded = open_db().load_game("g1")
    assert loaded.seats == first and loaded.config.players == ("Ann", "Bob")


def test_servers_sharing_a_database_say_they_offer_no_open_seats(pg_url, kingdom):
    with LocalServer(open_storage(pg_url, shared=True)) as server, \
            connect(server.target) as client:
        assert refused(lambda: client.create_game(["Ann", "Bob"], kingdom=kingdom,
                                                  open_seats=[1])) == \
            grpc.StatusCode.INVALID_ARGUMENT
        game = client.create_game(["Ann", "Bob"], kingdom=kingdom)
        assert refused(lambda: client.join(game.game_id, 1, "Bob")) == \
            grpc.StatusCode.FAILED_PRECONDITION
