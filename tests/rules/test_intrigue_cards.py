"""Intrigue (both editions): one test per card and per ruling of the card notes
(rulebooks 000/003/004 for the 2nd edition, 001 for the 1st-edition cards)."""
import pytest

import dominion
from dominion import CHOOSE, ORDER, SELECT, TURN, Move, cost, pending, player_score, step
from dominion.bots import make_bot
from dominion.engine import supply_count
from dominion.kingdoms import RECOMMENDED
from tests.support import (actions, asked, at, buys, coins, deck_top_first, hand, play, trash,
                           supply, turn, zone)

INTRIGUE_2E = ("Baron", "Bridge", "Conspirator", "Courtier", "Courtyard", "Diplomat", "Duke",
               "Harem", "Ironworks", "Lurker", "Masquerade", "Mill", "Mining Village", "Minion",
               "Nobles", "Patrol", "Pawn", "Replace", "Secret Passage", "Shanty Town", "Steward",
               "Swindler", "Torturer", "Trading Post", "Upgrade", "Wishing Well")
NEW_IN_2E = ("Courtier", "Diplomat", "Lurker", "Mill", "Patrol", "Replace", "Secret Passage")
ONLY_1E = ("Coppersmith", "Great Hall", "Saboteur", "Scout", "Secret Chamber", "Tribute")


def go(s, *answers):
    """Answer the pending decisions in turn."""
    for a in answers:
        s = step(s, a)
    return s


def seen(s, viewer, kind):
    """The cards of each ``kind`` event of the log as ``viewer`` sees them."""
    return [e.cards for e in dominion.view(s, viewer, log_from=0).log if e.kind == kind]


def discard_of(s, seat):
    return sorted(zone(s, "discard", seat))


# --- Card pools -----------------------------------------------------------------------------

def test_intrigue_2e_pool_is_its_26_cards_and_1e_pool_drops_the_7_new_ones():
    assert dominion.kingdom_pool(["intrigue-2e"]) == tuple(sorted(INTRIGUE_2E))
    first = sorted(set(INTRIGUE_2E) - set(NEW_IN_2E) | set(ONLY_1E))
    assert dominion.kingdom_pool(["intrigue-1e"]) == tuple(first)


def test_dual_typed_cards_are_both_types():
    c = dominion.CARDS
    assert c["Harem"].is_treasure and c["Harem"].is_victory
    for name in ("Nobles", "Mill", "Great Hall"):
        assert c[name].is_action and c[name].is_victory


@pytest.mark.parametrize("players,size", [(2, 8), (3, 12), (6, 12)])
def test_victory_kingdom_piles_use_8_cards_with_2_players_and_12_with_more(players, size):
    kingdom = ("Duke", "Harem", "Nobles", "Mill", "Great Hall", "Pawn", "Baron", "Bridge",
               "Upgrade", "Steward")
    s = dominion.new_game(players=players, kingdom=kingdom, seed=1)
    for name in ("Duke", "Harem", "Nobles", "Mill", "Great Hall"):
        assert supply_count(s, name) == size
    assert supply_count(s, "Pawn") == 10


# --- Courtyard ------------------------------------------------------------------------------

def test_courtyard_may_put_back_a_card_that_was_not_just_drawn_and_keeps_it_private():
    s = at("Courtyard", hands=[["Courtyard", "Estate"]],
           decks=[["Copper", "Copper", "Silver", "Gold"]])
    s = play(s, "Courtyard")
    d = asked(s, SELECT, purpose="topdeck")
    assert d.cards == ("Copper", "Estate", "Silver") and d.min == d.max == 1
    s = step(s, ["Estate"])
    assert deck_top_first(s) == ["Estate", "Gold"]
    assert hand(s) == ["Copper", "Copper", "Silver"]
    assert seen(s, 1, "topdeck") == [()] and seen(s, 0, "topdeck") == [("Estate",)]


# --- Lurker ---------------------------------------------------------------------------------

def test_lurker_may_trash_nobles_from_the_supply_as_an_action_card():
    s = at("Lurker", "Nobles", "Harem", hands=[["Lurker"]])
    s = play(s, "Lurker")
    d = asked(s, CHOOSE, purpose="choose")
    assert d.options == ("trash an Action card from the Supply",
                         "gain an Action card from the trash")
    s = step(s, "trash an Action card from the Supply")
    d = asked(s, SELECT, purpose="trash")
    assert "Nobles" in d.cards and "Lurker" in d.cards
    assert "Harem" not in d.cards and "Estate" not in d.cards
    s = step(s, ["Nobles"])
    assert trash(s) == ("Nobles",) and supply_count(s, "Nobles") == 7
    assert actions(s) == 1


def test_lurker_gains_an_action_card_from_the_trash_to_the_discard_pile():
    s = at("Lurker", hands=[["Lurker"]], trash=("Copper", "Nobles", "Village"))
    s = go(play(s, "Lurker"), "gain an Action card from the trash")
    assert asked(s, SELECT, purpose="gain").cards == ("Nobles", "Village")
    s = step(s, ["Nobles"])
    assert zone(s, "discard", 0) == ("Nobles",) and trash(s) == ("Copper", "Village")


def test_lurker_gain_may_be_chosen_with_no_action_in_the_trash():
    s = at("Lurker", hands=[["Lurker"]], trash=("Copper",))
    s = go(play(s, "Lurker"), "gain an Action card from the trash")
    assert pending(s).kind == TURN and trash(s) == ("Copper",) and actions(s) == 1


# --- Pawn -----------------------------------------------------------------------------------

def test_pawn_picks_both_options_before_doing_either():
    s = at("Pawn", hands=[["Pawn"]], decks=[["Silver"]])
    s = play(s, "Pawn")
    d = asked(s, CHOOSE, purpose="choose")
    assert d.options == ("+1 Card", "+1 Action", "+1 Buy", "+$1") and d.min == d.max == 2
    s = step(s, ["+1 Card", "+$1"])
    assert hand(s) == ["Silver"] and coins(s) == 1 and buys(s) == 1 and actions(s) == 0


def test_pawn_cannot_pick_the_same_option_twice():
    s = play(at("Pawn", hands=[["Pawn"]]), "Pawn")
    with pytest.raises(dominion.IllegalAnswerError):
        step(s, ["+1 Buy", "+1 Buy"])


