"""Ray RLlib pieces for dixenv: the environment, a masking RLModule, self-play and the policy export.

* ``DixenvPettingZooEnv`` — RLlib's own PettingZoo AEC wrapper (``PettingZooEnv``) around
  ``dixenv.<game>_v0.env(**options)``, built from an RLlib ``env_config`` so that every EnvRunner,
  on any node, makes its own games.
* ``MaskedMLPModule`` — a PPO actor-critic RLModule on RLlib's new API stack that lives here rather
  than in RLlib's examples (whose masking module changed from release to release). Its acting path
  is a plain MLP over the flat observation whose illegal-action logits are set to ``MASKED_LOGIT``,
  so ``export_policy`` writes it exactly in dixenv's policy format (``agents/policy.py``), which
  plays with numpy only.
* ``build_config`` — a ``PPOConfig`` for one game: one module shared by every seat, one module per
  seat, or self-play (a learner ``main`` whose seat rotates, against frozen snapshots of itself).

This module imports ray (the ``rllib`` extra); nothing else in dixenv imports it.
"""

from __future__ import annotations

import functools
import zlib
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

from dixenv.agents.policy import Policy, policy_metadata
from dixenv.agents.registry import env_module, resolve_game

#: The logit an illegal action gets: the most negative float32, so its probability is exactly 0
#: and, unlike -inf, it keeps entropies and KL divergences finite during PPO updates.
MASKED_LOGIT = float(np.finfo(np.float32).min)
ACTIVATIONS = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}
DEFAULT_HIDDEN = (256, 256)
POLICY_MODES = ("shared", "per-seat")
SHARED = "shared"  # the module of every seat with policies="shared"
MAIN = "main"  # the learner in self-play


def pettingzoo_id(game: str) -> str:
    """The PettingZoo id of a game (``le_dix`` -> ``dixenv/le_dix-v0``), saved in exported metadata."""
    return f"dixenv/{resolve_game(game)}-v0"


def make_aec_env(game: str, options: dict[str, Any]) -> Any:
    """``dixenv.<game>_v0.env(**options)``: the PettingZoo-classic-wrapped AEC env."""
    return env_module(game).env(**options)


class DixenvPettingZooEnv(PettingZooEnv):
    """RLlib's PettingZoo AEC wrapper around a dixenv game; ``config`` is ``{"game": ..., "options": {...}}``."""

    def __init__(self, config: dict[str, Any] | None = None):
        config = dict(config or {})
        unknown = sorted(set(config) - {"game", "options"})
        if "game" not in config or unknown:
            raise ValueError(f"env_config needs 'game' and optionally 'options', got keys {sorted(config)}")
        super().__init__(make_aec_env(config["game"], dict(config.get("options") or {})))


def check_spaces(observation_space: gymnasium.Space, action_space: gymnasium.Space) -> tuple[int, int]:
    """(observation size, number of actions) of a dixenv seat's spaces; ``ValueError`` if they are not."""
    if not (isinstance(observation_space, gymnasium.spaces.Dict)
            and set(observation_space.spaces) == {"observation", "action_mask"}
            and len(observation_space["observation"].shape) == 1):
        raise ValueError(f"MaskedMLPModule needs Dict(observation=flat Box, action_mask=Box), got {observation_space}")
    if not isinstance(action_space, gymnasium.spaces.Discrete):
        raise ValueError(f"MaskedMLPModule needs a Discrete action space, got {action_space}")
    return int(observation_space["observation"].shape[0]), int(action_space.n)


def mlp(sizes: list[int], activation: str) -> torch.nn.Sequential:
    """Linear layers of ``sizes`` with ``activation`` between them (none after the last)."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation {activation!r} cannot be exported; allowed: {sorted(ACTIVATIONS)}")
    layers: list[torch.nn.Module] = []
    for i, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
        if i:
            layers.append(ACTIVATIONS[activation]())
        layers.append(torch.nn.Linear(n_in, n_out))
    return torch.nn.Sequential(*layers)


def mask_logits(logits: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every action whose mask entry is 0 set to ``MASKED_LOGIT``."""
    return logits.masked_fill(action_mask == 0, MASKED_LOGIT)


