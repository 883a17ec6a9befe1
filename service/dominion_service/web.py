"""The web door: the same `DominionService` over HTTP/1.1 for browsers and ``curl``.

One port serves the service over the Connect protocol (JSON and binary protobuf) and gRPC-Web,
with connect-python's runtime (`dominion_proto.dominion_connect`, generated from the .proto like
the gRPC stubs), and the web page (``static/``, shipped in the package: no CDN, no network). The
handlers are the gRPC service's own, called with a context that reads the Connect request, so a
game created on one port is played on the other, with the same checks and the same errors.
uvicorn runs the HTTP side in the gRPC server's event loop: one service instance, one loop.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import ssl
from pathlib import Path
from typing import NamedTuple, Optional

import grpc
import h11
import uvicorn
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from dominion_proto import dominion_pb2 as pb
from dominion_proto.dominion_connect import DominionServiceASGIApplication

from .limits import ConnectionCounts, ServiceOptions, TrustedProxies
from .logs import rate_limited
from .relay import ACCEPT_BACKLOG, listening_socket, peer_host
from .server import TOKEN_METADATA, DominionService, fault_guard

log = logging.getLogger("dominion_service")

STATIC = Path(__file__).resolve().parent / "static"
# Requests larger than this are refused before they are read (no message of ours comes near).
MAX_REQUEST_BYTES = 64 * 1024

# What Connect and gRPC-Web clients send and read besides the seat token (connectrpc.com/docs/cors)
CORS_HEADERS = ["content-type", "connect-protocol-version", "connect-timeout-ms",
                "connect-content-encoding", "connect-accept-encoding", "grpc-timeout",
                "x-grpc-web", "x-user-agent", TOKEN_METADATA]
CORS_EXPOSED = ["grpc-status", "grpc-message", "grpc-status-details-bin",
                "connect-content-encoding"]


class _StrictCodec:
    """A connect-python codec whose refusal of undecodable bytes is INVALID_ARGUMENT with the
    parser's reason (connect-python 0.9 lets the parser's exception out, which the client sees
    as UNKNOWN), as the gRPC port answers them (`server._lenient`)."""

    def __init__(self, codec):
        self._codec = codec

    def name(self) -> str:
        return self._codec.name()

    def encode(self, message) -> bytes:
        return self._codec.encode(message)

    def decode(self, data, message):
        try:
            return self._codec.decode(data, message)
        except Exception as e:  # json_format.ParseError, DecodeError, whatever protobuf raises
            raise ConnectError(Code.INVALID_ARGUMENT,
                               f"the request is not a valid {message.DESCRIPTOR.full_name} "
                               f"message ({str(e)[:200]})") from None


def _refuse_undecodable_requests() -> None:
    """Put `_StrictCodec` around connect-python's codecs (its one registry, read per request;
    connect-python is pinned to the minor version whose registry this is)."""
    from connectrpc import _codec
    for name, codec in list(_codec._codecs.items()):
        if not isinstance(codec, _StrictCodec):
            _codec._codecs[name] = _StrictCodec(codec)


class _ConnectContext:
    """What the gRPC handlers ask of their context, answered from a Connect request: the seat
    token (header ``x-seat-token``), the client's address, and a refusal as a ConnectError."""

    def __init__(self, ctx, forwarded_header: str):
        self._ctx = ctx
        self._names = (TOKEN_METADATA, forwarded_header)

    def invocation_metadata(self):
        """The seat token, and the forwarding header (read only from a trusted proxy)."""
        headers = self._ctx.request_headers()
        return tuple((name, value) for name in self._names for value in headers.getall(name))

    def peer(self) -> str:
        address = self._ctx.client_address() or ""
        host = address.rsplit(":", 1)[0]
        return f"ipv6:[{host.strip('[]')}]:0" if ":" in host else f"ipv4:{host}:0"

    async def abort(self, code: grpc.StatusCode, message: str):
        raise ConnectError(Code[code.name.replace("CANCELLED", "CANCELED")], message)


