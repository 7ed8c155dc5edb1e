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
4. Otherwise an exact search over the contested wilds, with the position DP as fallback:

   * **Branch and bound** (``_enumerate``): by monotonicity some optimal placement uses every
     copy of a contested wild, each in a different colour lacking its number, so it suffices to
     try, for every contested number, every set of ``copies`` colours among those lacking it (at
     most C(4, 2) = 6 choices per number). With the number wilds placed the colours share only
     the stars: a leaf is the sum of the four ``_RUN`` values (no star), that plus the best
     single gain (one star), or a knapsack of the stars over the four colours
     (``_share_stars``). The search is depth first over the contested numbers in order; a
     choice's bound is ``_share_stars`` with every colour also given every undecided wild (a
     relaxation; at a leaf, the leaf's value); choices are tried best bound first, cut once
     their bound cannot beat the best leaf, and choices that differ only by swapping two colours
     alike at that node (same mask, same colour wilds) are tried once. It stops at once when a
     leaf reaches an upper bound of the total computed up front: every card scores at most once
     and a full run takes 9 of them (cards + bonus × min(colours that could be full,
     cards // 9)), and no colour beats its value given every contested wild and every star.
     Collections rich in contested wilds usually reach that bound (every card used) within a
     few leaves. With no contested wild there is one leaf (no scratch array at all with 0–1
     star).
   * **Position DP** (``_position_dp``; user decks with many contested wilds): the reference's
     DP over the numbers 1..9 then the colours, on a dense int8 table instead of dicts. State:
     per colour ``BEFORE`` its run, ``DONE`` with it, or in it with ``r`` colour wilds left
     (clamped to the gaps still ahead, which merges states) and a flag "started at 1" (for the
     full-run bonus); the stars used; the copies of the current number's wild used at this
     number (at most 3). A gap in a run is filled by a copy of the number wild, a colour wild,
     or — only once the colour wilds are spent, which loses nothing — a star. The table has
     Π(2 + 2(r_c + 1)) × (stars + 1) × (copies + 1) cells with stars < gaps, at most a few
     million (a few MB) for any input.

   Where the plain enumeration's estimated cost exceeds ``_ENUM_LIMIT`` times the position DP's
   (the crossover measured on collections where both cost 10 µs–5 ms), the branch and bound runs
   on a budget of about ``_SEARCH_SHARE`` times the DP's estimated time and the DP runs only if
   the budget is spent, so no collection costs much more than twice the DP. Measured (2-core
   machine, busy): on the collections that 2-player random play of the compiled engine scores
   (125k calls) 0.8 µs a call on average, median 0.7 µs, 99th percentile 3.5 µs, 99.9th 18 µs,
   worst 0.12 ms (before the branch and bound: 6.5 µs, 0.8 µs, 143 µs, 308 µs and 0.9 ms); the
   reference's worst cases (all 18 wilds of the box and no number card: 0.2 ms; three copies of
   every number wild and 8 stars: 0.01 ms; reference 25–630 ms); absurd decks (five colour wilds
   per colour, three copies of every number wild, 15 stars) 0.01 ms (reference over 1 s). A call
   from Python adds about 0.4 µs of dispatch.

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

__all__ = ["score", "score_tuple", "score_with"]

Arr = np.ndarray

FULL_RUN_BONUS = _ref.FULL_RUN_BONUS
#: ``_RUN[mask, f]``: best run value of one colour holding ``mask`` with ``f`` fillers (0..9).
_RUN = np.array(_ref._RUN, dtype=np.int64)
_POP = np.array(_ref._POPCOUNT, dtype=np.int64)
_ALL_FULL = 4 * (9 + FULL_RUN_BONUS)
#: Use the position DP when the enumeration's estimated cost exceeds this times the DP's (measured crossover).
_ENUM_LIMIT = 0.3
#: Where the position DP is estimated cheaper, the branch and bound first gets this share of its estimated time.
_SEARCH_SHARE = 1.0
#: ``_BIT_INDEX[1 << k] = k`` for k in 0..8.
_BIT_INDEX = np.zeros(1 << 9, dtype=np.int64)
for _k in range(9):
    _BIT_INDEX[1 << _k] = _k
del _k
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
def _enumerate(masks: Arr, fill: Arr, stars: int, n_cont: int, bits: Arr, opts: Arr, n_opts: Arr, bound: int,
               budget: int) -> int:
    """Best total over every placement of the contested wilds' copies, stars shared at each leaf.

    A depth-first branch and bound over the contested wilds (in number order). A node's value
    bound is the total when every colour is also given every undecided wild (the stars shared
    exactly, ``_share_stars``); at a leaf it is the leaf's value. A wild's choices are tried in
    decreasing order of their bounds, a choice is cut once its bound cannot beat the best leaf,
    and the search stops at once when a leaf reaches ``bound`` (an upper bound of the total).
    Choices that differ only by swapping two colours alike at that node are tried once.
    Returns -1 when more than ``budget`` choices would be tried (``budget`` < 0: no limit).
    """
    # scratch for the knapsack (only used with 2 stars or more)
    best_buf = np.empty(stars + 1 if stars > 1 else 0, dtype=np.int64)
    tmp_buf = np.empty(stars + 1 if stars > 1 else 0, dtype=np.int64)
    if n_cont == 0:
        return _share_stars(masks, fill, stars, best_buf, tmp_buf)
    suffix = np.zeros(n_cont + 1, dtype=np.int64)  # the bits of wilds j.. (undecided at depth j)
    for j in range(n_cont - 1, -1, -1):
        suffix[j] = suffix[j + 1] | bits[j]
    cur = np.empty((n_cont + 1, 4), dtype=np.int64)  # the masks at each depth
    order = np.empty((n_cont, 6), dtype=np.int64)  # the choices at each depth, best bound first
    tops = np.empty((n_cont, 6), dtype=np.int64)  # their bounds
    pos = np.zeros(n_cont, dtype=np.int64)
    relax = np.empty(4, dtype=np.int64)
    for c in range(4):
        cur[0, c] = masks[c]
    result = -1
    tried = 0
    d = 0
    fresh = True
    while True:
        if fresh:  # bound every choice of wild d, then sort them (insertion sort, at most 6)
            b = bits[d]
            rest = suffix[d + 1]
            tried += n_opts[d]
            if budget >= 0 and tried > budget:
                return -1
            # colours alike now (same masks, same colour wilds) are interchangeable below: of the
            # choices that differ only by swapping such colours, keep the one giving the wild to
            # the first of them
            twin = 0  # bit 4*c1 + c2: colours c1 < c2 alike
            for c1 in range(3):
                for c2 in range(c1 + 1, 4):
                    if cur[d, c1] == cur[d, c2] and fill[c1] == fill[c2]:
                        twin |= 1 << (4 * c1 + c2)
            for i in range(n_opts[d]):
                o = opts[d, i]
                t = -1
                for c1 in range(3):
                    for c2 in range(c1 + 1, 4):
                        if (twin >> (4 * c1 + c2)) & 1 and (o >> c2) & 1 and not (o >> c1) & 1:
                            t = -2
                if t == -1:
                    for c in range(4):
                        m = cur[d, c] | rest
                        relax[c] = m | b if (o >> c) & 1 else m
                    t = _share_stars(relax, fill, stars, best_buf, tmp_buf)
                p = i
                while p > 0 and tops[d, p - 1] < t:
                    tops[d, p] = tops[d, p - 1]
                    order[d, p] = order[d, p - 1]
                    p -= 1
                tops[d, p] = t
                order[d, p] = i
            pos[d] = 0
            fresh = False
        p = pos[d]
        if p == n_opts[d] or tops[d, p] <= result:  # the rest cannot beat the best: back up
            if d == 0:
                return result
            d -= 1
            continue
        pos[d] = p + 1
        if d + 1 == n_cont:  # a leaf: its bound is its value
            result = tops[d, p]
            if result >= bound:
                return result
            continue
        o = opts[d, order[d, p]]
        b = bits[d]
        for c in range(4):
            m = cur[d, c]
            cur[d + 1, c] = m | b if (o >> c) & 1 else m
        d += 1
        fresh = True


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
def score_with(numbers: Arr, colour_wilds: Arr, number_wilds: Arr, stars: int, masks: Arr, fill: Arr) -> int:
    """``score`` with the caller's scratch: ``masks`` and ``fill``, two int64 arrays of 4 (overwritten).

    For the engine's hot path: the two small arrays ``score`` allocates cost about a tenth of a
    common call.
    """
    return _score_into(numbers, colour_wilds, number_wilds, stars, 0, masks, fill)


@njit(cache=True)
def _score(numbers: Arr, colour_wilds: Arr, number_wilds: Arr, stars: int, method: int) -> int:
    """``score``; ``method`` 0 picks the search, 1 forces the branch and bound (no budget), 2 the position DP (tests)."""
    return _score_into(numbers, colour_wilds, number_wilds, stars, method, np.empty(4, dtype=np.int64),
                       np.empty(4, dtype=np.int64))


@njit(cache=True)
def _score_into(numbers: Arr, colour_wilds: Arr, number_wilds: Arr, stars: int, method: int, masks: Arr,
                fill: Arr) -> int:
    """``_score`` with ``masks`` and ``fill`` (int64, 4 each) as scratch."""
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
    # an upper bound of the total: every card scores at most once (and a full run takes 9 cards),
    # and no colour beats its value given every contested wild and every star
    all_bits = 0
    cards = s
    for j in range(n_cont):
        all_bits |= bits[j]
        cards += number_wilds[_BIT_INDEX[bits[j]]]
    per_colour, fullable = 0, 0
    for c in range(4):
        cards += _POP[masks[c]] + fill[c]
        v = _colour_value(masks[c] | all_bits, fill[c], s)
        per_colour += v
        if v == 9 + FULL_RUN_BONUS:
            fullable += 1
    nine = cards // 9
    bound = cards + FULL_RUN_BONUS * (fullable if fullable < nine else nine)
    if per_colour < bound:
        bound = per_colour
    budget = -1
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
            # the search first, on a budget: it usually reaches the bound within a few leaves
            # (measured: a table cell of the DP about 80 ns, a choice of the search 25 ns + its knapsack)
            budget = int(_SEARCH_SHARE * 80.0 * size / (25.0 + (0.0 if s < 2 else 2.0 * (s + 1) * (s + 1))))
    result = _enumerate(masks, fill, s, n_cont, bits, opts, n_opts, bound, budget)
    if result < 0:
        return _position_dp(masks, fill, s, copies)
    return result


def score_tuple(numbers, colour_wilds, number_wilds, stars, method: int = 0) -> int:  # type: ignore[no-untyped-def]
    """``score`` on Python sequences (converted to int64 arrays); for tests and tools, not the hot path.

    ``method`` 1 forces the branch and bound (no budget), 2 the position DP (both exact; tests).
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
