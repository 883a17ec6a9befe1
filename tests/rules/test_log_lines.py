"""The log in words: golden lines for every event kind, singular and plural, for the seat
itself, another seat and a spectator (`dominion.log_line`, the one renderer)."""
import pytest

import dominion
from tests.support import turn
from dominion import Event

NAMES = ("Ann", "Bob", "Cid")
ME, OTHER, SPECTATOR = 0, 1, None

GOLDEN = [
    # (event, viewer, line)
    (Event("turn", 0, (), None, 3), OTHER, "Turn 3 - Ann"),
    (Event("draw", 2, ("Copper",) * 3 + ("Estate",) * 2, (2,)), 2,
     "Cid draws 3 Coppers and 2 Estates."),
    (Event("draw", 2, ("Copper",) * 3 + ("Estate",) * 2, (2,)), OTHER, "Cid draws 5 cards."),
    (Event("draw", 2, ("Gold",), (2,)), SPECTATOR, "Cid draws a card."),
    (Event("draw", 0, ("Gold",), (0,)), ME, "Ann draws a Gold."),
    (Event("shuffle", 1), ME, "Bob shuffles their deck."),
    (Event("play", 0, ("Village",)), OTHER, "Ann plays a Village."),
    (Event("play", 0, ("Copper", "Copper", "Silver", "Gold")), SPECTATOR,
     "Ann plays 2 Coppers, a Silver and a Gold."),
    (Event("play", 0, ("Smithy",), None, "again"), OTHER, "Ann plays a Smithy again."),
    (Event("buy", 1, ("Gold",), None, "discard"), ME, "Bob buys and gains a Gold."),
    (Event("buy", 1, ("Estate",), None, "discard"), ME, "Bob buys and gains an Estate."),
    (Event("gain", 1, ("Curse",), None, "discard"), ME, "Bob gains a Curse."),
    (Event("gain", 1, ("Silver",), None, "deck"), ME, "Bob gains a Silver onto their deck."),
    (Event("gain", 1, ("Gold",), None, "hand"), ME, "Bob gains a Gold into their hand."),
    (Event("trash", 0, ("Copper",) * 4), OTHER, "Ann trashes 4 Coppers."),
    (Event("trash", 0, ("Duchy", "Duchy")), OTHER, "Ann trashes 2 Duchies."),
    (Event("trash", 2, ("Moat",), None, "supply"), ME, "Cid trashes a Moat from the Supply."),
    (Event("discard", 1, ("Estate", "Copper"), (1,)), 1, "Bob discards an Estate and a Copper."),
    (Event("discard", 1, ("Estate", "Copper"), (1,)), ME, "Bob discards 2 cards."),
    (Event("discard", 1, ("Witch", "Witch")), SPECTATOR, "Bob discards 2 Witches."),
    (Event("discard_deck", 1, (), None, 7), ME, "Bob puts their deck (7 cards) into their "
                                                 "discard pile."),
    (Event("topdeck", 1, ("Duchy",)), ME, "Bob puts a Duchy onto their deck."),
    (Event("topdeck", 1, ("Gold", "Silver"), (1,)), ME, "Bob puts 2 cards onto their deck."),
    (Event("topdeck", 1, ("Gold",), (1,)), 1, "Bob puts a Gold onto their deck."),
    (Event("insert", 0, ("Gold",), (0,), 2), ME, "Ann puts a Gold into their deck, with 2 "
                                                  "cards above it."),
    (Event("insert", 0, ("Gold",), (0,), 0), ME, "Ann puts a Gold into their deck, on top."),
    (Event("insert", 0, ("Gold",), (0,), 2), OTHER, "Ann puts a card into their deck."),
    (Event("to_hand", 0, ("Province",)), OTHER, "Ann puts a Province into their hand."),
    (Event("to_hand", 0, ("Silver", "Silver"), (0,)), OTHER, "Ann puts 2 cards into their hand."),
    (Event("reveal", 0, ("Moat",), None, "reaction"), OTHER, "Ann reveals a Moat."),
    (Event("reveal", 0, ("Copper", "Estate"), None, "hand"), OTHER,
     "Ann reveals their hand: a Copper and an Estate."),
    (Event("reveal", 0, ("Copper", "Gold"), None, "no Victory card"), OTHER,
     "Ann reveals a hand with no Victory card: a Copper and a Gold."),
    (Event("reveal", 2, ("Library", "Library", "Spy", "Thief", "Thief")), ME,
     "Cid reveals 2 Libraries, a Spy and 2 Thieves."),
    (Event("look", 2, ("Sentry", "Sentry"), (2,)), 2, "Cid looks at 2 Sentries."),
    (Event("look", 2, ("Sentry", "Smithy"), (2,)), OTHER, "Cid looks at 2 cards."),
    (Event("set_aside", 0, ("Gardens",)), OTHER, "Ann sets aside a Gardens."),
    (Event("set_aside", 0, ("Gardens", "Gardens", "Nobles", "Nobles")), OTHER,
     "Ann sets aside 2 Gardens and 2 Nobles."),
    (Event("pass", 0, ("Curse",), (0, 1), 1), 1, "Ann passes a Curse to Bob."),
    (Event("pass", 0, ("Curse",), (0, 1), 1), 2, "Ann passes a card to Bob."),
    (Event("pass", 1, ("Gold",), (1, 2), 2), 0, "Bob passes a card to Cid."),
    (Event("name", 1, ("Ironworks",)), ME, "Bob names an Ironworks."),
    (Event("cleanup", 1), ME, "Bob ends their turn."),
    (Event("take_back", 0, (), None, 41), OTHER, "Ann takes back a move."),
    (Event("resign", 1), SPECTATOR, "Bob resigns."),
    (Event("game_over", 1), SPECTATOR, "The game is over."),
]


