"""Warm starts for training: learn a baseline agent's moves (behaviour cloning) before self-improvement.

``collect`` plays games of a single-agent dixenv environment with a baseline agent (e.g. the
game's heuristic) in the learner's seat and records, for every learner decision, the observation,
the mask, the agent's action and the learner's final return. ``pretrain`` fits an SB3 /
sb3-contrib actor-critic's policy head to those actions (masked cross-entropy) and its value head
to the returns (mean squared error), so that PPO starts from the baseline's play with a critic
that already knows what positions are worth, instead of from random play.

``collect(..., learner=PATH)`` is one round of DAgger (Ross, Gordon & Bagnell, 2011): the
learner's own saved policy plays (the baseline only with probability ``expert_share`` per move) and
the baseline labels every position the learner reaches. Cloning only the baseline's own games
leaves the clone lost in the positions its small errors lead to — over a long game they compound
(measured here: a dix_de_suite clone 96% accurate on the heuristic's moves won 4.5% of its games
against it); aggregating labelled learner games teaches it to recover.

This is the supervised first stage of AlphaGo-style pipelines; it is written here because SB3 has
no behaviour-cloning API (the `imitation` library targets SB3 but not masked action spaces).
"""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from dixenv.experiments.workers import one_thread_per_worker


@dataclass
class Demonstrations:
    """Learner decisions of a baseline agent: observations, masks, actions, and each episode's return."""

    observations: np.ndarray  # (k, obs_size) float32
    masks: np.ndarray  # (k, num_actions) bool
    actions: np.ndarray  # (k,) int64
    rewards: np.ndarray  # (k,) float32: the learner's reward after each decision (opponents' moves included)
    dones: np.ndarray  # (k,) bool: the decision that ended its episode
    episodes: int

    def __len__(self) -> int:
        return len(self.actions)

    def returns_to_go(self, gamma: float) -> np.ndarray:
        """Each decision's discounted return to the end of its episode (the critic's target)."""
        out = np.empty(len(self), dtype=np.float32)
        running = 0.0
        for i in range(len(self) - 1, -1, -1):
            running = self.rewards[i] + (0.0 if self.dones[i] else gamma * running)
            out[i] = running
        return out

    @staticmethod
    def concatenate(parts: list["Demonstrations"]) -> "Demonstrations":
        return Demonstrations(
            np.concatenate([p.observations for p in parts]),
            np.concatenate([p.masks for p in parts]),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.rewards for p in parts]),
            np.concatenate([p.dones for p in parts]),
            sum(p.episodes for p in parts),
        )


def _collect_chunk(env_id: str, options: dict[str, Any], agent: str, games: int, seed: int,
                   learner: str | None = None, expert_share: float = 1.0, hint: str | None = None,
                   features: str | None = None) -> Demonstrations:
    import gymnasium

    import dixenv  # noqa: F401  (registers the ids)
    from dixenv.agents.registry import make_agent

    env = gymnasium.make(env_id, **options)
    aec = env.unwrapped.aec
    player = make_agent(aec.game.name, agent, aec, seed=seed)
    acting = None
    if learner is not None:
        from dixenv.agents.policy import PolicyAgent

        acting = PolicyAgent(env, path=learner)
    hinter = None
    if hint is not None:
        from dixenv.agents.hints import Hinter

        hinter = Hinter(env, hint, seed=seed)
    featurizer = None
    if features is not None:
        from dixenv.agents.features import Featurizer

        featurizer = Featurizer(env, features)
    rng = np.random.default_rng(seed)
    obs_l, mask_l, act_l, rew_l, done_l = [], [], [], [], []
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            mask = info["action_mask"]
            view = {"observation": obs, "action_mask": mask}
            label = int(player.act(view))
            action = label if acting is None or rng.random() < expert_share else int(acting.act(view))
            # the inputs: the observation, its features, then any hint
            x = obs if featurizer is None else featurizer.extend_batch(obs[None, :])[0]
            if hinter is None:
                obs_l.append(x)
            elif hint == agent:  # the label is the advisor's move: no second call
                obs_l.append(np.concatenate([x, np.eye(1, hinter.num_actions, label, dtype=np.float32)[0]]))
            else:
                obs_l.append(np.concatenate([x, hinter.hints(obs[None, :], mask[None, :])[0]]))
            mask_l.append(mask.astype(bool))
            act_l.append(label)
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            rew_l.append(float(reward))
            done_l.append(done)
    return Demonstrations(np.array(obs_l, dtype=np.float32), np.array(mask_l, dtype=bool), np.array(act_l, dtype=np.int64),
                          np.array(rew_l, dtype=np.float32), np.array(done_l, dtype=bool), games)


