"""The leaderboard: every agent of a game rated together, seats rotated on replayed deals, one command."""

from __future__ import annotations

import json

import pytest

from dixenv.experiments import leaderboard
from dixenv.experiments.rating import run_rating

pytest.importorskip("openskill")


def test_rotated_rating_plays_every_rotation_of_a_table_on_one_deal():
    rating = run_rating("le_dix", ["random", "heuristic", "random"], 2, {"deals": (2, 1)}, workers=1, seed=3, players=3, rotate=True)
    assert len(rating.records) == 6
    for base in (0, 1):
        games = [r for r in rating.records if r["base"] == base]
        assert sorted(r["rotation"] for r in games) == [0, 1, 2]
        assert len({r["deal_seed"] for r in games}) == 1 and len({r["start"] for r in games}) == 1
        assert len({tuple(r["specs"]) for r in games}) == 3  # every seat rotation


def test_the_default_pool_holds_every_agent_that_can_sit_at_the_table():
    pool = leaderboard.default_pool("dix", {"num_players": 2})
    assert {"random", "heuristic", "heuristic-v1", "alix", *leaderboard.SEARCH_SPECS} <= set(pool)
    assert "policy" not in pool


def test_the_command_writes_json_with_its_command_and_date_and_the_page_block(tmp_path, monkeypatch):
    out = tmp_path / "le_dix.json"
    page = tmp_path / "leaderboard.md"
    monkeypatch.setattr(leaderboard, "PAGE", page)
    args = ["--game", "le_dix", "--tables", "1", "--players", "3", "--pool", "random", "heuristic", "random",
            "--workers", "1", "--no-progress", "--out", str(out), "--write-docs"]
    assert leaderboard.main(args) == 0
    data = json.loads(out.read_text())
    assert data["games"] == 3 and data["command"].endswith(" ".join(args)) and data["date"]
    assert set(data["ratings"]) == {"random", "heuristic", "random#2"}
    leaderboard.main(args)  # a second run replaces the game's block
    text = page.read_text()
    assert text.count("<!-- leaderboard: le_dix -->") == 1 and "| rank | agent |" in text
