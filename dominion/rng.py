"""The game's random generator: splitmix64, as pure functions on an integer state.

The generator's whole state is one 64-bit integer stored in the game state, so any state can be
copied, stored and resumed with its future shuffles intact, and results do not depend on the
Python version (unlike `random.Random`, whose algorithms are not promised to stay the same).
"""

import operator
import struct
from functools import lru_cache
from typing import Final

from . import rng_native
from .rng_native import shuffled_signed

# Final: the compiled generator reads these as constants, not from the module's dictionary.
MASK64: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any int; reduced to 64 bits, then mixed once, so
    that seeds differing by the generator's increment do not give shifted copies of one
    stream)."""
    return next_u64(seed & MASK64)[1]


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, a uniformly random 64-bit integer)."""
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, an unbiased random integer in [0, n)), by rejection sampling."""
    limit = (MASK64 + 1) - ((MASK64 + 1) % n)
    while True:
        state, z = next_u64(state)
        if z < limit:
            return state, z % n


_M1: Final = 0xBF58476D1CE4E5B9
_M2: Final = 0x94D049BB133111EB
_FULL: Final = MASK64 + 1
_MAX_SIGNED: Final = (1 << 63) - 1
# Compiled, `rng_native` shuffles on native 64-bit integers (the same draws, a test checks).
_NATIVE: Final = not rng_native.__file__.endswith(".py")


def shuffled(state: int, items: tuple) -> tuple[int, tuple]:
    """Return (new_state, items in a uniformly random order) by Fisher-Yates: from the top index
    ``i`` down to 1, swap with the index ``below(i + 1)`` draws.

    Shuffles are the engine's hottest arithmetic, so the draws are computed all at once (see
    `_draws`); in the rare case that rejection sampling would refuse one of them, the shuffle is
    redone one draw at a time, which gives the same result by definition. `below(n)` refuses
    only draws of 2**64 - 2**64 % n or more, never a draw below 2**64 - n: when every draw is
    below 2**64 - len(items), none is refused."""
    out = list(items)
    n = len(out)
    if n < 2:
        return state, tuple(out)
    if _NATIVE:
        signed: int = shuffled_signed(state - _FULL if state > _MAX_SIGNED else state, out)
        return signed + _FULL if signed < 0 else signed, tuple(out)
    draws = _draws(state, n - 1)
    if max(draws) >= _FULL - n:
        return _shuffled_one_draw_at_a_time(state, items)
    for i, j in zip(range(n - 1, 0, -1), map(operator.mod, draws, range(n, 1, -1))):
        out[i], out[j] = out[j], out[i]
    return (state + (n - 1) * _GOLDEN) & MASK64, tuple(out)


def _draws(state: int, count: int) -> tuple:
    """The next ``count`` outputs of `next_u64` from ``state``, computed together.

    The k-th draw's generator state is ``state + k * golden`` (mod 2**64), so all of them can be
    mixed at once: the states are packed into one big integer, 128 bits apart, and splitmix64's
    shifts, xors and multiplications are applied to the whole integer. 128 bits leave room for
    each 64-bit lane's product; masking every lane back to 64 bits after each step drops what a
    shift brought in from the next lane, so each lane ends exactly as `next_u64` would. A dozen
    operations on one long integer replace a dozen per card (about twice as fast for a deck)."""
    ones, steps, masks, unpack = _lanes(count)
    z = (state * ones + steps) & masks
    z = ((z ^ (z >> 30)) & masks) * _M1 & masks
    z = ((z ^ (z >> 27)) & masks) * _M2 & masks
    z = (z ^ (z >> 31)) & masks
    return unpack(z.to_bytes(16 * count, "little"))


@lru_cache(maxsize=512)
def _lanes(count: int) -> tuple:
    """Constants for `_draws` of ``count`` lanes: a 1 in each lane, ``k * golden`` in lane
    k - 1, a 64-bit mask in each lane, and the unpacker of the lanes' low 64 bits."""
    ones = sum(1 << (128 * k) for k in range(count))
    steps = sum(((k + 1) * _GOLDEN) << (128 * k) for k in range(count))
    return ones, steps, ones * MASK64, struct.Struct("<" + "Q8x" * count).unpack


def _shuffled_one_draw_at_a_time(state: int, items: tuple) -> tuple[int, tuple]:
    """`shuffled`, written directly with `below`."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)
