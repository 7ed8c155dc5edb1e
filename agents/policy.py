"""Saved policies as agents: a trained network that plays from the observation and mask.

A saved policy is two small files side by side:

* ``NAME.npz`` — the policy network's weights as numpy arrays (``W0, b0, W1, b1, …``, the last
  pair being the action head), and
* ``NAME.json`` — its metadata: the game, the Gymnasium id and options it was trained with, the
  observation layout's fingerprint and size, the number of actions, the hidden activation, and
  how it was trained.

Acting needs numpy only: the forward pass of a multilayer perceptron is a few matrix products,
written here by hand because loading torch into every tournament worker (and into ``dixenv.play``)
would cost seconds and hundreds of megabytes for what is, at these sizes, microseconds of work.
Stable-Baselines3 / sb3-contrib models are exported with ``export_sb3``; their own ``.zip`` files
load too (``policy:model.zip``), through sb3-contrib, when it is installed.

A policy trained with an advisor's hint (``"hint": "heuristic"`` in its metadata,
``dixenv.agents.hints``) has the advisor's move, one-hot, after the observation among its inputs;
``PolicyAgent`` builds the same advisor from its env and adds the hint before every forward pass.

Loading into an environment whose observation layout differs from the one trained on (another
game, player count or dixenv version) fails with a ``ValueError`` that says what differs.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dixenv.agents.base import aec_env

FORMAT = "dixenv-policy/1"
ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def policy_paths(path: str | Path) -> tuple[Path, Path]:
    """(weights ``.npz``, metadata ``.json``) for a policy path given with either suffix or none."""
    path = Path(path)
    stem = path.with_suffix("") if path.suffix in (".npz", ".json") else path
    return stem.with_suffix(".npz"), stem.with_suffix(".json")


@dataclass
class Policy:
    """A multilayer perceptron policy: weights, activation and the metadata it was saved with."""

    weights: list[tuple[np.ndarray, np.ndarray]]  # (W of shape (out, in), b of shape (out,)) per layer
    activation: str
    metadata: dict[str, Any]

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {self.activation!r}; known: {sorted(ACTIVATIONS)}")
        self._act = ACTIVATIONS[self.activation]
        # Transposed once, float32: rows of observations times (in, out) matrices.
        self._layers = [(np.ascontiguousarray(w.T, dtype=np.float32), b.astype(np.float32)) for w, b in self.weights]

    @property
    def obs_size(self) -> int:
        return self._layers[0][0].shape[0]

    @property
    def num_actions(self) -> int:
        return self._layers[-1][0].shape[1]

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Action logits for a batch of observations ``(k, obs_size)`` -> ``(k, num_actions)``."""
        h = np.asarray(observations, dtype=np.float32)
        for w, b in self._layers[:-1]:
            h = self._act(h @ w + b)
        w, b = self._layers[-1]
        return h @ w + b

    def masked_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Logits with illegal actions at -inf (``masks`` is ``(k, num_actions)``, non-zero = legal)."""
        logits = self.logits(observations)
        return np.where(np.asarray(masks, dtype=bool), logits, -np.inf)

    def choose(self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """One legal action per row: the most likely one, or (given ``rng``) one sampled from the policy."""
        logits = self.masked_logits(observations, masks)
        if rng is not None:
            # Gumbel-max: argmax of logits plus Gumbel noise is an exact sample of the softmax,
            # and illegal actions (-inf) can never win.
            logits = logits + rng.gumbel(size=logits.shape)
        return logits.argmax(axis=1)

    # -- files ------------------------------------------------------------------------------------
    def save(self, path: str | Path) -> tuple[Path, Path]:
        """Write ``NAME.npz`` and ``NAME.json``; returns both paths."""
        npz, meta = policy_paths(path)
        npz.parent.mkdir(parents=True, exist_ok=True)
        arrays = {}
        for i, (w, b) in enumerate(self.weights):
            arrays[f"W{i}"] = np.asarray(w, dtype=np.float32)
            arrays[f"b{i}"] = np.asarray(b, dtype=np.float32)
        np.savez_compressed(npz, **arrays)
        metadata = {**self.metadata, "format": FORMAT, "activation": self.activation,
                    "layers": [int(w.shape[0]) for w, _ in self.weights]}
        meta.write_text(json.dumps(metadata, indent=2, sort_keys=True) + "\n")
        return npz, meta

    @classmethod
    def load(cls, path: str | Path) -> "Policy":
        """Read a policy saved by ``save`` (``ValueError`` naming the file if it is missing or not one)."""
        npz, meta = policy_paths(path)
        for p in (npz, meta):
            if not p.exists():
                raise ValueError(f"no saved policy at {p}: a policy is NAME.npz (weights) beside NAME.json (metadata)")
        metadata = json.loads(meta.read_text())
        if metadata.get("format") != FORMAT:
            raise ValueError(f"{meta} is not a dixenv policy (format {metadata.get('format')!r}, expected {FORMAT!r})")
        with np.load(npz) as data:
            count = len(metadata["layers"])
            weights = [(data[f"W{i}"], data[f"b{i}"]) for i in range(count)]
        return cls(weights, metadata["activation"], metadata)


def export_sb3(model: Any, path: str | Path, metadata: dict[str, Any]) -> tuple[Path, Path]:
    """Save the acting part of an SB3 / sb3-contrib actor-critic ``MlpPolicy`` as a dixenv policy (see ``from_sb3``)."""
    return from_sb3(model, metadata).save(path)


def from_sb3(model: Any, metadata: dict[str, Any]) -> Policy:
    """The acting part of an SB3 / sb3-contrib actor-critic ``MlpPolicy`` as a ``Policy`` (weights copied).

    Only the policy branch and the action head are kept (the value branch is for training only).
    Supported: a flat Box observation with SB3's ``FlattenExtractor``, ``Linear`` layers with one
    activation (tanh or ReLU) and a ``Discrete`` action head.
    """
    import torch.nn as nn

    policy = model.policy
    if type(policy.features_extractor).__name__ != "FlattenExtractor":
        raise ValueError(f"only FlattenExtractor policies can be exported, got {type(policy.features_extractor).__name__}")
    layers, activation = [], None
    for module in policy.mlp_extractor.policy_net:
        if isinstance(module, nn.Linear):
            layers.append(module)
        else:
            name = {nn.Tanh: "tanh", nn.ReLU: "relu"}.get(type(module))
            if name is None or activation not in (None, name):
                raise ValueError(f"cannot export the activation {type(module).__name__}; tanh or ReLU only")
            activation = name
    layers.append(policy.action_net)
    weights = [(m.weight.detach().cpu().numpy().copy(), m.bias.detach().cpu().numpy().copy()) for m in layers]
    return Policy(weights, activation or "tanh", dict(metadata))


class PolicyAgent:
    """A saved policy playing one seat: ``act`` for one observation, ``act_batch`` for many.

    ``deterministic=True`` (default) plays the most likely legal action; ``False`` samples from the
    policy with the agent's own seeded generator.
    """

    name = "policy"

    def __init__(self, env: Any = None, seed: int | None = None, path: str | Path | None = None, deterministic: bool = True,
                 policy: Policy | None = None):
        if policy is None:
            if path is None:
                raise ValueError("a policy agent needs the path of a saved policy: policy:PATH (NAME.npz beside NAME.json)")
            policy = _load_any(path)
        if not isinstance(deterministic, bool):
            raise ValueError(f"policy parameter deterministic={deterministic!r} must be True or False")
        self.policy = policy
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.hinter = None
        if env is not None:
            check_compatible(policy.metadata, env, str(path or "the policy"))
        hint = policy.metadata.get("hint")
        if hint:
            # The policy was trained with an advisor's move among its inputs (dixenv.agents.hints).
            if env is None:
                raise ValueError(f"{path or 'the policy'} was trained with hint={hint!r}: give the agent its env to build the advisor")
            from dixenv.agents.hints import Hinter

            self.hinter = Hinter(env, hint)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling (no effect on a deterministic agent)."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """The policy's action for one observation dict."""
        obs = observation["observation"][None, :]
        mask = observation["action_mask"][None, :]
        return int(self.act_batch(obs, mask)[0])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The policy's actions for a batch: ``(k, obs_size)`` observations, ``(k, num_actions)`` masks."""
        if self.hinter is not None:
            observations = self.hinter.extend_batch(observations, masks)
        return self.policy.choose(observations, masks, None if self.deterministic else self.rng)


