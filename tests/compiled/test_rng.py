"""dixenv.compiled.rng draws exactly what NumPy's PCG64 Generator draws, and leaves the same state.

Every compiled call is mirrored by the same call on a NumPy ``Generator``; the values and the full
``bit_generator.state`` are compared after each call.
"""

from __future__ import annotations

import random as pyrandom
import subprocess
import sys

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from dixenv.compiled import require_numba  # noqa: E402
from dixenv.compiled import rng as R  # noqa: E402

INTEGER_BOUNDS = [
    1, 2, 3, 5, 7, 40, 52, 60, 2**31, 2**32 - 1, 2**32, 2**40, 2**63,
    3 * 2**30,  # 32-bit Lemire that rejects a quarter of its draws
    (2**64 + 2) // 3,  # 64-bit Lemire that rejects a third of its draws
]
PERMUTATION_SIZES = [0, 1, 2, 13, 40, 52, 60]
INTERVAL_MAXES = [
    0, 1, 2, 39, 51, 2**31, 2**32 - 2, 2**32 - 1, 2**32, 2**40 + 5, 3 * 2**61, 2**64 - 2, 2**64 - 1,
]
MASK64 = 2**64 - 1


def _nb_int(n: int) -> int | np.uint64:
    """An int argument as numba takes it from Python: values >= 2**63 must come as np.uint64."""
    return np.uint64(n) if n >= 2**63 else n


def _state_generator(
    state: int, inc: int, has_uint32: int = 0, uinteger: int = 0
) -> np.random.Generator:
    """A PCG64 Generator in a given raw state."""
    bg = np.random.PCG64()
    bg.state = {
        "bit_generator": "PCG64",
        "state": {"state": state, "inc": inc},
        "has_uint32": has_uint32,
        "uinteger": uinteger,
    }
    return np.random.Generator(bg)


class _Mirror:
    """A row of a compiled rng array and a NumPy Generator, driven by the same calls."""

    def __init__(self, gen: np.random.Generator, row: int = 1, rows: int = 3) -> None:
        self.gen = gen
        self.g = row
        others = [np.random.default_rng(1000 + i) for i in range(rows)]
        self.rng = R.rng_rows(others)
        R.set_row(self.rng, row, gen)
        self.untouched = np.delete(self.rng, row, axis=0).copy()
        self.legacy = np.random.RandomState(gen.bit_generator)  # shares the bit generator

    def check_state(self) -> None:
        """The row equals the Generator's state, field by field, and no other row moved."""
        assert self.rng[self.g].tolist() == R.rng_rows([self.gen])[0].tolist()
        from_row = R.generator_from_row(self.rng, self.g)
        assert from_row.bit_generator.state == self.gen.bit_generator.state
        assert np.array_equal(np.delete(self.rng, self.g, axis=0), self.untouched)

    def integers(self, n: int) -> None:
        got = R.integers(self.rng, self.g, _nb_int(n))
        want = int(self.gen.integers(n))
        assert int(got) == want, ("integers", n)

    def permutation(self, k: int) -> None:
        out = np.full(k, -1, dtype=np.int64)
        R.permutation(self.rng, self.g, out)
        assert out.tolist() == self.gen.permutation(k).tolist(), ("permutation", k)

    def shuffle(self, values: list[int]) -> None:
        mine = np.array(values, dtype=np.int64)
        theirs = mine.copy()
        R.shuffle(self.rng, self.g, mine)
        self.gen.shuffle(theirs)
        assert mine.tolist() == theirs.tolist(), ("shuffle", len(values))

    def random(self) -> None:
        assert R.random(self.rng, self.g) == self.gen.random()

    def uint32(self) -> None:
        c = self.gen.bit_generator.ctypes
        assert int(R.next_uint32(self.rng, self.g)) == int(c.next_uint32(c.state))

    def uint64(self) -> None:
        assert int(R.next_uint64(self.rng, self.g)) == int(self.gen.bit_generator.random_raw())

    def interval(self, mx: int) -> None:
        # NumPy's masked bounded draw (RandomState.randint) is random_interval for these bounds.
        got = int(R.random_interval(self.rng, self.g, _nb_int(mx)))
        want = int(self.legacy.randint(0, mx + 1, dtype=np.uint64)) if mx < MASK64 else None
        if want is None:  # the full range: a plain 64-bit draw
            want = int(self.gen.bit_generator.random_raw())
        assert got == want, ("random_interval", mx)

    def random_op(self, driver: pyrandom.Random) -> None:
        """One call chosen by ``driver``, then the state check."""
        kind = driver.randrange(8)
        if kind <= 1:
            self.integers(driver.choice(INTEGER_BOUNDS))
        elif kind == 2:
            self.permutation(driver.choice(PERMUTATION_SIZES))
        elif kind == 3:
            k = driver.choice(PERMUTATION_SIZES)
            self.shuffle([driver.randrange(-(2**62), 2**62) for _ in range(k)])
        elif kind == 4:
            self.random()
        elif kind == 5:
            self.uint32()
        elif kind == 6:
            self.uint64()
        else:
            self.interval(driver.choice(INTERVAL_MAXES))
        self.check_state()


