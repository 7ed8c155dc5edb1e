"""le_dix through its env: rendering and seeded resets (the PettingZoo conformance of every game and option set: tests/test_conformance.py)."""

from __future__ import annotations



from dixenv import le_dix_v0

def test_render_ansi_returns_the_table_as_text():
    env = le_dix_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "le_dix" in text and "trump" in text and "player_2" in text


def test_reset_with_the_same_seed_replays_the_same_game():
    a, b = le_dix_v0.raw_env(), le_dix_v0.raw_env()
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.state.hands == b.state.hands and a.state.dealer == b.state.dealer
