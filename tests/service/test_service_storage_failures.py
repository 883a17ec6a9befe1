"""A storage that fails: a failed write leaves the game consistent and playable, and the caller
learns whether its answer was applied. Run on both backends (SQLite and PostgreSQL)."""
from __future__ import annotations

import grpc
import pytest

import dominion
from dominion_client.botrunner import play_seat_with
from dominion_client.client import connect
from dominion_client.local import LocalServer


class FlakyStorage:
    """A storage whose next ``fail_next`` answer writes for ``fail_seat`` fail; everything else
    is the real storage's. A group of answers is stored in one write of the real storage, less
    the rows that fail (each gets its exception in its place, as a row the database refused)."""

    def __init__(self, storage):
        self.storage = storage
        self.inline = getattr(storage, "inline", False)
        self.fail_next = 0
        self.fail_seat = None
        for name in ("create_game", "load_games", "finished_games", "load_game", "close"):
            setattr(self, name, getattr(storage, name))

    def _fails(self, seat: int) -> bool:
        if self.fail_next and seat == self.fail_seat:
            self.fail_next -= 1
            return True
        return False

    def append_answer(self, game_id, number, seat, answer, *more):
        if self._fails(seat):
            raise OSError("disk I/O error (injected)")
        self.storage.append_answer(game_id, number, seat, answer, *more)

    def append_answers(self, rows) -> list:
        failing = [self._fails(row[2]) for row in rows]
        kept = [row for row, fails in zip(rows, failing) if not fails]
        outcomes = iter(self.storage.append_answers(kept) if kept else ())
        return [OSError("disk I/O error (injected)") if fails else next(outcomes)
                for fails in failing]


@pytest.fixture
def flaky(open_db):
    storage = FlakyStorage(open_db())
    with LocalServer(storage) as server, connect(server.target) as client:
        yield storage, client


def test_an_answer_that_cannot_be_stored_is_not_applied_and_says_so(flaky, kingdom):
    storage, client = flaky
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=2,
                              first_player=0)
    seat = client.seat(game.game_id, game.tokens[0])
    pending = next(seat.decisions())
    before = seat.view_message(log_from=0)
    storage.fail_seat, storage.fail_next = 0, 1
    with pytest.raises(grpc.RpcError) as info:
        seat.answer(pending, pending.decision.moves[-1])
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    assert "not applied" in info.value.details()
    assert seat.view_message(log_from=0) == before
    seat.answer(pending, pending.decision.moves[-1])          # the retry goes through
    assert seat.view_message().sequence > before.sequence


def test_a_bots_answer_that_cannot_be_stored_is_retried_and_the_game_goes_on(flaky, kingdom):
    storage, client = flaky
    game = client.create_game(["Net", "BM"], bots={1: "big-money"}, kingdom=kingdom, seed=2,
                              first_player=0)
    storage.fail_seat, storage.fail_next = 1, 3      # the bot's next three writes fail
    result = play_seat_with(client.seat(game.game_id, game.tokens[0]), "big-money", seed=1)
    assert result.winners and storage.fail_next == 0
    record = client.record(game.game_id)
    assert dominion.is_over(dominion.replay(record))
