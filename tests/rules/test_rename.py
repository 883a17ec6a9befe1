"""`dominion.rename`: a seat named anew (a person taking an open seat) plays the same game, and
the record with the new name replays to it."""
import pytest

import dominion
from tests.rules.test_resign import played


def test_a_renamed_seat_plays_the_same_game_and_its_record_replays_to_it():
    s = played(2, 20)
    renamed = dominion.rename(s, 1, "Zed")
    assert renamed.config.players == ("Ann", "Zed") and s.config.players == ("Ann", "Bob")
    assert renamed.log == s.log and dominion.pending(renamed) == dominion.pending(s)
    lines = dominion.log_lines(renamed.log, renamed.config.players)
    assert any("Zed" in line for line in lines) and not any("Bob" in line for line in lines)
    again = dominion.replay(dominion.record(renamed))
    assert again.log == renamed.log and again.config == renamed.config
    assert dominion.score(again) == dominion.score(s)


@pytest.mark.parametrize("seat, name", [(2, "Zed"), (-1, "Zed"), ("1", "Zed"), (1, ""),
                                        (1, None)])
def test_a_rename_without_a_seat_or_a_name_is_refused(seat, name):
    with pytest.raises(dominion.InvalidConfigError):
        dominion.rename(played(2, 1), seat, name)