class MaskedMLPModule(TorchRLModule, ValueFunctionAPI):
    """PPO actor-critic over a dixenv observation dict: masked policy MLP, separate value MLP.

    ``model_config`` takes RLlib's usual keys ``fcnet_hiddens`` (default ``[256, 256]``) and
    ``fcnet_activation`` (``"tanh"``, default, or ``"relu"``: the two that dixenv's policy format
    knows). The value network has the same shape but its own weights, so the policy alone exports.
    """

    def setup(self) -> None:
        obs_size, num_actions = check_spaces(self.observation_space, self.action_space)
        config = self.model_config or {}
        hidden = [int(h) for h in config.get("fcnet_hiddens", DEFAULT_HIDDEN)]
        self.activation = str(config.get("fcnet_activation", "tanh"))
        self.policy_net = mlp([obs_size, *hidden, num_actions], self.activation)
        self.value_net = mlp([obs_size, *hidden, 1], self.activation)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        logits = self.policy_net(obs["observation"])
        return {Columns.ACTION_DIST_INPUTS: mask_logits(logits, obs["action_mask"])}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        """Value estimates ``(B,)`` (or ``(B, T)``) from the flat observation."""
        return self.value_net(batch[Columns.OBS]["observation"]).squeeze(-1)

    def to_policy(self, metadata: dict[str, Any]) -> Policy:
        """The acting path (policy MLP, masking aside) as a dixenv ``Policy`` with ``metadata``."""
        layers = [m for m in self.policy_net if isinstance(m, torch.nn.Linear)]
        weights = [(m.weight.detach().cpu().numpy(), m.bias.detach().cpu().numpy()) for m in layers]
        return Policy(weights, self.activation, dict(metadata))


def module_spec(observation_space: gymnasium.Space, action_space: gymnasium.Space, hidden: tuple[int, ...],
                activation: str) -> RLModuleSpec:
    """The ``RLModuleSpec`` of one ``MaskedMLPModule`` (spaces given: snapshot modules may map to no seat yet)."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation {activation!r} cannot be exported; allowed: {sorted(ACTIVATIONS)}")
    return RLModuleSpec(
        module_class=MaskedMLPModule,
        observation_space=observation_space,
        action_space=action_space,
        model_config={"fcnet_hiddens": list(hidden), "fcnet_activation": activation},
    )


# -- which module plays which seat -----------------------------------------------------------------
def snapshot_id(slot: int) -> str:
    """The module id of self-play opponent slot ``slot``."""
    return f"snapshot_{slot}"


def seat_of(agent_id: str) -> int:
    """``player_2`` -> 2."""
    return int(str(agent_id).rsplit("_", 1)[1])


def shared_mapping(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Every seat plays the one shared module."""
    return SHARED


