"""Setup (Supply sizes, starting decks, Kingdoms), bad configurations, game end and scoring."""
from collections import Counter

import pytest

import dominion
from dominion import END_PHASE, Move
from tests.support import PLAIN_KINGDOM, at, buys, coins, current, phase, supply, zone

SIZES = {  # cards.md, Supply sizes: pile -> counts for 2..6 players
    "Copper": (46, 39, 32, 85, 78), "Silver": (40, 40, 40, 80, 80), "Gold": (30, 30, 30, 60, 60),
    "Estate": (8, 12, 12, 12, 12), "Duchy": (8, 12, 12, 12, 12),
    "Province": (8, 12, 12, 15, 18), "Curse": (10, 20, 30, 40, 50),
    "Gardens": (8, 12, 12, 12, 12), "Smithy": (10, 10, 10, 10, 10),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_supply_sizes_follow_the_table_for_each_player_count(players):
    s = dominion.new_game(players=players, kingdom=PLAIN_KINGDOM, seed=1)
    counts = supply(s)
    for pile, sizes in SIZES.items():
        assert counts[pile] == sizes[players - 2], pile


@pytest.mark.parametrize("players", [2, 6])
def test_each_player_starts_with_7_coppers_and_3_estates_and_draws_5(players):
    s = dominion.new_game(players=players, kingdom=PLAIN_KINGDOM, seed=3)
    for p in dominion.inspect(s).seats:
        assert Counter(p.hand + p.deck + p.discard) == Counter(Copper=7, Estate=3)
        assert len(p.hand) == 5 and len(p.deck) == 5


def test_supply_lists_basics_then_the_kingdom_by_cost():
    s = dominion.new_game(kingdom=PLAIN_KINGDOM, seed=1)
    piles = tuple(supply(s))
    assert piles[:7] == ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")
    costs = [dominion.CARDS[n].cost for n in piles[7:]]
    assert costs == sorted(costs) and sorted(piles[7:]) == sorted(PLAIN_KINGDOM)


def test_the_starting_player_is_drawn_with_the_seed():
    firsts = {dominion.new_game(players=4, kingdom=PLAIN_KINGDOM, seed=s).current
              for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert dominion.new_game(players=4, kingdom=PLAIN_KINGDOM, seed=5, first_player=2).current == 2


def test_unknown_card_in_kingdom_is_refused_with_the_known_names():
    with pytest.raises(dominion.UnknownCardError, match="Smithee"):
        dominion.new_game(kingdom=PLAIN_KINGDOM[:9] + ("Smithee",))


@pytest.mark.parametrize("kingdom, message", [
    (PLAIN_KINGDOM[:9], "exactly 10"),
    (PLAIN_KINGDOM[:9] + ("Smithy",), "different"),
    (PLAIN_KINGDOM[:9] + ("Gold",), "basic card"),
    ("No Such Set", "unknown Kingdom"),
])
def test_a_kingdom_must_be_10_distinct_kingdom_cards(kingdom, message):
    with pytest.raises(dominion.InvalidKingdomError, match=message):
        dominion.new_game(kingdom=kingdom)


@pytest.mark.parametrize("players", [0, 1, 7, "two", True])
def test_player_count_outside_2_to_6_is_refused(players):
    with pytest.raises(dominion.InvalidConfigError):
        dominion.new_game(players=players, kingdom=PLAIN_KINGDOM)


def test_unknown_set_for_a_random_kingdom_is_refused():
    with pytest.raises(dominion.InvalidKingdomError, match="unknown set"):
        dominion.new_game(kingdom="random", sets=["seaside"])


def test_random_kingdom_is_drawn_from_the_chosen_sets_with_the_seed():
    a = dominion.new_game(kingdom="random", sets=["base-2e"], seed=9)
    b = dominion.new_game(kingdom="random", sets=["base-2e"], seed=9)
    assert a.config.kingdom == b.config.kingdom
    assert all("base-2e" in dominion.CARDS[n].editions for n in a.config.kingdom)
    kingdoms = {dominion.new_game(kingdom="random", sets=["base-2e"], seed=s).config.kingdom
                for s in range(5)}
    assert len(kingdoms) > 1


def test_first_edition_pool_includes_the_cards_both_editions_share():
    pool = dominion.kingdom_pool(["base-1e"])
    assert {"Adventurer", "Chancellor", "Feast", "Spy", "Thief", "Woodcutter"} <= set(pool)
    assert "Smithy" in pool and "Bandit" not in pool and "Harbinger" not in pool


def test_every_recommended_kingdom_resolves_to_ten_known_cards():
    for name, (sets, cards) in dominion.RECOMMENDED.items():
        assert len(set(cards)) == 10, name
        if all(c in dominion.CARDS for c in cards):
            assert dominion.resolve_kingdom(name) == cards


def test_the_game_ends_at_the_end_of_the_turn_the_last_province_is_bought():
    s = at(hands=[["Gold", "Gold", "Silver", "Copper", "Estate"]], phase="buy",
           supply={"Province": 1})
    s = dominion.step(s, Move("play_treasures"))
    s = dominion.step(s, Move("buy", "Province"))
    assert dominion.pending(s) is None and phase(s) == "over"


def test_three_empty_piles_end_the_game_with_four_players_or_fewer():
    s = at(players=4, hands=[["Copper"] * 5], phase="buy", coins=2,
           supply={"Curse": 0, "Smithy": 0, "Estate": 1})
    s = dominion.step(s, Move("buy", "Estate"))
    assert dominion.pending(s) is None


def test_three_empty_piles_do_not_end_a_five_player_game_but_four_do():
    s = at(players=5, hands=[["Copper"] * 5], phase="buy", coins=2,
           supply={"Curse": 0, "Smithy": 0, "Estate": 1})
    s = dominion.step(s, Move("buy", "Estate"))
    assert dominion.pending(s) is not None
    s = at(players=5, hands=[["Copper"] * 5], phase="buy", coins=2,
           supply={"Curse": 0, "Smithy": 0, "Chapel": 0, "Estate": 1})
    s = dominion.step(s, Move("buy", "Estate"))
    assert dominion.pending(s) is None


def test_the_game_does_not_end_mid_turn_when_the_provinces_run_out():
    s = at(hands=[["Gold"] * 5 + ["Gold"] * 1], phase="buy", buys=2, supply={"Province": 1})
    s = dominion.step(s, Move("play_treasures"))
    s = dominion.step(s, Move("buy", "Province"))
    assert dominion.pending(s) is not None and current(s) == 0  # second buy still to do
    s = dominion.step(s, Move("buy", "Gold"))
    assert dominion.pending(s) is None


def test_scoring_counts_every_zone_and_curses():
    s = at(hands=[["Province", "Curse"]], decks=[["Duchy"]], discards=[["Estate"]],
           in_play=[["Copper"]])
    assert dominion.score(s)[0] == 6 - 1 + 3 + 1


def test_a_tie_goes_to_the_player_with_fewer_turns():
    s = at(hands=[["Province"], ["Province"]], current=0, turn=3)
    # seat 0 is on its 3rd turn, seat 1 has had 2: seat 1 wins the tie
    assert dominion.winners(s) == (1,)


def test_a_tie_with_equal_turns_is_shared():
    s = at(hands=[["Province"], ["Province"]], current=1, turn=3)
    assert dominion.winners(s) == (0, 1)


def test_position_rejects_a_card_that_does_not_exist():
    with pytest.raises(dominion.UnknownCardError):
        at(hands=[["Copper", "Platinum"]])


def test_position_rejects_a_negative_supply_count():
    with pytest.raises(dominion.InvalidPositionError):
        at(supply={"Gold": -1})


def test_an_answer_after_the_game_is_over_is_refused():
    s = at(hands=[["Copper"] * 5], phase="buy", supply={"Province": 0})
    s = dominion.step(s, Move(END_PHASE))
    assert dominion.pending(s) is None
    with pytest.raises(dominion.GameOverError):
        dominion.step(s, Move(END_PHASE))


def test_buying_costs_coins_and_a_buy():
    s = at(hands=[["Gold", "Gold", "Copper"]], phase="buy", buys=2)
    s = dominion.step(s, Move("play_treasures"))
    assert coins(s) == 7
    s = dominion.step(s, Move("buy", "Gold"))
    assert coins(s) == 1 and buys(s) == 1
    moves = dominion.pending(s).moves
    assert Move("buy", "Copper") in moves and Move("buy", "Silver") not in moves


def test_cleanup_puts_hand_under_played_cards_so_the_discard_top_was_public():
    s = at(hands=[["Copper", "Estate", "Estate"]], decks=[["Silver"] * 5], phase="buy")
    s = dominion.step(s, Move("play", "Copper"))
    s = dominion.step(s, Move(END_PHASE))
    assert zone(s, "discard", 0)[-1] == "Copper"


def test_the_log_line_redacts_hidden_draws_for_other_seats():
    s = dominion.new_game(kingdom=PLAIN_KINGDOM, seed=2)
    me, other = current(s), 1 - current(s)
    draws = [e for e in dominion.view(s, other, log_from=0).log
             if e.kind == "draw" and e.player == me]
    assert draws and all(e.cards == () and e.detail == 5 for e in draws)
    text = dominion.render(draws[0], s.config.players)
    assert text.endswith("draws 5 cards.")
