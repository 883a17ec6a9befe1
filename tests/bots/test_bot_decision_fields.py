"""The default answers read which card and which seat a question is about from the decision's
fields (`about_cards`, `about_player`), never from the prompt."""
import dominion
from dominion import Move
from dominion.bots import make_bot
from tests.support import at


def _spy_answers(target_card: str) -> tuple:
    """The big-money bot's answers to Spy on its own revealed ``target_card`` and on seat 1's."""
    state = at("Spy", hands=[["Spy"], []], decks=[["Copper", target_card], [target_card]])
    state = dominion.step(state, Move("play", "Spy"))
    bot = make_bot("big-money")
    answers = []
    for _ in range(2):
        d = dominion.pending(state)
        answer = bot.answer(d, dominion.view(state, d.player, log_from=bot.log_from))
        answers.append(answer)
        state = dominion.step(state, answer)
    return tuple(answers)


def test_spy_discards_my_dead_card_and_keeps_an_opponents_dead_card():
    assert _spy_answers("Estate") == (("yes",), ("no",))


def test_spy_keeps_my_good_card_and_discards_an_opponents_good_card():
    assert _spy_answers("Gold") == (("no",), ("yes",))


def test_spy_decision_is_answered_without_reading_the_prompt():
    state = dominion.step(at("Spy", hands=[["Spy"], []], decks=[["Copper", "Gold"], ["Gold"]]),
                          Move("play", "Spy"))
    d = dominion.pending(state)._replace(prompt="")
    bot = make_bot("big-money")
    assert bot.answer(d, dominion.view(state, 0, log_from=bot.log_from)) == ("no",)


def test_secret_passage_puts_a_good_card_on_top_and_a_dead_one_at_the_bottom():
    for card, position in (("Gold", "0"), ("Curse", "3")):
        state = at("Secret Passage", hands=[["Secret Passage", card]],
                   decks=[["Copper", "Copper", "Estate", "Estate", "Silver"]])
        state = dominion.step(dominion.step(state, Move("play", "Secret Passage")), [card])
        d = dominion.pending(state)
        assert d.purpose == "position"
        assert make_bot("big-money").answer(d, dominion.view(state, 0)) == (position,)
