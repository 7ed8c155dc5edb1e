"""The one agent protocol used everywhere (evaluation, wrappers, human play, training).

An agent sees only what its player may see: the observation dict of a dixenv environment
(``{"observation": flat float32 vector, "action_mask": int8 mask}``), never the engine's state.
Agents that need structure decode the flat vector with the environment's documented layout
(``env.unwrapped.observation_layout()``), which they are given at construction.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Chooses a legal action from one player's observation."""

    name: str

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """Return a legal action id for this observation (its ``action_mask`` marks the legal ones)."""

    # Optional: ``reset(seed)`` reseeds an agent's own randomness (wrappers call it on a seeded reset).


class RandomAgent:
    """Uniformly random among the legal actions; works for every game."""

    name = "random"

    def __init__(self, env: Any = None, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the agent's random choices."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """A uniformly random legal action."""
        # ``np.flatnonzero`` without its Python-level wrappers (the same array, about 3x faster;
        # this agent is the opponent of many training runs); ``asarray`` keeps list masks working.
        legal = np.asarray(observation["action_mask"]).ravel().nonzero()[0]
        return int(legal[self.rng.integers(len(legal))])


def aec_env(env: Any) -> Any:
    """The AEC environment under ``env``: a single-agent Gymnasium env holds its AEC env as ``.aec``."""
    u = env.unwrapped
    return getattr(u, "aec", u)


def decode(env: Any, flat: np.ndarray) -> dict[str, np.ndarray]:
    """Split a flat observation into the named, reshaped pieces of ``env``'s documented layout."""
    return env.unwrapped.layout.unflatten(flat)


def tuned_params(agent: str, defaults: dict[str, float], given: dict[str, Any]) -> dict[str, float]:
    """``defaults`` overridden by ``given``; ``ValueError`` for an unknown name or a non-number."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise ValueError(f"unknown {agent} parameter(s) {unknown}; parameters are {sorted(defaults)}")
    out = dict(defaults)
    for key, value in given.items():
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"{agent} parameter {key}={value!r} must be a number")
        out[key] = float(value)
    return out
