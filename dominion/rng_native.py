"""`rng.shuffled` for the compiled engine: the same splitmix64 and Fisher-Yates, on native
64-bit integers (mypyc's ``i64``, which wraps around like the generator's arithmetic mod
2**64). Used only when compiled (`rng.shuffled` checks); as Python source, ``i64`` is a plain
``int`` that never wraps, so `rng`'s own functions run instead. A test plays both on every
size and on states near the top of the range."""
from __future__ import annotations

from typing import Final

from mypy_extensions import i64



def _signed(x: int) -> i64:
    """An unsigned 64-bit constant as a two's-complement ``i64``. The constants are made by
    this call, not written as literals: compiled, a literal this large is a Python int that
    every use converts again (two thirds of a shuffle's instructions, callgrind, 2026-11-27);
    a computed Final ``i64`` is a native value."""
    return x - (1 << 64) if x >= 1 << 63 else x


# splitmix64's constants as two's-complement 64-bit values.
_GOLDEN: Final[i64] = _signed(0x9E3779B97F4A7C15)
_M1: Final[i64] = _signed(0xBF58476D1CE4E5B9)
_M2: Final[i64] = _signed(0x94D049BB133111EB)
_LOW_63: Final[i64] = _signed(0x7FFFFFFFFFFFFFFF)


def _output(s: i64) -> i64:
    """splitmix64's output for the (already advanced) state ``s``; shifts are logical."""
    z = (s ^ ((s >> 30) & 0x3FFFFFFFF)) * _M1
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _M2
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


def _unsigned_mod(z: i64, n: i64) -> i64:
    """(z as an unsigned 64-bit number) mod n."""
    if z >= 0:
        return z % n
    return ((z & _LOW_63) % n + (_LOW_63 % n) + 1) % n


def shuffled_signed(s: i64, items: list) -> i64:
    """Shuffle ``items`` in place exactly as `rng._shuffled_one_draw_at_a_time` does, from the
    generator state ``s`` (signed); return the new state (signed)."""
    i: i64 = len(items) - 1
    while i > 0:
        n: i64 = i + 1
        # `below(n)` refuses the draws of 2**64 - (2**64 mod n) and above: as signed numbers,
        # -r .. -1 with r = 2**64 mod n.
        r: i64 = ((_LOW_63 % n + 1) % n * 2) % n
        while True:
            s = s + _GOLDEN
            z = _output(s)
            if not (z < 0 and z >= -r):
                break
        j = _unsigned_mod(z, n)
        items[i], items[j] = items[j], items[i]
        i -= 1
    return s
