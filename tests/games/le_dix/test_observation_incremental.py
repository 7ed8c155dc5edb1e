"""The incremental observer (``set_from``, ``observation``) writes exactly what a full write gives.

``LeDixObserver.set_from`` keeps a table of the last state it saw and rewrites only what changed;
``set_from_full`` writes every piece from the state. Every test here compares the two, bit for
bit, for every seat, along random games and across clones, samples, resets and new games.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from dixenv import le_dix_v0
from dixenv.core.aec import play_forced
from dixenv.games.le_dix.config import make_config
from dixenv.games.le_dix.observation import LeDixObserver
from dixenv.games.le_dix.state import LeDixState

OPTION_SETS = [
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 5},
    {"num_players": 3, "deals": (3, 2, 1)},
    {"num_players": 4, "deals": (3, 2, 1), "hook": True},
    {"num_players": 5, "hook": True, "scoring": "oh_hell"},
    {"num_players": 4, "deals": (12, 1, 5), "scoring": "oh_hell"},
]
OPTION_IDS = ["-".join(f"{k}={v}" for k, v in o.items()) for o in OPTION_SETS]


def _full(config, state: LeDixState, seat: int) -> np.ndarray:
    """``seat``'s observation of ``state`` by a fresh observer's full write."""
    reference = LeDixObserver(config)
    reference.set_from_full(state, seat)
    return reference.tensor.copy()


def _assert_same(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.dtype == want.dtype == np.float32 and got.shape == want.shape, what
    assert got.tobytes() == want.tobytes(), f"{what}: differs at {np.flatnonzero(got != want).tolist()}"


def _check_all_seats(observer: LeDixObserver, config, state: LeDixState, rng: np.random.Generator, what: str) -> None:
    """Every seat, in a random order, by ``set_from`` and by ``observation``, against a full write."""
    for seat in rng.permutation(config.num_players).tolist():
        want = _full(config, state, seat)
        observer.set_from(state, seat)
        _assert_same(observer.tensor, want, f"{what}, set_from, seat {seat}")
        _assert_same(observer.observation(state, seat), want, f"{what}, observation, seat {seat}")


def _random_move(state: LeDixState, rng: np.random.Generator) -> None:
    legal = state.legal_actions()
    state.apply_action(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("options", OPTION_SETS, ids=OPTION_IDS)
@pytest.mark.parametrize("auto_forced", [False, True])
def test_incremental_observation_equals_a_full_write_at_every_step_for_every_seat(options, auto_forced):
    config = make_config(**options)
    observer = LeDixObserver(config)  # one observer for all the games: each new game follows the last
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = LeDixState(config, np.random.default_rng(100 + seed), {})
        if auto_forced:
            play_forced(state, None)
        step = 0
        while state.current_player() >= 0:
            _check_all_seats(observer, config, state, rng, f"seed {seed}, step {step}")
            _random_move(state, rng)
            if auto_forced:
                play_forced(state, None)
            step += 1
        _check_all_seats(observer, config, state, rng, f"seed {seed}, game over")


@pytest.mark.parametrize("options", OPTION_SETS, ids=OPTION_IDS)
def test_incremental_observation_equals_a_full_write_when_seats_are_seen_seldom(options):
    """One seat now and then, several moves apart (deals end in between): the table catches up."""
    config = make_config(**options)
    observer = LeDixObserver(config)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        state = LeDixState(config, np.random.default_rng(200 + seed), {})
        while state.current_player() >= 0:
            for _ in range(int(rng.integers(1, 3 * config.num_players))):
                if state.current_player() < 0:
                    break
                _random_move(state, rng)
            seat = int(rng.integers(config.num_players))
            want = _full(config, state, seat)
            if rng.random() < 0.5:
                observer.set_from(state, seat)
                _assert_same(observer.tensor, want, f"seed {seed}, seat {seat}")
            else:
                _assert_same(observer.observation(state, seat), want, f"seed {seed}, seat {seat}")


@pytest.mark.parametrize("options", OPTION_SETS, ids=OPTION_IDS)
def test_one_observer_across_clones_samples_and_new_games_equals_a_full_write(options):
    """States that jump about (clones played on differently, sample_hidden worlds, fresh games, an
    older position again): whatever state comes next, the observation is the full write's."""
    config = make_config(**options)
    observer = LeDixObserver(config)
    rng = np.random.default_rng(7)
    pool = [LeDixState(config, np.random.default_rng(300 + k), {}) for k in range(2)]
    for step in range(400):
        pick = rng.random()
        state = pool[int(rng.integers(len(pool)))]
        if pick < 0.15:
            state = state.clone()
            pool.append(state)
        elif pick < 0.3 and state.current_player() >= 0:
            seat = int(rng.integers(config.num_players))
            state = state.sample_hidden(seat, rng)
            pool.append(state)
        elif pick < 0.35:
            state = LeDixState(config, np.random.default_rng(int(rng.integers(1 << 30))), {})
            pool.append(state)
        elif pick < 0.4 and len(pool) > 1:
            state = pool[0]  # an older position, maybe of another deal
        if state.current_player() >= 0 and rng.random() < 0.7:
            _random_move(state, rng)
        seat = int(rng.integers(config.num_players))
        want = _full(config, state, seat)
        observer.set_from(state, seat)
        _assert_same(observer.tensor, want, f"step {step}, seat {seat}")
        if len(pool) > 12:
            pool = pool[-8:]


