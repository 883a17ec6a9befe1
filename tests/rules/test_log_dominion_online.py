"""Dominion Online's log format, a style of the one renderer (`dominion.log_line(...,
style="dominion-online")`): golden lines for every event kind, the short name prefixes, the
header lines, a whole game's log, and `dominion replay --style dominion-online`. The engine's
own style stays the default (tests/rules/test_log_lines.py pins it)."""
import json
import subprocess
import sys

import pytest

import dominion
from dominion import Event

from tests.rules.test_log_lines import GOLDEN as ENGINE_GOLDEN, open_decisions_doc_kinds

STYLE = "dominion-online"
NAMES = ("Ann", "Bob", "Cid")
ME, OTHER, SPECTATOR = 0, 1, None

GOLDEN = [
    # (event, viewer, line): the prefixes are A, B and C
    (Event("turn", 0, (), None, 3), OTHER, "Turn 3 - Ann"),
    (Event("draw", 2, ("Copper",) * 3 + ("Estate",) * 2, (2,)), 2,
     "C draws 3 Coppers and 2 Estates."),
    (Event("draw", 2, ("Copper",) * 3 + ("Estate",) * 2, (2,)), OTHER, "C draws 5 cards."),
    (Event("draw", 2, ("Gold",), (2,)), SPECTATOR, "C draws a card."),
    (Event("shuffle", 1), ME, "B shuffles their deck."),
    (Event("play", 0, ("Village",)), OTHER, "A plays a Village."),
    (Event("play", 0, ("Smithy",), None, "again"), OTHER, "A plays a Smithy again."),
    (Event("play", 0, ("Copper", "Copper", "Copper")), SPECTATOR, "A plays 3 Coppers. (+$3)"),
    (Event("play", 0, ("Copper", "Copper", "Silver", "Gold")), SPECTATOR,
     "A plays 2 Coppers, a Silver, and a Gold. (+$7)"),   # Dominion Online's comma
    (Event("play", 0, ("Harem",)), OTHER, "A plays a Harem. (+$2)"),
    (Event("buy", 1, ("Gold",), None, "discard"), ME, "B buys and gains a Gold."),
    (Event("gain", 1, ("Curse",), None, "discard"), ME, "B gains a Curse."),
    (Event("gain", 1, ("Silver",), None, "deck"), ME, "B gains a Silver onto their deck."),
    (Event("gain", 1, ("Gold",), None, "hand"), ME, "B gains a Gold into their hand."),
    (Event("trash", 0, ("Copper",) * 4), OTHER, "A trashes 4 Coppers."),
    (Event("trash", 2, ("Moat",), None, "supply"), ME, "C trashes a Moat from the Supply."),
    (Event("discard", 1, ("Estate", "Copper"), (1,)), 1, "B discards an Estate and a Copper."),
    # several hidden cards discarded at once: the last lands on top, in everyone's sight
    (Event("discard", 1, ("Estate", "Copper"), (1,)), ME, "B discards a card and a Copper."),
    (Event("discard", 1, ("Gold", "Estate", "Estate"), (1,)), SPECTATOR,
     "B discards 2 cards and an Estate."),
    (Event("discard", 1, ("Witch", "Witch")), SPECTATOR, "B discards 2 Witches."),
    (Event("discard_deck", 1, (), None, 7), ME,
     "B puts their deck (7 cards) into their discard pile."),
    (Event("topdeck", 1, ("Duchy",)), ME, "B topdecks a Duchy."),
    (Event("topdeck", 1, ("Gold", "Silver"), (1,)), ME, "B topdecks 2 cards."),
    (Event("insert", 0, ("Gold",), (0,), 2), ME, "A puts a Gold into their deck, with 2 cards "
                                                 "above it."),
    (Event("insert", 0, ("Gold",), (0,), 2), OTHER, "A puts a card into their deck."),
    (Event("to_hand", 0, ("Province",)), OTHER, "A puts a Province into their hand."),
    (Event("to_hand", 0, ("Silver", "Silver"), (0,)), OTHER, "A puts 2 cards into their hand."),
    (Event("reveal", 0, ("Moat",), None, "reaction"), OTHER, "A reacts with a Moat."),
    (Event("reveal", 1, ("Moat",)), OTHER, "B reveals a Moat."),   # Swindler's: no reaction
    (Event("reveal", 0, ("Copper", "Estate"), None, "hand"), OTHER,
     "A reveals their hand: a Copper and an Estate."),
    (Event("look", 2, ("Sentry", "Sentry"), (2,)), 2, "C looks at 2 Sentries."),
    (Event("look", 2, ("Sentry", "Smithy"), (2,)), OTHER, "C looks at 2 cards."),
    (Event("set_aside", 0, ("Gardens",)), OTHER, "A sets aside a Gardens."),
    (Event("pass", 0, ("Curse",), (0, 1), 1), 1, "A passes a Curse to B."),
    (Event("pass", 1, ("Gold",), (1, 2), 2), 0, "B passes a card to C."),
    (Event("name", 1, ("Ironworks",)), ME, "B names an Ironworks."),
    (Event("cleanup", 1), ME, ""),   # Dominion Online writes no line for the Clean-up
    (Event("take_back", 0, (), None, 41), OTHER, "A takes back a move."),
    (Event("resign", 1), SPECTATOR, "B resigns."),
    (Event("game_over", 1), SPECTATOR, "The game has ended."),
]


