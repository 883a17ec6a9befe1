"""The web door over plain HTTP, as a web developer with ``curl`` meets it: Connect JSON and
binary, gRPC-Web, the page's files, and every refusal with its code, on the real server."""
from __future__ import annotations

import json
import struct
import urllib.request

import grpc
import pytest

import dominion
from dominion_client.client import connect
from dominion_client.local import LocalServer
from dominion_proto import dominion_pb2 as pb
from dominion_service import SqliteStorage
from tests.service.web_support import SERVICE, Stream, call, envelope, first_answer, ok


@pytest.fixture
def web():
    with LocalServer(SqliteStorage(":memory:"), web_port=0) as running:
        yield running


def two_seats(base, *, people=1, seed=11):
    seats = [{"name": "Ann"}] + [{"name": "Bob"} if people > 1 else {"bot": "big-money"}]
    return ok(base, "CreateGame", {"seats": seats, "preset": "First Game", "seed": str(seed)})


def my_view(base, game, token, **extra):
    return ok(base, "GetView", {"gameId": game["gameId"], **extra}, token)["view"]


def test_the_page_and_its_code_are_served(web):
    with urllib.request.urlopen(web.web_url) as response:
        page = response.read().decode()
    assert response.headers["content-type"].startswith("text/html")
    assert '<script src="app.js">' in page
    for name, kind in (("app.js", "javascript"), ("style.css", "text/css")):
        with urllib.request.urlopen(web.web_url + name) as response:
            assert kind in response.headers["content-type"] and response.read()
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(web.web_url + "no-such-file.js")
    assert missing.value.code == 404


def test_a_whole_game_is_played_over_connect_json(web):
    base = web.web_url
    game = two_seats(base)
    token = game["seats"][0]["token"]
    answered = 0
    while True:
        view = my_view(base, game, token)
        if view.get("gameOver"):
            break
        decision = view["decision"]
        reply = ok(base, "SubmitAnswer", {"gameId": game["gameId"],
                                          "answer": first_answer(decision)}, token)
        assert int(reply.get("sequence", 0)) > int(decision.get("sequence", 0))
        answered += 1
        assert answered < 2000
    assert len(view["scores"]) == 2 and view["winners"]
    record = ok(base, "GetRecord", {"gameId": game["gameId"]})
    assert int(record["config"]["seed"]) == 11 and record["answers"]


def test_the_event_stream_over_connect_json_carries_words_decisions_and_the_end(web):
    base = web.web_url
    game = two_seats(base)
    token = game["seats"][0]["token"]
    stream = Stream(base, "StreamEvents", {"gameId": game["gameId"], "fromEvent": 0}, token)
    try:
        seen = []
        while True:
            update = stream.next()
            if update is None:
                break
            seen += update.get("events", [])
            if "decision" in update:
                decision = update["decision"]["decision"]
                assert update["decision"]["view"]["players"][0]["handVisible"]
                call(base, "SubmitAnswer", {"gameId": game["gameId"],
                                            "answer": first_answer(decision)}, token)
            if "gameOver" in update:
                assert len(update["gameOver"]["scores"]) == 2
        assert stream.end == {}   # a clean end, no error
    finally:
        stream.close()
    assert [int(e.get("index", 0)) for e in seen] == list(range(len(seen)))
    assert all(e["text"].endswith(".") for e in seen if e["kind"] != "turn")
    assert any(e["text"] == "Ann plays 3 Coppers." or e["text"].startswith("Ann plays ")
               for e in seen)


def test_a_spectator_stream_shows_who_decides_never_a_hidden_hand(web):
    base = web.web_url
    game = two_seats(base, people=2)
    stream = Stream(base, "StreamEvents", {"gameId": game["gameId"]})
    try:
        update = stream.next()
    finally:
        stream.close()
    assert "decision" not in update
    assert update["waiting"]["text"].endswith(".") and update["waiting"]["kind"] == "turn"
    draws = [e for e in update["events"] if e["kind"] == "draw"]
    assert draws and all("cards" not in e and e["hiddenCount"] == 5 for e in draws)
    assert all(e["text"].endswith("draws 5 cards.") for e in draws)


def refused(status_reply, http_status, code, *words):
    status, reply = status_reply
    assert (status, reply.get("code")) == (http_status, code), status_reply
    for w in words:
        assert w in reply["message"], reply


