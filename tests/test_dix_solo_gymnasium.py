"""The solo game against ALIX as a Gymnasium environment (``dixenv/DixSolo-v0``)."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import dixenv  # noqa: F401  (registers the ids)
from dixenv.wrappers.solo import DixSoloEnv


@pytest.mark.parametrize("difficulty", [4, 7, 10])
@pytest.mark.parametrize("options", [{}, {"auto_pay": True}, {"bust_buy": True, "reward": "points"}, {"auto_forced": False}])
def test_solo_env_passes_gymnasium_check_env(difficulty, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # infinite Box bounds advice
        check_env(DixSoloEnv(difficulty=difficulty, **options), skip_render_check=True)


def test_gymnasium_make_builds_the_solo_game_with_its_difficulty():
    env = gymnasium.make("dixenv/DixSolo-v0", difficulty=6)
    obs, info = env.reset(seed=0)
    assert env.unwrapped.aec.config.difficulty == 6
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()
    assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))


def test_a_solo_episode_ends_with_plus_or_minus_one_or_zero_against_alix():
    env = DixSoloEnv(difficulty=5)
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = terminated or truncated
        assert terminated and reward in (-1.0, 0.0, 1.0)
        mine, alix = env.aec.scores()
        assert (reward > 0) <= (mine >= alix) and (reward < 0) <= (mine <= alix)


def test_bad_difficulty_names_the_option():
    with pytest.raises(ValueError, match="difficulty"):
        DixSoloEnv(difficulty=11)
