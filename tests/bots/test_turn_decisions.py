"""The default policy's decisions inside a turn follow what the turn can reach: which Action next
(by role, and with the last Action by the buy its outcome reaches over the cards the seat may
know are left to draw), Throne Room's target, and the card questions
(Cellar, Chapel, Masquerade, Minion, Nobles, Steward, Torturer's victims, Militia's).

A bot's card counts come from the log; a position has none, so each bot here counts the
starting deck (7 Coppers, 3 Estates) unless a test adds cards with `Holdings.add`."""
import dominion
from dominion import Move
from dominion.bots import make_bot
from tests.support import at


def _answer(state, bot, extra=None):
    """The bot's answer to the pending decision from its seat's view; ``extra`` (name: copies)
    is added to the cards the bot counts as its own before it answers."""
    d = dominion.pending(state)
    view = dominion.view(state, d.player, log_from=bot.log_from)
    answer = bot.answer(d, view)
    if extra:
        for name, k in extra.items():
            bot.known.add(d.player, name, k)
        answer = bot.answer(d, dominion.view(state, d.player, log_from=bot.log_from))
    return d, answer


def _plays(state, bot_name="smithy-big-money", extra=None):
    d, answer = _answer(state, make_bot(bot_name), extra)
    assert d.kind == dominion.TURN and d.purpose == "action_phase", d
    return answer


# --- which Action next -------------------------------------------------------------------------

def test_village_is_played_before_smithy_when_smithy_waits_in_hand():
    """smithy-big-money's play rule names only Smithy: the village still goes first, or the
    Smithy would end the Actions with the Village dead in hand."""
    state = at("Village", "Smithy", hands=[["Smithy", "Village", "Copper", "Copper", "Estate"]])
    assert _plays(state) == Move("play", "Village")


def test_laboratory_is_played_before_the_village_and_the_terminal():
    state = at("Laboratory", "Village", "Smithy",
               hands=[["Smithy", "Village", "Laboratory", "Copper", "Estate"]])
    assert _plays(state) == Move("play", "Laboratory")


def test_with_actions_to_spare_draw_is_played_before_payload():
    """militia-big-money plays Militia first by its rule; with two Actions the Smithy goes
    first, so that what it draws is seen before the payload is chosen."""
    state = at("Militia", "Smithy", actions=2,
               hands=[["Militia", "Smithy", "Copper", "Copper", "Estate"]])
    assert _plays(state, "militia-big-money") == Move("play", "Smithy")


def test_with_the_last_action_the_terminal_follows_the_cards_left_to_draw():
    """Smithy or Militia with one Action and $3 in hand: with only Coppers and Estates left to
    draw, Militia's certain $2 (and its attack) is better; with Golds left to draw, Smithy's
    three cards reach the Province."""
    state = at("Militia", "Smithy",
               hands=[["Militia", "Smithy", "Copper", "Copper", "Copper"]])
    assert _plays(state, "militia-big-money") == Move("play", "Militia")
    assert _plays(state, "militia-big-money", {"Gold": 6}) == Move("play", "Smithy")


def test_throne_room_is_played_first_and_doubles_a_village_when_terminals_wait():
    state = at("Throne Room", "Village", "Smithy", "Militia",
               hands=[["Smithy", "Militia", "Village", "Throne Room", "Copper"]])
    assert _plays(state) == Move("play", "Throne Room")
    state = dominion.step(state, Move("play", "Throne Room"))
    d, answer = _answer(state, make_bot("smithy-big-money"))
    assert d.purpose == "play" and answer == ("Village",)


def test_throne_room_doubles_the_terminal_when_it_is_the_only_one():
    state = at("Throne Room", "Smithy", "Militia",
               hands=[["Smithy", "Throne Room", "Copper", "Copper", "Estate"]])
    state = dominion.step(state, Move("play", "Throne Room"))
    d, answer = _answer(state, make_bot("militia-big-money"))
    assert answer == ("Smithy",)


# --- card questions ----------------------------------------------------------------------------

def test_cellar_discards_victory_cards_and_the_terminal_no_action_is_left_for():
    state = at("Cellar", "Smithy", "Militia",
               hands=[["Cellar", "Estate", "Smithy", "Militia", "Copper"]])
    state = dominion.step(state, Move("play", "Cellar"))
    d, answer = _answer(state, make_bot("smithy-big-money"))
    assert d.card == "Cellar" and len(answer) == 2
    assert "Estate" in answer and ({"Smithy", "Militia"} & set(answer))
    assert "Copper" not in answer


