"""The weight average of policies (experiments/studies/policy_soup.py)."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv import le_dix_v0
from dixenv.agents.policy import Policy, PolicyAgent, policy_metadata
from experiments.studies.policy_soup import main, soup


def _policy(env, seed, features=None, hidden=8):
    rng = np.random.default_rng(seed)
    meta = policy_metadata("dixenv/LeDix-v0", {"num_players": 3}, env, features=features)
    inputs = meta["obs_size"] + meta.get("features_size", 0)
    shapes = [(hidden, inputs), (meta["num_actions"], hidden)]
    return Policy([(rng.normal(size=s).astype(np.float32), rng.normal(size=s[0]).astype(np.float32)) for s in shapes],
                  "tanh", meta)


def test_the_soup_is_the_weighted_average_and_plays(tmp_path):
    env = le_dix_v0.env(num_players=3)
    a, b = _policy(env, 1), _policy(env, 2)
    mixed = soup([a, b], [1.0, 3.0])
    for (wa, ba), (wb, bb), (w, bias) in zip(a.weights, b.weights, mixed.weights):
        np.testing.assert_allclose(w, 0.25 * wa + 0.75 * wb, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(bias, 0.25 * ba + 0.75 * bb, rtol=1e-6, atol=1e-6)
    a.save(tmp_path / "a")
    b.save(tmp_path / "b")
    main(["--policies", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "ab")])
    saved = Policy.load(tmp_path / "ab")
    assert saved.metadata["training"]["soup_of"] == [str(tmp_path / "a"), str(tmp_path / "b")]
    np.testing.assert_allclose(saved.weights[0][0], 0.5 * a.weights[0][0] + 0.5 * b.weights[0][0], rtol=1e-6, atol=1e-6)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][PolicyAgent(env, path=tmp_path / "ab").act(obs)] == 1


def test_policies_of_other_networks_or_tables_are_refused():
    env = le_dix_v0.env(num_players=3)
    a = _policy(env, 1)
    with pytest.raises(ValueError, match="cannot average: layers"):
        soup([a, _policy(env, 2, hidden=9)], [1, 1])
    with pytest.raises(ValueError, match="cannot average: layout"):
        soup([a, _policy(le_dix_v0.env(num_players=4), 2)], [1, 1])
    with pytest.raises(ValueError, match="cannot average: features"):
        soup([a, _policy(env, 2, features="cards")], [1, 1])
    with pytest.raises(ValueError, match="weights must be positive"):
        soup([a, _policy(env, 2)], [1, 0])
    with pytest.raises(ValueError, match="two or more policies"):
        soup([a], [1])