@pytest.mark.parametrize("event,viewer,line", GOLDEN,
                         ids=[f"{e.kind}-{i}" for i, (e, _, _) in enumerate(GOLDEN)])
def test_golden_line(event, viewer, line):
    assert dominion.log_line(event, NAMES, viewer, STYLE) == line


def test_every_event_kind_has_a_golden_line():
    assert open_decisions_doc_kinds() <= {e.kind for e, _, _ in GOLDEN}


def test_the_engines_style_is_the_default_and_unchanged():
    for event, viewer, line in ENGINE_GOLDEN:
        assert dominion.log_line(event, NAMES, viewer) == line
        assert dominion.log_line(event, NAMES, viewer, "engine") == line
    with pytest.raises(ValueError, match="no log style 'dominion'"):
        dominion.log_line(ENGINE_GOLDEN[0][0], NAMES, None, "dominion")


@pytest.mark.parametrize("names,prefixes", [
    (("Ann", "Bob"), ("A", "B")),
    (("Lord Rattington", "magicjj"), ("L", "m")),
    (("Ann", "Andy", "Bob"), ("Ann", "And", "B")),
    (("Bo", "Bob"), ("Bo", "Bob")),
    (("Player 1", "Player 2", "Player 3"), ("Player1", "Player2", "Player3")),
    (("Ann", "Ann"), ("Ann1", "Ann2")),
    # a parser that leaves out punctuation must still tell them apart: a letter or digit
    (("big-money", "big-money-ultimate"), ("big-money", "big-money-u")),
    (("a-b", "ab"), ("a-b1", "ab2")),
])
def test_short_names_are_the_shortest_unique_starts_of_the_names(names, prefixes):
    got = dominion.name_prefixes(names)
    assert got == prefixes and len(set(got)) == len(names)
    letters = ["".join(ch for ch in p if ch.isalnum()) for p in got]
    assert len(set(letters)) == len(names)
    assert all(" " not in p for p in got)   # log parsers take the first word as the player


def test_the_header_numbers_the_game_and_says_what_everyone_starts_with():
    assert dominion.log_header(("Ann", "Bob"), STYLE, 42) == (
        "Game #42, unrated.", "",
        "A starts with 7 Coppers.", "A starts with 3 Estates.",
        "B starts with 7 Coppers.", "B starts with 3 Estates.")
    assert dominion.log_header(("Ann", "Bob")) == ()


def test_a_rated_header_has_a_name_and_rating_line_per_player():
    assert dominion.log_header(("Ann", "Bob Ray"), STYLE, 42, ratings=(41.25, 39)) == (
        "Game #42, rated.", "Ann: 41.25", "Bob Ray: 39", "",
        "A starts with 7 Coppers.", "A starts with 3 Estates.",
        "B starts with 7 Coppers.", "B starts with 3 Estates.")
    for bad in ((41.25,), ("high", 3), (True, 2)):
        with pytest.raises(dominion.InvalidConfigError, match="one number per player"):
            dominion.log_header(("Ann", "Bob"), STYLE, 1, ratings=bad)


def test_another_players_library_looks_at_the_cards_it_draws():
    events = [Event("turn", 0, (), None, 1), Event("play", 0, ("Library",)),
              Event("draw", 0, ("Copper", "Silver"), (0,)), Event("look", 0, ("Village",), (0,)),
              Event("set_aside", 0, ("Village",)), Event("draw", 0, ("Gold",), (0,)),
              Event("discard", 0, ("Village",)), Event("play", 0, ("Copper", "Silver", "Gold")),
              Event("cleanup", 0), Event("draw", 0, ("Copper",) * 5, (0,))]
    body = ("A plays a Library.", "A looks at 2 cards.", "A looks at a card.",
            "A sets aside a Village.", "A looks at a card.", "A discards a Village.",
            "A plays a Copper, a Silver, and a Gold. (+$6)", "A draws 5 cards.")
    for viewer in (OTHER, SPECTATOR):
        assert dominion.log_lines(events, ("Ann", "Bob"), viewer, STYLE)[8:] == body
    assert dominion.log_lines(events, ("Ann", "Bob"), ME, STYLE)[8:10] == (
        "A plays a Library.", "A draws a Copper and a Silver.")   # its player draws them
    assert "draws 2 cards" in " ".join(dominion.log_lines(events, ("Ann", "Bob"), OTHER))


