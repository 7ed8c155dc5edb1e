"""``le_dix_v0.env(engine="compiled")`` plays exactly the Python env's games, step for step.

Both envs are stepped side by side with the same seeds and moves: after every move the same agent
to act, the same ``last()`` (observation bit for bit, mask, reward, termination, truncation, info),
every agent's observation, and ``rewards`` / ``_cumulative_rewards`` in every reward mode; the next
game of an unseeded ``reset()`` continues the generator as the Python env's does. Then what the
compiled env refuses (rendering, the move log, scenario decks, the Python state) and how it refuses
an illegal move: the Python env's errors, nothing changed.
"""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

import dixenv.dix_de_suite_v0 as dix_de_suite_v0  # noqa: E402
import dixenv.dix_v0 as dix_v0  # noqa: E402
import dixenv.le_dix_v0 as le_dix_v0  # noqa: E402
from dixenv.compiled.aec import CompiledCardGameEnv  # noqa: E402

#: Every option: 3, 4, 5 players, short schedules (forced bids under the hook), the largest hand
#: (3 players, 17 cards), both scorings, the hook, every reward mode, forced moves played or not.
OPTION_SETS = [
    {"num_players": 3, "deals": (3, 1)},
    {"num_players": 4, "deals": (3, 1), "reward": "points"},
    {"num_players": 5, "deals": (2, 1), "reward": "margin"},
    {"num_players": 4, "deals": (1, 3), "scoring": "oh_hell", "auto_forced": False},
    {"num_players": 3, "deals": (2, 1), "hook": True},
    {"num_players": 5, "deals": (3, 1), "hook": True, "scoring": "oh_hell", "reward": "points", "auto_forced": False},
    {"num_players": 3, "deals": (17,), "scoring": "oh_hell"},
    {"num_players": 4},
]
IDS = [",".join(f"{k}={v}" for k, v in o.items()) for o in OPTION_SETS]


def _same(a, b, where: str) -> None:
    assert a.agent_selection == b.agent_selection, where
    assert a.agents == b.agents, where
    la, lb = a.last(), b.last()
    assert np.array_equal(la[0]["observation"], lb[0]["observation"]), where
    assert np.array_equal(la[0]["action_mask"], lb[0]["action_mask"]), where
    assert la[0]["observation"].dtype == lb[0]["observation"].dtype == np.float32
    assert la[1:] == lb[1:], where
    assert a.rewards == b.rewards and a._cumulative_rewards == b._cumulative_rewards, where
    assert a.terminations == b.terminations and a.truncations == b.truncations and a.infos == b.infos, where
    for agent in a.agents:
        oa, ob = a.observe(agent), b.observe(agent)
        assert np.array_equal(oa["observation"], ob["observation"]), (where, agent)
        assert np.array_equal(oa["action_mask"], ob["action_mask"]), (where, agent)


def _play_side_by_side(a, b, rng: np.random.Generator, where: str) -> int:
    """Random legal moves in both until the game ends, then the dead agents' steps; the moves played."""
    moves = 0
    while True:
        _same(a, b, f"{where} move {moves}")
        obs, _, term, trunc, _ = a.last()
        if term or trunc:
            break
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        a.step(action)
        b.step(action)
        moves += 1
    while a.agents:  # PettingZoo's loop: every dead agent steps None
        a.step(None)
        b.step(None)
        assert a.agents == b.agents and a.agent_selection == b.agent_selection
    return moves


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_the_compiled_env_plays_the_python_envs_games_step_for_step(options):
    python, compiled = le_dix_v0.env(**options), le_dix_v0.env(engine="compiled", **options)
    rng = np.random.default_rng(len(IDS))
    moves = 0
    for seed in (0, 1, 2):
        python.reset(seed=seed)
        compiled.reset(seed=seed)
        moves += _play_side_by_side(python, compiled, rng, f"seed {seed}")
        python.reset()  # unseeded: the next game of the same generator
        compiled.reset()
        moves += _play_side_by_side(python, compiled, rng, f"seed {seed}, next game")
    assert moves > 50


