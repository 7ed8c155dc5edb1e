"""Warm starts: demonstrations of a baseline, and DAgger rounds where the clone plays and the baseline labels."""

from __future__ import annotations

import dataclasses

import gymnasium
import numpy as np
import pytest

import dixenv  # noqa: F401  (registers the ids)
from dixenv.agents.policy import Policy, policy_metadata
from dixenv.agents.registry import make_agent
from dixenv.experiments.imitation import Demonstrations, collect

ENV_ID, OPTIONS = "dixenv/LeDix-v0", {"num_players": 3, "opponents": "random"}


def _first_legal_policy(path) -> None:
    """A policy that always plays the lowest legal action (zero weights, decreasing action bias)."""
    env = gymnasium.make(ENV_ID, **OPTIONS)
    size, actions = env.observation_space.shape[0], env.action_space.n
    weights = [(np.zeros((4, size)), np.zeros(4)), (np.zeros((actions, 4)), -np.arange(actions, dtype=float))]
    Policy(weights, "tanh", policy_metadata(ENV_ID, OPTIONS, env)).save(path)


def _heuristic_labels(demos) -> list[int]:
    env = gymnasium.make(ENV_ID, **OPTIONS)
    heuristic = make_agent("le_dix", "heuristic", env.unwrapped.aec, seed=0)
    return [int(heuristic.act({"observation": o, "action_mask": m.astype(np.int8)})) for o, m in zip(demos.observations, demos.masks)]


def test_demonstrations_record_the_baselines_moves_and_one_episode_end_per_game():
    demos = collect(ENV_ID, OPTIONS, "heuristic", games=2, seed=3)
    assert demos.episodes == 2 and int(demos.dones.sum()) == 2 and demos.dones[-1]
    assert np.all(demos.masks[np.arange(len(demos)), demos.actions])
    assert demos.actions.tolist() == _heuristic_labels(demos)


def test_dagger_rounds_are_played_by_the_clone_and_labelled_by_the_baseline(tmp_path):
    _first_legal_policy(tmp_path / "clone")
    demos = collect(ENV_ID, OPTIONS, "heuristic", games=2, seed=3, learner=str(tmp_path / "clone"), expert_share=0.0)
    assert demos.actions.tolist() == _heuristic_labels(demos)  # every label is the heuristic's choice
    # The positions are the clone's: each next observation follows from the lowest legal action.
    env = gymnasium.make(ENV_ID, **OPTIONS)
    obs, info = env.reset(seed=3)
    for i in range(5):
        assert np.array_equal(obs, demos.observations[i])
        obs, *_, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    # And they differ from the heuristic's own game on the same deal.
    expert = collect(ENV_ID, OPTIONS, "heuristic", games=1, seed=3)
    n = min(len(expert), len(demos))
    assert not np.array_equal(expert.observations[:n], demos.observations[:n])


def test_expert_share_outside_0_1_is_refused(tmp_path):
    with pytest.raises(ValueError, match="expert_share must be in"):
        collect(ENV_ID, OPTIONS, "heuristic", games=1, learner=str(tmp_path / "x"), expert_share=1.5)


def test_label_smoothing_keeps_probability_on_the_other_legal_moves():
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from dixenv.agents.hints import Hinter, hinted_vec_env
    from dixenv.experiments.imitation import pretrain
    from dixenv.vector import SB3VecEnv, VectorEnv

    demos = collect("dixenv/DixDeSuite-v0", {"num_players": 2}, "heuristic", games=2, seed=1, hint="heuristic")
    venv = VectorEnv("dixenv/DixDeSuite-v0", 2, num_players=2)
    vec = hinted_vec_env(SB3VecEnv(venv), Hinter(venv.raw_env))
    probs = {}
    for smoothing in (0.0, 0.3):
        model = sb3_contrib.MaskablePPO("MlpPolicy", vec, seed=0, device="cpu", policy_kwargs={"net_arch": [64]})
        pretrain(model, demos, epochs=150, learning_rate=3e-3, smoothing=smoothing)
        policy = model.policy
        with torch.no_grad():
            latent = policy.mlp_extractor(policy.extract_features(torch.as_tensor(demos.observations), policy.pi_features_extractor))[0]
            logits = policy.action_net(latent).masked_fill(~torch.as_tensor(demos.masks), -1e8)
            p = torch.softmax(logits, -1).gather(1, torch.as_tensor(demos.actions)[:, None]).squeeze(1)
        probs[smoothing] = float(p.mean())
    assert probs[0.0] > 0.95, "without smoothing the clone plays the hinted move almost surely"
    assert 0.6 < probs[0.3] < 0.9, "with smoothing 0.3 it keeps a good part of its probability for the other moves"
    with pytest.raises(ValueError, match="smoothing"):
        pretrain(model, demos, epochs=1, smoothing=1.0)


