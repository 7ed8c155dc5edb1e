"""Counting and drawing deals of cards into places with suit restrictions (``le_dix.sampling``)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from dixenv.games.le_dix.cards import SUIT_OF, parse_card
from dixenv.games.le_dix.sampling import ALL_SUITS, Filling, draw_below


def _brute_fillings(cards, places) -> set[tuple[tuple[int, ...], ...]]:
    """Every filling, by trying every order of the cards."""
    slots = [i for i, (cap, _) in enumerate(places) for _ in range(cap)]
    found = set()
    for order in itertools.permutations(cards):
        filling = tuple(tuple(sorted(c for c, s in zip(order, slots) if s == i)) for i in range(len(places)))
        if all(allowed >> SUIT_OF[c] & 1 for i, (_, allowed) in enumerate(places) for c in filling[i]):
            found.add(filling)
    return found


def test_counts_match_brute_force_on_random_small_cases():
    rng = np.random.default_rng(0)
    nonzero = 0
    for _ in range(150):
        k = int(rng.integers(0, 8))
        cards = sorted(rng.choice(52, k, replace=False).tolist())
        caps = [0] * int(rng.integers(1, 5))
        for _ in range(k):
            caps[rng.integers(len(caps))] += 1
        places = [(cap, int(rng.integers(16)) if rng.random() < 0.7 else ALL_SUITS) for cap in caps]
        expected = len(_brute_fillings(cards, places))
        assert Filling(cards, places).count() == expected, (cards, places)
        nonzero += expected > 0
    assert nonzero > 50


def test_counts_without_restrictions_are_multinomials():
    # 20 cards into 5 + 7 + 8: 20! / (5! 7! 8!)
    assert Filling(list(range(20)), [(5, ALL_SUITS), (7, ALL_SUITS), (8, ALL_SUITS)]).count() == 99768240


def test_a_sample_respects_capacities_and_suits():
    cards = list(range(0, 52, 3))  # 18 cards of every suit
    places = [(4, 0b0011), (5, 0b1100), (3, 0b0101), (6, ALL_SUITS)]
    rng = np.random.default_rng(1)
    for _ in range(200):
        filled = Filling(cards, places).sample(rng)
        assert sorted(c for f in filled for c in f) == cards
        for (cap, allowed), f in zip(places, filled):
            assert len(f) == cap and all(allowed >> SUIT_OF[c] & 1 for c in f)


#: The chi-square distribution's 0.999 quantile by degrees of freedom (a standard table).
CHI2_999 = {5: 20.515, 17: 40.790, 18: 42.312}


@pytest.mark.parametrize(
    "places, fillings",
    [
        # Spades and hearts only; no spades; anything. Both spades in the first place leave 6 ways,
        # one there and one in the last 2 × 2 hearts × 3 = 12, both in the last 1: 19 fillings.
        ([(2, 0b0011), (2, 0b1110), (2, ALL_SUITS)], 19),
        # Two places with the same restriction (dealt together, then split): the spades go to the
        # free place, the other four cards split 2 + 2 in 6 ways.
        ([(2, 0b1110), (2, 0b1110), (2, ALL_SUITS)], 6),
        # Three restricted groups, one of two places, no free place. Both spades in the second
        # place: 2 hearts for the first × 3 splits of the rest = 6; one in each: 2 × 2 × 3 = 12.
        ([(1, 0b0011), (2, 0b1101), (1, 0b1110), (2, 0b1110)], 18),
    ],
)
def test_samples_are_uniform_over_the_fillings(places, fillings):
    cards = [parse_card(c) for c in ("2S", "3S", "4H", "5H", "6D", "7C")]
    every = sorted(_brute_fillings(cards, places))
    filling = Filling(cards, places)
    assert filling.count() == len(every) == fillings
    rng = np.random.default_rng(2)
    draws = 200 * fillings
    seen = Counter(tuple(tuple(f) for f in filling.sample(rng)) for _ in range(draws))
    assert set(seen) == set(every)
    expected = draws / fillings
    chi2 = sum((seen[f] - expected) ** 2 / expected for f in every)
    assert chi2 < CHI2_999[fillings - 1]


def test_an_impossible_filling_counts_zero_and_refuses_to_sample():
    cards = [parse_card("2S"), parse_card("3S")]
    filling = Filling(cards, [(2, 0b1110)])  # no spades allowed
    assert filling.count() == 0
    with pytest.raises(ValueError, match="no way"):
        filling.sample(np.random.default_rng(0))


def test_places_must_hold_exactly_the_cards():
    with pytest.raises(ValueError, match="places hold 3 cards but 2"):
        Filling([0, 1], [(3, ALL_SUITS)])


def test_draw_below_is_uniform_beyond_numpys_integer_range():
    rng = np.random.default_rng(3)
    n = 3 * 2**70
    draws = [draw_below(n, rng) for _ in range(3000)]
    assert all(0 <= d < n for d in draws)
    thirds = Counter(d * 3 // n for d in draws)
    assert all(900 < thirds[k] < 1100 for k in range(3))  # each third gets about 1000
    with pytest.raises(ValueError):
        draw_below(0, rng)
