"""The gRPC door's own accept loop, for its per-address cap.

gRPC's C core accepts its connections itself, and grpcio offers no way to hand it sockets
accepted by us, so it can cap connections only in all. `GrpcRelay` runs a relay process
(`main`) that listens on the public gRPC port instead: it
counts each connection (`limits.ConnectionCounts`, the web door's counter), closes one past a
cap at once, and relays the others' bytes, unchanged (TLS is still gRPC's), to the gRPC server
listening on a Unix socket in a private directory (mode 0700: no other user can reach it, so
nobody bypasses the cap). A process of its own, so that its hops never wait for the service's
event loop or its GIL. Each relayed connection comes from a Unix socket named after the
client's own peer (``DIR/ipv4:1.2.3.4:5678``), which gRPC shows as the call's peer, and
`client_peer` reads back for `server.DominionService.client_address`. The gRPC server's own
guards (handshake, idle and age timeouts, keep-alive, its cap in all) hold as before: when
gRPC closes its side, the relay closes the client's.
"""
from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import resource
import shutil
import socket
import signal
import subprocess
import sys
import tempfile
import time
from typing import Optional

from .limits import ConnectionCounts

log = logging.getLogger("dominion_service")

# Connections waiting to be accepted. The default of asyncio and uvicorn (100, 2048) is also
# how many accepts asyncio tries per wake-up; on Python 3.11 each that fails for want of files
# schedules its own retry (gh-151615), so a small backlog bounds that work when the process is
# out of files.
ACCEPT_BACKLOG = 128
# The relay process's program: this module, without the package's __init__ (the service, the
# engine: a second to import and memory the relay never uses).
RELAY_MAIN = ("import sys, types; package = types.ModuleType('dominion_service'); "
              f"package.__path__ = [{os.path.dirname(os.path.abspath(__file__))!r}]; "
              "sys.modules['dominion_service'] = package; "
              "from dominion_service.relay import main; sys.exit(main(sys.argv[1:]))")
READY = b"relaying\n"   # what the relay process says once it accepts connections
# Bytes a relayed direction may hold unsent before it stops reading the other side.
RELAY_BUFFER = 256 * 1024