# --- Masquerade -----------------------------------------------------------------------------

def _masquerade_3p(hands):
    return at("Masquerade", players=3, hands=hands, decks=[["Curse", "Copper"]])


def test_masquerade_passes_at_once_to_the_left_then_the_player_may_trash():
    s = _masquerade_3p([["Masquerade", "Estate"], ["Gold", "Copper"], ["Silver"]])
    s = play(s, "Masquerade")
    assert asked(s, SELECT, 0, "pass").cards == ("Copper", "Curse", "Estate")
    s = step(s, ["Curse"])
    asked(s, SELECT, 1, "pass")
    assert hand(s, 0) == ["Copper", "Curse", "Estate"]  # nothing moves before all have chosen
    s = step(s, ["Gold"])  # seat 2 has one card: its choice is forced
    assert hand(s, 0) == ["Copper", "Estate", "Silver"]
    assert hand(s, 1) == ["Copper", "Curse"]
    assert hand(s, 2) == ["Gold"]
    d = asked(s, SELECT, 0, "trash")
    assert d.min == 0 and d.max == 1
    s = step(s, ["Estate"])
    assert trash(s) == ("Estate",)


def test_masquerade_skips_players_with_no_cards_in_hand():
    s = _masquerade_3p([["Masquerade", "Estate"], [], ["Silver", "Gold"]])
    s = go(play(s, "Masquerade"), ["Estate"])
    s = step(s, ["Gold"])
    asked(s, SELECT, 0, "trash")
    assert hand(s, 1) == []
    assert hand(s, 2) == ["Estate", "Silver"]
    assert hand(s, 0) == ["Copper", "Curse", "Gold"]


def test_masquerade_with_no_other_player_holding_cards_passes_nothing():
    s = _masquerade_3p([["Masquerade", "Estate"], [], []])
    s = play(s, "Masquerade")
    asked(s, SELECT, 0, "trash")
    assert hand(s, 0) == ["Copper", "Curse", "Estate"]


def test_masquerade_passed_card_is_seen_only_by_passer_and_receiver():
    s = _masquerade_3p([["Masquerade", "Estate"], ["Gold", "Copper"], ["Silver"]])
    s = go(play(s, "Masquerade"), ["Curse"], ["Gold"])
    assert ("Curse",) in seen(s, 0, "pass") and ("Curse",) in seen(s, 1, "pass")
    assert ("Curse",) not in seen(s, 2, "pass") and ("Curse",) not in seen(s, None, "pass")


def test_masquerade_is_not_an_attack_so_moat_cannot_be_revealed():
    s = at("Masquerade", hands=[["Masquerade", "Estate"], ["Moat", "Copper"]],
           decks=[["Curse", "Copper"]])
    s = go(play(s, "Masquerade"), ["Curse"])
    asked(s, SELECT, 1, "pass")


# --- Shanty Town ----------------------------------------------------------------------------

def test_shanty_town_reveals_the_hand_and_draws_two_without_actions_even_if_first_is_one():
    s = at("Shanty Town", hands=[["Shanty Town", "Copper", "Estate"]],
           decks=[["Village", "Silver", "Gold"]])
    s = play(s, "Shanty Town")
    assert hand(s) == ["Copper", "Estate", "Silver", "Village"] and actions(s) == 2
    assert ("Copper", "Estate") in seen(s, 1, "reveal")  # the revealed hand is public


def test_shanty_town_counts_action_victory_cards_as_action_cards():
    s = at("Shanty Town", hands=[["Shanty Town", "Nobles"]], decks=[["Silver", "Gold"]])
    s = play(s, "Shanty Town")
    assert hand(s) == ["Nobles"] and actions(s) == 2


# --- Steward --------------------------------------------------------------------------------

@pytest.mark.parametrize("option,cards,plus_coins", [("+2 Cards", 2, 0), ("+$2", 0, 2)])
def test_steward_does_only_the_chosen_option(option, cards, plus_coins):
    s = at("Steward", hands=[["Steward", "Estate"]], decks=[["Silver", "Gold"]])
    s = play(s, "Steward")
    assert asked(s, CHOOSE, purpose="choose").options == ("+2 Cards", "+$2", "trash 2 cards")
    s = step(s, option)
    assert len(hand(s)) == 1 + cards and coins(s) == plus_coins and trash(s) == ()


def test_steward_trash_option_with_one_card_in_hand_trashes_that_card():
    s = go(play(at("Steward", hands=[["Steward", "Estate"]]), "Steward"), "trash 2 cards")
    assert trash(s) == ("Estate",) and hand(s) == []


def test_steward_trash_option_with_two_or_more_cards_trashes_exactly_two():
    s = at("Steward", hands=[["Steward", "Estate", "Copper", "Curse"]])
    s = go(play(s, "Steward"), "trash 2 cards")
    d = asked(s, SELECT, purpose="trash")
    assert d.min == d.max == 2
    s = step(s, ["Curse", "Estate"])
    assert sorted(trash(s)) == ["Curse", "Estate"] and hand(s) == ["Copper"]


# --- Swindler -------------------------------------------------------------------------------

def test_swindler_attacker_chooses_the_victims_card_with_the_same_cost():
    s = at("Swindler", hands=[["Swindler"]], decks=[[], ["Silver", "Copper"]])
    s = play(s, "Swindler")
    d = asked(s, SELECT, 0, "give")
    assert d.cards == ("Silver", "Swindler", "Village", "Workshop") and d.min == d.max == 1
    s = step(s, ["Village"])
    assert trash(s) == ("Silver",) and zone(s, "discard", 1) == ("Village",) and coins(s) == 2
    assert deck_top_first(s, 1) == ["Copper"]


def test_swindler_may_give_a_curse_for_a_copper_or_the_same_card_back():
    s = play(at("Swindler", hands=[["Swindler"]], decks=[[], ["Copper"]]), "Swindler")
    assert asked(s, SELECT, 0, "give").cards == ("Copper", "Curse")
    assert zone(step(s, ["Curse"]), "discard", 1) == ("Curse",)
    assert zone(step(s, ["Copper"]), "discard", 1) == ("Copper",)


