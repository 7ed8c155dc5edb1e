"""Advisor hints: a baseline agent's chosen move, one-hot, appended to a policy's observation.

A policy trained with ``hint="heuristic"`` sees, beside the observation, which legal action the
game's heuristic would play there (``num_actions`` more inputs, one of them 1). It can then copy
the heuristic where the heuristic is right and learn where to depart from it, instead of having to
rediscover from raw observations what the heuristic computes (dix_de_suite's chain-and-gap costs,
le_dix's trick estimates). Measured here: cloning the heuristic from the observation alone gave
policies 87–96% accurate per decision that still lost most games to it (docs/results/training.md); this
is the residual / expert-feature set-up of much applied RL work, and it is optional: a policy's
metadata says whether it uses a hint, and ``PolicyAgent`` adds the same hint when it plays.

The advisor must be a function of the observation and mask alone (every heuristic here decodes
the observation afresh at each call and keeps nothing between calls), so that the hint a policy
sees in training, in a tournament worker or as a self-play opponent is the same for the same
observation.

Written here because no library adds agent outputs to observations; the Stable-Baselines3 side
is one ``VecEnvWrapper`` (``hinted_vec_env``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dixenv.agents.base import aec_env

#: Advisors a policy may be trained with (a registry name of every game). Parameters may ride
#: along as in agent specs: ``"heuristic:secure=1,prefix_weight=0.3"`` (dix_de_suite's heuristic
#: that plays for the game); they are checked when the advisor is built for a game.
ADVISORS = ("heuristic",)


def check_advisor(name: Any) -> str:
    """``name`` if it is a known advisor (with parameters or not), else ``ValueError`` naming the allowed ones."""
    from dixenv.agents.registry import parse_agent_spec  # lazy: the registry names every agent module

    base = parse_agent_spec(name)[0] if isinstance(name, str) else None
    if base not in ADVISORS:
        raise ValueError(f"hint {name!r} is not an advisor; allowed: {', '.join(ADVISORS)}, "
                         f"with parameters or not (heuristic:NAME=VALUE,...), or no hint")
    return name


class Hinter:
    """Extends observations of one environment's table with an advisor's one-hot move."""

    def __init__(self, env: Any, advisor: str = "heuristic", seed: int | None = 0):
        from dixenv.agents.registry import make_agent  # lazy: the registry names every agent module

        aec = aec_env(env)
        self.advisor_name = check_advisor(advisor)
        self.advisor = make_agent(aec.game.name, advisor, aec, seed=seed)
        self.num_actions = int(aec.action_space(aec.possible_agents[0]).n)

    def extend(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``observation`` followed by the advisor's move one-hot (all zero when nothing is legal)."""
        return self.extend_batch(np.asarray(observation)[None, :], np.asarray(mask)[None, :])[0]

    def extend_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Rows ``(k, obs_size)`` -> ``(k, obs_size + num_actions)``; a row with no legal action gets no hint."""
        observations = np.asarray(observations, dtype=np.float32)
        return np.concatenate([observations, self.hints(observations, masks)], axis=1)

    def hints(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The advisor's moves one-hot, ``(k, num_actions)``; all zero for a row with no legal action."""
        out = np.zeros((len(observations), self.num_actions), dtype=np.float32)
        for i, (obs, mask) in enumerate(zip(np.asarray(observations, dtype=np.float32), masks)):
            if mask.any():
                out[i, int(self.advisor.act({"observation": obs, "action_mask": np.asarray(mask, dtype=np.int8)}))] = 1.0
        return out


def hinted_vec_env(venv: Any, hinter: Hinter) -> Any:
    """A Stable-Baselines3 ``VecEnv`` whose observations carry ``hinter``'s hint (masks pass through).

    ``venv`` must answer ``env_method("action_masks")`` (``dixenv.vector.SB3VecEnv`` does); a
    terminal observation in the infos gets an all-zero hint (no move is legal there).
    """
    from dixenv.agents.features import extended_vec_env

    def extend(observations: np.ndarray) -> np.ndarray:
        return hinter.extend_batch(observations, np.asarray(venv.env_method("action_masks")))  # one mask row per game

    def extend_terminal(row: np.ndarray) -> np.ndarray:
        return np.concatenate([row, np.zeros(hinter.num_actions, dtype=row.dtype)])

    return extended_vec_env(venv, hinter.num_actions, extend, extend_terminal)