def test_each_refusal_has_its_code_and_changes_nothing(web):
    base = web.web_url
    game = two_seats(base, people=2)
    ann, bob = (s["token"] for s in game["seats"])
    gid = game["gameId"]
    first = game.get("firstPlayer", 0)
    mover, other = (ann, bob) if first == 0 else (bob, ann)
    before = my_view(base, game, mover)
    decision = before["decision"]
    good = first_answer(decision)

    refused(call(base, "CreateGame", {"seats": [{"bot": "nobody"}, {}]}), 400,
            "invalid_argument", "unknown bot")
    refused(call(base, "CreateGame", {}, raw=b'{"seats":'), 400, "invalid_argument",
            "not a valid dominion.v1.CreateGameRequest")
    refused(call(base, "CreateGame", {}, raw=b"\xff\x00junk", content_type="application/proto"),
            400, "invalid_argument", "not a valid")
    refused(call(base, "GetView", {"gameId": "nope"}), 404, "not_found", "no game 'nope'")
    refused(call(base, "SubmitAnswer", {"gameId": gid, "answer": good}), 401, "unauthenticated",
            "x-seat-token")
    refused(call(base, "SubmitAnswer", {"gameId": gid, "answer": good}, token="f" * 48), 403,
            "permission_denied")
    stale = {**good, "sequence": str(int(decision.get("sequence", 0)) + 5)}
    refused(call(base, "SubmitAnswer", {"gameId": gid, "answer": stale}, mover), 409, "aborted",
            "not asked yet")
    refused(call(base, "SubmitAnswer", {"gameId": gid, "answer": good}, other), 400,
            "failed_precondition", "not for your seat")
    illegal = {"sequence": decision.get("sequence", "0"),
               "move": {"verb": "VERB_BUY", "card": "Province"}}
    refused(call(base, "SubmitAnswer", {"gameId": gid, "answer": illegal}, mover), 400,
            "invalid_argument")
    refused(call(base, "GetRecord", {"gameId": gid}), 400, "failed_precondition", "not over")
    refused(call(base, "SubmitAnswer", {}, raw=b"x" * 70_000), 429, "resource_exhausted")
    status, _ = call(base, "NoSuchMethod", {})
    assert status == 404
    assert my_view(base, game, mover) == before   # nothing changed


def test_a_game_made_over_grpc_is_played_over_the_web_and_back(web, kingdom):
    """One service behind both ports: answers alternate between native gRPC and Connect JSON,
    and each side sees the other's answers at once."""
    base = web.web_url
    with connect(web.target) as native:
        native.wait_ready()
        created = native.create_game(["Ann", "Bob"], kingdom=kingdom, seed=5)
        gid = created.game_id
        for step in range(8):
            public = ok(base, "GetView", {"gameId": gid})["view"]
            seat = public.get("waitingFor", 0)
            token = created.tokens[seat]
            sequence = int(public.get("sequence", 0))
            if step % 2:
                decision = ok(base, "GetView", {"gameId": gid}, token)["view"]["decision"]
                ok(base, "SubmitAnswer", {"gameId": gid, "answer": first_answer(decision)},
                   token)
            else:
                mine = native.seat(gid, token)
                decision = mine.view_message().decision
                moves = decision.turn.moves
                move = next((m for m in moves if m.verb == pb.VERB_PLAY_TREASURES),
                            next(m for m in moves if m.verb == pb.VERB_END_PHASE))
                mine.answer(decision, dominion.Move(
                    "play_treasures" if move.verb == pb.VERB_PLAY_TREASURES else "end_phase"))
            assert native.seat(gid, token).view_message().sequence == sequence + 1
            assert int(ok(base, "GetView", {"gameId": gid})["view"]["sequence"]) == sequence + 1


