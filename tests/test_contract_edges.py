"""The public API at its edges, as other libraries and their tutorials use it: option probing
(TorchRL), ``gymnasium.make_vec``, ``module:id`` spellings, PettingZoo releases without a registry,
and clear refusals of bad input that change nothing."""

from __future__ import annotations

import copy
import importlib.metadata
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import dixenv
from dixenv import dix_de_suite_v0, dix_v0, le_dix_v0
from dixenv.core.options import ENV_OPTIONS, UnknownOptionError
from dixenv.vector import VECTOR_IDS, VectorEnv

MODULES = [dix_v0, dix_de_suite_v0, le_dix_v0]
MODULE_IDS = ["dix", "dix_de_suite", "le_dix"]


# --- options -------------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_every_single_agent_id_takes_illegal_action_raise(env_id):
    env = gymnasium.make(env_id, illegal_action="raise", **({} if env_id.endswith("Solo-v0") else {"opponents": "random"}))
    _, info = env.reset(seed=0)
    masked = np.flatnonzero(info["action_mask"] == 0)
    illegal = int(masked[0]) if len(masked) else len(info["action_mask"])  # every action legal: one past the space
    with pytest.raises(ValueError, match=f"{illegal}"):
        env.step(illegal)


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_an_unknown_option_is_a_value_error_and_the_type_error_option_probes_expect(env_id):
    # TorchRL's GymEnv tries gymnasium.make(id, frameskip=...) and drops the option only on a
    # TypeError saying "unexpected keyword argument 'frameskip'".
    with pytest.raises(UnknownOptionError) as err:
        gymnasium.make(env_id, frameskip=4)
    assert isinstance(err.value, ValueError) and isinstance(err.value, TypeError)
    assert "unexpected keyword argument 'frameskip'" in str(err.value)


@pytest.mark.parametrize("module", MODULES, ids=MODULE_IDS)
def test_an_unknown_option_names_every_option_the_env_takes(module):
    with pytest.raises(ValueError, match="unexpected keyword argument 'colour'") as err:
        module.raw_env(colour="blue", num_players=3)
    for name in ("num_players", *ENV_OPTIONS):
        assert name in str(err.value)


def test_torchrl_gym_env_rolls_out_on_the_solo_game():
    torchrl_gym = pytest.importorskip("torchrl.envs.libs.gym")
    env = torchrl_gym.GymEnv("dixenv/DixSolo-v0")
    rollout = env.rollout(20)
    assert rollout.batch_size[0] >= 1
    assert rollout["observation"].shape[-1] == gymnasium.make("dixenv/DixSolo-v0").observation_space.shape[0]


def test_dix_de_suite_takes_a_numpy_integer_player_count_as_the_other_games_do():
    for module in MODULES:
        env = module.raw_env(num_players=np.int64(3))
        assert env.config.num_players == 3 and type(env.config.num_players) is int
    with pytest.raises(ValueError, match="num_players"):
        dix_de_suite_v0.raw_env(num_players=True)


# --- registration --------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_make_vec_gives_dixenv_vector_env_with_the_options(env_id):
    env = gymnasium.make_vec(env_id, 3, reward="points")
    assert isinstance(env, VectorEnv) and env.num_envs == 3
    assert env.env_id == env_id and env._reward_mode == "points"
    obs, _ = env.reset(seed=0)
    assert obs.shape == (3, env.single_observation_space.shape[0])


def test_the_module_prefixed_id_works_in_vector_env_as_in_gymnasium_make():
    spelled = "dixenv:dixenv/DixSolo-v0"
    gymnasium.make(spelled)
    env = VectorEnv(spelled, 2)
    plain = VectorEnv("dixenv/DixSolo-v0", 2)
    assert env.env_id == "dixenv/DixSolo-v0"
    assert np.array_equal(env.reset(seed=4)[0], plain.reset(seed=4)[0])
    with pytest.raises(ValueError, match="no_such_module"):
        VectorEnv("no_such_module:dixenv/DixSolo-v0", 2)


def test_a_script_that_does_not_import_dixenv_makes_the_prefixed_id():
    code = "import gymnasium; env = gymnasium.make_vec('dixenv:dixenv/DixSolo-v0', 2); print(type(env).__name__)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "VectorEnv"


