"""``clone``: an independent copy with the same future, recording nothing."""

from __future__ import annotations

import numpy as np

from dixenv.games.le_dix.config import make_config
from dixenv.games.le_dix.state import LeDixState


def _to_next_deal(state: LeDixState) -> None:
    deal = state.deal_index
    while state.deal_index == deal:
        state.apply_action(state.legal_actions()[0])


def test_a_clone_deals_the_same_next_deal_and_records_no_events():
    events: list = []
    state = LeDixState(make_config(num_players=4, deals=(3, 3, 3)), np.random.default_rng(0), {}, events)
    for _ in range(7):
        state.apply_action(state.legal_actions()[-1])
    clone = state.clone()
    grandchild = clone.clone()  # a clone of a clone whose generator was never used
    logged = len(events)
    for s in (state, clone, grandchild):
        _to_next_deal(s)
    assert state.hands == clone.hands == grandchild.hands and state.trump_card == clone.trump_card
    assert clone.events is None and grandchild.events is None and len(events) > logged


def test_a_clone_shares_no_mutable_part_with_the_original():
    state = LeDixState(make_config(num_players=3, deals=(5, 4)), np.random.default_rng(1), {})
    for _ in range(9):
        state.apply_action(state.legal_actions()[0])
    clone = state.clone()
    for name, value in vars(state).items():
        if isinstance(value, list) and value:
            assert getattr(clone, name) is not value, f"{name} is shared"
            for a, b in zip(value, getattr(clone, name)):
                assert not isinstance(a, list) or a is not b, f"an item of {name} is shared"