class ConnectDoor:
    """The Connect service: for each RPC of the service descriptor, a method under the name the
    generated Connect protocol gives it (``CreateGame`` -> ``create_game``) that calls the gRPC
    service's handler with a `_ConnectContext`."""

    def __init__(self, service: DominionService):
        for method in pb.DESCRIPTOR.services_by_name["DominionService"].methods:
            handler = fault_guard(getattr(service, method.name), method.server_streaming)
            header = service.proxies.header
            if method.client_streaming:
                door = _full_duplex_only(method.name)
            else:
                door = (_streaming if method.server_streaming else _unary)(handler, header)
            setattr(self, _snake_case(method.name), door)


def _unary(handler, header: str):
    async def call(request, ctx):
        return await handler(request, _ConnectContext(ctx, header))
    return call


def _streaming(handler, header: str):
    async def call(request, ctx):
        async for reply in handler(request, _ConnectContext(ctx, header)):
            yield reply
    return call


def _full_duplex_only(name: str):
    """A stream in both directions at once (Play) needs HTTP/2, which this HTTP/1.1 door has
    not (nor has a browser's fetch): refused with the ways that work."""
    async def call(requests, ctx):
        raise ConnectError(Code.UNIMPLEMENTED,
                           f"{name} streams both ways at once, which needs HTTP/2: use it on the "
                           "native gRPC port; over the web, follow StreamEvents and answer with "
                           "SubmitAnswer")
        yield  # an async generator, as the generated protocol expects for a stream
    return call


class PageFiles(StaticFiles):
    """The page's files, with Starlette's ETag and ``Cache-Control: no-cache``: a browser keeps
    them and asks whether they changed (a 304 has no body), so a new version is seen at once."""

    def file_response(self, *args, **kwargs):
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def _snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def web_app(service: DominionService):
    """The ASGI application: the RPCs under ``/dominion.v1.DominionService/``, the page at
    ``/`` (``index.html``) and its files (404 for anything else), gzip-compressed for browsers
    that accept it. Only the files are compressed: the RPCs' streams must not wait for a
    compressor's buffer."""
    _refuse_undecodable_requests()
    rpc = DominionServiceASGIApplication(ConnectDoor(service), read_max_bytes=MAX_REQUEST_BYTES)
    # Pages of any origin may call the RPCs: a seat token travels in a header the caller sets,
    # never in a cookie, so another origin gains nothing a program could not do anyway.
    calls = CORSMiddleware(rpc, allow_origins=["*"], allow_methods=["GET", "POST"],
                           allow_headers=CORS_HEADERS, expose_headers=CORS_EXPOSED, max_age=7200)
    files = GZipMiddleware(PageFiles(directory=STATIC, html=True), minimum_size=512)
    return SecurityHeaders(Starlette(routes=[Mount(rpc.path, app=calls), Mount("/", app=files)]),
                           rpc.path)


# The page's own files only: no inline script or style, no other origin, never in a frame
# (a frame could trick a click on a page that keeps seat tokens in the browser's storage).
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
               "frame-ancestors 'none'")


class SecurityHeaders:
    """Headers on every reply of the web door: ``nosniff`` on all; ``Cache-Control: no-store``
    on every RPC reply (any may carry a seat's view or token); on the page and its files a
    Content-Security-Policy and frame protection."""

    def __init__(self, app, rpc_path: str):
        self.app = app
        self.rpc_path = rpc_path

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        extra = [(b"x-content-type-options", b"nosniff")]
        if scope["path"].startswith(self.rpc_path):
            extra.append((b"cache-control", b"no-store"))
        else:
            extra += [(b"content-security-policy", PAGE_POLICY.encode()),
                      (b"x-frame-options", b"DENY"), (b"referrer-policy", b"no-referrer")]

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", ())) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RunningWeb(NamedTuple):
    server: uvicorn.Server
    task: asyncio.Task
    port: int

    async def stop(self, grace: float = 1.0) -> None:
        """Stop listening; open streams have ended already (`DominionService.stop_streams`),
        calls in flight get ``grace`` seconds."""
        self.server.config.timeout_graceful_shutdown = grace
        self.server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


