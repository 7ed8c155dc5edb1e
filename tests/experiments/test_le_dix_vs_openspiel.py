"""The lockstep comparison with OpenSpiel's IS-MCTS: the id mapping, the seatings and a short run."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from experiments.studies.le_dix_heuristic import le_dix_vs_openspiel as vs  # noqa: E402
from experiments.studies.le_dix_heuristic.le_dix_stats import heuristic_class  # noqa: E402
from dixenv.experiments.oh_hell_bridge import from_os_action, to_os_action  # noqa: E402
from dixenv.games.le_dix import actions as A  # noqa: E402

HEURISTIC_FILE = Path(__file__).resolve().parents[2] / "agents" / "le_dix_heuristic.py"


@pytest.mark.parametrize("max_bid", [3, 10])
def test_every_bid_and_play_survives_the_round_trip_through_openspiel_ids(max_bid):
    ours = list(range(A.BID_BASE, A.num_actions(max_bid)))
    os_ids = [to_os_action(max_bid, a) for a in ours]
    assert len(set(os_ids)) == len(ours)
    assert [from_os_action(max_bid, o) for o in os_ids] == ours


def test_the_trump_choice_has_no_openspiel_action():
    with pytest.raises(ValueError, match="leave trump"):
        to_os_action(5, A.LEAVE_TRUMP)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_each_side_holds_each_seat_once_over_the_two_lineups(n):
    seatings = vs.lineups(n)
    for seat in range(n):
        assert sorted(sides[seat] for sides in seatings) == sorted(vs.SIDES)


def test_a_short_run_reports_rates_and_a_duplicate_difference(capsys):
    # Two deals of two cards: the run itself checks that both engines agree on every move and score.
    (s,) = vs.main(["--deals", "2", "--sizes", "2", "--simulations", "10"])
    assert s["bids_per_side"] == 4 * 2
    for side in vs.SIDES:
        v = s["sides"][side]
        assert 0.0 <= v["made"] <= 1.0 and v["made_ci"][0] <= v["made"] <= v["made_ci"][1]
        assert v["made"] + v["over"] + v["under"] == pytest.approx(1.0)
        assert 0.0 <= v["mean_bid"] <= 2.0
    assert -10.0 <= s["duplicate_difference"] <= 10.0
    assert "duplicate: IS-MCTS" in capsys.readouterr().out


def test_a_baseline_heuristic_is_loaded_from_its_file():
    cls = heuristic_class(str(HEURISTIC_FILE))
    assert cls.__name__ == "LeDixHeuristic" and cls.__module__.startswith("le_dix_baseline_")
    with pytest.raises(ValueError, match="not a file"):
        heuristic_class(str(HEURISTIC_FILE) + ".missing")
