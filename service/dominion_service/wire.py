"""Protobuf wire pieces for messages the service builds serialized (the hot paths of streams and
views): varints, length-delimited fields, and each field's tag, computed here from the proto
descriptors, so that no tag is written by hand and a renumbered field cannot go unnoticed."""
from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor

from dominion_proto import dominion_pb2 as pb


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 127:
        out.append((n & 127) | 128)
        n >>= 7
    out.append(n)
    return bytes(out)


_SMALL = [_varint(n) for n in range(1 << 14)]   # the one- and two-byte varints


def varint(n: int) -> bytes:
    """``n`` (>= 0) as a protobuf varint."""
    return _SMALL[n] if n < 16384 else _varint(n)


def field(tag: bytes, body: bytes) -> bytes:
    """A length-delimited field: its ``tag`` (field number and wire type 2, encoded), the
    length of ``body``, and ``body`` (a serialized message, or a string's UTF-8)."""
    n = len(body)
    return tag + (_SMALL[n] if n < 16384 else varint(n)) + body


_LENGTH_DELIMITED = (FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_STRING,
                     FieldDescriptor.TYPE_BYTES)
_VARINT = (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_INT32,
           FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_BOOL, FieldDescriptor.TYPE_ENUM)


def tag(message, name: str) -> bytes:
    """The encoded tag of field ``name`` of ``message`` (a generated class): its number and
    wire type (2 for messages and strings, 0 for integers; packed lists are not built here)."""
    descriptor = message.DESCRIPTOR.fields_by_name[name]
    if descriptor.type in _LENGTH_DELIMITED:
        wire_type = 2
    elif descriptor.type in _VARINT and not (descriptor.is_repeated
                                             and descriptor.is_packed):
        wire_type = 0
    else:
        raise ValueError(f"{message.DESCRIPTOR.full_name}.{name}: no tag of this kind is built")
    return varint(descriptor.number << 3 | wire_type)


def _alike(messages: tuple, name: str) -> bytes:
    """The tag of ``name``, which ``messages`` share (one update is built for all of them)."""
    tags = {tag(m, name) for m in messages}
    if len(tags) != 1:
        raise AssertionError(f"field {name} differs between "
                             f"{[m.DESCRIPTOR.full_name for m in messages]}")
    return tags.pop()


# A stream's update: StreamEventsResponse, PlayResponse and SeatUpdate share their first fields.
_UPDATES = (pb.StreamEventsResponse, pb.PlayResponse, pb.SeatUpdate)
UPDATE_EVENTS = _alike(_UPDATES, "events")
UPDATE_DECISION = _alike(_UPDATES, "decision")
UPDATE_GAME_OVER = _alike(_UPDATES, "game_over")
UPDATE_WAITING = _alike(_UPDATES, "waiting")
UPDATE_ACCEPTED = _alike((pb.PlayResponse, pb.SeatUpdate), "accepted")
UPDATE_REFUSED = _alike((pb.PlayResponse, pb.SeatUpdate), "refused")
SEAT_UPDATE_REF = tag(pb.SeatUpdate, "ref")
SEATS_UPDATES = tag(pb.PlaySeatsResponse, "updates")
YOUR_DECISION_DECISION = tag(pb.YourDecision, "decision")
YOUR_DECISION_VIEW = tag(pb.YourDecision, "view")
VIEW_DECISION = tag(pb.View, "decision")
VIEW_WAITING = tag(pb.View, "waiting")
EVENT_INDEX = tag(pb.Event, "index")
DECISION_SEQUENCE = tag(pb.Decision, "sequence")