def test_chapel_keeps_enough_coppers_to_buy_silver():
    """The deck's money is 7 Coppers: Chapel trashes the Estate and Coppers only down to the
    floor the deck needs to keep buying (`MONEY_FLOOR`)."""
    from dominion.bots.policy import MONEY_FLOOR
    state = at("Chapel", hands=[["Chapel", "Copper", "Copper", "Copper", "Copper", "Estate"]])
    state = dominion.step(state, Move("play", "Chapel"))
    d, answer = _answer(state, make_bot("big-money"))
    assert "Estate" in answer
    assert answer.count("Copper") == 7 - MONEY_FLOOR < 4


def test_chapel_trashes_every_copper_it_can_when_the_deck_has_money_to_spare():
    state = at("Chapel", hands=[["Chapel", "Copper", "Copper", "Copper", "Estate"]])
    state = dominion.step(state, Move("play", "Chapel"))
    d, answer = _answer(state, make_bot("big-money"), {"Gold": 2})
    assert sorted(answer) == ["Copper", "Copper", "Copper", "Estate"]


def test_chapel_keeps_the_coppers_of_a_hand_that_buys_gold():
    state = at("Chapel", hands=[["Chapel", "Gold", "Copper", "Copper", "Copper", "Estate"]])
    state = dominion.step(state, Move("play", "Chapel"))
    d, answer = _answer(state, make_bot("big-money"), {"Gold": 2})
    assert answer == ("Estate",)


def test_masquerade_passes_the_estate_not_the_duchy():
    state = at("Masquerade", hands=[["Masquerade", "Duchy", "Estate", "Silver", "Copper"],
                                    ["Copper", "Estate"]], decks=[["Copper", "Copper"]])
    state = dominion.step(state, Move("play", "Masquerade"))
    d, answer = _answer(state, make_bot("masquerade-big-money"))
    assert d.purpose == "pass" and answer == ("Estate",)


def test_masquerade_passes_a_copper_rather_than_an_estate_late_in_the_game():
    state = at("Masquerade", hands=[["Masquerade", "Province", "Estate", "Silver", "Copper"],
                                    ["Copper", "Estate"]],
               decks=[["Silver", "Silver"]], supply={"Province": 3})
    state = dominion.step(state, Move("play", "Masquerade"))
    d, answer = _answer(state, make_bot("masquerade-big-money"))
    assert d.purpose == "pass" and answer == ("Copper",)


def _minion_choice(hand):
    state = at("Minion", hands=[["Minion"] + hand, ["Copper"] * 5])
    state = dominion.step(state, Move("play", "Minion"))
    d, answer = _answer(state, make_bot("big-money"))
    assert d.card == "Minion" and d.kind == dominion.CHOOSE
    return answer[0]


def test_minion_takes_2_when_the_hand_reaches_a_province_with_it():
    assert _minion_choice(["Gold", "Gold", "Copper", "Estate"]) == "+$2"


def test_minion_discards_a_weak_hand_to_attack_and_draw_four():
    assert _minion_choice(["Estate", "Estate", "Curse", "Copper"]).startswith("discard")


def _nobles_choice(hand, actions=1):
    state = at("Nobles", "Smithy", hands=[["Nobles"] + hand], actions=actions)
    state = dominion.step(state, Move("play", "Nobles"))
    d, answer = _answer(state, make_bot("nobles-big-money"))
    assert d.card == "Nobles"
    return answer[0]


def test_nobles_takes_two_actions_only_when_actions_wait():
    assert _nobles_choice(["Smithy", "Copper", "Copper", "Estate"]) == "+2 Actions"
    assert _nobles_choice(["Copper", "Copper", "Copper", "Estate"]) == "+3 Cards"
    assert _nobles_choice(["Smithy", "Copper", "Copper", "Estate"], actions=2) == "+3 Cards"


def test_steward_takes_2_when_it_reaches_gold():
    state = at("Steward", hands=[["Steward", "Silver", "Silver", "Estate", "Estate"]])
    state = dominion.step(state, Move("play", "Steward"))
    d, answer = _answer(state, make_bot("big-money"))
    assert answer == ("+$2",)


def _torturer_victim(victim_hand, supply=None):
    kw = {"supply": supply} if supply else {}
    state = at("Torturer", hands=[["Torturer"], victim_hand], **kw)
    state = dominion.step(state, Move("play", "Torturer"))
    d, answer = _answer(state, make_bot("big-money"))
    assert d.card == "Torturer" and d.player == 1
    return answer[0]


def test_torturers_victim_discards_two_when_the_hand_keeps_its_buy():
    assert _torturer_victim(["Gold", "Silver", "Copper", "Estate", "Estate"]) == \
        "discard 2 cards"


