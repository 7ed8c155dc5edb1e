"""dix de suite through its env and engine: rewards, clones, action strings, rendering (PettingZoo conformance: tests/test_conformance.py)."""

from __future__ import annotations


import numpy as np
import pytest

from dixenv import dix_de_suite_v0
from dixenv.games.dix_de_suite.actions import ACTION_NAMES, NUM_ACTIONS
from dixenv.games.dix_de_suite.game import GAME

from .helpers import band_player

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


def test_render_ansi_returns_the_table_as_text():
    env = dix_de_suite_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "Round 1" in text and "player_2" in text and "Discard pile" in text


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
