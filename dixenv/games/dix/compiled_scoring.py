"""Compiled (numba) exact end-of-game scoring for dix: the ``score_collection`` of ``scoring.py``.

``score(numbers, colour_wilds, number_wilds, stars)`` returns exactly what
``dixenv.games.dix.scoring.score_collection`` returns, for every valid input (any counts of
wilds), as an ``@njit`` function the compiled batched dix engine calls on array rows (slices of
its int64 collection table) whenever a collection changes. The rule and its run table have one
source: ``_RUN`` here is ``scoring._RUN`` as a numpy array, and ``FULL_RUN_BONUS`` comes from
``scoring.py``. ``tests/compiled/test_dix_scoring_compiled.py`` checks it against the reference
and against the reference tests' exhaustive-search oracle.

Algorithm (exact; the first steps are the reference's):

1. ``_RUN[mask, f]`` is the value of one colour holding ``mask`` (bit k-1 = number k) with ``f``
   free fillers (its colour wilds and the stars it is given); a number wild ``Wk`` given to a
   colour sets bit k-1 of its mask. Values are monotone in the mask and in ``f``.
2. Uncontested number wilds are placed at once: when the copies of ``Wk`` are at least the
   colours lacking k, every such colour gets one. The rest are *contested* (copies < colours
   lacking k, so at most 3 copies, wanted by 2–4 colours).
3. If the stars cover every colour's remaining gaps (after its colour wilds) the total is 40.
4. Otherwise one of two exact searches, whichever is estimated cheaper (``_ENUM_LIMIT``):

   * **Enumeration** (``_enumerate``; every typical end-of-game collection): by monotonicity
     some optimal placement uses every copy of a contested wild, each in a different colour
     lacking its number, so it suffices to try, for every contested number, every set of
     ``copies`` colours among those lacking it (an odometer over at most C(4, 2) = 6 choices per
     number). With the number wilds placed the colours share only the stars: the leaf is the
     sum of the four ``_RUN`` values (no star), that plus the best single gain (one star), or a
     knapsack of the stars over the four colours (``_share_stars``). With no contested wild
     there is one leaf (no scratch array at all with 0–1 star).
   * **Position DP** (``_position_dp``; user decks with many contested wilds): the reference's
     DP over the numbers 1..9 then the colours, on a dense int8 table instead of dicts. State:
     per colour ``BEFORE`` its run, ``DONE`` with it, or in it with ``r`` colour wilds left
     (clamped to the gaps still ahead, which merges states) and a flag "started at 1" (for the
     full-run bonus); the stars used; the copies of the current number's wild used at this
     number (at most 3). A gap in a run is filled by a copy of the number wild, a colour wild,
     or — only once the colour wilds are spent, which loses nothing — a star. The table has
     Π(2 + 2(r_c + 1)) × (stars + 1) × (copies + 1) cells with stars < gaps, at most a few
     million (a few MB) for any input. Measured (2-core machine, busy): the reference's worst
     cases (all 18 wilds of the box and no number card; three copies of every number wild and
     8 stars) 1.5–5 ms (reference 25–630 ms); absurd decks (five colour wilds per colour, three
     copies of every number wild, 15 stars) under 0.1 s (reference over 1 s).

   The crossover ``_ENUM_LIMIT`` was measured on collections where both searches cost 10 µs–5 ms.
   On collections dealt from the real box the compiled work averages about 0.5 µs a call
   (median 0.4 µs, 99th percentile 3.4 µs, worst seen 14 µs; the reference ``_best_total``,
   uncached, about 25–60 µs); a call from Python adds about 0.4 µs of dispatch.

No Python object, dict or cache is used inside: ``score`` is callable from other ``@njit``
functions with int64 array views (e.g. ``score(C[g, 0:4], C[g, 4:8], C[g, 8:17], C[g, 17])``).
Inputs are not validated (the reference's ``_check`` does that on the Python path): masks in
0..511, counts >= 0.
"""

from __future__ import annotations

