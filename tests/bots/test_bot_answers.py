"""Every built-in bot answers every decision legally, and the default answers are the ones a
sensible player gives."""
import random

import pytest

import dominion
from dominion import Move
from dominion.bots import bot_names, make_bot, parse_strategy
from dominion.bots.knowledge import Holdings
from dominion.simulate import Setup, labels_for, play_game
from tests.support import at


def _answer(state, bot):
    """The bot's answer to the pending decision, from the seat's own view."""
    d = dominion.pending(state)
    return d, bot.answer(d, dominion.view(state, d.player, log_from=bot.log_from))


# --- legality in random games ------------------------------------------------------------------

def _kingdom_buyer(kingdom, seed):
    """A strategy that buys the game's Kingdom cards (in a random order) before money, so that
    the default answers meet every card's questions."""
    cards = list(kingdom)
    random.Random(seed).shuffle(cards)
    rules = "".join(f'[[buy]]\ncard = "{c}"\nwhen = "count({c}) < 2"\n' for c in cards)
    text = 'name = "kingdom-buyer"\n' + rules + '[[buy]]\ncard = "Province"\n' \
        '[[buy]]\ncard = "Gold"\n[[buy]]\ncard = "Silver"\n'
    return parse_strategy(text)


# The built-in bots that answer from a view; the search bot reads the state, searches at a cost,
# and is played on every set at 2 to 6 players with a small budget in test_search_bot.py.
VIEW_BOTS = tuple(name for name in bot_names() if name != "search")


@pytest.mark.parametrize("sets", [("base-2e",), ("base-1e",), ("intrigue-2e",), ("intrigue-1e",),
                                  ("base-1e", "intrigue-1e"), ("base-2e", "intrigue-2e")])
def test_every_bot_answers_legally_in_random_games(sets):
    """Random Kingdoms from every set, 2 to 6 players, every built-in bot at the table next to
    a bot that buys the Kingdom's cards: every answer is accepted by the engine."""
    from dominion.bots import StrategyBot
    rng = random.Random(",".join(sets))
    names = list(VIEW_BOTS)
    for game in range(8):
        players = 2 + (game + len(sets[0])) % 5
        seed = rng.randrange(1 << 32)
        state = dominion.new_game(players=players, kingdom="random", sets=sets, seed=seed)
        bots = [StrategyBot(_kingdom_buyer(state.config.kingdom, seed + s), s) if s % 2 == 0
                else make_bot(names[(game * 7 + s) % len(names)], s) for s in range(players)]
        for _ in range(20_000):
            d = dominion.pending(state)
            if d is None:
                break
            bot = bots[d.player]
            state = dominion.step(state, bot.answer(d, dominion.view(state, d.player,
                                                                     bot.log_from)), d.player)
        assert dominion.pending(state) is None, f"game {seed} did not end"


def test_every_builtin_bot_finishes_games_against_every_other():
    """Each built-in bot, in random Kingdoms of all four sets: no game raises."""
    names = list(VIEW_BOTS)
    for i, name in enumerate(names):
        bots = (name, names[(i + 1) % len(names)], names[(i + 5) % len(names)])
        setup = Setup(bots, labels_for(bots), "random", None, 1000 + i)
        result = play_game(setup, i)
        assert "error" not in result, (bots, result)


# --- default answers ---------------------------------------------------------------------------

def test_militia_victim_discards_victory_cards_and_curses_first():
    state = at("Militia", hands=[["Militia"], ["Gold", "Estate", "Curse", "Silver", "Copper"]])
    state = dominion.step(state, Move("play", "Militia"))
    d, answer = _answer(state, make_bot("big-money"))
    assert d.purpose == "discard" and sorted(answer) == ["Curse", "Estate"]


def test_chapel_trashes_curses_then_estates_then_coppers():
    """(A hand of $5 that buys no $5 card for big-money: Chapel trashes rather than buys.)"""
    state = at("Chapel", hands=[["Chapel", "Copper", "Estate", "Curse", "Silver", "Copper",
                                 "Copper"]])
    state = dominion.step(state, Move("play", "Chapel"))
    d, answer = _answer(state, make_bot("big-money"))
    assert sorted(answer) == ["Copper", "Copper", "Curse", "Estate"]


