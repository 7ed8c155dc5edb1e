"""The paired comparison: same games for both candidates, the difference and its interval."""

from __future__ import annotations

import json

import pytest

from dixenv.experiments import paired as P


def test_an_agent_against_itself_differs_by_exactly_zero():
    result = P.paired("le_dix", "heuristic", "heuristic", ["random", "random"], 6, {"num_players": 3, "deals": (2,)}, seed=4)
    assert result["games"] == 6
    assert result["win_share_difference"] == 0 and result["only_a_won"] == result["only_b_won"] == 0
    assert result["a_win_share"] == result["b_win_share"]


def test_the_heuristic_beats_random_in_the_same_seat_of_the_same_deals(tmp_path, capsys):
    out = tmp_path / "p.json"
    code = P.main(["--game", "dix", "--option", "solo=True", "--option", "difficulty=4", "--a", "heuristic", "--b", "random",
                   "--games", "40", "--seed", "2", "--out", str(out)])
    assert code == 0
    result = json.loads(out.read_text())
    lo, hi = result["difference_ci95"]
    assert lo > 0 and result["only_a_won"] > result["only_b_won"]
    assert result["a_win_share"] - result["b_win_share"] == pytest.approx(result["win_share_difference"])
    assert "A is stronger" in capsys.readouterr().out


def test_unpaired_games_are_refused(monkeypatch):
    real = P.run_tournament

    def shifted(game, agents, games, options, workers, seed):
        return real(game, agents, games, options, workers=workers, seed=seed + (agents[0] == "random"))

    monkeypatch.setattr(P, "run_tournament", shifted)
    with pytest.raises(RuntimeError, match="not paired"):
        P.paired("dix", "heuristic", "random", [], 4, {"solo": True}, seed=1)


def test_a_bad_agent_is_an_error_exit(capsys):
    assert P.main(["--game", "dix", "--option", "solo=True", "--a", "nobody", "--b", "random", "--games", "2"]) == 2
    assert "nobody" in capsys.readouterr().err


def test_candidate_a_summary_is_a_search_stats_tournament_row(tmp_path):
    from dixenv.experiments import search_stats

    summary_path = tmp_path / "a.json"
    code = P.main(["--game", "dix_de_suite", "--option", "target_score=80", "--a", "heuristic", "--b", "random",
                   "--opponents", "random", "--games", "6", "--seed", "3", "--out", str(tmp_path / "p.json"),
                   "--a-summary", str(summary_path)])
    assert code == 0
    result = json.loads((tmp_path / "p.json").read_text())
    summary = json.loads(summary_path.read_text())
    assert summary["kind"] == "tournament" and summary["opponent"] == "random" and summary["games"] == 6
    me = summary["agents_summary"][summary["labels"][0]]
    assert me["win_share"] == pytest.approx(result["a_win_share"])
    row = search_stats.tournament_row(summary)
    assert row.startswith("| dix_de_suite | `heuristic` | random ×1 | 6 |") and f"{result['a_win_share']:.3f}" in row
