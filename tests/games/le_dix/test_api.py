"""PettingZoo conformance of le_dix for every player count and option set."""

from __future__ import annotations

import warnings

import pytest
from pettingzoo.test import api_test, seed_test

from dixenv import le_dix_v0

OPTION_SETS = [
    {},
    {"hook": True},
    {"scoring": "oh_hell"},
    {"reward": "points"},
    {"auto_forced": False},
    {"deals": (5,)},
    {"deals": (3, 1), "hook": True, "scoring": "oh_hell", "reward": "points", "auto_forced": False},
]


@pytest.mark.parametrize("num_players", [3, 4, 5])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_api_and_seed(num_players, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's generic advice about Dict spaces
        api_test(le_dix_v0.env(num_players=num_players, **options), num_cycles=300)
        seed_test(lambda: le_dix_v0.env(num_players=num_players, **options), num_cycles=300)


def test_render_ansi_returns_the_table_as_text():
    env = le_dix_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "le_dix" in text and "trump" in text and "player_2" in text


def test_observation_layout_covers_the_vector_without_gaps():
    env = le_dix_v0.raw_env(num_players=4)
    layout = env.observation_layout()
    stops = sorted((s.start, s.stop) for s in layout.values())
    assert stops[0][0] == 0
    assert all(a[1] == b[0] for a, b in zip(stops, stops[1:]))
    assert stops[-1][1] == env.observation_space("player_0")["observation"].shape[0]


def test_reset_with_the_same_seed_replays_the_same_game():
    a, b = le_dix_v0.raw_env(), le_dix_v0.raw_env()
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.state.hands == b.state.hands and a.state.dealer == b.state.dealer
