"""The Dominion game service: the engine behind ``dominion.v1.DominionService`` over gRPC.

    storage = SqliteStorage("games.db")              # or open_storage(None) for the default file
    running = await start_server(storage, "127.0.0.1", 50051)
    ...
    await running.stop()

See docs/service.md for the RPCs, seat tokens, sequence numbers and errors.
"""
from .server import (SERVICE_NAME, TOKEN_METADATA, DominionService, RunningServer, ServiceError,
                     ServiceOptions, start_server)
from .storage import (SeatRecord, SqliteStorage, Storage, StorageError, StoredGame,
                      default_db_path, open_storage)

__all__ = ["start_server", "RunningServer", "DominionService", "ServiceError", "ServiceOptions",
           "SERVICE_NAME", "TOKEN_METADATA", "Storage", "StorageError", "SqliteStorage",
           "StoredGame", "SeatRecord", "default_db_path", "open_storage"]
