"""A public server that one client cannot take down (docs/service.md, "Running in public"): idle
and slowloris connections are closed, connections past the cap are refused while open ones are
served, a never-reading stream is bounded, forwarded addresses count only from a trusted proxy,
per-client limits hold across a restart, abandoned games end, both doors speak TLS, the web door
sends its security headers, and SIGTERM ends at once when no answer is in flight."""
from __future__ import annotations

import os
import resource
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import grpc
import pytest

import dominion

from dominion_client.client import connect
from dominion_proto import dominion_pb2 as pb
from dominion_proto import dominion_pb2_grpc as pb_grpc
from dominion_service import ServiceOptions, SqliteStorage
from dominion_service.limits import TrustedProxies
from dominion_service.local import LocalServer
from tests.service.web_support import call

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")
OPEN = dict(allow_seed=True, max_games=10**6, max_games_per_client=10**6,
            max_creates_per_minute=10**6)


def options(**changes) -> ServiceOptions:
    return ServiceOptions(**{**OPEN, **changes})


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds (reading what it sends)."""
    sock.settimeout(0.2)
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            if sock.recv(4096) == b"":
                return True
        except socket.timeout:
            continue
        except OSError:   # reset
            return True
    return False


def web_base(server) -> str:
    return f"http://127.0.0.1:{server.web_port}/"


# --- connections ------------------------------------------------------------------------------

def test_idle_and_slowloris_connections_are_closed_in_bounded_time():
    with LocalServer(SqliteStorage(":memory:"), options=options(idle_timeout=0.5),
                     web_port=0) as server:
        idle = [socket.create_connection(("127.0.0.1", server.web_port)) for _ in range(20)]
        idle += [socket.create_connection(("127.0.0.1", server.port)) for _ in range(5)]
        slow = [socket.create_connection(("127.0.0.1", server.web_port)) for _ in range(5)]
        for s in slow:
            s.sendall(b"POST /dominion.v1.DominionService/ListBots HTTP/1.1\r\nHost: x\r\n")
        stop = threading.Event()

        def trickle():   # one more header byte every 0.1 s, never the blank line
            while not stop.is_set():
                for s in slow:
                    try:
                        s.send(b"X")
                    except OSError:
                        pass
                time.sleep(0.1)
        thread = threading.Thread(target=trickle, daemon=True)
        thread.start()
        try:
            assert all(closed_by_server(s, 3.0) for s in idle + slow)
        finally:
            stop.set()
            thread.join()
            for s in idle + slow:
                s.close()
        # The door still serves, and a connection with a long stream under way is not idle.
        status, reply = call(web_base(server), "ListBots", {})
        assert status == 200 and reply["bots"]


@pytest.mark.parametrize("pieces", [1, 60])
def test_a_request_head_over_16_kib_is_refused_however_it_arrives(pieces):
    """A 60 KiB request head sent in one write, or in 60 pieces, is refused (400) and its
    connection closed; a head just under the limit is served."""
    from dominion_service.web import MAX_HEADER_BYTES

    def send_head(server, padding: int) -> bytes:
        head = (b"POST /dominion.v1.DominionService/ListBots HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\nContent-Length: 2\r\n"
                b"X-Pad: " + b"a" * padding + b"\r\n\r\n{}")
        with socket.create_connection(("127.0.0.1", server.web_port)) as sock:
            step = -(-len(head) // pieces)
            try:
                for i in range(0, len(head), step):
                    sock.sendall(head[i:i + step])
                    if pieces > 1:
                        time.sleep(0.005)
            except (BrokenPipeError, ConnectionResetError):   # refused before its end
                pass
            sock.settimeout(5)
            reply = b""
            while True:
                try:
                    data = sock.recv(65536)
                except (socket.timeout, ConnectionResetError):
                    break
                reply += data
                if not data or b"\r\n\r\n" in reply and b"{" in reply:
                    break
            return reply

    with LocalServer(SqliteStorage(":memory:"), options=options(), web_port=0) as server:
        refused = send_head(server, 60 * 1024)
        assert refused.startswith(b"HTTP/1.1 400") or refused == b"", refused[:200]
        assert send_head(server, MAX_HEADER_BYTES - 512).startswith(b"HTTP/1.1 200")


def _from(address: str, port: int) -> socket.socket:
    """A connection to 127.0.0.1:``port`` from ``address`` (another of the loopback range)."""
    return socket.create_connection(("127.0.0.1", port), source_address=(address, 0))


@pytest.mark.parametrize("trusted", [False, True])
def test_one_address_cannot_take_every_connection_of_the_web_door(trusted):
    """With 5 connections a address: an address holding 5 idle connections gets a 503 for a
    sixth at once, while another address is served; a trusted proxy's connections (many
    clients') are not capped."""
    with LocalServer(SqliteStorage(":memory:"), web_port=0, options=options(
            max_connections_per_address=5,
            trusted_proxies=("127.0.0.1",) if trusted else ())) as server:
        held = [_from("127.0.0.1", server.web_port) for _ in range(5)]
        try:
            time.sleep(0.2)
            sixth = _from("127.0.0.1", server.web_port)
            sixth.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            sixth.settimeout(5)
            reply = sixth.recv(4096)
            sixth.close()
            assert reply.startswith(b"HTTP/1.1 200" if trusted else b"HTTP/1.1 503"), reply
            other = _from("127.0.0.2", server.web_port)
            other.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            other.settimeout(5)
            assert other.recv(4096).startswith(b"HTTP/1.1 200")
            other.close()
        finally:
            for s in held:
                s.close()
        time.sleep(0.2)   # closed: the address has its slots again
        status, _ = call(web_base(server), "ListBots", {})
        assert status == 200


HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def speaks_http2(sock: socket.socket) -> bool:
    """Whether the server answers an HTTP/2 preface on ``sock`` with its SETTINGS frame, as
    gRPC does (the channel's first step; a refused connection is closed instead)."""
    sock.settimeout(5)
    try:
        sock.sendall(HTTP2_HELLO)
        head = b""
        while len(head) < 9:
            data = sock.recv(9 - len(head))
            if not data:
                return False
            head += data
    except OSError:
        return False
    return head[3] == 4   # frame type SETTINGS


@pytest.mark.parametrize("trusted", [False, True])
def test_one_address_cannot_take_every_connection_of_the_grpc_door(trusted):
    """With 5 connections a address on the gRPC door: an address holding 5 idle connections
    has a sixth closed at once, while another address (127.0.0.2) is served; a trusted
    proxy's connections are not capped; and the service still sees the client's own address
    (games per address) through the door's relay."""
    with LocalServer(SqliteStorage(":memory:"), options=options(
            max_connections_per_address=5, max_games_per_client=1,
            trusted_proxies=("127.0.0.1",) if trusted else ())) as server:
        held = [_from("127.0.0.1", server.port) for _ in range(5)]
        try:
            time.sleep(0.2)
            sixth = _from("127.0.0.1", server.port)
            if trusted:
                assert speaks_http2(sixth)
            else:
                assert closed_by_server(sixth, within=1.0)
            sixth.close()
            other = _from("127.0.0.2", server.port)
            assert speaks_http2(other)
            other.close()
        finally:
            for s in held:
                s.close()
        time.sleep(0.2)   # closed: the address has its slots again
        stubs = [pb_grpc.DominionServiceStub(grpc.insecure_channel(
            server.target, options=[("grpc.use_local_subchannel_pool", 1)])) for _ in range(2)]
        created = stubs[0].CreateGame(pb.CreateGameRequest(seats=[pb.SeatSpec(name="A")] * 2))
        with pytest.raises(grpc.RpcError) as refused:   # another connection, the same address
            stubs[1].CreateGame(pb.CreateGameRequest(seats=[pb.SeatSpec(name="A")] * 2))
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert server.service.games[created.game_id].creator == "127.0.0.1"


def test_the_grpc_door_serves_gRPC_only_through_its_capped_port():
    """gRPC itself listens on a Unix socket in a directory only the server's user may enter
    (not on a port another address could reach around the cap), and its calls come through
    the relay on the public port; the relay process ends with the server."""
    with LocalServer(SqliteStorage(":memory:"), options=options()) as server:
        relay = server.running.relay
        assert relay.private.startswith(f"unix:{relay.dir}/")
        assert os.stat(relay.dir).st_mode & 0o077 == 0
        with connect(server.target) as client:
            game = client.create_game(["A", "B"])
        assert server.service.games[game.game_id].creator == "127.0.0.1"
        process = relay.process
        assert process.poll() is None
    assert process.poll() is not None and not os.path.exists(relay.dir)