def grpc_web(base: str, method: str, message: bytes, token: str = None) -> tuple:
    """A gRPC-Web call: (data messages, trailers as a dict)."""
    headers = {"Content-Type": "application/grpc-web+proto", "X-Grpc-Web": "1"}
    if token:
        headers["x-seat-token"] = token
    request = urllib.request.Request(f"{base}{SERVICE}/{method}", data=envelope(message),
                                     headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()
    messages, trailers = [], {}
    while body:
        flags, length = struct.unpack(">BI", body[:5])
        chunk, body = body[5:5 + length], body[5 + length:]
        if flags & 0x80:
            for line in chunk.decode().strip().split("\r\n"):
                key, _, value = line.partition(":")
                trailers[key.strip().lower()] = value.strip()
        else:
            messages.append(chunk)
    return messages, trailers


def test_grpc_web_calls_and_streams_reach_the_same_service(web):
    base = web.web_url
    messages, trailers = grpc_web(base, "ListBots", pb.ListBotsRequest().SerializeToString())
    assert trailers["grpc-status"] == "0"
    assert "big-money" in pb.ListBotsResponse.FromString(messages[0]).bots
    _, trailers = grpc_web(base, "GetView", pb.GetViewRequest(game_id="nope").SerializeToString())
    assert trailers["grpc-status"] == str(grpc.StatusCode.NOT_FOUND.value[0])
    game = two_seats(base, seed=3)
    token = game["seats"][0]["token"]
    request = pb.StreamEventsRequest(game_id=game["gameId"]).SerializeToString()
    # The stream stays open while the game goes on: read only its first message here.
    headers = {"Content-Type": "application/grpc-web+proto", "X-Grpc-Web": "1",
               "x-seat-token": token}
    with urllib.request.urlopen(urllib.request.Request(
            f"{base}{SERVICE}/StreamEvents", data=envelope(request), headers=headers,
            method="POST"), timeout=30) as response:
        flags, length = struct.unpack(">BI", response.read(5))
        update = pb.StreamEventsResponse.FromString(response.read(length))
    assert flags == 0 and update.events and update.events[0].text
    assert update.HasField("decision") or update.HasField("waiting")


def test_connect_binary_works_like_json(web):
    base = web.web_url
    request = urllib.request.Request(
        f"{base}{SERVICE}/ListKingdoms", data=pb.ListKingdomsRequest().SerializeToString(),
        headers={"Content-Type": "application/proto"}, method="POST")
    with urllib.request.urlopen(request) as response:
        kingdoms = pb.ListKingdomsResponse.FromString(response.read()).kingdoms
    assert [k.name for k in kingdoms] == list(dominion.RECOMMENDED)
    assert json.loads(json.dumps(ok(base, "ListKingdoms", {})))["kingdoms"][0]["name"] == \
        kingdoms[0].name


def test_pages_of_other_origins_may_call_with_a_seat_token(web):
    """CORS: a web developer's own page (another origin) calls the service; tokens are headers,
    never cookies, so no credentials are allowed."""
    request = urllib.request.Request(
        f"{web.web_url}{SERVICE}/SubmitAnswer", method="OPTIONS",
        headers={"Origin": "http://example.test", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type,x-seat-token"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 200
        assert response.headers["access-control-allow-origin"] == "*"
        assert "x-seat-token" in response.headers["access-control-allow-headers"].lower()
        assert "access-control-allow-credentials" not in response.headers
    request = urllib.request.Request(f"{web.web_url}{SERVICE}/ListBots", data=b"{}",
                                     headers={"Content-Type": "application/json",
                                              "Origin": "http://example.test"})
    with urllib.request.urlopen(request) as response:
        assert response.headers["access-control-allow-origin"] == "*"
        assert "big-money" in json.loads(response.read())["bots"]


def test_a_web_stream_ends_unavailable_when_the_server_stops_so_the_page_resumes_it():
    server = LocalServer(SqliteStorage(":memory:"), web_port=0).start()
    try:
        game = two_seats(server.web_url, people=2)
        stream = Stream(server.web_url, "StreamEvents", {"gameId": game["gameId"]})
        assert stream.next()["events"]
    finally:
        server.stop()
    assert stream.next() is None
    assert stream.end["error"]["code"] == "unavailable", stream.end
    stream.close()


def test_play_streams_both_ways_so_the_web_door_points_to_the_ways_that_work(web):
    stream = Stream(web.web_url, "Play", {"start": {"gameId": "x"}})
    assert stream.next() is None
    assert stream.end["error"]["code"] == "unimplemented"
    assert "SubmitAnswer" in stream.end["error"]["message"]
    stream.close()


def test_the_pages_files_are_compressed_and_revalidated_by_etag(web):
    """The page's script and styles travel gzip-compressed, at most 60 KB together, and a
    browser that has them is told "not modified" (no body) until they change."""
    import gzip
    sent = 0
    for name in ("app.js", "style.css"):
        request = urllib.request.Request(web.web_url + name,
                                         headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as response:
            assert response.headers["Content-Encoding"] == "gzip"
            assert response.headers["Cache-Control"] == "no-cache"
            etag = response.headers["ETag"]
            body = response.read()
        sent += len(body)
        assert gzip.decompress(body)
        again = urllib.request.Request(web.web_url + name, headers={"If-None-Match": etag})
        with pytest.raises(urllib.error.HTTPError) as cached:
            urllib.request.urlopen(again)
        assert cached.value.code == 304
    assert sent <= 60 * 1024, sent
