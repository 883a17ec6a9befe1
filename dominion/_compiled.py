"""The modules that the build compiles with mypyc (``setup.py``), in dependency order.

They are compiled as one group and call each other directly, so they load all compiled or all
from source (``dominion/__init__.py``), never mixed."""

COMPILED_MODULES = (
    "dominion.rng_native",
    "dominion.rng",
    "dominion.engine",
    "dominion.game",
    "dominion.views",
    "dominion.positions",
    "dominion.bots.knowledge",
    "dominion.bots.policy",
    "dominion.bots.playout",
    "dominion.bots.strategy",
    "dominion.cards.common",
    "dominion.cards.base",
    "dominion.cards.intrigue",
)
GROUP = "dominion.compiled"   # the shared library of their code: dominion/compiled__mypyc.*.so