def _run_mixed(gen: np.random.Generator, driver_seed: int, calls: int) -> None:
    """A random mix of calls on a Generator and its row, checked after each call."""
    mirror = _Mirror(gen)
    mirror.check_state()
    driver = pyrandom.Random(driver_seed)
    for _ in range(calls):
        mirror.random_op(driver)


@pytest.mark.parametrize("block", range(4))
def test_mixed_calls_match_numpy_for_many_seeds(block: int) -> None:
    for seed in range(block * 50, block * 50 + 50):
        _run_mixed(np.random.default_rng(seed), driver_seed=seed, calls=30)


@pytest.mark.parametrize(
    "seed", [0, 1, 2, 3, 2**32 - 1, 2**32, 2**63, 2**64 - 1, 2**64, 2**128 - 1, 10**30]
)
def test_mixed_calls_match_numpy_for_edge_seeds(seed: int) -> None:
    _run_mixed(np.random.default_rng(seed), driver_seed=seed % 9973, calls=60)


@pytest.mark.parametrize(
    "state, inc, has_uint32, uinteger",
    [
        (0, 1, 0, 0),
        (2**128 - 1, 2**128 - 1, 0, 0),  # every addition carries
        (2**64 - 1, 2**64 + 1, 1, 0xFFFFFFFF),
        (2**127, 3, 1, 0),
        (0x0123456789ABCDEF_FEDCBA9876543210, 0xDA3E39CB94B95BDB_A3C2F0B4A7E3D4A1, 1, 12345),
    ],
)
def test_mixed_calls_match_numpy_from_raw_states(
    state: int, inc: int, has_uint32: int, uinteger: int
) -> None:
    gen = _state_generator(state, inc, has_uint32, uinteger)
    _run_mixed(gen, driver_seed=state % 10007, calls=60)


def test_buffered_half_mid_stream() -> None:
    # A 32-bit draw leaves the other half buffered (has_uint32=1); the row must carry it.
    for seed in range(40):
        gen = np.random.default_rng(seed)
        gen.integers(5)
        assert gen.bit_generator.state["has_uint32"] == 1
        mirror = _Mirror(gen)
        mirror.check_state()
        mirror.integers(52)  # uses the buffered half
        mirror.check_state()
        mirror.uint64()  # 64-bit draws leave the buffer alone
        mirror.random()
        mirror.check_state()
        mirror.permutation(13)
        mirror.integers(2**40)
        mirror.uint32()
        mirror.check_state()


def test_every_bound_and_size_in_sequence() -> None:
    mirror = _Mirror(np.random.default_rng(7))
    for n in INTEGER_BOUNDS:
        for _ in range(20):
            mirror.integers(n)
            mirror.check_state()
    for k in PERMUTATION_SIZES:
        for _ in range(5):
            mirror.permutation(k)
            mirror.check_state()
    for mx in INTERVAL_MAXES:
        for _ in range(10):
            mirror.interval(mx)
            mirror.check_state()


