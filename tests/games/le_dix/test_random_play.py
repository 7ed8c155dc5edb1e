"""Long random-play runs: every card accounted for, scores consistent with the scoring rule."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv.games.le_dix.cards import NUM_CARDS
from dixenv.games.le_dix.config import make_config
from dixenv.games.le_dix.state import PLAYING, LeDixState


def _all_cards(state: LeDixState) -> list[int]:
    """Every card's location: hands, played, undealt, the turn-up or the dealer's discard."""
    cards = [c for hand in state.hands for c in hand] + state.played + list(state.undealt)
    if state.dealer_took:
        if state.dealer_discard is not None:
            cards.append(state.dealer_discard)
    else:
        cards.append(state.trump_card)
    return cards


def _check_invariants(state: LeDixState) -> None:
    cards = _all_cards(state)
    assert len(cards) == NUM_CARDS and set(cards) == set(range(NUM_CARDS)), "a card was lost or duplicated"
    if state.phase == PLAYING:
        done = sum(state.tricks_won)
        in_trick = {s for s, _ in state.trick}
        for seat, hand in enumerate(state.hands):
            assert len(hand) == state.hand_size - done - (seat in in_trick)


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
                _check_invariants(state)
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal))
            state.apply_action(legal[rng.integers(len(legal))])
            step += 1
        assert state.is_terminal() and not state.is_truncated()
        scores = state.scores()
        if config.scoring == "exact10":
            assert all(s % 10 == 0 and 0 <= s <= 10 * len(config.deals) for s in scores)
        else:
            assert all(0 <= s <= sum(10 + d for d in config.deals) for s in scores)