def test_the_raw_compiled_env_refuses_an_illegal_move_as_the_python_env_and_changes_nothing():
    python = le_dix_v0.raw_env(num_players=4)
    compiled = CompiledCardGameEnv(le_dix_v0.raw_env, num_players=4)
    python.reset(seed=3)
    compiled.reset(seed=3)
    legal = compiled.legal_actions()
    assert legal == python.legal_actions()
    illegal = next(a for a in range(compiled._num_actions) if a not in legal)
    agent = compiled.agent_selection
    before = {a: compiled.observe(a)["observation"] for a in compiled.agents}
    arrays = (compiled.state.ints.copy(), compiled.state.seats.copy(), compiled.state.cards.copy(), compiled.state.rng.copy())
    with pytest.raises(ValueError, match=r"illegal action .*legal: "):
        compiled.step(illegal)
    with pytest.raises(ValueError, match="illegal action"):
        python.step(illegal)
    with pytest.raises(ValueError, match="not an integer action id"):
        compiled.step(1.0)
    assert compiled.agent_selection == agent
    for a, obs in before.items():
        assert np.array_equal(compiled.observe(a)["observation"], obs)
    for kept, now in zip(arrays, (compiled.state.ints, compiled.state.seats, compiled.state.cards, compiled.state.rng)):
        assert np.array_equal(kept, now)
    # and the game goes on as the Python one
    python.step(legal[0])
    compiled.step(legal[0])
    _same(python, compiled, "after the refused moves")


def test_the_wrapped_compiled_env_ends_the_game_on_an_illegal_move_as_the_python_env():
    envs = [le_dix_v0.env(num_players=3), le_dix_v0.env(engine="compiled", num_players=3)]
    for env in envs:
        env.reset(seed=9)
        illegal = next(a for a in range(env.action_space(env.agent_selection).n) if not env.last()[0]["action_mask"][a])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env.step(illegal)
    _same(*envs, "after an illegal move")
    assert min(envs[1].rewards.values()) == -1


def test_copies_of_a_compiled_env_continue_as_the_original():
    env = le_dix_v0.env(engine="compiled", num_players=4, deals=(3, 2))
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(7):
        legal = np.flatnonzero(env.last()[0]["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        original = copy.deepcopy(env)
        _play_side_by_side(original, twin, np.random.default_rng(6), "copy")


def test_the_compiled_env_refuses_what_needs_the_python_engine():
    with pytest.raises(ValueError, match="render_mode='ansi'.*engine='python'"):
        le_dix_v0.env(engine="compiled", render_mode="ansi")
    with pytest.raises(ValueError, match="record_events=True.*engine='python'"):
        le_dix_v0.env(engine="compiled", record_events=True)
    with pytest.raises(ValueError, match=r"option engine='fast' is not allowed; allowed values: \['python', 'compiled'\]"):
        le_dix_v0.env(engine="fast")
    for module in (dix_v0, dix_de_suite_v0):
        with pytest.raises(ValueError, match=r"engine='compiled' single environments exist for \['le_dix'\]"):
            module.env(engine="compiled")
    with pytest.raises(ValueError, match="num_players"):  # the game's own option errors, as on the Python engine
        le_dix_v0.env(engine="compiled", num_players=9)
    env = le_dix_v0.env(engine="compiled", num_players=3)
    env.reset(seed=1)
    before = env.last()[0]["observation"]
    with pytest.raises(ValueError, match=r"reset options \['deck'\].*engine='python'"):
        env.reset(seed=2, options={"deck": ["2C"] * 52})
    assert np.array_equal(env.last()[0]["observation"], before)  # the refused reset changed nothing
    with pytest.raises(AttributeError, match="engine='python'"):
        env.unwrapped.state.hands
    assert env.unwrapped.metadata["engine"] == "compiled"
    assert env.unwrapped.metadata["name"] == "le_dix_v0"


def test_the_compiled_env_passes_pettingzoo_api_and_seed_tests():
    from pettingzoo.test import api_test, seed_test

    for options in ({"num_players": 3}, {"num_players": 5, "hook": True, "deals": (3, 1), "auto_forced": False}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # api_test's generic advice about Dict spaces
            api_test(le_dix_v0.env(engine="compiled", **options), num_cycles=300)
            seed_test(lambda: le_dix_v0.env(engine="compiled", **options), num_cycles=300)


def test_bench_single_table_measures_the_compiled_env_beside_the_python_one(capsys):
    from dixenv.experiments import bench

    bench.main(["--games", "le_dix", "--players", "3", "--seconds", "0.05", "--rounds", "1", "--no-memory"])
    out = capsys.readouterr().out
    rows = {line.split()[2]: line for line in out.splitlines() if line.startswith("le_dix ")}
    assert {"env", "env(compiled)"} <= set(rows), out
    assert float(rows["env(compiled)"].split()[3].replace(",", "")) > 0
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return
    assert "3 players: le_dix env(compiled) / OpenSpiel rl_environment = " in out