@pytest.mark.parametrize("smoothing", [0.0, 0.2])
def test_the_cloning_loss_is_the_masked_cross_entropy(smoothing):
    """With a learning rate of 0 the reported loss and accuracy are those of the masked softmax written out."""
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    import torch.nn.functional as F

    from dixenv.experiments.imitation import pretrain
    from dixenv.vector import SB3VecEnv, VectorEnv

    demos = collect(ENV_ID, OPTIONS, "heuristic", games=2, seed=3)
    venv = VectorEnv(ENV_ID, 2, **OPTIONS)
    model = sb3_contrib.MaskablePPO("MlpPolicy", SB3VecEnv(venv), seed=0, device="cpu", policy_kwargs={"net_arch": [32]})
    history = pretrain(model, demos, epochs=1, learning_rate=0.0, smoothing=smoothing, batch_size=64)
    policy = model.policy
    with torch.no_grad():
        latent = policy.mlp_extractor(policy.extract_features(torch.as_tensor(demos.observations), policy.pi_features_extractor))[0]
        logits = policy.action_net(latent).masked_fill(~torch.as_tensor(demos.masks), -1e9)
        logp = F.log_softmax(logits, -1)
        legal = torch.as_tensor(demos.masks, dtype=torch.float32)
        chosen = logp.gather(1, torch.as_tensor(demos.actions)[:, None]).squeeze(1)
        spread = (torch.where(legal > 0, logp, 0.0)).sum(1) / legal.sum(1)
        expected = float(-((1 - smoothing) * chosen + smoothing * spread).mean())
        accuracy = float((logits.argmax(1) == torch.as_tensor(demos.actions)).float().mean())
    assert history[0]["policy_loss"] == pytest.approx(expected, rel=1e-4)
    assert history[0]["accuracy"] == pytest.approx(accuracy)


# --- the search's visit shares as targets (expert iteration) ---------------------------------------------
SEARCH = "ismcts:iterations=40"  # the Python tree: no numba needed


def test_visit_targets_are_the_searchs_share_of_root_visits_in_the_positions_it_played():
    demos = collect(ENV_ID, OPTIONS, SEARCH, games=1, seed=5, targets="visits")
    assert demos.targets.shape == demos.masks.shape and demos.targets.dtype == np.float32
    # Replay the game: the same agent (same seed) in the same positions gives the same visits.
    env = gymnasium.make(ENV_ID, **OPTIONS)
    agent = make_agent("le_dix", SEARCH, env.unwrapped.aec, seed=5)
    obs, info = env.reset(seed=5)
    for i in range(len(demos)):
        assert np.array_equal(obs, demos.observations[i])
        action = int(agent.act({"observation": obs, "action_mask": info["action_mask"]}))
        assert action == demos.actions[i]
        visits = agent.last_search["visits"]
        total = sum(visits.values())
        expected = np.zeros(len(info["action_mask"]), dtype=np.float32)
        for a, n in visits.items():
            expected[a] = n / total
        np.testing.assert_allclose(demos.targets[i], expected, rtol=1e-6)
        assert demos.targets[i][action] == demos.targets[i].max(), "ucb picks the most visited move"
        obs, *_, info = env.step(action)
    assert np.all(demos.targets[~demos.masks] == 0) and np.allclose(demos.targets.sum(1), 1.0)