def test_moat_is_revealed_against_an_attack():
    state = at("Militia", "Moat", hands=[["Militia"], ["Moat", "Copper", "Copper", "Estate",
                                                       "Estate"]])
    state = dominion.step(state, Move("play", "Militia"))
    d, answer = _answer(state, make_bot("big-money"))
    assert d.purpose == "react" and answer == ("Moat",)


def test_workshop_gains_what_the_strategy_would_buy_else_the_most_expensive():
    state = at("Workshop", "Smithy", hands=[["Workshop"]])
    state = dominion.step(state, Move("play", "Workshop"))
    _, answer = _answer(state, make_bot("big-money"))
    assert answer == ("Silver",)           # big-money's buy rules, with $4
    _, answer = _answer(state, make_bot("random"))  # legal, whatever it is
    d = dominion.pending(state)
    assert set(answer) <= set(d.cards)
    plain = make_bot("smithy-big-money")
    _, answer = _answer(state, plain)
    assert answer == ("Smithy",)


def test_courtyard_topdecks_a_card_that_does_not_lower_this_turns_buy():
    """Gold, Gold, Silver, Copper, Estate: $9 buys a Province with or without the Copper
    and the Estate; the Estate is no card for next turn, the Copper is."""
    state = at("Courtyard", hands=[["Courtyard"]], decks=[["Gold", "Gold", "Silver"]])
    state = dominion.step(state, Move("play", "Courtyard"))
    d, answer = _answer(state, make_bot("courtyard-big-money"))
    assert d.purpose == "topdeck" and answer == ("Silver",)


def test_torturer_victim_discards_rather_than_gaining_a_curse():
    state = at("Torturer", hands=[["Torturer"], ["Copper", "Copper", "Estate", "Silver",
                                                 "Gold"]])
    state = dominion.step(state, Move("play", "Torturer"))
    d, answer = _answer(state, make_bot("big-money"))
    assert d.card == "Torturer" and "discard" in answer[0]


def test_steward_trashes_two_dead_cards():
    state = at("Steward", hands=[["Steward", "Estate", "Curse", "Copper", "Copper"]])
    state = dominion.step(state, Move("play", "Steward"))
    d, answer = _answer(state, make_bot("big-money"))
    assert "trash" in answer[0]
    state = dominion.step(state, answer)
    d, answer = _answer(state, make_bot("big-money"))
    assert sorted(answer) == ["Curse", "Estate"]


def test_nobles_takes_actions_when_actions_wait_in_hand():
    state = at("Nobles", "Smithy", hands=[["Nobles", "Smithy", "Copper"]])
    state = dominion.step(state, Move("play", "Nobles"))
    d, answer = _answer(state, make_bot("nobles-big-money"))
    assert answer == ("+2 Actions",)
    state = at("Nobles", hands=[["Nobles", "Copper", "Copper"]])
    state = dominion.step(state, Move("play", "Nobles"))
    d, answer = _answer(state, make_bot("nobles-big-money"))
    assert answer == ("+3 Cards",)


def test_pawn_picks_two_different_options():
    state = at("Pawn", hands=[["Pawn", "Copper", "Copper"]])
    state = dominion.step(state, Move("play", "Pawn"))
    d, answer = _answer(state, make_bot("big-money"))
    assert len(answer) == 2 and len(set(answer)) == 2 and "+1 Action" not in answer


def test_masquerade_passes_the_least_useful_card():
    state = at("Masquerade", hands=[["Masquerade", "Gold", "Curse"], ["Silver", "Estate"]])
    state = dominion.step(state, Move("play", "Masquerade"))
    d, answer = _answer(state, make_bot("big-money"))
    assert d.purpose == "pass" and answer in (("Curse",), ("Estate",), ("Copper",))


