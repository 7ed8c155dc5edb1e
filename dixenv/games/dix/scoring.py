"""Exact end-of-game scoring for dix (TEN): best placement of wilds over the four colour runs.

Rule (SPEC §1 "Scoring"): per colour, the longest run of consecutive numbers, one card per
number, made of number cards of that colour and wilds (each wild used at most once). A number
wild ``W7`` fixes the number and takes any colour, a colour wild ``B#`` fixes the colour and takes
any number, the star ``**`` takes any colour and any number. A run scores 1 point per card, and a
full 1–9 run scores 10. Wilds are placed to maximise the total. Duplicates add nothing.

Algorithm (exact):

1. ``_RUN[mask][f]`` is precomputed for every 9-bit mask of numbers held in one colour and every
   count ``f`` (0..9) of *free fillers* (cards that may take any number in that colour): the value
   of the best run, i.e. the longest interval whose gaps (numbers not in ``mask``) number at most
   ``f``, plus the full-run bonus. Colour wilds of colour c and stars given to c are free fillers
   of c; a number wild ``Wk`` given to c just sets bit k of c's mask. Everything is monotone: more
   bits or more fillers never lower a colour's value, and colours share only the number wilds
   and the stars.
2. Number wilds that are not contested are placed at once: if the copies of ``Wk`` are at least
   as many as the colours lacking k, give one to each such colour (no colour can want more than
   one copy of k). Only contested numbers remain (at most 9 numbers, each with fewer copies than
   the colours lacking it; in the real box one copy, wanted by 2–4 colours).
3. Early exits: if the stars cover every colour's remaining gaps the total is 40; with no
   contested wild the colours share only the stars, which a small knapsack over the four colours
   distributes (O(4·s²), s = stars < total gap count ≤ 36).
4. Otherwise, usually, a dynamic programme over the colours ("colour DP", ``_contested_dp``),
   with state = how many copies of each contested number are used so far (one digit of a few
   bits per number; the bitmask of the numbers placed when each has one copy, as in the real
   box) and how many stars, and per state the best total. A colour c receives a set U of
   contested numbers it lacks and u stars, worth
   ``_RUN[mask_c | U][min(9, a_c + u)]``. Only *irredundant* sets U are tried — those where
   dropping any one wild lowers the value (any optimal placement can be reduced to one whose
   sets are irredundant, freeing wilds without losing points) — which are few because a run is
   a single interval; they are computed once per (mask, lackable wilds, fillers) and cached. The
   last colour takes every wild still available and every star left, so it needs no
   enumeration; colours are ordered so that the one with the most contested wilds comes last.
   Typical end-of-game collections (0–2 contested wilds, 0–1 star) take tens of microseconds.
5. The colour DP grows with the contested-wild states S = Π(copies+1) and the star budgets; when
   S·(stars+1)² exceeds ``_COLOUR_DP_LIMIT`` (user decks with many copies of number wilds and
   several stars) a DP over the numbers 1..9 is used instead ("position DP",
   ``_position_dp``): number wilds are local to their number, so its state holds only, per
   colour, before/in/after its run with the colour wilds left, plus the stars used. Both are
   exact; the switch point is where they were measured to cost about the same. Worst cases
   measured (2-core machine, busy): all 18 wilds of the real box and no number cards 40–90 ms;
   three copies of every number wild and 8 stars 0.15–0.35 s.

``score_collection`` is memoised on its (tuple) arguments, so repeated calls on an unchanged
collection cost about a microsecond. Checked against an exhaustive search in
``tests/games/dix/test_scoring.py``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

from dixenv.core.options import is_int

COLOURS = "BGOP"
"""Colour letters in the order used by ``score_collection`` (blue, green, orange, pink)."""

FULL_RUN_BONUS = 1
"""Bonus point for a run holding every number 1–9 of one colour."""

_ALL = (1 << 9) - 1
# Above this (contested-wild states × (stars+1)²) the position DP beats the colour DP (measured).
_COLOUR_DP_LIMIT = 4096
_POPCOUNT = tuple(bin(m).count("1") for m in range(1 << 9))
_INT_ONLY = {int}


def _build_run_table() -> tuple[tuple[int, ...], ...]:
    """Return ``_RUN[mask][f]``: best run value in one colour with held ``mask`` and ``f`` fillers."""
    table = []
    for mask in range(1 << 9):
        # longest interval having exactly g gaps, for each g; then a running max over f >= g
        longest_with_gaps = [0] * 10
        for i in range(9):
            gaps = 0
            for j in range(i, 9):
                if not (mask >> j) & 1:
                    gaps += 1
                if j - i + 1 > longest_with_gaps[gaps]:
                    longest_with_gaps[gaps] = j - i + 1
        row, best = [], 0
        for f in range(10):
            best = max(best, longest_with_gaps[f])
            row.append(best + FULL_RUN_BONUS if best == 9 else best)
        table.append(tuple(row))
    return tuple(table)


_RUN = _build_run_table()
#: ``_RUN_WITH[f][mask]`` = ``_RUN[mask][f]``: one row per filler count, for the irredundant sets.
_RUN_WITH = tuple(tuple(row[f] for row in _RUN) for f in range(10))

# Card string -> (kind, index): kind 0 number (index colour*9 + number-1), 1 colour wild (colour),
# 2 number wild (number-1), 3 star. Built once so parsing is a dict lookup.
_CARDS: dict[str, tuple[int, int]] = {"**": (3, 0)}
for _c, _letter in enumerate(COLOURS):
    _CARDS[_letter + "#"] = (1, _c)
    for _k in range(1, 10):
        _CARDS[f"{_letter}{_k}"] = (0, _c * 9 + _k - 1)
for _k in range(1, 10):
    _CARDS[f"W{_k}"] = (2, _k - 1)
del _c, _letter, _k


def parse_collection(cards: Iterable[str]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """Return ``(numbers, colour_wilds, number_wilds, stars)`` for card strings; ValueError on a bad one."""
    numbers = [0, 0, 0, 0]
    colour_wilds = [0, 0, 0, 0]
    number_wilds = [0] * 9
    stars = 0
    for card in cards:
        parsed = _CARDS.get(card) if isinstance(card, str) else None
        if parsed is None:
            if isinstance(card, str) and card[:1] == "$":
                raise ValueError(
                    f"card {card!r} is a currency card; a collection holds only number cards and wilds"
                )
            raise ValueError(
                f"unknown card {card!r} in collection; expected a number card like 'B7' "
                "(colours B,G,O,P, numbers 1-9), a colour wild like 'B#', a number wild like 'W7', or '**'"
            )
        kind, index = parsed
        if kind == 0:
            numbers[index // 9] |= 1 << (index % 9)
        elif kind == 1:
            colour_wilds[index] += 1
        elif kind == 2:
            number_wilds[index] += 1
        else:
            stars += 1
    return tuple(numbers), tuple(colour_wilds), tuple(number_wilds), stars


def score_cards(cards: Iterable[str]) -> int:
    """Return the best total score of a collection of dix card strings (e.g. ``["B1", "B2", "W3"]``)."""
    if isinstance(cards, str):
        raise ValueError(f"score_cards expects a collection of card strings, not the string {cards!r}")
    numbers, colour_wilds, number_wilds, stars = parse_collection(cards)
    return _score(numbers, colour_wilds, number_wilds, stars)


def score_collection(
    numbers: Sequence[int], colour_wilds: Sequence[int], number_wilds: Sequence[int], stars: int
) -> int:
    """Return the best total for per-colour number masks (bit k-1 = number k) and wild counts."""
    # Validated on a memo miss only (hot path): a value equal to a valid one, like 0.0 for 0,
    # may be answered from the memo, with the right score.
    return _score(tuple(numbers), tuple(colour_wilds), tuple(number_wilds), stars)


def _check(numbers: tuple, colour_wilds: tuple, number_wilds: tuple, stars: object) -> None:
    """Raise ValueError if the arguments of ``score_collection`` are malformed."""
    counts = colour_wilds + number_wilds
    # Fast path (every memo miss of the engine and the agents passes here): plain ints in range.
    # ``is_int`` is an ABC check, several times slower than ``type(x) is int``; anything else
    # (numpy integers, bools, floats, wrong lengths) takes the full checks below.
    if (
        type(stars) is int
        and len(numbers) == 4
        and len(colour_wilds) == 4
        and len(number_wilds) == 9
        and set(map(type, numbers + counts)) == _INT_ONLY
        and stars >= 0
        and min(counts) >= 0
        and min(numbers) >= 0
        and max(numbers) <= _ALL
    ):
        return
    if len(numbers) != 4 or not all(is_int(m) and 0 <= m <= _ALL for m in numbers):
        raise ValueError(f"numbers={numbers!r} must be 4 integer masks (B,G,O,P) in 0..511")
    if len(colour_wilds) != 4 or not all(is_int(a) and a >= 0 for a in colour_wilds):
        raise ValueError(f"colour_wilds={colour_wilds!r} must be 4 integer counts >= 0 (B,G,O,P)")
    if len(number_wilds) != 9 or not all(is_int(m) and m >= 0 for m in number_wilds):
        raise ValueError(f"number_wilds={number_wilds!r} must be 9 integer counts >= 0 (numbers 1..9)")
    if not (is_int(stars) and stars >= 0):  # type: ignore[operator]
        raise ValueError(f"stars={stars!r} must be an integer >= 0")


@lru_cache(maxsize=1 << 14)  # ~0.5 kB an entry; a game re-scores the same few collections
def _score(numbers: tuple, colour_wilds: tuple, number_wilds: tuple, stars: int) -> int:
    """Exact best total (memoised); see the module docstring for the algorithm."""
    return _best_total(numbers, colour_wilds, number_wilds, stars)


def _best_total(
    numbers: Sequence[int],
    colour_wilds: Sequence[int],
    number_wilds: Sequence[int],
    stars: int,
    method: str | None = None,
) -> int:
    """Exact best total; ``method`` forces ``"colour"`` or ``"position"`` (tests), else chosen by size."""
    if method not in (None, "colour", "position"):
        raise ValueError(f"method={method!r}; allowed: None, 'colour', 'position'")
    _check(tuple(numbers), tuple(colour_wilds), tuple(number_wilds), stars)
    masks = [int(m) for m in numbers]
    fill = [min(9, int(a)) for a in colour_wilds]
    stars = int(stars)

    contested: list[tuple[int, int]] = []  # (number bit, copies), copies < colours lacking it
    copies = [0] * 9
    for k, n in enumerate(number_wilds):
        if not n:
            continue
        n = int(n)
        bit = 1 << k
        lacking = (not masks[0] & bit) + (not masks[1] & bit) + (not masks[2] & bit) + (not masks[3] & bit)
        if n >= lacking:
            masks = [m | bit for m in masks]  # a copy for every colour lacking k
        else:
            contested.append((bit, n))
            copies[k] = n

    # stars at least as many as the gaps left after colour wilds fill every colour
    gaps = sum(max(0, 9 - _POPCOUNT[masks[c]] - fill[c]) for c in range(4))
    if stars >= gaps:
        return 4 * (9 + FULL_RUN_BONUS)

    if method is None:
        states = 1
        for _, n in contested:
            states *= n + 1
        method = "position" if states * (stars + 1) ** 2 > _COLOUR_DP_LIMIT else "colour"
    if method == "position":
        return _position_dp(masks, fill, stars, copies)
    if not contested:
        return _share_stars(masks, fill, stars)
    return _contested_dp(masks, fill, stars, contested)


def _share_stars(masks: list[int], fill: list[int], stars: int) -> int:
    """Best total when colours share only the stars (knapsack over the four colours)."""
    if stars == 0:
        return sum(_RUN[masks[c]][fill[c]] for c in range(4))
    # best[t] = best total of the colours so far using at most t stars
    best = [0] * (stars + 1)
    for c in range(4):
        row, f = _RUN[masks[c]], fill[c]
        best = [
            max(best[t - u] + row[min(9, f + u)] for u in range(t + 1)) for t in range(stars + 1)
        ]
    return best[stars]


@lru_cache(maxsize=1 << 14)
def _irredundant(mask: int, lackable: int, fillers: int) -> tuple[tuple[int, int], ...]:
    """Sets U ⊆ ``lackable`` (with their run values) where dropping any one bit lowers the value."""
    row_f = _RUN_WITH[fillers]
    out = []
    sub = lackable
    while True:
        value = row_f[mask | sub]
        bits = sub
        keep = True
        while bits:
            low = bits & -bits
            if row_f[mask | (sub ^ low)] >= value:
                keep = False
                break
            bits ^= low
        if keep:
            out.append((sub, value))
        if sub == 0:
            break
        sub = (sub - 1) & lackable
    return tuple(out)


@lru_cache(maxsize=None)
def _spread(width: int) -> tuple[int, ...]:
    """Per set of numbers (9-bit mask), the wild state holding one copy of each: a digit of ``width`` bits per number."""
    return tuple(sum(1 << (k * width) for k in range(9) if sub >> k & 1) for sub in range(1 << 9))


@lru_cache(maxsize=1 << 12)
def _taken(state: int, contested: tuple[tuple[int, int], ...], width: int) -> int:
    """The contested numbers (bits) whose copies are all used in wild ``state`` (see ``_contested_dp``)."""
    full = 0
    digit = (1 << width) - 1
    for bit, n in contested:
        if state >> ((bit.bit_length() - 1) * width) & digit == n:
            full |= bit
    return full


def _contested_dp(masks: list[int], fill: list[int], stars: int, contested: list[tuple[int, int]]) -> int:
    """DP over colours; a DP key holds the copies used of each contested number wild and the stars used.

    Key = wild state + stars used × 2^(9 × width), the wild state a digit of ``width`` bits per
    number (copies used of its wild): adding a set of wilds is then one table lookup
    (``_spread``), and with one copy of each number wild (the real box) the wild state is the
    mask of the numbers already placed. One int per key keeps the dicts cheap.
    """
    all_bits, most = 0, 1
    for bit, n in contested:
        all_bits |= bit
        most = max(most, n)
    width = most.bit_length()
    spread = _spread(width)
    star_shift = 9 * width
    star = 1 << star_shift
    wilds = tuple(contested)
    lack = [all_bits & ~m for m in masks]
    # the colour wanting the most contested wilds goes last: it takes what is left, unenumerated
    order = sorted(range(4), key=[_POPCOUNT[x] for x in lack].__getitem__)

    dp: dict[int, int] = {0: 0}  # key -> best total of the colours so far
    for c in order[:3]:
        mask, f0, lk = masks[c], fill[c], lack[c]
        choices = [_irredundant(mask, lk, min(9, f0 + u)) for u in range(stars + 1)]
        new: dict[int, int] = {}
        get = new.get
        for key, best in dp.items():
            used = key >> star_shift
            taken = key & all_bits if width == 1 else _taken(key & (star - 1), wilds, width)
            for u in range(stars - used + 1):
                base = key + u * star
                for sub, value in choices[u]:
                    if sub & taken:
                        continue
                    v = best + value
                    nkey = base + spread[sub]
                    if get(nkey, -1) < v:
                        new[nkey] = v
        dp = new

    last = order[3]
    mask, f0, lk = masks[last], fill[last], lack[last]
    result = 0
    for key, best in dp.items():
        taken = key & all_bits if width == 1 else _taken(key & (star - 1), wilds, width)
        v = best + _RUN[mask | (lk & ~taken)][min(9, f0 + stars - (key >> star_shift))]
        if v > result:
            result = v
    return result


_BEFORE, _DONE = -1, -2  # colour states in _position_dp; a run in progress is 2*r + full


def _position_dp(masks: list[int], fill: list[int], stars: int, copies: list[int]) -> int:
    """DP over numbers 1..9 then colours (cell by cell); number wilds are local to their number.

    State: per colour ``_BEFORE`` its run, ``_DONE`` with it, or in it with ``r`` colour wilds
    left and a flag "started at 1" (for the full-run bonus); plus stars used, plus copies of the
    current number's wild used at this number. Its size does not depend on the number wilds, so
    it handles collections with many contested number wilds that blow up the colour DP.
    """
    dp: dict[tuple[int, ...], int] = {(_BEFORE, _BEFORE, _BEFORE, _BEFORE, 0): 0}
    for k in range(9):
        bit, limit = 1 << k, copies[k]
        cur = {key + (0,): v for key, v in dp.items()}  # last item: copies of W(k+1) used here
        for c in range(4):
            has = masks[c] & bit
            # colour wilds beyond the gaps after k are worthless: clamping r merges states
            cap = 2 * (9 - k - 1 - _POPCOUNT[masks[c] >> (k + 1)])
            nxt: dict[tuple[int, ...], int] = {}
            get = nxt.get

            for key, v in cur.items():
                st = key[c]
                if st == _DONE:
                    if get(key, -1) < v:
                        nxt[key] = v
                    continue
                if st == _BEFORE:
                    if get(key, -1) < v:
                        nxt[key] = v  # the run starts later (or never)
                    r, full = fill[c], (1 if k == 0 else 0)
                else:
                    done = key[:c] + (_DONE,) + key[c + 1 :]
                    if get(done, -1) < v:
                        nxt[done] = v  # the run ended at k-1
                    r, full = st >> 1, st & 1
                v1 = v + 1
                code = min(2 * r, cap) + full
                if has:
                    new = key[:c] + (code,) + key[c + 1 :]
                    if get(new, -1) < v1:
                        nxt[new] = v1
                    continue
                # the gap at k is filled by a number wild, a colour wild or a star
                stars_used, w = key[4], key[5]
                if w < limit:
                    new = key[:c] + (code,) + key[c + 1 : 5] + (w + 1,)
                    if get(new, -1) < v1:
                        nxt[new] = v1
                if r:
                    new = key[:c] + (min(2 * r - 2, cap) + full,) + key[c + 1 :]
                    if get(new, -1) < v1:
                        nxt[new] = v1
                elif stars_used < stars:
                    # a star only once the colour wilds are spent: keeping a colour wild instead
                    # of a star is never better, as the star can do whatever the colour wild does
                    new = key[:c] + (code,) + key[c + 1 : 4] + (stars_used + 1, w)
                    if get(new, -1) < v1:
                        nxt[new] = v1
            cur = nxt
        dp = {}
        for key, v in cur.items():
            short = key[:5]
            if dp.get(short, -1) < v:
                dp[short] = v
    return max(v + sum(FULL_RUN_BONUS for st in key[:4] if st >= 0 and st & 1) for key, v in dp.items())