def test_visit_targets_put_everything_on_the_move_where_the_agent_did_not_search():
    class Unsearched:
        last_search = {"iterations": 0, "searched": False}

    from dixenv.experiments.imitation import _visit_shares

    shares = _visit_shares(Unsearched(), 2, np.array([0, 1, 1, 1], dtype=bool))
    assert shares.tolist() == [0.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize("targets, agent, message", [
    ("best", SEARCH, r"targets must be one of \('move', 'visits'\), got 'best'"),
    ("visits", "heuristic", "needs a tree search"),
    ("visits", "pimc:iterations=40", "needs a tree search"),
])
def test_bad_targets_are_refused(targets, agent, message):
    with pytest.raises(ValueError, match=message):
        collect(ENV_ID, OPTIONS, agent, games=1, targets=targets)


def test_demonstrations_with_and_without_targets_do_not_mix():
    with_targets = collect(ENV_ID, OPTIONS, SEARCH, games=1, seed=1, targets="visits")
    without = collect(ENV_ID, OPTIONS, "heuristic", games=1, seed=1)
    both = Demonstrations.concatenate([with_targets, with_targets])
    assert len(both.targets) == 2 * len(with_targets)
    with pytest.raises(ValueError, match="with and without move distributions"):
        Demonstrations.concatenate([with_targets, without])


@pytest.mark.parametrize("smoothing", [0.0, 0.2])
def test_the_soft_target_loss_is_the_cross_entropy_to_the_visit_shares(smoothing):
    """lr 0: the reported loss is the masked cross-entropy to the targets; one-hot targets give the hard-label loss."""
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    import dataclasses

    import torch.nn.functional as F

    from dixenv.experiments.imitation import pretrain
    from dixenv.vector import SB3VecEnv, VectorEnv

    demos = collect(ENV_ID, OPTIONS, SEARCH, games=1, seed=3, targets="visits")
    model = sb3_contrib.MaskablePPO("MlpPolicy", SB3VecEnv(VectorEnv(ENV_ID, 2, **OPTIONS)), seed=0, device="cpu",
                                    policy_kwargs={"net_arch": [32]})
    policy = model.policy
    with torch.no_grad():
        latent = policy.mlp_extractor(policy.extract_features(torch.as_tensor(demos.observations), policy.pi_features_extractor))[0]
        logp = F.log_softmax(policy.action_net(latent).masked_fill(~torch.as_tensor(demos.masks), -1e9), -1)
    legal = torch.as_tensor(demos.masks, dtype=torch.float32)
    spread = torch.where(legal > 0, logp, 0.0).sum(1) / legal.sum(1)
    soft = (torch.as_tensor(demos.targets) * torch.where(legal > 0, logp, 0.0)).sum(1)
    history = pretrain(model, demos, epochs=1, learning_rate=0.0, smoothing=smoothing, batch_size=16)
    assert history[0]["policy_loss"] == pytest.approx(float(-((1 - smoothing) * soft + smoothing * spread).mean()), rel=1e-4)
    one_hot = dataclasses.replace(demos, targets=np.eye(demos.masks.shape[1], dtype=np.float32)[demos.actions])
    hard = dataclasses.replace(demos, targets=None)
    assert (pretrain(model, one_hot, epochs=1, learning_rate=0.0, smoothing=smoothing)[0]["policy_loss"]
            == pytest.approx(pretrain(model, hard, epochs=1, learning_rate=0.0, smoothing=smoothing)[0]["policy_loss"], rel=1e-5))


def test_cloning_visit_shares_moves_the_policy_towards_the_distribution():
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from dixenv.experiments.imitation import pretrain
    from dixenv.vector import SB3VecEnv, VectorEnv

    demos = collect(ENV_ID, OPTIONS, SEARCH, games=2, seed=4, targets="visits")
    model = sb3_contrib.MaskablePPO("MlpPolicy", SB3VecEnv(VectorEnv(ENV_ID, 2, **OPTIONS)), seed=0, device="cpu",
                                    policy_kwargs={"net_arch": [64]})
    history = pretrain(model, demos, epochs=200, learning_rate=3e-3)
    entropy = -(demos.targets * np.log(np.where(demos.targets > 0, demos.targets, 1.0))).sum(1).mean()
    # The cross-entropy falls towards its floor, the targets' own entropy (where a hard label's floor is 0).
    assert history[-1]["policy_loss"] < history[0]["policy_loss"]
    assert history[-1]["policy_loss"] == pytest.approx(entropy, abs=0.05)
    assert entropy > 0.1, "the search's visits are spread over several moves"


# --- demonstrations in a file ----------------------------------------------------------------------------
@pytest.mark.parametrize("targets", ["move", "visits"])
def test_demonstrations_saved_and_loaded_are_the_same(tmp_path, targets):
    agent = SEARCH if targets == "visits" else "heuristic"
    demos = collect(ENV_ID, OPTIONS, agent, games=1, seed=2, targets=targets)
    path = demos.save(tmp_path / "demos")
    assert path == tmp_path / "demos.npz" and path.exists()
    back = Demonstrations.load(path)
    for name in ("observations", "masks", "actions", "rewards", "dones", "targets"):
        a, b = getattr(demos, name), getattr(back, name)
        assert (a is None and b is None) or (np.array_equal(a, b) and a.dtype == b.dtype), name
    assert back.episodes == demos.episodes and back.source == ""


def test_a_source_is_saved_and_concatenated_sources_are_joined(tmp_path):
    demos = collect(ENV_ID, OPTIONS, "heuristic", games=1, seed=2)
    a = dataclasses.replace(demos, source="heuristic's moves")
    b = dataclasses.replace(demos, source="the clone's moves labelled by heuristic")
    assert Demonstrations.load(a.save(tmp_path / "a")).source == "heuristic's moves"
    joined = Demonstrations.concatenate([a, a, b, demos])
    assert joined.source == "heuristic's moves; the clone's moves labelled by heuristic"
    assert Demonstrations.load(joined.save(tmp_path / "j")).source == joined.source


def _write(path, **arrays):
    np.savez(path, **arrays)
    return path


def _arrays(demos):
    return {"observations": demos.observations, "masks": demos.masks, "actions": demos.actions,
            "rewards": demos.rewards, "dones": demos.dones, "episodes": np.array(demos.episodes)}


@pytest.mark.parametrize("change, message", [
    (lambda a: a.pop("rewards"), r"missing \['rewards'\]"),
    (lambda a: a.update(extra=np.zeros(3)), r"unexpected \['extra'\]"),
    (lambda a: a.update(actions=a["actions"][:-1]), r"observations has shape \(\d+, \d+\); expected 2 dimensions and \d+ rows"),
    (lambda a: a.update(masks=a["masks"].astype(np.float32)), "masks has dtype float32"),
    (lambda a: a.update(actions=np.full_like(a["actions"], 10_000)), "not legal under their masks"),
    (lambda a: a.update(targets=np.ones(a["masks"].shape, np.float32)), "targets must be distributions"),
    (lambda a: a.update(episodes=np.array([1, 2])), r"episodes must be one count of 0 or more, got \[1, 2\]"),
    (lambda a: a.update(episodes=np.array(-1)), "episodes must be one count of 0 or more, got -1"),
    (lambda a: a.update(observations=np.array(["x"] * len(a["actions"]), dtype=object)), "not a demonstrations file"),
    (lambda a: a.update(source=np.array(["a", "b"])), r"source must be one string, got an array of dtype <U1 and shape \(2,\)"),
    (lambda a: a.update(source=np.array(3)), "source must be one string, got an array of dtype int64"),
])
def test_malformed_demonstration_files_are_refused(tmp_path, change, message):
    arrays = _arrays(collect(ENV_ID, OPTIONS, "heuristic", games=1, seed=2))
    change(arrays)
    with pytest.raises(ValueError, match=message):
        Demonstrations.load(_write(tmp_path / "bad.npz", **arrays))
    with pytest.raises(ValueError, match="not a demonstrations file"):
        Demonstrations.load(tmp_path / "missing.npz")


def test_two_workers_collect_what_their_chunks_collect_alone():
    both = collect(ENV_ID, OPTIONS, "heuristic", games=3, seed=2, workers=2)
    alone = Demonstrations.concatenate([collect(ENV_ID, OPTIONS, "heuristic", games=2, seed=2),
                                        collect(ENV_ID, OPTIONS, "heuristic", games=1, seed=4)])
    assert both.episodes == 3 and len(both) == len(alone)
    for name in ("observations", "masks", "actions", "rewards", "dones"):
        assert np.array_equal(getattr(both, name), getattr(alone, name)), name