def check_compatible(metadata: dict[str, Any], env: Any, where: str) -> None:
    """``ValueError`` unless the env's game, observation layout and action count are those the policy was trained on."""
    aec = aec_env(env)
    game = aec.game.name
    trained = f"trained on {metadata.get('env_id')} with options {metadata.get('options')}"
    if metadata.get("game") != game:
        raise ValueError(f"{where} plays {metadata.get('game')!r} ({trained}), not {game!r}")
    layout = aec.layout
    if metadata.get("layout") != layout.fingerprint() or metadata.get("obs_size") != layout.size:
        raise ValueError(
            f"{where} was {trained}: its observation layout {metadata.get('layout')} ({metadata.get('obs_size')} floats) "
            f"differs from this environment's {layout.fingerprint()} ({layout.size} floats; options {aec.config}). "
            "Train it again for this configuration or dixenv version."
        )
    actions = aec.action_space(aec.possible_agents[0]).n
    if metadata.get("num_actions") != actions:
        raise ValueError(f"{where} has {metadata.get('num_actions')} actions, this environment {actions}")


def _load_any(path: str | Path) -> Policy:
    """A dixenv policy file, or an SB3 ``.zip`` (converted in memory; needs the train extra).

    Loaded once per process and file version (tournaments build an agent for every game).
    """
    path = Path(path)
    files = [path] if path.suffix == ".zip" else list(policy_paths(path))
    stamp = tuple(p.stat().st_mtime_ns if p.exists() else None for p in files)
    return _load_cached(str(path), stamp)


