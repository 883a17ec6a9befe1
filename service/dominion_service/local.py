"""A game server running inside this process, on a free loopback port, for ``dominion play``,
tests and examples."""
from __future__ import annotations

import asyncio
import threading
from typing import Optional

from .limits import ServiceOptions
from .server import start_server
from .storage import SqliteStorage, Storage


class LocalServer:
    """Runs the service in a background thread with its own event loop::

        with LocalServer() as server:
            client = connect(server.target)
    """

    def __init__(self, storage: Optional[Storage] = None, host: str = "127.0.0.1", port: int = 0,
                 options: Optional[ServiceOptions] = None, web_port: Optional[int] = None,
                 tls: Optional[tuple] = None, **settings):
        """An in-process server for one person's terminal game or a test: by default it
        accepts chosen seeds and has no practical game limits nor a cap of connections per
        address, and so no gRPC relay process (a server of its own, on loopback; ``options``
        sets them). ``web_port``
        (0: a free one) also opens the web door (Connect, gRPC-Web and the page). ``tls``:
        (certificate file, key file) to serve both doors over TLS. Other keyword arguments
        are `ServiceOptions` fields set on those options (``search_playouts=200``), so that a
        client starting one need not import the service's types."""
        self.storage = storage if storage is not None else SqliteStorage(":memory:")
        self.host = host
        self.port = port
        self.web_port = web_port
        self.tls = tls
        self.options = options or ServiceOptions(
            allow_seed=True, max_games=10**6, max_games_per_client=10**6,
            max_creates_per_minute=10**6, max_connections_per_address=0)
        self.options = self.options._replace(**settings)
        self._ready = threading.Event()
        self._error: Optional[BaseException] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._stop: Optional[asyncio.Event] = None
        self._thread = threading.Thread(target=self._run, name="dominion-server", daemon=True)

    @property
    def target(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def web_url(self) -> str:
        """The web page's address (when started with ``web_port``)."""
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.web_port}/"

    def start(self) -> "LocalServer":
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join()

    def __enter__(self) -> "LocalServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            running = await start_server(self.storage, self.host, self.port, self.options,
                                         self.web_port, self.tls)
        except BaseException as e:  # reported to the thread that called start()
            self._error = e
            self._ready.set()
            return
        self.port = running.port
        self.web_port = running.web_port
        self.service = running.service   # for tests: the games it holds
        self.running = running
        self._ready.set()
        await self._stop.wait()
        await running.stop(grace=0.5)
