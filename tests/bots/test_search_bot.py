"""The search bot: fair (its answer is a function of what its seat may know), reproducible with a
budget and a seed, legal at every decision of every card at 2 to 6 players, and a bot like the
others wherever a bot is named."""
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings

import dominion
from dominion.bots import (SearchBot, best_strategy_for, make_bot, search_options,
                           split_bot_list)
from dominion.bots.playout import play_out
from dominion.simulate import simulate
from tests.support import game_specs, kingdom_with, property_examples, random_trajectory

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHEAP = dict(playouts=6, candidates=3, horizon=3)   # a few short playouts: tests stay fast


@settings(max_examples=property_examples(15), **SLOW)
@given(game_specs())
def test_two_states_the_seat_cannot_tell_apart_get_the_same_answer(spec):
    """The real state and a `determinize` sample for the deciding seat (every card hidden from
    it dealt anew, the log as it sees it) get the same answer from the same bot (its buys and,
    with ``choices``, its questions of options searched)."""
    game = random_trajectory(spec)
    rng = random.Random(spec.answer_seed)
    checked = 0
    for state in game.states[::max(1, len(game.states) // 8)]:
        d = dominion.pending(state)
        if d is None:
            continue
        sample = dominion.determinize(state, d.player, rng.randrange(2 ** 64))
        real = SearchBot(11, choices=True, **CHEAP).answer_state(state)
        seen = SearchBot(11, choices=True, **CHEAP).answer_state(sample)
        assert real == seen, (spec, d)
        checked += 1
    assert checked


def test_a_buy_is_searched_and_the_same_seed_gives_the_same_game():
    kwargs = dict(kingdom="First Game", seed=5, workers=1, keep_results=True)
    bots = ["search:playouts=8,candidates=3", "big-money-ultimate"]
    first = simulate(bots, 2, on_record=lambda line: None, **kwargs)
    again = simulate(bots, 2, on_record=lambda line: None, **kwargs)
    assert first["errors"] == 0
    assert [r["scores"] for r in first["results"]] == [r["scores"] for r in again["results"]]
    records = [r.get("record") for r in first["results"]]
    assert records == [r.get("record") for r in again["results"]]
    bot = SearchBot(3, playouts=8)
    state = dominion.new_game(players=2, kingdom="First Game", seed=2, first_player=0)
    state, _ = play_out(state, [bot, make_bot("big-money", 1)], [False, True],
                                      dominion.step, 400)
    assert bot.searched > 10 and bot.spent >= 8 * bot.searched


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_answers_every_decision_of_every_set(players):
    """Random Kingdoms from all four sets; the other seats play at random, so that every card's
    questions come to the search bot's seat too."""
    summary = simulate(["search:playouts=3,candidates=2,horizon=2"] + ["random"] * (players - 1),
                       players, kingdom="random", seed=players, workers=1)
    assert summary["errors"] == 0, summary["failed"]


def test_the_rollout_strategy_is_the_best_built_in_for_the_kingdom():
    assert best_strategy_for(dominion.RECOMMENDED["First Game"][1]) == "militia-big-money"
    assert best_strategy_for(("Witch", "Militia") + ("Cellar",) * 8) == "witch-big-money"
    assert best_strategy_for(("Cellar", "Chapel")) == "big-money-ultimate"


def test_options_are_read_from_the_name_and_bad_ones_refused():
    assert search_options("search:playouts=50, rollout=big-money,time=0.5") == dict(
        playouts=50, rollout="big-money", time_limit=0.5)
    bot = make_bot("search:playouts=7,candidates=2", seed=1)
    assert (bot.playouts, bot.candidates) == (7, 2)
    for bad in ("search:playouts=x", "search:speed=1", "search:playouts", "search:playouts=0",
                "search:rollout=no-such-bot", "search:time=-1"):
        with pytest.raises(ValueError):
            make_bot(bad)


def test_a_list_of_bots_keeps_a_search_bots_options():
    assert split_bot_list("search:playouts=200, time=1,big-money,search") == [
        "search:playouts=200,time=1", "big-money", "search"]


def _played_from_views(bot, opponent: str, seed: int) -> tuple:
    """A game of ``bot`` (seat 0) asked with its seat's views, as over the network, against
    ``opponent``; (the record's answers, the final state)."""
    state = dominion.new_game(players=2, kingdom="Witch,Moat,Village,Smithy,Market,Cellar,"
                              "Militia,Laboratory,Festival,Gardens".split(","), seed=seed,
                              first_player=0)
    bots = [bot, make_bot(opponent, 2)]
    while (d := dominion.pending(state)) is not None:
        seen = bots[d.player]
        state = dominion.step(state, seen.answer(d, dominion.view(state, d.player,
                                                                  log_from=seen.log_from)))
    return tuple(state.answers), state


def test_from_views_alone_it_searches_and_the_same_views_give_the_same_game():
    """Asked ``answer(decision, view)`` (``dominion bot``: no state), it follows the log it is
    shown, searches its buys on samples rebuilt from its views, and replays exactly."""
    first_bot, again_bot = SearchBot(4, **CHEAP), SearchBot(4, **CHEAP)
    first, final = _played_from_views(first_bot, "witch-big-money", 8)
    again, _ = _played_from_views(again_bot, "witch-big-money", 8)
    assert first == again and not final.stack
    assert first_bot.searched > 10 and first_bot.spent >= CHEAP["playouts"] * first_bot.searched
    shown = dominion.view(final, 0, log_from=0).log   # every event followed once, in order
    assert first_bot.log_from > 200 and first_bot.seen_log == list(shown[:first_bot.log_from])


def test_from_views_a_gap_in_the_log_stops_the_search_not_the_game():
    """A view whose log starts past what the bot was shown (events it never saw): its counts
    would be wrong, so it answers with its rollout strategy from then on."""
    state = dominion.position("First Game", hands=[["Gold", "Gold", "Copper", "Copper",
                                                    "Estate"], []], phase="buy")
    state = dominion.step(state, dominion.Move("play_treasures"))
    d = dominion.pending(state)
    bot = SearchBot(1, playouts=8)
    answer = bot.answer(d, dominion.view(state, 0, log_from=3))   # 0 to 2 never shown
    assert answer in d.moves and bot.searched == 0 and bot.log_from is None


class RememberedDiscards:
    """Each seat's `DiscardMemory`, shown that seat's view at each of its decisions (as the
    search bot is, over the network). From a ``position`` (which has no history to remember
    the piles from), each memory starts knowing its pile there."""

    def __init__(self, players: int, position=None):
        from dominion.bots.search import DiscardMemory
        self.memories = [DiscardMemory(seat) for seat in range(players)]
        self.shown = [0] * players
        if position is not None:
            for seat, memory in enumerate(self.memories):
                memory.cards = Counter(position.players[seat].discard)
                memory.check(dominion.view(position, seat).players[seat])
            self.shown = [len(position.log)] * players

    def show(self, state, seat=None) -> None:
        """The view at ``state`` to ``seat`` (by default the seat its decision asks)."""
        seat = dominion.pending(state).player if seat is None else seat
        seen = dominion.view(state, seat, log_from=self.shown[seat])
        self.memories[seat].follow(seen.log)
        self.memories[seat].check(seen.players[seat])
        self.shown[seat] = seen.log_start + len(seen.log)


@settings(max_examples=property_examples(15), **SLOW)
@given(game_specs())
def test_samples_rebuilt_from_views_keep_everything_the_seat_sees(spec):
    """At any seat's buy, `ViewSampler` (from that seat's view with the whole log) deals its own
    unseen cards: exactly its deck where it remembers its discard pile (which the sample keeps
    as it is), else its deck and its discard pile under the top; and, unless a card passed out
    of its sight, every other seat's unseen cards exactly. A sample keeps every zone's size, the
    own hand, the Supply, the trash, the turn and the decision, and takes every buy."""
    from dominion.bots.knowledge import Holdings
    from dominion.bots.search import ViewSampler
    game = random_trajectory(spec)
    rng = random.Random(spec.answer_seed)
    remembered = RememberedDiscards(len(game.states[0].players))
    checked = 0
    for state in game.states:
        d = dominion.pending(state)
        if d is None:
            continue
        remembered.show(state)
        if d.kind != dominion.TURN or d.purpose != "buy_phase" or rng.random() > 0.2:
            continue
        me = d.player
        seen = dominion.view(state, me, log_from=0)
        holdings = Holdings(len(seen.players))
        holdings.observe(seen)
        memory = rng.choice([remembered.memories[me].cards, None])
        sampler = ViewSampler.of(d, seen, list(seen.log), holdings, memory)
        assert sampler is not None, (spec, d)
        passed_unseen = any(e.kind == "pass" and not e.cards for e in seen.log)
        for seat, (pool, sizes, _, _, _) in enumerate(sampler.seats):
            ps = state.players[seat]
            if seat == me and memory is not None and len(ps.discard) > 1:
                assert sorted(pool) == sorted(ps.deck), (spec, seat)
                continue
            unseen = ps.deck + ps.discard[:-1] + (() if seat == me else ps.hand + ps.looking)
            if seat == me or not passed_unseen:
                assert sorted(pool) == sorted(unseen), (spec, seat)
        sample = sampler.sample(rng.randrange(2 ** 64))
        if memory is not None:
            assert sorted(sample.players[me].discard) == sorted(state.players[me].discard)
        assert dominion.pending(sample).moves == d.moves
        shown, real = dominion.view(sample, me), dominion.view(state, me)._replace(log=())
        if passed_unseen:   # the others' victory points follow the cards dealt to them
            shown, real = (v._replace(players=tuple(p._replace(vp=0) for p in v.players))
                           for v in (shown, real))
        assert shown == real
        assert sample.vp[me] == state.vp[me]
        for move in d.moves:
            if move.verb in (dominion.BUY, "end_phase"):
                dominion.step(sample, move)
        checked += 1
    assert checked or not any(
        dominion.pending(s) is not None and dominion.pending(s).purpose == "buy_phase"
        for s in game.states)


def test_short_rollouts_get_more_samples_up_to_the_scale():
    """`scale`: where rollouts are shorter than at the bot's first search (the end of the game),
    it plays more samples, never more than ``scale`` times its playouts; scale 1 never does."""
    def spent_per_search(scale):
        bot = SearchBot(3, playouts=8, candidates=2, scale=scale)
        state = dominion.new_game(players=2, kingdom="First Game", seed=2, first_player=0)
        searched = []
        original = bot._search

        def search(*args):
            before = bot.spent
            answer = original(*args)
            searched.append(bot.spent - before)
            return answer
        bot._search = search
        play_out(state, [bot, make_bot("big-money", 1)], [False, True],
                                dominion.step, 400)
        return searched
    fixed, scaled = spent_per_search(1), spent_per_search(4)
    assert max(fixed) <= 8 and max(scaled) > 8
    assert max(scaled) <= 4 * 8
    for bad in (0.5, "2", -1, True, float("nan")):
        with pytest.raises(ValueError, match="scale"):
            SearchBot(1, scale=bad)


def test_nothing_is_searched_while_the_default_plays_treasures():
    """The buy follows the Treasures: searching before them could only compare buying nothing
    (whose noise once bought nothing on a first turn)."""
    state = dominion.position("First Game", hands=[["Copper"] * 4 + ["Estate"], ["Copper"] * 5],
                              phase="buy")
    bot = SearchBot(1, playouts=8)
    answer = bot.answer_state(state)
    assert answer == dominion.Move("play_treasures") and bot.searched == 0
    state = dominion.step(state, answer)
    bot.answer_state(state)
    assert bot.searched == 1


def test_near_the_end_an_estate_is_among_the_buys_tried():
    """With half the Provinces gone, Estate is tried before Gold and the Kingdom cards."""
    def tried(supply):
        state = dominion.position("First Game", hands=[["Gold", "Gold", "Copper", "Copper",
                                                        "Estate"], []],
                                  phase="buy", supply=supply)
        state = dominion.step(state, dominion.Move("play_treasures"))
        bot = SearchBot(1, playouts=8, candidates=5)
        seen = []
        bot._search = lambda determinizer, seat, candidates, policy, kingdom: (
            seen.extend(candidates), 0)[1]
        bot.answer_state(state)
        return [m.card for m in seen]
    assert "Estate" in tried({"Province": 4}) and "Estate" in tried({"Village": 0, "Cellar": 0})
    assert "Estate" not in tried({"Province": 5})


@settings(max_examples=property_examples(30), **SLOW)
@given(game_specs())
def test_a_seat_remembers_its_own_discard_pile_exactly_from_its_views(spec):
    """Rulebook: a player may not look through their discard pile, but they put every card
    there. `DiscardMemory`, shown a seat's views at its decisions, knows the pile exactly
    whenever it claims to know it, through every card of the four sets (random answers); it
    knows it again from the next shuffle where it lost it."""
    game = random_trajectory(spec)
    remembered = RememberedDiscards(len(game.states[0].players))
    for state in game.states:
        d = dominion.pending(state)
        if d is None:
            continue
        remembered.show(state)
        pile = remembered.memories[d.player].cards
        if pile is not None:
            assert +pile == Counter(state.players[d.player].discard), (spec, d)


def test_in_bot_games_the_discard_pile_is_known_at_nearly_every_decision():
    """Not a memory that is always in doubt: in games of scripted bots and a random one (random
    Kingdoms, 3 seats) it knows the pile at over 95% of the decisions."""
    known = asked = 0
    for seed in range(12):
        kingdom = dominion.make_config(3, "random", None, seed).kingdom
        state = dominion.new_game(players=3, kingdom=list(kingdom), seed=seed, first_player=0)
        bots = [make_bot(name, seed) for name in
                ("witch-big-money" if "Witch" in kingdom else "big-money-ultimate",
                 "big-money-ultimate", "random")]
        remembered = RememberedDiscards(3)
        while state.stack:
            d = dominion.pending(state)
            remembered.show(state)
            pile = remembered.memories[d.player].cards
            asked += 1
            if pile is not None:
                known += 1
                assert +pile == Counter(state.players[d.player].discard), (seed, d)
            bot = bots[d.player]
            state = dominion.step(state, bot.answer(d, dominion.view(state, d.player,
                                                                     log_from=bot.log_from)))
    assert asked > 1000 and known > 0.95 * asked, (known, asked)


def test_harbinger_takes_the_card_it_puts_on_the_deck_out_of_the_remembered_pile():
    """Harbinger: look through your discard pile and put a card from it onto your deck."""
    state = dominion.position(kingdom_with("Harbinger"), hands=[["Harbinger", "Copper"], []],
                              decks=[["Estate", "Copper"], []], discards=[["Gold", "Estate"], []])
    remembered = RememberedDiscards(2, state)
    state = dominion.step(state, dominion.Move("play", "Harbinger"))
    remembered.show(state, 0)
    state = dominion.step(state, ("Gold",))
    remembered.show(state, 0)
    memory = remembered.memories[0]
    assert dominion.pending(state).player == 0 and state.players[0].deck[-1] == "Gold"
    assert +memory.cards == Counter(state.players[0].discard) == Counter(["Estate"])


def test_vassal_takes_the_action_it_plays_out_of_the_remembered_pile():
    """Vassal: discard the top card of your deck; if it is an Action, you may play it (from
    the discard pile), even with a copy of it in hand."""
    state = dominion.position(kingdom_with("Vassal", "Smithy"), hands=[["Vassal", "Smithy"], []],
                              decks=[["Smithy", "Copper", "Copper", "Copper"], []],
                              discards=[["Estate"], []])
    remembered = RememberedDiscards(2, state)
    state = dominion.step(state, dominion.Move("play", "Vassal"))
    remembered.show(state, 0)
    state = dominion.step(state, ("yes",))
    remembered.show(state, 0)
    memory = remembered.memories[0]
    assert state.players[0].in_play == ("Vassal", "Smithy")
    assert +memory.cards == Counter(state.players[0].discard) == Counter(["Estate"])


def test_chancellors_discarded_deck_is_not_remembered_until_the_next_shuffle():
    """Chancellor (1st edition): you may put your deck into your discard pile, without looking
    through it: which cards went is not known; the next shuffle empties the pile again."""
    state = dominion.position(kingdom_with("Chancellor"), hands=[["Chancellor", "Copper"], []],
                              decks=[["Estate", "Silver"], []], discards=[["Gold"], []])
    remembered = RememberedDiscards(2, state)
    memory = remembered.memories[0]
    state = dominion.step(state, dominion.Move("play", "Chancellor"))
    remembered.show(state, 0)
    state = dominion.step(state, ("yes",))
    remembered.show(state, 0)
    assert memory.cards is None and state.players[0].deck == ()
    while state.stack and not (dominion.pending(state).player == 0 and state.turn > 1):
        d = dominion.pending(state)
        if d.player == 0:
            remembered.show(state, 0)
        state = dominion.step(state, dominion.Move("end_phase") if d.kind == dominion.TURN
                              and any(m.verb == "end_phase" for m in d.moves) else d.moves[0])
    remembered.show(state, 0)
    assert +memory.cards == Counter(state.players[0].discard)


ESTATES_ONLY = '''name = "estates-only"
description = "A plan that cannot win: Estates with every buy"

[[buy]]
card = "Estate"
'''


@pytest.mark.parametrize("switch", [True, False])
def test_a_plan_that_cannot_win_is_switched_for_the_kingdoms_best_built_in(switch, tmp_path):
    """Every three own turns (from the third) the bot searches other plans too, each played
    from that buy on: a plan of Estates alone is dropped at turn 3 for the Kingdom's best
    built-in, for good; with ``switch`` off it is kept."""
    path = tmp_path / "estates-only.toml"
    path.write_text(ESTATES_ONLY)
    bot = SearchBot(3, playouts=32, candidates=2, rollout=str(path), switch=switch)
    state = dominion.new_game(players=2, kingdom="First Game", seed=2, first_player=0)
    state, _ = play_out(state, [bot, make_bot("big-money-ultimate", 1)], [False, True],
                        dominion.step, 5000)
    assert not state.stack
    if switch:
        assert bot.switches == [(3, "militia-big-money")]
        assert bot.policy is not None and bot.policy.strategy.name == "militia-big-money"
        bought = [e.cards for e in dominion.view(state, 0, log_from=0).log
                  if e.kind == "buy" and e.player == 0]
        assert any("Province" in cards for cards in bought)
    else:
        assert bot.switches == [] and bot.policy is not None
        assert bot.policy.strategy.name == "estates-only"


def test_another_seats_shown_plan_is_one_it_may_switch_to():
    """The plans searched at a switch: the Kingdom's best built-in, then each other seat's plan
    as its buys show it (Big Money Ultimate with its Kingdom cards), never the bot's own."""
    bot = SearchBot(1, playouts=4, rollout="big-money-ultimate")
    state = dominion.position("First Game", hands=[["Gold", "Gold", "Copper", "Copper",
                                                    "Estate"], []], phase="buy")
    bot.answer_state(state)   # its rollout strategy has now counted the seats' cards
    policy = bot.policy
    assert policy is not None and policy.known is not None
    policy.known.counts[1]["Militia"] = 1
    names = [s.name for s in bot._alternatives(state.config.kingdom, 0, policy)]
    assert names == ["militia-big-money", "BMU + Militia x2"]
    bot.policy = make_bot("militia-big-money", 1)
    bot.policy.answer(dominion.pending(state), dominion.view(state, 0, log_from=0))
    assert bot.policy.known is not None
    assert [s.name for s in bot._alternatives(state.config.kingdom, 0, bot.policy)] == []


def test_switch_is_an_option_of_the_name():
    assert search_options("search:switch=off,playouts=9") == dict(switch=False, playouts=9)
    with pytest.raises(ValueError, match="switch must be on or off"):
        search_options("search:switch=maybe")


def _torturer_victims_question():
    """Seat 0 plays Torturer; seat 1, holding a Province hand, is asked to choose."""
    state = dominion.position(["Torturer", "Village", "Smithy", "Market", "Festival", "Moat",
                               "Cellar", "Mine", "Militia", "Workshop"],
                              hands=[["Torturer", "Copper", "Copper", "Copper", "Estate"],
                                     ["Gold", "Gold", "Silver", "Copper", "Estate"]])
    state = dominion.step(state, dominion.Move("play", "Torturer"))
    d = dominion.pending(state)
    assert d.player == 1 and d.kind == "choose" and d.card == "Torturer"
    return state, d


@pytest.mark.parametrize("choices", [True, False])
def test_with_choices_a_question_of_options_is_searched_and_answered_legally(choices):
    """``choices``: a CHOOSE question with a few legal answers (Torturer's victim here) is
    searched like a buy; without it, the rollout strategy answers at once."""
    state, d = _torturer_victims_question()
    bot = SearchBot(4, playouts=16, choices=choices)
    answer = bot.answer_state(state)
    assert set(answer) <= set(d.options) and d.min <= len(answer) <= d.max
    assert (bot.searched, bot.spent > 0) == ((1, True) if choices else (0, False))
    dominion.step(state, answer)   # legal: the engine takes it


def test_choices_is_an_option_of_the_name():
    assert search_options("search:choices=on") == dict(choices=True)
    with pytest.raises(ValueError, match="choices must be on or off"):
        search_options("search:choices=sometimes")
    with pytest.raises(ValueError, match="choices must be true or false"):
        SearchBot(1, choices="yes")
