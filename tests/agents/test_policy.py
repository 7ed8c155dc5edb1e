"""Saved policies as agents: the numpy forward pass equals SB3's, files round-trip, mismatches fail clearly."""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest

import dixenv  # noqa: F401  (registers the ids)
from dixenv import dix_v0, le_dix_v0
from dixenv.agents.policy import Policy, PolicyAgent, export_sb3, load_sb3_zip_unsafe, policy_metadata
from dixenv.agents.registry import make_agent, parse_agent_spec

torch = pytest.importorskip("torch")
sb3_contrib = pytest.importorskip("sb3_contrib")

ENV_ID = "dixenv/DixSolo-v0"
OPTIONS = {"difficulty": 5}


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A tiny MaskablePPO on solo dix (a few hundred steps), exported, with a few real observations."""
    env = gymnasium.make(ENV_ID, **OPTIONS)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu",
                                    policy_kwargs={"net_arch": [32, 16]})
    model.learn(256)
    obs, masks = [], []
    o, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs.append(o)
        masks.append(env.unwrapped.action_masks())
        legal = np.flatnonzero(masks[-1])
        o, _, term, trunc, info = env.step(int(rng.choice(legal)))
        if term or trunc:
            o, info = env.reset()
    path = tmp_path_factory.mktemp("policy") / "solo"
    export_sb3(model, path, policy_metadata(ENV_ID, OPTIONS, env, timesteps=256))
    return model, path, np.array(obs), np.array(masks)


def test_numpy_logits_equal_the_torch_policys(trained):
    model, path, obs, _ = trained
    policy = Policy.load(path)
    with torch.no_grad():
        latent = model.policy.mlp_extractor.forward_actor(torch.as_tensor(obs))
        expected = model.policy.action_net(latent).numpy()
    assert np.allclose(policy.logits(obs), expected, atol=1e-5)


def test_deterministic_actions_equal_sb3_predict_with_masks(trained):
    model, path, obs, masks = trained
    agent = PolicyAgent(gymnasium.make(ENV_ID, **OPTIONS), path=path)
    for o, m in zip(obs, masks):
        expected, _ = model.predict(o, action_masks=m, deterministic=True)
        assert agent.act({"observation": o, "action_mask": m.astype(np.int8)}) == int(expected)
    assert np.array_equal(agent.act_batch(obs, masks), [agent.act({"observation": o, "action_mask": m}) for o, m in zip(obs, masks)])


def test_sampled_actions_are_legal_and_follow_the_policys_probabilities(trained):
    _, path, obs, masks = trained
    policy = Policy.load(path)
    row = int(np.argmax(masks.sum(axis=1)))  # the observation with the most legal actions
    logits = policy.masked_logits(obs[row : row + 1], masks[row : row + 1])[0]
    p = np.exp(logits - logits.max())
    p /= p.sum()
    agent = PolicyAgent(None, seed=1, path=path, deterministic=False)
    draws = agent.act_batch(np.repeat(obs[row : row + 1], 20_000, axis=0), np.repeat(masks[row : row + 1], 20_000, axis=0))
    assert masks[row][draws].all()
    freq = np.bincount(draws, minlength=len(p)) / len(draws)
    assert np.abs(freq - p).max() < 0.02
    again = PolicyAgent(None, seed=1, path=path, deterministic=False)
    assert np.array_equal(again.act_batch(obs, masks), PolicyAgent(None, seed=1, path=path, deterministic=False).act_batch(obs, masks))


def test_files_round_trip_and_metadata_says_where_it_was_trained(trained):
    _, path, obs, _ = trained
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["game"] == "dix" and meta["env_id"] == ENV_ID and meta["options"] == OPTIONS
    assert meta["obs_size"] == obs.shape[1] and meta["layers"] == [32, 16, 178]
    again = Policy.load(path.with_suffix(".npz"))
    again.save(path.parent / "copy")
    assert np.array_equal(Policy.load(path.parent / "copy").logits(obs), again.logits(obs))


def test_the_registry_builds_a_policy_agent_from_a_path(trained):
    _, path, obs, masks = trained
    env = dix_v0.raw_env(solo=True, difficulty=5)
    agent = make_agent("dix", f"policy:{path}", env)
    assert isinstance(agent, PolicyAgent) and agent.deterministic
    sampled = make_agent("dix", f"policy:{path}.npz,deterministic=False", env, seed=3)
    assert not sampled.deterministic
    assert parse_agent_spec(f"policy:path={path},deterministic=True") == ("policy", {"path": str(path), "deterministic": True})


def test_a_policy_refuses_an_environment_it_was_not_trained_for(trained):
    _, path, _, _ = trained
    with pytest.raises(ValueError, match=r"observation layout .* differs"):
        make_agent("dix", f"policy:{path}", dix_v0.raw_env(num_players=3))
    with pytest.raises(ValueError, match="plays 'dix'.*not 'le_dix'"):
        make_agent("le_dix", f"policy:{path}", le_dix_v0.raw_env())
    with pytest.raises(ValueError, match="no saved policy"):
        make_agent("dix", f"policy:{path}_missing", dix_v0.raw_env(solo=True))
    with pytest.raises(ValueError, match="deterministic"):
        PolicyAgent(None, path=path, deterministic="yes")


def test_an_sb3_zip_is_refused_by_name_and_loads_only_through_the_explicit_unsafe_call(trained, tmp_path):
    model, path, obs, masks = trained
    model.save(tmp_path / "model.zip")
    (tmp_path / "model.json").write_text(path.with_suffix(".json").read_text())
    with pytest.raises(ValueError, match=r"not loaded by name.*pickle.*export_sb3"):
        make_agent("dix", f"policy:{tmp_path / 'model.zip'}", dix_v0.raw_env(solo=True, difficulty=5))
    policy = load_sb3_zip_unsafe(tmp_path / "model.zip")  # the opt-in: this file is our own
    agent = PolicyAgent(dix_v0.raw_env(solo=True, difficulty=5), policy=policy)
    assert np.array_equal(agent.act_batch(obs, masks), PolicyAgent(None, path=path).act_batch(obs, masks))
    policy.save(tmp_path / "converted")  # converted once, it plays by name: arrays and JSON only
    converted = make_agent("dix", f"policy:{tmp_path / 'converted'}", dix_v0.raw_env(solo=True, difficulty=5))
    assert np.array_equal(converted.act_batch(obs, masks), agent.act_batch(obs, masks))


def test_an_exported_model_plays_in_a_two_worker_tournament_without_hanging(trained, tmp_path):
    """An SB3 model converted once (explicitly) plays by name in worker processes (spawned: with fork,
    workers that had inherited the parent's torch threads hung at 0% CPU)."""
    import subprocess
    import sys

    model, path, _, _ = trained
    model.save(tmp_path / "model.zip")
    (tmp_path / "model.json").write_text(path.with_suffix(".json").read_text())
    load_sb3_zip_unsafe(tmp_path / "model.zip").save(tmp_path / "model")
    cmd = [sys.executable, "-m", "dixenv.experiments.evaluate", "--game", "dix", "--agents", f"policy:{tmp_path / 'model'}",
           "--option", "solo=True", "--option", "difficulty=5", "--games", "4", "--workers", "2", "--no-progress"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "policy:" in done.stdout and "(env seat 1: ALIX)" in done.stdout