@pytest.mark.parametrize("event,viewer,line", GOLDEN,
                         ids=[f"{e.kind}-{i}" for i, (e, _, _) in enumerate(GOLDEN)])
def test_golden_line(event, viewer, line):
    assert dominion.log_line(event, NAMES, viewer) == line


def test_every_event_kind_has_a_golden_line():
    documented = open_decisions_doc_kinds()
    assert documented <= {e.kind for e, _, _ in GOLDEN}


def open_decisions_doc_kinds() -> set:
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "docs" / "decisions.md").read_text()
    section = text.split("## Log events", 1)[1]
    return {line.split("`")[1] for line in section.splitlines()
            if line.startswith("| `")}


@pytest.mark.parametrize("name,plural", [
    ("Duchy", "Duchies"), ("Witch", "Witches"), ("Gardens", "Gardens"), ("Smithy", "Smithies"),
    ("Library", "Libraries"), ("Laboratory", "Laboratories"), ("Spy", "Spies"),
    ("Thief", "Thieves"), ("Sentry", "Sentries"), ("Nobles", "Nobles"),
    ("Ironworks", "Ironworks"), ("Copper", "Coppers"), ("Throne Room", "Throne Rooms")])
def test_card_plurals(name, plural):
    assert dominion.plural(name) == plural
    assert dominion.card_list([name] * 2) == f"2 {plural}"


def test_every_line_of_a_real_game_is_a_sentence_for_every_viewer():
    import random
    from tests.support import random_answer
    rng = random.Random(4)
    s = dominion.new_game(players=3, kingdom="random", seed=4)
    while (d := dominion.pending(s)) is not None and turn(s) < 40:
        s = dominion.step(s, random_answer(d, rng), d.player)
    for viewer in (None, 0, 1, 2):
        for e in dominion.view(s, viewer, log_from=0).log:
            line = dominion.log_line(e, s.config.players, viewer)
            assert line[0].isupper() and (line.endswith(".") or line.startswith("Turn ")), line
            assert "  " not in line and " ." not in line, line


def test_what_others_are_deciding_in_words():
    from tests.support import at, play
    s = play(at("Militia", hands=[["Militia"], ["Copper", "Copper", "Estate", "Gold", "Silver"]]),
             "Militia")
    names = s.config.players
    assert dominion.view(s, 0).waiting.text == f"{names[1]} is discarding down to 3 for Militia."
    s = play(at("Chapel", hands=[["Chapel", "Copper", "Estate"]]), "Chapel")
    w = dominion.view(s, None).waiting
    assert (w.player, w.card, w.purpose, w.min, w.max) == (0, "Chapel", "trash", 0, 2)
    assert w.text == f"{names[0]} is trashing up to 2 cards for Chapel."
    s = at("Baron", hands=[["Baron", "Estate"]])
    assert dominion.view(s, 1).waiting.text == f"{names[0]} is in the Action phase."
    s = play(s, "Baron")
    assert dominion.view(s, 1).waiting.text == \
        f"{names[0]} is deciding whether to discard for Baron."


def test_each_player_has_their_victory_points_in_every_view():
    from tests.support import at
    s = at("Gardens", hands=[["Province", "Duchy"], ["Curse"]],
           decks=[["Gardens"] + ["Copper"] * 9])
    for viewer in (None, 0, 1):
        assert [p.vp for p in dominion.view(s, viewer).players] == list(dominion.score(s))
    assert dominion.score(s)[0] == 6 + 3 + 1