@functools.lru_cache(maxsize=32)
def _load_cached(path: str, stamp: tuple) -> Policy:
    path_ = Path(path)
    if path_.suffix == ".zip":
        return _from_sb3_zip(path_)
    return Policy.load(path_)


def _from_sb3_zip(path: Path) -> Policy:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as exc:
        raise ImportError(f"loading the SB3 model {path} needs the train extra: pip install 'dixenv[train]'") from exc
    meta_path = path.with_suffix(".json")
    if not meta_path.exists():
        raise ValueError(f"{path} has no metadata file {meta_path} (env id, options, layout); save models with experiments.train")
    import tempfile

    model = MaskablePPO.load(path, device="cpu")
    with tempfile.TemporaryDirectory() as tmp:
        return Policy.load(export_sb3(model, Path(tmp) / "policy", json.loads(meta_path.read_text()))[0])


def policy_metadata(env_id: str, options: dict[str, Any], env: Any, hint: str | None = None, **training: Any) -> dict[str, Any]:
    """The metadata to save with a policy trained on ``env_id`` / ``options`` (``env`` one such env).

    ``hint``: the advisor whose move the policy gets among its inputs (``dixenv.agents.hints``), if any.
    """
    aec = aec_env(env)
    extra = {} if hint is None else {"hint": hint}
    return extra | {
        "game": aec.game.name,
        "env_id": env_id,
        "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in options.items()},
        "layout": aec.layout.fingerprint(),
        "obs_size": aec.layout.size,
        "num_actions": int(aec.action_space(aec.possible_agents[0]).n),
        "training": training,
    }
