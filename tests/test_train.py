"""Training works out of the box: a tiny MaskablePPO run on the default game, then evaluation."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sb3_contrib", reason="training needs the train extra")

from dixenv.experiments import train  # noqa: E402


def test_train_then_evaluate_writes_a_model_and_results(tmp_path):
    out = tmp_path / "model"
    summary = train.main(["--timesteps", "256", "--eval-episodes", "3", "--no-progress", "--out", str(out),
                          "--option", "difficulty=5"])
    assert (tmp_path / "model.zip").exists()
    saved = json.loads((tmp_path / "model.json").read_text())
    assert saved["options"] == {"difficulty": 5, "reward": "win"}
    policies = [r["policy"] for r in summary["results"]]
    assert policies == ["maskable_ppo", "random"]
    for r in summary["results"]:
        assert r["episodes"] == 3 and 0 <= r["ci_low"] <= r["win_rate"] <= r["ci_high"] <= 1


def test_train_works_on_another_game_with_named_opponents(tmp_path):
    summary = train.main(["--env", "dixenv/LeDix-v0", "--option", "num_players=3", "--option", "opponents=random",
                          "--option", "deals=(2,)", "--timesteps", "128", "--eval-episodes", "4", "--no-progress",
                          "--out", str(tmp_path / "m")])
    assert summary["results"][0]["episodes"] == 4


def test_wilson_interval_contains_the_estimate():
    low, high = train.wilson(30, 100)
    assert 0.2 < low < 0.3 < high < 0.4


def test_bad_option_syntax_is_rejected():
    with pytest.raises(ValueError, match="key=value"):
        train.parse_options(["difficulty"])