def test_torturers_victim_takes_the_curse_to_keep_a_province_hand():
    assert _torturer_victim(["Gold", "Gold", "Silver", "Estate"]) == "gain a Curse to your hand"


def test_torturers_victim_takes_the_curse_when_none_are_left():
    assert _torturer_victim(["Copper", "Copper", "Copper", "Estate", "Estate"],
                            {"Curse": 0}) == "gain a Curse to your hand"


def test_a_militia_victim_keeps_one_terminal_and_its_money():
    state = at("Militia", "Smithy", hands=[["Militia"], ["Smithy", "Witch", "Silver", "Copper",
                                                         "Copper"]])
    state = dominion.step(state, Move("play", "Militia"))
    d, answer = _answer(state, make_bot("big-money"))
    assert d.purpose == "discard" and len(answer) == 2
    assert sorted(answer) in (["Copper", "Smithy"], ["Copper", "Witch"])


def _choice_after(card, hand, bot="big-money", steps=()):
    state = at(card, "Smithy", hands=[[card] + hand])
    state = dominion.step(state, Move("play", card))
    b = make_bot(bot)
    for _ in steps:   # answer the questions before the choice (Courtier's reveal)
        d, answer = _answer(state, b)
        state = dominion.step(state, answer)
    d, answer = _answer(state, b)
    assert d.card == card and d.kind == dominion.CHOOSE, d
    return answer


def test_pawn_takes_the_action_when_a_terminal_waits_for_it():
    assert "+1 Action" in _choice_after("Pawn", ["Smithy", "Copper", "Copper", "Copper"])


def test_pawn_takes_no_action_when_nothing_waits_for_it():
    answer = _choice_after("Pawn", ["Copper", "Copper", "Copper", "Copper"])
    assert "+1 Action" not in answer and "+$1" in answer   # $5 reached with certainty


def test_courtier_takes_3_when_it_reaches_a_better_buy_and_gold_when_it_does_not():
    assert _choice_after("Courtier", ["Gold", "Silver", "Copper", "Estate"],
                         steps=("reveal",)) == ("+$3",)
    assert _choice_after("Courtier", ["Gold", "Gold", "Silver", "Estate"],
                         steps=("reveal",)) == ("gain a Gold",)


# --- what the expected outcome may read ----------------------------------------------------------

def test_the_draw_distribution_is_the_exact_hypergeometric_one():
    from math import comb

    from dominion.bots.policy import draw_coins
    dist = dict(draw_coins(((0, 3), (1, 7)), 5))   # 3 Estates, 7 Coppers: draw 5
    assert abs(sum(dist.values()) - 1) < 1e-12
    for coppers in range(2, 6):
        assert abs(dist[coppers] - comb(7, coppers) * comb(3, 5 - coppers) / comb(10, 5)) < 1e-12
    mean = sum(c * p for c, p in dist.items())
    assert abs(mean - 5 * 7 / 10) < 1e-12
    assert draw_coins(((2, 1),), 3) == ((2, 1.0),)   # fewer cards than asked: all of them


def test_the_choice_reads_no_hidden_card_two_deck_orders_get_the_same_answers():
    """Golds on top of the deck or at its bottom: the seat cannot tell, and neither the Action it
    plays nor Minion's choice changes (the expected outcome counts the seat's cards, never their
    order)."""
    deck = ["Gold", "Gold", "Gold", "Estate", "Estate", "Estate", "Copper", "Copper"]
    for hand, extra in ((["Militia", "Smithy", "Copper", "Copper", "Copper"], {"Gold": 3}),
                        (["Minion", "Estate", "Copper", "Copper", "Silver"], {"Gold": 3})):
        answers = set()
        for order in (deck, deck[::-1]):
            state = at("Militia", "Smithy", "Minion", hands=[hand, ["Copper"] * 5],
                       decks=[order])
            if "Minion" in hand:
                state = dominion.step(state, Move("play", "Minion"))
            answers.add(_answer(state, make_bot("militia-big-money"), extra)[1])
        assert len(answers) == 1, answers


def test_throne_room_doubles_the_laboratory_when_a_smithy_waits_for_its_action():
    """Laboratory twice draws 4 and leaves an Action for the Smithy (7 cards); Smithy twice draws
    6 and leaves the Laboratory dead."""
    state = at("Throne Room", "Laboratory", "Smithy",
               hands=[["Throne Room", "Laboratory", "Smithy", "Copper", "Copper"]])
    state = dominion.step(state, Move("play", "Throne Room"))
    d, answer = _answer(state, make_bot("smithy-big-money"))
    assert answer == ("Laboratory",)
