"""Bad options and bad decks fail with a ValueError that names the problem."""

from __future__ import annotations

import pytest

from dixenv import le_dix_v0


@pytest.mark.parametrize(
    "options, message",
    [
        ({"num_players": 2}, "num_players"),
        ({"num_players": 6}, "num_players"),
        ({"num_players": "4"}, "num_players"),
        ({"deals": ()}, "deals"),
        ({"deals": (0,)}, "deals"),
        ({"num_players": 5, "deals": (11,)}, "deals"),
        ({"deals": "10"}, "deals"),
        ({"scoring": "bridge"}, r"scoring.*exact10.*oh_hell"),
        ({"hook": 1}, "hook"),
        ({"reward": "score"}, r"reward.*win.*points"),
        ({"auto_forced": "yes"}, "auto_forced"),
        ({"render_mode": "rgb"}, r"render_mode.*ansi"),
        ({"trumps": True}, "trumps"),
    ],
)
def test_bad_option_is_rejected_at_construction(options, message):
    with pytest.raises(ValueError, match=message):
        le_dix_v0.raw_env(**options)


@pytest.mark.parametrize(
    "scenario, message",
    [
        ({"deck": ["2S", "XX"]}, "XX"),
        ({"deck": ["2S", "2S"] + ["3S"] * 0}, "2S"),
        ({"deck": ["2S", "3S", "4S"]}, "needs at least"),
        ({"deck": "2S 3S"}, "deck"),
        ({"dealer": 3}, "dealer"),
        ({"dealer": -1}, "dealer"),
    ],
)
def test_bad_scenario_is_rejected_at_reset(scenario, message):
    env = le_dix_v0.raw_env(num_players=3, deals=(1,))
    with pytest.raises(ValueError, match=message):
        env.reset(seed=0, options=scenario)


def test_unknown_reset_option_warns_naming_it():
    env = le_dix_v0.raw_env()
    with pytest.warns(UserWarning, match="dealr"):
        env.reset(seed=0, options={"dealr": 1})


def test_unknown_action_string_names_the_vocabulary():
    env = le_dix_v0.raw_env()
    with pytest.raises(ValueError, match=r"'play 1X'.*bid N"):
        env.string_to_action("play 1X")
    with pytest.raises(ValueError, match="bid 11"):
        env.string_to_action("bid 11")


def test_out_of_range_action_id_is_rejected():
    env = le_dix_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action 999"):
        env.step(999)