import numpy as np

from dixenv.compiled import require_numba

require_numba()

from numba import njit  # noqa: E402

from dixenv.games.dix import scoring as _ref  # noqa: E402

__all__ = ["score", "score_tuple"]

Arr = np.ndarray

FULL_RUN_BONUS = _ref.FULL_RUN_BONUS
#: ``_RUN[mask, f]``: best run value of one colour holding ``mask`` with ``f`` fillers (0..9).
_RUN = np.array(_ref._RUN, dtype=np.int64)
_POP = np.array(_ref._POPCOUNT, dtype=np.int64)
_ALL_FULL = 4 * (9 + FULL_RUN_BONUS)
#: Use the position DP when the enumeration's estimated cost exceeds this times the DP's (measured crossover).
_ENUM_LIMIT = 0.3
_BEFORE, _DONE = 0, 1  # position-DP colour codes; a run in progress is 2 + 2*r + full


@njit(cache=True)
def _colour_value(mask: int, fill: int, extra: int) -> int:
    """``_RUN`` of a colour holding ``mask`` with ``fill`` colour wilds and ``extra`` stars."""
    f = fill + extra
    if f > 9:
        f = 9
    return _RUN[mask, f]


@njit(cache=True)
def _share_stars(masks: Arr, fill: Arr, stars: int, best: Arr, tmp: Arr) -> int:
    """Best total when the colours share only ``stars`` (knapsack over the four colours).

    ``best`` and ``tmp`` are scratch arrays of at least ``stars + 1`` items.
    """
    if stars == 0:
        return (_RUN[masks[0], fill[0]] + _RUN[masks[1], fill[1]] + _RUN[masks[2], fill[2]]
                + _RUN[masks[3], fill[3]])
    if stars == 1:
        total, gain = 0, 0
        for c in range(4):
            v = _RUN[masks[c], fill[c]]
            total += v
            g = _colour_value(masks[c], fill[c], 1) - v
            if g > gain:
                gain = g
        return total + gain
    # best[t] = best total of the colours so far using at most t stars (values are monotone)
    for t in range(stars + 1):
        best[t] = _colour_value(masks[0], fill[0], t)
    for c in range(1, 3):
        m, f = masks[c], fill[c]
        for t in range(stars + 1):
            top = -1
            for u in range(t + 1):
                v = best[t - u] + _colour_value(m, f, u)
                if v > top:
                    top = v
            tmp[t] = top
        for t in range(stars + 1):
            best[t] = tmp[t]
    m, f = masks[3], fill[3]
    top = -1
    for u in range(stars + 1):
        v = best[stars - u] + _colour_value(m, f, u)
        if v > top:
            top = v
    return top


@njit(cache=True)
def _enumerate(masks: Arr, fill: Arr, stars: int, n_cont: int, bits: Arr, opts: Arr, n_opts: Arr) -> int:
    """Best total over every placement of the contested wilds' copies (odometer), stars shared at each leaf."""
    # scratch for the knapsack (only used with 2 stars or more)
    best_buf = np.empty(stars + 1 if stars > 1 else 0, dtype=np.int64)
    tmp_buf = np.empty(stars + 1 if stars > 1 else 0, dtype=np.int64)
    if n_cont == 0:
        return _share_stars(masks, fill, stars, best_buf, tmp_buf)
    idx = np.zeros(n_cont, dtype=np.int64)
    leaf = np.empty(4, dtype=np.int64)
    result = 0
    while True:
        leaf[0], leaf[1], leaf[2], leaf[3] = masks[0], masks[1], masks[2], masks[3]
        for j in range(n_cont):
            o = opts[j, idx[j]]
            b = bits[j]
            for c in range(4):
                if (o >> c) & 1:
                    leaf[c] |= b
        v = _share_stars(leaf, fill, stars, best_buf, tmp_buf)
        if v > result:
            result = v
            if result == _ALL_FULL:
                return result
        j = 0
        while j < n_cont:
            idx[j] += 1
            if idx[j] < n_opts[j]:
                break
            idx[j] = 0
            j += 1
        if j == n_cont:
            return result


