"""Hidden information: a seat's observation depends only on what that seat may know."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv.games.le_dix.config import make_config
from dixenv.games.le_dix.observation import LeDixObserver
from dixenv.games.le_dix.state import LeDixState


def _shuffle_hidden(state: LeDixState, seat: int, rng: np.random.Generator) -> LeDixState:
    """A copy of ``state`` where the cards ``seat`` cannot see are dealt out differently."""
    other = state.clone()
    pools = [s for s in range(state.num_seats) if s != seat]
    hidden = [c for s in pools for c in other.hands[s]] + list(other.undealt)
    hide_discard = other.dealer_discard is not None and seat != other.dealer
    if hide_discard:
        hidden.append(other.dealer_discard)
    hidden = [hidden[i] for i in rng.permutation(len(hidden))]
    for s in pools:
        k = len(other.hands[s])
        other.hands[s], hidden = sorted(hidden[:k]), hidden[k:]
    if hide_discard:
        other.dealer_discard = hidden.pop()
    other.undealt = hidden
    other._legal = None
    return other


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_observation_does_not_change_when_only_unseen_cards_change(num_players):
    config = make_config(num_players=num_players)
    observer = LeDixObserver(config)
    rng = np.random.default_rng(num_players)
    for game in range(3):
        state = LeDixState(config, np.random.default_rng(game), {})
        step = 0
        while state.current_player() >= 0:
            if step % 7 == 0:
                for seat in range(num_players):
                    observer.set_from(state, seat)
                    before = observer.tensor.copy()
                    observer.set_from(_shuffle_hidden(state, seat, rng), seat)
                    assert np.array_equal(before, observer.tensor), f"seat {seat} saw hidden cards at step {step}"
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            step += 1


def test_observation_changes_when_the_observers_own_hand_changes():
    config = make_config(num_players=3)
    observer = LeDixObserver(config)
    state = LeDixState(config, np.random.default_rng(0), {})
    observer.set_from(state, 0)
    before = observer.tensor.copy()
    other = state.clone()
    other.hands[0], other.hands[1] = other.hands[1], other.hands[0]
    observer.set_from(other, 0)
    assert not np.array_equal(before, observer.tensor)


def test_seats_are_relative_to_the_observer():
    config = make_config(num_players=4)
    observer = LeDixObserver(config)
    state = LeDixState(config, np.random.default_rng(0), {"dealer": 2})
    for seat in range(4):
        observer.set_from(state, seat)
        dealer = observer.layout.unflatten(observer.tensor)["dealer"]
        assert dealer.argmax() == (2 - seat) % 4
