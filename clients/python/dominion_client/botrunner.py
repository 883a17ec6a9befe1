"""Play one seat over the network with a built-in bot: ``dominion bot`` and the benchmark."""
from __future__ import annotations

import asyncio
import time

import grpc

import dominion.bots

from .client import GameResult, Seat


# What a call sees while the server stops, restarts or is briefly away: the call is retried
# (the stream resumes where it broke; an answer is resent with its sequence number, so it is
# never applied twice). Anything else is the server refusing the request, and final.
RETRIED = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED,
           grpc.StatusCode.DEADLINE_EXCEEDED)


def play_seat(seat: Seat, bot, reconnect_for: float = 30.0) -> GameResult:
    """Answer every decision of ``seat`` with ``bot`` (``bot.answer(decision, view)``, see
    `dominion.bots`) until the game ends; returns the scores and winners.

    When the server goes away or restarts (a call ends UNAVAILABLE, CANCELLED, ...: `RETRIED`),
    reconnects for up to ``reconnect_for`` seconds and resumes the stream where it broke: the
    pending decision comes again, with the same sequence number, if the answer in flight was
    lost. An answer refused as stale (ABORTED) was already applied, and is skipped.

    Plays on a batched Play stream (`Seat.decisions`): one message each way per decision."""
    broken_since = None
    while True:
        try:
            for pending in seat.decisions(batched=True):
                broken_since = None
                try:
                    seat.answer(pending, bot.answer(pending.decision, pending.view))
                except grpc.RpcError as e:
                    if e.code() != grpc.StatusCode.ABORTED:
                        raise
            return seat.result
        except grpc.RpcError as e:
            if e.code() not in RETRIED:
                raise
            broken_since = broken_since or time.monotonic()
            if time.monotonic() - broken_since > reconnect_for:
                raise
            time.sleep(0.1)


async def play_seat_async(seat, bot, reconnect_for: float = 30.0) -> GameResult:
    """`play_seat` for an `aio.AsyncSeat`: many seats play in one thread."""
    broken_since = None
    while True:
        try:
            async for pending in seat.decisions(batched=True):
                broken_since = None
                try:
                    await seat.answer(pending, bot.answer(pending.decision, pending.view))
                except grpc.RpcError as e:
                    if e.code() != grpc.StatusCode.ABORTED:
                        raise
            return seat.result
        except grpc.RpcError as e:
            if e.code() not in RETRIED:
                raise
            broken_since = broken_since or time.monotonic()
            if time.monotonic() - broken_since > reconnect_for:
                raise
            await asyncio.sleep(0.1)


def play_seat_with(seat: Seat, bot_name: str, seed: int = 0) -> GameResult:
    """`play_seat` with a built-in bot by name (`dominion.bots.bot_names()`)."""
    return play_seat(seat, dominion.bots.make_bot(bot_name, seed))
