"""VP by card (the end screen's breakdown): each kind of card with its count and the VP the
cards give together, summing to the player's score (rulebooks: Gardens by the whole deck, Duke
by the Duchies)."""
from __future__ import annotations

import dominion


def test_gardens_and_duke_count_the_whole_deck_and_the_parts_sum_to_the_score():
    cards = ["Gardens"] * 2 + ["Copper"] * 25 + ["Duke", "Duchy", "Estate", "Curse"]
    rows = dominion.score_by_card(cards)
    assert rows == (("Copper", 25, 0), ("Curse", 1, -1), ("Duchy", 1, 3), ("Duke", 1, 1),
                    ("Estate", 1, 1), ("Gardens", 2, 6))
    assert sum(vp for _, _, vp in rows) == dominion.player_score(cards)
    assert sum(n for _, n, _ in rows) == len(cards)


def test_a_deck_of_fixed_vp_cards_scores_card_by_card():
    cards = ["Province", "Harem", "Nobles", "Great Hall", "Mill", "Silver"]
    assert {name: vp for name, _, vp in dominion.score_by_card(cards)} == {
        "Province": 6, "Harem": 2, "Nobles": 2, "Great Hall": 1, "Mill": 1, "Silver": 0}
