"""Every base Kingdom card (both editions), one test per card and per rulebook note that decides
a behaviour. Positions list every pile (deck, discard pile) top card first."""
import random

import pytest

import dominion
from dominion import CHOOSE, END_PHASE, ORDER, PLAY, SELECT, TURN, Move
from dominion.card import BASE_1E, BASE_2E
from tests.support import (actions, answer, at, buys, coins, deck_top_first, hand, log_events,
                           phase, play, random_answer, trash, zone)

FIVE_COPPERS = ["Copper"] * 5


def pending(s):
    return dominion.pending(s)


def log_seen_by(s, viewer, kind):
    """The events of ``kind`` as ``viewer`` sees them in their view's log."""
    return [e for e in dominion.view(s, viewer, log_from=0).log if e.kind == kind]


def discard(s, seat=0):
    return list(zone(s, "discard", seat))


def to_buy_phase(s):
    """End the Action phase if it has not ended by itself (no Action left to play)."""
    return answer(s, Move(END_PHASE)) if phase(s) == "action" else s


# --- Cellar -----------------------------------------------------------------------------------

def test_cellar_discards_then_draws_as_many_as_discarded():
    s = at("Cellar", hands=[["Cellar", "Estate", "Estate", "Copper", "Copper"]],
           decks=[["Gold", "Silver", "Village"]])
    s = play(s, "Cellar")
    d = pending(s)
    assert (d.kind, d.purpose, d.min, d.max) == (SELECT, "discard", 0, 4)
    assert "Cellar" not in d.cards  # it is in play, not in hand
    s = answer(s, ["Estate", "Estate"])
    assert hand(s) == ["Copper", "Copper", "Gold", "Silver"]
    assert discard(s) == ["Estate", "Estate"]
    assert actions(s) == 1


def test_cellar_draw_shuffles_in_the_discarded_cards():
    s = at("Cellar", hands=[["Cellar", "Estate", "Duchy", "Copper"]])
    s = answer(play(s, "Cellar"), ["Duchy", "Estate"])
    assert hand(s) == ["Copper", "Duchy", "Estate"]


def test_cellar_shows_others_only_how_many_cards_were_discarded():
    s = at("Cellar", hands=[["Cellar", "Estate", "Duchy", "Copper"]], decks=[["Gold"] * 3])
    s = answer(play(s, "Cellar"), ["Duchy", "Estate"])
    (theirs,) = log_seen_by(s, 1, "discard")
    assert theirs.cards == () and theirs.detail == 2
    (mine,) = log_seen_by(s, 0, "discard")
    assert sorted(mine.cards) == ["Duchy", "Estate"]


# --- Chapel -----------------------------------------------------------------------------------

def test_chapel_trashes_up_to_four_cards():
    s = at("Chapel", hands=[["Chapel", "Estate", "Estate", "Copper", "Copper", "Curse"]])
    s = play(s, "Chapel")
    d = pending(s)
    assert (d.min, d.max, d.purpose) == (0, 4, "trash")
    with pytest.raises(dominion.IllegalAnswerError):
        answer(s, ["Estate", "Estate", "Copper", "Copper", "Curse"])
    s = answer(s, ["Estate", "Estate", "Copper", "Curse"])
    assert hand(s) == ["Copper"]
    assert sorted(trash(s)) == ["Copper", "Curse", "Estate", "Estate"]


def test_chapel_cannot_trash_itself():
    s = play(at("Chapel", hands=[["Chapel", "Estate"]]), "Chapel")
    assert pending(s).cards == ("Estate",)


# --- Moat -------------------------------------------------------------------------------------

def test_moat_played_as_an_action_draws_two():
    s = at("Moat", hands=[["Moat"]], decks=[["Gold", "Silver", "Copper"]])
    s = play(s, "Moat")
    assert hand(s) == ["Gold", "Silver"]


def test_moat_blocks_militia_but_the_attack_still_hits_the_others():
    s = at("Militia", "Moat", players=3,
           hands=[["Militia"], ["Moat"] + FIVE_COPPERS[:4], ["Estate"] + FIVE_COPPERS[:4]])
    s = play(s, "Militia")
    d = pending(s)
    assert (d.player, d.purpose, d.cards) == (1, "react", ("Moat",))
    s = answer(s, ["Moat"])
    d = pending(s)  # seat 1 is unaffected; seat 2 has no Reaction and discards
    assert (d.player, d.purpose, d.min) == (2, "discard", 2)
    s = answer(s, ["Estate", "Copper"])
    assert len(zone(s, "hand", 1)) == 5 and len(zone(s, "hand", 2)) == 3
    assert coins(s) == 2  # the attacker's own bonus is untouched
    reveals = log_seen_by(s, 2, "reveal")  # revealing Moat is public
    assert [(e.player, e.cards) for e in reveals] == [(1, ("Moat",))]


def test_moat_blocks_witch_and_the_attacker_still_draws():
    s = at("Witch", "Moat", players=3, hands=[["Witch"], ["Moat"], []],
           decks=[["Gold", "Gold"]])
    s = answer(play(s, "Witch"), ["Moat"])
    assert hand(s) == ["Gold", "Gold"]
    assert "Curse" not in zone(s, "discard", 1)
    assert zone(s, "discard", 2) == ("Curse",)


def test_moat_reveal_is_optional():
    s = at("Militia", "Moat", hands=[["Militia"], ["Moat", "Estate", "Copper", "Copper"]])
    s = answer(play(s, "Militia"), [])
    d = pending(s)
    assert (d.player, d.purpose) == (1, "discard")
    s = answer(s, ["Moat"])
    assert hand(s, 1) == ["Copper", "Copper", "Estate"]


# --- Harbinger --------------------------------------------------------------------------------