def test_import_works_with_a_pettingzoo_that_has_no_registry():
    # pettingzoo < 1.27 (which AgileRL pins) has no aec_registry: the envs work, only
    # pettingzoo.make("aec", ...) is not offered. CI runs the env suite on the oldest supported release.
    code = (
        "import pettingzoo\n"
        "for name in ('aec_registry', 'register', 'make'):\n"
        "    if hasattr(pettingzoo, name): delattr(pettingzoo, name)\n"
        "import dixenv, gymnasium\n"
        "from dixenv import le_dix_v0\n"
        "env = le_dix_v0.env(); env.reset(seed=0)\n"
        "gymnasium.make('dixenv/LeDix-v0', opponents='random').reset(seed=0)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "ok"


def test_the_version_has_one_source():
    assert dixenv.__version__ == importlib.metadata.version("dixenv")


# --- reset ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", ["deck", 5, ["deck"]])
def test_reset_options_must_be_a_mapping(options):
    for make in (lambda: dix_v0.raw_env(), lambda: dix_v0.env()):
        with pytest.raises(ValueError, match="reset options must be a mapping"):
            make().reset(seed=0, options=options)
    with pytest.raises(ValueError, match="reset options must be a mapping"):
        gymnasium.make("dixenv/DixSolo-v0").reset(seed=0, options=options)
    with pytest.raises(ValueError, match="reset options must be a mapping"):
        VectorEnv("dixenv/DixSolo-v0", 2).reset(seed=0, options=options)


BAD_DECKS = {
    "dix": {"deck": ["B1", "Q9"]},
    "dix_de_suite": {"deck": [1, 1]},
    "le_dix": {"deck": ["TH", "XX"]},
}


@pytest.mark.parametrize("module", MODULES, ids=MODULE_IDS)
def test_a_refused_reset_changes_nothing_and_the_move_log_goes_on(module):
    game = module.__name__.split(".")[-1][:-3]
    env = module.raw_env(record_events=True)
    env.reset(seed=3)
    agent = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    before = (copy.deepcopy(env.state), list(env.events), env._rng.bit_generator.state, env.observe(env.agent_selection))
    for seed in (None, 9):
        with pytest.raises(ValueError):
            env.reset(seed=seed, options=BAD_DECKS[game])
    state, events, rng_state, obs = before
    assert env._rng.bit_generator.state == rng_state
    assert env.events == events and env.state.events is env.events
    now = env.observe(env.agent_selection)
    assert np.array_equal(now["observation"], obs["observation"]) and np.array_equal(now["action_mask"], obs["action_mask"])
    logged = len(env.events)
    env.step(int(np.flatnonzero(now["action_mask"])[0]))
    assert len(env.events) > logged, "moves after a refused reset are logged"


# --- steps and actions ---------------------------------------------------------------------------


@pytest.mark.parametrize("illegal_action", ["raise", "lose"])
def test_stepping_after_the_end_says_the_game_is_over(illegal_action):
    env = gymnasium.make("dixenv/LeDix-v0", num_players=3, opponents="random", deals=(1,), illegal_action=illegal_action)
    _, info = env.reset(seed=0)
    done = False
    while not done:
        _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = term or trunc
    with pytest.raises(RuntimeError, match="game is over.*reset"):
        env.step(0)


def test_stepping_after_an_illegal_action_lost_the_game_says_the_game_is_over():
    env = gymnasium.make("dixenv/DixSolo-v0")
    _, info = env.reset(seed=0)
    _, reward, term, *_ = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert reward == -1.0 and term
    with pytest.raises(RuntimeError, match="game is over"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


@pytest.mark.parametrize("module", MODULES, ids=MODULE_IDS)
@pytest.mark.parametrize("bad", [1.5, "3", True, None, -1, 10_000])
def test_action_to_string_takes_action_ids_only(module, bad):
    env = module.raw_env()
    with pytest.raises(ValueError, match="not an action id"):
        env.action_to_string(bad)


@pytest.mark.parametrize("module", MODULES, ids=MODULE_IDS)
def test_action_to_string_takes_numpy_integers(module):
    env = module.raw_env()
    assert env.action_to_string(np.int64(0)) == env.action_to_string(0)


@pytest.mark.parametrize("module", MODULES, ids=MODULE_IDS)
def test_unflatten_refuses_a_vector_of_another_size(module):
    env = module.raw_env()
    env.reset(seed=0)
    flat = env.observe(env.agent_selection)["observation"]
    assert set(env.layout.unflatten(flat)) == set(env.observation_layout())
    for wrong in (np.append(flat, 0.0), flat[:-1], flat.reshape(1, -1)):
        with pytest.raises(ValueError, match=f"shape \\({flat.size},\\)"):
            env.layout.unflatten(wrong)


@pytest.mark.parametrize("engine, refusal", [("python", "Q9"), ("compiled", "engine='python'")])
def test_a_refused_vector_reset_changes_no_game(engine, refusal):
    """The Python engine refuses the bad deck; the compiled one refuses every scenario deck. Neither changes a game."""
    if engine == "compiled":
        pytest.importorskip("numba")
    env = VectorEnv("dixenv/DixSolo-v0", 2, engine=engine)
    env.reset(seed=5)
    env.step(np.argmax(env.action_masks(), axis=1))
    twin = copy.deepcopy(env)
    for seed in (None, 1):
        with pytest.raises(ValueError, match=refusal):
            env.reset(seed=seed, options=BAD_DECKS["dix"])
    rng = np.random.default_rng(0)
    for _ in range(30):
        masks = env.action_masks()
        assert np.array_equal(masks, twin.action_masks())
        actions = np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)
        a, b = env.step(actions), twin.step(actions)
        assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4]))