def test_swindler_matches_costs_after_bridge():
    s = at("Swindler", "Bridge", hands=[["Throne Room", "Bridge", "Swindler"]],
           decks=[[], ["Estate"]], actions=2)
    s = go(play(s, "Throne Room"), ["Bridge"])
    s = play(s, "Swindler")
    # Two Bridges: the trashed Estate and the $2 Kingdom cards now cost $0, like Copper.
    assert asked(s, SELECT, 0, "give").cards == ("Cellar", "Chapel", "Copper", "Curse",
                                                  "Estate", "Moat")


def test_swindler_victim_gains_nothing_when_no_supply_card_has_that_cost():
    s = at("Swindler", hands=[["Swindler"]], decks=[[], ["Gold"]], supply={"Gold": 0})
    s = play(s, "Swindler")
    assert pending(s).kind == TURN
    assert trash(s) == ("Gold",) and zone(s, "discard", 1) == ()


def test_swindler_victim_who_reveals_moat_neither_trashes_nor_gains():
    s = at("Swindler", hands=[["Swindler"], ["Moat"]], decks=[[], ["Silver"]])
    s = play(s, "Swindler")
    assert asked(s, SELECT, 1, "react").cards == ("Moat",)
    s = step(s, ["Moat"])
    assert pending(s).kind == TURN and trash(s) == () and deck_top_first(s, 1) == ["Silver"]


def test_swindler_victim_with_an_empty_deck_shuffles_first():
    s = at("Swindler", hands=[["Swindler"]], discards=[[], ["Silver"]])
    s = go(play(s, "Swindler"), ["Village"])
    assert trash(s) == ("Silver",) and zone(s, "discard", 1) == ("Village",)


def test_swindler_victim_with_no_cards_to_reveal_neither_trashes_nor_gains():
    s = play(at("Swindler", hands=[["Swindler"]]), "Swindler")
    assert pending(s).kind == TURN and trash(s) == ()


def test_swindler_resolves_victims_in_turn_order_from_the_left():
    s = at("Swindler", players=3, hands=[["Swindler"]], decks=[[], ["Silver"], ["Estate"]])
    s = play(s, "Swindler")
    assert "Player 2" in asked(s, SELECT, 0, "give").prompt
    s = step(s, ["Village"])
    assert zone(s, "discard", 1) == ("Village",)
    assert "Player 3" in asked(s, SELECT, 0, "give").prompt
    s = step(s, ["Moat"])
    assert zone(s, "discard", 2) == ("Moat",) and trash(s) == ("Silver", "Estate")


# --- Wishing Well ---------------------------------------------------------------------------

def test_wishing_well_names_any_supply_card_and_takes_the_revealed_card_if_named():
    s = at("Wishing Well", hands=[["Wishing Well"]], decks=[["Copper", "Gold"]])
    s = play(s, "Wishing Well")
    d = asked(s, SELECT, purpose="name")
    assert d.cards == tuple(sorted(supply(s))) and d.min == d.max == 1
    s = step(s, ["Gold"])
    assert hand(s) == ["Copper", "Gold"] and actions(s) == 1


def test_wishing_well_leaves_a_card_not_named_on_the_deck():
    s = go(play(at("Wishing Well", hands=[["Wishing Well"]], decks=[["Copper", "Gold"]]),
                "Wishing Well"), ["Silver"])
    assert hand(s) == ["Copper"] and deck_top_first(s) == ["Gold"]


# --- Baron ----------------------------------------------------------------------------------

def test_baron_discarding_an_estate_gives_four_coins():
    s = go(play(at("Baron", hands=[["Baron", "Estate"]]), "Baron"), "yes")
    assert coins(s) == 4 and buys(s) == 2 and zone(s, "discard", 0) == ("Estate",)
    assert supply_count(s, "Estate") == 8


def test_baron_not_discarding_an_estate_must_gain_one():
    s = play(at("Baron", hands=[["Baron", "Estate"]]), "Baron")
    assert asked(s, CHOOSE, purpose="discard").options == ("yes", "no")
    s = step(s, "no")
    assert coins(s) == 0 and hand(s) == ["Estate"] and zone(s, "discard", 0) == ("Estate",)
    assert supply_count(s, "Estate") == 7


def test_baron_without_an_estate_in_hand_gains_one_if_any_are_left():
    s = play(at("Baron", hands=[["Baron", "Copper"]]), "Baron")
    assert zone(s, "discard", 0) == ("Estate",)
    s = play(at("Baron", hands=[["Baron"]], supply={"Estate": 0}), "Baron")
    assert zone(s, "discard", 0) == () and buys(s) == 2


# --- Bridge ---------------------------------------------------------------------------------

def test_bridge_lowers_every_cost_by_one_but_not_below_zero():
    s = at("Bridge", hands=[["Bridge", "Silver", "Copper"]])
    s = play(s, "Bridge")
    assert coins(s) == 1 and buys(s) == 2
    assert cost(s, "Gold") == 5 and cost(s, "Estate") == 1 and cost(s, "Copper") == 0
    s = step(s, Move(dominion.PLAY_TREASURES))
    assert Move(dominion.BUY, "Duchy") in pending(s).moves  # $4 buys a Duchy now


def test_bridge_is_cumulative_under_throne_room():
    s = go(play(at("Bridge", hands=[["Throne Room", "Bridge"]]), "Throne Room"), ["Bridge"])
    seen = dominion.inspect(s)
    assert seen.effects.cost_reduction == 2 and seen.coins == 2 and seen.buys == 3
    assert cost(s, "Estate") == 0 and cost(s, "Province") == 6


def test_bridge_lets_ironworks_gain_a_duchy():
    s = at("Bridge", "Ironworks", hands=[["Bridge", "Ironworks"]], actions=2)
    s = play(play(s, "Bridge"), "Ironworks")
    assert "Duchy" in asked(s, SELECT, purpose="gain").cards


# --- Conspirator ----------------------------------------------------------------------------

def test_conspirator_counts_itself_as_the_third_action_played():
    s = at("Conspirator", hands=[["Village", "Village", "Conspirator"]],
           decks=[["Gold", "Silver", "Copper"]])
    s = play(play(play(s, "Village"), "Village"), "Conspirator")
    assert coins(s) == 2 and hand(s) == ["Copper", "Gold", "Silver"] and actions(s) == 3


def test_conspirator_with_fewer_than_three_actions_played_gives_only_coins():
    s = at("Conspirator", hands=[["Village", "Conspirator"]], decks=[["Gold", "Silver"]])
    s = play(play(s, "Village"), "Conspirator")
    assert coins(s) == 2 and hand(s) == ["Gold"] and actions(s) == 1