def collect(env_id: str, options: dict[str, Any], agent: str, games: int, seed: int = 0, workers: int = 1,
            learner: str | None = None, expert_share: float = 1.0, hint: str | None = None,
            features: str | None = None) -> Demonstrations:
    """Play ``games`` episodes of ``env_id`` with ``agent`` (a registry name) in the learner's seat.

    With ``learner`` (a saved policy's path) the learner plays instead, ``agent`` with probability
    ``expert_share`` per move, and ``agent`` labels every decision (DAgger). With ``hint`` (an
    advisor, ``dixenv.agents.hints``) the recorded observations carry the advisor's move; with
    ``features`` (``dixenv.agents.features``), that feature set, between the observation and any hint.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if not 0.0 <= expert_share <= 1.0:
        raise ValueError(f"expert_share must be in [0, 1], got {expert_share!r}")
    workers = max(1, min(workers, games))
    per = [games // workers + (i < games % workers) for i in range(workers)]
    seeds = [seed + sum(per[:i]) for i in range(workers)]
    if workers == 1:
        return _collect_chunk(env_id, options, agent, games, seed, learner, expert_share, hint, features)
    import multiprocessing as mp

    with one_thread_per_worker(), ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn")) as ex:
        parts = list(ex.map(_collect_chunk, [env_id] * workers, [options] * workers, [agent] * workers, per, seeds,
                            [learner] * workers, [expert_share] * workers, [hint] * workers, [features] * workers))
    return Demonstrations.concatenate(parts)


def pretrain(model: Any, demos: Demonstrations, epochs: int = 5, batch_size: int = 1024, learning_rate: float = 1e-3,
             value_weight: float = 0.5, seed: int = 0, progress: bool = False, smoothing: float = 0.0) -> list[dict[str, float]]:
    """Fit ``model.policy`` (an SB3 actor-critic) to ``demos`` in place; per-epoch loss and accuracy.

    The critic's targets are the discounted returns to go with the model's own ``gamma``.
    ``smoothing`` (label smoothing over the *legal* actions): the target puts ``1 - smoothing`` on
    the demonstrated move and spreads ``smoothing`` evenly over the legal moves, so the clone keeps
    some probability on the alternatives. Without it a clone that can match its teacher exactly
    (e.g. one given the teacher's move as a hint) becomes deterministic, and PPO, which learns only
    from the moves it samples, never tries another move (measured: entropy 0.007 and not one
    changed move in 250k PPO steps).
    """
    import torch
    import torch.nn.functional as F

    from dixenv.experiments.masking import masked_log_softmax

    if not 0.0 <= smoothing < 1.0:
        raise ValueError(f"smoothing={smoothing!r} must be in [0, 1)")
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    obs = torch.as_tensor(demos.observations)
    legal_f = torch.as_tensor(demos.masks, dtype=torch.float32)  # 1.0 legal, 0.0 not
    actions = torch.as_tensor(demos.actions)
    returns = torch.as_tensor(demos.returns_to_go(model.gamma))
    rng = np.random.default_rng(seed)
    history = []
    steps = math.ceil(len(demos) / batch_size)
    for epoch in range(epochs):
        order = torch.as_tensor(rng.permutation(len(demos)))
        sums = {"policy_loss": 0.0, "value_loss": 0.0, "accuracy": 0.0}
        for i in range(steps):
            idx = order[i * batch_size : (i + 1) * batch_size]
            features = policy.extract_features(obs[idx], policy.pi_features_extractor)
            latent_pi, latent_vf = policy.mlp_extractor(features)
            legal = legal_f[idx]
            # not masked_fill(-1e8) + log_softmax: torch's CPU exp of such logits takes a slow path (masking.py)
            logp, probs = masked_log_softmax(policy.action_net(latent_pi), legal)
            values = policy.value_net(latent_vf).squeeze(-1)
            chosen = logp.gather(1, actions[idx][:, None]).squeeze(1)
            if smoothing:
                spread = (logp * legal).sum(1) / legal.sum(1)
                policy_loss = -((1 - smoothing) * chosen + smoothing * spread).mean()
            else:
                policy_loss = -chosen.mean()
            value_loss = F.mse_loss(values, returns[idx])
            loss = policy_loss + value_weight * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            n = len(idx)
            sums["policy_loss"] += policy_loss.item() * n
            sums["value_loss"] += value_loss.item() * n
            sums["accuracy"] += (probs.argmax(1) == actions[idx]).sum().item()
        row = {k: v / len(demos) for k, v in sums.items()} | {"epoch": epoch + 1}
        history.append(row)
        if progress:
            print(f"pretrain epoch {epoch + 1}/{epochs}: policy loss {row['policy_loss']:.4f}, "
                  f"value loss {row['value_loss']:.4f}, accuracy {row['accuracy']:.3f}")
    policy.set_training_mode(False)
    return history
