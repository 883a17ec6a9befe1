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
import re
import socket
from pathlib import Path
from typing import NamedTuple, Optional

import grpc
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

from .server import TOKEN_METADATA, DominionService

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

    def __init__(self, ctx):
        self._ctx = ctx

    def invocation_metadata(self):
        token = self._ctx.request_headers().get(TOKEN_METADATA)
        return ((TOKEN_METADATA, token),) if token else ()

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
            handler = getattr(service, method.name)
            if method.client_streaming:
                door = _full_duplex_only(method.name)
            else:
                door = _streaming(handler) if method.server_streaming else _unary(handler)
            setattr(self, _snake_case(method.name), door)


def _unary(handler):
    async def call(request, ctx):
        return await handler(request, _ConnectContext(ctx))
    return call


def _streaming(handler):
    async def call(request, ctx):
        async for reply in handler(request, _ConnectContext(ctx)):
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
    return Starlette(routes=[Mount(rpc.path, app=calls),
                             Mount("/", app=GZipMiddleware(PageFiles(directory=STATIC, html=True),
                                                           minimum_size=512))])


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


async def start_web(service: DominionService, host: str = "127.0.0.1",
                    port: int = 0) -> RunningWeb:
    """Serve `web_app` on ``host:port`` (port 0: a free one). The socket is bound here, so that a
    port in use is an OSError for the caller rather than uvicorn's exit (`start_server` has
    checked the address before loading the games)."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    sock.setblocking(False)
    bound = sock.getsockname()[1]
    config = uvicorn.Config(web_app(service), lifespan="off", log_level="warning",
                            access_log=False, timeout_graceful_shutdown=1)
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


def page_address(host: str, port: int) -> str:
    """The address a person opens in a browser (a wildcard host is shown as localhost)."""
    shown: Optional[str] = {"0.0.0.0": "localhost", "::": "localhost", "": "localhost"}.get(host)
    shown = shown or (f"[{host}]" if ":" in host else host)
    return f"http://{shown}:{port}/"
