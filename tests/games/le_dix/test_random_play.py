"""Long random-play runs: the engine's invariants hold (``check_invariants``), scores follow the scoring rule."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv.games.le_dix.config import make_config
from dixenv.games.le_dix.state import LeDixState


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 5},
        {"num_players": 4, "hook": True},
        {"num_players": 3, "scoring": "oh_hell", "deals": (17, 1, 5)},
    ],
)
def test_random_games_keep_every_card_and_score_by_the_rules(options):
    config = make_config(**options)
    rng = np.random.default_rng(1)
    for game in range(400):  # five option sets: 2,000 random games in all
        state = LeDixState(config, np.random.default_rng(game), {})
        step = 0
        while state.current_player() >= 0:
            if step % 5 == 0:
                state.check_invariants()
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal))
            state.apply_action(legal[rng.integers(len(legal))])
            step += 1
        state.check_invariants()
        assert state.is_terminal() and not state.is_truncated()
        scores = state.scores()
        if config.scoring == "exact10":
            assert all(s % 10 == 0 and 0 <= s <= 10 * len(config.deals) for s in scores)
        else:
            assert all(0 <= s <= sum(10 + d for d in config.deals) for s in scores)


def _mid_deal_state() -> LeDixState:
    state = LeDixState(make_config(num_players=4), np.random.default_rng(5), {})
    rng = np.random.default_rng(0)
    while len(state.played) < 9:
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    state.check_invariants()
    return state


def _lose_a_card(s: LeDixState) -> None:
    s.hands[1].pop()


def _duplicate_a_card(s: LeDixState) -> None:
    s.undealt[0] = s.hands[2][0]


def _hold_a_shown_void(s: LeDixState) -> None:
    s.voids[3] |= 1 << (s.hands[3][0] // 13)


def _skip_a_turn(s: LeDixState) -> None:
    s.player = (s.player + 1) % 4
    s._legal = None


def _miscount_tricks(s: LeDixState) -> None:
    s.tricks_won[0] += 1


def _score_off_the_scale(s: LeDixState) -> None:
    s.total_scores[2] = 5


@pytest.mark.parametrize(
    "corrupt, message",
    [
        (_lose_a_card, "exactly one place"),
        (_duplicate_a_card, "exactly one place"),
        (_hold_a_shown_void, "void"),
        (_skip_a_turn, "play goes round"),
        (_miscount_tricks, "tricks won"),
        (_score_off_the_scale, "multiples of 10"),
    ],
)
def test_check_invariants_names_what_broke(corrupt, message):
    state = _mid_deal_state()
    corrupt(state)
    with pytest.raises(AssertionError, match=message):
        state.check_invariants()