def test_harbinger_puts_a_card_from_the_discard_pile_onto_the_deck():
    s = at("Harbinger", hands=[["Harbinger"]], decks=[["Copper", "Estate"]],
           discards=[["Gold", "Curse", "Estate"]])
    s = play(s, "Harbinger")
    assert hand(s) == ["Copper"] and actions(s) == 1
    d = pending(s)
    assert (d.purpose, d.cards, d.min, d.max) == ("topdeck", ("Curse", "Estate", "Gold"), 0, 1)
    s = answer(s, ["Gold"])
    assert deck_top_first(s) == ["Gold", "Estate"]
    assert sorted(discard(s)) == ["Curse", "Estate"]
    assert log_seen_by(s, 1, "topdeck")[-1].cards == ()  # private: others see no card


def test_harbinger_may_put_nothing_back():
    s = at("Harbinger", hands=[["Harbinger"]], decks=[["Copper"]], discards=[["Gold"]])
    s = answer(play(s, "Harbinger"), [])
    assert discard(s) == ["Gold"] and deck_top_first(s) == []


def test_harbinger_with_empty_discard_pile_asks_nothing():
    s = at("Harbinger", hands=[["Harbinger"]], decks=[["Copper", "Silver"]])
    s = play(s, "Harbinger")
    assert pending(s).kind == TURN and hand(s) == ["Copper"]


# --- Merchant ---------------------------------------------------------------------------------

def test_merchant_gives_one_coin_on_the_first_silver_only():
    s = at("Merchant", hands=[["Merchant", "Silver", "Copper"]], decks=[["Silver"]])
    s = play(s, "Merchant")
    assert actions(s) == 1 and hand(s) == ["Copper", "Silver", "Silver"]
    s = to_buy_phase(s)
    s = answer(s, Move(PLAY, "Silver"))
    assert coins(s) == 3
    s = answer(s, Move(PLAY, "Silver"))
    assert coins(s) == 5


def test_two_merchants_give_two_coins_on_the_first_silver():
    s = at("Merchant", hands=[["Merchant", "Merchant", "Silver"]], decks=[["Silver", "Estate"]])
    s = play(play(s, "Merchant"), "Merchant")
    s = answer(to_buy_phase(s), Move(dominion.PLAY_TREASURES))
    assert coins(s) == 2 + 2 + 2


def test_merchant_without_silver_gives_nothing():
    s = at("Merchant", hands=[["Merchant", "Copper", "Gold"]], decks=[["Estate"]])
    s = answer(to_buy_phase(play(s, "Merchant")), Move(dominion.PLAY_TREASURES))
    assert coins(s) == 4


def test_merchant_bonus_ends_with_the_turn():
    s = at("Merchant", hands=[["Merchant"]], decks=[["Estate"] * 6 + ["Silver"]])
    s = answer(to_buy_phase(play(s, "Merchant")), Move(END_PHASE))
    seen = dominion.inspect(s)
    assert seen.effects == dominion.TurnEffects() and seen.current == 1


# --- Vassal -----------------------------------------------------------------------------------

def test_vassal_discards_a_non_action_top_card_without_asking():
    s = at("Vassal", hands=[["Vassal"]], decks=[["Gold", "Copper"]])
    s = play(s, "Vassal")
    assert coins(s) == 2 and discard(s) == ["Gold"] and deck_top_first(s) == ["Copper"]
    assert log_seen_by(s, 1, "discard")[-1].cards == ("Gold",)  # discarded face up
    assert pending(s).kind == TURN


def test_vassal_playing_the_discarded_action_uses_no_action():
    s = at("Vassal", hands=[["Vassal"]], decks=[["Village", "Copper"]])
    s = play(s, "Vassal")
    d = pending(s)
    assert (d.kind, d.purpose, d.options) == (CHOOSE, "play", ("yes", "no"))
    s = answer(s, "yes")
    assert zone(s, "in_play", 0) == ("Vassal", "Village")
    assert actions(s) == 2  # 1 - 1 for Vassal + 2 from Village; none spent on Village
    assert hand(s) == ["Copper"] and discard(s) == []


def test_vassal_may_leave_the_action_in_the_discard_pile():
    s = at("Vassal", hands=[["Vassal"]], decks=[["Smithy", "Copper"]])
    s = answer(play(s, "Vassal"), "no")
    assert discard(s) == ["Smithy"] and hand(s) == [] and actions(s) == 0


def test_vassal_with_no_cards_to_discard_only_gives_coins():
    s = play(at("Vassal", hands=[["Vassal"]]), "Vassal")
    assert coins(s) == 2 and pending(s).kind == TURN


def test_vassal_shuffles_to_find_a_card_to_discard():
    s = at("Vassal", hands=[["Vassal"]], discards=[["Estate"]])
    s = play(s, "Vassal")
    assert discard(s) == ["Estate"]


# --- Village, Workshop, Smithy, Festival, Laboratory, Market, Woodcutter ---------------------

def test_village_draws_one_and_gives_two_actions():
    s = play(at("Village", hands=[["Village"]], decks=[["Gold"]]), "Village")
    assert hand(s) == ["Gold"] and actions(s) == 2


def test_workshop_gains_a_card_costing_up_to_four_to_the_discard_pile():
    s = play(at("Workshop", hands=[["Workshop"]]), "Workshop")
    d = pending(s)
    assert (d.purpose, d.min, d.max) == ("gain", 1, 1)
    assert all(dominion.cost(s, c) <= 4 for c in d.cards)
    assert {"Silver", "Smithy", "Gardens"} <= set(d.cards) and "Duchy" not in d.cards
    s = answer(s, ["Smithy"])
    assert discard(s) == ["Smithy"]


def test_workshop_skips_empty_piles():
    s = at("Workshop", hands=[["Workshop"]], supply={"Silver": 0})
    assert "Silver" not in pending(play(s, "Workshop")).cards


def test_smithy_draws_three():
    s = play(at("Smithy", hands=[["Smithy"]], decks=[["Gold", "Silver", "Copper", "Estate"]]),
             "Smithy")
    assert hand(s) == ["Copper", "Gold", "Silver"]


def test_festival_gives_actions_buy_and_coins():
    s = play(at("Festival", hands=[["Festival"]]), "Festival")
    assert (actions(s), buys(s), coins(s)) == (2, 2, 2)


