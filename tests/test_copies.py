"""Copies of environments, states and observers continue exactly as the original.

``copy.deepcopy``, ``pickle`` and a state's ``clone()`` of every kind of env (AEC raw and wrapped,
every Gymnasium id, ``dixenv.vector.VectorEnv``) taken mid-game, then stepped with the same
actions as the original: every observation, mask, reward, termination and truncation must be
equal bit for bit. Observers keep numpy views into their tensor (and layouts keep one per piece);
a copy must rebuild them on its own tensor, or parts of its observation are never written.
"""

from __future__ import annotations

import copy
import importlib
import pickle

import gymnasium
import numpy as np
import pytest

import dixenv  # noqa: F401  (registers the ids)
from dixenv.core.game import Game
from dixenv.games import game_spec

#: Steps compared after the copy (games are played to the end or to this many steps).
MAX_STEPS = 120

# (game, options, moves before the copy): player counts, variants and difficulties of each game,
# in short games (max_turns, deals), copied late enough that the copies reach the game's end (by
# its rules or truncated) within MAX_STEPS; the reshuffle cases after one or two reshuffles.
AEC_CASES = [
    ("dix", {}, 100),
    ("dix", {"num_players": 3, "auto_pay": True}, 100),
    ("dix", {"num_players": 5, "bust_buy": True, "reward": "points"}, 230),
    ("dix", {"solo": True, "difficulty": 4}, 10),
    ("dix", {"solo": True, "difficulty": 10, "bust_buy": True, "auto_forced": False}, 8),
    ("dix_de_suite", {"max_turns": 60}, 15),
    ("dix_de_suite", {"num_players": 2, "two_player_run": True, "run_bonus": True, "max_turns": 80}, 45),
    ("dix_de_suite", {"num_players": 3, "reshuffle": True, "max_turns": 120, "reward": "points"}, 140),
    ("dix_de_suite", {"num_players": 4, "teams": True, "reshuffle": True, "max_turns": 140, "reward": "margin"}, 200),
    ("le_dix", {"num_players": 3, "deals": (3, 1)}, 5),
    ("le_dix", {"num_players": 4, "deals": (4, 2), "scoring": "oh_hell"}, 12),
    ("le_dix", {"num_players": 5, "deals": (2, 3), "hook": True, "reward": "points"}, 7),
]
AEC_IDS = [f"{g}-{i}" for i, (g, _, _) in enumerate(AEC_CASES)]

COPIES = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda obj: pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)),
}

GYM_CASES = [
    ("dixenv/DixSolo-v0", {"difficulty": 6}, 6),
    ("dixenv/DixSolo-v0", {"difficulty": 9, "auto_pay": True, "reward": "points"}, 4),
    ("dixenv/Dix-v0", {"num_players": 3, "opponents": ["random", "heuristic"], "learner_seat": 1}, 10),
    ("dixenv/DixDeSuite-v0", {"num_players": 2, "opponents": "heuristic", "max_turns": 60}, 8),
    ("dixenv/DixDeSuite-v0", {"num_players": 4, "teams": True, "reshuffle": True, "opponents": "random", "max_turns": 100}, 12),
    ("dixenv/LeDix-v0", {"num_players": 3, "opponents": "random", "deals": (3, 1)}, 2),
    ("dixenv/LeDix-v0", {"num_players": 4, "opponents": "heuristic", "deals": (3, 2), "learner_seat": 2}, 3),
]
GYM_IDS = [f"{env_id.split('/')[1]}-{i}" for i, (env_id, _, _) in enumerate(GYM_CASES)]


def _raw(game: str, options: dict):
    return importlib.import_module(f"dixenv.{game}_v0").raw_env(**options)


def _wrapped(game: str, options: dict):
    return importlib.import_module(f"dixenv.{game}_v0").env(**options)


def _over(env) -> bool:
    agent = env.agent_selection
    return not env.agents or env.terminations[agent] or env.truncations[agent]


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))]) if len(legal) else 0  # none: an ended vector slot, ignored


def _assert_same_aec(a, b, where: str) -> None:
    """Everything an AEC env shows: agent to act, every agent's observation and mask, rewards, ends."""
    assert a.agents == b.agents, where
    assert a.agent_selection == b.agent_selection, where
    for agent in a.possible_agents:
        x, y = a.observe(agent), b.observe(agent)
        assert x["observation"].dtype == y["observation"].dtype, where
        assert np.array_equal(x["observation"], y["observation"]), f"{where}: observation of {agent} differs"
        assert np.array_equal(x["action_mask"], y["action_mask"]), f"{where}: action mask of {agent} differs"
    for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
        assert getattr(a, name) == getattr(b, name), f"{where}: {name} differ"