def test_throne_room_conspirator_second_play_is_the_third_action():
    s = at("Conspirator", hands=[["Throne Room", "Conspirator"]], decks=[["Gold", "Silver"]])
    s = go(play(s, "Throne Room"), ["Conspirator"])
    assert coins(s) == 4 and hand(s) == ["Gold"] and actions(s) == 1


# --- Courtier -------------------------------------------------------------------------------

def test_courtier_revealing_a_copper_gives_one_choice_and_gold_goes_to_the_discard():
    s = play(at("Courtier", hands=[["Courtier", "Copper"]]), "Courtier")
    d = asked(s, CHOOSE, purpose="choose")  # the only card is revealed without asking
    assert d.options == ("+1 Action", "+1 Buy", "+$3", "gain a Gold") and d.min == d.max == 1
    assert ("Copper",) in seen(s, 1, "reveal")
    s = step(s, "gain a Gold")
    assert zone(s, "discard", 0) == ("Gold",) and hand(s) == ["Copper"]


def test_courtier_revealing_a_two_type_card_gives_two_different_choices():
    s = play(at("Courtier", "Mill", hands=[["Courtier", "Mill", "Copper"]]), "Courtier")
    asked(s, SELECT, purpose="reveal")
    s = step(s, ["Mill"])
    assert asked(s, CHOOSE).min == 2
    with pytest.raises(dominion.IllegalAnswerError):
        step(s, ["+$3", "+$3"])
    s = step(s, ["+1 Action", "+$3"])
    assert actions(s) == 1 and coins(s) == 3 and buys(s) == 1


# --- Diplomat -------------------------------------------------------------------------------

@pytest.mark.parametrize("others,plus_actions", [(4, 0), (3, 2)])
def test_diplomat_gives_two_actions_only_with_five_or_fewer_cards_after_drawing(others,
                                                                                plus_actions):
    s = at("Diplomat", hands=[["Diplomat"] + ["Copper"] * others], decks=[["Silver", "Gold"]])
    s = play(s, "Diplomat")
    assert len(hand(s)) == others + 2 and actions(s) == plus_actions


def test_diplomat_can_be_revealed_only_from_a_hand_of_five_or_more():
    s = at("Diplomat", hands=[["Militia"], ["Diplomat", "Copper", "Copper", "Copper"]])
    s = play(s, "Militia")
    asked(s, SELECT, 1, "discard")  # straight to Militia's discard: no Reaction offered


def test_diplomat_reaction_draws_two_then_discards_three_before_the_attack():
    s = at("Diplomat", hands=[["Militia"], ["Diplomat"] + ["Copper"] * 4],
           decks=[[], ["Silver", "Gold", "Estate"]])
    s = play(s, "Militia")
    assert asked(s, SELECT, 1, "react").cards == ("Diplomat",)
    s = step(s, ["Diplomat"])
    d = asked(s, SELECT, 1, "discard")
    assert d.min == d.max == 3 and len(d.cards) == 7 and "Diplomat" in d.cards
    s = step(s, ["Copper", "Copper", "Copper"])
    # 4 cards left: Diplomat may not be revealed again; Militia then asks for a discard.
    assert hand(s, 1) == ["Copper", "Diplomat", "Gold", "Silver"]
    asked(s, SELECT, 1, "discard")


def test_diplomat_may_be_revealed_again_while_the_hand_still_has_five_or_more():
    s = at("Diplomat", hands=[["Militia"], ["Diplomat"] + ["Copper"] * 5],
           decks=[[], ["Silver", "Gold"]])
    s = go(play(s, "Militia"), ["Diplomat"], ["Copper", "Copper", "Copper"])
    assert asked(s, SELECT, 1, "react").cards == ("Diplomat",)


def test_moat_drawn_by_diplomat_can_then_be_revealed():
    s = at("Diplomat", hands=[["Militia"], ["Diplomat"] + ["Copper"] * 4],
           decks=[[], ["Moat", "Estate"]])
    s = go(play(s, "Militia"), ["Diplomat"], ["Copper", "Copper", "Copper"])
    assert asked(s, SELECT, 1, "react").cards == ("Moat",)
    s = step(s, ["Moat"])
    assert asked(s, TURN, 0) and hand(s, 1) == ["Copper", "Diplomat", "Estate", "Moat"]


# --- Duke, Harem, Nobles, Mill, Great Hall as Victory cards --------------------------------

def test_duke_is_worth_one_vp_per_duchy():
    assert player_score(("Duke", "Duke", "Duchy", "Duchy", "Duchy")) == 2 * 3 + 3 * 3
    assert player_score(("Duke",)) == 0


def test_harem_is_a_treasure_worth_2_coins_and_2_vp():
    s = step(at("Harem", hands=[["Harem"]], phase="buy"), Move(dominion.PLAY, "Harem"))
    assert coins(s) == 2
    assert player_score(("Harem",)) == 2


def test_dual_typed_victory_cards_score_their_vp():
    assert player_score(("Nobles", "Mill", "Great Hall")) == 2 + 1 + 1


# --- Ironworks ------------------------------------------------------------------------------

@pytest.mark.parametrize("gained,plus_actions,plus_coins,cards", [
    ("Village", 1, 0, 0), ("Silver", 0, 1, 0), ("Estate", 0, 0, 1),
    ("Mill", 1, 0, 1), ("Great Hall", 1, 0, 1)])
def test_ironworks_gives_a_bonus_per_type_of_the_gained_card(gained, plus_actions, plus_coins,
                                                             cards):
    s = at("Ironworks", "Mill", "Great Hall", hands=[["Ironworks"]], decks=[["Gold"]])
    s = go(play(s, "Ironworks"), [gained])
    assert zone(s, "discard", 0) == (gained,)
    assert (actions(s), coins(s), len(hand(s))) == (plus_actions, plus_coins, cards)


def test_ironworks_gains_a_card_costing_up_to_four():
    d = asked(play(at("Ironworks", hands=[["Ironworks"]]), "Ironworks"), SELECT, purpose="gain")
    assert "Smithy" in d.cards and "Ironworks" in d.cards
    assert "Gold" not in d.cards and "Duchy" not in d.cards


# --- Mill -----------------------------------------------------------------------------------

