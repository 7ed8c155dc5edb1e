"""NumPy's PCG64 ``Generator`` draws, bit for bit, on rows of a uint64 array (numba).

The reference engines draw their randomness from ``numpy.random.Generator`` (PCG64, as made by
``np.random.default_rng(seed)``). A compiled loop over N games cannot hold N ``Generator``
objects, so each game's generator is one row of an ``(N, 6)`` uint64 array ``rng`` holding exactly
the fields of ``Generator.bit_generator.state``:

====== ==============================================================
column field
====== ==============================================================
0      ``state`` high 64 bits (the 128-bit LCG state)
1      ``state`` low 64 bits
2      ``inc`` high 64 bits (the 128-bit LCG increment)
3      ``inc`` low 64 bits
4      ``has_uint32`` (0 or 1: a buffered 32-bit half is waiting)
5      ``uinteger`` (the buffered upper 32 bits)
====== ==============================================================

The compiled functions take ``(rng, g, ...)``, ``g`` being the row, update that row in place and
reproduce NumPy's algorithms (``pcg64.h``, ``distributions.c``, ``_bounded_integers.pyx``,
``Generator.shuffle``): ``integers(rng, g, n)`` returns what ``Generator.integers(n)`` returns and
leaves the row in the state that the Generator is left in, and so on. The 128-bit LCG arithmetic
is emulated with 64-bit halves. ``tests/compiled/test_rng.py`` checks every function, values and
full states, against NumPy.

Called from Python (rather than from compiled code), a bound of 2**63 or more (``integers``'s
``n``, ``random_interval``'s ``max_value``) must be passed as ``np.uint64``: once a function has
been compiled for int64, numba's dispatcher tries to unbox such a Python int as int64 and raises
OverflowError.

The Python helpers (``rng_rows``, ``set_row``, ``generator_from_row``, ``seed_rows``) convert
between rows and ``Generator`` objects; they need no compilation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from dixenv.compiled import require_numba

require_numba()

from numba import njit  # noqa: E402

__all__ = [
    "ROW_WIDTH",
    "generator_from_row",
    "integers",
    "next_uint32",
    "next_uint64",
    "permutation",
    "random",
    "random_interval",
    "rng_rows",
    "seed_rows",
    "set_row",
    "shuffle",
]

ROW_WIDTH = 6
"""Columns of one generator row: state_hi, state_lo, inc_hi, inc_lo, has_uint32, uinteger."""

# Constants as np.uint64 so that numba keeps every operation in unsigned 64-bit arithmetic
# (a uint64 mixed with a Python int literal would be promoted to float64).
_MULT_HI = np.uint64(0x2360ED051FC65DA4)
_MULT_LO = np.uint64(0x4385DF649FCCF645)
_MASK32 = np.uint64(0xFFFFFFFF)
_MAX64 = np.uint64(0xFFFFFFFFFFFFFFFF)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U2 = np.uint64(2)
_U4 = np.uint64(4)
_U8 = np.uint64(8)
_U11 = np.uint64(11)
_U16 = np.uint64(16)
_U32 = np.uint64(32)
_U58 = np.uint64(58)
_U63 = np.uint64(63)
_TWO_POW_M53 = 1.0 / 9007199254740992.0
_MASK64_INT = (1 << 64) - 1


@njit(cache=True)
def _mulhi64(a: np.uint64, b: np.uint64) -> np.uint64:
    """High 64 bits of the 128-bit product a * b, from 32-bit pieces."""
    a_lo = a & _MASK32
    a_hi = a >> _U32
    b_lo = b & _MASK32
    b_hi = b >> _U32
    lo_lo = a_lo * b_lo
    hi_lo = a_hi * b_lo
    lo_hi = a_lo * b_hi
    hi_hi = a_hi * b_hi
    cross = (lo_lo >> _U32) + (hi_lo & _MASK32) + lo_hi
    return (hi_lo >> _U32) + (cross >> _U32) + hi_hi


@njit(cache=True)
def next_uint64(rng: np.ndarray, g: int) -> np.uint64:
    """PCG64's next 64-bit output (``pcg64_next64``): LCG step, then XSL-RR of the new state."""
    s_hi = rng[g, 0]
    s_lo = rng[g, 1]
    # state * multiplier mod 2**128
    lo = s_lo * _MULT_LO
    hi = _mulhi64(s_lo, _MULT_LO) + s_hi * _MULT_LO + s_lo * _MULT_HI
    # + increment
    inc_lo = rng[g, 3]
    new_lo = lo + inc_lo
    carry = _U1 if new_lo < inc_lo else _U0
    new_hi = hi + rng[g, 2] + carry
    rng[g, 0] = new_hi
    rng[g, 1] = new_lo
    # XSL-RR: rotate (hi ^ lo) right by the top 6 bits of the state
    value = new_hi ^ new_lo
    rot = new_hi >> _U58
    return (value >> rot) | (value << ((_U0 - rot) & _U63))


