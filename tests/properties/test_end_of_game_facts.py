"""The facts each card declares for the rule that ends a game that can never end
(`engine.deadlocked`: `Card.changes_supply`, `Card.coins_up_to`, `Card.plays_twice`) hold in
random games: the Supply loses cards only by a buy or while a card that declares
``changes_supply`` resolves; no turn makes more $ than the declared most of the cards played in
it; a card is played again only in a turn where a card that declares ``plays_twice`` was
played. A card whose declaration is wrong could end a game that can still end."""
from hypothesis import HealthCheck, given, settings

import dominion
from dominion import BUY, CARDS
from tests.support import game_specs, log_events, property_examples, random_trajectory

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def supply_left(state) -> int:
    return sum(left for _, left, _ in dominion.inspect(state).supply)


def turns_of(events) -> list:
    """The plays of each turn, by turn number (1 for the first): (card name, again) per card
    played, in order, and the index of the event."""
    turns: list = [[]]
    for i, event in enumerate(events):
        if event.kind == "turn":
            turns.append([])
        elif event.kind == "play":
            turns[-1].extend((name, event.detail == "again", i) for name in event.cards)
    return turns


@settings(max_examples=property_examples(40), **SLOW)
@given(game_specs())
def test_the_cards_declare_what_the_end_of_game_rule_relies_on(spec):
    game = random_trajectory(spec)
    events = log_events(game.states[-1])
    plays = turns_of(events)
    made = [0] * len(plays)              # $ made in each turn
    before = game.states[0]
    for answer, after in zip(game.answers, game.states[1:]):
        seen_before, seen_after = dominion.inspect(before), dominion.inspect(after)
        end = len(log_events(after))
        lost = supply_left(before) - supply_left(after)
        turn = seen_before.turn
        if isinstance(answer, dominion.Move) and answer.verb == BUY:
            assert lost == 1, (spec, answer)
        elif lost:
            resolving = [name for name, _, i in plays[turn] if i < end and CARDS[name].is_action]
            assert resolving and CARDS[resolving[-1]].changes_supply, \
                (spec, turn, resolving[-1:], "took from the Supply without changes_supply")
        if seen_after.turn == turn and seen_after.coins > seen_before.coins:
            made[turn] += seen_after.coins - seen_before.coins
        before = after
    for turn, played in enumerate(plays):
        bounds = [CARDS[name].coins_up_to for name, _, _ in played]
        if None not in bounds:
            assert made[turn] <= sum(bounds), (spec, turn, played, made[turn])
        if any(again for _, again, _ in played):
            assert any(CARDS[name].plays_twice for name, _, _ in played), (spec, turn, played)