def test_sample_hidden_worlds_observe_like_the_state_for_the_sampling_seat():
    """A world sampled for a seat gives that seat the state's observation, by the incremental observer too."""
    config = make_config(num_players=4, deals=(5, 3))
    observer = LeDixObserver(config)
    rng = np.random.default_rng(3)
    state = LeDixState(config, np.random.default_rng(4), {})
    while state.current_player() >= 0:
        seat = state.current_player()
        want = _full(config, state, seat)
        for _ in range(3):
            world = state.sample_hidden(seat, rng)
            observer.set_from(world, seat)
            _assert_same(observer.tensor, want, "sampled world")
            observer.set_from(state, seat)
            _assert_same(observer.tensor, want, "the state after a world")
        _random_move(state, rng)


@pytest.mark.parametrize("options", OPTION_SETS[:4], ids=OPTION_IDS[:4])
@pytest.mark.parametrize("auto_forced", [False, True])
def test_env_observations_equal_a_full_write_across_resets_and_copies(options, auto_forced):
    """The AEC env's observe (every agent, every step), through resets, and for deepcopied and pickled envs."""
    env = le_dix_v0.raw_env(auto_forced=auto_forced, **options)
    config = env.config
    rng = np.random.default_rng(5)
    for game in range(3):
        env.reset(seed=game)
        steps = 0
        while not all(env.terminations.values()):
            for agent in env.possible_agents:
                want = _full(config, env.state, env._seat_of[agent])
                _assert_same(env.observe(agent)["observation"], want, f"game {game}, step {steps}, {agent}")
            if steps == 5:
                for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
                    for agent in env.possible_agents:
                        want = _full(config, env.state, env._seat_of[agent])
                        _assert_same(twin.observe(agent)["observation"], want, f"copy, {agent}")
                    legal = twin.legal_actions()
                    twin.step(legal[0])
                    agent = twin.agent_selection
                    _assert_same(twin.observe(agent)["observation"], _full(config, twin.state, twin._seat_of[agent]),
                                 "copy after a step")
            legal = env.legal_actions()
            env.step(legal[int(rng.integers(len(legal)))])
            steps += 1


def test_observer_copies_start_afresh_and_match_the_full_write():
    """A deepcopied, pickled or shallow-copied observer shares no table with the original."""
    config = make_config(num_players=3, deals=(4, 2))
    observer = LeDixObserver(config)
    rng = np.random.default_rng(9)
    state = LeDixState(config, np.random.default_rng(10), {})
    for _ in range(6):
        _random_move(state, rng)
    observer.set_from(state, 0)
    twins = [copy.deepcopy(observer), pickle.loads(pickle.dumps(observer)), copy.copy(observer)]
    for twin in twins:
        assert twin._table is None
    while state.current_player() >= 0:
        for seat in range(3):
            want = _full(config, state, seat)
            for twin in [observer, *twins]:
                _assert_same(twin.observation(state, seat), want, f"seat {seat}")
        _random_move(state, rng)


def test_observation_is_a_new_array_each_call():
    config = make_config(num_players=3)
    observer = LeDixObserver(config)
    state = LeDixState(config, np.random.default_rng(0), {})
    first, second = observer.observation(state, 0), observer.observation(state, 0)
    assert first is not second and not np.shares_memory(first, second)
    assert not np.shares_memory(first, observer.tensor)
    first[:] = 7.0
    _assert_same(observer.observation(state, 0), _full(config, state, 0), "after changing a returned array")


def test_other_seat_values_take_the_full_path_with_its_results_and_errors():
    config = make_config(num_players=3)
    observer = LeDixObserver(config)
    state = LeDixState(config, np.random.default_rng(0), {})
    observer.set_from(state, np.int64(1))
    _assert_same(observer.tensor, _full(config, state, 1), "numpy seat")
    _assert_same(observer.observation(state, np.int64(2)), _full(config, state, 2), "numpy seat, observation")
    with pytest.raises(IndexError):
        observer.set_from(state, 3)
    with pytest.raises(TypeError):
        observer.set_from(state, 1.0)


def test_an_error_while_updating_drops_the_table_so_the_next_call_is_right():
    """A state that makes the write fail leaves no half-updated table behind."""
    config = make_config(num_players=3)
    observer = LeDixObserver(config)
    rng = np.random.default_rng(1)
    state = LeDixState(config, np.random.default_rng(2), {})
    while state.bids.count(None) > 1:
        _random_move(state, rng)
    observer.set_from(state, 0)
    broken = state.clone()
    broken.bids = ["not a bid" if b is not None else None for b in broken.bids]
    with pytest.raises(TypeError):
        observer.set_from_full(broken, 0)
    with pytest.raises(TypeError):
        observer.set_from(broken, 0)
    for seat in range(3):
        observer.set_from(state, seat)
        _assert_same(observer.tensor, _full(config, state, seat), f"seat {seat} after the error")


def test_states_that_differ_only_in_the_previous_deal_observe_like_a_full_write():
    """The previous-deal block is rewritten when only it changes (the rest of the table stays)."""
    config = make_config(num_players=3, deals=(2, 2, 2))
    rng = np.random.default_rng(11)
    states = []
    for seed in (12, 13):
        state = LeDixState(config, np.random.default_rng(seed), {})
        while state.deal_index < 1:
            _random_move(state, rng)
        states.append(state)
    same_but_prev = states[0].clone()
    same_but_prev.prev = states[1].prev
    no_prev = states[0].clone()
    no_prev.prev = None
    observer = LeDixObserver(config)
    for state in [states[0], same_but_prev, states[0], no_prev, same_but_prev, no_prev, states[0]]:
        for seat in range(3):
            observer.set_from(state, seat)
            _assert_same(observer.tensor, _full(config, state, seat), f"seat {seat}")