class _Transport:
    def __init__(self, peername):
        self.peername = peername

    def get_extra_info(self, name):
        return self.peername if name == "peername" else None


def test_a_dual_stack_ipv4_client_is_counted_and_named_as_gRPC_names_it():
    """A server listening on "::" sees an IPv4 client as ::ffff:1.2.3.4: both doors count it,
    and the relay names it to gRPC, as 1.2.3.4 (so a trusted proxy's IPv4 address matches)."""
    from dominion_service.relay import grpc_peer, peer_host
    mapped = _Transport(("::ffff:1.2.3.4", 5000, 0, 0))
    assert peer_host(mapped) == "1.2.3.4" and grpc_peer(mapped) == "ipv4:1.2.3.4:5000"
    assert grpc_peer(_Transport(("::1", 5001, 0, 0))) == "ipv6:[::1]:5001"
    assert peer_host(_Transport(None)) is None


def test_the_grpc_relay_ends_with_a_killed_server():
    """A server killed outright (SIGKILL) leaves no relay process holding its port, and no
    private directory behind."""
    proc = subprocess.Popen([sys.executable, "-m", "dominion_client.cli", "serve", "--port", "0",
                             "--no-web", "--db", ":memory:"], stdout=subprocess.PIPE, text=True,
                            cwd=ROOT, env=ENV)
    try:
        assert "listening on" in proc.stdout.readline()
        relays = [int(p) for p in os.listdir("/proc") if p.isdigit() and _parent(p) == proc.pid]
        assert len(relays) == 1
        directory = os.path.dirname(
            Path(f"/proc/{relays[0]}/cmdline").read_bytes().split(b"\0")[4].decode())
        assert os.path.isdir(directory)
        proc.kill()
        proc.wait()
        end = time.monotonic() + 10
        while (os.path.exists(f"/proc/{relays[0]}") or os.path.exists(directory)) and \
                time.monotonic() < end:
            time.sleep(0.05)
        assert not os.path.exists(f"/proc/{relays[0]}") and not os.path.exists(directory)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _parent(pid: str) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def test_connections_past_the_cap_are_refused_at_once_and_open_ones_still_served(kingdom):
    with LocalServer(SqliteStorage(":memory:"), options=options(max_connections=6),
                     web_port=0) as server, connect(server.target) as client:
        game = client.create_game(["A", "B"], kingdom=list(kingdom), seed=1)
        seat = client.seat(game.game_id, game.tokens[0])
        held = [socket.create_connection(("127.0.0.1", server.web_port)) for _ in range(6)]
        try:
            time.sleep(0.2)
            extra = socket.create_connection(("127.0.0.1", server.web_port))
            extra.settimeout(5)
            reply = extra.recv(4096)
            extra.close()
            assert reply.startswith(b"HTTP/1.1 503"), reply
            assert b"nosniff" in reply and b"/" not in reply.split(b"\r\n\r\n", 1)[1]
            assert seat.view_message().game_id == game.game_id   # the gRPC door serves it
            refused = 0
            channels = [grpc.insecure_channel(server.target, options=[
                ("grpc.use_local_subchannel_pool", 1)]) for _ in range(7)]
            for channel in channels:   # the gRPC door has its own cap of 6
                try:
                    pb_grpc.DominionServiceStub(channel).ListBots(pb.ListBotsRequest(), timeout=3)
                except grpc.RpcError as e:
                    assert e.code() == grpc.StatusCode.UNAVAILABLE, e
                    refused += 1
            assert refused >= 2
            assert seat.view_message().game_id == game.game_id   # still served
            for channel in channels:
                channel.close()
        finally:
            for s in held:
                s.close()
        time.sleep(0.2)
        status, _ = call(web_base(server), "ListBots", {})
        assert status == 200


