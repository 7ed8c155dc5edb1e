"""A Hypothesis state machine over the dix engine: legal play, refused moves, clones, invariants."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from dixenv.games.dix import actions as A
from dixenv.games.dix.game import GAME
from dixenv.games.dix.observation import DixObserver
from dixenv.games.dix.state import DixState
from tests.games.dix.helpers import OPTION_SETS

def view(state: DixState) -> tuple:
    """What the outside can see of a state: every seat's observation, legal actions, scores, who acts."""
    observer = DixObserver(state.config)
    seen = []
    for seat in range(state.num_seats):
        observer.set_from(state, seat)
        seen.append(observer.tensor.tobytes())
    return tuple(seen), tuple(state.legal_actions()), tuple(state.scores()), state.current_player(), tuple(state.pile)


def pick(state: DixState, index: int) -> int:
    legal = state.legal_actions()
    return legal[index % len(legal)]


class DixMachine(RuleBasedStateMachine):
    """Random legal play with illegal attempts and clones along the way."""

    state: DixState

    @initialize(options=st.sampled_from(OPTION_SETS), seed=st.integers(0, 2**32 - 1))
    def start(self, options, seed):
        self.state = GAME.new_state(GAME.make_config(**options), np.random.default_rng(seed), {})

    @precondition(lambda self: self.state.current_player() >= 0)
    @rule(index=st.integers(0, 1000))
    def play_a_legal_action(self, index):
        self.state.apply_action(pick(self.state, index))

    @precondition(lambda self: self.state.current_player() >= 0)
    @rule(steps=st.integers(1, 40), index=st.integers(0, 1000))
    def play_on_a_while(self, steps, index):
        for k in range(steps):
            if self.state.current_player() < 0:
                break
            self.state.apply_action(pick(self.state, index + k))

    @rule(action=st.one_of(st.integers(-3, A.NUM_ACTIONS + 3), st.sampled_from([1.0, True, "draw", None, 2.5])))
    def an_illegal_action_is_refused_and_changes_nothing(self, action):
        legal = self.state.legal_actions()
        if isinstance(action, int) and not isinstance(action, bool) and action in legal:
            return  # a legal id: nothing to refuse
        before = view(self.state)
        try:
            self.state.apply_action(action)
        except ValueError as err:
            assert "legal" in str(err) or "game is over" in str(err)
        else:
            raise AssertionError(f"action {action!r} was accepted; legal: {legal}")
        assert view(self.state) == before

    @rule(indices=st.lists(st.integers(0, 1000), min_size=1, max_size=25))
    def a_clone_evolves_like_the_original_and_apart_from_it(self, indices):
        clone = self.state.clone()
        assert clone.events is None and view(clone) == view(self.state)
        for index in indices:
            if self.state.current_player() < 0:
                break
            action = pick(self.state, index)
            self.state.apply_action(action)
            clone.apply_action(action)
            assert view(clone) == view(self.state)
        clone.check_invariants()
        if clone.current_player() >= 0:  # a move of the clone leaves the original alone
            before = view(self.state)
            clone.apply_action(pick(clone, 0))
            assert view(self.state) == before

    @invariant()
    def invariants_hold(self):
        if hasattr(self, "state"):
            self.state.check_invariants()


DixMachine.TestCase.settings = settings(
    max_examples=25, stateful_step_count=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_dix_state_machine = DixMachine.TestCase