@njit(cache=True)
def next_uint32(rng: np.ndarray, g: int) -> np.uint32:
    """NumPy's buffered 32-bit draw (``pcg64_next32``): low half now, high half on the next call."""
    if rng[g, 4] != _U0:
        rng[g, 4] = _U0
        return np.uint32(rng[g, 5])
    value = next_uint64(rng, g)
    rng[g, 4] = _U1
    rng[g, 5] = value >> _U32
    return np.uint32(value & _MASK32)


@njit(cache=True)
def _bounded_lemire_uint32(rng: np.ndarray, g: int, rng_max: np.uint64) -> np.uint64:
    """Lemire's method on 32-bit draws, a value in [0, rng_max] (rng_max < 0xFFFFFFFF)."""
    rng_excl = rng_max + _U1
    m = np.uint64(next_uint32(rng, g)) * rng_excl
    leftover = m & _MASK32
    if leftover < rng_excl:
        threshold = (_MASK32 - rng_max) % rng_excl
        while leftover < threshold:
            m = np.uint64(next_uint32(rng, g)) * rng_excl
            leftover = m & _MASK32
    return m >> _U32


@njit(cache=True)
def _bounded_lemire_uint64(rng: np.ndarray, g: int, rng_max: np.uint64) -> np.uint64:
    """Lemire's method on 64-bit draws, a value in [0, rng_max] (rng_max < 2**64 - 1)."""
    rng_excl = rng_max + _U1
    x = next_uint64(rng, g)
    leftover = x * rng_excl
    if leftover < rng_excl:
        threshold = (_MAX64 - rng_max) % rng_excl
        while leftover < threshold:
            x = next_uint64(rng, g)
            leftover = x * rng_excl
    return _mulhi64(x, rng_excl)


@njit(cache=True)
def integers(rng: np.ndarray, g: int, n: int) -> np.int64:
    """``int(Generator.integers(n))`` for 1 <= n <= 2**63 (``random_bounded_uint64``, unmasked)."""
    if n <= 0:
        raise ValueError("integers: n must be >= 1")
    rng_max = np.uint64(n) - _U1
    if rng_max == _U0:
        return np.int64(0)
    if rng_max <= _MASK32:
        if rng_max == _MASK32:
            return np.int64(next_uint32(rng, g))
        return np.int64(_bounded_lemire_uint32(rng, g, rng_max))
    if rng_max == _MAX64:
        return np.int64(next_uint64(rng, g))
    return np.int64(_bounded_lemire_uint64(rng, g, rng_max))


