"""PettingZoo conformance of dix de suite for 2, 3 and 4 players and every variant; the engine alone."""

from __future__ import annotations

import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

import dixenv  # noqa: F401  (registers the PettingZoo id)
from dixenv import dix_de_suite_v0
from dixenv.games.dix_de_suite.actions import ACTION_NAMES, NUM_ACTIONS
from dixenv.games.dix_de_suite.game import GAME

from .helpers import band_player

COMMON = [
    {},
    {"reshuffle": True},
    {"run_bonus": True},
    {"reward": "points"},
    {"auto_forced": False},
    {"max_turns": 25},  # random play reaches the turn limit: the truncation path
    {"max_turns": 40, "reshuffle": True, "run_bonus": True, "reward": "points", "target_score": 100},
]
CASES = [(n, o) for n in (2, 3, 4) for o in COMMON] + [
    (2, {"two_player_run": True}),
    (2, {"two_player_run": True, "run_bonus": True, "max_turns": 30}),
    (4, {"teams": True}),
    (4, {"teams": True, "max_turns": 15, "reward": "points"}),
    (4, {"teams": True, "run_bonus": True, "reshuffle": True}),
]


def _id(case):
    n, o = case
    return f"{n}p-" + (",".join(f"{k}={v}" for k, v in o.items()) or "default")


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_api_and_seed(case):
    n, options = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's generic advice about Dict spaces
        api_test(dix_de_suite_v0.env(num_players=n, **options), num_cycles=150)
        seed_test(lambda: dix_de_suite_v0.env(num_players=n, **options), num_cycles=150)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_whole_game_through_env_ends_with_zero_sum_win_rewards(n):
    env = dix_de_suite_v0.env(num_players=n, target_score=150)
    env.reset(seed=n)
    rng = np.random.default_rng(n)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            assert term and not trunc
            env.step(None)
            continue
        action = band_player(env.unwrapped.state, rng, eps=0.1)
        assert obs["action_mask"][action] == 1
        env.step(action)
    assert sum(totals.values()) == pytest.approx(0.0)
    assert max(totals.values()) > 0
    assert max(env.unwrapped.scores()) >= 150


def test_points_rewards_add_up_to_the_scores():
    env = dix_de_suite_v0.env(num_players=3, target_score=200, reward="points")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else band_player(env.unwrapped.state, rng))
    assert [totals[a] for a in env.possible_agents] == env.unwrapped.scores()


def test_the_engine_alone_plays_with_default_options():
    state = GAME.new_state(GAME.make_config(), np.random.default_rng(0), {})
    steps = 0
    while state.current_player() >= 0:
        legal = state.legal_actions()
        state.apply_action(legal[steps % len(legal)])
        steps += 1
    assert state.is_truncated() and steps == 2 * GAME.make_config().max_turns


def test_clone_is_independent_and_replays_identically():
    state = GAME.new_state(GAME.make_config(num_players=3), np.random.default_rng(3), {})
    rng = np.random.default_rng(0)
    for _ in range(50):
        state.apply_action(band_player(state, rng))
    copy = state.clone()
    moves = []
    while state.current_player() >= 0 and len(moves) < 3000:
        moves.append(band_player(state, rng))
        state.apply_action(moves[-1])
    for m in moves:
        copy.apply_action(m)
    assert copy.racks == state.racks and copy.scores() == state.scores() and copy.round == state.round
    assert copy.draw_pile == state.draw_pile and copy.discard == state.discard


def test_action_strings_round_trip():
    env = dix_de_suite_v0.raw_env()
    assert NUM_ACTIONS == 13 and env.action_space("player_0").n == 13
    for a in range(NUM_ACTIONS):
        assert env.string_to_action(env.action_to_string(a)) == a
    assert ACTION_NAMES[0] == "draw" and ACTION_NAMES[1] == "take discard"
    assert env.action_to_string(2) == "swap 1" and env.action_to_string(11) == "swap 10" and env.action_to_string(12) == "discard"
    assert env.string_to_action("  Swap   7 ") == 8


@pytest.mark.skipif(not hasattr(pettingzoo, "aec_registry"), reason="PettingZoo's registry is new in 1.27")
def test_registered_with_pettingzoo():
    env = pettingzoo.make("aec", "dixenv/dix_de_suite-v0", num_players=4)
    env.reset(seed=0)
    assert env.possible_agents == [f"player_{i}" for i in range(4)]


def test_render_ansi_returns_the_table_as_text():
    env = dix_de_suite_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "Round 1" in text and "player_2" in text and "Discard pile" in text


def test_observation_layout_covers_the_vector_without_gaps():
    env = dix_de_suite_v0.raw_env(num_players=4)
    layout = env.observation_layout()
    spans = sorted((s.start, s.stop) for s in layout.values())
    assert spans[0][0] == 0 and all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert spans[-1][1] == env.observation_space("player_0")["observation"].shape[0]


def test_there_are_no_forced_moves_so_auto_forced_changes_nothing():
    a = dix_de_suite_v0.raw_env(auto_forced=True)
    b = dix_de_suite_v0.raw_env(auto_forced=False)
    a.reset(seed=4)
    b.reset(seed=4)
    for i in range(200):
        assert len(a.legal_actions()) >= 2
        move = a.legal_actions()[i % 2]
        a.step(move)
        b.step(move)
        assert a.state.racks == b.state.racks and a.agent_selection == b.agent_selection
