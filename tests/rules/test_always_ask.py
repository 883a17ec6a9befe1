"""The `always_ask` game option: questions whose presence would tell the others something about a
hidden hand are asked whenever they could arise, with only the legal answers. Without the option
the engine skips forced questions (tests/rules/test_answer_api.py and the card tests)."""
import random

import pytest

import dominion
from dominion import CHOOSE, SELECT, Move
from tests.support import at, kingdom_with, play, random_answer, turn, zone


def asking(*kingdom, **kw):
    """A position like `tests.support.at`, in a game that asks every question."""
    return dominion.position(kingdom_with(*kingdom), always_ask=True, **kw)


def test_an_attacked_player_without_a_reaction_is_asked_about_reactions():
    s = play(asking("Militia", hands=[["Militia"], ["Copper"] * 5]), "Militia")
    d = dominion.pending(s)
    assert (d.player, d.kind, d.purpose, d.cards, d.min, d.max) == (1, SELECT, "react", (), 0, 0)
    plain = play(at("Militia", hands=[["Militia"], ["Copper"] * 5]), "Militia")
    assert dominion.pending(plain).player == 0   # skipped, and the forced discard too


def test_the_action_phase_is_asked_with_no_action_in_hand():
    s = asking("Village", hands=[["Copper", "Estate"]])
    d = dominion.pending(s)
    assert (d.purpose, d.moves) == ("action_phase", (Move("end_phase"),))
    assert dominion.pending(at("Village", hands=[["Copper", "Estate"]])).purpose == "buy_phase"


def test_a_forced_discard_is_asked():
    s = play(asking("Militia", hands=[["Militia"], ["Copper"] * 5]), "Militia")
    s = dominion.step(s, [], 1)                    # no Reaction to reveal
    d = dominion.pending(s)
    assert (d.player, d.purpose, d.min, d.max) == (1, "discard", 2, 2)


def test_library_asks_about_every_card_drawn():
    s = play(asking("Library", hands=[["Library"] + ["Copper"] * 5], decks=[["Silver", "Smithy"]]),
             "Library")
    d = dominion.pending(s)
    assert (d.kind, d.purpose, d.options, d.about_cards) == (CHOOSE, "set_aside", ("no",),
                                                            ("Silver",))
    s = dominion.step(s, ["no"])
    d = dominion.pending(s)
    assert (d.options, d.about_cards) == (("yes", "no"), ("Smithy",))


def test_moneylender_without_a_copper_is_asked():
    s = play(asking("Moneylender", hands=[["Moneylender", "Silver"]]), "Moneylender")
    d = dominion.pending(s)
    assert (d.kind, d.cards, d.max) == (SELECT, (), 0)
    assert dominion.step(s, []).coins == 0


def test_baron_without_an_estate_is_asked_with_only_no():
    s = play(asking("Baron", hands=[["Baron", "Copper"]]), "Baron")
    d = dominion.pending(s)
    assert d.options == ("no",)
    s = dominion.step(s, ["no"])
    assert "Estate" in zone(s, "discard", 0)          # "if not, gain an Estate"
    with pytest.raises(dominion.IllegalAnswerError):
        dominion.step(play(asking("Baron", hands=[["Baron", "Copper"]]), "Baron"), ["yes"])


def test_throne_room_without_an_action_is_asked():
    s = play(asking("Throne Room", hands=[["Throne Room", "Copper"]]), "Throne Room")
    assert dominion.pending(s).purpose == "play" and dominion.pending(s).cards == ()


def test_always_ask_is_part_of_the_record_and_replays():
    rng = random.Random(5)
    state = dominion.new_game(players=3, kingdom="random", seed=11, always_ask=True)
    assert state.config.always_ask is True
    while (d := dominion.pending(state)) is not None and turn(state) < 60:
        state = dominion.step(state, random_answer(d, rng), d.player)
    again = dominion.replay(dominion.record(state))
    assert again == state


@pytest.mark.parametrize("seed", range(6))
def test_random_games_that_ask_every_question_end(seed):
    rng = random.Random(seed)
    state = dominion.new_game(players=2 + seed % 5, kingdom="random", seed=seed, always_ask=True)
    while (d := dominion.pending(state)) is not None:
        assert turn(state) < 3000
        state = dominion.step(state, random_answer(d, rng), d.player)
    assert dominion.winners(state)


def test_the_built_in_bots_answer_every_question_of_such_a_game():
    from dominion.bots import make_bot
    state = dominion.new_game(players=2, kingdom="random", seed=3, always_ask=True)
    bots = [make_bot("big-money-ultimate", 1), make_bot("random", 2)]
    while (d := dominion.pending(state)) is not None:
        state = dominion.step(state, bots[d.player].answer(d, dominion.view(state, d.player)),
                              d.player)
    assert dominion.winners(state)
