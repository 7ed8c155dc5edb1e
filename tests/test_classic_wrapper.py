"""dixenv's fused classic wrapper behaves exactly like PettingZoo's three stock wrappers."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils import wrappers

from dixenv import le_dix_v0
from dixenv.core.aec import ClassicWrapper


def _stock(raw):
    env = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def _trace(env, seed: int, illegal_every: int) -> list:
    """Play a seeded game, sometimes choosing an illegal action; record what the env shows."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for i, agent in enumerate(env.agent_iter(max_iter=2000)):
        obs, reward, terminated, truncated, info = env.last()
        trace.append((agent, reward, terminated, truncated, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        if terminated or truncated:
            action = None
        elif illegal_every and i % illegal_every == illegal_every - 1:
            action = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    trace.append((dict(env.rewards), dict(env.terminations), dict(env.truncations)))
    return trace


@pytest.mark.parametrize("illegal_every", [0, 7, 40])
@pytest.mark.parametrize("seed", [0, 1])
def test_fused_wrapper_matches_the_stock_wrappers(seed, illegal_every):
    fused = ClassicWrapper(le_dix_v0.raw_env(num_players=3))
    stock = _stock(le_dix_v0.raw_env(num_players=3))
    assert _trace(fused, seed, illegal_every) == _trace(stock, seed, illegal_every)


def test_fused_wrapper_rejects_out_of_space_actions_and_use_before_reset():
    env = le_dix_v0.env(num_players=3)
    with pytest.raises(AttributeError):
        env.agent_selection  # noqa: B018  (order enforcing: reset first)
    env.reset(seed=0)
    with pytest.raises(AssertionError):
        env.step(10_000)
