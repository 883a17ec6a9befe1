"""A seat resigns (`dominion.RESIGN`): the game ends at once, out of turn too; the resigning seat
is among no winners, the others are ranked by the rules' scoring; the record ends with the
resignation and replays to the same game."""
import pytest

import dominion
from dominion.bots import make_bot
from tests.support import PLAIN_KINGDOM


def played(players: int, steps: int, seed: int = 4) -> dominion.State:
    s = dominion.new_game(players=["Ann", "Bob", "Cid", "Dee"][:players],
                          kingdom=PLAIN_KINGDOM, seed=seed)
    bots = [make_bot("big-money", seat) for seat in range(players)]
    for _ in range(steps):
        d = dominion.pending(s)
        s = dominion.step(s, bots[d.player].answer(d, dominion.view(s, d.player, None)), d.player)
    return s


def test_a_two_player_resignation_out_of_turn_ends_the_game_and_the_other_seat_wins():
    s = played(2, 10)
    waiting = dominion.pending(s).player
    other = 1 - waiting
    over = dominion.step(s, dominion.RESIGN, other)   # not the seat the game waits for
    assert dominion.is_over(over) and dominion.pending(over) is None
    assert dominion.winners(over) == (waiting,)
    assert dominion.resigned(over) == other and dominion.resigned(s) is None
    assert dominion.ending(over) == "resigned"
    lines = dominion.log_lines(over.log, over.config.players)
    assert lines[-2:] == (f"{over.config.players[other]} resigns.", "The game is over.")


def test_with_three_players_the_leader_who_resigns_is_not_among_the_winners():
    s = played(3, 60)
    scores = dominion.score(s)
    leader = max(range(3), key=lambda seat: scores[seat])
    assert scores.count(scores[leader]) == 1   # the game did make one leader
    over = dominion.step(s, dominion.RESIGN, leader)
    rest = [seat for seat in range(3) if seat != leader]
    best = max(scores[seat] for seat in rest)
    assert leader not in dominion.winners(over)
    assert dominion.winners(over) and all(scores[w] == best for w in dominion.winners(over))


def test_the_record_ends_with_the_resignation_and_replays_to_the_same_game():
    s = dominion.step(played(2, 25), dominion.RESIGN, 1)
    data = dominion.record_to_data(dominion.record(s), dominion.ending(s))
    assert data["answers"][-1] == [1, {"resign": True}] and data["ended"] == "resigned"
    again = dominion.replay(dominion.record_from_data(data))
    assert again == s


@pytest.mark.parametrize("seat", [None, 2, -1, "0", True])
def test_a_resignation_without_a_seat_of_the_game_is_refused(seat):
    s = played(2, 3)
    with pytest.raises(dominion.InvalidConfigError):
        dominion.step(s, dominion.RESIGN, seat)


def test_nobody_resigns_a_game_that_is_over():
    over = dominion.step(played(2, 3), dominion.RESIGN, 0)
    with pytest.raises(dominion.GameOverError):
        dominion.step(over, dominion.RESIGN, 1)


def test_a_resignation_is_no_answer_of_cards_or_options():
    """An empty selection is ``()``: a resignation equal to it would be stored as one (the
    service keeps answers' JSON by the answer) or the other way round."""
    for other in ((), [], (("resign",)), "resign"):
        assert dominion.RESIGN != other and other != dominion.RESIGN
    assert dominion.answer_to_data(()) == {"items": []}
    assert dominion.answer_to_data(dominion.RESIGN) == {"resign": True}
    assert len({(): 1, dominion.RESIGN: 2}) == 2
