"""The experiment tools run without tqdm when their progress bar is off, and say what to do when it is on."""

from __future__ import annotations

import sys

import pytest

from dixenv.experiments import soak
from dixenv.experiments.progress import SilentBar, progress_bar
from dixenv.experiments.tournament import run_tournament


@pytest.fixture
def no_tqdm(monkeypatch):
    """Make ``import tqdm`` fail, as on a bare ``pip install dixenv``."""
    for name in [m for m in sys.modules if m == "tqdm" or m.startswith("tqdm.")] + ["tqdm", "tqdm.auto"]:
        monkeypatch.setitem(sys.modules, name, None)


def test_a_tournament_and_a_soak_run_without_tqdm_when_the_bar_is_off(no_tqdm):
    results = run_tournament("le_dix", ["random", "random", "random"], 3, seed=1, workers=1, progress=False)
    assert len(results.records) == 3 and all(not r["truncated"] for r in results.records)
    totals = soak.run({"dix": 2}, seed=4, workers=1, progress=False)
    assert totals["games"] == {"dix": 2} and totals["failures"] == []


def test_asking_for_a_bar_without_tqdm_names_the_way_out(no_tqdm):
    with pytest.raises(ImportError, match="--no-progress"):
        run_tournament("le_dix", ["random", "random", "random"], 3, seed=1, workers=1, progress=True)
    with pytest.raises(ImportError, match="tqdm"):
        progress_bar(5, True)


def test_the_bar_is_tqdm_when_asked_for_and_silent_otherwise():
    tqdm = pytest.importorskip("tqdm")
    bar = progress_bar(5, True, disable=True)
    assert isinstance(bar, tqdm.tqdm)
    bar.close()
    assert isinstance(progress_bar(5, False), SilentBar)
