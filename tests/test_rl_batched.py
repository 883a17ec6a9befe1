"""The batched environment: many games stepped together with NumPy arrays, the same encoding as
`DominionEnv`, automatic reset, truncation, determinism from a seed, refusal of illegal actions."""
import numpy as np
import pytest

pytest.importorskip("pettingzoo")   # the [rl] extra; CI installs it

import dominion  # noqa: E402
from dominion_rl import BatchedDominionEnv, DominionEnv, masked_random_actions  # noqa: E402
from dominion_rl.encoding import (ACTIONS, OBSERVATION_SIZE, action_mask, final_rewards,  # noqa: E402
                                  observation)


def _run(env, seed, rounds):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [(obs, info)]
    for _ in range(rounds):
        out.append(env.step(masked_random_actions(obs["action_mask"], rng)))
        obs = out[-1][0]
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_masked_random_batches_play_games_to_their_end_and_reset_them(players):
    env = BatchedDominionEnv(num_games=6, players=players, kingdom="random",
                             always_ask=players == 5, max_turns=30)
    obs, info = env.reset(seed=players)
    assert obs["observation"].shape == (6, OBSERVATION_SIZE)
    assert obs["action_mask"].shape == (6, ACTIONS) and obs["seat"].shape == (6,)
    rng = np.random.default_rng(players)
    ended = 0
    seeds = set(info["game_seeds"].tolist())
    for _ in range(1000):
        obs, rewards, terminated, truncated, info = env.step(
            masked_random_actions(obs["action_mask"], rng))
        assert rewards.shape == (6, players) and obs["action_mask"].any(axis=1).all()
        for i in np.flatnonzero(terminated | truncated):
            ended += 1
            final = info["final_states"][i]
            assert dominion.is_over(final) == terminated[i]
            assert info["scores"][i].tolist() == list(dominion.score(final))
            assert tuple(rewards[i]) == pytest.approx(
                final_rewards(final) if terminated[i] else (0.0,) * players)
            assert info["game_seeds"][i] not in seeds   # a fresh game with a new seed
            seeds.add(int(info["game_seeds"][i]))
        assert not (terminated & truncated).any()
        assert all((f is None) == (not ended_now) for f, ended_now in
                   zip(info["final_states"], terminated | truncated))
        assert (rewards[~terminated] == 0).all()
        for i in range(6):  # every row is its game's encoding for the seat to move
            d = dominion.pending(env.states[i])
            assert obs["seat"][i] == d.player
    assert ended >= 3


def test_rows_are_the_shared_encoding_of_each_games_state():
    env = BatchedDominionEnv(num_games=4, players=3, kingdom="random")
    obs, _ = env.reset(seed=11)
    rng = np.random.default_rng(1)
    for _ in range(300):
        obs, *_ = env.step(masked_random_actions(obs["action_mask"], rng))
        for i, state in enumerate(env.states):
            d = dominion.pending(state)
            picked = env.picked(i)
            assert np.array_equal(obs["observation"][i], observation(state, d.player, picked))
            assert np.array_equal(obs["action_mask"][i], action_mask(d, picked))


def test_the_same_seed_gives_the_same_batches():
    a = _run(BatchedDominionEnv(num_games=5, players=2, kingdom="random"), 9, 200)
    b = _run(BatchedDominionEnv(num_games=5, players=2, kingdom="random"), 9, 200)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            if isinstance(u, dict):
                assert u.keys() == v.keys()
                assert all(u[k] == v[k] if k == "final_states" else np.array_equal(u[k], v[k])
                           for k in u)
            else:
                assert np.array_equal(u, v)
    c = _run(BatchedDominionEnv(num_games=5, players=2, kingdom="random"), 10, 0)
    assert not np.array_equal(a[0][1]["game_seeds"], c[0][1]["game_seeds"])


def test_games_reaching_the_turn_limit_are_truncated_and_replaced():
    env = BatchedDominionEnv(num_games=3, players=2, max_turns=3)
    obs, _ = env.reset(seed=2)
    truncations = 0
    for _ in range(200):   # always the first legal action: end every phase, never buy
        first = np.argmax(obs["action_mask"] == 1, axis=1)
        obs, rewards, terminated, truncated, info = env.step(first)
        truncations += int(truncated.sum())
        assert not terminated.any() and (rewards == 0).all()
        for i in np.flatnonzero(truncated):
            assert info["scores"][i].tolist() == [3, 3]
            assert env.states[i].turn == 1          # a new game in the row
    assert truncations >= 6


def test_an_illegal_action_is_refused_and_nothing_changes():
    env = BatchedDominionEnv(num_games=3)
    obs, _ = env.reset(seed=1)
    states = list(env.states)
    actions = masked_random_actions(obs["action_mask"], np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match=r"illegal actions in games \[1\]"):
        env.step(actions)
    with pytest.raises(ValueError, match="one per game"):
        env.step(actions[:2])
    with pytest.raises(ValueError, match="illegal"):
        env.step(np.array([-1, ACTIONS, 10 ** 6]))
    assert env.states == states


def test_dominion_env_and_the_batched_env_share_one_encoding():
    import dominion_rl.batched as batched
    import dominion_rl.env as single
    assert batched.observation is single.observation is observation
    assert batched.action_mask is single.action_mask is action_mask
    assert DominionEnv().observation_space("player_0")["observation"].shape == \
        (BatchedDominionEnv(num_games=1).observation_size,)


def test_a_finished_game_reports_termination_with_its_rewards_and_scores():
    env = BatchedDominionEnv(num_games=2, players=2, max_turns=None)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(20_000):
        obs, rewards, terminated, truncated, info = env.step(
            masked_random_actions(obs["action_mask"], rng))
        assert not truncated.any()
        if terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            final = info["final_states"][i]
            assert dominion.is_over(final)
            assert tuple(rewards[i]) == final_rewards(final)
            assert sorted(rewards[i]) in ([-1.0, 1.0], [0.0, 0.0])
            break
    else:
        raise AssertionError("no game ended")


def test_the_garbage_collector_is_left_as_found_and_still_reclaims_cycles(monkeypatch):
    import gc
    import weakref
    import dominion_rl.batched as batched
    monkeypatch.setattr(batched, "FULL_COLLECTION_EVERY", 3)
    env = BatchedDominionEnv(num_games=2)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)

    class Node:
        pass
    cycle = Node()
    cycle.me = cycle
    alive = weakref.ref(cycle)
    del cycle
    assert gc.isenabled()
    for _ in range(3):
        obs, *_ = env.step(masked_random_actions(obs["action_mask"], rng))
        assert gc.isenabled() and gc.get_freeze_count() == 0
    assert alive() is None    # the program's cycle, promoted, went at the full collection
    gc.disable()
    try:
        env.step(masked_random_actions(obs["action_mask"], rng))
        assert not gc.isenabled()
    finally:
        gc.enable()
    frozen = Node()
    gc.freeze()               # a program's own frozen objects stay frozen
    try:
        count = gc.get_freeze_count()
        env.step(masked_random_actions(env._mask, rng))
        assert 0 < gc.get_freeze_count() <= count   # not unfrozen (some died in the step)
    finally:
        gc.unfreeze()
    del frozen