def listening_socket(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    """A non-blocking socket listening on ``host:port`` (port 0: a free one), shared with the
    other processes of ``dominion serve --processes`` when ``reuse_port``; OSError naming the
    address and the system's reason when it cannot listen."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
        sock.listen(ACCEPT_BACKLOG)
    except OSError as e:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    sock.setblocking(False)
    return sock


def peer_host(transport) -> Optional[str]:
    """The address a connection comes from (None when the system does not say); an IPv4
    client of a dual-stack socket (``::ffff:1.2.3.4``) as IPv4, as gRPC shows it."""
    peer = transport.get_extra_info("peername")
    if not isinstance(peer, tuple) or not peer:
        return None
    with contextlib.suppress(ValueError):
        mapped = getattr(ipaddress.ip_address(peer[0]), "ipv4_mapped", None)
        if mapped is not None:
            return str(mapped)
    return peer[0]


def grpc_peer(transport) -> str:
    """A connection's peer as gRPC writes it (``ipv4:1.2.3.4:5678``, ``ipv6:[::1]:5678``)."""
    host, port = peer_host(transport), transport.get_extra_info("peername")[1]
    return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{host}:{port}"


class GrpcRelay:
    """The public gRPC port, served by a relay process: see the module's text. `private` is
    the address the gRPC server listens on (``unix:PATH``); `start` opens the public one."""

    def __init__(self, options, proxies):
        self.options = options     # `ServiceOptions`: the caps
        self.proxies = proxies     # `TrustedProxies`: whose connections are not capped
        self.dir = tempfile.mkdtemp(prefix="dominion-grpc-")   # mode 0700
        self.private = f"unix:{os.path.join(self.dir, 'grpc')}"
        self.process: Optional[subprocess.Popen] = None
        self.port = 0

    def client_peer(self, peer: str) -> str:
        """The client's own peer (``ipv4:1.2.3.4:5678``) for a peer gRPC shows, ``peer``
        itself for one that did not come through the relay."""
        prefix = f"unix:{self.dir}/"
        return peer[len(prefix):] if peer.startswith(prefix) else peer

    async def start(self, host: str, port: int, reuse_port: bool = False) -> int:
        """Listen on ``host:port`` (port 0: a free one; OSError if it cannot), start the
        relay process on it and wait until it serves; the port."""
        sock = listening_socket(host, port, reuse_port)
        self.port = sock.getsockname()[1]
        argv = [sys.executable, "-c", RELAY_MAIN, str(sock.fileno()),
                self.private[len("unix:"):], str(os.getpid()),
                str(self.options.max_connections),
                str(self.options.max_connections_per_address),
                *(str(n) for n in self.proxies.networks)]
        try:
            self.process = subprocess.Popen(argv, pass_fds=(sock.fileno(),),
                                            stdout=subprocess.PIPE)
        finally:
            sock.close()   # the relay's now
        loop = asyncio.get_running_loop()
        try:
            ready = await asyncio.wait_for(
                loop.run_in_executor(None, self.process.stdout.readline), 30)
        except asyncio.TimeoutError:
            ready = b""
        if ready != READY:
            await self.close(0)
            raise OSError(f"the gRPC door's relay on {host}:{port} did not start")
        return self.port

    def stop_listening(self) -> None:
        """Accept no more connections (those open go on until gRPC or the client ends them,
        then the relay process exits)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)

    async def close(self, within: float = 1.0) -> None:
        """Once gRPC has closed its connections: wait (at most ``within`` seconds) for the
        relay process to end, else end it; remove the private directory."""
        if self.process is not None:
            self.stop_listening()
            end = time.monotonic() + within
            while self.process.poll() is None and time.monotonic() < end:
                await asyncio.sleep(0.01)
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.stdout.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def end_with_parent() -> None:
    """In a child process: be sent SIGTERM when the process that started it dies, even
    killed (Linux's PR_SET_PDEATHSIG; elsewhere nothing)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        pass


class _Relay:
    """The relay process's state: its caps, gRPC's socket, and the connections it relays."""

    def __init__(self, counts: ConnectionCounts, path: str):
        self.counts = counts
        self.path = path
        self.dir = os.path.dirname(path)
        self.links: set = set()


class _Link(asyncio.Protocol):
    """One client connection of the public port, and (once admitted) its relay to gRPC."""

    def __init__(self, relay: _Relay):
        self.relay = relay
        self.client: Optional[asyncio.Transport] = None
        self.upstream: Optional[asyncio.Transport] = None
        self.address: Optional[str] = None
        self.counted = False

    def connection_made(self, transport) -> None:
        self.client = transport
        self.address = peer_host(transport)
        refusal = self.relay.counts.admit(self.address)
        if refusal is not None:
            transport.abort()
            log.warning("gRPC door: %s; refusing new ones", refusal)
            return
        self.counted = True
        self.relay.links.add(self)
        transport.set_write_buffer_limits(RELAY_BUFFER)
        transport.pause_reading()   # until gRPC's side is connected
        asyncio.get_running_loop().create_task(self._connect())

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        name = os.path.join(self.relay.dir, grpc_peer(self.client))
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(name)   # gRPC shows this name as the peer: the client's own
            sock.setblocking(False)
            await loop.sock_connect(sock, self.relay.path)
            if self.client.is_closing():
                raise ConnectionError("the client went away")
            await loop.create_unix_connection(lambda: _Upstream(self), sock=sock)
        except OSError:   # ConnectionError too
            sock.close()
            self.cut()
            return
        finally:
            with contextlib.suppress(OSError):
                os.unlink(name)   # the socket keeps its name; the file is not needed
        if self.client.is_closing():
            self.cut()
        else:
            self.client.resume_reading()

    def data_received(self, data: bytes) -> None:
        self.upstream.write(data)

    def eof_received(self) -> bool:
        self.cut()
        return False

    def pause_writing(self) -> None:   # the client reads slowly: stop reading gRPC's side
        if self.upstream is not None:
            self.upstream.pause_reading()

    def resume_writing(self) -> None:
        if self.upstream is not None and not self.upstream.is_closing():
            self.upstream.resume_reading()

    def connection_lost(self, exc) -> None:
        self.cut()

    def cut(self) -> None:
        """End both sides (what either has buffered is still sent), and uncount."""
        if self.client is not None and not self.client.is_closing():
            self.client.close()
        if self.upstream is not None and not self.upstream.is_closing():
            self.upstream.close()
        if self.counted:
            self.counted = False
            self.relay.counts.release(self.address)
            self.relay.links.discard(self)


class _Upstream(asyncio.Protocol):
    """gRPC's side of a `_Link`."""

    def __init__(self, link: _Link):
        self.link = link

    def connection_made(self, transport) -> None:
        self.link.upstream = transport
        transport.set_write_buffer_limits(RELAY_BUFFER)

    def data_received(self, data: bytes) -> None:
        self.link.client.write(data)

    def eof_received(self) -> bool:
        self.link.cut()
        return False

    def pause_writing(self) -> None:   # gRPC reads slowly: stop reading the client
        self.link.client.pause_reading()

    def resume_writing(self) -> None:
        if not self.link.client.is_closing():
            self.link.client.resume_reading()

    def connection_lost(self, exc) -> None:
        self.link.cut()


async def _serve(sock: socket.socket, relay: _Relay, terminated: list) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    if terminated:   # before the line above
        return
    server = await loop.create_server(lambda: _Link(relay), sock=sock, backlog=ACCEPT_BACKLOG)
    sys.stdout.buffer.write(READY)
    sys.stdout.buffer.flush()
    await stop.wait()
    server.close()
    while relay.links:   # until gRPC (stopping) or the clients have closed them
        await asyncio.sleep(0.01)


def main(argv: list) -> int:
    """The relay process (`RELAY_MAIN`), given ``FD PATH SERVER_PID MAX PER_ADDRESS
    [TRUSTED ...]``: relay the connections of the listening socket FD to gRPC's Unix socket
    PATH, with the caps, until SIGTERM (sent by the server, or by the system when the server
    dies)."""
    from .limits import FILE_RESERVE, TrustedProxies, raise_file_limit
    from .logs import rate_limited
    terminated: list = []   # a SIGTERM before the event loop reads them
    signal.signal(signal.SIGTERM, lambda *_: terminated.append(True))
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the server decides when to stop
    fd, path, server_pid, total, per_address, *trusted = argv
    try:
        end_with_parent()
        if os.getppid() != int(server_pid):   # the server died before that
            return 1
        rate_limited()   # its lines go to the server's stderr, read through the limit there too
        # Two files a connection, and as many as one wake-up accepts before the refused ones
        # are closed, within the file limit: else accepts fail (and a newcomer waits) under a
        # low one.
        files = raise_file_limit()
        if files != resource.RLIM_INFINITY:
            total = str(max(1, min(int(total), (files - FILE_RESERVE - ACCEPT_BACKLOG) // 2)))
        sock = socket.socket(fileno=int(fd))
        sock.setblocking(False)
        counts = ConnectionCounts(int(total), int(per_address), TrustedProxies(trusted))
        asyncio.run(_serve(sock, _Relay(counts, path), terminated))
        return 0
    finally:
        # More SIGTERMs may come (one for each thread of a server that dies); the directory
        # is removed here too, as a killed server cannot.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)
