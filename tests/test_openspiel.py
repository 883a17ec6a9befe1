"""The OpenSpiel game: OpenSpiel's own random-simulation checks (C++ and Python, with
serialization) at every player count, its MCTS and ISMCTS bots playing whole games, resampling
through `dominion.determinize`, the RL environments' action ids, and the golden playthroughs."""
import pickle
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")   # the [openspiel] extra; CI installs it (dev)

import dominion  # noqa: E402
import dominion_rl.openspiel  # noqa: E402,F401  (registers "dominion")
from dominion_rl.encoding import ACTIONS, legal_actions, observation  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_passes_openspiels_random_simulation_test_with_serialization(players):
    game = pyspiel.load_game("dominion", {"players": players, "kingdom": "random",
                                          "seed": players, "max_turns": 6})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_passes_openspiels_python_simulation_checks_clone_pickle_and_serialize(players):
    from open_spiel.python.tests.games_sim_test import GamesSimTest
    game = pyspiel.load_game("dominion", {"players": players, "kingdom": "random",
                                          "sets": "base-2e;intrigue-2e",
                                          "seed": 10 + players, "max_turns": 8})
    np.random.seed(players)    # the checks draw their actions from NumPy's global generator
    GamesSimTest().sim_game(game)


def test_a_whole_game_to_its_end_terminates_with_zero_sum_returns():
    game = pyspiel.load_game("dominion(players=2,seed=8,max_turns=100)")
    state = game.new_initial_state()
    rng = np.random.default_rng(8)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert dominion.is_over(state.engine_state)
    returns = state.returns()
    assert sum(returns) == 0 and sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state) and restored.returns() == returns


def test_openspiels_mcts_and_ismcts_bots_play_whole_games():
    from open_spiel.python.algorithms import ismcts, mcts
    for players in (2, 3):
        game = pyspiel.load_game("dominion", {"players": players, "seed": 5, "max_turns": 3})
        rng = np.random.RandomState(players)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=evaluator,
                             random_state=rng, solve=False)] + [
            ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=rng)
            for _ in range(players - 1)]
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
            moves += 1
        assert moves > 5 and state.is_terminal() and sum(state.returns()) == 0


def test_resampling_deals_hidden_cards_anew_and_keeps_the_information_state():
    game = pyspiel.load_game("dominion(players=3,kingdom=random,seed=21,max_turns=20)")
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for _ in range(150):
        if state.is_terminal():
            break
        player = state.current_player()
        for seat in range(3):
            sample = state.resample_from_infostate(seat, sampler)
            assert sample.information_state_string(seat) == state.information_state_string(seat)
            assert sample.observation_string(seat) == state.observation_string(seat)
            assert np.array_equal(sample.observation_tensor(seat), state.observation_tensor(seat))
            assert dominion.view(sample.engine_state, seat) == dominion.view(state.engine_state,
                                                                            seat)
            differed += sample.engine_state.players != state.engine_state.players
            if seat == player:
                assert sample.legal_actions(player) == state.legal_actions(player)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert differed > 100
    # a resampled state is no game's record: it pickles as itself
    again = pickle.loads(pickle.dumps(sample))
    assert again.engine_state == sample.engine_state


def test_actions_and_observations_are_the_rl_environments():
    game = pyspiel.load_game("dominion(players=2,seed=2,max_turns=10)")
    assert game.num_distinct_actions() == ACTIONS
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while not state.is_terminal():
        d = dominion.pending(state.engine_state)
        picked = list(state.picked(d.player))
        assert state.legal_actions() == legal_actions(d, picked)
        for seat in range(2):
            assert np.array_equal(
                state.observation_tensor(seat),
                observation(state.engine_state, seat, picked if seat == d.player else []))
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_the_kingdom_and_the_seed_are_parameters_and_bad_ones_are_refused():
    names = "Cellar;Chapel;Moat;Village;Smithy;Militia;Market;Mine;Witch;Throne Room"
    game = pyspiel.load_game("dominion", {"kingdom": names, "seed": 4})
    assert sorted(game.new_initial_state().engine_state.config.kingdom) == sorted(
        names.split(";"))
    assert str(pyspiel.load_game(str(game))) == str(game)   # its game string loads it again
    with pytest.raises(ValueError, match="';'"):
        pyspiel.load_game("dominion", {"kingdom": names.replace(";", ",")})
    preset = pyspiel.load_game("dominion", {"kingdom": "Big Money", "players": 4})
    assert preset.new_initial_state().engine_state.config.kingdom == dominion.resolve_kingdom(
        "Big Money")
    one = pyspiel.load_game("dominion", {"kingdom": "random", "sets": "intrigue-1e", "seed": 1})
    assert all("intrigue-1e" in dominion.card(c).editions
               for c in one.new_initial_state().engine_state.config.kingdom)
    with pytest.raises(dominion.DominionError, match="Smithyy"):
        pyspiel.load_game("dominion", {"kingdom": names.replace("Smithy", "Smithyy")})
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game("dominion", {"players": 7})
    state = game.new_initial_state()
    illegal = next(a for a in range(ACTIONS) if a not in state.legal_actions())
    before = str(state)
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)
    assert str(state) == before


@pytest.mark.parametrize("name", ["dominion_2p.txt", "dominion_4p.txt"])
def test_the_golden_playthroughs_are_current(name):
    """Regenerated with OpenSpiel's own generator (scripts/gen_openspiel_playthroughs.py):
    any change to a playthrough is a change of behaviour to review."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import gen_openspiel_playthroughs as gen
    finally:
        sys.path.pop(0)
    game_string, seed = next((g, s) for n, g, s in gen.PLAYTHROUGHS if n == name)
    expected = (gen.FOLDER / name).read_text(encoding="utf-8")
    assert gen.playthrough(game_string, seed) == expected, (
        f"{name} is stale: run scripts/gen_openspiel_playthroughs.py and review the diff")
