"""The tournament harness: replayed deals across seat rotations, win counting, outputs, CIs, rating."""

from __future__ import annotations

import csv
import dataclasses
import importlib.util
import json

import pytest

import dixenv.le_dix_v0 as le_dix_v0
from dixenv.experiments import evaluate
from dixenv.experiments.game_stats import DixDeSuiteStats, LeDixStats
from dixenv.experiments.rating import run_rating
from dixenv.experiments.tournament import (
    mean_ci,
    run_tournament,
    tournament_tasks,
    wilson_interval,
)

AGENTS3 = ["random", "random", "random"]


@pytest.fixture(scope="module")
def small():
    """12 games of le_dix, 3 random players, short schedule: 4 deal seeds × 3 rotations."""
    return run_tournament("le_dix", AGENTS3, 12, {"deals": (4, 3)}, workers=1, seed=11)


def test_seat_rotation_replays_the_same_first_deal_hands(monkeypatch):
    dealt = []

    def recording_new_state(config, rng, scenario, events=None):
        state = le_dix_v0.GAME.new_state(config, rng, scenario, events)
        dealt.append(([list(h) for h in state.hands], state.trump_card, state.dealer))
        return state

    monkeypatch.setattr(le_dix_v0.raw_env, "game", dataclasses.replace(le_dix_v0.GAME, new_state=recording_new_state))
    res = run_tournament("le_dix", AGENTS3, 9, {"deals": (3,)}, workers=1, seed=5)
    assert len(res.records) == len(dealt) == 9  # in process: one reset per game, in game-id order
    by_base: dict[int, list[int]] = {}
    for rec in res.records:
        by_base.setdefault(rec["base"], []).append(rec["game_id"])
    assert len(by_base) == 3
    for games in by_base.values():
        assert len(games) == 3
        first = dealt[games[0]]
        assert all(dealt[g] == first for g in games), "every rotation of a base must get the same deal"
    firsts = [dealt[games[0]][0] for games in by_base.values()]
    assert firsts[0] != firsts[1] != firsts[2]  # different bases, different deals
    assert len({res.records[g]["start"] for g in by_base[0]}) == 1  # fingerprint agrees


def test_each_agent_sits_once_in_every_seat_per_deal_seed():
    tasks = tournament_tasks(["a", "b", "c", "d"], 8, seed=0)
    assert len(tasks) == 8
    for base in (0, 1):
        group = [t for t in tasks if t[1] == base]
        assert len({t[3] for t in group}) == 1  # one deal seed per base
        for seat in range(4):
            assert sorted(t[4][seat] for t in group) == ["a", "b", "c", "d"]


def test_games_round_up_to_whole_rotations():
    assert len(tournament_tasks(AGENTS3, 10, seed=0)) == 12


def test_win_shares_sum_to_one_per_game_and_to_the_games_over_agents(small):
    for rec in small.records:
        assert not rec["truncated"]
        assert sum(rec["wins"]) == pytest.approx(1.0)
        best = max(rec["scores"])
        for score, share in zip(rec["scores"], rec["wins"]):
            assert (share > 0) == (score == best)
    summ = small.summary()
    assert sum(s["wins"] for s in summ.values()) == pytest.approx(small.num_games)
    assert sum(s["win_share"] for s in summ.values()) == pytest.approx(1.0)
    assert all(s["games"] == 12 for s in summ.values())


def test_confidence_intervals_are_sane(small):
    for s in small.summary().values():
        lo, hi = s["win_ci95"]
        assert 0.0 <= lo <= s["win_share"] <= hi <= 1.0
        assert s["score_ci95_half_width"] >= 0
    lo, hi = wilson_interval(5, 10)
    assert (lo, hi) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 20)[0] == 0.0 and wilson_interval(20, 20)[1] == 1.0
    assert wilson_interval(2.5, 10)[0] < 0.25 < wilson_interval(2.5, 10)[1]  # shared wins are fractional
    mean, half = mean_ci([1.0, 2.0, 3.0])
    assert mean == 2.0 and half == pytest.approx(1.959964 * 1.0 / 3**0.5, rel=1e-5)


def test_le_dix_made_bid_rate_matches_the_exact10_scores(small):
    for rec in small.records:
        for seat, fig in enumerate(rec["figures"]):
            assert fig["deals"] == 2
            assert rec["scores"][seat] == 10 * fig["bids_made"]
    for s in small.summary().values():
        assert 0.0 <= s["made_bid_rate"] <= 1.0


def test_csv_and_json_are_written(small, tmp_path):
    csv_path, json_path = small.save(tmp_path / "out" / "le_dix.csv")
    assert csv_path.name == "le_dix.csv" and json_path.name == "le_dix.json"
    with csv_path.open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12
    assert {"game_id", "deal_seed", "agent0", "seat0", "score0", "win0", "bids_made0"} <= set(rows[0])
    assert sum(float(r[f"win{j}"]) for r in rows for j in range(3)) == pytest.approx(12)
    data = json.loads(json_path.read_text())
    assert data["game"] == "le_dix" and data["games"] == 12 and data["rotations"] == 3
    assert set(data["agents_summary"]) == {"random", "random#2", "random#3"}
    assert data["options"]["deals"] == [4, 3]


