"""Why an action is illegal in dix: each kind of illegality has its own reason, in the ValueError too."""

from __future__ import annotations

import pytest

from dixenv.games.dix import actions as A
from dixenv.games.dix.state import AUCTION
from tests.games.illegal import refused_reason
from tests.games.dix.helpers import legal, new_state, play
from tests.games.dix.test_solo import FULL_BOX


def _refused(state, text: str) -> str:
    """The reason for ``text``, checked to be in the ValueError of ``apply_action`` that changes nothing."""
    snapshot = lambda: (state.render_text(), legal(state))  # noqa: E731
    return refused_reason(state, A.string_to_action(text), state.apply_action, snapshot, f"({text})", "; legal: ")


def test_a_legal_action_has_no_reason():
    state = new_state(["B2", "B3"])
    assert all(state.why_illegal(a) == "" for a in state.legal_actions())


def test_a_market_card_beyond_the_buyers_means_cannot_be_afforded():
    state = new_state(["B7", "G2", "G3"])
    play(state, "take money", "take numbers")  # player 1: 5 tokens + 1 card = 6 < 7
    assert _refused(state, "buy B7") == "you cannot afford B7: 6 of 7"


def test_a_card_identical_to_one_held_is_already_held():
    state = new_state(["B4", "B4", "G1"], num_players=3)
    play(state, "take money", "take numbers")
    assert _refused(state, "buy B4") == "you already hold B4"


def test_a_card_not_in_the_market_cannot_be_bought():
    state = new_state(["B4", "G2", "G3"])
    play(state, "take money", "take numbers")
    assert _refused(state, "buy O9") == "O9 is not in the market"


def test_a_bid_must_beat_the_high_bid():
    state = new_state(["B#", "B2"], num_players=3)
    play(state, "bid 3")
    assert _refused(state, "bid 3") == "a bid must beat the high bid of 3 by player_1"


def test_a_bid_above_the_bidders_means_names_them():
    state = new_state(["B9", "B5", "G1", "G2", "W3", "O1"])
    play(state, "draw")  # player 0 busts: a consolation token
    play(state, "draw", "take numbers", "skip")  # player 1 holds G1, G2: means 7
    why = _refused(state, "bid 8")
    assert why == "bid 8 is above your means of 7 (5 tokens, 0 consolation × 3, 2 number cards)"


def test_a_solo_bid_below_five_is_too_low():
    state = new_state(["B2", "W3", "B5"], solo=True, difficulty=6)
    play(state, "take numbers", "skip")  # ALIX draws W3: the player bids first
    assert state.phase == AUCTION and state.current_player() == 0 and state.high_bid == 0
    assert _refused(state, "bid 4") == "in the solo game a bid is at least 5"


def test_a_solo_bid_counts_only_duplicates():
    state = new_state(["B1", "B1", "G1", "G5", "W3", "O1"], solo=True, difficulty=4, deck_spec=FULL_BOX)
    play(state, "draw", "draw", "take numbers", "skip")  # player: B1 × 2, G1; ALIX bids 5
    why = _refused(state, "bid 7")
    assert why.startswith("bid 7 is above your means of 6") and "1 duplicates (in the solo game only duplicates pay a bid)" in why


def test_a_solo_bid_is_not_paid_with_a_card_held_once():
    state = new_state(["B1", "B1", "G1", "G5", "W3", "O1"], solo=True, difficulty=4, deck_spec=FULL_BOX)
    play(state, "draw", "draw", "take numbers", "skip", "bid 6")
    assert _refused(state, "pay G1") == "in the solo game only duplicates pay a bid, and you hold one G1"


def test_a_payment_with_a_card_or_a_consolation_token_not_held():
    state = new_state(["B7", "G2", "G3", "O1"])
    play(state, "take money", "draw", "take numbers", "buy B7")  # player 1 holds G2, G3 and owes 7
    assert _refused(state, "pay O1") == "you do not hold O1"
    assert _refused(state, "pay consolation") == "you have no consolation tokens"


def test_a_payment_with_no_money_tokens_left():
    state = new_state(["B7", "G2", "G3", "O1"])
    play(state, "take money", "draw", "take numbers", "buy B7")
    play(state, *["pay token"] * 5)
    assert state.pay_left == 2 and legal(state) == ["pay G2", "pay G3"]
    assert _refused(state, "pay token") == "you have no money tokens"


def test_drawing_from_an_empty_pile():
    state = new_state(["B2", "B3"])
    play(state, "draw")
    assert _refused(state, "draw") == "the draw pile is empty: take the numbers or the money"


@pytest.mark.parametrize(
    "setup, action, reason",
    [
        ([], "buy B1", "you may draw, take numbers or take money"),
        ([], "pay token", "you may draw, take numbers or take money"),
        (["draw"], "take money", "an auction for W5 is open: bid 1 or more, or pass"),
        (["draw", "bid 2", "pass"], "skip", "you still owe 2 for W5: pay a token, a consolation token or a number card"),
    ],
)
def test_an_action_of_another_phase_says_what_the_phase_wants(setup, action, reason):
    state = new_state(["B2", "W5", "B3"])
    play(state, *setup)
    assert _refused(state, action) == reason


def test_a_buy_phase_refuses_a_draw():
    state = new_state(["B4", "G2", "G3"])
    play(state, "take money", "take numbers")
    assert _refused(state, "draw") == "you may buy a market card or skip"


def test_the_game_over_and_out_of_range():
    state = new_state(["B2"])
    assert state.why_illegal(999) == f"there is no action 999 (actions are 0..{A.NUM_ACTIONS - 1})"
    play(state, "take numbers", "skip")
    while state.current_player() >= 0:
        play(state, "skip")
    assert state.why_illegal(A.SKIP) == "the game is over"
