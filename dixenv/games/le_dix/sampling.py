"""Uniform deals of unseen cards into places with suit restrictions (for ``LeDixState.sample_hidden``).

A *place* is ``(capacity, allowed)``: it takes exactly ``capacity`` cards, only of the suits whose
bit is set in ``allowed`` (another player's hand: the suits it has not shown a void in; the undealt
cards and a hidden discard: every suit). ``Filling(cards, places)`` counts the ways to deal a set
of distinct cards into the places (``count()``) and draws one of them uniformly (``sample(rng)``).

Why by hand: plain rejection (shuffle, deal, retry until every void holds) gets slow late in a deal,
when voids leave few consistent deals (measured in ``docs``/README: the acceptance rate falls under
1% in some positions), and no well-kept library does constrained card deals. The count is exact:

* places that allow every suit (the *free* places) take whatever is left, in
  ``multinomial(rest; their capacities)`` ways, whatever the suits of the rest;
* the last restricted place takes ``capacity`` of the ``a`` remaining cards of its allowed suits
  in ``C(a, capacity)`` ways (Vandermonde), so only the restricted places before it are
  enumerated: for each, how many cards of each allowed suit it gets (memoised on the remaining
  suit counts). There are at most four restricted places (five players), so this stays small.

Sampling walks the same recursion: choose a place's suit counts with probability proportional to
the number of completions, then which cards of each suit uniformly.
"""

from __future__ import annotations

from math import comb, factorial
from typing import Iterator, Sequence

import numpy as np

from dixenv.games.le_dix.cards import NUM_SUITS, SUIT_OF

ALL_SUITS = (1 << NUM_SUITS) - 1  # the allowed-suits mask of a place that takes any card

Place = tuple[int, int]  # (capacity, allowed-suits bit mask)


def draw_below(n: int, rng: np.random.Generator) -> int:
    """A uniform integer in ``0 .. n-1``, exact for Python ints of any size (numpy's stop at 2**63)."""
    if n <= 0:
        raise ValueError(f"draw_below needs n >= 1, got {n}")
    if n <= 1 << 62:
        return int(rng.integers(n))
    bits = n.bit_length()
    chunks = (bits + 61) // 62
    while True:  # rejection on a draw of whole 62-bit chunks: exactly uniform
        r = 0
        for _ in range(chunks):
            r = (r << 62) | int(rng.integers(1 << 62))
        r >>= 62 * chunks - bits
        if r < n:
            return r


def _splits(capacity: int, suits: tuple[int, ...], counts: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``capacity`` cards as per-suit numbers over ``suits`` (at most ``counts[s]`` each)."""
    if not suits:
        if capacity == 0:
            yield ()
        return
    s, rest = suits[0], suits[1:]
    room = sum(counts[t] for t in rest)
    for y in range(max(0, capacity - room), min(capacity, counts[s]) + 1):
        for tail in _splits(capacity - y, rest, counts):
            yield (y,) + tail


class Filling:
    """The ways to deal one set of cards into places: ``count()`` them, ``sample(rng)`` one uniformly.

    The counting recursion is memoised on the object, so counting then sampling costs one pass.
    """

    def __init__(self, cards: Sequence[int], places: Sequence[Place]):
        if sum(cap for cap, _ in places) != len(cards):
            raise ValueError(f"places hold {sum(cap for cap, _ in places)} cards but {len(cards)} cards are to be dealt")
        # Enumerate the places with the fewest splits first; the last (the widest) is counted in closed form.
        self.restricted = sorted(
            (i for i, (_, allowed) in enumerate(places) if allowed != ALL_SUITS),
            key=lambda i: (bin(places[i][1]).count("1"), places[i][0]),
        )
        self.free = [i for i, (_, allowed) in enumerate(places) if allowed == ALL_SUITS]
        self.places = places
        self.suits = [tuple(s for s in range(NUM_SUITS) if allowed >> s & 1) for _, allowed in places]
        rest = sum(places[i][0] for i in self.free)
        self.free_ways = factorial(rest)
        for i in self.free:
            self.free_ways //= factorial(places[i][0])
        self.pool = [[c for c in sorted(cards) if SUIT_OF[c] == s] for s in range(NUM_SUITS)]
        self.counts = tuple(len(p) for p in self.pool)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(self) -> int:
        """The number of ways to deal the cards into the places, filling each exactly."""
        return self.ways(0, self.counts)

    def ways(self, j: int, counts: tuple[int, ...]) -> int:
        """Fillings of the restricted places ``j``… and the free places from per-suit ``counts``."""
        r = self.restricted
        if j == len(r):
            return self.free_ways
        cap = self.places[r[j]][0]
        suits = self.suits[r[j]]
        if j == len(r) - 1:
            return comb(sum(counts[s] for s in suits), cap) * self.free_ways
        key = (j, counts)
        got = self._memo.get(key)
        if got is None:
            got = sum(w for _, w in self.options(j, counts))
            self._memo[key] = got
        return got

    def options(self, j: int, counts: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """For restricted place ``j``: each per-suit split and the number of fillings that start with it."""
        suits = self.suits[self.restricted[j]]
        for split in _splits(self.places[self.restricted[j]][0], suits, counts):
            rest = list(counts)
            w = 1
            for s, y in zip(suits, split):
                w *= comb(counts[s], y)
                rest[s] -= y
            if w:
                w *= self.ways(j + 1, tuple(rest))
                if w:
                    yield split, w


    def sample(self, rng: np.random.Generator) -> list[list[int]]:
        """One filling (the cards of each place, sorted), uniform among all; ``ValueError`` if there is none.

        Deterministic for a given ``rng`` and the *set* of cards: they are taken in sorted order.
        """
        if self.count() == 0:
            raise ValueError("no way to deal these cards into these places")
        pool = [list(p) for p in self.pool]
        out: list[list[int]] = [[] for _ in self.places]
        counts = self.counts
        r = self.restricted
        for j, place in enumerate(r):
            suits = self.suits[place]
            if j < len(r) - 1:
                options = list(self.options(j, counts))
                pick = draw_below(sum(w for _, w in options), rng)
                for split, w in options:
                    if pick < w:
                        break
                    pick -= w
                for s, y in zip(suits, split):
                    out[place] += _take(pool[s], y, rng)
            else:  # the last restricted place: any ``capacity`` of its allowed cards, uniformly
                allowed = [c for s in suits for c in pool[s]]
                chosen = set(_take(allowed, self.places[place][0], rng))
                out[place] = list(chosen)
                for s in suits:
                    pool[s] = [c for c in pool[s] if c not in chosen]
            counts = tuple(len(p) for p in pool)
        rest = [c for p in pool for c in p]
        rest = [rest[i] for i in rng.permutation(len(rest))]
        for place in self.free:
            cap = self.places[place][0]
            out[place], rest = rest[:cap], rest[cap:]
        return [sorted(o) for o in out]


def _take(cards: list[int], k: int, rng: np.random.Generator) -> list[int]:
    """Remove ``k`` cards chosen uniformly from ``cards`` (in place) and return them."""
    if k == 0:
        return []
    picked = sorted(rng.choice(len(cards), size=k, replace=False).tolist())
    taken = [cards[i] for i in picked]
    for i in reversed(picked):
        del cards[i]
    return taken
