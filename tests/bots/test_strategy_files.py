"""Strategy files: the shipped ones parse, the conditions mean what the docs say, and a bad file
names its line and problem."""
import pytest

import dominion
from dominion.bots import StrategyError, builtin_strategies, make_bot, parse_strategy, strategy
from dominion.bots.strategy import parse_condition

GOOD = '''\
name = "test"
description = "a test"
play = ["Smithy"]

[[buy]]
card = "Province"
when = "count(Gold) > 0"

[[buy]]
card = "Smithy"
when = ["count(Smithy) < 1", "turn <= 10"]

[[buy]]
card = "Silver"
'''


def test_every_shipped_strategy_parses():
    for name in builtin_strategies():
        s = strategy(name)
        assert s.name == name and s.buy


def test_a_strategy_is_rules_in_priority_order():
    s = parse_strategy(GOOD)
    assert [r.card for r in s.buy] == ["Province", "Smithy", "Silver"]
    assert [c.text for c in s.buy[1].when] == ["count(Smithy) < 1", "turn <= 10"]
    assert s.buy[1].line == 9 and [r.card for r in s.play] == ["Smithy"]
    assert s.kingdom_cards == ("Smithy",)


def test_a_strategy_file_loads_by_path_as_a_bot(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(GOOD)
    assert make_bot(str(path)).name == "test"


@pytest.mark.parametrize("text, line, words", [
    ('buy = ["Province", "Gold",\n "Silverr"]\n', 2, "unknown card 'Silverr' (did you mean 'Silver'?)"),
    ('[[buy]]\ncard = "Gold"\n\n[[buy]]\ncard = "Silver"\nwhen = "coins >> 3"\n', 6,
     "cannot read condition"),
    ('[[buy]]\ncard = "Gold"\nwhen = "wealth >= 3"\n', 3, "unknown quantity 'wealth'"),
    ('[[buy]]\ncard = "Gold"\nwhen = "count(Smithyy) < 1"\n', 3, "unknown card 'Smithyy'"),
    ('[[buy]]\ncard = "Gold"\nif = "coins >= 6"\n', 3, "unknown key 'if'"),
    ('buy = ["Gold"]\nplay = ["Gold"]\n', 2, "not an Action card"),
    ('buy = ["Gold"]\nbuys = ["Silver"]\n', 2, "unknown key 'buys'"),
    ('name = "x"\n[[buy]]\nwhen = "coins >= 6"\n', 2, "needs a card"),
    ('buy = ["Gold"\n', 1, "line 1"),
    ('name = "x"\n', 1, "at least one buy rule"),
])
def test_a_bad_strategy_names_the_line_and_the_problem(text, line, words):
    with pytest.raises(StrategyError) as err:
        parse_strategy(text, source="bad.toml")
    message = str(err.value)
    assert message.startswith("bad.toml: ") and f"line {line}" in message and words in message


def test_conditions_read_quantity_operator_number():
    c = parse_condition("supply(Curse) >= 1")
    assert (c.quantity, c.arg, c.op, c.value) == ("supply", "Curse", ">=", 1)
    assert parse_condition("count(Treasure) < 14").arg == "Treasure"
    with pytest.raises(ValueError, match="takes no argument"):
        parse_condition("turn(Gold) < 3")


def test_conditions_see_provinces_left_and_my_counts():
    """big-money-ultimate buys Duchy at $5 only when 6 or fewer Provinces are left, and no
    Province before its first Gold."""
    bot = make_bot("big-money-ultimate")
    early = dominion.position("First Game", hands=[["Gold", "Copper", "Copper"]],
                              phase="buy")
    late = dominion.position("First Game", hands=[["Gold", "Copper", "Copper"]], phase="buy",
                             supply={"Province": 5})
    for state, expected in ((early, "Silver"), (late, "Duchy")):
        state = dominion.step(state, dominion.Move("play_treasures"))
        d = dominion.pending(state)
        assert bot.answer(d, dominion.view(state, 0, 0)).card == expected
    rich = dominion.position("First Game", hands=[["Gold", "Gold", "Silver"]], phase="buy")
    rich = dominion.step(rich, dominion.Move("play_treasures"))
    fresh = make_bot("big-money-ultimate")
    assert fresh.answer(dominion.pending(rich), dominion.view(rich, 0, 0)).card == "Gold"


def test_vp_lead_counts_every_copy_of_a_card():
    """A bot's known scores count each Estate of the starting deck (3 VP each seat), and a
    Province gained by one seat puts it 6 ahead."""
    from dominion.bots.knowledge import Holdings
    known = Holdings(2)
    assert known.scores() == (3, 3)
    known.add(0, "Province")
    assert known.scores() == (9, 3)
    assert parse_condition("vp_lead >= 6").holds(_BotKnowing(known), _Seat0(), 0)


class _BotKnowing:
    def __init__(self, known):
        self.known = known


class _Seat0:
    player = 0