# A request head larger than this is refused (400) and its connection closed, however it
# arrives: h11 bounds a head still incomplete, `_bounded_heads` one that came whole.
MAX_HEADER_BYTES = 16 * 1024
_BUSY_TEXT = b"this server has its most connections open; try again shortly\n"
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
         b"x-content-type-options: nosniff\r\nretry-after: 5\r\nconnection: close\r\n"
         b"content-length: %d\r\n\r\n%s" % (len(_BUSY_TEXT), _BUSY_TEXT))


def head_size(request: h11.Request) -> int:
    """The bytes of a parsed request head as sent (near enough: h11 trims spaces)."""
    return (len(request.method) + len(request.target) + len(b"  HTTP/1.1\r\n\r\n") +
            sum(len(name) + len(value) + 4 for name, value in request.headers))


def _bounded_heads(conn: h11.Connection) -> None:
    """Make ``conn`` refuse a request head over `MAX_HEADER_BYTES` that arrived whole (h11's
    own bound is on a head still incomplete), as h11 refuses one that is too long: a
    RemoteProtocolError, which uvicorn answers with 400 and a closed connection."""
    next_event = conn.next_event

    def checked():
        event = next_event()
        if isinstance(event, h11.Request) and head_size(event) > MAX_HEADER_BYTES:
            raise h11.RemoteProtocolError("request head too large", error_status_hint=431)
        return event
    conn.next_event = checked


