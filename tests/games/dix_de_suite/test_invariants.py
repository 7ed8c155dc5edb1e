"""``check_invariants`` holds in play and names what broke when a state is corrupted."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv.games.dix_de_suite.state import PHASE_PLACE, PHASE_SOURCE

from .helpers import DESC_2, make, play


def _state_after(*actions, **options):
    env = make(DESC_2, 1, draw=[2, 3, 4], **options)
    play(env, *actions)
    env.state.check_invariants()
    return env.state


def _corrupt_duplicate(state):
    state.racks[0][0] = state.racks[0][1]


def _corrupt_known(state):
    state.known[1][2] = 5  # seat 1's slot 3 holds 2, not 5


def _corrupt_card_pool(state):
    state.card_pool[state.discard[-1]] = 0  # a face-up card in a hidden pool


def _corrupt_slot_pool(state):
    state.slot_pool[1][2] = -1  # the hidden draw in slot 3 marked as known


def _corrupt_turn(state):
    state.current = 1 - state.current


def _corrupt_score(state):
    state.scores_[0] = 12


def _corrupt_history(state):
    state.slot_turn[1][2] = 5  # replaced at an own turn that has not happened


CORRUPTIONS = [
    (_corrupt_duplicate, "exactly one place"),
    (_corrupt_known, "known card 5"),
    (_corrupt_card_pool, "pool"),
    (_corrupt_slot_pool, "known 0 disagrees with pool -1"),
    (_corrupt_turn, "to act after"),
    (_corrupt_score, "points"),
    (_corrupt_history, "own turn 5"),
]


@pytest.mark.parametrize("corrupt, message", CORRUPTIONS, ids=[c.__name__ for c, _ in CORRUPTIONS])
def test_a_corrupted_state_fails_its_invariants_with_a_message_naming_the_problem(corrupt, message):
    state = _state_after("draw", "swap 3", "draw", "discard")  # seat 1's slot 3 holds a hidden 2
    corrupt(state)
    with pytest.raises(AssertionError, match=message):
        state.check_invariants()


def test_a_held_card_outside_the_placing_phase_fails_the_invariants():
    state = _state_after("draw")
    assert state.phase == PHASE_PLACE
    state.phase = PHASE_SOURCE
    with pytest.raises(AssertionError, match="no card held"):
        state.check_invariants()


def test_invariants_hold_through_a_reshuffled_round_and_a_new_deal():
    from dixenv.games.dix_de_suite.game import GAME

    from .helpers import band_player

    config = GAME.make_config(num_players=3, reshuffle=True, target_score=120)
    rng = np.random.default_rng(4)
    state = GAME.new_state(config, np.random.default_rng(4), {})
    pools = rounds = 0
    while state.current_player() >= 0:
        state.check_invariants()
        state.apply_action(band_player(state, rng, 0.5))
        pools, rounds = max(pools, state.pool), max(rounds, state.round)
    state.check_invariants()
    assert pools >= 1 and rounds >= 2
