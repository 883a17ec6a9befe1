"""The random stream is part of the contract: a seed gives the same shuffles in every version, so
game records replay. These pin exact outputs of `dominion.rng`."""
from dominion import rng


def fisher_yates_with_below(state, items):
    """The specification of `rng.shuffled`: Fisher-Yates from the top index down, each swap
    partner drawn by `rng.below` (splitmix64 with rejection sampling)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = rng.below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)


def test_seed_state_is_pinned():
    assert rng.seed_state(0) == 16294208416658607535
    assert rng.seed_state(12345) == 2454886589211414944
    assert rng.seed_state(2**64 - 1) == 16490336266968443936


def test_below_is_pinned():
    assert rng.below(rng.seed_state(99), 6) == (16225100495840208888, 4)


def test_shuffles_are_pinned():
    assert rng.shuffled(rng.seed_state(0), tuple(range(10))) == \
        (8220177348310084204, (0, 1, 4, 6, 3, 9, 8, 7, 2, 5))
    assert rng.shuffled(rng.seed_state(12345), tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) == \
        (10771595966648102829, tuple("BQGYATDEIPFNSKZHUJCXWVLMOR"))
    assert rng.shuffled(rng.seed_state(2**64 - 1), tuple(range(40))) == \
        (18396356451543946067,
         (31, 38, 13, 20, 37, 5, 36, 33, 4, 26, 14, 19, 39, 22, 34, 27, 24, 15, 35, 3, 30, 10, 0,
          11, 21, 8, 2, 18, 29, 9, 23, 28, 12, 17, 16, 32, 25, 6, 1, 7))


def test_shuffling_fewer_than_two_cards_draws_nothing():
    s = rng.seed_state(7)
    assert rng.shuffled(s, ("x",)) == (s, ("x",))
    assert rng.shuffled(s, ()) == (s, ())


def test_shuffled_is_fisher_yates_driven_by_below():
    for seed in range(300):
        items = tuple(range(seed % 70))
        s = rng.seed_state(seed * 7919)
        assert rng.shuffled(s, items) == fisher_yates_with_below(s, items)


def _unxorshift(y, k):
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x


def state_before_draw(z):
    """The generator state whose next draw is ``z`` (splitmix64's mixing is a bijection)."""
    mask = rng.MASK64
    x = _unxorshift(z, 31)
    x = (x * pow(0x94D049BB133111EB, -1, 1 << 64)) & mask
    x = _unxorshift(x, 27)
    x = (x * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & mask
    x = _unxorshift(x, 30)
    return (x - 0x9E3779B97F4A7C15) & mask


def test_shuffle_redraws_a_draw_that_rejection_sampling_refuses():
    # Shuffling 3 cards draws below(3) first; 2**64 - 1 is the one value below(3) refuses.
    s = state_before_draw(rng.MASK64)
    assert rng.next_u64(s)[1] == rng.MASK64
    items = ("a", "b", "c")
    assert rng.shuffled(s, items) == fisher_yates_with_below(s, items)
    assert rng.shuffled(s, items)[0] != (s + 2 * 0x9E3779B97F4A7C15) & rng.MASK64  # 3 draws


def test_shuffling_a_pile_bigger_than_any_deck_is_still_fisher_yates():
    s = rng.seed_state(5)
    items = tuple(range(300))
    assert rng.shuffled(s, items) == fisher_yates_with_below(s, items)


def _state_before_output(target: int) -> int:
    """The generator state whose next `rng.next_u64` output is ``target`` (splitmix64's mix is
    a bijection: undo its xorshifts and multiplications)."""
    mask, full = rng.MASK64, rng.MASK64 + 1

    def unshift(y, k):
        x = y
        for _ in range(64 // k + 1):
            x = y ^ (x >> k)
        return x & mask
    z = unshift(target, 31)
    z = z * pow(0x94D049BB133111EB, -1, full) & mask
    z = unshift(z, 27)
    z = z * pow(0xBF58476D1CE4E5B9, -1, full) & mask
    z = unshift(z, 30)
    return (z - 0x9E3779B97F4A7C15) % full


def test_every_way_of_shuffling_follows_the_specification():
    """Whichever way `rng.shuffled` computes (all draws at once in Python, or on native 64-bit
    integers when compiled), it gives what the specification gives: every size, and states near
    0, 2**63 and 2**64."""
    import random
    r = random.Random(5)
    for _ in range(3000):
        state = r.choice([r.randrange(2**64), 2**64 - 1 - r.randrange(1000), r.randrange(1000),
                          2**63 + r.randrange(-500, 500)])
        items = tuple(range(r.randrange(70)))
        assert rng.shuffled(state, items) == fisher_yates_with_below(state, items)


def test_a_refused_draw_is_drawn_again_in_every_way_of_shuffling():
    """A draw of 2**64 - 1 is refused for 3 cards (2**64 is not a multiple of 3): the shuffle
    draws again, as the specification does."""
    state = _state_before_output(2**64 - 1)
    assert rng.next_u64(state)[1] == 2**64 - 1
    assert rng.below(state, 3)[0] == (state + 2 * 0x9E3779B97F4A7C15) & rng.MASK64  # 2 draws
    assert rng.shuffled(state, ("a", "b", "c")) == fisher_yates_with_below(state, ("a", "b", "c"))
    for size in (5, 6, 7, 40):
        items = tuple(range(size))
        for target in (2**64 - 1, 2**64 - 2, 2**63, 2**63 - 1):
            start = _state_before_output(target)
            assert rng.shuffled(start, items) == fisher_yates_with_below(start, items)