def test_results_do_not_depend_on_workers_and_spawned_workers_work(small):
    par = run_tournament("le_dix", AGENTS3, 12, {"deals": (4, 3)}, workers=2, seed=11, start_method="spawn")
    key = lambda r: (r["game_id"], r["deal_seed"], r["scores"], r["wins"])  # noqa: E731
    assert [key(r) for r in par.records] == [key(r) for r in small.records]


def test_wrong_number_of_agents_is_a_clear_error():
    with pytest.raises(ValueError, match="agent seat"):
        run_tournament("le_dix", ["random", "random"], 2, {"num_players": 3}, workers=1)
    with pytest.raises(ValueError, match="unknown agent"):
        run_tournament("le_dix", ["random", "nobody", "random"], 3, {}, workers=1)


def test_command_line_prints_the_table_and_writes_outputs(tmp_path, capsys):
    out = tmp_path / "r.csv"
    code = evaluate.main(["--game", "le_dix", "--agents", "random", "random", "random", "--games", "3",
                          "--option", "deals=(2,)", "--option", "scoring=oh_hell", "--workers", "1",
                          "--no-progress", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "win share [95% CI]" in text and "made-bid rate" in text and "random#3" in text
    assert out.exists() and out.with_suffix(".json").exists()
    assert json.loads(out.with_suffix(".json").read_text())["options"]["scoring"] == "oh_hell"


def test_command_line_reports_bad_agents_without_a_traceback(capsys):
    assert evaluate.main(["--game", "le_dix", "--agents", "random", "wizard", "random", "--games", "3", "--no-progress"]) == 2
    assert "unknown agent 'wizard'" in capsys.readouterr().err


@pytest.mark.skipif(importlib.util.find_spec("dixenv.dix_v0") is None, reason="dix not written yet")
def test_solo_dix_reports_the_agent_against_the_envs_alix():
    res = run_tournament("dix", ["random"], 4, {"solo": True, "difficulty": 6}, workers=1, seed=2)
    assert res.solo and res.num_games == 4
    env_seats = res.env_seat_summary()
    assert list(env_seats) == [1]
    agent = res.summary()["random"]
    assert agent["win_share"] + env_seats[1]["win_share"] == pytest.approx(1.0)
    assert "ALIX" in res.table()
    assert all("env_score1" in row for row in res.rows())


def test_rating_fits_openskill_or_says_it_is_missing():
    if importlib.util.find_spec("openskill") is None:
        with pytest.raises(ImportError, match="openskill"):
            run_rating("le_dix", ["random"] * 4, 2, {"deals": (2,)}, workers=1, players=3)
        pytest.skip("openskill not installed")
    rating = run_rating("le_dix", ["random"] * 4, 10, {"deals": (2,)}, workers=1, seed=1, players=3)
    assert set(rating.ratings) == {"random", "random#2", "random#3", "random#4"}
    assert sum(r["games"] for r in rating.ratings.values()) == 30
    for r in rating.ratings.values():
        assert r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"])
    assert "ordinal" in rating.table()
    with pytest.raises(ValueError, match="at least 3 agents"):
        run_rating("le_dix", ["random", "random"], 2, {}, workers=1, players=3)


class _FakeEnv:
    """Just enough of an env for a stats hook: unwrapped.scores() and unwrapped.state."""

    def __init__(self, scores):
        self.unwrapped = self
        self._scores = scores
        self.state = type("S", (), {})()

    def scores(self):
        return list(self._scores)


def test_dix_de_suite_hook_counts_turns_of_completed_rounds_and_round_winners():
    env = _FakeEnv([0, 0])
    hook = DixDeSuiteStats()
    hook.start(env)
    for seat, text in [(0, "draw"), (0, "swap 3"), (1, "take discard"), (1, "swap 1")]:
        hook.after_step(env, seat, text)
    env._scores = [15, 75]  # seat 1 went out
    hook.after_step(env, 1, "swap 1")
    hook.after_step(env, 0, "draw")  # a new round, not completed
    figs = hook.seat_figures(env)
    assert figs == [{"rounds": 1, "round_turns": 2, "rounds_won": 0}, {"rounds": 1, "round_turns": 2, "rounds_won": 1}]
    summ = hook.summarize(figs[1:])
    assert summ == {"turns_per_round": 2.0, "rounds_per_game": 1.0, "round_win_share": 1.0}


def test_le_dix_hook_counts_a_score_increase_as_a_made_bid():
    env = _FakeEnv([0, 0, 0])
    hook = LeDixStats()
    hook.start(env)
    env._scores = [10, 0, 12]
    hook.after_step(env, 0, "play TH")
    hook.after_step(env, 1, "bid 0")  # no change, no count
    env.state.deal_index = 1
    assert [f["bids_made"] for f in hook.seat_figures(env)] == [1, 0, 1]
    assert hook.summarize(hook.seat_figures(env)) == {"made_bid_rate": pytest.approx(2 / 3)}


def test_with_teams_every_member_of_the_winning_team_gets_the_win():
    res = run_tournament(
        "dix_de_suite", ["heuristic", "random", "heuristic", "random"], 4,
        {"num_players": 4, "teams": True, "target_score": 150}, workers=1, seed=3,
    )
    for rec in res.records:
        assert not rec["truncated"]
        assert sorted(rec["wins"]) in ([0.0, 0.0, 1.0, 1.0], [0.5, 0.5, 0.5, 0.5])
        assert rec["wins"][0] == rec["wins"][2] and rec["wins"][1] == rec["wins"][3]
