"""Run a game-counting function over process chunks and add up what the chunks count."""

from __future__ import annotations

from typing import Any, Callable

from dixenv.experiments.workers import worker_pool


def merge_counts(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Add up per-chunk results key by key (numbers, numpy arrays and lists all support +)."""
    out = dict(parts[0])
    for part in parts[1:]:
        for key, value in part.items():
            out[key] = out[key] + value
    return out


def run_chunked(play: Callable[..., dict[str, Any]], players: int, games: int, seed: int, jobs: int, *args: Any) -> dict[str, Any]:
    """``play(players, games, seed, *args)`` split over ``jobs`` processes (distinct seeds per chunk), merged.

    The processes are spawned with one BLAS thread each (``workers.worker_pool``), as the
    tournaments' are: ``play`` must be importable by name (a module-level function)."""
    if jobs <= 1:
        return play(players, games, seed, *args)
    chunks = [games // jobs + (i < games % jobs) for i in range(jobs)]
    with worker_pool(jobs) as pool:
        return merge_counts(pool.starmap(play, [(players, c, seed * 1000 + i, *args) for i, c in enumerate(chunks) if c]))