def test_a_whole_game_in_dominion_onlines_words_for_every_viewer():
    import random
    from tests.support import random_answer
    rng = random.Random(6)
    s = dominion.new_game(players=3, kingdom="random", seed=6)
    while (d := dominion.pending(s)) is not None and s.turn < 30:
        s = dominion.step(s, random_answer(d, rng), d.player)
    prefixes = dominion.name_prefixes(s.config.players)
    for viewer in (None, 0, 1, 2):
        lines = dominion.log_lines(s.log, s.config.players, viewer, STYLE, 7)
        assert lines[0] == "Game #7, unrated."
        body = lines[2 + 2 * 3:]
        for i, line in enumerate(body):
            if line == "":
                assert body[i + 1].startswith("Turn ")   # a blank line before each turn
                continue
            assert line.startswith("Turn ") or line.split()[0] in prefixes, line
            assert line.endswith((".", ")")) or line.startswith("Turn "), line
            assert "ends their turn" not in line and "  " not in line
        turns = sum(e.kind == "turn" for e in s.log)
        assert body.count("") == turns


def test_replay_prints_a_game_in_dominion_onlines_format(tmp_path):
    records = tmp_path / "games.jsonl"
    run = [sys.executable, "-m", "dominion_client.cli"]
    subprocess.run(run + ["simulate", "--games", "2", "--bots", "big-money,smithy-big-money",
                          "--seed", "5", "--records", str(records)],
                   check=True, capture_output=True)
    out = subprocess.run(run + ["replay", f"{records}:1", "--style", STYLE], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    record = next(line for line in map(json.loads, records.read_text().splitlines())
                  if line["index"] == 1)           # game 1: games are numbered from 0
    state = dominion.replay(dominion.record_from_data(record))
    assert out == list(dominion.log_lines(state.log, state.config.players, None, STYLE, 1))
    assert out[0] == "Game #1, unrated." and out[-1] == "The game has ended."
    assert any(line.endswith(")") and "plays" in line and "(+$" in line for line in out)
    rated = subprocess.run(run + ["replay", f"{records}:1", "--style", STYLE, "--ratings",
                                  "41.5,39"], check=True, capture_output=True,
                           text=True).stdout.splitlines()
    assert rated[:3] == ["Game #1, rated.", f"{state.config.players[0]}: 41.5",
                         f"{state.config.players[1]}: 39"]
    assert rated[4:] == out[2:]
    engine = subprocess.run(run + ["replay", f"{records}:1"], check=True, capture_output=True,
                            text=True).stdout.splitlines()
    assert engine[-2] == "The game is over." and engine[-1].startswith("Scores: ")


def test_an_actions_printed_bonuses_follow_its_play_after_the_draw_of_its_cards():
    events = [Event("turn", 0, (), None, 1), Event("play", 0, ("Village",)), Event("shuffle", 0),
              Event("draw", 0, ("Copper",), (0,)), Event("play", 0, ("Festival",)),
              Event("play", 0, ("Throne Room",)), Event("play", 0, ("Market",)),
              Event("draw", 0, ("Gold",), (0,)), Event("play", 0, ("Market",), None, "again"),
              Event("draw", 0, ("Estate",), (0,)), Event("play", 0, ("Baron",)),
              Event("discard", 0, ("Estate",)), Event("play", 0, ("Copper", "Copper")),
              Event("cleanup", 0), Event("game_over", 0)]
    assert dominion.log_lines(events, ("Ann", "Bob"), 1, STYLE, 3)[6:] == (
        "", "Turn 1 - Ann",
        "A plays a Village.", "A shuffles their deck.", "A draws a card.", "A gets +2 Actions.",
        "A plays a Festival.", "A gets +2 Actions.", "A gets +1 Buy.", "A gets +$2.",
        "A plays a Throne Room.",
        "A plays a Market.", "A draws a card.", "A gets +1 Action.", "A gets +1 Buy.",
        "A gets +$1.",
        "A plays a Market again.", "A draws a card.", "A gets +1 Action.", "A gets +1 Buy.",
        "A gets +$1.",
        "A plays a Baron.", "A gets +1 Buy.", "A discards an Estate.",   # +$4: a choice's
        "A plays 2 Coppers. (+$2)",
        "The game has ended.")
    # a card's +Cards with nothing left to draw: its bonuses come right after all the same
    assert dominion.log_lines([Event("play", 1, ("Village",)), Event("game_over", 1)],
                              ("Ann", "Bob"), None, STYLE)[6:] == (
        "B plays a Village.", "B gets +2 Actions.", "The game has ended.")
    # the engine's style has no such lines
    assert "gets" not in " ".join(dominion.log_lines(events, ("Ann", "Bob"), 1))


def test_short_names_are_unique_single_words_for_any_names():
    from hypothesis import given, settings, strategies as st
    names = st.lists(st.text(alphabet="AaBb b1", min_size=1, max_size=6), min_size=2,
                     max_size=6)

    @settings(max_examples=300, deadline=None)
    @given(names)
    def check(players):
        prefixes = dominion.name_prefixes(players)
        assert len(set(prefixes)) == len(players)
        for i, (name, short) in enumerate(zip(players, prefixes)):
            assert short and not any(ch.isspace() for ch in short)
            spaceless = "".join(name.split()) or f"P{i + 1}"
            assert spaceless.startswith(short) or short.startswith(spaceless)
    check()
