"""The service's rooms on their own: the game lock (first come, first served, taken at once only
when free), the wire tags computed from the descriptors, the rate-limited log, and the client
package standing without the service."""
from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path

from dominion_proto import dominion_pb2 as pb
from dominion_service import wire
from dominion_service.logs import RateLimit
from dominion_service.table import GameLock

ROOT = Path(__file__).resolve().parents[2]


def test_the_game_lock_serves_waiters_in_order_and_try_acquire_never_jumps_the_queue():
    async def run():
        lock = GameLock()
        order = []
        assert lock.try_acquire()

        async def waiter(n):
            async with lock:
                order.append(n)
                await asyncio.sleep(0)
        tasks = [asyncio.ensure_future(waiter(n)) for n in range(3)]
        await asyncio.sleep(0)
        assert not lock.try_acquire()           # held, and others wait
        cancelled = asyncio.ensure_future(waiter(99))
        await asyncio.sleep(0)
        cancelled.cancel()                      # a waiter that leaves does not block the rest
        lock.release()
        await asyncio.gather(*tasks)
        assert order == [0, 1, 2]
        assert not lock.locked() and lock.try_acquire()
    asyncio.run(run())


def test_wire_tags_are_the_descriptors_field_numbers():
    assert wire.UPDATE_EVENTS == b"\x0a"            # field 1, length-delimited
    assert wire.UPDATE_ACCEPTED == b"\x28"          # field 5, varint
    assert wire.SEAT_UPDATE_REF == b"\x38"          # field 7, varint
    assert wire.VIEW_WAITING == b"\xa2\x01"         # field 20, length-delimited
    update = pb.SeatUpdate.FromString(wire.UPDATE_ACCEPTED + wire.varint(300) +
                                      wire.SEAT_UPDATE_REF + wire.varint(7))
    assert (update.accepted, update.ref) == (300, 7)


def test_a_flood_of_one_message_is_logged_a_few_times_a_period_then_counted():
    now = [0.0]
    limit = RateLimit(burst=3, period=60, clock=lambda: now[0])
    record = lambda: logging.LogRecord("dominion_service", logging.ERROR, __file__, 1,
                                       "refused %s", ("x",), None)
    assert [limit.filter(record()) for _ in range(10)] == [True] * 3 + [False] * 7
    now[0] = 61
    again = record()
    assert limit.filter(again) and "7 more like this" in again.msg


def test_asyncios_preformatted_messages_that_differ_only_in_numbers_are_one_kind():
    """asyncio logs formatted text (a timer's due time, an address): a flood of them is one
    kind of message, limited like the others; another first line is another kind."""
    limit = RateLimit(burst=2, period=60, clock=lambda: 0.0)
    callback = ("Exception in callback BaseSelectorEventLoop._start_serving(<function Ser...x7f%d>)"
                "\nhandle: <TimerHandle when=%d.%d BaseSelectorEventLoop._start_serving()>")
    records = [logging.LogRecord("asyncio", logging.ERROR, __file__, 1,
                                 callback % (i * 7919, 33197 + i, i * 31), None, None)
               for i in range(6)]
    assert [limit.filter(r) for r in records] == [True, True] + [False] * 4
    other = logging.LogRecord("asyncio", logging.ERROR, __file__, 1,
                              "socket.accept() out of system resource\nsocket: fd=13", None, None)
    assert limit.filter(other)


def test_the_client_package_never_imports_the_service():
    sources = (ROOT / "clients" / "python" / "dominion_client").glob("*.py")
    importing = re.compile(r"^\s*(from|import)\s+dominion_service", re.MULTILINE)
    assert not [p.name for p in sources if importing.search(p.read_text())]