def _play_aec(env, rng: np.random.Generator, moves: int) -> None:
    for _ in range(moves):
        if _over(env):
            return
        env.step(_random_legal(env.observe(env.agent_selection)["action_mask"], rng))


def _step_together_aec(original, copies: list, rng: np.random.Generator, steps: int = MAX_STEPS) -> None:
    for twin in copies:
        _assert_same_aec(original, twin, "right after the copy")
    for t in range(steps):
        if _over(original):
            break
        action = _random_legal(original.observe(original.agent_selection)["action_mask"], rng)
        for env in [original, *copies]:
            env.step(action)
        for twin in copies:
            _assert_same_aec(original, twin, f"step {t} after the copy")


@pytest.mark.parametrize("game, options, moves", AEC_CASES, ids=AEC_IDS)
@pytest.mark.parametrize("make", [_raw, _wrapped], ids=["raw_env", "env"])
def test_aec_copies_continue_as_the_original(make, game, options, moves):
    env = make(game, options)
    env.reset(seed=3)
    _play_aec(env, np.random.default_rng(7), moves)
    assert not _over(env), "the case's game ends before the copy: fewer moves"
    copies = [c(env) for c in COPIES.values()]
    _step_together_aec(env, copies, np.random.default_rng(8))
    assert _over(env), "the copies did not reach the end: more moves before the copy"


@pytest.mark.parametrize("game, options, moves", AEC_CASES, ids=AEC_IDS)
def test_aec_copies_before_reset_and_after_the_end(game, options, moves):
    """A copy of a fresh env resets like it; a copy of a finished env shows the same end and resets like it."""
    env = _raw(game, options)
    fresh = [c(env) for c in COPIES.values()]
    for e in [env, *fresh]:
        e.reset(seed=5)
    _step_together_aec(env, fresh, np.random.default_rng(1), steps=20)
    _play_aec(env, np.random.default_rng(2), 10_000)
    assert _over(env)
    ended = [c(env) for c in COPIES.values()]
    _step_together_aec(env, ended, np.random.default_rng(3), steps=1)  # no steps left: the game ended
    for e in [env, *ended]:
        e.reset(seed=6)
    _step_together_aec(env, ended, np.random.default_rng(4), steps=20)


@pytest.mark.parametrize("game, options, moves", AEC_CASES, ids=AEC_IDS)
def test_observer_copies_encode_like_the_original(game, options, moves):
    """A copied observer (alone) writes the same tensor as the original, into its own tensor."""
    env = _raw(game, options)
    env.reset(seed=9)
    _play_aec(env, np.random.default_rng(10), moves - 10)
    observer = env._observer
    copies = [c(observer) for c in COPIES.values()] + [copy.deepcopy(pickle.loads(pickle.dumps(observer, protocol=0)))]
    for twin in copies:
        assert twin.tensor is not observer.tensor and twin.tensor is twin.layout.tensor
        twin.tensor[:] = np.arange(twin.tensor.size)
        for name, view in twin.layout.views.items():
            assert np.shares_memory(view, twin.tensor), f"layout view {name} detached from the tensor"
            assert np.array_equal(view.ravel(), twin.tensor[twin.layout.slices[name]])
    rng = np.random.default_rng(11)
    for t in range(30):
        for seat in env._seat_of.values():
            observer.set_from(env.state, seat)
            for twin in copies:
                twin.tensor[:] = np.nan  # every entry must be written by set_from
                twin.set_from(env.state, seat)
                assert np.array_equal(observer.tensor, twin.tensor), f"move {t}, seat {seat}"
        if _over(env):
            break
        _play_aec(env, rng, 1)


@pytest.mark.parametrize("game, options, moves", AEC_CASES, ids=AEC_IDS)
def test_state_clone_continues_as_the_original(game, options, moves):
    """A state's ``clone()`` (and its deepcopy and pickle) encodes and plays on like the state."""
    env = _raw(game, options)
    env.reset(seed=11)
    _play_aec(env, np.random.default_rng(12), moves)
    state = env.state
    clones = [state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))]
    observers = [env.game.make_observer(env.config) for _ in clones]
    reference = env.game.make_observer(env.config)
    rng = np.random.default_rng(13)
    for t in range(MAX_STEPS):
        for seat in range(state.num_seats):
            reference.set_from(state, seat)
            for clone, observer in zip(clones, observers):
                observer.set_from(clone, seat)
                assert np.array_equal(reference.tensor, observer.tensor), f"move {t}, seat {seat}"
        for clone in clones:
            assert clone.current_player() == state.current_player()
            assert clone.legal_actions() == state.legal_actions()
            assert clone.scores() == state.scores()
            assert clone.is_terminal() == state.is_terminal() and clone.is_truncated() == state.is_truncated()
        if state.current_player() < 0:
            break
        legal = state.legal_actions()
        action = legal[rng.integers(len(legal))]
        for s in [state, *clones]:
            s.apply_action(action)