def test_laboratory_draws_two_and_gives_an_action():
    s = play(at("Laboratory", hands=[["Laboratory"]], decks=[["Gold", "Silver", "Copper"]]),
             "Laboratory")
    assert hand(s) == ["Gold", "Silver"] and actions(s) == 1


def test_market_gives_card_action_buy_and_coin():
    s = play(at("Market", hands=[["Market"]], decks=[["Gold"]]), "Market")
    assert hand(s) == ["Gold"] and (actions(s), buys(s), coins(s)) == (1, 2, 1)


def test_woodcutter_gives_a_buy_and_two_coins():
    s = play(at("Woodcutter", hands=[["Woodcutter"]]), "Woodcutter")
    assert (actions(s), buys(s), coins(s)) == (0, 2, 2)


# --- Bureaucrat -------------------------------------------------------------------------------

def test_bureaucrat_gains_a_silver_onto_the_deck():
    s = at("Bureaucrat", hands=[["Bureaucrat"], ["Copper"] * 3], decks=[["Gold"]])
    s = play(s, "Bureaucrat")
    assert deck_top_first(s) == ["Silver", "Gold"]


def test_bureaucrat_silver_on_an_empty_deck_is_its_only_card():
    s = at("Bureaucrat", hands=[["Bureaucrat"], []], discards=[["Estate"]])
    s = play(s, "Bureaucrat")
    assert deck_top_first(s) == ["Silver"] and discard(s) == ["Estate"]


def test_bureaucrat_victim_reveals_and_topdecks_a_victory_card():
    s = at("Bureaucrat", hands=[["Bureaucrat"], ["Estate", "Estate", "Copper"]],
           decks=[[], ["Gold"]])
    s = play(s, "Bureaucrat")  # only one kind of Victory card: nothing to choose
    assert deck_top_first(s, 1) == ["Estate", "Gold"]
    assert hand(s, 1) == ["Copper", "Estate"]
    assert log_seen_by(s, 0, "topdeck")[-1].cards == ("Estate",)  # revealed: public


def test_bureaucrat_victim_chooses_which_victory_card():
    s = at("Bureaucrat", hands=[["Bureaucrat"], ["Estate", "Duchy", "Copper"]])
    s = play(s, "Bureaucrat")
    d = pending(s)
    assert (d.player, d.purpose, d.cards) == (1, "topdeck", ("Duchy", "Estate"))
    s = answer(s, ["Duchy"])
    assert deck_top_first(s, 1) == ["Duchy"]


def test_bureaucrat_victim_without_victory_card_reveals_the_hand():
    s = at("Bureaucrat", hands=[["Bureaucrat"], ["Copper", "Silver", "Moat"]])
    s = answer(play(s, "Bureaucrat"), [])  # does not reveal Moat as a Reaction
    reveal = log_seen_by(s, 0, "reveal")[-1]
    assert (reveal.player, sorted(reveal.cards)) == (1, ["Copper", "Moat", "Silver"])
    assert hand(s, 1) == ["Copper", "Moat", "Silver"] and deck_top_first(s, 1) == []


# --- Gardens ----------------------------------------------------------------------------------

def test_gardens_rounds_down():
    assert dominion.player_score(["Gardens"] * 2 + ["Copper"] * 37) == 6  # 39 cards: 3 each
    assert dominion.player_score(["Gardens"] * 2 + ["Copper"] * 38) == 8  # 40 cards: 4 each


def test_gardens_counts_cards_in_every_zone():
    s = at("Gardens", hands=[["Gardens"] + ["Copper"] * 3], decks=[["Copper"] * 3],
           discards=[["Copper"] * 3])
    assert dominion.score(s)[0] == 1


# --- Militia ----------------------------------------------------------------------------------

def test_militia_victim_discards_down_to_three():
    s = at("Militia", hands=[["Militia"], ["Estate", "Estate", "Copper", "Copper", "Gold"]])
    s = play(s, "Militia")
    d = pending(s)
    assert (d.player, d.purpose, d.min, d.max) == (1, "discard", 2, 2)
    s = answer(s, ["Estate", "Estate"], player=1)
    assert hand(s, 1) == ["Copper", "Copper", "Gold"] and coins(s) == 2


def test_militia_on_a_three_card_hand_asks_nothing():
    s = at("Militia", hands=[["Militia"], ["Estate", "Copper", "Gold"]])
    s = play(s, "Militia")
    assert pending(s).player == 0 and hand(s, 1) == ["Copper", "Estate", "Gold"]


def test_militia_victims_discard_in_turn_order():
    mixed = ["Copper", "Copper", "Copper", "Estate", "Estate"]
    s = at("Militia", players=3, current=1, hands=[mixed, ["Militia"], mixed])
    s = play(s, "Militia")
    assert pending(s).player == 2
    s = answer(s, ["Copper", "Copper"])
    assert pending(s).player == 0


def test_a_forced_discard_is_not_asked():
    """Every legal answer is the same: a victim holding five Coppers discards two Coppers."""
    s = at("Militia", hands=[["Militia"], FIVE_COPPERS])
    s = play(s, "Militia")
    assert pending(s).player == 0
    assert hand(s, 1) == ["Copper"] * 3 and discard(s, 1)[-2:] == ["Copper", "Copper"]


def test_the_discarding_player_chooses_which_card_ends_on_top():
    """Rulebook (Discard): only the card put on top is revealed; the answer's last card is it,
    whatever the alphabet says."""
    for top in ("Copper", "Estate"):
        s = at("Militia", hands=[["Militia"], ["Copper", "Copper", "Estate", "Estate", "Gold"]])
        s = play(s, "Militia")
        other = "Estate" if top == "Copper" else "Copper"
        s = answer(s, [other, top])
        assert dominion.view(s, 0).players[1].discard_top == top


# --- Moneylender ------------------------------------------------------------------------------

def test_moneylender_trashes_a_copper_for_three_coins():
    s = play(at("Moneylender", hands=[["Moneylender", "Copper", "Copper"]]), "Moneylender")
    d = pending(s)
    assert (d.purpose, d.cards, d.min, d.max) == ("trash", ("Copper",), 0, 1)
    s = answer(s, ["Copper"])
    assert coins(s) == 3 and trash(s) == ("Copper",) and hand(s) == ["Copper"]


def test_moneylender_without_a_copper_gives_nothing():
    s = play(at("Moneylender", hands=[["Moneylender", "Silver"]]), "Moneylender")
    assert coins(s) == 0 and pending(s).kind == TURN


def test_moneylender_declined_gives_nothing():
    s = answer(play(at("Moneylender", hands=[["Moneylender", "Copper"]]), "Moneylender"), [])
    assert coins(s) == 0 and trash(s) == ()


# --- Poacher ----------------------------------------------------------------------------------

def test_poacher_with_no_empty_piles_discards_nothing():
    s = play(at("Poacher", hands=[["Poacher", "Copper"]], decks=[["Gold"]]), "Poacher")
    assert pending(s).kind == TURN
    assert hand(s) == ["Copper", "Gold"] and (actions(s), coins(s)) == (1, 1)


def test_poacher_discards_one_card_per_empty_supply_pile_of_any_kind():
    s = at("Poacher", hands=[["Poacher", "Copper", "Estate", "Silver"]], decks=[["Gold"]],
           supply={"Curse": 0, "Copper": 0})
    s = play(s, "Poacher")
    d = pending(s)
    assert (d.purpose, d.min, d.max) == ("discard", 2, 2)
    assert "Gold" in d.cards  # the card is drawn before discarding
    s = answer(s, ["Copper", "Estate"])
    assert hand(s) == ["Gold", "Silver"]


def test_poacher_with_too_few_cards_discards_the_whole_hand():
    s = at("Poacher", hands=[["Poacher"]], decks=[["Gold"]], supply={"Curse": 0, "Estate": 0})
    s = play(s, "Poacher")
    assert hand(s) == [] and discard(s) == ["Gold"]


# --- Remodel ----------------------------------------------------------------------------------

def test_remodel_gains_a_card_costing_up_to_two_more():
    s = play(at("Remodel", hands=[["Remodel", "Estate", "Gold"]]), "Remodel")
    d = pending(s)
    assert (d.purpose, d.cards) == ("trash", ("Estate", "Gold"))
    s = answer(s, ["Estate"])
    d = pending(s)
    assert d.purpose == "gain" and max(dominion.cost(s, c) for c in d.cards) == 4
    s = answer(s, ["Smithy"])
    assert discard(s) == ["Smithy"] and trash(s) == ("Estate",)


def test_remodel_may_gain_a_copy_of_the_trashed_card():
    s = answer(play(at("Remodel", hands=[["Remodel", "Gold", "Estate"]]), "Remodel"), ["Gold"])
    assert "Gold" in pending(s).cards
    s = answer(s, ["Gold"])
    assert discard(s) == ["Gold"] and trash(s) == ("Gold",)


def test_remodel_trashes_even_when_nothing_can_be_gained():
    kingdom = ("Remodel", "Festival", "Laboratory", "Market", "Witch", "Council Room",
               "Library", "Mine", "Sentry", "Bandit")  # nothing here costs $2 or less
    s = dominion.position(kingdom, hands=[["Remodel", "Curse", "Estate", "Copper"]],
                          supply={"Copper": 0, "Curse": 0, "Estate": 0})
    s = answer(play(s, "Remodel"), ["Curse"])
    assert trash(s) == ("Curse",) and discard(s) == [] and pending(s).kind == TURN
    assert not [e for e in log_events(s) if e.kind == "gain"]


def test_remodel_with_an_empty_hand_does_nothing():
    s = play(at("Remodel", hands=[["Remodel"]]), "Remodel")
    assert pending(s).kind == TURN and trash(s) == ()


# --- Throne Room ------------------------------------------------------------------------------

def test_throne_room_on_village_leaves_four_actions():
    s = at("Throne Room", hands=[["Throne Room", "Village"]], decks=[["Gold", "Silver"]])
    s = answer(play(s, "Throne Room"), ["Village"])
    assert actions(s) == 4 and hand(s) == ["Gold", "Silver"]
    assert zone(s, "in_play", 0) == ("Throne Room", "Village")


def test_throne_room_playing_a_card_uses_no_action():
    s = at("Throne Room", hands=[["Throne Room", "Smithy"]], decks=[["Copper"] * 6])
    s = answer(play(s, "Throne Room"), ["Smithy"])
    assert actions(s) == 0 and len(hand(s)) == 6


def test_throne_room_may_play_nothing():
    s = play(at("Throne Room", hands=[["Throne Room", "Smithy"]]), "Throne Room")
    assert (pending(s).min, pending(s).max) == (0, 1)
    s = answer(s, [])
    assert hand(s) == ["Smithy"] and phase(s) == "buy"


def test_throne_room_on_feast_gains_twice_trashes_once():
    s = at("Throne Room", "Feast", hands=[["Throne Room", "Feast"]])
    s = answer(play(s, "Throne Room"), ["Feast"])
    s = answer(s, ["Duchy"])
    assert trash(s) == ("Feast",)
    d = pending(s)
    assert (d.card, d.purpose) == ("Feast", "gain")  # the second play still gains
    s = answer(s, ["Militia"])
    assert sorted(discard(s)) == ["Duchy", "Militia"]
    assert trash(s) == ("Feast",) and zone(s, "in_play", 0) == ("Throne Room",)


def test_throne_room_on_throne_room_plays_two_cards_twice_each():
    s = at("Throne Room", hands=[["Throne Room", "Throne Room", "Village", "Smithy"]],
           decks=[["Copper"] * 10])
    s = answer(play(s, "Throne Room"), ["Throne Room"])
    assert pending(s).cards == ("Smithy", "Village")
    s = answer(s, ["Village"])
    d = pending(s)  # the second play of the inner Throne Room picks another card
    assert d.card == "Throne Room" and d.cards == ("Smithy",)
    s = answer(s, ["Smithy"])
    assert actions(s) == 4 and len(hand(s)) == 2 + 6
    assert pending(s).kind == TURN


