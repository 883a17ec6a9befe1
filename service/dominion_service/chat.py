"""A game's chat: the lines its people say (SendChat), bounded and rate-limited per seat, kept
in the server's memory with the game (not stored: a restart forgets them), and delivered to its
followers by the streams (StreamEventsRequest.from_chat) and GetView (chat_from).

A line's text is never logged: nothing here writes to the log."""
from __future__ import annotations

import collections
import time
from typing import Optional

import grpc

from dominion_proto import dominion_pb2 as pb

from .limits import ServiceError

MAX_CHARS = 300        # one line
KEPT = 100             # lines a game keeps (the oldest go)
RATE_LINES = 5         # lines one seat may say ...
RATE_SECONDS = 10.0    # ... in this many seconds


class Chat:
    """One game's chat lines, the last `KEPT` of them, numbered from 0 for the whole game."""

    __slots__ = ("lines", "next_index", "said")

    def __init__(self):
        self.lines: collections.deque = collections.deque(maxlen=KEPT)   # pb.ChatLine
        self.next_index = 0
        self.said: dict = {}   # seat -> monotonic times of its recent lines

    def say(self, seat: int, name: str, text: str, now: Optional[float] = None) -> pb.ChatLine:
        """Add ``seat``'s line, or ServiceError changing nothing: an empty or too long line
        (INVALID_ARGUMENT), a seat over its rate (RESOURCE_EXHAUSTED)."""
        text = " ".join(text.split())   # line breaks and runs of spaces: one space
        if not text:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT, "a chat line needs some text")
        if len(text) > MAX_CHARS:
            raise ServiceError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"a chat line is at most {MAX_CHARS} characters, not {len(text)}")
        now = time.monotonic() if now is None else now
        recent = [t for t in self.said.get(seat, ()) if now - t < RATE_SECONDS]
        if len(recent) >= RATE_LINES:
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"at most {RATE_LINES} chat lines in {RATE_SECONDS:.0f} seconds "
                               "from one seat; wait a moment")
        self.said[seat] = recent + [now]
        line = pb.ChatLine(index=self.next_index, seat=seat, name=name, text=text,
                           time=time.time())
        self.lines.append(line)
        self.next_index += 1
        return line

    def since(self, index: int) -> list:
        """The lines kept from ``index`` on."""
        if index >= self.next_index:
            return []
        return [line for line in self.lines if line.index >= index]