def test_mill_discarding_two_cards_gives_two_coins():
    s = at("Mill", hands=[["Mill", "Copper", "Estate"]], decks=[["Silver"]])
    s = play(s, "Mill")
    assert actions(s) == 1 and asked(s, CHOOSE, purpose="discard").options == ("yes", "no")
    s = go(s, "yes")
    assert asked(s, SELECT, purpose="discard").min == 2
    s = step(s, ["Copper", "Estate"])
    assert coins(s) == 2 and hand(s) == ["Silver"]


def test_mill_may_discard_with_one_card_in_hand_but_gives_no_coins():
    s = go(play(at("Mill", hands=[["Mill"]], decks=[["Silver"]]), "Mill"), "yes")
    assert zone(s, "discard", 0) == ("Silver",) and coins(s) == 0


def test_mill_declined_discards_nothing():
    s = go(play(at("Mill", hands=[["Mill", "Copper"]], decks=[["Silver"]]), "Mill"), "no")
    assert hand(s) == ["Copper", "Silver"] and coins(s) == 0


# --- Mining Village -------------------------------------------------------------------------

def test_mining_village_may_be_trashed_right_then_for_two_coins():
    s = play(at("Mining Village", hands=[["Mining Village"]], decks=[["Copper"]]),
             "Mining Village")
    assert asked(s, CHOOSE, purpose="trash").options == ("yes", "no")
    kept = step(s, "no")
    assert coins(kept) == 0 and zone(kept, "in_play") == ("Mining Village",)
    s = step(s, "yes")
    assert coins(s) == 2 and trash(s) == ("Mining Village",) and actions(s) == 2
    assert hand(s) == ["Copper"]


def test_throne_room_mining_village_is_trashed_only_once():
    s = at("Mining Village", hands=[["Throne Room", "Mining Village"]],
           decks=[["Copper", "Copper"]])
    s = go(play(s, "Throne Room"), ["Mining Village"], "yes")
    assert pending(s).kind == TURN  # the second play does not offer to trash it again
    assert coins(s) == 2 and trash(s) == ("Mining Village",) and actions(s) == 4
    assert hand(s) == ["Copper", "Copper"]


# --- Minion ---------------------------------------------------------------------------------

def test_minion_plus_two_coins_option():
    s = play(at("Minion", hands=[["Minion"], ["Copper"] * 5]), "Minion")
    assert asked(s, CHOOSE, purpose="choose").options == ("+$2", "discard your hand, +4 Cards")
    s = step(s, "+$2")
    assert coins(s) == 2 and actions(s) == 1 and len(hand(s, 1)) == 5


def test_minion_players_with_five_or_more_cards_discard_and_draw_four_others_not():
    s = at("Minion", players=3,
           hands=[["Minion", "Estate"], ["Copper"] * 5, ["Copper"] * 4],
           decks=[["Gold"] * 4, ["Silver"] * 4, ["Gold"] * 4])
    s = go(play(s, "Minion"), "discard your hand, +4 Cards")
    assert hand(s, 0) == ["Gold"] * 4 and zone(s, "discard", 0) == ("Estate",)
    assert hand(s, 1) == ["Silver"] * 4 and len(zone(s, "discard", 1)) == 5
    assert hand(s, 2) == ["Copper"] * 4


def test_minion_reactions_come_before_the_choice_and_moat_avoids_discard_and_draw():
    s = at("Minion", hands=[["Minion"], ["Moat"] + ["Copper"] * 4], decks=[[], ["Gold"] * 4])
    s = play(s, "Minion")
    asked(s, SELECT, 1, "react")  # before Minion's player chooses
    s = go(s, ["Moat"], "discard your hand, +4 Cards")
    assert hand(s, 1) == ["Copper"] * 4 + ["Moat"]


# --- Nobles ---------------------------------------------------------------------------------

@pytest.mark.parametrize("option,cards,plus_actions", [("+3 Cards", 3, 0), ("+2 Actions", 0, 2)])
def test_nobles_is_played_as_an_action_choosing_cards_or_actions(option, cards, plus_actions):
    s = play(at("Nobles", hands=[["Nobles"]], decks=[["Copper"] * 3]), "Nobles")
    assert asked(s, CHOOSE, purpose="choose").options == ("+3 Cards", "+2 Actions")
    s = step(s, option)
    assert len(hand(s)) == cards and actions(s) == plus_actions


# --- Patrol ---------------------------------------------------------------------------------

def test_patrol_takes_revealed_victory_cards_and_curses_and_puts_the_rest_back_in_order():
    s = at("Patrol", hands=[["Patrol"]],
           decks=[["Copper"] * 3 + ["Estate", "Curse", "Silver", "Village", "Gold"]])
    s = play(s, "Patrol")
    d = asked(s, ORDER, purpose="order")
    assert d.cards == ("Silver", "Village")
    assert hand(s) == ["Copper"] * 3 + ["Curse", "Estate"]
    s = step(s, ["Village", "Silver"])
    assert deck_top_first(s) == ["Village", "Silver", "Gold"]
    assert seen(s, 1, "topdeck") == [()]  # the order put back stays private


def test_patrol_takes_dual_typed_victory_cards():
    s = at("Patrol", hands=[["Patrol"]],
           decks=[["Copper"] * 3 + ["Nobles", "Harem", "Mill", "Great Hall"]])
    s = play(s, "Patrol")
    assert hand(s) == ["Copper"] * 3 + ["Great Hall", "Harem", "Mill", "Nobles"]


# --- Replace --------------------------------------------------------------------------------

@pytest.mark.parametrize("gained", ["Smithy", "Silver"])
def test_replace_puts_a_gained_action_or_treasure_onto_the_deck(gained):
    s = play(at("Replace", hands=[["Replace", "Estate"]], decks=[["Gold"]]), "Replace")
    d = asked(s, SELECT, purpose="gain")  # the only card in hand is trashed without asking
    assert "Smithy" in d.cards and "Duchy" not in d.cards and trash(s) == ("Estate",)
    s = step(s, [gained])
    assert deck_top_first(s) == [gained, "Gold"] and zone(s, "discard", 1) == ()


def test_replace_gaining_a_victory_card_gives_each_other_player_a_curse():
    s = at("Replace", players=3, hands=[["Replace", "Silver"]])
    s = go(play(s, "Replace"), ["Duchy"])
    assert zone(s, "discard", 0) == ("Duchy",)
    assert zone(s, "discard", 1) == ("Curse",) and zone(s, "discard", 2) == ("Curse",)


