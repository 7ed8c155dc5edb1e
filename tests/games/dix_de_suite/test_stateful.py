"""Hypothesis state machine: random legal and illegal actions, clones that evolve alike and apart."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from dixenv.games.dix_de_suite import actions as A
from dixenv.games.dix_de_suite.game import GAME

from .helpers import band_player

OPTIONS = st.sampled_from(
    [
        {"num_players": 2},
        {"num_players": 2, "reshuffle": True, "two_player_run": True},
        {"num_players": 3, "reshuffle": True, "run_bonus": True},
        {"num_players": 4, "teams": True},
    ]
)


def snapshot(state, observer) -> tuple:
    """Everything an outsider can read of a state: each seat's observation, legal actions, scores."""
    views = []
    for seat in range(state.num_seats):
        observer.set_from(state, seat)
        views.append(observer.tensor.tobytes())
    return tuple(views), tuple(state.legal_actions()), tuple(state.scores()), state.current_player()


class DixDeSuiteMachine(RuleBasedStateMachine):
    """Plays one game; keeps a clone that must follow the original move for move."""

    @initialize(options=OPTIONS, seed=st.integers(0, 2**16), warmup=st.integers(0, 160))
    def start(self, options, seed, warmup):
        self.config = GAME.make_config(**options, target_score=150, max_turns=200)
        self.observer = GAME.make_observer(self.config)
        self.state = GAME.new_state(self.config, np.random.default_rng(seed), {})
        self.rng = np.random.default_rng(seed)
        # Start anywhere in a game: a mostly sorting warm-up reaches reshuffles and later rounds.
        for _ in range(warmup):
            if not self._live():
                break
            self.state.apply_action(band_player(self.state, self.rng, 0.3))
        self.twin = self.state.clone()

    def _live(self) -> bool:
        return self.state.current_player() >= 0

    @precondition(lambda self: self._live())
    @rule(pick=st.integers(0, 12), sorting=st.booleans())
    def play_a_legal_action_on_both(self, pick, sorting):
        legal = self.state.legal_actions()
        # Half the moves sort (so rounds end and reshuffles happen), half are uniform.
        action = band_player(self.state, self.rng) if sorting else legal[pick % len(legal)]
        self.state.apply_action(action)
        self.twin.apply_action(action)

    @rule(action=st.one_of(st.integers(-3, A.NUM_ACTIONS + 3), st.floats(0, 12), st.text(max_size=3), st.booleans()))
    def an_illegal_action_raises_and_changes_nothing(self, action):
        if isinstance(action, int) and not isinstance(action, bool) and action in self.state.legal_actions():
            return
        before = snapshot(self.state, self.observer)
        try:
            self.state.apply_action(action)
        except ValueError as error:
            assert "legal actions" in str(error)
        else:
            raise AssertionError(f"{action!r} was accepted")
        assert snapshot(self.state, self.observer) == before

    @precondition(lambda self: self._live())
    @rule(pick=st.integers(0, 12))
    def a_clone_moves_on_alone(self, pick):
        before = snapshot(self.state, self.observer)
        clone = self.state.clone()
        legal = clone.legal_actions()
        clone.apply_action(legal[pick % len(legal)])
        clone.check_invariants()
        assert snapshot(self.state, self.observer) == before  # the original did not move

    @rule()
    def clone_afresh(self):
        self.twin = self.state.clone()

    @invariant()
    def the_state_is_consistent_and_the_twin_identical(self):
        if not hasattr(self, "state"):
            return
        self.state.check_invariants()
        assert snapshot(self.twin, self.observer) == snapshot(self.state, self.observer)
        assert self.twin.racks == self.state.racks and self.twin.draw_pile == self.state.draw_pile


TestDixDeSuiteStateful = DixDeSuiteMachine.TestCase
TestDixDeSuiteStateful.settings = settings(
    max_examples=25, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
