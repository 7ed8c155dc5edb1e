"""Worker processes get one BLAS/OpenMP thread each (experiments/workers.py), and the parent's environment is left as it was."""

from __future__ import annotations

import multiprocessing as mp
import os

from dixenv.experiments.workers import THREAD_VARIABLES, one_thread_per_worker


def _thread_settings(_: int) -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in THREAD_VARIABLES}


def test_spawned_workers_get_one_thread_and_the_parent_is_restored(monkeypatch):
    for name in THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")  # set by the user: kept
    with one_thread_per_worker(), mp.get_context("spawn").Pool(2) as pool:
        seen = pool.map(_thread_settings, range(2))
    assert seen == [{"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "3"}] * 2
    assert _thread_settings(0) == {"OMP_NUM_THREADS": None, "OPENBLAS_NUM_THREADS": None, "MKL_NUM_THREADS": "3"}


def test_the_tournament_starts_its_workers_under_the_cap(monkeypatch):
    from contextlib import contextmanager

    import dixenv.experiments.tournament as T
    import dixenv.experiments.workers as W

    entered = []

    @contextmanager
    def recording():
        with one_thread_per_worker():
            entered.append(os.environ["OPENBLAS_NUM_THREADS"])
            yield

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.setattr(W, "one_thread_per_worker", recording)
    results = T.run_tournament("dix_de_suite", ["random", "random"], 4, {"num_players": 2}, workers=2, seed=1)
    assert entered == ["1"] and len(results.records) == 4
    T.run_tournament("dix_de_suite", ["random", "random"], 2, {"num_players": 2}, workers=1, seed=1)
    assert entered == ["1"]  # one process: no pool, nothing to cap
