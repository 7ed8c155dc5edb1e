"""A Hypothesis state machine over the le_dix engine: legal play, refused illegal actions, clones."""

from __future__ import annotations

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from dixenv.games.le_dix import actions as A
from dixenv.games.le_dix.config import make_config
from dixenv.games.le_dix.observation import LeDixObserver
from dixenv.games.le_dix.state import LeDixState


class LeDixMachine(RuleBasedStateMachine):
    """Plays a random game while checking invariants, refusals and clones at every step."""

    @initialize(
        num_players=st.integers(3, 5),
        deals=st.sampled_from([(3, 2, 1), (1,), (5, 5)]),
        scoring=st.sampled_from(["exact10", "oh_hell"]),
        hook=st.booleans(),
        seed=st.integers(0, 2**32 - 1),
    )
    def start(self, num_players, deals, scoring, hook, seed):
        self.config = make_config(num_players=num_players, deals=deals, scoring=scoring, hook=hook)
        self.state = LeDixState(self.config, np.random.default_rng(seed), {})
        self.observer = LeDixObserver(self.config)
        self.num_actions = A.num_actions(self.config.max_bid)

    def snapshot(self, state: LeDixState) -> tuple:
        """Everything visible from outside: each seat's observation, the turn, legal actions, scores."""
        views = []
        for seat in range(state.num_seats):
            self.observer.set_from(state, seat)
            views.append(self.observer.tensor.tobytes())
        return tuple(views), state.current_player(), tuple(state.legal_actions()), tuple(state.scores())

    def not_over(self) -> bool:
        return self.state.current_player() >= 0

    @precondition(not_over)
    @rule(pick=st.integers(0, 10**6))
    def play_a_legal_action(self, pick):
        legal = self.state.legal_actions()
        self.state.apply_action(legal[pick % len(legal)])

    @rule(action=st.integers(-3, 200))
    def an_illegal_action_is_refused_and_changes_nothing(self, action):
        if action in self.state.legal_actions():
            return
        before = self.snapshot(self.state)
        hands = [list(h) for h in self.state.hands]
        try:
            self.state.apply_action(action)
        except ValueError as err:
            assert "illegal action" in str(err)
        else:
            raise AssertionError(f"action {action} was accepted")
        assert self.snapshot(self.state) == before and self.state.hands == hands

    @rule(picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=12))
    def a_clone_plays_like_the_original_and_apart_from_it(self, picks):
        before = self.snapshot(self.state)
        clone = self.state.clone()
        assert clone.events is None and self.snapshot(clone) == self.snapshot(self.state)
        twin = self.state.clone()
        for pick in picks:
            if clone.current_player() < 0:
                break
            legal = clone.legal_actions()
            clone.apply_action(legal[pick % len(legal)])
            twin.apply_action(legal[pick % len(legal)])
            assert self.snapshot(clone) == self.snapshot(twin)  # same moves, same future (rng too)
        clone.check_invariants()
        assert clone.rng.integers(1 << 62) == twin.rng.integers(1 << 62)
        assert self.snapshot(self.state) == before  # playing the clones left the original untouched

    @rule()
    def a_clone_is_independent_of_later_play(self):
        if not self.not_over():
            return
        clone = self.state.clone()
        kept = self.snapshot(clone)
        legal = self.state.legal_actions()
        self.state.apply_action(legal[0])
        assert self.snapshot(clone) == kept

    @invariant()
    def invariants_hold(self):
        if hasattr(self, "state"):
            self.state.check_invariants()


LeDixMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=40, deadline=None)
TestLeDixStateMachine = LeDixMachine.TestCase
