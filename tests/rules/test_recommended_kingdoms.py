"""Every recommended Kingdom of the rulebooks plays to the end with random bots, 2 to 6
players."""
import pytest

import dominion
from tests.support import turn
from dominion.bots import make_bot

TURN_CAP = 600


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("name", list(dominion.RECOMMENDED))
def test_recommended_kingdom_plays_to_the_end_with_random_bots(name, players):
    s = dominion.new_game(players=players, kingdom=name, seed=players)
    assert sorted(s.config.kingdom) == sorted(dominion.RECOMMENDED[name][1])
    bots = [make_bot("random", seat) for seat in range(players)]
    while (d := dominion.pending(s)) is not None:
        assert turn(s) < TURN_CAP, f"{name} with {players} players did not end"
        s = dominion.step(s, bots[d.player].answer(d, dominion.view(s, d.player, None)), d.player)
    assert dominion.winners(s)
