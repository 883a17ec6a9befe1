"""Every decision purpose and log event kind the engine uses is listed in docs/decisions.md,
the vocabulary bot and front-end authors program against."""
import random
import re
from pathlib import Path

import dominion
from dominion.bots import make_bot
from tests.support import log_events, turn

DOC = (Path(__file__).resolve().parents[1] / "docs" / "decisions.md").read_text()


def documented(section: str) -> set:
    text = DOC.split(section, 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))


def test_every_purpose_and_event_kind_seen_in_random_games_is_documented():
    purposes, kinds = set(), set()
    rng = random.Random(5)
    for g in range(150):
        players = rng.randint(2, 4)
        s = dominion.new_game(players=players, kingdom="random", seed=g)
        bots = [make_bot("random", g * 10 + i) for i in range(players)]
        while (d := dominion.pending(s)) is not None and turn(s) < 300:
            purposes.add(d.purpose)
            s = dominion.step(s, bots[d.player].answer(d, dominion.view(s, d.player, None)))
        kinds.update(e.kind for e in log_events(s))
    assert len(purposes) > 10 and len(kinds) > 10  # the games did exercise many cards
    assert purposes <= documented("## Decision purposes"), purposes - documented(
        "## Decision purposes")
    assert kinds <= documented("## Log events"), kinds - documented("## Log events")
