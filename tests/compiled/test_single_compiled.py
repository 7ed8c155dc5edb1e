"""``<game>_v0.env(engine="compiled")`` plays exactly the Python env's games, step for step.

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
from dixenv.compiled.aec import CompiledCardGameEnv, compiled_state_class  # noqa: E402
from dixenv.experiments.soak import sorting_move  # noqa: E402
from tests.compiled.test_dix_compiled import CUSTOM_DECK  # noqa: E402

#: le_dix: 3, 4, 5 players, short schedules (forced bids under the hook), the largest hand (3
#: players, 17 cards), both scorings, the hook. dix_de_suite: 2, 3, 4 players, teams, every variant,
#: small targets (several rounds) and turn limits (truncations). dix: 2–5 players, solo against
#: ALIX at three difficulties, both variants, another box of cards. Every reward mode, forced moves
#: played or not.
CASES = [
    (le_dix_v0, {"num_players": 3, "deals": (3, 1)}),
    (le_dix_v0, {"num_players": 4, "deals": (3, 1), "reward": "points"}),
    (le_dix_v0, {"num_players": 5, "deals": (2, 1), "reward": "margin"}),
    (le_dix_v0, {"num_players": 4, "deals": (1, 3), "scoring": "oh_hell", "auto_forced": False}),
    (le_dix_v0, {"num_players": 3, "deals": (2, 1), "hook": True}),
    (le_dix_v0, {"num_players": 5, "deals": (3, 1), "hook": True, "scoring": "oh_hell", "reward": "points",
                 "auto_forced": False}),
    (le_dix_v0, {"num_players": 3, "deals": (17,), "scoring": "oh_hell"}),
    (le_dix_v0, {"num_players": 4}),
    (dix_de_suite_v0, {"num_players": 2, "target_score": 100, "max_turns": 400}),
    (dix_de_suite_v0, {"num_players": 3, "target_score": 100, "max_turns": 400, "reward": "points"}),
    (dix_de_suite_v0, {"num_players": 4, "teams": True, "target_score": 150, "max_turns": 400, "reward": "margin"}),
    (dix_de_suite_v0, {"num_players": 2, "two_player_run": True, "run_bonus": True, "target_score": 100,
                       "auto_forced": False}),
    (dix_de_suite_v0, {"num_players": 3, "reshuffle": True, "run_bonus": True, "target_score": 100, "max_turns": 400}),
    (dix_de_suite_v0, {"num_players": 4, "teams": True, "reshuffle": True, "max_turns": 40}),
    (dix_de_suite_v0, {"num_players": 2, "max_turns": 30, "reward": "points"}),
    (dix_v0, {"num_players": 2}),
    (dix_v0, {"num_players": 3, "auto_pay": True, "reward": "points"}),
    (dix_v0, {"num_players": 5, "bust_buy": True, "reward": "margin", "auto_forced": False}),
    (dix_v0, {"solo": True, "difficulty": 4}),
    (dix_v0, {"solo": True, "difficulty": 7, "bust_buy": True, "reward": "margin"}),
    (dix_v0, {"solo": True, "difficulty": 10, "auto_pay": True, "reward": "points"}),
    (dix_v0, {"num_players": 3, "deck_spec": CUSTOM_DECK}),
]
IDS = [m.__name__.split(".")[-1] + ":" + ",".join(f"{k}={'custom' if k == 'deck_spec' else v}" for k, v in o.items())
       for m, o in CASES]


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
    """The same moves in both until the game ends, then the dead agents' steps; the moves played.

    Moves are random legal ones, but in dix_de_suite, when ``a`` is the Python env, mostly the soak's
    sorting rule (read from ``a``'s state), as random moves alone rarely end a round.
    """
    moves = 0
    while True:
        _same(a, b, f"{where} move {moves}")
        obs, _, term, trunc, _ = a.last()
        if term or trunc:
            break
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        if a.unwrapped.game.name == "dix_de_suite" and not isinstance(a.unwrapped, CompiledCardGameEnv) and rng.random() < 0.8:
            action = int(sorting_move(a.unwrapped.state))
        a.step(action)
        b.step(action)
        moves += 1
    while a.agents:  # PettingZoo's loop: every dead agent steps None
        a.step(None)
        b.step(None)
        assert a.agents == b.agents and a.agent_selection == b.agent_selection
    return moves


@pytest.mark.parametrize("module, options", CASES, ids=IDS)
def test_the_compiled_env_plays_the_python_envs_games_step_for_step(module, options):
    python, compiled = module.env(**options), module.env(engine="compiled", **options)
    rng = np.random.default_rng(len(options))
    moves = 0
    for seed in (0, 1, 2):
        python.reset(seed=seed)
        compiled.reset(seed=seed)
        moves += _play_side_by_side(python, compiled, rng, f"seed {seed}")
        python.reset()  # unseeded: the next game of the same generator
        compiled.reset()
        moves += _play_side_by_side(python, compiled, rng, f"seed {seed}, next game")
    assert moves > 50


EVERY_GAME = pytest.mark.parametrize("module, options", [(le_dix_v0, {"num_players": 4, "deals": (3, 2)}),
                                                         (dix_de_suite_v0, {"num_players": 3, "target_score": 100}),
                                                         (dix_v0, {"solo": True, "difficulty": 6})],
                                      ids=["le_dix", "dix_de_suite", "dix_solo"])


@EVERY_GAME
def test_the_raw_compiled_env_refuses_an_illegal_move_as_the_python_env_and_changes_nothing(module, options):
    python = module.raw_env(**options)
    compiled = CompiledCardGameEnv(module.raw_env, **options)
    python.reset(seed=3)
    compiled.reset(seed=3)
    legal = compiled.legal_actions()
    assert legal == python.legal_actions()
    illegal = next(a for a in range(compiled._num_actions) if a not in legal)
    agent = compiled.agent_selection
    before = {a: compiled.observe(a)["observation"] for a in compiled.agents}
    arrays = [a.copy() for a in _arrays(compiled.state)]
    with pytest.raises(ValueError, match=r"illegal action .*legal: "):
        compiled.step(illegal)
    with pytest.raises(ValueError, match="illegal action"):
        python.step(illegal)
    with pytest.raises(ValueError, match="not an integer action id"):
        compiled.step(1.0)
    assert compiled.agent_selection == agent
    for a, obs in before.items():
        assert np.array_equal(compiled.observe(a)["observation"], obs)
    for kept, now in zip(arrays, _arrays(compiled.state)):
        assert np.array_equal(kept, now)
    # and the game goes on as the Python one
    python.step(legal[0])
    compiled.step(legal[0])
    _same(python, compiled, "after the refused moves")


@EVERY_GAME
def test_the_wrapped_compiled_env_ends_the_game_on_an_illegal_move_as_the_python_env(module, options):
    envs = [module.env(**options), module.env(engine="compiled", **options)]
    for env in envs:
        env.reset(seed=9)
        illegal = next(a for a in range(env.action_space(env.agent_selection).n) if not env.last()[0]["action_mask"][a])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env.step(illegal)
    _same(*envs, "after an illegal move")
    assert min(envs[1].rewards.values()) == -1


@EVERY_GAME
def test_copies_of_a_compiled_env_continue_as_the_original(module, options):
    env = module.env(engine="compiled", **options)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(7):
        legal = np.flatnonzero(env.last()[0]["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        original = copy.deepcopy(env)
        _play_side_by_side(original, twin, np.random.default_rng(6), "copy")


def _arrays(state) -> list[np.ndarray]:
    """The arrays a compiled one-game state keeps its game in."""
    return [v for v in vars(state).values() if isinstance(v, np.ndarray) and v.flags.writeable]


def test_the_compiled_env_refuses_what_needs_the_python_engine():
    with pytest.raises(ValueError, match="render_mode='ansi'.*engine='python'"):
        le_dix_v0.env(engine="compiled", render_mode="ansi")
    with pytest.raises(ValueError, match="record_events=True.*engine='python'"):
        le_dix_v0.env(engine="compiled", record_events=True)
    with pytest.raises(ValueError, match=r"option engine='fast' is not allowed; allowed values: \['python', 'compiled'\]"):
        le_dix_v0.env(engine="fast")
    with pytest.raises(ValueError, match=r"single environments exist for \['dix', 'dix_de_suite', 'le_dix'\], not 'toy'"):
        compiled_state_class("toy")  # the test-only game (tests/toy_game.py) has no compiled engine
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


@pytest.mark.parametrize("module, options", [
    (le_dix_v0, {"num_players": 3}), (le_dix_v0, {"num_players": 5, "hook": True, "deals": (3, 1), "auto_forced": False}),
    (dix_de_suite_v0, {"num_players": 2}), (dix_de_suite_v0, {"num_players": 4, "teams": True, "max_turns": 40}),
    (dix_v0, {"num_players": 4}), (dix_v0, {"solo": True, "difficulty": 8}),
], ids=["le_dix-3p", "le_dix-5p-hook", "dix_de_suite-2p", "dix_de_suite-4p-teams", "dix-4p", "dix-solo"])
def test_the_compiled_env_passes_pettingzoo_api_and_seed_tests(module, options):
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's generic advice about Dict spaces
        api_test(module.env(engine="compiled", **options), num_cycles=300)
        seed_test(lambda: module.env(engine="compiled", **options), num_cycles=300)


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


@EVERY_GAME
def test_observation_agents_play_on_the_compiled_env_and_search_agents_name_the_python_engine(module, options):
    from dixenv.agents.registry import make_agent

    games = [module.env(**options), module.env(engine="compiled", **options)]
    for env in games:
        env.reset(seed=3)
        agents = {a: make_agent(env.unwrapped.game.name, "heuristic", env, seed=1) for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else agents[agent].act(obs))
    assert games[0].unwrapped.scores() == games[1].unwrapped.scores()  # the same game, move for move
    env = module.env(engine="compiled", **options)
    env.reset(seed=1)
    search = make_agent(env.unwrapped.game.name, "ismcts:iterations=5", env, seed=1)
    with pytest.raises(AttributeError, match="engine='python'"):
        search.act(env.last()[0])
