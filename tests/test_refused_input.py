"""Bad input is refused with a clear error and changes nothing (SPEC §4): every game, every adapter."""

from __future__ import annotations

import copy
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import dixenv
from dixenv import dix_de_suite_v0, dix_v0, le_dix_v0
from tests.games.dix_de_suite.helpers import band_player

GAMES = {
    "le_dix": (le_dix_v0, {"num_players": 3, "deals": (3, 2)}),
    "dix_de_suite": (dix_de_suite_v0, {"num_players": 2, "max_turns": 200}),
    "dix": (dix_v0, {"num_players": 3}),
    "dix_solo": (dix_v0, {"solo": True, "difficulty": 6}),
}
NOT_ACTIONS = [0.7, 1.0, np.float64(1.0), "1", True, False, np.bool_(True), [1], np.array([1]), None]


def _snapshot(env):
    """Everything an agent or a harness can read off a raw env, copied."""
    raw = env.unwrapped
    return {
        "agent_selection": raw.agent_selection,
        "rewards": dict(raw.rewards),
        "cumulative": dict(raw._cumulative_rewards),
        "terminations": dict(raw.terminations),
        "truncations": dict(raw.truncations),
        "infos": copy.deepcopy(raw.infos),
        "observations": {a: {k: v.copy() for k, v in raw.observe(a).items()} for a in raw.agents},
        "legal": list(raw.legal_actions()),
        "scores": list(raw.scores()),
    }


def _same(a, b) -> bool:
    if a.keys() != b.keys():
        return False
    for key in a:
        if key == "observations":
            for agent in a[key]:
                for part in ("observation", "action_mask"):
                    if not np.array_equal(a[key][agent][part], b[key][agent][part]):
                        return False
        elif a[key] != b[key]:
            return False
    return True


def _move(env, rng) -> int:
    """A random legal move; in dix_de_suite a mostly sorting one, so that rounds end and score."""
    if env.unwrapped.game.name == "dix_de_suite":
        return band_player(env.unwrapped.state, rng, eps=0.2)
    legal = env.legal_actions()
    return int(legal[rng.integers(len(legal))])


def _positions_with_pending_reward(module, options, seeds=range(40), limit=6):
    """raw envs (reward="points") stopped where the agent to act has a non-zero pending cumulative reward."""
    found = []
    for seed in seeds:
        env = module.raw_env(reward="points", **options)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents and not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            if env._cumulative_rewards[env.agent_selection] != 0:
                found.append(env)
                break
            env.step(_move(env, rng))
        if len(found) >= limit:
            break
    return found


@pytest.mark.parametrize("game", GAMES)
def test_raw_env_refuses_non_integer_actions_naming_the_value_and_the_legal_actions(game):
    module, options = GAMES[game]
    env = module.raw_env(**options)
    env.reset(seed=0)
    legal_name = env.unwrapped.action_to_string(env.legal_actions()[0])
    before = _snapshot(env)
    for bad in NOT_ACTIONS:
        with pytest.raises(ValueError) as info:
            env.step(bad)
        assert repr(bad) in str(info.value) and legal_name in str(info.value)
        assert _same(before, _snapshot(env)), f"step({bad!r}) changed the env"


@pytest.mark.parametrize("game", GAMES)
def test_numpy_integers_are_actions(game):
    module, options = GAMES[game]
    a, b = module.raw_env(**options), module.raw_env(**options)
    a.reset(seed=1)
    b.reset(seed=1)
    for kind in (np.int64, np.int32, np.uint8, lambda x: np.array(x, dtype=np.int16)):
        if not a.agents:
            break
        action = a.legal_actions()[-1]
        a.step(kind(action))
        b.step(int(action))
        assert _same(_snapshot(a), _snapshot(b))


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_action_changes_nothing_not_even_a_pending_points_reward(game):
    module, options = GAMES[game]
    envs = _positions_with_pending_reward(module, options)
    assert envs, "no position with a pending reward was found"
    for env in envs:
        before = _snapshot(env)
        assert before["cumulative"][before["agent_selection"]] != 0
        illegal = [a for a in range(env.action_space(env.agent_selection).n) if a not in before["legal"]]
        for bad in [illegal[0], illegal[-1], -1, 10_000, 0.5, "draw"]:
            with pytest.raises(ValueError):
                env.step(bad)
            assert _same(before, _snapshot(env)), f"a refused step({bad!r}) changed the env"


@pytest.mark.parametrize("game", GAMES)
def test_wrapped_env_refuses_non_integers_instead_of_truncating_them(game):
    module, options = GAMES[game]
    env = module.env(**options)
    env.reset(seed=0)
    before = _snapshot(env)
    for bad in (0.7, "1", True):
        with pytest.raises(ValueError, match="not an integer action id"):
            env.step(bad)
    assert _same(before, _snapshot(env))


def test_single_agent_env_refuses_non_integer_actions():
    env = gymnasium.make("dixenv/DixSolo-v0", difficulty=5)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="0.7"):
        env.step(0.7)
    with pytest.raises(ValueError, match="True"):
        env.step(True)
    obs, *_ = env.step(np.int64(np.flatnonzero(env.unwrapped.action_masks())[0]))
    assert obs.shape == env.observation_space.shape


def test_dix_deck_spec_error_names_the_option():
    with pytest.raises(ValueError, match=r"deck_spec.*X9"):
        dix_v0.raw_env(deck_spec={"X9": 1})


@pytest.mark.parametrize("implied", [{"solo": True}, {"solo": False}, {"num_players": 2}])
def test_dix_solo_gym_env_says_solo_is_implied(implied):
    key = next(iter(implied))
    with pytest.raises(ValueError, match=rf"{key}.*always the solo game"):
        gymnasium.make("dixenv/DixSolo-v0", **implied)


GYM_IDS = [
    ("dixenv/DixSolo-v0", {"difficulty": 4}),
    ("dixenv/DixSolo-v0", {"difficulty": 10, "auto_pay": True, "reward": "points"}),
    ("dixenv/LeDix-v0", {"num_players": 3, "opponents": "random"}),
    ("dixenv/LeDix-v0", {"num_players": 5, "scoring": "oh_hell", "hook": True, "opponents": "random"}),
    ("dixenv/DixDeSuite-v0", {"num_players": 2, "opponents": "random", "max_turns": 100}),
    ("dixenv/DixDeSuite-v0", {"num_players": 4, "teams": True, "reshuffle": True, "opponents": "random", "max_turns": 100}),
    ("dixenv/Dix-v0", {"num_players": 2, "opponents": "random"}),
    ("dixenv/Dix-v0", {"num_players": 5, "bust_buy": True, "opponents": "random"}),
]


@pytest.mark.parametrize("env_id, options", GYM_IDS)
def test_check_env_passes_with_no_warning_on_every_registered_id(env_id, options):
    assert env_id in gymnasium.registry
    env = gymnasium.make(env_id, **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=True)
    assert [str(w.message) for w in caught] == []
    space = env.observation_space
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()


def test_every_registered_dixenv_id_is_covered():
    registered = {k for k in gymnasium.registry if k.startswith("dixenv/")}
    assert registered == {env_id for env_id, _ in GYM_IDS}
    assert dixenv.GAMES


@pytest.mark.parametrize("module", [le_dix_v0, dix_de_suite_v0, dix_v0])
def test_render_fps_is_declared(module):
    assert module.raw_env.metadata["render_fps"] > 0
