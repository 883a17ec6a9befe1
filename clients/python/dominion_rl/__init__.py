"""A PettingZoo AEC environment for Dominion (extra ``[rl]``: ``pip install
'dominion-engine[rl]'``), for any RL library that speaks PettingZoo.

    from dominion_rl import DominionEnv
    env = DominionEnv(players=2, kingdom="First Game")
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)

`BatchedDominionEnv` steps many games together with NumPy arrays (one row per game, for the seat
to move); `import dominion_rl.openspiel` (extra ``[openspiel]``) registers the OpenSpiel game
``"dominion"``. All three share one encoding (`dominion_rl.encoding`).

The engine is pure; this wrapper holds the current state and the picks of a question being
answered, as PettingZoo's API requires. Actions, observations and rewards are documented field
by field in docs/research.md. The observation is built from `dominion.view` of the acting seat
only (and its own picks), so it never holds a card that seat may not see.
"""
from .encoding import action_labels, observation_fields
from .batched import BatchedDominionEnv, masked_random_actions
from .env import DominionEnv

__all__ = ["DominionEnv", "BatchedDominionEnv", "masked_random_actions", "action_labels",
           "observation_fields"]