def test_replace_gaining_a_dual_type_card_goes_on_the_deck_and_curses():
    s = go(play(at("Replace", "Mill", hands=[["Replace", "Estate"]]), "Replace"), ["Mill"])
    assert deck_top_first(s) == ["Mill"] and zone(s, "discard", 1) == ("Curse",)


def test_replace_curse_does_not_reach_a_player_who_revealed_moat():
    s = at("Replace", players=3, hands=[["Replace", "Silver"], ["Moat"]])
    s = go(play(s, "Replace"), ["Moat"], ["Duchy"])
    assert zone(s, "discard", 1) == () and zone(s, "discard", 2) == ("Curse",)


# --- Secret Passage -------------------------------------------------------------------------

def test_secret_passage_puts_a_card_from_hand_anywhere_in_the_deck_privately():
    s = at("Secret Passage", hands=[["Secret Passage", "Gold"]],
           decks=[["Copper", "Copper", "Estate", "Estate", "Silver"]])
    s = play(s, "Secret Passage")
    assert actions(s) == 1
    s = step(s, ["Gold"])
    d = asked(s, CHOOSE, purpose="position")
    assert d.options == ("0", "1", "2", "3")
    for above, expected in (("0", ["Gold", "Estate", "Estate", "Silver"]),
                            ("2", ["Estate", "Estate", "Gold", "Silver"]),
                            ("3", ["Estate", "Estate", "Silver", "Gold"])):
        assert deck_top_first(step(s, above)) == expected
    assert seen(step(s, "2"), 1, "insert") == [()]


def test_secret_passage_card_put_into_an_empty_deck_is_its_only_card():
    s = at("Secret Passage", hands=[["Secret Passage", "Gold"]], decks=[["Copper", "Copper"]])
    s = go(play(s, "Secret Passage"), ["Gold"])
    assert zone(s, "deck", 0) == ("Gold",) and hand(s) == ["Copper", "Copper"]


# --- Torturer -------------------------------------------------------------------------------

def test_torturer_victims_choose_in_turn_order_and_may_choose_a_curse_when_none_are_left():
    s = at("Torturer", players=3, hands=[["Torturer"], ["Copper"] * 3, ["Copper"] * 3],
           supply={"Curse": 1})
    s = play(s, "Torturer")
    d = asked(s, CHOOSE, 1, "choose")
    assert d.options == ("discard 2 cards", "gain a Curse to your hand")
    s = step(s, "gain a Curse to your hand")
    assert hand(s, 1) == ["Copper"] * 3 + ["Curse"]  # to the hand, before seat 2 chooses
    asked(s, CHOOSE, 2)
    s = step(s, "gain a Curse to your hand")
    assert hand(s, 2) == ["Copper"] * 3 and supply_count(s, "Curse") == 0


def test_torturer_victim_may_choose_to_discard_two_with_one_card_in_hand():
    s = at("Torturer", hands=[["Torturer"], ["Estate"]])
    s = go(play(s, "Torturer"), "discard 2 cards")
    assert hand(s, 1) == [] and zone(s, "discard", 1) == ("Estate",)


def test_torturer_victim_with_more_cards_discards_exactly_two_showing_only_the_top_one():
    s = go(play(at("Torturer", hands=[["Torturer"], ["Estate", "Copper", "Gold"]]),
                "Torturer"), "discard 2 cards")
    assert asked(s, SELECT, 1, "discard").min == 2
    s = step(s, ["Copper", "Estate"])
    assert hand(s, 1) == ["Gold"] and len(zone(s, "discard", 1)) == 2
    assert seen(s, 0, "discard") == [()] and seen(s, 1, "discard") == [("Copper", "Estate")]


# --- Trading Post ---------------------------------------------------------------------------

def test_trading_post_trashes_two_and_gains_a_silver_to_the_hand():
    s = play(at("Trading Post", hands=[["Trading Post", "Copper", "Estate", "Estate"]]),
             "Trading Post")
    assert asked(s, SELECT, purpose="trash").min == 2
    s = step(s, ["Estate", "Estate"])
    assert hand(s) == ["Copper", "Silver"] and trash(s) == ("Estate", "Estate")
    assert supply_count(s, "Silver") == 39


def test_trading_post_with_one_card_trashes_it_and_gains_nothing():
    s = play(at("Trading Post", hands=[["Trading Post", "Estate"]]), "Trading Post")
    assert trash(s) == ("Estate",) and hand(s) == [] and supply_count(s, "Silver") == 40


def test_trading_post_with_no_silver_left_still_trashes():
    s = play(at("Trading Post", hands=[["Trading Post", "Estate", "Copper"]],
                supply={"Silver": 0}), "Trading Post")
    assert sorted(trash(s)) == ["Copper", "Estate"] and hand(s) == []


# --- Upgrade --------------------------------------------------------------------------------

def test_upgrade_gains_a_card_costing_exactly_one_more():
    s = play(at("Upgrade", hands=[["Upgrade", "Estate"]], decks=[["Copper"]]), "Upgrade")
    assert actions(s) == 1
    s = step(s, ["Estate"])
    d = asked(s, SELECT, purpose="gain")
    assert d.cards == ("Silver", "Village", "Workshop") and d.min == 1
    s = step(s, ["Silver"])
    assert zone(s, "discard", 0) == ("Silver",) and hand(s) == ["Copper"]


def test_upgrade_with_nothing_at_that_cost_still_trashes_and_gains_nothing():
    s = play(at("Upgrade", hands=[["Upgrade"]], decks=[["Copper"]]), "Upgrade")
    assert pending(s).kind == TURN and trash(s) == ("Copper",) and zone(s, "discard", 0) == ()


def test_bridge_then_upgrade_turns_a_copper_into_an_estate():
    s = at("Upgrade", "Bridge", hands=[["Bridge", "Upgrade", "Copper"]], decks=[["Curse"]],
           actions=2)
    s = go(play(play(s, "Bridge"), "Upgrade"), ["Copper"])
    assert "Estate" in asked(s, SELECT, purpose="gain").cards


# --- Secret Chamber (1st edition) -----------------------------------------------------------

