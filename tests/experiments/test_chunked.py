"""experiments.chunked: games split over worker processes, their counts added up."""

from __future__ import annotations

import os

import numpy as np

from dixenv.experiments.chunked import merge_counts, run_chunked


def _count(players: int, games: int, seed: int, extra: int) -> dict:
    """A stand-in for a study's game loop: what a chunk was given, and the thread cap it runs under."""
    return {"games": games, "seeds": [seed], "seats": players * games, "pair": np.array([games, extra]),
            "threads": [os.environ.get("OPENBLAS_NUM_THREADS")]}


def test_chunks_split_the_games_with_their_own_seeds_and_add_up(monkeypatch):
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    out = run_chunked(_count, 3, 7, 5, 2, 10)
    assert (out["games"], out["seeds"], out["seats"]) == (7, [5000, 5001], 21)
    assert out["pair"].tolist() == [7, 20]
    assert out["threads"] == ["1", "1"], "each worker runs with one BLAS thread"
    assert "OPENBLAS_NUM_THREADS" not in os.environ, "the cap is the workers', not the caller's"
    assert run_chunked(_count, 3, 7, 5, 1, 10)["seeds"] == [5], "one job: played here, on the seed given"
    assert run_chunked(_count, 3, 1, 5, 2, 10)["seeds"] == [5000], "an empty chunk is not played"


def test_merge_counts_adds_key_by_key():
    merged = merge_counts([{"a": 1, "b": [1], "c": np.array([1, 2])}, {"a": 2, "b": [2], "c": np.array([3, 4])}])
    assert merged["a"] == 3 and merged["b"] == [1, 2] and merged["c"].tolist() == [4, 6]
