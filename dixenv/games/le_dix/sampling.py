"""Uniform deals of unseen cards into places with suit restrictions (for ``LeDixState.sample_hidden``).

A *place* is ``(capacity, allowed)``: it takes exactly ``capacity`` cards, only of the suits whose
bit is set in ``allowed`` (another player's hand: the suits it has not shown a void in; the undealt
cards and a hidden discard: every suit). ``Filling(cards, places)`` counts the ways to deal a set
of distinct cards into the places (``count()``) and draws one of them uniformly (``sample(rng)``).

Why by hand: no well-kept library deals cards under suit restrictions, and plain rejection
(shuffle, deal, retry until every void holds) has a long tail. Over random-play decisions of 4
players its acceptance rate (consistent deals / all deals, computed exactly with this module) had
a median of 0.58, but 1% of decisions were under 0.018 and the worst 6e-4 (some 1,700 tries);
5 players: median 0.43, 1% under 0.0096. This exact sampler took a median of 0.09 ms, 99% under
0.5 ms (5 players, the shared machine). The count is exact:

* places that allow every suit (the *free* places) take whatever is left, in
  ``multinomial(rest; their capacities)`` ways, whatever the suits of the rest; places with the
  same restriction likewise share their cards in a multinomial number of ways;
* the last restricted group takes ``capacity`` of the ``a`` remaining cards of its allowed suits
  in ``C(a, capacity)`` ways (Vandermonde), so only the restricted groups before it are
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


def _multinomial(parts: Sequence[int]) -> int:
    """The ways to split ``sum(parts)`` distinct cards into groups of these sizes."""
    ways = factorial(sum(parts))
    for k in parts:
        ways //= factorial(k)
    return ways


class Filling:
    """The ways to deal one set of cards into places: ``count()`` them, ``sample(rng)`` one uniformly.

    Places with the same allowed suits are dealt as one place of their total capacity, then split
    (``_multinomial`` ways, whatever the cards): several seats void in the same suit cost no more
    than one. The counting recursion is memoised on the object, so counting then sampling costs
    one pass.
    """

    def __init__(self, cards: Sequence[int], places: Sequence[Place]):
        if sum(cap for cap, _ in places) != len(cards):
            raise ValueError(f"places hold {sum(cap for cap, _ in places)} cards but {len(cards)} cards are to be dealt")
        self.places = places
        members: dict[int, list[int]] = {}
        for i, (_, allowed) in enumerate(places):
            members.setdefault(allowed, []).append(i)
        self.free = members.pop(ALL_SUITS, [])
        # Enumerate the groups with the fewest splits first; the last (the widest) is counted in closed form.
        masks = sorted(members, key=lambda m: (bin(m).count("1"), sum(places[i][0] for i in members[m]), m))
        self.groups = [members[m] for m in masks]
        self.caps = [sum(places[i][0] for i in g) for g in self.groups]
        self.suits = [tuple(s for s in range(NUM_SUITS) if m >> s & 1) for m in masks]
        self.split_ways = _multinomial([places[i][0] for i in self.free])
        for g in self.groups:
            self.split_ways *= _multinomial([places[i][0] for i in g])
        self.pool = [[c for c in sorted(cards) if SUIT_OF[c] == s] for s in range(NUM_SUITS)]
        self.counts = tuple(len(p) for p in self.pool)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(self) -> int:
        """The number of ways to deal the cards into the places, filling each exactly."""
        return self.ways(0, self.counts) * self.split_ways

    def ways(self, j: int, counts: tuple[int, ...]) -> int:
        """The ways to fill the restricted groups ``j``… from per-suit ``counts`` (the free places take the rest)."""
        if j == len(self.groups):
            return 1
        if j == len(self.groups) - 1:
            return comb(sum(counts[s] for s in self.suits[j]), self.caps[j])
        key = (j, counts)
        got = self._memo.get(key)
        if got is None:
            got = sum(w for _, w in self.options(j, counts))
            self._memo[key] = got
        return got

    def options(self, j: int, counts: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """For restricted group ``j``: each per-suit split and the number of fillings that start with it."""
        suits = self.suits[j]
        for split in _splits(self.caps[j], suits, counts):
            rest = list(counts)
            w = 1
            for s, y in zip(suits, split):
                w *= comb(counts[s], y)
                rest[s] -= y
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
        last = len(self.groups) - 1
        for j, group in enumerate(self.groups):
            suits = self.suits[j]
            if j < last:
                options = list(self.options(j, tuple(len(p) for p in pool)))
                pick = draw_below(sum(w for _, w in options), rng)
                for split, w in options:
                    if pick < w:
                        break
                    pick -= w
                cards = [c for s, y in zip(suits, split) for c in _take(pool[s], y, rng)]
            else:  # the last group: any of its allowed cards, uniformly
                allowed = [c for s in suits for c in pool[s]]
                cards = _take(allowed, self.caps[j], rng)
                chosen = set(cards)
                for s in suits:
                    pool[s] = [c for c in pool[s] if c not in chosen]
            self._split(cards, group, out, rng)
        self._split([c for p in pool for c in p], self.free, out, rng)
        return out

    def _split(self, cards: list[int], group: list[int], out: list[list[int]], rng: np.random.Generator) -> None:
        """Deal ``cards`` uniformly into the places of ``group`` (sorted into ``out``)."""
        cards = [cards[i] for i in rng.permutation(len(cards))]
        for place in group:
            cap = self.places[place][0]
            out[place], cards = sorted(cards[:cap]), cards[cap:]


def _take(cards: list[int], k: int, rng: np.random.Generator) -> list[int]:
    """Remove ``k`` cards chosen uniformly from ``cards`` (in place) and return them."""
    if k == 0:
        return []
    picked = sorted(rng.choice(len(cards), size=k, replace=False).tolist())
    taken = [cards[i] for i in picked]
    for i in reversed(picked):
        del cards[i]
    return taken
