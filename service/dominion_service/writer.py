"""The group-commit writer: every storage call of the server goes through one worker thread
(the event loop keeps serving while a write is made durable, and writes reach the database in
the order they were made), and answers that arrive while a write is under way are stored
together in the next one (one transaction, one sync, for many games)."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from .storage import Storage


class GroupWriter:
    def __init__(self, storage: Storage):
        self.storage = storage
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dominion-db")
        # Reads that need not wait for the writes (servers sharing a database catching up).
        self._reads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="dominion-read")
        self._writes: list = []    # (rows, future) waiting for the next group commit
        self._writing = False      # a group commit is under way (`_write_batches`)

    async def call(self, fn, *args):
        """``fn(*args)`` in the storage thread (on the loop itself for a storage without
        disk, ``inline``: not worth a thread hop)."""
        if getattr(self.storage, "inline", False):
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def read(self, fn, *args):
        """``fn(*args)`` in a reading thread, beside the writes (their order is not its)."""
        return await asyncio.get_running_loop().run_in_executor(self._reads, fn, *args)

    async def write_rows(self, rows: list) -> list:
        """Store answers (`Storage.append_answer`'s arguments, a tuple each); returns once they
        are durable, with each one's exception or None. Rows given together, and rows of
        callers that arrive while a write is under way, go in one transaction, each with its
        own outcome."""
        done = asyncio.get_running_loop().create_future()
        self._writes.append((rows, done))
        if not self._writing:
            self._writing = True
            asyncio.ensure_future(self._write_batches())
        return await done

    async def _write_batches(self) -> None:
        try:
            while self._writes:
                batch, self._writes = self._writes, []
                rows = [row for group, _ in batch for row in group]
                try:
                    errors = await self.call(self._append_rows, rows)
                except Exception as e:  # the whole batch failed (its transaction, the worker)
                    errors = [e] * len(rows)
                start = 0
                for group, done in batch:
                    if not done.done():
                        done.set_result(errors[start:start + len(group)])
                    start += len(group)
        finally:
            self._writing = False

    def _append_rows(self, rows: list) -> list:
        """In the storage thread: store ``rows``, one transaction when the storage can
        (`SqliteStorage.append_answers`); each row's exception or None."""
        many = getattr(self.storage, "append_answers", None)
        if many is not None:
            return many(rows)
        errors = []
        for row in rows:
            try:
                self.storage.append_answer(*row)
                errors.append(None)
            except Exception as e:
                errors.append(e)
        return errors

    def close(self) -> None:
        self._db.shutdown(wait=True)
        self._reads.shutdown(wait=True)
        self.storage.close()
