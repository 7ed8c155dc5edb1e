"""Advisor hints: the heuristic's move appended to observations, in agents, demonstrations and training."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv import dix_de_suite_v0, le_dix_v0
from dixenv.agents.hints import Hinter, check_advisor
from dixenv.agents.policy import Policy, PolicyAgent, policy_metadata
from dixenv.agents.registry import make_agent

from .helpers import play_game


def _copying_policy(env, hint="heuristic"):
    """A one-layer policy whose logits are 10 × the hint: it plays exactly the advisor's move."""
    size = env.unwrapped.layout.size
    actions = env.action_space(env.possible_agents[0]).n
    w = np.zeros((actions, size + actions), dtype=np.float32)
    w[:, size:] = 10 * np.eye(actions, dtype=np.float32)
    meta = policy_metadata("dixenv/LeDix-v0", {"num_players": 4}, env, hint=hint)
    return Policy([(w, np.zeros(actions, dtype=np.float32))], "tanh", meta)


@pytest.mark.parametrize("make", [lambda: le_dix_v0.env(num_players=4), lambda: dix_de_suite_v0.env(num_players=2)])
def test_the_hint_is_the_heuristics_move_one_hot(make):
    env = make()
    env.reset(seed=4)
    hinter = Hinter(env)
    heuristic = make_agent(env.unwrapped.game.name, "heuristic", env)
    size = env.unwrapped.layout.size
    for _ in range(30):
        obs = env.observe(env.agent_selection)
        row = hinter.extend(obs["observation"], obs["action_mask"])
        assert row.shape == (size + hinter.num_actions,) and np.array_equal(row[:size], obs["observation"])
        assert row[size:].sum() == 1 and int(np.argmax(row[size:])) == heuristic.act(obs)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    empty = hinter.extend_batch(np.zeros((2, size)), np.zeros((2, hinter.num_actions), dtype=np.int8))
    assert not empty[:, size:].any(), "no legal move, no hint"


def test_an_advisor_takes_the_heuristics_parameters():
    """``heuristic:secure=1,prefix_weight=0.3`` hints that heuristic's moves, which are not always the default's."""
    env = dix_de_suite_v0.env(num_players=2)
    spec = "heuristic:secure=1,prefix_weight=0.3"
    assert check_advisor(spec) == spec
    hinter = Hinter(env, spec)
    tuned = make_agent("dix_de_suite", spec, env)
    plain = make_agent("dix_de_suite", "heuristic", env)
    size = env.unwrapped.layout.size
    differ = 0
    for seed in range(6):
        env.reset(seed=seed)
        for _ in range(120):
            if any(env.terminations.values()) or any(env.truncations.values()):
                break
            obs = env.observe(env.agent_selection)
            hint = int(np.argmax(hinter.extend(obs["observation"], obs["action_mask"])[size:]))
            assert hint == tuned.act(obs)
            differ += hint != plain.act(obs)
            env.step(hint)
    assert differ > 0, "the parameters change some moves, so the hint is the tuned heuristic's"
    with pytest.raises(ValueError, match="allowed: heuristic"):
        check_advisor("oracle:secure=1")
    with pytest.raises(ValueError):  # an unknown parameter is named when the advisor is built
        Hinter(env, "heuristic:no_such_knob=1")


def test_a_policy_trained_with_a_hint_gets_it_when_it_plays():
    env = le_dix_v0.env(num_players=4)
    agent = PolicyAgent(env, policy=_copying_policy(env))
    heuristics = [make_agent("le_dix", "heuristic", env) for _ in range(3)]
    chosen = play_game(env, [agent, *heuristics], seed=2)
    twin = [make_agent("le_dix", "heuristic", env) for _ in range(4)]
    assert play_game(env, twin, seed=2) == chosen, "the copying policy plays the heuristic's game move for move"


def test_a_hinted_policy_needs_its_env_and_a_known_advisor():
    env = le_dix_v0.env(num_players=4)
    with pytest.raises(ValueError, match="hint='heuristic': give the agent its env"):
        PolicyAgent(None, policy=_copying_policy(env))
    with pytest.raises(ValueError, match="allowed: heuristic"):
        check_advisor("oracle")
    with pytest.raises(ValueError, match="allowed: heuristic"):
        PolicyAgent(env, policy=_copying_policy(env, hint="oracle"))


def test_demonstrations_carry_the_hint_and_it_is_the_label():
    from dixenv.experiments.imitation import collect

    demos = collect("dixenv/DixDeSuite-v0", {"num_players": 2}, "heuristic", 2, seed=1, hint="heuristic")
    env = dix_de_suite_v0.env(num_players=2)
    size = env.unwrapped.layout.size
    assert demos.observations.shape[1] == size + env.action_space("player_0").n
    assert np.array_equal(demos.observations[:, size:].argmax(axis=1), demos.actions)
    assert np.all(demos.observations[:, size:].sum(axis=1) == 1)


def test_the_hinted_vec_env_extends_observations_and_trains():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from dixenv.agents.hints import hinted_vec_env
    from dixenv.vector import SB3VecEnv, VectorEnv

    venv = VectorEnv("dixenv/DixDeSuite-v0", 4, num_players=2, opponents=["heuristic"])
    vec = SB3VecEnv(venv)
    vec.seed(0)
    hinted = hinted_vec_env(vec, Hinter(venv.raw_env))
    size = venv.raw_env.layout.size
    obs = hinted.reset()
    assert obs.shape == (4, size + hinted.action_space.n) and hinted.observation_space.contains(obs[0])
    masks = venv.action_masks()
    assert np.all(masks[np.arange(4), obs[:, size:].argmax(axis=1)]), "the hint is a legal move"
    model = sb3_contrib.MaskablePPO("MlpPolicy", hinted, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu",
                                    policy_kwargs={"net_arch": [16]})
    model.learn(128)
    assert model.num_timesteps >= 128