def _assert_same_step(a: tuple, b: tuple, where: str) -> None:
    obs_a, *rest_a, info_a = a
    obs_b, *rest_b, info_b = b
    assert obs_a.dtype == obs_b.dtype and np.array_equal(obs_a, obs_b), f"{where}: observation differs"
    for x, y in zip(rest_a, rest_b):
        assert type(x) is type(y) and x == y, f"{where}: {rest_a} != {rest_b}"
    assert sorted(info_a) == sorted(info_b), where
    for key, x in info_a.items():
        assert np.array_equal(x, info_b[key]), f"{where}: info[{key!r}] differs"


@pytest.mark.parametrize("env_id, options, moves", GYM_CASES, ids=GYM_IDS)
def test_gymnasium_copies_continue_as_the_original(env_id, options, moves):
    env = gymnasium.make(env_id, **options)
    env.reset(seed=21)
    rng = np.random.default_rng(22)
    for _ in range(moves):
        _, _, terminated, truncated, _ = env.step(_random_legal(env.unwrapped.action_masks(), rng))
        assert not (terminated or truncated), "the case's game ends before the copy: fewer moves"
    copies = [c(env) for c in COPIES.values()]
    for twin in copies:
        assert np.array_equal(twin.unwrapped._observe(), env.unwrapped._observe())
    for t in range(MAX_STEPS):
        mask = env.unwrapped.action_masks()
        for twin in copies:
            assert np.array_equal(mask, twin.unwrapped.action_masks()), f"step {t}: masks differ"
        action = _random_legal(mask, rng)
        result = env.step(action)
        for twin in copies:
            _assert_same_step(result, twin.step(action), f"step {t} after the copy")
        if result[2] or result[3]:
            break
    else:
        pytest.fail("the copies did not reach the end: more moves before the copy")
    # and the next episode too (the opponents' generators were copied)
    results = [e.reset(seed=23) for e in [env, *copies]]
    for r in results[1:]:
        _assert_same_step((results[0][0], results[0][1]), (r[0], r[1]), "after reset")


def test_every_gymnasium_id_is_covered():
    ours = {env_id for env_id in gymnasium.registry if env_id.startswith("dixenv/")}
    assert ours == {env_id for env_id, _, _ in GYM_CASES}


VECTOR_CASES = [
    ("dixenv/DixSolo-v0", {"difficulty": 6}),
    ("dixenv/Dix-v0", {"num_players": 3, "opponents": "random"}),
    ("dixenv/DixDeSuite-v0", {"num_players": 3, "opponents": "random", "max_turns": 40}),
    ("dixenv/LeDix-v0", {"num_players": 4, "opponents": "random", "deals": (3, 1)}),
]


@pytest.mark.parametrize("copier", list(COPIES), ids=list(COPIES))
@pytest.mark.parametrize("env_id, options", VECTOR_CASES, ids=[c[0].split("/")[1] for c in VECTOR_CASES])
def test_vector_env_copies_continue_as_the_original(env_id, options, copier):
    from dixenv.vector import VectorEnv

    venv = VectorEnv(env_id, 3, **options)
    venv.reset(seed=31)
    rng = np.random.default_rng(32)
    for _ in range(5):
        masks = venv.action_masks()
        venv.step(np.array([_random_legal(m, rng) for m in masks]))
    twin = COPIES[copier](venv)
    assert np.array_equal(twin._observations(), venv._observations())
    for t in range(60):  # past the first episodes' ends: autoreset included
        masks = venv.action_masks()
        assert np.array_equal(masks, twin.action_masks()), f"step {t}: masks differ"
        actions = np.array([_random_legal(m, rng) for m in masks])
        a, b = venv.step(actions), twin.step(actions)
        for name, x, y in zip(("observations", "rewards", "terminations", "truncations"), a[:4], b[:4]):
            assert x.dtype == y.dtype and np.array_equal(x, y), f"step {t}: {name} differ"
        assert np.array_equal(a[4]["action_mask"], b[4]["action_mask"]), f"step {t}: info masks differ"


@pytest.mark.parametrize("game", dixenv.GAMES)
def test_game_records_pickle_and_copy_to_equal_records(game):
    # A record's fields are module-level functions (pickled by name), so the copy is an equal record
    # whose functions are the very same objects.
    record = game_spec(game).game_record()
    for back in (pickle.loads(pickle.dumps(record)), copy.deepcopy(record)):
        assert back == record
        assert all(getattr(back, f) is getattr(record, f) for f in record.__dataclass_fields__ if f != "name")


def test_game_default_agent_seats_is_picklable():
    from dixenv.core.game import all_seats

    assert pickle.loads(pickle.dumps(all_seats)) is all_seats
    assert Game.__dataclass_fields__["agent_seats"].default is all_seats