def start_serve(*args, preexec_fn=None) -> tuple:
    """`dominion serve` in its own process: (process, gRPC port, web port)."""
    proc = subprocess.Popen([sys.executable, "-m", "dominion_client.cli", "serve", "--port", "0",
                             "--web-port", "0", "--db", ":memory:", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV,
                            preexec_fn=preexec_fn)
    first = proc.stdout.readline().decode()
    assert "listening on 127.0.0.1:" in first, proc.stderr.read()
    port = int(first.split("127.0.0.1:", 1)[1].split()[0])
    web_port = None
    if "--no-web" not in args:
        second = proc.stdout.readline().decode()
        web_port = int(second.rsplit(":", 1)[1].strip("/\n"))
    return proc, port, web_port


def _low_file_limit():
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


def test_a_server_under_a_low_file_limit_still_serves_an_existing_game(kingdom):
    """256 files at most (hard limit: the server cannot raise it); 300 connections on each
    door: new ones are refused, the game under way goes on, the log stays small."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1000:
        pytest.skip("this test process needs 1000 open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1000), hard))
    proc, port, web_port = start_serve("--allow-seed", preexec_fn=_low_file_limit)
    flood = []
    try:
        with connect(f"127.0.0.1:{port}") as client:
            game = client.create_game(["A", "B"], kingdom=list(kingdom), seed=2)
            seat = _seat_to_answer(client, game)
            first = seat.view_message()
            for door in (web_port, port):
                for _ in range(300):
                    try:
                        flood.append(socket.create_connection(("127.0.0.1", door), timeout=2))
                    except OSError:
                        pass
            time.sleep(0.5)
            seat.answer(first.decision, END_THE_PHASE)   # the game under way is served
            assert seat.view_message().sequence == first.sequence + 1
            with connect(f"127.0.0.1:{port}") as newcomer:
                try:
                    newcomer.stub.ListBots(pb.ListBotsRequest(), timeout=3)
                except grpc.RpcError as e:   # refused, with no path of the server's machine
                    assert e.code() in (grpc.StatusCode.UNAVAILABLE,
                                        grpc.StatusCode.RESOURCE_EXHAUSTED,
                                        grpc.StatusCode.DEADLINE_EXCEEDED), e
                    assert "/" not in (e.details() or "").replace("://", ""), e.details()
        for s in flood:
            s.close()
        flood = []
        time.sleep(0.5)
        with connect(f"127.0.0.1:{port}") as later:
            assert later.stub.ListBots(pb.ListBotsRequest(), timeout=10).bots
    finally:
        for s in flood:
            s.close()
        proc.send_signal(signal.SIGTERM)
        _, log = proc.communicate(timeout=15)   # read as it comes: a pipe's 64 KiB never fill
    assert len(log) < 64 * 1024, log[-4000:].decode(errors="replace")


END_THE_PHASE = dominion.Move(dominion.END_PHASE)   # always legal in a turn's first decision


def _seat_to_answer(client, game):
    """The seat of ``game`` that is asked first."""
    for token in game.tokens.values():
        seat = client.seat(game.game_id, token)
        if seat.view_message().HasField("decision"):
            return seat
    raise AssertionError("no seat is asked")


# --- memory per stream --------------------------------------------------------------------------

def _rss_mib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no VmRSS")


@pytest.mark.parametrize("method", ["Play", "PlaySeats"])
def test_a_stream_that_sends_answers_and_never_reads_is_bounded_then_ended(method):
    """The server stops reading answers while their outcomes wait to be sent, holds a bounded
    amount, and ends the stream RESOURCE_EXHAUSTED once it stalls for --stream-stall-timeout."""
    proc, port, _ = start_serve("--no-web", "--stream-stall-timeout", "1")
    try:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        stub = pb_grpc.DominionServiceStub(channel)
        game = stub.CreateGame(pb.CreateGameRequest(seats=[pb.SeatSpec(name="a"),
                                                           pb.SeatSpec(name="b")]))
        token = game.seats[0].token
        before = _rss_mib(proc.pid)
        junk = pb.Answer(options=pb.OptionList(options=["x" * 50]))

        def requests():
            if method == "Play":
                yield pb.PlayRequest(start=pb.PlayStart(game_id=game.game_id))
                for i in range(40_000):   # each refused (not asked yet): an outcome each
                    junk.sequence = 10**6 + i
                    yield pb.PlayRequest(answer=junk)
            else:
                yield pb.PlaySeatsRequest(add=[pb.SeatStart(ref=1, game_id=game.game_id,
                                                            token=token)])
                for i in range(1000):
                    yield pb.PlaySeatsRequest(answers=[
                        pb.SeatAnswer(ref=1, answer=pb.Answer(sequence=10**6 + 100 * i + j,
                                                              options=junk.options))
                        for j in range(100)])
            stop.wait(30)
        stop = threading.Event()
        call_ = (stub.Play(requests(), metadata=(("x-seat-token", token),))
                 if method == "Play" else stub.PlaySeats(requests()))
        peak = before
        for _ in range(8):
            time.sleep(0.5)
            peak = max(peak, _rss_mib(proc.pid))
        assert peak - before < 40, (before, peak)   # the old server grew by 100 MiB and more
        if method == "Play":
            # Play's outcomes are small messages, which the client's gRPC library takes in
            # without the program reading them: the server's writes are not blocked, so it
            # holds nothing and has no reason to end the stream.
            call_.cancel()
            return
        with pytest.raises(grpc.RpcError) as ended:
            for _ in call_:
                pass
        assert ended.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, ended.value
        assert "did not read" in ended.value.details()
        channel.close()
    finally:
        stop.set()
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)


# --- who a client is ------------------------------------------------------------------------------

def test_trusted_proxies_name_the_client_only_when_the_peer_is_one():
    none = TrustedProxies()
    headers = {"x-forwarded-for": "1.2.3.4"}.get
    assert none.client("127.0.0.1", headers) == "127.0.0.1"
    proxies = TrustedProxies(["127.0.0.1", "10.0.0.0/8"])
    assert proxies.client("127.0.0.1", headers) == "1.2.3.4"
    assert proxies.client("192.0.2.9", headers) == "192.0.2.9"   # not a proxy: its own word
    chain = {"x-forwarded-for": "6.6.6.6, 1.2.3.4, 10.1.1.1"}.get   # the client made up 6.6.6.6
    assert proxies.client("127.0.0.1", chain) == "1.2.3.4"
    forwarded = {"forwarded": 'for=6.6.6.6, for="[2001:db8::1]:4711";proto=https',
                 "x-forwarded-for": "7.7.7.7"}.get
    # One header is read, X-Forwarded-For unless the operator names another: a Forwarded
    # header a client wrote (and a proxy passed through) is not.
    assert proxies.client("127.0.0.1", forwarded) == "7.7.7.7"
    rfc = TrustedProxies(["127.0.0.1"], "Forwarded")
    assert rfc.client("127.0.0.1", forwarded) == "2001:db8::1"
    assert rfc.client("127.0.0.1", {"forwarded": "for=_hidden"}.get) == "127.0.0.1"
    assert rfc.client("127.0.0.1", {"x-forwarded-for": "7.7.7.7"}.get) == "127.0.0.1"
    real = TrustedProxies(["127.0.0.1"], "X-Real-IP")
    assert real.client("127.0.0.1", {"x-real-ip": "8.8.8.8", **{}}.get) == "8.8.8.8"
    with pytest.raises(ValueError, match="not a header name"):
        TrustedProxies(["127.0.0.1"], "X-Forwarded-For: 1.2.3.4")


def _create_with(base: str, forwarded: dict) -> int:
    import json
    request = urllib.request.Request(
        f"{base}dominion.v1.DominionService/CreateGame",
        data=json.dumps({"seats": [{"name": "A"}, {"name": "B"}]}).encode(),
        headers={"Content-Type": "application/json", **forwarded}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code


def test_forwarding_headers_are_ignored_by_default_on_both_doors():
    with LocalServer(SqliteStorage(":memory:"), options=options(max_games_per_client=2),
                     web_port=0) as server:
        base = web_base(server)
        assert _create_with(base, {"X-Forwarded-For": "1.1.1.1"}) == 200
        assert _create_with(base, {"Forwarded": "for=2.2.2.2"}) == 200
        assert _create_with(base, {"X-Forwarded-For": "3.3.3.3"}) == 429   # RESOURCE_EXHAUSTED
        stub = pb_grpc.DominionServiceStub(grpc.insecure_channel(server.target))
        with pytest.raises(grpc.RpcError) as refused:
            stub.CreateGame(pb.CreateGameRequest(seats=[pb.SeatSpec(name="A")] * 2),
                            metadata=(("x-forwarded-for", "4.4.4.4"),))
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_forwarding_headers_name_the_client_behind_a_trusted_proxy():
    """Behind a trusted proxy that sets X-Forwarded-For (as nginx does, passing the client's
    own Forwarded header through), a client that writes a new Forwarded header each time is
    still one client, at a limit of 1 game, on both doors; an operator whose proxy sets
    Forwarded names it, and then X-Forwarded-For is what is ignored."""
    with LocalServer(SqliteStorage(":memory:"),
                     options=options(max_games_per_client=1, trusted_proxies=("127.0.0.1",)),
                     web_port=0) as server:
        base = web_base(server)
        assert _create_with(base, {"X-Forwarded-For": "1.1.1.1"}) == 200
        assert _create_with(base, {"X-Forwarded-For": "1.1.1.1"}) == 429
        for n in range(3):
            assert _create_with(base, {"X-Forwarded-For": "1.1.1.1",
                                       "Forwarded": f"for=9.9.9.{n}"}) == 429
        stub = pb_grpc.DominionServiceStub(grpc.insecure_channel(server.target))
        stub.CreateGame(pb.CreateGameRequest(seats=[pb.SeatSpec(name="A")] * 2),
                        metadata=(("x-forwarded-for", "3.3.3.3"),))
        for n in range(3):
            with pytest.raises(grpc.RpcError) as refused:
                stub.CreateGame(pb.CreateGameRequest(seats=[pb.SeatSpec(name="A")] * 2),
                                metadata=(("x-forwarded-for", "3.3.3.3"),
                                          ("forwarded", f"for=9.9.8.{n}")))
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert {g.creator for g in server.service.games.values()} == {"1.1.1.1", "3.3.3.3"}
    with LocalServer(SqliteStorage(":memory:"),
                     options=options(max_games_per_client=1, trusted_proxies=("127.0.0.1",),
                                     forwarded_header="forwarded"),
                     web_port=0) as server:
        base = web_base(server)
        assert _create_with(base, {"Forwarded": "for=2.2.2.2", "X-Forwarded-For": "1.1.1.1"}) \
            == 200
        assert _create_with(base, {"Forwarded": "for=2.2.2.2", "X-Forwarded-For": "1.1.1.2"}) \
            == 429
        assert {g.creator for g in server.service.games.values()} == {"2.2.2.2"}


def test_the_per_client_limit_holds_across_a_restart(tmp_path, kingdom):
    db = tmp_path / "games.db"
    limited = options(max_games_per_client=2)
    with LocalServer(SqliteStorage(db), options=limited) as server, \
            connect(server.target) as client:
        for _ in range(2):
            client.create_game(["A", "B"], kingdom=list(kingdom))
    with LocalServer(SqliteStorage(db), options=limited) as server, \
            connect(server.target) as client:
        with pytest.raises(grpc.RpcError) as refused:
            client.create_game(["A", "B"], kingdom=list(kingdom))
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "2 games in progress" in refused.value.details()


def test_a_game_with_no_answer_for_too_long_ends_as_abandoned(tmp_path, kingdom):
    db = tmp_path / "games.db"
    with LocalServer(SqliteStorage(db), options=options(abandon_after=0.4,
                                                        max_games_per_client=1)) as server, \
            connect(server.target) as client:
        game = client.create_game(["A", "B"], kingdom=list(kingdom), seed=3)
        seat = _seat_to_answer(client, game)
        decision = seat.view_message().decision
        deadline = time.monotonic() + 5
        while game.game_id in server.service.games and time.monotonic() < deadline:
            time.sleep(0.05)
        assert game.game_id in server.service.finished
        assert server.service.finished[game.game_id].abandoned
        with pytest.raises(grpc.RpcError) as refused:
            seat.answer(decision, END_THE_PHASE)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "abandoned" in refused.value.details()
        for view in (seat.view_message(), client.spectate(game.game_id).view_message()):
            # over, with nothing pending and no scores: it did not end by the rules
            assert view.game_over and not view.HasField("decision"), view
            assert not view.HasField("waiting_for") and not view.HasField("waiting"), view
            assert not view.scores and not view.winners, view
        assert client.record(game.game_id).config.seed == 3   # its record is public now
        client.create_game(["C", "D"], kingdom=list(kingdom))   # its slot is free
    with LocalServer(SqliteStorage(db), options=options(abandon_after=0)) as server:
        assert game.game_id in server.service.finished   # recorded: not resumed
        assert server.service.finished[game.game_id].abandoned


# --- TLS and headers --------------------------------------------------------------------------------

@pytest.fixture
def certificate(tmp_path) -> tuple:
    """A self-signed certificate for 127.0.0.1 and localhost, made by the openssl command."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj",
                    "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return str(cert), str(key)


def test_both_doors_speak_tls_with_the_operators_certificate(certificate, kingdom):
    cert, key = certificate
    with LocalServer(SqliteStorage(":memory:"), web_port=0, tls=(cert, key)) as server:
        with connect(f"https://{server.target}", ca_file=cert) as client:
            game = client.create_game(["A", "B"], kingdom=list(kingdom), seed=4)
            assert client.seat(game.game_id, game.tokens[0]).view().decision is not None
        with connect(server.target) as clear:   # a client in clear gets nothing
            with pytest.raises(grpc.RpcError) as refused:
                clear.stub.ListBots(pb.ListBotsRequest(), timeout=3)
            assert refused.value.code() in (grpc.StatusCode.UNAVAILABLE,
                                            grpc.StatusCode.DEADLINE_EXCEEDED)
        with connect(f"https://{server.target}", ca_file=cert) as client:
            game = client.create_game(["Net", "BM"], bots={1: "big-money"},
                                      kingdom=list(kingdom))
        bot = subprocess.run([sys.executable, "-m", "dominion_client.cli", "bot", "--server",
                              f"https://{server.target}", "--ca-file", cert, "--game",
                              game.game_id, "--token", game.tokens[0]],
                             capture_output=True, text=True, timeout=120, cwd=ROOT, env=ENV)
        assert bot.returncode == 0 and "game over" in bot.stdout, bot.stderr
        context = ssl.create_default_context(cafile=cert)
        with urllib.request.urlopen(server.web_url, context=context, timeout=10) as page:
            assert b"app.js" in page.read()
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{server.web_port}/", timeout=5).read()


def test_silent_tls_connections_are_counted_and_closed_on_the_web_door(certificate):
    """Over TLS, connections that never send a ClientHello count against the web door's cap
    from their first moment (those past it are closed at once) and are closed after the idle
    timeout (not asyncio's 60 s handshake timeout); the door serves HTTPS after them."""
    cert, key = certificate
    with LocalServer(SqliteStorage(":memory:"), web_port=0, tls=(cert, key),
                     options=options(max_connections=8, idle_timeout=2.0)) as server:
        silent = [socket.create_connection(("127.0.0.1", server.web_port)) for _ in range(12)]
        try:
            time.sleep(0.3)
            assert sum(closed_by_server(s, 0.1) for s in silent) >= 4   # past the cap
            assert all(closed_by_server(s, 4.0) for s in silent)   # the idle timeout
        finally:
            for s in silent:
                s.close()
        context = ssl.create_default_context(cafile=cert)
        with urllib.request.urlopen(server.web_url, context=context, timeout=10) as page:
            assert b"app.js" in page.read()


def test_a_tls_key_of_another_certificate_or_not_a_key_is_refused_naming_the_files(
        certificate, tmp_path):
    """`dominion serve` with a key that is not its certificate's, or a PEM file that is no
    key: one line that says so and names the files (not 'cannot listen ... in use'), exit 2."""
    from tests.service.test_serve_command import dominion as run_dominion
    from tests.service.test_serve_command import refused

    cert, key = certificate
    other = tmp_path / "other"
    other.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj",
                    "/CN=other", "-keyout", str(other / "key.pem"), "-out",
                    str(other / "cert.pem")], check=True, capture_output=True)
    db = str(tmp_path / "games.db")
    refused(run_dominion("serve", "--port", "0", "--no-web", "--db", db, "--tls-cert", cert,
                         "--tls-key", str(other / "key.pem")),
            "does not match", cert, str(other / "key.pem"))
    refused(run_dominion("serve", "--port", "0", "--no-web", "--db", db, "--tls-cert", cert,
                         "--tls-key", cert), "cannot be used", cert)


