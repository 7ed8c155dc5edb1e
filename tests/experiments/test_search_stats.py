"""experiments.search_stats (tournaments and the ISMCTSBot match, their tables) and bench --search."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dixenv.experiments import bench, search_stats


def test_a_tournament_summary_names_the_opponent_and_becomes_a_table_row(tmp_path, capsys):
    out = tmp_path / "t.json"
    search_stats.main(["tournament", "--game", "le_dix", "--agent", "ismcts:iterations=4", "--games", "4",
                       "--option", "deals=(2,)", "--out", str(out)])
    summary = json.loads(out.read_text())
    assert summary["kind"] == "tournament" and summary["opponent"] == "heuristic"
    assert summary["agents"] == ["ismcts:iterations=4"] + ["heuristic"] * 3
    assert summary["agents_summary"]["ismcts:iterations=4"]["ms_per_move"] > 0
    assert summary["command"].startswith("python -m experiments.search_stats tournament")
    capsys.readouterr()
    search_stats.main(["table", str(out)])
    row = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| le_dix")]
    assert len(row) == 1 and "`ismcts:iterations=4`" in row[0] and "heuristic ×3" in row[0] and "(even 0.25)" in row[0]


def test_solo_dix_plays_one_agent_against_alix():
    summary = search_stats.tournament("dix", "random", "heuristic", 2, 0, {"solo": True, "difficulty": 5}, 1)
    assert summary["agents"] == ["random"] and summary["opponent"] == "ALIX (difficulty 5)"


def test_the_openspiel_match_plays_every_deal_twice_and_sums_up_both_sides():
    pytest.importorskip("pyspiel")
    summary = search_stats.openspiel_match(deals=2, simulations=4, pairs=2, seed=0, uct_c=7.0, ours="ismcts:iterations=4", players=4)
    for side in ("ours", "openspiel"):
        assert summary[side]["seat_deals"] == 8  # 2 deals × 2 games × 2 seats
        assert 0 <= summary[side]["made_bid_rate"] <= 1
    # Points per deal are 0 or 10: the difference between the sides is what the rates say.
    diff = summary["ours"]["points_per_deal"] - summary["openspiel"]["points_per_deal"]
    assert summary["points_difference_per_deal"] == pytest.approx(diff)
    assert "| 2 | 4 | `ismcts:iterations=4` |" in search_stats.openspiel_table([summary])


def _fake_match(diffs, seed, made_ours, made_theirs):
    """A duplicate-match summary of the saved shape (4 seat-deals per side and pair)."""
    from dixenv.experiments.tournament import mean_ci

    mean, half = mean_ci(diffs)
    n = 4 * len(diffs)
    return {"kind": "openspiel", "options": {"num_players": 4, "deals": [10], "hook": True}, "simulations": 100, "uct_c": 7.0,
            "ours_agent": "ismcts:iterations=100", "pairs": len(diffs), "seed": seed,
            "points_difference_per_deal": mean, "points_difference_ci95_half_width": half,
            "ours": {"seat_deals": n, "made_bid_rate": made_ours / n, "ms_per_move": 40.0},
            "openspiel": {"seat_deals": n, "made_bid_rate": made_theirs / n, "ms_per_move": 200.0}}


def test_pooled_matches_give_the_interval_of_all_their_pairs_together():
    from dixenv.experiments.tournament import mean_ci

    diffs = np.random.default_rng(0).normal(0.3, 3.5, size=270).round(2)
    first, second = _fake_match(diffs[:150].tolist(), 1, 320, 330), _fake_match(diffs[150:].tolist(), 2, 260, 270)
    pooled = search_stats.pool_openspiel([first, second])
    mean, half = mean_ci(diffs.tolist())
    assert pooled["pairs"] == 270 and pooled["seeds"] == [1, 2]
    assert pooled["points_difference_per_deal"] == pytest.approx(mean)
    assert pooled["points_difference_ci95_half_width"] == pytest.approx(half)
    assert pooled["ours"]["made_bid_rate"] == pytest.approx(580 / 1080)
    table = search_stats.openspiel_table([first, second])
    assert f"`ismcts:iterations=100`, 2 runs pooled | 270 | 0.537 | 0.556 | {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]" in table
    other = dict(second, simulations=50)
    with pytest.raises(ValueError, match="cannot pool matches of different settings"):
        search_stats.pool_openspiel([first, other])
    assert "pooled" not in search_stats.openspiel_table([first, other])
    with pytest.raises(ValueError, match="share a seed"):
        search_stats.pool_openspiel([first, dict(second, seed=1)])
    assert "pooled" not in search_stats.openspiel_table([first, dict(second, seed=1)])


def test_the_openspiel_match_gives_the_same_figures_with_two_workers():
    pytest.importorskip("pyspiel")
    args = dict(deals=2, simulations=4, pairs=3, seed=4, uct_c=7.0, ours="ismcts:iterations=4", players=4)
    one = search_stats.openspiel_match(**args)
    two = search_stats.openspiel_match(**args, workers=2)
    for summary in (one, two):
        for side in ("ours", "openspiel"):
            summary[side].pop("ms_per_move")  # the only timing
    assert one == two


@pytest.mark.parametrize("name", ["le_dix", "dix_de_suite", "dix"])
def test_bench_search_costs_time_clone_and_sample_hidden_at_real_decisions(name):
    _, game = bench.load_game(name)
    states = bench.search_positions(game, {"num_players": 3}, 30, seed=0)
    assert len(states) == 30 and all(s.current_player() >= 0 for s in states)
    clone_us, sample_us, belief_us = bench.search_costs(game, {"num_players": 3}, rounds=1, seed=0, count=30)
    assert clone_us > 0 and sample_us > 0
    # A belief=progress world is a sample_hidden world refined (dix_de_suite only): it costs more.
    assert (belief_us > sample_us) if name == "dix_de_suite" else belief_us is None


def test_bench_search_compiled_prints_both_engines_rates_per_game(capsys):
    pytest.importorskip("numba")
    bench.print_search_compiled(0.01, seed=0, names=["dix", "dix_de_suite"], count=3)
    out = capsys.readouterr().out
    assert "dix {'num_players': 2}" in out and "le_dix" not in out  # the games asked for, with a compiled pimc
    rows = [line.split() for line in out.splitlines() if line.startswith(("pimc:", "ismcts:"))]
    assert [r[0] for r in rows] == list(bench.SEARCH_COMPILED["dix"][1])  # pimc rows, then ismcts
    for row in rows:
        python, compiled = float(row[1].replace(",", "")), float(row[2].replace(",", ""))
        assert python > 0 and compiled > 0 and abs(float(row[3].rstrip("x")) - compiled / python) < 0.051 * max(1, compiled / python)
    assert "dix: compiled pimc / python pimc iterations per second = " in out
    assert "dix: compiled ismcts / python ismcts iterations per second = " in out


def test_regret_positions_are_wide_decisions_that_replay_exactly():
    options = {"num_players": 2}
    spots = search_stats.regret_positions("dix", options, count=4, seed=7)
    assert len(spots) == 4
    for spot in spots:
        a, b = search_stats._replay("dix", options, spot), search_stats._replay("dix", options, spot)
        obs = a.observe(a.agent_selection)
        assert obs["action_mask"].sum() >= 3
        assert a.agent_selection == b.agent_selection
        assert (obs["observation"] == b.observe(b.agent_selection)["observation"]).all()


def test_regret_scores_each_setting_by_the_reference_means(tmp_path, capsys):
    out = tmp_path / "r.json"
    search_stats.main(["regret", "--game", "dix", "--positions", "3", "--repeats", "2", "--reference", "ismcts:iterations=40",
                       "--agent", "random", "--agent", "ismcts:iterations=10,root=halving", "--out", str(out)])
    summary = json.loads(out.read_text())
    assert summary["kind"] == "regret" and summary["rows"]["reference"]["agent"] == "ismcts:iterations=40"
    for spec in ("random", "ismcts:iterations=10,root=halving"):
        row = summary["rows"][spec]
        assert row["decisions"] == 6 and row["regret"] >= 0 and 0 <= row["best_share"] <= 1
        # No regret means every move played was the reference's best, and the other way round.
        assert (row["regret"] == 0) == (row["best_share"] == 1)
    capsys.readouterr()
    search_stats.main(["table", str(out)])
    table = capsys.readouterr().out
    assert "| `random` |" in table and "regret vs `ismcts:iterations=40`" in table
