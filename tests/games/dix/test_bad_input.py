"""Bad options, compositions and decks fail with a ValueError that names the problem."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv import dix_v0
from dixenv.games.dix.cards import DeckSpec, parse_card
from tests.games.dix.helpers import new_state


@pytest.mark.parametrize(
    "options, message",
    [
        ({"num_players": 1}, "num_players"),
        ({"num_players": 6}, "num_players"),
        ({"num_players": "3"}, "num_players"),
        ({"solo": True, "num_players": 3}, r"num_players=3.*solo"),
        ({"solo": "yes"}, "solo"),
        ({"solo": True, "difficulty": 3}, r"difficulty.*4 to 10"),
        ({"solo": True, "difficulty": 11}, r"difficulty.*4 to 10"),
        ({"solo": True, "difficulty": 6.0}, "difficulty"),
        ({"difficulty": 6}, r"difficulty.*solo=True"),
        ({"bust_buy": 1}, "bust_buy"),
        ({"auto_pay": None}, "auto_pay"),
        ({"deck_spec": {"B0": 3}}, "B0"),
        ({"deck_spec": {"B1": -1}}, r"B1.*copies"),
        ({"deck_spec": {"B1": (2, 6)}}, r"B1.*mark"),
        ({"deck_spec": {"B1": "3"}}, "B1"),
        ({"deck_spec": {"B1": 1, "b1": 2}}, "twice"),
        ({"deck_spec": ["B1"]}, "deck_spec"),
        ({"deck_spec": {"B1": (3,)}}, r"deck_spec.*no card for 2 players"),
        ({"reward": "score"}, r"reward.*win.*points"),
        ({"auto_forced": "yes"}, "auto_forced"),
        ({"render_mode": "rgb"}, r"render_mode.*ansi"),
        ({"players": 3}, "players"),
    ],
)
def test_bad_option_is_rejected_at_construction(options, message):
    with pytest.raises(ValueError, match=message):
        dix_v0.raw_env(**options)


def test_a_malformed_deck_spec_object_is_rejected():
    with pytest.raises(ValueError, match="DeckSpec"):
        DeckSpec(((2,),))


@pytest.mark.parametrize(
    "scenario, message",
    [
        ({"deck": ["B1", "X9"]}, "X9"),
        ({"deck": ["B1", "$6"]}, r"\$6"),
        ({"deck": ["B1", "B1"]}, r"B1 2 times.*only 1"),  # one B1 at two players
        ({"deck": ["W3", "W3"]}, "W3"),
        ({"deck": []}, "empty"),
        ({"deck": "B1 B2"}, "deck"),
        ({"deck": [7]}, "7"),
        ({"first_player": 2}, "first_player"),
        ({"first_player": -1}, "first_player"),
        ({"first_player": "0"}, "first_player"),
    ],
)
def test_bad_scenario_is_rejected_at_reset(scenario, message):
    env = dix_v0.raw_env(num_players=2)
    with pytest.raises(ValueError, match=message):
        env.reset(seed=0, options=scenario)


def test_a_deck_may_hold_the_extra_copies_only_when_the_player_count_uses_them():
    env = dix_v0.raw_env(num_players=3)
    env.reset(seed=0, options={"deck": ["B1", "B1"]})  # the copy marked 3 is in
    with pytest.raises(ValueError, match=r"B1 3 times.*3-player game has only 2"):
        env.reset(seed=0, options={"deck": ["B1", "B1", "B1"]})


def test_solo_first_player_must_be_the_player():
    env = dix_v0.raw_env(solo=True)
    with pytest.raises(ValueError, match="first_player"):
        env.reset(seed=0, options={"first_player": 1})


def test_unknown_reset_option_warns_naming_it():
    env = dix_v0.raw_env()
    with pytest.warns(UserWarning, match="firstplayer"):
        env.reset(seed=0, options={"firstplayer": 1})


def test_unknown_card_and_action_strings_name_the_vocabulary():
    with pytest.raises(ValueError, match=r"'Z1'.*B1..P9"):
        parse_card("Z1")
    env = dix_v0.raw_env()
    with pytest.raises(ValueError, match=r"'buy W3'.*buy B7"):
        env.string_to_action("buy W3")
    with pytest.raises(ValueError, match="bid 100"):
        env.string_to_action("bid 100")


def test_out_of_range_action_id_is_rejected():
    env = dix_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action 999"):
        env.step(999)


def test_the_engine_refuses_non_integer_actions_and_changes_nothing():
    state = new_state(["B1", "G2", "O3"])
    before = (list(state.tableau), list(state.pile), state.phase, state.actor)
    for action in (True, 1.0, "draw", None):
        with pytest.raises(ValueError, match="is not an integer action id; legal: 0 \\(draw\\)"):
            state.apply_action(action)
    assert (list(state.tableau), list(state.pile), state.phase, state.actor) == before
    state.apply_action(np.int64(1))  # numpy integers are ids
    assert state.phase != before[2]
