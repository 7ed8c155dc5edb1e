"""Long random-play runs on the engine: every card and token accounted for, games end by the rules.

2,000 random games per player count (and for the solo game) run on the engine without observations
(about a tenth of a second per hundred games); the invariants are checked after every move in the
first games of each run and at the end of every game.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from dixenv.games.dix.game import GAME
from dixenv.games.dix.state import BUY, BUY_FINAL, GAME_OVER, PAYMENT
from tests.games.dix.helpers import check_invariants

CHECK_EVERY_MOVE = 20  # games per run whose every move is checked


def run_random_games(games: int, seed: int, **options) -> dict[str, int]:
    """Play ``games`` random games; check invariants; return a few totals (to see the rules fired)."""
    config = GAME.make_config(**options)
    rng = random.Random(seed)  # the test's own choices; the games are seeded through numpy as usual
    seen = {"bought": 0, "wilds_won": 0, "busts": 0, "alix_turn_moves": 0}
    for game in range(games):
        state = GAME.new_state(config, np.random.default_rng(seed * 10_000 + game), {})
        box = list(config.box)
        every_move = game < CHECK_EVERY_MOVE
        while state.current_player() >= 0:
            if every_move:
                check_invariants(state, box)
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal))
            if config.solo:
                assert state.current_player() == 0
            if config.auto_pay:
                assert state.phase != PAYMENT, "auto_pay makes no payment decision"
            state.apply_action(legal[rng.randrange(len(legal))])
        check_invariants(state, box)
        assert state.is_terminal() and not state.is_truncated() and state.phase == GAME_OVER
        assert not state.pile and state.last_drawn and state.final_step == state.num_seats + 1
        assert sum(state.tableau) == 0 and state.auction_card == -1 and state.buy_card == -1
        seen["bought"] += sum(sum(c[:36]) for c in state.collections)
        seen["wilds_won"] += sum(sum(c[36:50]) for c in state.collections)
        seen["busts"] += sum(state.consolation)
    return seen


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_two_thousand_random_games_per_player_count_keep_every_card_and_token(num_players):
    seen = run_random_games(2000, seed=num_players, num_players=num_players)
    assert seen["bought"] > 0 and seen["wilds_won"] > 0 and seen["busts"] > 0


@pytest.mark.parametrize("difficulty", [4, 7, 10])
def test_random_solo_games_against_alix_keep_every_card_and_token(difficulty):
    seen = run_random_games(700, seed=10 + difficulty, solo=True, difficulty=difficulty)
    assert seen["wilds_won"] > 0 and seen["busts"] > 0


@pytest.mark.parametrize(
    "options",
    [{"num_players": 3, "bust_buy": True}, {"num_players": 4, "auto_pay": True}, {"solo": True, "auto_pay": True, "bust_buy": True}],
)
def test_random_games_with_variants_keep_every_card_and_token(options):
    run_random_games(300, seed=99, **options)


def test_final_round_gives_every_player_one_buy_phase():
    config = GAME.make_config(num_players=4)
    state = GAME.new_state(config, np.random.default_rng(0), {})
    rng = np.random.default_rng(0)
    finals = []
    while state.current_player() >= 0:
        if state.phase == BUY and state.buy_kind == BUY_FINAL and (not finals or finals[-1] != state.current_player()):
            finals.append(state.current_player())
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    assert finals == [(state.active + k) % 4 for k in range(1, 5)]
