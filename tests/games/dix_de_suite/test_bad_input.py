"""Bad options, scenario decks and actions fail with a ValueError that names the problem."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from dixenv import dix_de_suite_v0
from dixenv.games.dix_de_suite.game import GAME

from .helpers import DESC_2, make, stacked_deck


@pytest.mark.parametrize(
    "options, words",
    [
        ({"num_players": 1}, ["num_players", "[2, 3, 4]"]),
        ({"num_players": 5}, ["num_players", "[2, 3, 4]"]),
        ({"num_players": "2"}, ["num_players"]),
        ({"target_score": 0}, ["target_score"]),
        ({"target_score": 12.5}, ["target_score"]),
        ({"max_turns": 0}, ["max_turns"]),
        ({"max_turns": True}, ["max_turns"]),
        ({"reshuffle": "yes"}, ["reshuffle", "True or False"]),
        ({"run_bonus": 1}, ["run_bonus"]),
        ({"teams": True}, ["teams", "num_players=4"]),
        ({"teams": True, "num_players": 3}, ["teams", "num_players=4"]),
        ({"two_player_run": True, "num_players": 3}, ["two_player_run", "num_players=2"]),
        ({"two_player_run": True, "num_players": 4}, ["two_player_run", "num_players=2"]),
        ({"reward": "score"}, ["reward", "win", "points"]),
        ({"render_mode": "rgb"}, ["render_mode"]),
        ({"players": 3}, ["players", "num_players"]),
    ],
)
def test_bad_options_raise_value_error_naming_the_option(options, words):
    with pytest.raises(ValueError) as info:
        dix_de_suite_v0.env(**options)
    for w in words:
        assert w in str(info.value)


def _reset(deck, num_players=2, **scenario):
    env = dix_de_suite_v0.raw_env(num_players=num_players)
    env.reset(seed=0, options={"deck": deck, **scenario})
    return env


@pytest.mark.parametrize(
    "deck, words",
    [
        (list(range(1, 21)), ["20 cards", "21"]),  # one short of 2 × 10 + 1
        (list(range(1, 21)) + [5], ["duplicate card 5"]),
        (list(range(1, 21)) + [41], ["41", "1..40"]),
        (list(range(1, 21)) + [0], ["0"]),
        (list(range(1, 21)) + ["x"], ["'x'"]),
        (list(range(1, 21)) + [True], ["True"]),
        (list(range(1, 21)) + [2.0], ["2.0"]),
        ("1 2 3", ["list"]),
        (21, ["list"]),
    ],
)
def test_bad_decks_raise_value_error_naming_the_problem(deck, words):
    with pytest.raises(ValueError) as info:
        _reset(deck)
    for w in words:
        assert w in str(info.value)


def test_deck_card_limits_follow_the_player_count():
    ok = list(range(1, 31)) + [50]
    assert _reset(ok, num_players=3).state.discard == [50]
    with pytest.raises(ValueError, match="51"):
        _reset(list(range(1, 31)) + [51], num_players=3)
    assert len(_reset(list(range(1, 42)), num_players=4).state.draw_pile) == 60 - 41
    with pytest.raises(ValueError, match="40 cards"):
        _reset(list(range(1, 41)), num_players=4)


def test_deck_accepts_numpy_ints_and_digit_strings():
    deck = stacked_deck(DESC_2, 1)
    a = _reset(np.array(deck), dealer=0)
    b = _reset([str(c) for c in deck], dealer=np.int64(0))
    assert a.state.racks == b.state.racks == [DESC_2[0], DESC_2[1]]


@pytest.mark.parametrize("dealer", [-1, 2, "0", 1.0])
def test_bad_dealer_raises_value_error(dealer):
    with pytest.raises(ValueError, match="dealer"):
        _reset(stacked_deck(DESC_2, 1), dealer=dealer)


def test_unknown_reset_option_warns_and_is_ignored():
    env = dix_de_suite_v0.raw_env()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.reset(seed=0, options={"dealr": 1})
    assert any("dealr" in str(w.message) for w in caught)


def test_illegal_action_raises_naming_the_legal_actions_and_changes_nothing():
    env = make(DESC_2, 1, draw=[2])
    before = env.state.clone()
    with pytest.raises(ValueError) as info:
        env.step(env.string_to_action("swap 3"))
    assert "swap 3" in str(info.value) and "draw" in str(info.value) and "take discard" in str(info.value)
    with pytest.raises(ValueError):
        env.step(13)
    with pytest.raises(ValueError):
        env.state.apply_action(0.0)
    state = env.state
    assert state.racks == before.racks and state.discard == before.discard and state.draw_pile == before.draw_pile
    assert state.phase == before.phase and state.current_player() == before.current_player()


def test_illegal_action_in_wrapped_env_loses_the_game():
    env = dix_de_suite_v0.env()
    env.reset(seed=0)
    offender = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(env.unwrapped.string_to_action("discard"))
    assert env.rewards[offender] == -1.0
    assert all(env.terminations.values())


def test_unknown_action_string_raises():
    env = dix_de_suite_v0.raw_env()
    with pytest.raises(ValueError, match="swap 11"):
        env.string_to_action("swap 11")


def test_engine_rejects_unknown_scenario_value_types():
    with pytest.raises(ValueError, match="deck"):
        GAME.new_state(GAME.make_config(), np.random.default_rng(0), {"deck": {1: 2}})
