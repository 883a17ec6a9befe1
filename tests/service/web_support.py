"""Plain-HTTP helpers for the web door's tests: requests as ``curl`` would make them (JSON bodies,
Connect envelopes for streams), with nothing of the project's client code."""
from __future__ import annotations

import json
import struct
import urllib.error
import urllib.request

SERVICE = "dominion.v1.DominionService"


def call(base: str, method: str, body: dict, token: str = None, content_type="application/json",
         raw: bytes = None) -> tuple:
    """POST a unary Connect call; returns (HTTP status, decoded JSON body)."""
    headers = {"Content-Type": content_type}
    if token:
        headers["x-seat-token"] = token
    data = raw if raw is not None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{SERVICE}/{method}", data=data, headers=headers,
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def ok(base: str, method: str, body: dict, token: str = None) -> dict:
    status, reply = call(base, method, body, token)
    assert status == 200, (method, status, reply)
    return reply


def envelope(message: bytes, flags: int = 0) -> bytes:
    return struct.pack(">BI", flags, len(message)) + message


class Stream:
    """A Connect server stream read message by message (``application/connect+json``)."""

    def __init__(self, base: str, method: str, body: dict, token: str = None):
        headers = {"Content-Type": "application/connect+json"}
        if token:
            headers["x-seat-token"] = token
        request = urllib.request.Request(f"{base}{SERVICE}/{method}",
                                         data=envelope(json.dumps(body).encode()),
                                         headers=headers, method="POST")
        self.response = urllib.request.urlopen(request, timeout=30)
        self.end = None   # the end-of-stream message: {} or {"error": {...}}

    def next(self):
        """The next message, or None once the stream has ended (see ``end``)."""
        if self.end is not None:
            return None
        head = self.response.read(5)
        flags, length = struct.unpack(">BI", head)
        message = json.loads(self.response.read(length) or b"{}")
        if flags & 0x02:
            self.end = message
            return None
        return message

    def close(self):
        self.response.close()


def first_answer(decision: dict) -> dict:
    """A legal answer that ends a game soon: play Treasures, buy Province, Gold or Silver, else
    end the phase; the fewest cards and first options elsewhere."""
    answer = {"sequence": decision.get("sequence", "0")}
    if "turn" in decision:
        moves = decision["turn"]["moves"]
        for wanted in ("Province", "Gold", "Silver"):
            for m in moves:
                if m.get("verb") == "VERB_BUY" and m.get("card") == wanted:
                    return {**answer, "move": m}
        for m in moves:
            if m.get("verb") == "VERB_PLAY_TREASURES":
                return {**answer, "move": m}
        return {**answer, "move": next(m for m in moves if m.get("verb") == "VERB_END_PHASE")}
    if "select" in decision:
        s = decision["select"]
        return {**answer, "cards": {"cards": s.get("cards", [])[:s.get("min", 0)]}}
    if "choose" in decision:
        c = decision["choose"]
        return {**answer, "options": {"options": c["options"][:max(1, c.get("min", 0))]}}
    return {**answer, "order": {"cards": decision["order"]["cards"]}}