def test_integers_one_draws_nothing_and_bad_bounds_raise() -> None:
    rows = R.seed_rows([5])
    before = rows.copy()
    assert R.integers(rows, 0, 1) == 0
    assert np.array_equal(rows, before)
    with pytest.raises(ValueError):
        R.integers(rows, 0, 0)
    with pytest.raises(ValueError):
        R.integers(rows, 0, -3)


@numba.njit(parallel=True, cache=True)
def _batched_deals(rng: np.ndarray, k: int, reps: int) -> tuple[np.ndarray, np.ndarray]:
    """For each row: ``reps`` times a permutation of k, then integers(3)."""
    n = rng.shape[0]
    perms = np.empty((n, reps, k), dtype=np.int64)
    picks = np.empty((n, reps), dtype=np.int64)
    for g in numba.prange(n):
        for r in range(reps):
            R.permutation(rng, g, perms[g, r])
            picks[g, r] = R.integers(rng, g, 3)
    return perms, picks


def test_batched_prange_matches_numpy_for_any_thread_count() -> None:
    seeds = list(range(100, 164))
    k, reps = 52, 4
    gens = [np.random.default_rng(s) for s in seeds]
    want_perms = np.empty((64, reps, k), dtype=np.int64)
    want_picks = np.empty((64, reps), dtype=np.int64)
    for g, gen in enumerate(gens):
        for r in range(reps):
            want_perms[g, r] = gen.permutation(k)
            want_picks[g, r] = gen.integers(3)
    want_rows = R.rng_rows(gens)

    original = numba.get_num_threads()
    try:
        for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
            numba.set_num_threads(threads)
            rows = R.seed_rows(seeds)
            perms, picks = _batched_deals(rows, k, reps)
            assert np.array_equal(perms, want_perms), threads
            assert np.array_equal(picks, want_picks), threads
            assert np.array_equal(rows, want_rows), threads
    finally:
        numba.set_num_threads(original)


def test_row_round_trips() -> None:
    seeds = [0, 1, 42, 2**64 - 1, 2**100]
    rows = R.seed_rows(seeds)
    assert rows.shape == (len(seeds), R.ROW_WIDTH) and rows.dtype == np.uint64
    assert np.array_equal(rows, R.rng_rows([np.random.default_rng(s) for s in seeds]))
    for g, s in enumerate(seeds):
        want = np.random.default_rng(s).bit_generator.state
        assert R.generator_from_row(rows, g).bit_generator.state == want

    # A state with the buffered half set survives rows -> Generator -> rows.
    gen = np.random.default_rng(3)
    gen.integers(7)
    row = R.rng_rows([gen])
    assert row[0, 4] == 1
    back = R.generator_from_row(row, 0)
    assert back.bit_generator.state == gen.bit_generator.state
    assert np.array_equal(R.rng_rows([back]), row)
    assert back.integers(2**40) == gen.integers(2**40)  # and draws the same

    # set_row overwrites one row only.
    rows2 = rows.copy()
    R.set_row(rows2, 2, gen)
    assert np.array_equal(rows2[2], R.rng_rows([gen])[0])
    assert np.array_equal(np.delete(rows2, 2, axis=0), np.delete(rows, 2, axis=0))

    # generator_from_row is independent of the array.
    independent = R.generator_from_row(rows, 0)
    independent.random()
    assert np.array_equal(rows, R.seed_rows(seeds))


def test_other_bit_generators_are_refused() -> None:
    with pytest.raises(ValueError, match="PCG64"):
        R.rng_rows([np.random.Generator(np.random.PCG64DXSM(0))])


def test_package_import_is_light_and_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    code = "import sys, dixenv.compiled; assert 'numba' not in sys.modules, 'numba imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
    assert require_numba() is numba
    monkeypatch.setitem(sys.modules, "numba", None)
    with pytest.raises(ImportError, match=r"pip install 'dixenv\[fast\]'"):
        require_numba()
