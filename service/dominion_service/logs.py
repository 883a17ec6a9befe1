"""Logging that an attacker cannot turn into a full disk: each kind of message (its logger and
format string) is written at most `BURST` times a `PERIOD`; the rest are counted, and the
count is said once the period is over."""
from __future__ import annotations

import logging
import time

BURST = 20        # messages of one kind written in a period
PERIOD = 60.0     # seconds
# The loggers a flood of connections or calls writes to: ours, the web door's, asyncio's (an
# accept that fails for want of files), gRPC's Python side.
LOGGERS = ("dominion_service", "uvicorn.error", "asyncio", "grpc")


class RateLimit(logging.Filter):
    def __init__(self, burst: int = BURST, period: float = PERIOD, clock=time.monotonic):
        super().__init__()
        self.burst = burst
        self.period = period
        self.clock = clock
        self._kinds: dict = {}   # (logger, format) -> [period start, written, dropped]

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.msg if isinstance(record.msg, str) else type(record.msg))
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
