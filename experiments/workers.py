"""Worker processes with one BLAS and OpenMP thread each.

Why: tournaments, demonstrations and soaks run one worker process per core, and a policy agent's
forward pass on one observation is a small matrix product. OpenBLAS splits a product above its
size threshold over every core (a 1,828-input first layer, the le_dix ``cards_bid`` policy's, is
above it; the 1,775-input ``cards`` one is not), and with each core already running a worker those
threads wait on each other: 3.11 ms a move against 0.35 with one thread, 200 le_dix games in 21.0 s
against 5.5 s (two workers on the 2-core machine, 2026-12-07; CHANGELOG). joblib's worker
pools cap their workers' BLAS threads for the same reason. The cap reaches a spawned worker
through its environment, which it reads when it imports numpy or torch (a forked worker keeps its
parent's thread pools: the pools here spawn); a value the user set is kept. One thread a worker
is also what a single-row forward pass wants when workers are fewer than cores.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from contextlib import contextmanager
from multiprocessing.pool import Pool
from typing import Iterator

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@contextmanager
def one_thread_per_worker() -> Iterator[None]:
    """While open, processes started here get 1 for each of ``THREAD_VARIABLES`` the user has not set."""
    unset = [name for name in THREAD_VARIABLES if name not in os.environ]
    for name in unset:
        os.environ[name] = "1"
    try:
        yield
    finally:
        for name in unset:
            os.environ.pop(name, None)


@contextmanager
def worker_pool(workers: int, start_method: str = "spawn") -> Iterator[Pool]:
    """A ``multiprocessing`` pool of ``workers`` processes started under ``one_thread_per_worker``.

    ``spawn`` by default: a forked worker inherits its parent's torch/OpenMP thread pools (and
    hangs at its first tensor operation once the parent ran one) and ignores the cap.
    """
    with one_thread_per_worker(), mp.get_context(start_method).Pool(workers) as pool:
        yield pool