def test_throne_room_on_militia_gives_moat_a_reaction_window_per_play():
    s = at("Throne Room", "Militia", "Moat",
           hands=[["Throne Room", "Militia"], ["Moat", "Copper", "Copper", "Estate", "Estate"]])
    s = answer(play(s, "Throne Room"), ["Militia"])
    assert pending(s).purpose == "react"
    s = answer(s, ["Moat"])  # first play: unaffected
    d = pending(s)
    assert (d.player, d.purpose) == (1, "react")  # second play: asked again
    s = answer(s, [])
    s = answer(s, ["Estate", "Estate"])
    assert hand(s, 1) == ["Copper", "Copper", "Moat"] and coins(s) == 4


# --- Bandit -----------------------------------------------------------------------------------

def test_bandit_gains_gold_and_victim_trashes_a_treasure_other_than_copper():
    s = at("Bandit", hands=[["Bandit"], []], decks=[[], ["Silver", "Copper", "Estate"]])
    s = play(s, "Bandit")
    assert discard(s) == ["Gold"]
    assert trash(s) == ("Silver",) and discard(s, 1) == ["Copper"]
    assert deck_top_first(s, 1) == ["Estate"] and zone(s, "aside", 1) == ()


def test_bandit_victim_chooses_which_treasure_to_trash():
    s = play(at("Bandit", hands=[["Bandit"], []], decks=[[], ["Gold", "Silver"]]), "Bandit")
    d = pending(s)
    assert (d.player, d.purpose, d.cards) == (1, "trash", ("Gold", "Silver"))
    s = answer(s, ["Silver"], player=1)
    assert trash(s) == ("Silver",) and discard(s, 1) == ["Gold"]


def test_bandit_victim_without_a_non_copper_treasure_discards_both():
    s = play(at("Bandit", hands=[["Bandit"], []], decks=[[], ["Copper", "Estate"]]), "Bandit")
    assert trash(s) == () and sorted(discard(s, 1)) == ["Copper", "Estate"]


def test_bandit_reveals_publicly():
    s = play(at("Bandit", hands=[["Bandit"], []], decks=[[], ["Copper", "Estate"]]), "Bandit")
    assert log_seen_by(s, 0, "reveal")[-1].cards == ("Copper", "Estate")


# --- Council Room -----------------------------------------------------------------------------

def test_council_room_draws_four_and_each_other_player_draws_one():
    s = at("Council Room", players=3, hands=[["Council Room"], [], []],
           decks=[["Copper"] * 5, ["Gold"], ["Silver"]])
    s = play(s, "Council Room")
    assert hand(s) == ["Copper"] * 4 and buys(s) == 2
    assert hand(s, 1) == ["Gold"] and hand(s, 2) == ["Silver"]
    assert log_seen_by(s, 0, "draw")[-1].cards == ()  # others' draws stay hidden


# --- Library ----------------------------------------------------------------------------------

def test_library_draws_until_seven_cards_in_hand():
    s = at("Library", hands=[["Library"] + ["Copper"] * 4], decks=[["Estate"] * 5])
    s = play(s, "Library")
    assert len(hand(s)) == 7 and deck_top_first(s) == ["Estate"] * 2


def test_library_set_aside_actions_are_discarded_afterwards():
    s = at("Library", hands=[["Library"] + ["Copper"] * 5], decks=[["Smithy", "Silver", "Gold"]])
    s = play(s, "Library")
    d = pending(s)
    assert (d.kind, d.purpose, d.card) == (CHOOSE, "set_aside", "Library")
    assert zone(s, "looking", 0) == ("Smithy",)
    s = answer(s, "yes")
    assert sorted(hand(s)) == sorted(["Copper"] * 5 + ["Silver", "Gold"])
    assert discard(s) == ["Smithy"] and zone(s, "aside", 0) == ()


def test_library_may_keep_an_action_card():
    s = at("Library", hands=[["Library"] + ["Copper"] * 5], decks=[["Smithy", "Silver"]])
    s = answer(play(s, "Library"), "no")
    assert sorted(hand(s)) == sorted(["Copper"] * 5 + ["Smithy", "Silver"])


def test_library_set_aside_cards_are_not_shuffled_in():
    s = at("Library", hands=[["Library"] + ["Copper"] * 5], decks=[["Village"]],
           discards=[["Gold"]])
    s = answer(play(s, "Library"), "yes")  # deck empty: the shuffle holds only the Gold
    assert "Gold" in hand(s) and discard(s) == ["Village"]


def test_library_with_seven_cards_in_hand_draws_nothing():
    s = at("Library", hands=[["Library"] + ["Copper"] * 7], decks=[["Gold"]])
    s = play(s, "Library")
    assert len(hand(s)) == 7 and deck_top_first(s) == ["Gold"]


def test_library_stops_when_deck_and_discard_run_out():
    s = at("Library", hands=[["Library"]], decks=[["Gold", "Festival"]])
    s = answer(play(s, "Library"), "yes")
    assert hand(s) == ["Gold"] and discard(s) == ["Festival"]


def test_library_looked_at_action_is_private_until_set_aside():
    s = play(at("Library", hands=[["Library"]], decks=[["Smithy"]]), "Library")
    assert log_seen_by(s, 1, "look")[-1].cards == ()
    assert dominion.view(s, 1).players[0].looking is None
    s = answer(s, "yes")
    assert log_seen_by(s, 1, "set_aside")[-1].cards == ("Smithy",)


# --- Mine -------------------------------------------------------------------------------------

def test_mine_trashes_a_treasure_and_gains_one_costing_up_to_three_more_to_hand():
    s = play(at("Mine", hands=[["Mine", "Copper", "Estate"]]), "Mine")
    d = pending(s)
    assert (d.purpose, d.cards, d.min) == ("trash", ("Copper",), 0)
    s = answer(s, ["Copper"])
    assert pending(s).cards == ("Copper", "Silver")  # only Treasures, up to $3
    s = answer(s, ["Silver"])
    assert hand(s) == ["Estate", "Silver"] and trash(s) == ("Copper",)
    s = answer(to_buy_phase(s), Move(PLAY, "Silver"))  # playable this turn
    assert coins(s) == 2


def test_mine_trashing_is_optional():
    s = answer(play(at("Mine", hands=[["Mine", "Silver"]]), "Mine"), [])
    assert hand(s) == ["Silver"] and trash(s) == ()


def test_mine_without_a_treasure_gains_nothing():
    s = play(at("Mine", hands=[["Mine", "Estate"]]), "Mine")
    assert pending(s).kind == TURN and hand(s) == ["Estate"]


# --- Sentry -----------------------------------------------------------------------------------

def test_sentry_trashes_one_and_discards_the_other():
    s = at("Sentry", hands=[["Sentry"]], decks=[["Silver", "Curse", "Estate", "Gold"]])
    s = play(s, "Sentry")
    assert hand(s) == ["Silver"] and actions(s) == 1
    d = pending(s)
    assert (d.purpose, d.cards, d.min, d.max) == ("trash", ("Curse", "Estate"), 0, 2)
    s = answer(s, ["Curse"])
    d = pending(s)
    assert (d.purpose, d.cards) == ("discard", ("Estate",))
    s = answer(s, ["Estate"])
    assert trash(s) == ("Curse",) and discard(s) == ["Estate"] and deck_top_first(s) == ["Gold"]
    assert zone(s, "looking", 0) == ()


def test_sentry_puts_the_rest_back_in_any_order():
    s = at("Sentry", hands=[["Sentry"]], decks=[["Silver", "Gold", "Village", "Copper"]])
    s = answer(answer(play(s, "Sentry"), []), [])
    d = pending(s)
    assert (d.kind, d.cards) == (ORDER, ("Gold", "Village"))
    s = answer(s, ["Village", "Gold"])
    assert deck_top_first(s) == ["Village", "Gold", "Copper"]


def test_sentry_discarding_both_shows_others_only_the_count():
    s = at("Sentry", hands=[["Sentry"]], decks=[["Silver", "Gold", "Province", "Copper"]])
    s = answer(answer(play(s, "Sentry"), []), ["Gold", "Province"])
    assert sorted(discard(s)) == ["Gold", "Province"] and deck_top_first(s) == ["Copper"]
    assert log_seen_by(s, 1, "discard")[-1].detail == 2
    assert pending(s).kind == TURN


def test_sentry_looked_at_cards_are_private():
    s = at("Sentry", hands=[["Sentry"]], decks=[["Silver", "Gold", "Village"]])
    s = play(s, "Sentry")
    assert log_seen_by(s, 1, "look")[-1].cards == ()
    assert log_seen_by(s, 0, "look")[-1].cards == ("Gold", "Village")
    s = answer(answer(s, []), [])
    s = answer(s, ["Gold", "Village"])
    assert log_seen_by(s, 1, "topdeck")[-1].cards == ()


# --- Witch ------------------------------------------------------------------------------------

def test_witch_draws_two_and_each_other_player_gains_a_curse():
    s = at("Witch", players=3, hands=[["Witch"]], decks=[["Gold", "Gold", "Gold"]])
    s = play(s, "Witch")
    assert hand(s) == ["Gold", "Gold"]
    assert discard(s, 1) == ["Curse"] and discard(s, 2) == ["Curse"]


def test_witch_when_curses_run_out_they_go_in_turn_order():
    s = at("Witch", players=3, current=1, hands=[[], ["Witch"], []], supply={"Curse": 1})
    s = play(s, "Witch")
    assert discard(s, 2) == ["Curse"] and discard(s, 0) == []


def test_witch_with_no_curses_left_still_draws():
    s = at("Witch", hands=[["Witch"]], decks=[["Gold", "Gold"]], supply={"Curse": 0})
    s = play(s, "Witch")
    assert hand(s) == ["Gold", "Gold"] and discard(s, 1) == []


# --- Artisan ----------------------------------------------------------------------------------

def test_artisan_gains_to_hand_and_may_topdeck_the_gained_card():
    s = play(at("Artisan", hands=[["Artisan", "Estate"]]), "Artisan")
    d = pending(s)
    assert d.purpose == "gain" and max(dominion.cost(s, c) for c in d.cards) == 5
    s = answer(s, ["Smithy"])
    assert hand(s) == ["Estate", "Smithy"]
    d = pending(s)
    assert (d.purpose, d.cards, d.min) == ("topdeck", ("Estate", "Smithy"), 1)
    s = answer(s, ["Smithy"])
    assert deck_top_first(s) == ["Smithy"] and hand(s) == ["Estate"]


def test_artisan_topdecks_another_card_from_hand():
    s = answer(play(at("Artisan", hands=[["Artisan", "Estate"]]), "Artisan"), ["Silver"])
    s = answer(s, ["Estate"])
    assert deck_top_first(s) == ["Estate"] and hand(s) == ["Silver"]
    assert log_seen_by(s, 1, "topdeck")[-1].cards == ()  # put onto the deck unrevealed


# --- Chancellor -------------------------------------------------------------------------------

def test_chancellor_puts_the_deck_into_the_discard_pile_without_naming_cards():
    s = at("Chancellor", hands=[["Chancellor"]], decks=[["Gold", "Province", "Copper"]],
           discards=[["Estate"]])
    s = play(s, "Chancellor")
    assert coins(s) == 2 and pending(s).purpose == "discard_deck"
    s = answer(s, "yes")
    assert deck_top_first(s) == [] and sorted(discard(s)) == ["Copper", "Estate", "Gold",
                                                               "Province"]
    for viewer in (0, 1):
        (event,) = log_seen_by(s, viewer, "discard_deck")
        assert event.cards == () and event.detail == 3


def test_chancellor_flips_the_deck_so_its_bottom_card_ends_on_top_of_the_discard_pile():
    s = at("Chancellor", hands=[["Chancellor"]], decks=[["Gold", "Province", "Copper"]],
           discards=[["Estate"]])
    s = answer(play(s, "Chancellor"), "yes")
    assert discard(s) == ["Estate", "Gold", "Province", "Copper"]  # bottom first
    assert dominion.view(s, 1).players[0].discard_top == "Copper"