def test_grpc_core_lines_for_failed_tls_handshakes_go_through_the_rate_limit(certificate):
    """`dominion serve` over TLS sent 100 plaintext requests: gRPC's C core logs a line for
    each failed handshake on its own (at its INFO level: the `dominion` command sets
    GRPC_VERBOSITY=ERROR unless the operator sets it, as here), and at most `logs.BURST` of
    them reach stderr."""
    from dominion_service.logs import BURST
    from tests.service.test_serve_command import start_serve

    cert, key = certificate
    proc, address = start_serve("--no-web", "--db", ":memory:", "--tls-cert", cert,
                                "--tls-key", key, env={"GRPC_VERBOSITY": "INFO"})
    host, port = address.rsplit(":", 1)
    try:
        for _ in range(100):
            with socket.create_connection((host, int(port))) as sock:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                closed_by_server(sock, 2.0)
        time.sleep(0.3)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=15)
    handshakes = [line for line in err.splitlines() if "andshake" in line]
    assert 1 <= len(handshakes) <= BURST, err[-2000:]


def test_the_web_door_sends_its_security_headers():
    with LocalServer(SqliteStorage(":memory:"), web_port=0) as server:
        base = web_base(server)
        with urllib.request.urlopen(base, timeout=10) as page:
            headers = page.headers
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY"
        request = urllib.request.Request(f"{base}dominion.v1.DominionService/CreateGame",
                                         data=b'{"seats": [{"name": "A"}, {"name": "B"}]}',
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as reply:   # carries seat tokens
            assert reply.headers["Cache-Control"] == "no-store"
            assert reply.headers["X-Content-Type-Options"] == "nosniff"


# --- stopping --------------------------------------------------------------------------------------

def _played_to_its_end(stub) -> pb.CreateGameResponse:
    """A game of two network seats that big-money played to its end with SubmitAnswer."""
    import dominion.bots
    from dominion_client.convert import answer_to_pb, view_from_pb

    game = stub.CreateGame(pb.CreateGameRequest(seats=[pb.SeatSpec(name="A"),
                                                       pb.SeatSpec(name="B")]))
    bots = [dominion.bots.make_bot("big-money", s) for s in (0, 1)]
    while True:
        public = stub.GetView(pb.GetViewRequest(game_id=game.game_id)).view
        if public.game_over:
            return game
        seat = public.waiting_for
        token = (("x-seat-token", game.seats[seat].token),)
        msg = stub.GetView(pb.GetViewRequest(game_id=game.game_id), metadata=token).view
        view = view_from_pb(msg)
        answer = answer_to_pb(msg.decision.WhichOneof("kind"),
                              bots[seat].answer(view.decision, view), msg.decision.sequence)
        stub.SubmitAnswer(pb.SubmitAnswerRequest(game_id=game.game_id, answer=answer),
                          metadata=token)


def test_sigterm_ends_the_server_within_a_second_when_no_answer_is_in_flight():
    """Also with a Play stream whose game is over and whose client keeps its side open (the
    stream waits for late answers then, 5 s at most)."""
    proc, port, web_port = start_serve()
    try:
        stub = pb_grpc.DominionServiceStub(grpc.insecure_channel(f"127.0.0.1:{port}"))
        game = stub.CreateGame(pb.CreateGameRequest(seats=[pb.SeatSpec(name="A"),
                                                           pb.SeatSpec(name="B")]))
        over = _played_to_its_end(stub)
        streams = [stub.StreamEvents(pb.StreamEventsRequest(game_id=game.game_id))
                   for _ in range(3)]
        hold = threading.Event()

        def start_then_wait():   # the Play stream stays open, no answer in flight
            yield pb.PlayRequest(start=pb.PlayStart(game_id=game.game_id))
            hold.wait(20)
        play = stub.Play(start_then_wait(), metadata=(("x-seat-token", game.seats[0].token),))
        next(streams[0])
        next(play)

        def start_after_the_end():
            yield pb.PlayRequest(start=pb.PlayStart(game_id=over.game_id))
            hold.wait(20)
        ended = stub.Play(start_after_the_end(),
                          metadata=(("x-seat-token", over.seats[0].token),))
        assert next(ended).HasField("game_over")
        idle = [socket.create_connection(("127.0.0.1", door)) for door in (port, web_port)]
        time.sleep(0.3)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        took = time.monotonic() - start
        assert took < 1.5, took   # the grace for answers in flight is 5 s
        for s in idle:
            s.close()
        hold.set()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("flags, words", [
    (["--trusted-proxy", "not-an-address"], "--trusted-proxy"),
    (["--forwarded-header", "X-Forwarded-For:"], "--forwarded-header"),
    (["--tls-cert", "cert.pem"], "--tls-key"),
    (["--idle-timeout", "0"], "--idle-timeout"),
    (["--max-connections-per-address", "-1"], "--max-connections-per-address"),
])
def test_bad_limit_options_are_one_line_and_exit_code_2(flags, words):
    result = subprocess.run([sys.executable, "-m", "dominion_client.cli", "serve", "--port", "0",
                             "--no-web", "--db", ":memory:", *flags], capture_output=True,
                            text=True, timeout=60, cwd=ROOT, env=ENV)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr
