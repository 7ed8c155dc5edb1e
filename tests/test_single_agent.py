"""The single-agent Gymnasium wrapper: Gymnasium's check_env, masks, rewards, opponents, illegal moves."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from dixenv.agents.base import RandomAgent
from dixenv import le_dix_v0
from dixenv.wrappers import SingleAgentEnv


def _le_dix(**kwargs) -> SingleAgentEnv:
    return SingleAgentEnv(le_dix_v0.raw_env(num_players=3, **kwargs), [RandomAgent(seed=1), RandomAgent(seed=2)])


@pytest.mark.parametrize("options", [{}, {"reward": "points"}, {"hook": True, "auto_forced": False}])
def test_le_dix_single_agent_passes_gymnasium_check_env(options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # infinite Box bounds advice
        check_env(_le_dix(**options), skip_render_check=True)


def test_mask_is_given_as_action_masks_and_in_info():
    env = _le_dix()
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and obs.shape == env.observation_space.shape
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
    assert env.action_masks().any()


def test_an_episode_ends_with_the_learners_win_reward():
    env = _le_dix()
    env.reset(seed=3)
    rewards, done = [], False
    rng = np.random.default_rng(0)
    while not done:
        legal = np.flatnonzero(env.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        rewards.append(reward)
        done = terminated or truncated
    assert terminated and not truncated
    scores = env.aec.scores()
    expected = (sum(scores[0] > s for s in scores[1:]) - sum(scores[0] < s for s in scores[1:])) / 2
    assert rewards[-1] == expected and all(r == 0 for r in rewards[:-1])


def test_points_reward_sums_to_the_learners_final_score():
    env = _le_dix(reward="points")
    env.reset(seed=5)
    total, done = 0.0, False
    rng = np.random.default_rng(1)
    while not done:
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
        done = terminated or truncated
    assert total == env.aec.scores()[0]


def test_opponents_may_be_plain_callables():
    first_legal = lambda obs: int(np.flatnonzero(obs["action_mask"])[0])  # noqa: E731
    env = SingleAgentEnv(le_dix_v0.raw_env(num_players=3), [first_legal, first_legal], learner="player_1")
    obs, info = env.reset(seed=0)
    assert env.aec.agent_selection == "player_1"


def test_illegal_action_ends_the_episode_with_minus_one():
    env = _le_dix()
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and terminated and info["illegal_action"]


def test_illegal_action_raises_when_asked_to():
    env = SingleAgentEnv(le_dix_v0.raw_env(num_players=3), [RandomAgent(), RandomAgent()], illegal_action="raise")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)


def test_wrong_number_of_opponents_is_rejected():
    with pytest.raises(ValueError, match="2 opponent"):
        SingleAgentEnv(le_dix_v0.raw_env(num_players=3), [RandomAgent()])


@pytest.mark.parametrize("opponents", [7, 2.5, {"a": 1}])
def test_opponents_that_are_neither_a_name_nor_a_list_are_a_value_error(opponents):
    import gymnasium

    with pytest.raises(ValueError, match="opponents=.*must be an agent name"):
        gymnasium.make("dixenv/LeDix-v0", opponents=opponents)


def test_opponents_default_to_the_games_heuristic_and_to_random_without_one():
    import gymnasium

    for opponents in (None, "default"):
        kwargs = {} if opponents == "default" else {"opponents": None}
        env = gymnasium.make("dixenv/LeDix-v0", num_players=3, **kwargs).unwrapped
        assert env.opponent_specs == ("heuristic", "heuristic")
    assert gymnasium.make("dixenv_tests/Toy-v0").unwrapped.opponent_specs == ("random",)  # tests/toy_game.py


def test_seeded_resets_replay_the_same_episode():
    a, b = _le_dix(), _le_dix()
    oa, _ = a.reset(seed=11)
    ob, _ = b.reset(seed=11)
    for _ in range(30):
        act = int(np.flatnonzero(a.action_masks())[-1])
        oa, ra, ta, _, _ = a.step(act)
        ob, rb, tb, _, _ = b.step(act)
        assert np.array_equal(oa, ob) and ra == rb
        if ta:
            break


@pytest.mark.parametrize(
    "env_id, options",
    [
        ("dixenv/LeDix-v0", {"num_players": 3, "opponents": "random"}),
        ("dixenv/LeDix-v0", {"num_players": 4}),
        ("dixenv/DixDeSuite-v0", {"num_players": 2, "opponents": "random"}),
        ("dixenv/Dix-v0", {"num_players": 3, "opponents": ["random", "random"], "learner_seat": 2}),
    ],
)
def test_versus_baselines_envs_are_registered_and_pass_check_env(env_id, options):
    import gymnasium

    import dixenv  # noqa: F401

    env = gymnasium.make(env_id, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)


def test_versus_rejects_a_seat_that_does_not_exist():
    from dixenv.wrappers.versus import make_versus

    with pytest.raises(ValueError, match="learner_seat"):
        make_versus("le_dix", num_players=3, learner_seat=3, opponents="random")