def test_chancellor_may_keep_the_deck():
    s = answer(play(at("Chancellor", hands=[["Chancellor"]], decks=[["Gold"]]), "Chancellor"),
               "no")
    assert deck_top_first(s) == ["Gold"] and coins(s) == 2


def test_chancellor_with_an_empty_deck_asks_nothing():
    s = play(at("Chancellor", hands=[["Chancellor"]], discards=[["Gold"]]), "Chancellor")
    assert pending(s).kind == TURN and coins(s) == 2


# --- Feast ------------------------------------------------------------------------------------

def test_feast_trashes_itself_and_gains_a_card_costing_up_to_five():
    s = play(at("Feast", hands=[["Feast"]]), "Feast")
    assert trash(s) == ("Feast",) and zone(s, "in_play", 0) == ()
    d = pending(s)
    assert "Duchy" in d.cards and all(dominion.cost(s, c) <= 5 for c in d.cards)
    s = answer(s, ["Duchy"])
    assert discard(s) == ["Duchy"]


# --- Spy --------------------------------------------------------------------------------------

def test_spy_attacker_chooses_for_every_player_starting_with_themself():
    s = at("Spy", players=3, hands=[["Spy"], [], []],
           decks=[["Copper", "Estate"], ["Gold"], ["Curse"]])
    s = play(s, "Spy")
    assert hand(s) == ["Copper"] and actions(s) == 1
    d = pending(s)
    assert (d.player, d.card, d.purpose) == (0, "Spy", "discard") and "your" in d.prompt
    s = answer(s, "yes")
    assert discard(s) == ["Estate"]
    d = pending(s)
    assert d.player == 0 and "Gold" in d.prompt
    s = answer(s, "yes")
    assert discard(s, 1) == ["Gold"]
    d = pending(s)
    assert d.player == 0 and "Curse" in d.prompt
    s = answer(s, "no")
    assert deck_top_first(s, 2) == ["Curse"] and zone(s, "aside", 2) == ()


def test_spy_player_without_cards_to_reveal_is_skipped():
    s = at("Spy", hands=[["Spy"], []], decks=[["Copper"], []])
    s = play(s, "Spy")  # the attacker drew their only card: nobody reveals anything
    assert pending(s).kind == TURN and hand(s) == ["Copper"]


def test_spy_moat_holder_reveals_nothing():
    s = at("Spy", "Moat", hands=[["Spy"], ["Moat"]], decks=[["Copper", "Estate"], ["Gold"]])
    s = answer(play(s, "Spy"), ["Moat"])
    s = answer(s, "no")  # the attacker's own card only
    assert pending(s).kind == TURN and deck_top_first(s, 1) == ["Gold"]


# --- Thief ------------------------------------------------------------------------------------

def test_thief_attacker_chooses_the_trashed_treasure_and_may_gain_it():
    s = at("Thief", hands=[["Thief"], []], decks=[[], ["Silver", "Gold", "Estate"]])
    s = play(s, "Thief")
    d = pending(s)
    assert (d.player, d.purpose, d.cards) == (0, "trash", ("Gold", "Silver"))
    s = answer(s, ["Gold"])
    assert trash(s) == ("Gold",) and discard(s, 1) == ["Silver"]
    d = pending(s)
    assert (d.player, d.purpose, d.cards, d.min) == (0, "gain", ("Gold",), 0)
    s = answer(s, ["Gold"])
    assert discard(s) == ["Gold"] and trash(s) == ()


def test_thief_may_gain_none_and_they_stay_in_the_trash():
    s = at("Thief", players=3, hands=[["Thief"], [], []],
           decks=[[], ["Copper", "Estate"], ["Silver", "Silver"]], trash=["Gold"])
    s = play(s, "Thief")  # one kind of Treasure each: nothing to choose
    d = pending(s)
    assert d.cards == ("Copper", "Silver")  # only the ones just trashed, not the old Gold
    s = answer(s, ["Silver"])
    assert discard(s) == ["Silver"] and sorted(trash(s)) == ["Copper", "Gold"]
    assert discard(s, 1) == ["Estate"] and discard(s, 2) == ["Silver"]


def test_thief_victim_without_treasure_discards_both():
    s = play(at("Thief", hands=[["Thief"], []], decks=[[], ["Estate", "Smithy"]]), "Thief")
    assert pending(s).kind == TURN and sorted(discard(s, 1)) == ["Estate", "Smithy"]


def test_thief_victim_with_one_card_reveals_it_then_shuffles_without_it():
    s = at("Thief", hands=[["Thief"], []], decks=[[], ["Estate"]], discards=[[], ["Estate"]])
    s = play(s, "Thief")
    assert zone(s, "deck", 1) == () and discard(s, 1) == ["Estate", "Estate"]


# --- Adventurer -------------------------------------------------------------------------------

def test_adventurer_reveals_until_two_treasures():
    s = at("Adventurer", hands=[["Adventurer"]],
           decks=[["Estate", "Copper", "Smithy", "Gold", "Silver"]])
    s = play(s, "Adventurer")
    assert hand(s) == ["Copper", "Gold"]
    assert sorted(discard(s)) == ["Estate", "Smithy"] and deck_top_first(s) == ["Silver"]
    assert log_seen_by(s, 1, "reveal")[0].cards == ("Estate",)


def test_adventurer_gets_one_treasure_when_cards_run_out():
    s = play(at("Adventurer", hands=[["Adventurer"]], decks=[["Estate", "Gold", "Estate"]]),
             "Adventurer")
    assert hand(s) == ["Gold"] and discard(s) == ["Estate", "Estate"]


def test_adventurer_does_not_shuffle_in_the_revealed_cards():
    s = at("Adventurer", hands=[["Adventurer"]], decks=[["Copper", "Estate"]],
           discards=[["Silver"]])
    s = play(s, "Adventurer")  # the shuffle holds only the Silver, not the revealed Estate
    assert hand(s) == ["Copper", "Silver"]
    assert discard(s) == ["Estate"] and deck_top_first(s) == [] and zone(s, "aside", 0) == ()


