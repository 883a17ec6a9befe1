"""The PettingZoo environment: PettingZoo's own API and seed tests, thousands of masked random
steps to the end of games for 2 to 6 players, and observations that never see a hidden card."""
import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")   # the [rl] extra; CI installs it
from pettingzoo.test import api_test, seed_test  # noqa: E402

import dominion  # noqa: E402
from dominion_rl import DominionEnv, action_labels, observation_fields  # noqa: E402
from dominion_rl.env import ACTIONS, OBSERVATION_SIZE  # noqa: E402


def test_it_passes_pettingzoos_api_test():
    api_test(DominionEnv(players=3, kingdom="random"), num_cycles=300)


def test_it_passes_pettingzoos_seed_test():
    seed_test(lambda: DominionEnv(players=2, kingdom="random"), num_cycles=300)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_masked_random_actions_play_games_to_the_end(players):
    env = DominionEnv(players=players, kingdom="random", always_ask=players == 4)
    steps = games = 0
    for seed in range(8):
        env.reset(seed=seed * 10 + players)
        for agent in env.agent_iter(max_iter=20_000):
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.any() and obs["observation"].shape == (OBSERVATION_SIZE,)
            env.step(env.action_space(agent).sample(mask))
            steps += 1
        assert dominion.is_over(env.state)
        games += 1
    assert steps > 2000 and games == 8


def test_rewards_come_at_the_end_winners_plus_losers_minus():
    env = DominionEnv(players=2)
    env.reset(seed=4)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else
                 env.action_space(agent).sample(obs["action_mask"]))
    winners = dominion.winners(env.state)
    for seat, agent in enumerate(env.possible_agents):
        if len(winners) < 2:
            assert totals[agent] == (1.0 if seat in winners else -1.0)


def test_an_illegal_action_is_refused():
    env = DominionEnv()
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))


def test_the_observation_never_sees_a_hidden_card():
    """States the observer cannot tell apart (`dominion.determinize`: every card hidden from
    them dealt anew) give the same observation."""
    env = DominionEnv(players=3, kingdom="random")
    env.reset(seed=7)
    rng = np.random.default_rng(0)
    checked = 0
    for agent in env.agent_iter(max_iter=600):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        real = env.state
        for seat, other in enumerate(env.possible_agents):
            before = env.observe(other)["observation"]
            env.state = dominion.determinize(real, seat, int(rng.integers(2 ** 63)))
            assert np.array_equal(env.observe(other)["observation"], before)
            env.state = real
            checked += 1
        env.step(env.action_space(agent).sample(obs["action_mask"]))
    assert checked > 300


def test_actions_and_fields_are_labelled():
    assert len(action_labels()) == ACTIONS
    assert sum(n for _, n in observation_fields()) == OBSERVATION_SIZE


def _first_legal_action_until_done(env, max_iter=200_000):
    """Always the lowest legal action (ends every phase, never buys: a game with no end)."""
    last = None
    for agent in env.agent_iter(max_iter=max_iter):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            last = (term, trunc, info, reward)
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return last


def test_a_game_with_no_end_is_truncated_at_the_turn_limit_as_pettingzoo_expects():
    env = DominionEnv(players=3, max_turns=7)
    env.reset(seed=3)
    term, trunc, info, reward = _first_legal_action_until_done(env)
    assert (term, trunc, reward) == (False, True, 0.0)
    assert info["scores"] == dominion.score(env.state) == (3, 3, 3)
    assert env.agents == []   # every agent was removed after its truncated step
    assert max(env.state.turns_taken) == 8 and not dominion.is_over(env.state)


def test_the_turn_limit_is_on_by_default_and_can_be_turned_off():
    env = DominionEnv()
    assert env.max_turns == 100
    env.reset(seed=1)
    assert _first_legal_action_until_done(env)[1] is True
    assert env.state.turns_taken[env.state.current] == 101
    unlimited = DominionEnv(max_turns=None)
    unlimited.reset(seed=1)
    assert _first_legal_action_until_done(unlimited, max_iter=3000) is None
    with pytest.raises(ValueError, match="max_turns"):
        DominionEnv(max_turns=0)


def test_a_finished_game_reports_termination_not_truncation_with_the_scores():
    env = DominionEnv(players=2, max_turns=100)
    env.reset(seed=4)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert term and not trunc and info["scores"] == dominion.score(env.state)
            env.step(None)
            continue
        env.step(env.action_space(agent).sample(obs["action_mask"]))
    assert dominion.is_over(env.state)