def guarded_protocol(options: ServiceOptions, tls: Optional[ssl.SSLContext] = None,
                     proxies: Optional[TrustedProxies] = None):
    """uvicorn's HTTP/1.1 protocol with the two guards it lacks (and a bound on request heads
    that arrive whole: `_bounded_heads`), over TLS when ``tls`` is given. (1) At most
    ``options.max_connections`` open, and `max_connections_per_address` from one address
    (``proxies``, trusted, are not counted): a connection past either gets a 503 at once and
    is closed, so the process never runs out of files, one address cannot take every slot,
    and no open connection is failed for a newcomer (uvicorn's own ``limit_concurrency``
    answers 503 to requests of connections already open). (2) A
    connection with no request under way, or whose request head or body is still coming,
    after ``idle_timeout`` seconds, is closed (uvicorn's keep-alive timeout starts only after
    a first response, and stops at the first byte of the next request: idle and slowloris
    connections would stay forever). Both hold from the connection's first moment: over TLS
    the protocol makes the handshake itself (`_handshake`), so a connection is counted, and
    timed, while it is under way (with TLS done by the server, a connection is seen only once
    its handshake is over, and one that never sends a ClientHello waited 60 s uncounted)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    counts = ConnectionCounts(options.max_connections, options.max_connections_per_address,
                              proxies)
    idle_timeout = options.idle_timeout

    class GuardedH11(H11Protocol):
        _refused = False
        _counted = False       # counted in `counts`, under `_address`
        _address = None
        _guard = None          # the idle check's timer
        _checked = None        # the request cycle seen at the last check
        _early = None          # TLS: what came right after the handshake, before its end ran

        def connection_made(self, transport):
            address = peer_host(transport)
            refusal = counts.admit(address)
            if refusal is not None:
                self._refused = True
                self.transport = transport
                if tls is None:   # over TLS a reply in clear would be noise: closed
                    transport.write(_BUSY)
                transport.close()
                log.warning("web door: %s; refusing new ones", refusal)
                return
            self._counted, self._address = True, address
            _bounded_heads(self.conn)
            self._checked = self.cycle
            self._guard = self.loop.call_later(idle_timeout, self._check)
            if tls is None:
                super().connection_made(transport)
                return
            self.connections.add(self)   # counted, and timed by `_check`, from now on
            self.transport = transport
            self._early = []
            transport.pause_reading()   # until the handshake reads it
            self.loop.create_task(self._handshake(transport))

        async def _handshake(self, transport) -> None:
            try:
                secure = await self.loop.start_tls(transport, self, tls, server_side=True,
                                                   ssl_handshake_timeout=idle_timeout)
            except Exception:   # failed, timed out, or closed by `_check`
                secure = None
            if secure is None or transport.is_closing():
                transport.close()
                self.connections.discard(self)
                self._guard.cancel()
                self._uncount()
                return
            super().connection_made(secure)
            early, self._early = self._early, None
            for data in early:
                super().data_received(data)

        def data_received(self, data: bytes) -> None:
            if self._early is not None:   # the request may come before `_handshake` resumes
                self._early.append(data)
            elif not self._refused:
                super().data_received(data)

        def connection_lost(self, exc) -> None:
            if self._refused:
                return
            if self._guard is not None:
                self._guard.cancel()
            self._uncount()
            if self._early is not None:   # lost in the handshake: `_handshake` ends it
                self.connections.discard(self)
                return
            super().connection_lost(exc)

        def _uncount(self) -> None:
            if self._counted:
                self._counted = False   # released once
                counts.release(self._address)

        def _check(self) -> None:
            """Close the connection unless a request is under way whose head and body are
            in, or a new one came since the last check."""
            if self.transport.is_closing():
                return
            cycle = self.cycle
            new = cycle is not None and cycle is not self._checked
            reading = self.conn.their_state in (h11.IDLE, h11.SEND_BODY)
            idle = cycle is None or cycle.response_complete
            if not new and (idle or reading):
                self.transport.close()
                return
            self._checked = cycle
            self._guard = self.loop.call_later(idle_timeout, self._check)

    return GuardedH11


async def start_web(service: DominionService, host: str = "127.0.0.1", port: int = 0,
                    options: ServiceOptions = ServiceOptions(),
                    tls: Optional[tuple] = None, reuse_port: bool = False) -> RunningWeb:
    """Serve `web_app` on ``host:port`` (port 0: a free one), with the connection limits of
    ``options``, over TLS when ``tls`` is (certificate file, key file). The socket is bound
    here, so that a port in use is an OSError for the caller rather than uvicorn's exit
    (`start_server` has checked the address before loading the games)."""
    sock = listening_socket(host, port, reuse_port)
    bound = sock.getsockname()[1]
    rate_limited()
    context = None
    if tls is not None:   # the handshake is the protocol's (`guarded_protocol`)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*tls)
    # The client's address is the connection's, or a trusted proxy's word for it (read by the
    # service from the forwarding headers, `server.client_address`): uvicorn's own reading of
    # X-Forwarded-For (which by default trusts 127.0.0.1) is off.
    config = uvicorn.Config(
        web_app(service), lifespan="off", log_level="warning", access_log=False,
        timeout_graceful_shutdown=1, proxy_headers=False, server_header=False,
        http=guarded_protocol(options, context, service.proxies),
        timeout_keep_alive=min(5, max(1, int(options.idle_timeout))),
        h11_max_incomplete_event_size=MAX_HEADER_BYTES, backlog=ACCEPT_BACKLOG)
    server = uvicorn.Server(config)

    async def serve():
        try:
            await server.serve(sockets=[sock])
        finally:
            sock.close()

    task = asyncio.create_task(serve())
    while not server.started and not task.done():
        await asyncio.sleep(0.01)
    if task.done():
        task.result()
        raise OSError(f"the web door on {host}:{port} did not start")
    return RunningWeb(server, task, bound)


def page_address(host: str, port: int, tls: bool = False) -> str:
    """The address a person opens in a browser (a wildcard host is shown as localhost)."""
    shown: Optional[str] = {"0.0.0.0": "localhost", "::": "localhost", "": "localhost"}.get(host)
    shown = shown or (f"[{host}]" if ":" in host else host)
    return f"{'https' if tls else 'http'}://{shown}:{port}/"
