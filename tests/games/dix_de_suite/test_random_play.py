"""Long random-play runs: 2,000 games finish or truncate with every invariant holding after every move."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv.games.dix_de_suite.game import GAME

from .helpers import band_player, option_id

GAMES_PER_SET = 250
OPTION_SETS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 2, "two_player_run": True, "run_bonus": True},
    {"num_players": 3, "reshuffle": True},
    {"num_players": 4, "teams": True},
    {"num_players": 4, "run_bonus": True, "reshuffle": True},
    {"num_players": 2, "reshuffle": True, "run_bonus": True},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_random_games_finish_or_truncate_with_every_card_accounted_for(options):
    # Half the games: uniform random moves (random play never sorts a rack, so they hit max_turns);
    # the other half: a noisy simple player who finishes rounds, to a lower target.
    random_config = GAME.make_config(**options, max_turns=40)
    playing_config = GAME.make_config(**options, target_score=150, max_turns=300)
    deck = list(range(1, random_config.deck_size + 1))
    rng = np.random.default_rng(len(options) * 7 + options["num_players"])
    finished = truncated = 0
    for game in range(GAMES_PER_SET):
        uniform = game % 2 == 0
        config = random_config if uniform else playing_config
        state = GAME.new_state(config, np.random.default_rng(game), {})
        eps = (0.1, 0.3, 0.5)[game % 3]
        scores = state.scores()
        while state.current_player() >= 0:
            state.check_invariants()
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal)) and len(legal) >= 2
            if uniform:
                state.apply_action(legal[int(rng.integers(len(legal)))])
            else:
                state.apply_action(band_player(state, rng, eps))
            new = state.scores()
            assert all(b >= a and (b - a) % 5 == 0 for a, b in zip(scores, new))
            scores = new
        state.check_invariants()
        assert sorted(state.all_cards()) == deck
        assert state.is_terminal() != state.is_truncated()
        assert state.legal_actions() == []
        keys = [k[0] for k in state.ranking_keys()]
        if state.is_terminal():
            finished += 1
            assert max(keys) >= config.target_score
            assert sum(state.last_round_points) > 0
        else:
            truncated += 1
            assert state.round_turns == config.max_turns
            assert max(keys) < config.target_score
    assert finished >= 5 and truncated >= GAMES_PER_SET // 2