def test_a_reaction_is_revealed_once_per_attack():
    """Secret Chamber stays in hand when revealed: revealing it again would never end."""
    state = at("Militia", "Secret Chamber", hands=[["Militia"], ["Secret Chamber", "Copper",
                                                                 "Copper", "Estate", "Estate"]],
               decks=[[], ["Gold", "Gold", "Silver"]])
    state = dominion.step(state, Move("play", "Militia"))
    bot = make_bot("big-money")
    for _ in range(10):
        d = dominion.pending(state)
        if d.player != 1 or d.purpose != "react":
            break
        state = dominion.step(state, bot.answer(d, dominion.view(state, 1, bot.log_from)))
    else:
        pytest.fail("the bot kept revealing Secret Chamber")


# --- what a bot knows ----------------------------------------------------------------------------

def test_card_counts_follow_the_public_log_of_gains_and_trashes():
    state = dominion.new_game(players=2, seed=5)
    bots = [make_bot("big-money-ultimate", 1), make_bot("big-money-ultimate", 2)]
    for _ in range(200):
        d = dominion.pending(state)
        if d is None:
            break
        state = dominion.step(state, bots[d.player].answer(
            d, dominion.view(state, d.player, bots[d.player].log_from)))
    for seat in (0, 1):
        known = bots[seat].known
        known.observe(dominion.view(state, seat, known.log_from))
        ps = state.players[seat]
        actual = sorted(ps.hand + ps.deck + ps.discard + ps.in_play + ps.aside + ps.looking)
        assert sorted(known.owned[seat].elements()) == actual


def test_masquerade_pass_moves_the_card_in_both_seats_counts():
    state = at("Masquerade", hands=[["Masquerade", "Gold"], ["Silver"]],
               decks=[["Copper", "Copper"], []])
    state = dominion.step(state, Move("play", "Masquerade"))
    known = Holdings(2)
    while dominion.pending(state).purpose == "pass":
        d = dominion.pending(state)
        state = dominion.step(state, ("Gold",) if d.player == 0 else ("Silver",))
    known.observe(dominion.view(state, 0, 0))
    assert known.count(0, "Silver") == 1 and known.count(0, "Gold") == -1
    blind = Holdings(2)
    blind.observe(dominion.view(state, None, 0))  # a spectator cannot follow hidden passes
    assert blind.count(0, "Gold") == 0


def test_lurker_trashing_from_the_supply_takes_nothing_from_its_players_count():
    """Lurker trashes an Action card from the Supply (Intrigue 2E): the card was nobody's, so
    the trasher's count keeps its own cards; gaining it back from the trash then adds one."""
    state = at("Lurker", "Nobles", hands=[["Lurker", "Lurker"]])
    state = dominion.step(state, Move("play", "Lurker"))
    state = dominion.step(dominion.step(state, "trash an Action card from the Supply"),
                          ("Nobles",))
    known = Holdings(2)
    known.observe(dominion.view(state, 1, 0))
    assert known.count(0, "Nobles") == 0
    state = dominion.step(state, Move("play", "Lurker"))   # Lurker gave +1 Action
    state = dominion.step(state, "gain an Action card from the trash")   # the only one: Nobles
    known.observe(dominion.view(state, 1, known.log_from))
    assert known.count(0, "Nobles") == 1


def test_a_bot_reads_only_its_own_view(monkeypatch):
    """Bots get a View, whose other hands are None: an answer cannot depend on them."""
    state = at("Militia", hands=[["Militia"], ["Gold", "Estate", "Curse", "Silver", "Copper"]])
    state = dominion.step(state, Move("play", "Militia"))
    view = dominion.view(state, 1, 0)
    assert view.players[0].hand is None and view.players[1].hand is not None
    assert make_bot("big-money").answer(dominion.pending(state), view)


def test_without_a_log_counts_follow_the_bots_own_buys():
    state = dominion.new_game(players=2, seed=3)
    bots = [make_bot("big-money-ultimate", 1), make_bot("big-money-ultimate", 2)]
    while dominion.pending(state) is not None:
        d = dominion.pending(state)
        state = dominion.step(state, bots[d.player].answer(d, dominion.view(state, d.player,
                                                                            None)))
    assert max(dominion.score(state)) >= 30  # it bought Provinces: it counted its Golds