@njit(cache=True)
def random_interval(rng: np.ndarray, g: int, max_value: int) -> np.uint64:
    """NumPy's ``random_interval``: a value in [0, max_value] by masked rejection."""
    mx = np.uint64(max_value)
    if mx == _U0:
        return _U0
    mask = mx
    mask |= mask >> _U1
    mask |= mask >> _U2
    mask |= mask >> _U4
    mask |= mask >> _U8
    mask |= mask >> _U16
    mask |= mask >> _U32
    if mx <= _MASK32:
        value = np.uint64(next_uint32(rng, g)) & mask
        while value > mx:
            value = np.uint64(next_uint32(rng, g)) & mask
    else:
        value = next_uint64(rng, g) & mask
        while value > mx:
            value = next_uint64(rng, g) & mask
    return value


@njit(cache=True)
def shuffle(rng: np.ndarray, g: int, arr: np.ndarray) -> None:
    """``Generator.shuffle(arr)`` for a 1-d array: Fisher–Yates from the end, NumPy's way."""
    for i in range(arr.shape[0] - 1, 0, -1):
        j = np.int64(random_interval(rng, g, np.uint64(i)))
        tmp = arr[j]
        arr[j] = arr[i]
        arr[i] = tmp


@njit(cache=True)
def permutation(rng: np.ndarray, g: int, out: np.ndarray) -> None:
    """Fill ``out`` (length k) with ``Generator.permutation(k)``: arange, then shuffle."""
    for i in range(out.shape[0]):
        out[i] = i
    shuffle(rng, g, out)


@njit(cache=True)
def random(rng: np.ndarray, g: int) -> float:
    """``Generator.random()``: the top 53 bits of a 64-bit draw, times 2**-53."""
    return np.float64(next_uint64(rng, g) >> _U11) * _TWO_POW_M53


# ---------------------------------------------------------------------------- Python helpers


def _state_to_row(state: dict[str, Any], row: np.ndarray) -> None:
    """Write a PCG64 ``bit_generator.state`` dict into one row."""
    if state.get("bit_generator") != "PCG64":
        raise ValueError(f"only PCG64 generators can be rows, not {state.get('bit_generator')!r}")
    s = int(state["state"]["state"])
    inc = int(state["state"]["inc"])
    row[0] = s >> 64
    row[1] = s & _MASK64_INT
    row[2] = inc >> 64
    row[3] = inc & _MASK64_INT
    row[4] = int(state["has_uint32"])
    row[5] = int(state["uinteger"])


def rng_rows(generators: Sequence[np.random.Generator]) -> np.ndarray:
    """An ``(N, 6)`` uint64 array whose row i is the state of ``generators[i]`` (PCG64)."""
    rows = np.zeros((len(generators), ROW_WIDTH), dtype=np.uint64)
    for i, gen in enumerate(generators):
        _state_to_row(gen.bit_generator.state, rows[i])
    return rows


def set_row(rng: np.ndarray, g: int, generator: np.random.Generator) -> None:
    """Overwrite row ``g`` of ``rng`` with the state of ``generator`` (PCG64)."""
    _state_to_row(generator.bit_generator.state, rng[g])


def row_state(rng: np.ndarray, g: int) -> dict[str, Any]:
    """Row ``g`` as a PCG64 ``bit_generator.state`` dict (assign it to a generator's bit generator)."""
    row = [int(v) for v in rng[g]]
    return {
        "bit_generator": "PCG64",
        "state": {"state": (row[0] << 64) | row[1], "inc": (row[2] << 64) | row[3]},
        "has_uint32": row[4],
        "uinteger": row[5],
    }


def generator_from_row(rng: np.ndarray, g: int) -> np.random.Generator:
    """A new PCG64 ``Generator`` in exactly the state of row ``g``."""
    bit_generator = np.random.PCG64()
    bit_generator.state = row_state(rng, g)
    return np.random.Generator(bit_generator)


def seed_rows(seeds: Sequence[Any]) -> np.ndarray:
    """Rows equal to ``np.random.default_rng(s)`` for each seed ``s``."""
    return rng_rows([np.random.default_rng(s) for s in seeds])
