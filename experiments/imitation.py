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

``collect(..., targets="visits")`` records, beside each move, a search agent's move distribution:
the share of its root visits per move (``ismcts``). ``pretrain`` then fits the policy to that
distribution (cross-entropy to a soft target) rather than to the one move, as expert iteration
(Anthony, Tian & Barber, 2017) and AlphaZero train their policies on the search's visit counts. A
search whose worlds are redrawn each move gives near-identical positions different moves; its visit
shares say how close the alternatives were. Measured in le_dix (docs/results/training.md), the
same 48,807 decisions of a 20 ms ``ismcts`` cloned as shares and as moves gave clones level in wins
(+0.006 [-0.014, +0.026] paired) and a point a game apart; more decisions mattered more.

This is the supervised first stage of AlphaGo-style pipelines; it is written here because SB3 has
no behaviour-cloning API (the `imitation` library targets SB3 but not masked action spaces).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dixenv.experiments.workers import worker_pool


@dataclass
class Demonstrations:
    """Learner decisions of a baseline agent: observations, masks, actions, and each episode's return."""

    observations: np.ndarray  # (k, obs_size) float32
    masks: np.ndarray  # (k, num_actions) bool
    actions: np.ndarray  # (k,) int64
    rewards: np.ndarray  # (k,) float32: the learner's reward after each decision (opponents' moves included)
    dones: np.ndarray  # (k,) bool: the decision that ended its episode
    episodes: int
    #: (k, num_actions) float32, or None: the teacher's move distribution per decision (``targets="visits"``;
    #: 0 on illegal moves, rows sum to 1); None trains on ``actions`` alone
    targets: np.ndarray | None = None
    #: who made them (``experiments.train`` writes the agent, the env id and options, the features and
    #: any hint, and whether the moves were the agent's or a clone's: DAgger); "" where not recorded
    source: str = ""

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

    def save(self, path: str | Path) -> Path:
        """Write the demonstrations to ``path`` (``.npz``, compressed; arrays only, no pickled objects)."""
        arrays = {name: getattr(self, name) for name in _ARRAYS}
        arrays["episodes"] = np.array(self.episodes, dtype=np.int64)
        if self.targets is not None:
            arrays["targets"] = self.targets
        if self.source:
            arrays["source"] = np.array(self.source)  # a unicode array: read back without pickle
        path = Path(path)
        np.savez_compressed(path, **arrays)
        return path if path.suffix == ".npz" else path.with_name(path.name + ".npz")

    @staticmethod
    def load(path: str | Path) -> "Demonstrations":
        """Read what ``save`` wrote; a file with missing, extra or malformed arrays is refused, naming them.
        Nothing in the file is executed (``allow_pickle=False``)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: not a demonstrations file written by Demonstrations.save ({exc})") from exc
        expected = set(_ARRAYS) | {"episodes"}
        missing, extra = expected - set(arrays), set(arrays) - expected - {"targets", "source"}
        if missing or extra:
            raise ValueError(f"{path}: demonstrations need the arrays {sorted(expected)} (and optionally targets, source); "
                             f"missing {sorted(missing)}, unexpected {sorted(extra)}")
        k = len(arrays["actions"])
        shapes = {"observations": 2, "masks": 2, "actions": 1, "rewards": 1, "dones": 1, "targets": 2}
        for name, ndim in shapes.items():
            if name in arrays and (arrays[name].ndim != ndim or len(arrays[name]) != k):
                raise ValueError(f"{path}: {name} has shape {arrays[name].shape}; expected {ndim} dimensions and {k} rows (one per action)")
        kinds = {"observations": "f", "masks": "b", "actions": "i", "rewards": "f", "dones": "b", "targets": "f", "episodes": "i"}
        for name, kind in kinds.items():
            if name in arrays and arrays[name].dtype.kind != kind:
                raise ValueError(f"{path}: {name} has dtype {arrays[name].dtype}; expected kind {kind!r}")
        if "source" in arrays and (arrays["source"].ndim != 0 or arrays["source"].dtype.kind != "U"):
            raise ValueError(f"{path}: source must be one string, got an array of dtype {arrays['source'].dtype} "
                             f"and shape {arrays['source'].shape}")
        if arrays["episodes"].ndim != 0 or arrays["episodes"] < 0:
            raise ValueError(f"{path}: episodes must be one count of 0 or more, got {arrays['episodes'].tolist()!r}")
        if "targets" in arrays and arrays["targets"].shape != arrays["masks"].shape:
            raise ValueError(f"{path}: targets have shape {arrays['targets'].shape}, the masks {arrays['masks'].shape}")
        actions, masks = arrays["actions"], arrays["masks"]
        if k and (actions.min() < 0 or actions.max() >= masks.shape[1] or not masks[np.arange(k), actions].all()):
            raise ValueError(f"{path}: some actions are not legal under their masks")
        targets = arrays.get("targets")
        if targets is not None and (np.any(targets[~masks] != 0) or not np.allclose(targets.sum(axis=1), 1.0, atol=1e-4)):
            raise ValueError(f"{path}: targets must be distributions over the legal moves (0 where the mask is, rows summing to 1)")
        return Demonstrations(arrays["observations"].astype(np.float32, copy=False), arrays["masks"],
                              arrays["actions"].astype(np.int64, copy=False), arrays["rewards"].astype(np.float32, copy=False),
                              arrays["dones"], int(arrays["episodes"]),
                              None if targets is None else targets.astype(np.float32, copy=False),
                              str(arrays["source"]) if "source" in arrays else "")

    @staticmethod
    def concatenate(parts: list["Demonstrations"]) -> "Demonstrations":
        """One set of demonstrations, in order; the distinct sources joined by "; "."""
        if len({p.targets is None for p in parts}) > 1:
            raise ValueError("cannot concatenate demonstrations with and without move distributions (targets)")
        return Demonstrations(
            np.concatenate([p.observations for p in parts]),
            np.concatenate([p.masks for p in parts]),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.rewards for p in parts]),
            np.concatenate([p.dones for p in parts]),
            sum(p.episodes for p in parts),
            None if parts[0].targets is None else np.concatenate([p.targets for p in parts]),
            "; ".join(dict.fromkeys(p.source for p in parts if p.source)),
        )


#: The per-decision arrays of ``Demonstrations``, in the order of its fields.
_ARRAYS = ("observations", "masks", "actions", "rewards", "dones")

#: What ``collect`` records as the teacher's choice: its move, or its search's visit shares too.
TARGETS = ("move", "visits")


def _visit_shares(player: Any, label: int, mask: np.ndarray) -> np.ndarray:
    """The share of ``player``'s last root visits per action; all on ``label`` where it did not search
    (one legal move, or a decision its options leave unsearched)."""
    shares = np.zeros(len(mask), dtype=np.float32)
    visits = (player.last_search or {}).get("visits")
    total = sum(visits.values()) if visits else 0
    if total == 0:
        shares[label] = 1.0
        return shares
    for action, count in visits.items():
        shares[action] = count / total
    return shares


def check_targets(targets: str, agent: str) -> None:
    """Refuse an unknown ``targets``, and ``"visits"`` for an agent that is not a tree search."""
    if targets not in TARGETS:
        raise ValueError(f"targets must be one of {TARGETS}, got {targets!r}")
    if targets == "visits":
        from dixenv.agents.registry import parse_agent_spec

        name = parse_agent_spec(agent)[0]
        if name != "ismcts":
            # pimc plays every move on every world: its visits are equal and say nothing
            raise ValueError(f"targets='visits' needs a tree search whose visits follow its values (ismcts), got {agent!r}")


def _collect_chunk(env_id: str, options: dict[str, Any], agent: str, games: int, seed: int,
                   learner: str | None = None, expert_share: float = 1.0, hint: str | None = None,
                   features: str | None = None, targets: str = "move") -> Demonstrations:
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
    obs_l, mask_l, act_l, rew_l, done_l, target_l = [], [], [], [], [], []
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            mask = info["action_mask"]
            view = {"observation": obs, "action_mask": mask}
            if targets == "visits":
                player.last_search = None  # act() leaves it as it was when there is one legal move
            label = int(player.act(view))
            if targets == "visits":
                target_l.append(_visit_shares(player, label, mask))
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
                          np.array(rew_l, dtype=np.float32), np.array(done_l, dtype=bool), games,
                          np.array(target_l, dtype=np.float32).reshape(len(act_l), -1) if targets == "visits" else None)


def collect(env_id: str, options: dict[str, Any], agent: str, games: int, seed: int = 0, workers: int = 1,
            learner: str | None = None, expert_share: float = 1.0, hint: str | None = None,
            features: str | None = None, targets: str = "move") -> Demonstrations:
    """Play ``games`` episodes of ``env_id`` with ``agent`` (a registry name) in the learner's seat.

    With ``learner`` (a saved policy's path) the learner plays instead, ``agent`` with probability
    ``expert_share`` per move, and ``agent`` labels every decision (DAgger). With ``hint`` (an
    advisor, ``dixenv.agents.hints``) the recorded observations carry the advisor's move; with
    ``features`` (``dixenv.agents.features``), that feature set, between the observation and any hint.
    With ``targets="visits"`` (``agent`` an ``ismcts``), each decision also records the search's
    share of root visits per move (``Demonstrations.targets``).
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if not 0.0 <= expert_share <= 1.0:
        raise ValueError(f"expert_share must be in [0, 1], got {expert_share!r}")
    check_targets(targets, agent)
    workers = max(1, min(workers, games))
    per = [games // workers + (i < games % workers) for i in range(workers)]
    seeds = [seed + sum(per[:i]) for i in range(workers)]
    if workers == 1:
        return _collect_chunk(env_id, options, agent, games, seed, learner, expert_share, hint, features, targets)
    with worker_pool(workers) as pool:
        parts = pool.starmap(_collect_chunk, [(env_id, options, agent, n, s, learner, expert_share, hint, features, targets)
                                              for n, s in zip(per, seeds)])
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

    With ``demos.targets`` (a teacher's move distribution per decision) the policy's loss is the
    cross-entropy to that distribution instead of to the one move (smoothing mixes in the uniform
    spread likewise); accuracy still counts agreement with the teacher's move.
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
    soft = None if demos.targets is None else torch.as_tensor(demos.targets)
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
            if soft is None:
                chosen = logp.gather(1, actions[idx][:, None]).squeeze(1)
            else:  # targets are 0 on illegal moves, whose log-probabilities are finite
                chosen = (soft[idx] * logp).sum(1)
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