def test_secret_chamber_discards_any_number_for_one_coin_each():
    s = play(at("Secret Chamber", hands=[["Secret Chamber", "Copper", "Estate", "Estate"]]),
             "Secret Chamber")
    d = asked(s, SELECT, purpose="discard")
    assert d.min == 0 and d.max == 3
    s = step(s, ["Estate", "Estate"])
    assert coins(s) == 2 and hand(s) == ["Copper"]


def test_secret_chamber_reaction_draws_two_then_puts_two_on_the_deck_in_any_order():
    s = at("Secret Chamber", hands=[["Militia"], ["Secret Chamber"] + ["Copper"] * 4],
           decks=[[], ["Gold", "Silver", "Estate"]])
    s = go(play(s, "Militia"), ["Secret Chamber"])
    d = asked(s, SELECT, 1, "topdeck")
    assert d.min == d.max == 2 and "Gold" in d.cards
    s = go(s, ["Gold", "Secret Chamber"])
    assert asked(s, ORDER, 1).cards == ("Gold", "Secret Chamber")
    s = step(s, ["Secret Chamber", "Gold"])
    assert deck_top_first(s, 1) == ["Secret Chamber", "Gold", "Estate"]
    assert hand(s, 1) == ["Copper"] * 4 + ["Silver"]
    asked(s, SELECT, 1, "discard")  # then Militia hits


def test_moat_drawn_by_secret_chamber_can_then_be_revealed():
    s = at("Secret Chamber", hands=[["Militia"], ["Secret Chamber"] + ["Copper"] * 4],
           decks=[[], ["Moat", "Copper"]])
    s = go(play(s, "Militia"), ["Secret Chamber"], ["Copper", "Copper"])
    assert asked(s, SELECT, 1, "react").cards == ("Moat", "Secret Chamber")
    s = go(s, ["Moat"], [])
    assert asked(s, TURN, 0) and len(hand(s, 1)) == 5


def test_secret_chamber_may_be_revealed_against_minion_with_fewer_than_five_cards():
    s = play(at("Minion", "Secret Chamber", hands=[["Minion"], ["Secret Chamber", "Copper"]]),
             "Minion")
    assert asked(s, SELECT, 1, "react").cards == ("Secret Chamber",)


# --- Great Hall, Coppersmith, Scout (1st edition) -------------------------------------------

def test_great_hall_gives_a_card_and_an_action_and_is_worth_1_vp():
    s = play(at("Great Hall", hands=[["Great Hall"]], decks=[["Silver"]]), "Great Hall")
    assert hand(s) == ["Silver"] and actions(s) == 1
    assert player_score(("Great Hall",)) == 1


def test_coppersmith_makes_each_copper_produce_one_more():
    s = play(at("Coppersmith", hands=[["Coppersmith", "Copper", "Copper", "Silver"]]),
             "Coppersmith")
    s = step(s, Move(dominion.PLAY_TREASURES))
    assert coins(s) == 2 * 2 + 2


def test_throne_room_coppersmith_makes_each_copper_produce_three():
    s = at("Coppersmith", hands=[["Throne Room", "Coppersmith", "Copper", "Copper"]])
    s = go(play(s, "Throne Room"), ["Coppersmith"], Move(dominion.PLAY_TREASURES))
    assert coins(s) == 6


def test_scout_takes_revealed_victory_cards_but_not_curses_and_puts_the_rest_back():
    s = at("Scout", hands=[["Scout"]], decks=[["Estate", "Curse", "Nobles", "Silver", "Gold"]])
    s = play(s, "Scout")
    assert actions(s) == 1 and hand(s) == ["Estate", "Nobles"]
    assert asked(s, ORDER).cards == ("Curse", "Silver")
    s = step(s, ["Silver", "Curse"])
    assert deck_top_first(s) == ["Silver", "Curse", "Gold"]


# --- Saboteur (1st edition) -----------------------------------------------------------------

def test_saboteur_trashes_the_first_card_costing_3_or_more_and_may_gain_one_costing_2_less():
    s = at("Saboteur", hands=[["Saboteur"]], decks=[[], ["Copper", "Estate", "Gold", "Silver"]])
    s = play(s, "Saboteur")
    d = asked(s, SELECT, 1, "gain")
    assert d.min == 0 and "Smithy" in d.cards and "Gold" not in d.cards
    s = step(s, ["Smithy"])
    assert trash(s) == ("Gold",) and discard_of(s, 1) == ["Copper", "Estate", "Smithy"]
    assert deck_top_first(s, 1) == ["Silver"]


def test_saboteur_gain_is_optional():
    s = at("Saboteur", hands=[["Saboteur"]], decks=[[], ["Silver"]])
    s = go(play(s, "Saboteur"), [])
    assert trash(s) == ("Silver",) and zone(s, "discard", 1) == ()


def test_saboteur_without_a_card_costing_3_discards_everything_revealed():
    s = at("Saboteur", hands=[["Saboteur"]], decks=[[], ["Copper", "Estate", "Curse"]])
    s = play(s, "Saboteur")
    assert pending(s).kind == TURN and trash(s) == ()
    assert discard_of(s, 1) == ["Copper", "Curse", "Estate"]


def test_saboteur_compares_costs_after_bridge():
    s = at("Saboteur", "Bridge", hands=[["Bridge", "Saboteur"]],
           decks=[[], ["Silver", "Smithy"]], actions=2)
    s = play(play(s, "Bridge"), "Saboteur")  # Silver costs $2 now: Smithy ($3) is trashed
    d = asked(s, SELECT, 1, "gain")
    assert "Estate" in d.cards and "Silver" not in d.cards
    s = step(s, [])
    assert trash(s) == ("Smithy",) and zone(s, "discard", 1) == ("Silver",)


def test_saboteur_reshuffle_does_not_include_the_revealed_cards():
    s = at("Saboteur", hands=[["Saboteur"]], decks=[[], ["Copper"]],
           discards=[[], ["Gold", "Estate"]])
    s = go(play(s, "Saboteur"), [])
    assert trash(s) == ("Gold",) and "Copper" in zone(s, "discard", 1)
    assert sorted(zone(s, "discard", 1) + zone(s, "deck", 1)) == ["Copper", "Estate"]


# --- Tribute (1st edition) ------------------------------------------------------------------

