"""Time dix scoring (``score_cards`` / ``score_collection``) on random end-of-game collections.

Collections are drawn without replacement from the real box (SPEC §1, currency left out): a fixed
number of number cards plus 0..max-wilds wilds. Each collection is timed once on a cold memo
cache (what the engine pays when a collection changed) and once warm (unchanged collection).

    python -m experiments.studies.dix_scoring.bench_scoring --collections 3000 --numbers 20 --max-wilds 4
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from dixenv.games.dix import scoring
from dixenv.games.dix.scoring import parse_collection, score_cards, score_collection

COLOURS = "BGOP"
# The box without currency: 1-6 three copies and 7-9 one copy per colour, 2 colour wilds per
# colour, number wilds W1..W9, one star (SPEC §1).
BOX_NUMBERS = [f"{c}{k}" for c in COLOURS for k in range(1, 10) for _ in range(3 if k <= 6 else 1)]
BOX_WILDS = [f"{c}#" for c in COLOURS] * 2 + [f"W{k}" for k in range(1, 10)] + ["**"]


def random_collections(rng: np.random.Generator, count: int, numbers: int, max_wilds: int) -> list[list[str]]:
    """``count`` collections of ``numbers`` number cards and 0..``max_wilds`` wilds from the box."""
    out = []
    for _ in range(count):
        cards = list(rng.choice(BOX_NUMBERS, size=numbers, replace=False))
        cards += list(rng.choice(BOX_WILDS, size=int(rng.integers(0, max_wilds + 1)), replace=False))
        out.append([str(c) for c in cards])
    return out


def time_calls(fn, args_list: list[tuple]) -> list[float]:
    """Microseconds per call of ``fn(*args)`` for each args tuple, timed one by one."""
    times = []
    clock = time.perf_counter_ns
    for args in args_list:
        t0 = clock()
        fn(*args)
        times.append((clock() - t0) / 1000.0)
    return times


def summary(name: str, times: list[float]) -> str:
    """One line: median, mean, 99th percentile and max in microseconds."""
    p99 = float(np.percentile(times, 99))
    return (
        f"{name:42s} median {statistics.median(times):8.1f} µs   mean {statistics.fmean(times):8.1f} µs"
        f"   p99 {p99:8.1f} µs   max {max(times):9.1f} µs"
    )


def clear_caches() -> None:
    """Empty the scorer's memo caches (the run table stays: it is built at import)."""
    scoring._score.cache_clear()
    scoring._irredundant.cache_clear()


def main(argv: list[str] | None = None) -> None:
    """Parse options, time the scorer, print µs per call."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collections", type=int, default=3000, help="random collections to time (default 3000)")
    parser.add_argument("--numbers", type=int, default=20, help="number cards per collection (default 20)")
    parser.add_argument("--max-wilds", type=int, default=4, help="wilds per collection: uniform 0..this (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="numpy seed (default 0)")
    opts = parser.parse_args(argv)

    rng = np.random.default_rng(opts.seed)
    collections = random_collections(rng, opts.collections, opts.numbers, opts.max_wilds)
    parsed = [parse_collection(cards) for cards in collections]
    wild_counts = [sum(not (c[0] in COLOURS and c[1].isdigit()) for c in cards) for cards in collections]
    print(
        f"{opts.collections} collections: {opts.numbers} number cards + 0..{opts.max_wilds} wilds "
        f"from the real box (seed {opts.seed})"
    )

    clear_caches()
    rows = [summary("score_collection, cold cache", t_col := time_calls(score_collection, parsed))]
    rows.append(summary("score_collection, warm cache (same input)", time_calls(score_collection, parsed)))
    clear_caches()
    rows.append(summary("score_cards, cold cache", time_calls(score_cards, [(c,) for c in collections])))
    rows.append(summary("score_cards, warm cache", time_calls(score_cards, [(c,) for c in collections])))
    # the exact solver without any memo (the irredundant-set cache refilled as it goes)
    clear_caches()
    rows.append(summary("solver without the result memo", time_calls(scoring._best_total, parsed)))
    print("\n".join(rows))

    print("score_collection cold, by number of wilds held:")
    for n in range(opts.max_wilds + 1):
        sel = [t for t, w in zip(t_col, wild_counts) if w == n]
        if sel:
            print(summary(f"  {n} wilds ({len(sel)} collections)", sel))


if __name__ == "__main__":
    main()
