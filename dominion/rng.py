"""The game's random generator: splitmix64, as pure functions on an integer state.

The generator's whole state is one 64-bit integer stored in the game state, so any state can be
copied, stored and resumed with its future shuffles intact, and results do not depend on the
Python version (unlike `random.Random`, whose algorithms are not promised to stay the same).
"""

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


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


def shuffled(state: int, items: tuple) -> tuple[int, tuple]:
    """Return (new_state, items in a uniformly random order) by Fisher-Yates."""
    out = list(items)
    golden, m1, m2, mask, full = _GOLDEN, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB, MASK64, MASK64 + 1
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = full - (full % n)
        while True:  # splitmix64 inlined: shuffles are on the hot path
            state = (state + golden) & mask
            z = ((state ^ (state >> 30)) * m1) & mask
            z = ((z ^ (z >> 27)) * m2) & mask
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)