@njit(cache=True)
def _position_dp(masks: Arr, fill: Arr, stars: int, copies: Arr) -> int:
    """DP over numbers 1..9 then colours on a dense table (see the module docstring)."""
    m = np.empty(4, dtype=np.int64)  # codes per colour
    for c in range(4):
        r = 9 - _POP[masks[c]]
        if fill[c] < r:
            r = fill[c]
        m[c] = 2 + 2 * (r + 1)
    w1 = 1
    for k in range(9):
        if copies[k] + 1 > w1:
            w1 = copies[k] + 1
    s1 = stars + 1
    stride = np.empty(4, dtype=np.int64)
    stride[3] = s1 * w1
    stride[2] = m[3] * stride[3]
    stride[1] = m[2] * stride[2]
    stride[0] = m[1] * stride[1]
    size = m[0] * stride[0]
    cur = np.full(size, -1, dtype=np.int8)
    nxt = np.full(size, -1, dtype=np.int8)
    cur[0] = 0  # every colour BEFORE, no star, no copy used (codes 0 = _BEFORE)
    for k in range(9):
        bit = 1 << k
        limit = copies[k]
        for c in range(4):
            has = masks[c] & bit
            cap = 9 - k - 1 - _POP[masks[c] >> (k + 1)]  # gaps of colour c after number k+1
            sc, mc = stride[c], m[c]
            nxt[:] = -1
            for i in range(size):
                v = cur[i]
                if v < 0:
                    continue
                code = (i // sc) % mc
                if code == _DONE:
                    if nxt[i] < v:
                        nxt[i] = v
                    continue
                base = i - code * sc
                if code == _BEFORE:
                    if nxt[i] < v:
                        nxt[i] = v  # the run starts later (or never)
                    r = fill[c]
                    full = 1 if k == 0 else 0
                else:
                    j = base + _DONE * sc
                    if nxt[j] < v:
                        nxt[j] = v  # the run ended at number k
                    r = (code - 2) >> 1
                    full = (code - 2) & 1
                v1 = v + 1
                keep = r if r < cap else cap
                if has:
                    j = base + (2 + 2 * keep + full) * sc
                    if nxt[j] < v1:
                        nxt[j] = v1
                    continue
                # the gap at k+1 is filled by a number wild, a colour wild or a star
                w = i % w1
                if w < limit:
                    j = base + (2 + 2 * keep + full) * sc + 1
                    if nxt[j] < v1:
                        nxt[j] = v1
                if r > 0:
                    less = r - 1 if r - 1 < cap else cap
                    j = base + (2 + 2 * less + full) * sc
                    if nxt[j] < v1:
                        nxt[j] = v1
                elif (i // w1) % s1 < stars:
                    # a star only once the colour wilds are spent (a star does all a colour wild does)
                    j = base + (2 + full) * sc + w1
                    if nxt[j] < v1:
                        nxt[j] = v1
            cur, nxt = nxt, cur
        if w1 > 1:  # forget the copies used at this number
            nxt[:] = -1
            for i in range(size):
                v = cur[i]
                if v >= 0:
                    j = i - i % w1
                    if nxt[j] < v:
                        nxt[j] = v
            cur, nxt = nxt, cur
    result = 0
    for i in range(size):
        v = cur[i]
        if v < 0:
            continue
        total = np.int64(v)
        for c in range(4):
            code = (i // stride[c]) % m[c]
            if code >= 2 and (code - 2) & 1:
                total += FULL_RUN_BONUS
        if total > result:
            result = total
    return result


@njit(cache=True)
def score(numbers: Arr, colour_wilds: Arr, number_wilds: Arr, stars: int) -> int:
    """Exact best total of a dix collection; equals ``scoring.score_collection`` for the same arguments.

    numbers: int64 array (4,) of 9-bit masks per colour B,G,O,P (bit k-1 = number k);
    colour_wilds: int64 array (4,) counts; number_wilds: int64 array (9,) counts (numbers 1..9);
    stars: int (count of '**'). Array views (rows of a 2-D table) are fine; nothing is written.
    """
    return _score(numbers, colour_wilds, number_wilds, stars, 0)


@njit(cache=True)
def _score(numbers: Arr, colour_wilds: Arr, number_wilds: Arr, stars: int, method: int) -> int:
    """``score``; ``method`` 0 picks the cheaper search, 1 forces the enumeration, 2 the position DP (tests)."""
    masks = np.empty(4, dtype=np.int64)
    fill = np.empty(4, dtype=np.int64)
    for c in range(4):
        masks[c] = numbers[c]
        a = colour_wilds[c]
        fill[c] = a if a < 9 else 9
    # place uncontested number wilds; count the contested ones
    n_cont = 0
    for k in range(9):
        n = number_wilds[k]
        if n <= 0:
            continue
        bit = 1 << k
        lacking = 0
        for c in range(4):
            if not masks[c] & bit:
                lacking += 1
        if n >= lacking:
            for c in range(4):
                masks[c] |= bit
        else:
            n_cont += 1
    gaps = 0
    for c in range(4):
        g = 9 - _POP[masks[c]] - fill[c]
        if g > 0:
            gaps += g
    s = np.int64(stars)
    if s >= gaps:
        return _ALL_FULL
    if n_cont == 0 and s <= 1 and method != 2:  # the commonest case: no scratch array needed
        return _share_stars(masks, fill, s, masks, masks)
    # the contested wilds: for each, every set of `copies` colours among those lacking its number
    bits = np.empty(n_cont, dtype=np.int64)
    opts = np.empty((n_cont, 6), dtype=np.int64)
    n_opts = np.zeros(n_cont, dtype=np.int64)
    copies = np.zeros(9, dtype=np.int64)
    leaves = 1.0
    j = 0
    for k in range(9):
        n = number_wilds[k]
        bit = 1 << k
        if n <= 0 or (masks[0] & masks[1] & masks[2] & masks[3] & bit):
            continue
        lack = 0
        for c in range(4):
            if not masks[c] & bit:
                lack |= 1 << c
        copies[k] = n
        bits[j] = bit
        for sub in range(1, 16):
            if sub & ~lack == 0 and _POP[sub] == n:
                opts[j, n_opts[j]] = sub
                n_opts[j] += 1
        leaves *= n_opts[j]
        j += 1
    if method == 2:
        return _position_dp(masks, fill, s, copies)
    if n_cont and method == 0:
        # estimated costs (in table visits): enumeration leaves vs the position DP's table passes
        per_leaf = 4.0 + n_cont + (0.0 if s == 0 else 4.0 if s == 1 else 2.0 * (s + 1) * (s + 1))
        size = float(s + 1)
        w1 = 1
        for c in range(4):
            r = 9 - _POP[masks[c]]
            if fill[c] < r:
                r = fill[c]
            size *= 2 + 2 * (r + 1)
        for k in range(9):
            if copies[k] + 1 > w1:
                w1 = copies[k] + 1
        size *= w1
        if leaves * per_leaf > _ENUM_LIMIT * 45.0 * size:
            return _position_dp(masks, fill, s, copies)
    return _enumerate(masks, fill, s, n_cont, bits, opts, n_opts)


def score_tuple(numbers, colour_wilds, number_wilds, stars, method: int = 0) -> int:  # type: ignore[no-untyped-def]
    """``score`` on Python sequences (converted to int64 arrays); for tests and tools, not the hot path.

    ``method`` 1 forces the enumeration, 2 the position DP (both exact; tests).
    """
    return int(
        _score(
            np.asarray(numbers, dtype=np.int64),
            np.asarray(colour_wilds, dtype=np.int64),
            np.asarray(number_wilds, dtype=np.int64),
            int(stars),
            int(method),
        )
    )
