"""``check_invariants`` passes on every real state and names what broke on a corrupted one."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv.games.dix.cards import parse_card
from dixenv.games.dix.game import GAME
from dixenv.games.dix.state import DECIDE, DixState
from tests.games.dix.helpers import new_state, play, random_policy

DECK = ["B3", "G2", "W5", "$2", "B1", "O4", "P7", "G9"]


def a_game() -> DixState:
    """Player 0 holds B3 and G2 (score cached), player 1 is deciding after drawing W5 (passed) and $2."""
    state = new_state(DECK)
    play(state, "draw", "take numbers", "skip", "pass", "pass", "draw")
    state.scores()
    return state


def corrupt_pile(s: DixState) -> None:
    s.pile.pop()  # a card vanishes, the public counts still list it


def corrupt_market(s: DixState) -> None:
    s.market[parse_card("B3")] += 1  # a second B3 in a game that has one


def corrupt_tokens(s: DixState) -> None:
    s.tokens[0] = 11


def corrupt_mask(s: DixState) -> None:
    s.masks[0][1] = 0  # green numbers forgotten, G2 still held


def corrupt_score(s: DixState) -> None:
    s._score[0] += 1


def corrupt_total(s: DixState) -> None:
    s.tableau_total += 1


def corrupt_actor(s: DixState) -> None:
    s.actor = 0  # player 0 to decide on player 1's draw


def corrupt_dups(s: DixState) -> None:
    s.dups[0] = 1


@pytest.mark.parametrize("corrupt, message", [
    (corrupt_pile, "pile_counts do not match the draw pile"),
    (corrupt_market, "B3: 2 copies on the table, the game has 1"),
    (corrupt_tokens, "tokens [11, 5]"),
    (corrupt_mask, "colour masks"),
    (corrupt_score, "player_0: cached score 3 != 2"),
    (corrupt_total, "tableau total"),
    (corrupt_actor, "a draw decision off turn"),
    (corrupt_dups, "dups do not match"),
])
def test_a_corrupted_state_fails_with_a_message_naming_what_broke(corrupt, message):
    state = a_game()
    state.check_invariants()
    assert state.phase == DECIDE and state.actor == 1
    corrupt(state)
    with pytest.raises(AssertionError, match=message.replace("[", r"\[").replace("]", r"\]")):
        state.check_invariants()


def test_alix_never_rests_as_the_seat_to_act():
    state = new_state(["B1", "G2", "O3"], solo=True)
    state.check_invariants()
    state.actor = 1
    with pytest.raises(AssertionError, match="ALIX's decisions are played at once"):
        state.check_invariants()


@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 5, "bust_buy": True}, {"solo": True, "auto_pay": True}])
def test_every_state_of_random_games_passes(options):
    config = GAME.make_config(**options)
    choose = random_policy(3)
    for game in range(5):
        state = GAME.new_state(config, np.random.default_rng(game), {})
        state.check_invariants()
        while state.current_player() >= 0:
            state.apply_action(choose(state))
            state.check_invariants()
