"""dix through its env: action strings, illegal moves, rendering, clones, rewards, forced moves (PettingZoo conformance: tests/test_conformance.py)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from dixenv import dix_v0
from dixenv.games.dix import actions as A

def test_action_strings_round_trip_over_the_whole_space():
    env = dix_v0.raw_env()
    assert env.action_space("player_0").n == A.NUM_ACTIONS == 178
    for a in range(A.NUM_ACTIONS):
        assert env.string_to_action(env.action_to_string(a)) == a
    assert env.action_to_string(0) == "draw" and env.action_to_string(A.PASS) == "pass"
    assert env.string_to_action("bid 99") == 101 and env.string_to_action("buy P9") == 138
    assert env.string_to_action("Pay  b7") == env.string_to_action("pay B7")


def test_illegal_action_raises_naming_it_and_the_legal_ones_and_changes_nothing():
    env = dix_v0.raw_env()
    env.reset(seed=0, options={"deck": ["B3", "G1"], "first_player": 0})
    before = env.state.clone()
    with pytest.raises(ValueError, match=r"illegal action 103 \(buy B1\).*legal: draw, take numbers, take money"):
        env.step(env.string_to_action("buy B1"))
    assert env.state.render_text() == before.render_text() and env.state.legal_actions() == before.legal_actions()


def test_wrapped_env_makes_an_illegal_move_lose():
    env = dix_v0.env(num_players=2)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert sorted(env.rewards.values()) == [-1, 0]


def test_render_ansi_shows_the_table():
    env = dix_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "dix" in text and "player_2" in text and "tableau" in text and "market" in text
    solo = dix_v0.env(solo=True, render_mode="ansi")
    solo.reset(seed=0)
    assert "ALIX" in solo.render()


def test_reset_with_the_same_seed_replays_the_same_game():
    a, b = dix_v0.raw_env(num_players=4), dix_v0.raw_env(num_players=4)
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.state.pile == b.state.pile and a.state.active == b.state.active
    a.reset(seed=8)
    assert a.state.pile != b.state.pile


def test_clone_and_pickle_give_independent_equal_states():
    env = dix_v0.raw_env(num_players=3)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(60):
        legal = env.state.legal_actions()
        env.state.apply_action(legal[rng.integers(len(legal))])
    state = env.state
    for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
        assert copy.render_text() == state.render_text() and copy.legal_actions() == state.legal_actions()
        assert copy.scores() == state.scores() and copy.pile == state.pile
        text = state.render_text()
        while copy.current_player() >= 0:
            copy.apply_action(copy.legal_actions()[-1])
        assert state.render_text() == text  # the original did not move
        assert list(state.collections[0]) != list(copy.collections[0]) or state.pile != copy.pile


def test_points_reward_pays_score_changes_as_they_happen():
    env = dix_v0.env(num_players=2, reward="points")
    env.reset(seed=0, options={"deck": ["B1", "B2", "G1"], "first_player": 0})
    env.step(env.unwrapped.string_to_action("draw"))
    env.step(env.unwrapped.string_to_action("take numbers"))  # B1 B2: 2 points (the buy is forced)
    assert env.rewards["player_0"] == 2 and env.rewards["player_1"] == 0


@pytest.mark.parametrize("options", [{"num_players": 3}, {"solo": True}])
def test_auto_forced_asks_only_real_decisions_and_off_asks_every_one(options):
    counts = {}
    for auto_forced in (True, False):
        env = dix_v0.env(auto_forced=auto_forced, **options)
        rng = np.random.default_rng(0)
        singles = 0
        for game in range(3):
            env.reset(seed=game)
            state = env.unwrapped.state
            assert len(state.pile) == sum(state.config.box) - 1  # the first draw is made for the player
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                singles += len(legal) == 1
                env.step(int(rng.choice(legal)))
        counts[auto_forced] = singles
    assert counts[True] == 0 and counts[False] > 0