def per_seat_mapping(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Each seat plays its own module, named after the agent (``player_0`` …)."""
    return str(agent_id)


def self_play_mapping(agent_id: str, episode: Any, *, num_seats: int, num_snapshots: int, **kwargs: Any) -> str:
    """The learner takes one seat per episode, drawn from the episode id; every other seat a snapshot.

    The draw is a CRC of the (random) episode id rather than ``hash``, which differs between
    processes, so that every EnvRunner agrees on the seat of an episode it asks about twice.
    """
    learner_seat = zlib.crc32(episode.id_.encode()) % num_seats
    seat = seat_of(agent_id)
    if seat == learner_seat:
        return MAIN
    return snapshot_id(zlib.crc32(f"{episode.id_}/{seat}".encode()) % num_snapshots)


class SnapshotOpponents(RLlibCallback):
    """Self-play: frozen copies of ``main`` as opponents, refreshed every ``every`` training iterations.

    RLlib's self-play example adds a new module per snapshot; here a fixed number of snapshot slots
    is overwritten in turn (oldest first), so the set of modules and the mapping function never
    change while EnvRunners are sampling, and memory stays bounded. All slots start as copies of
    the initial ``main``.
    """

    def __init__(self, every: int, slots: int):
        super().__init__()
        if every < 1 or slots < 1:
            raise ValueError(f"snapshot every={every} and slots={slots} must both be at least 1")
        self.every, self.slots = every, slots
        self.taken = 0  # snapshots taken since the start

    def copy_main_to(self, algorithm: Any, slots: list[str]) -> None:
        """Set the weights of ``slots`` to ``main``'s, on the learners and then on every EnvRunner."""
        weights = algorithm.learner_group.get_weights([MAIN])[MAIN]
        # Algorithm.set_state with a learner-group state also syncs the weights to the EnvRunners.
        algorithm.set_state({"learner_group": {"learner": {"rl_module": {slot: weights for slot in slots}}}})

    def on_algorithm_init(self, *, algorithm: Any, **kwargs: Any) -> None:
        """Every slot starts as the initial ``main``."""
        self.copy_main_to(algorithm, [snapshot_id(i) for i in range(self.slots)])

    def on_train_result(self, *, algorithm: Any, result: dict, **kwargs: Any) -> None:
        """Refresh the oldest slot every ``every`` iterations; count snapshots in the result."""
        # Called after the iteration count went up: iterations every, 2 * every, … take a snapshot.
        if algorithm.iteration % self.every == 0:
            slot = snapshot_id(self.taken % self.slots)
            self.copy_main_to(algorithm, [slot])
            self.taken += 1
            result["snapshot_refreshed"] = slot
        result["snapshots_taken"] = self.taken


# -- the algorithm config --------------------------------------------------------------------------
def build_config(
    game: str,
    options: dict[str, Any],
    *,
    policies: str = "shared",
    self_play: bool = False,
    snapshots: int = 3,
    snapshot_every: int = 5,
    num_env_runners: int = 0,
    envs_per_runner: int = 8,
    hidden: tuple[int, ...] = DEFAULT_HIDDEN,
    activation: str = "tanh",
    train_batch_size: int = 4000,
    minibatch_size: int = 256,
    num_epochs: int = 10,
    lr: float = 3e-4,
    gamma: float = 0.995,
    entropy_coeff: float = 0.01,
    seed: int | None = 0,
    episodes_to_numpy: bool = False,
) -> PPOConfig:
    """A PPO config (new API stack) training ``game`` with ``options`` (``ValueError`` on bad choices)."""
    game = resolve_game(game)
    if policies not in POLICY_MODES:
        raise ValueError(f"policies={policies!r}; allowed: {list(POLICY_MODES)}")
    probe = make_aec_env(game, options)
    agents = list(probe.possible_agents)
    observation_space, action_space = probe.observation_space(agents[0]), probe.action_space(agents[0])
    probe.close()
    spec = functools.partial(module_spec, observation_space, action_space, tuple(hidden), activation)

    if self_play:
        if len(agents) < 2:
            raise ValueError(f"self-play needs at least two agents; {game} with options {options} has {agents}")
        if policies != "shared":
            raise ValueError("self-play trains one learner module against its snapshots; use policies='shared'")
        module_ids = [MAIN] + [snapshot_id(i) for i in range(snapshots)]
        mapping = functools.partial(self_play_mapping, num_seats=len(agents), num_snapshots=snapshots)
        trained = [MAIN]
    elif policies == "shared":
        module_ids, mapping, trained = [SHARED], shared_mapping, [SHARED]
    else:
        module_ids, mapping, trained = agents, per_seat_mapping, agents

    config = (
        PPOConfig()
        # RLlib's checker steps random actions, which are illegal here (the classic wrapper then
        # ends the game with a warning, raw_env raises); masks guarantee legal actions in training.
        .environment(DixenvPettingZooEnv, env_config={"game": game, "options": dict(options)}, disable_env_checking=True)
        .env_runners(
            num_env_runners=num_env_runners,
            num_envs_per_env_runner=envs_per_runner,
            # Episodes of card games are short, many and small: converting each one to numpy on
            # the EnvRunner costs more than it saves (measured in docs/guides/scale-out.md).
            episodes_to_numpy=episodes_to_numpy,
        )
        .multi_agent(policies=set(module_ids), policy_mapping_fn=mapping, policies_to_train=trained)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: spec() for m in module_ids}))
        .training(
            train_batch_size_per_learner=train_batch_size,
            minibatch_size=minibatch_size,
            num_epochs=num_epochs,
            lr=lr,
            gamma=gamma,
            entropy_coeff=entropy_coeff,
        )
        .debugging(seed=seed)
    )
    if self_play:
        config.callbacks(functools.partial(SnapshotOpponents, every=snapshot_every, slots=snapshots))
    return config


def trained_modules(config: PPOConfig) -> list[str]:
    """The ids of the modules that learn (and are exported)."""
    return sorted(config.policies_to_train)


def export_policy(module: MaskedMLPModule, path: str | Path, game: str, options: dict[str, Any],
                  **training: Any) -> tuple[Path, Path]:
    """Write ``module``'s acting path as ``PATH.npz`` + ``PATH.json`` (dixenv's policy format)."""
    probe = make_aec_env(game, options)
    metadata = policy_metadata(pettingzoo_id(game), options, probe, trainer="rllib-ppo", **training)
    probe.close()
    return module.to_policy(metadata).save(path)
