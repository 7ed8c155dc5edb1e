"""The payment rule of ``auto_pay=True``: duplicates, tokens, consolation, then the least useful card."""

from __future__ import annotations

import pytest

from dixenv.games.dix import actions as A
from dixenv.games.dix.cards import NUM_COLLECTABLE, parse_card
from dixenv.games.dix.payment import auto_pay_item, least_useful_card
from dixenv.games.dix.state import DECIDE
from tests.games.dix.helpers import collection, new_state, play


def holding(*cards: str) -> list[int]:
    """A collection count list holding the given cards."""
    counts = [0] * NUM_COLLECTABLE
    for c in cards:
        counts[parse_card(c)] += 1
    return counts


def test_duplicates_go_first_even_with_tokens_left():
    assert auto_pay_item(5, 1, holding("B3", "G2", "G2"), False) == A.PAY_CARD_BASE + parse_card("G2")


def test_then_tokens_then_consolation_then_cards():
    coll = holding("B3", "G2")
    assert auto_pay_item(2, 1, coll, False) == A.PAY_TOKEN
    assert auto_pay_item(0, 1, coll, False) == A.PAY_CONSOLATION
    assert auto_pay_item(0, 0, coll, False) == A.PAY_CARD_BASE + parse_card("G2")


def test_only_duplicates_pay_when_single_cards_may_not():
    with pytest.raises(ValueError):
        auto_pay_item(0, 0, holding("B3", "G2"), True)


def test_least_useful_card_is_the_one_whose_loss_costs_fewest_points():
    # B5 lies outside the blue run B1-B3, so losing it costs nothing although it is worth more.
    assert least_useful_card(holding("G1", "G2", "G3", "B1", "B2", "B3", "B5")) == parse_card("B5")


def test_least_useful_card_ties_go_to_the_lowest_number_then_colour():
    # Losing G1, G3 or B4 costs one point each (G2 would cost two): G1 is the lowest.
    assert least_useful_card(holding("G1", "G2", "G3", "B4")) == parse_card("G1")
    assert least_useful_card(holding("P1", "G1")) == parse_card("G1")


def test_least_useful_card_counts_the_wilds():
    # With B# the blue run B1 B# B3 needs B1 and B3; B7 lies outside it and costs nothing.
    # (Without the wild every card would be a run of one, and B1 would go as the lowest.)
    assert least_useful_card(holding("B1", "B3", "B#", "B7")) == parse_card("B7")
    assert least_useful_card(holding("W1", "W2")) == -1


def test_auto_pay_spends_a_consolation_token_whole_without_a_decision():
    # Player 0 busts (consolation token), then wins W5 for 7: 5 tokens, then the token (1 lost).
    state = new_state(["B9", "B5", "W5", "O1"], auto_pay=True)
    play(state, "draw")  # bust
    play(state, "bid 7", "pass")  # player 1's turn: player 0 bids first
    assert state.phase == DECIDE and state.current_player() == 1
    assert state.tokens[0] == 0 and state.consolation[0] == 0 and collection(state, 0) == ["W5"]
