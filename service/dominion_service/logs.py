"""Logging that an attacker cannot turn into a full disk: each kind of message (its logger and
format string) is written at most `BURST` times a `PERIOD`; the rest are counted, and the
count is said once the period is over."""
from __future__ import annotations

import logging
import os
import re
import sys
import threading
import time

BURST = 20        # messages of one kind written in a period
PERIOD = 60.0     # seconds
# The loggers a flood of connections or calls writes to: ours, the web door's, asyncio's (an
# accept that fails for want of files), gRPC's Python side, and the lines native code (gRPC's
# C core: a line for every failed TLS handshake) writes to the process's stderr
# (`native_stderr_through_limit`).
NATIVE = "native"
LOGGERS = ("dominion_service", "uvicorn.error", "asyncio", "grpc", NATIVE)


class RateLimit(logging.Filter):
    def __init__(self, burst: int = BURST, period: float = PERIOD, clock=time.monotonic):
        super().__init__()
        self.burst = burst
        self.period = period
        self.clock = clock
        self._kinds: dict = {}   # (logger, format) -> [period start, written, dropped]

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, message_kind(record.msg))
        now = self.clock()
        kind = self._kinds.get(key)
        if kind is None or now - kind[0] >= self.period:
            dropped = kind[2] if kind is not None else 0
            if len(self._kinds) > 1000:
                self._kinds.clear()
            self._kinds[key] = [now, 1, 0]
            if dropped:
                record.msg = f"{record.msg} [{dropped} more like this in the last " \
                             f"{self.period:.0f} s were not logged]"
            return True
        if kind[1] < self.burst:
            kind[1] += 1
            return True
        kind[2] += 1
        return False


_NUMBERS = re.compile(r"[0-9A-Fa-f]*[0-9][0-9A-Fa-f]*")


def message_kind(msg) -> object:
    """What a message is a kind of: its first line with every number (and hexadecimal address)
    taken out. A format string is its own kind, but asyncio's exception handler logs an
    already formatted text that names a timer's due time and an object's address: without
    this, each of a flood of its "Exception in callback ..._start_serving(...)" (every accept
    retry a failed accept scheduled, Python 3.11, gh-151615) would be a new kind, and all
    would be written."""
    if not isinstance(msg, str):
        return type(msg)
    return _NUMBERS.sub("#", msg.split("\n", 1)[0][:300])


def rate_limited() -> RateLimit:
    """Put one `RateLimit` on each of `LOGGERS` (once per process) and return it."""
    for name in LOGGERS:
        for existing in logging.getLogger(name).filters:
            if isinstance(existing, RateLimit):
                return existing
    limit = RateLimit()
    for name in LOGGERS:
        logging.getLogger(name).addFilter(limit)
    return limit


def native_stderr_through_limit() -> None:
    """Make the lines that native code writes to file descriptor 2 itself (gRPC's C core logs
    there, past Python's logging) go through the rate limit: descriptor 2 becomes a pipe whose
    lines a thread logs to the `NATIVE` logger (an ``E`` line as an error, any other as a
    warning), and Python's own ``sys.stderr`` keeps the original stderr. For a server process
    (`dominion serve`), once."""
    if getattr(native_stderr_through_limit, "done", False):
        return
    native_stderr_through_limit.done = True
    rate_limited()
    sys.stderr.flush()
    original = os.dup(2)
    sys.stderr = open(original, "w", buffering=1, encoding=sys.stderr.encoding or "utf-8",
                      errors="backslashreplace")
    read_end, write_end = os.pipe()
    os.dup2(write_end, 2)
    os.close(write_end)
    threading.Thread(target=_log_native_lines, args=(read_end,), name="dominion-stderr",
                     daemon=True).start()


def _log_native_lines(fd: int) -> None:
    native = logging.getLogger(NATIVE)
    pending = b""
    while True:
        data = os.read(fd, 65536)
        if not data:
            return
        *lines, pending = (pending + data).split(b"\n")
        pending = pending[-65536:]
        for raw in lines:
            line = raw.decode("utf-8", "replace").rstrip()
            if line:
                native.log(logging.ERROR if line[:1] == "E" else logging.WARNING, line)
