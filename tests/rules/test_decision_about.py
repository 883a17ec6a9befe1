"""Decisions say which cards and which other seat they are about (`Decision.about_cards`,
`Decision.about_player`), so that bots and front ends never parse the prompt."""
from dominion import CHOOSE, SELECT, step
from tests.support import asked, at, play


def test_spy_decision_names_the_revealed_card_and_whose_it_is():
    s = at("Spy", players=3, hands=[["Spy"], [], []],
           decks=[["Copper", "Estate"], ["Gold"], ["Curse"]])
    s = play(s, "Spy")
    d = asked(s, CHOOSE, 0, "discard")
    assert (d.about_cards, d.about_player) == (("Estate",), None)  # the attacker's own card
    s = step(s, "yes")
    d = asked(s, CHOOSE, 0, "discard")
    assert (d.about_cards, d.about_player) == (("Gold",), 1)
    s = step(s, "no")
    d = asked(s, CHOOSE, 0, "discard")
    assert (d.about_cards, d.about_player) == (("Curse",), 2)


def test_swindler_give_decision_names_the_victim_and_the_trashed_card():
    s = at("Swindler", players=3, hands=[["Swindler"], [], []],
           decks=[[], ["Silver"], ["Estate"]])
    s = play(s, "Swindler")
    d = asked(s, SELECT, 0, "give")
    assert (d.about_cards, d.about_player) == (("Silver",), 1)
    s = step(s, ["Village"])
    d = asked(s, SELECT, 0, "give")
    assert (d.about_cards, d.about_player) == (("Estate",), 2)


def test_thief_trash_decision_names_the_victim():
    s = at("Thief", players=3, hands=[["Thief"], [], []],
           decks=[[], ["Copper", "Estate"], ["Silver", "Gold"]])
    s = play(s, "Thief")  # seat 1 reveals one Treasure only: nothing to choose
    d = asked(s, SELECT, 0, "trash")
    assert d.about_player == 2 and d.about_cards == ()


def test_masquerade_pass_decision_names_the_receiver():
    s = at("Masquerade", players=3, hands=[["Masquerade", "Estate"], ["Gold", "Copper"],
                                           ["Silver"]], decks=[["Curse", "Copper"]])
    s = play(s, "Masquerade")
    assert asked(s, SELECT, 0, "pass").about_player == 1
    s = step(s, ["Curse"])
    assert asked(s, SELECT, 1, "pass").about_player == 2


def test_reaction_decision_names_the_attacker():
    s = at("Militia", "Moat", hands=[["Militia"], ["Moat", "Estate", "Copper", "Copper"]])
    d = asked(play(s, "Militia"), SELECT, 1, "react")
    assert d.about_player == 0 and d.card == "Militia"


def test_vassal_decision_names_the_discarded_action():
    s = play(at("Vassal", hands=[["Vassal"]], decks=[["Smithy", "Copper"]]), "Vassal")
    d = asked(s, CHOOSE, 0, "play")
    assert (d.about_cards, d.about_player) == (("Smithy",), None)


def test_library_decision_names_the_action_drawn():
    s = at("Library", hands=[["Library"] + ["Copper"] * 5], decks=[["Smithy", "Silver"]])
    assert asked(play(s, "Library"), CHOOSE, 0, "set_aside").about_cards == ("Smithy",)


def test_remodel_gain_decision_names_the_trashed_card():
    s = step(play(at("Remodel", hands=[["Remodel", "Gold", "Estate"]]), "Remodel"), ["Gold"])
    d = asked(s, SELECT, 0, "gain")
    assert d.about_cards == ("Gold",) and "Province" in d.cards


def test_secret_passage_position_decision_names_the_card_inserted():
    s = at("Secret Passage", hands=[["Secret Passage", "Gold"]],
           decks=[["Copper", "Copper", "Estate", "Estate", "Silver"]])
    s = step(play(s, "Secret Passage"), ["Gold"])
    assert asked(s, CHOOSE, 0, "position").about_cards == ("Gold",)


def test_courtier_choice_names_the_revealed_card():
    s = step(play(at("Courtier", hands=[["Courtier", "Mill", "Copper"]]), "Courtier"), ["Mill"])
    d = asked(s, CHOOSE, 0, "choose")
    assert d.about_cards == ("Mill",) and d.min == 2


def test_a_question_about_nothing_else_leaves_the_fields_empty():
    s = play(at("Chapel", hands=[["Chapel", "Copper", "Estate"]]), "Chapel")
    d = asked(s, SELECT, 0, "trash")
    assert (d.about_cards, d.about_player) == ((), None)


# --- the prompt in a player's words (issue 33): the name, the card, no "(s)" -------------------

def test_the_reaction_prompt_names_the_reaction_and_whose_attack_it_answers():
    s = at("Militia", "Moat", hands=[["Militia"], ["Moat", "Estate", "Copper", "Copper"]])
    assert asked(play(s, "Militia"), SELECT, 1, "react").prompt == \
        "Reveal Moat against Player 1's Militia?"
    s = at("Militia", "Moat", "Diplomat", hands=[["Militia"], ["Moat", "Diplomat", "Estate",
                                                                "Copper", "Copper"]])
    assert asked(play(s, "Militia"), SELECT, 1, "react").prompt == \
        "Player 1 played Militia: reveal Diplomat or Moat?"


def test_masquerade_says_to_whom_a_card_is_passed():
    s = at("Masquerade", players=3, hands=[["Masquerade", "Estate"], ["Gold"], ["Silver"]],
           decks=[["Curse", "Copper"]])
    assert asked(play(s, "Masquerade"), SELECT, 0, "pass").prompt == \
        "Masquerade: pass a card to Player 2"


def test_courtier_names_the_revealed_cards_types_and_how_many_options():
    s = play(at("Courtier", hands=[["Courtier", "Duchy"]]), "Courtier")   # revealed unasked
    assert asked(s, CHOOSE, 0, "choose").prompt == "Courtier: Duchy is Victory: choose one option"
    s = play(at("Courtier", "Nobles", hands=[["Courtier", "Nobles"]]), "Courtier")
    assert asked(s, CHOOSE, 0, "choose").prompt == \
        "Courtier: Nobles is Action and Victory: choose 2 different options"