def test_tribute_copper_and_harem_give_four_coins_and_two_cards():
    s = at("Tribute", hands=[["Tribute"]], decks=[["Silver", "Gold"], ["Copper", "Harem"]])
    s = play(s, "Tribute")
    assert coins(s) == 4 and hand(s) == ["Gold", "Silver"]
    assert discard_of(s, 1) == ["Copper", "Harem"]
    assert ("Copper", "Harem") in seen(s, 0, "reveal")


def test_tribute_counts_two_identical_cards_once():
    s = play(at("Tribute", hands=[["Tribute"]], decks=[[], ["Silver", "Silver"]]), "Tribute")
    assert coins(s) == 2


def test_tribute_curse_gives_nothing():
    s = play(at("Tribute", hands=[["Tribute"]], decks=[["Gold"], ["Curse", "Curse"]]), "Tribute")
    assert (coins(s), actions(s), hand(s)) == (0, 0, [])


def test_tribute_dual_typed_cards_give_both_bonuses():
    s = at("Tribute", hands=[["Tribute"]], decks=[["Gold"] * 4, ["Nobles", "Great Hall"]])
    s = play(s, "Tribute")
    assert actions(s) == 4 and hand(s) == ["Gold"] * 4


def test_tribute_left_player_shuffles_to_reveal_the_second_card():
    s = at("Tribute", hands=[["Tribute"]], decks=[[], ["Village"]], discards=[[], ["Gold"]])
    s = play(s, "Tribute")
    assert actions(s) == 2 and coins(s) == 2 and discard_of(s, 1) == ["Gold", "Village"]


def test_tribute_left_player_with_one_card_reveals_what_they_can():
    s = at("Tribute", players=3, hands=[["Tribute"]], decks=[[], ["Village"], ["Gold", "Gold"]])
    s = play(s, "Tribute")
    assert actions(s) == 2 and coins(s) == 0 and zone(s, "discard", 1) == ("Village",)
    assert zone(s, "discard", 2) == ()


# --- Recommended Kingdoms -------------------------------------------------------------------

INTRIGUE_SETS = [name for name, (sets, _) in RECOMMENDED.items()
                 if any(s.startswith("intrigue") for s in sets)]
TURN_CAP = 3000


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("kingdom", INTRIGUE_SETS)
def test_recommended_intrigue_kingdom_plays_to_the_end_with_random_bots(kingdom, players):
    s = dominion.new_game(players=players, kingdom=kingdom, seed=players * 7 + len(kingdom))
    bots = [make_bot("random", seed) for seed in range(players)]
    while not dominion.is_over(s):
        assert turn(s) <= TURN_CAP, f"{kingdom} with {players} players did not end"
        d = pending(s)
        s = step(s, bots[d.player].answer(d, dominion.view(s, d.player, log_from=None)),
                 d.player)
    assert dominion.winners(s)


# --- Review: rulings across cards -----------------------------------------------------------

def test_diplomats_are_revealed_one_at_a_time():
    """Rulebook, Diplomat: "you cannot reveal two Diplomats simultaneously"."""
    s = at("Diplomat", hands=[["Militia"], ["Diplomat", "Diplomat"] + ["Copper"] * 4],
           decks=[[], ["Silver", "Gold", "Estate", "Estate"]])
    d = asked(play(s, "Militia"), SELECT, 1, "react")
    assert d.cards == ("Diplomat",) and d.max == 1


def test_secret_chamber_may_be_revealed_after_moat_against_an_attack_that_no_longer_hits():
    """Rulebook (1st ed.), Secret Chamber: it may be revealed "even if that Attack would not
    affect you"; Moat still protects afterwards."""
    s = at("Secret Chamber", hands=[["Militia"], ["Moat", "Secret Chamber"] + ["Copper"] * 3],
           decks=[[], ["Gold", "Silver"]])
    s = play(s, "Militia")
    assert asked(s, SELECT, 1, "react").cards == ("Moat", "Secret Chamber")
    s = step(s, ["Moat"])
    assert asked(s, SELECT, 1, "react").cards == ("Secret Chamber",)  # Moat not again
    s = go(s, ["Secret Chamber"], ["Copper", "Copper"])
    assert asked(s, SELECT, 1, "react").cards == ("Secret Chamber",)  # still in hand
    s = step(s, [])
    assert asked(s, TURN, 0)  # protected: no Militia discard
    assert hand(s, 1) == ["Copper", "Gold", "Moat", "Secret Chamber", "Silver"]


def test_tribute_is_not_an_attack_so_moat_cannot_be_revealed():
    s = at("Tribute", hands=[["Tribute"], ["Moat"]], decks=[[], ["Gold", "Estate"]])
    s = play(s, "Tribute")
    assert asked(s, TURN, 0) and coins(s) == 2 and discard_of(s, 1) == ["Estate", "Gold"]


def test_courtier_counts_attack_as_a_type():
    """Rulebook, Courtier: the types include Attack and Reaction."""
    s = play(at("Courtier", hands=[["Courtier", "Militia"]]), "Courtier")
    assert asked(s, CHOOSE, purpose="choose").min == 2


def test_conspirator_counts_an_action_played_by_vassal():
    """Conspirator counts Actions played this turn; Vassal's Action is played."""
    s = at("Vassal", "Conspirator", hands=[["Village", "Vassal"]],
           decks=[["Copper", "Conspirator", "Estate"]])
    s = go(play(play(s, "Village"), "Vassal"), "yes")
    assert hand(s) == ["Copper", "Estate"] and actions(s) == 2 and coins(s) == 4


def test_replace_compares_costs_after_bridge():
    s = at("Replace", "Bridge", hands=[["Village", "Bridge", "Replace", "Gold"]],
           decks=[["Copper"]])
    s = go(play(play(play(s, "Village"), "Bridge"), "Replace"), ["Gold"])
    assert "Province" in asked(s, SELECT, purpose="gain").cards


def test_throne_room_on_torturer_lets_the_others_react_before_each_play():
    s = at("Torturer", "Diplomat",
           hands=[["Throne Room", "Torturer"], ["Diplomat"] + ["Copper"] * 4],
           decks=[["Copper"] * 6, ["Estate"] * 4])
    s = go(play(s, "Throne Room"), ["Torturer"])
    assert asked(s, SELECT, 1, "react").cards == ("Diplomat",)
    s = go(s, [], "gain a Curse to your hand")
    assert asked(s, SELECT, 1, "react").cards == ("Diplomat",)  # the second play
