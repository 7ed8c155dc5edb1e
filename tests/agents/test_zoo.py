"""The ppo agent: the shipped policy trained for the environment's table, and the shipped files themselves."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import dixenv  # noqa: F401  (registers the ids)
from dixenv import dix_v0
from dixenv.agents import zoo
from dixenv.agents.policy import Policy, policy_metadata
from dixenv.agents.registry import make_agent
from dixenv.experiments.tournament import run_tournament

#: The tables a policy is shipped for: (game, Gymnasium id, its options).
SHIPPED_TABLES = {
    ("dix", "dixenv/DixSolo-v0"),
    ("dix", "dixenv/Dix-v0"),
    ("le_dix", "dixenv/LeDix-v0"),
    ("dix_de_suite", "dixenv/DixDeSuite-v0"),
}


def _tiny_policy(env_id: str, options: dict, path, seed: int) -> None:
    """A random two-layer policy for ``env_id`` saved at ``path`` (what train.py writes, minus the training)."""
    env = gymnasium.make(env_id, **options)
    rng = np.random.default_rng(seed)
    size, actions = env.observation_space.shape[0], env.action_space.n
    weights = [(rng.normal(size=(8, size)), np.zeros(8)), (rng.normal(size=(actions, 8)), np.zeros(actions))]
    Policy(weights, "tanh", policy_metadata(env_id, options, env)).save(path)


@pytest.fixture
def fake_zoo(tmp_path, monkeypatch):
    """A weights folder with a solo-dix policy and a 2-player dix policy."""
    _tiny_policy("dixenv/DixSolo-v0", {"difficulty": 6}, tmp_path / "dix_solo", 1)
    _tiny_policy("dixenv/Dix-v0", {"num_players": 2, "opponents": "random"}, tmp_path / "dix_2p", 2)
    monkeypatch.setattr(zoo, "WEIGHTS_DIR", tmp_path)
    return tmp_path


def test_ppo_picks_the_policy_trained_for_the_envs_table(fake_zoo):
    solo = make_agent("dix", "ppo", dix_v0.env(solo=True, difficulty=6))
    table = make_agent("dix", "ppo", dix_v0.env(num_players=2))
    assert "DixSolo-v0" in solo.trained_on and "Dix-v0" in table.trained_on


def test_ppo_for_a_table_without_a_shipped_policy_names_the_tables_there_are(fake_zoo):
    with pytest.raises(ValueError, match=r"no shipped ppo policy for dix at this table \(3 player\(s\)\); ppo ships policies for: .*Dix-v0.*; .*-v0"):
        make_agent("dix", "ppo", dix_v0.env(num_players=3))


def test_ppo_needs_an_env():
    with pytest.raises(ValueError, match="give it the env"):
        zoo.PPOAgent(None)


def test_a_policy_is_shipped_for_each_trained_table():
    found = {(m["game"], m["env_id"]) for m in zoo.shipped()}
    assert found == SHIPPED_TABLES


@pytest.mark.parametrize("metadata", zoo.shipped(), ids=lambda m: f"{m['env_id']}-{m['options']}")
def test_each_shipped_policy_plays_its_table_in_a_two_worker_tournament(metadata):
    options = dict(metadata["options"])
    options.pop("opponents", None)
    if metadata["env_id"] == "dixenv/DixSolo-v0":
        options["solo"] = True
    seats = 1 if options.get("solo") else options["num_players"]
    specs = ["ppo"] + ["heuristic"] * (seats - 1)
    results = run_tournament(metadata["game"], specs, 4, options, workers=2, seed=5)
    summary = results.summary()
    assert results.num_games == 4 and summary["ppo"]["games"] == 4
    assert summary["ppo"]["ms_per_move"] > 0
    if seats > 1:  # every game is won by someone: the win shares of the table add up to the games
        assert sum(s["wins"] for s in summary.values()) == pytest.approx(4.0)