# --- Sets and editions ------------------------------------------------------------------------

NEW_IN_2E = ("Artisan", "Bandit", "Harbinger", "Merchant", "Poacher", "Sentry", "Vassal")
ONLY_1E = ("Adventurer", "Chancellor", "Feast", "Spy", "Thief", "Woodcutter")


def test_base_card_sets_and_editions():
    base = [c for c in dominion.CARDS.values() if c.set in (BASE_2E, BASE_1E)]
    assert len(base) == 32
    for c in base:
        if c.name in NEW_IN_2E:
            assert (c.set, c.editions) == (BASE_2E, (BASE_2E,)), c.name
        elif c.name in ONLY_1E:
            assert (c.set, c.editions) == (BASE_1E, (BASE_1E,)), c.name
        else:
            assert (c.set, c.editions) == (BASE_2E, (BASE_2E, BASE_1E)), c.name
    assert len(dominion.kingdom_pool([BASE_2E])) == 26
    assert len(dominion.kingdom_pool([BASE_1E])) == 25


def test_every_base_card_plays_in_a_random_game_to_the_end():
    """A smoke test over all 32 cards: four Kingdoms that cover them, random answers."""
    names = sorted(c.name for c in dominion.CARDS.values() if c.set in (BASE_2E, BASE_1E))
    for seed, start in enumerate((0, 10, 20, 22)):
        rng = random.Random(seed)
        s = dominion.new_game(players=3, kingdom=names[start:start + 10], seed=seed)
        for _ in range(5000):
            d = dominion.pending(s)
            if d is None:
                break
            s = dominion.step(s, random_answer(d, rng), d.player)
        assert dominion.pending(s) is None


# --- Review: rulings across cards -------------------------------------------------------------

def test_bureaucrat_revealed_hand_does_not_show_the_order_it_was_drawn_in():
    """Revealing shows the cards, not the order they came in (which could tell where a card was
    put in the deck, or which card Masquerade passed)."""
    s = at("Bureaucrat", hands=[["Bureaucrat"], ["Silver", "Gold", "Copper"]])
    s = play(s, "Bureaucrat")
    reveal = log_seen_by(s, 0, "reveal")[-1]
    assert reveal.player == 1 and reveal.cards == ("Copper", "Gold", "Silver")


def test_bureaucrat_victim_puts_a_dual_typed_victory_card_onto_the_deck():
    """Intrigue: Nobles is an Action and a Victory card for all purposes."""
    s = at("Bureaucrat", "Nobles", hands=[["Bureaucrat"], ["Nobles", "Copper"]])
    s = play(s, "Bureaucrat")
    assert deck_top_first(s, 1) == ["Nobles"] and hand(s, 1) == ["Copper"]


def test_bandit_victim_trashes_a_harem_as_a_treasure_other_than_copper():
    s = at("Bandit", "Harem", hands=[["Bandit"]], decks=[[], ["Copper", "Harem"]])
    s = play(s, "Bandit")
    assert trash(s) == ("Harem",) and discard(s, 1) == ["Copper"]


def test_mine_may_trade_a_silver_for_a_harem():
    """Intrigue 1st ed., dual types: "Mine can be used to trade in Silver for a Harem"."""
    s = at("Mine", "Harem", hands=[["Mine", "Silver"]])
    s = answer(play(s, "Mine"), ["Silver"])
    assert "Harem" in pending(s).cards
    s = answer(s, ["Harem"])
    assert hand(s) == ["Harem"] and trash(s) == ("Silver",)


def test_adventurer_finds_harem_as_a_treasure():
    """Intrigue 1st ed., dual types: "Adventurer will find Harems"."""
    s = at("Adventurer", "Harem", hands=[["Adventurer"]],
           decks=[["Harem", "Estate", "Copper", "Gold"]])
    s = play(s, "Adventurer")
    assert hand(s) == ["Copper", "Harem"] and discard(s) == ["Estate"]


def test_remodel_compares_costs_after_bridge():
    """Bridge: every card costs $1 less, so a Gold ($5 now) remodels into a Province ($7 now)."""
    s = at("Remodel", "Bridge", hands=[["Village", "Bridge", "Remodel", "Gold"]],
           decks=[["Copper"]])
    s = play(play(play(s, "Village"), "Bridge"), "Remodel")
    s = answer(s, ["Gold"])
    assert "Province" in pending(s).cards
    s = answer(s, ["Province"])
    assert discard(s) == ["Province"]


def test_workshop_gains_a_duchy_after_bridge():
    """Intrigue 1st ed., Bridge: "you could use Workshop to gain a Duchy"."""
    s = at("Workshop", "Bridge", hands=[["Village", "Bridge", "Workshop"]], decks=[["Copper"]])
    s = play(play(play(s, "Village"), "Bridge"), "Workshop")
    assert "Duchy" in pending(s).cards


def test_vassal_playing_a_discarded_attack_lets_the_others_react_first():
    s = at("Vassal", "Militia", "Moat", hands=[["Vassal"], ["Moat"] + ["Copper"] * 4],
           decks=[["Militia"]])
    s = answer(play(s, "Vassal"), "yes")
    d = pending(s)
    assert (d.player, d.purpose, d.cards) == (1, "react", ("Moat",))
    s = answer(s, ["Moat"], 1)
    assert pending(s).kind == TURN and len(hand(s, 1)) == 5
    assert coins(s) == 4  # Vassal's $2 and Militia's $2


def test_throne_room_on_merchant_gives_two_coins_on_the_first_silver_only():
    """Each play of Merchant adds $1 to the first Silver (rulebook, Merchant; Throne Room)."""
    s = at("Merchant", hands=[["Throne Room", "Merchant", "Silver", "Silver"]],
           decks=[["Copper", "Copper"]])
    s = answer(play(s, "Throne Room"), ["Merchant"])
    s = answer(to_buy_phase(s), Move(dominion.PLAY_TREASURES))
    assert coins(s) == 2 + 2 + 2 + 1 + 1
