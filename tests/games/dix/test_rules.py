"""Scenario tests for the dix rules (multi-player), with stacked decks."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv.games.dix.cards import CARD_NAMES, NUM_TYPES, STANDARD_DECK, VALUE, parse_card
from dixenv.games.dix.game import GAME
from dixenv.games.dix.state import AUCTION, BUY, BUY_BUST, BUY_FINAL, BUY_TAKE, DECIDE, PAYMENT
from tests.games.dix.helpers import collection, legal, market, new_state, play, tableau

# --- the box ------------------------------------------------------------------------------------


def test_standard_box_has_129_cards_in_the_published_split():
    counts = STANDARD_DECK.counts(5)
    assert sum(counts) == 129
    numbers = {CARD_NAMES[t]: counts[t] for t in range(36)}
    assert all(numbers[f"{c}{k}"] == 3 for c in "BGOP" for k in range(1, 7))
    assert all(numbers[f"{c}{k}"] == 1 for c in "BGOP" for k in range(7, 10))
    assert sum(numbers.values()) == 84
    assert [counts[parse_card(f"{c}#")] for c in "BGOP"] == [2, 2, 2, 2]
    assert [counts[parse_card(f"W{k}")] for k in range(1, 10)] == [1] * 9
    assert counts[parse_card("**")] == 1
    assert [counts[parse_card(f"${v}")] for v in range(1, 6)] == [6, 6, 6, 5, 4]


@pytest.mark.parametrize("num_players, size, copies_of_low_numbers", [(2, 81, 1), (3, 105, 2), (4, 129, 3), (5, 129, 3)])
def test_player_count_marks_remove_cards_for_two_and_three_players(num_players, size, copies_of_low_numbers):
    counts = STANDARD_DECK.counts(num_players)
    assert sum(counts) == size
    assert all(counts[t] == copies_of_low_numbers for t in range(36) if VALUE[t] <= 6)
    assert all(counts[t] == 1 for t in range(36) if VALUE[t] >= 7)
    assert sum(counts[36:]) == 45  # wilds and currency carry no mark


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_a_shuffled_game_draws_from_the_box_for_its_player_count(num_players):
    config = GAME.make_config(num_players=num_players)
    state = GAME.new_state(config, np.random.default_rng(3), {})
    # The first card is already drawn (tableau or auction): pile + tableau + auction = box.
    seen = list(state.pile_counts)
    for t in range(NUM_TYPES):
        seen[t] += state.tableau[t]
    if state.auction_card >= 0:
        seen[state.auction_card] += 1
    assert seen == list(STANDARD_DECK.counts(num_players))


def test_a_user_composition_replaces_the_box():
    state = new_state(["B1", "B1", "B1", "B1"], deck_spec={"B1": 4, "G2": (2, 3)})
    assert state.config.box[parse_card("B1")] == 4
    assert state.config.box[parse_card("G2")] == 1  # the copy marked 3 is out at 2 players
    assert sum(state.config.box) == 5


# --- a turn -------------------------------------------------------------------------------------


def test_first_draw_of_a_turn_is_made_by_the_environment():
    state = new_state(["B3", "$2", "B5"], num_players=3, first_player=1)
    assert tableau(state) == ["B3"]
    assert state.current_player() == 1 and state.phase == DECIDE
    assert legal(state) == ["draw", "take numbers", "take money"]


def test_tableau_total_is_numbers_minus_currency_and_may_be_negative():
    state = new_state(["$3", "B2", "B7", "G1"])
    assert state.tableau_total == -3 and state.tableau_currency == 3
    play(state, "draw")
    assert state.tableau_total == -1
    play(state, "draw")
    assert state.tableau_total == 6 and state.tableau_currency == 3


def test_take_numbers_collects_them_pays_others_the_currency_and_opens_a_buy():
    state = new_state(["B3", "$2", "B5", "G1"], num_players=3)
    play(state, "draw", "draw", "take numbers")
    assert collection(state, 0) == ["B3", "B5"]
    assert list(state.tokens) == [5, 7, 7]
    assert state.discard[parse_card("$2")] == 1 and tableau(state) == []
    assert state.phase == BUY and state.buy_kind == BUY_TAKE and state.current_player() == 0
    assert legal(state) == ["skip"]  # the market is empty
    play(state, "skip")
    assert state.active == 1 and tableau(state) == ["G1"]


def test_take_money_gains_the_currency_sends_numbers_to_the_market_and_ends_the_turn():
    state = new_state(["B3", "$2", "B5", "G1"], num_players=3)
    play(state, "draw", "draw", "take money")
    assert list(state.tokens) == [7, 5, 5]
    assert market(state) == ["B3", "B5"] and collection(state, 0) == []
    assert state.discard[parse_card("$2")] == 1
    assert state.active == 1 and state.phase == DECIDE and tableau(state) == ["G1"]  # no buy


def test_money_tokens_are_capped_at_ten_and_the_excess_is_lost():
    state = new_state(["$5", "$4", "B1"])
    play(state, "draw", "take money")
    assert state.tokens[0] == 10


def test_a_total_of_exactly_ten_or_currency_of_exactly_ten_is_no_bust():
    state = new_state(["B6", "B4", "$5", "$5", "G1"])
    play(state, "draw")
    assert state.tableau_total == 10 and state.phase == DECIDE and state.active == 0
    state = new_state(["$5", "$5", "G1"])
    play(state, "draw")
    assert state.tableau_currency == 10 and state.phase == DECIDE and state.active == 0


def test_bust_on_total_over_ten_market_token_others_paid_currency_discarded():
    state = new_state(["$2", "B9", "B4", "G1"], num_players=3)
    play(state, "draw", "draw")  # total -2 + 9 + 4 = 11
    assert market(state) == ["B4", "B9"]
    assert list(state.consolation) == [1, 0, 0]
    assert list(state.tokens) == [5, 7, 7]  # others gain the currency sum
    assert state.discard[parse_card("$2")] == 1
    assert state.active == 1 and tableau(state) == ["G1"]


def test_bust_on_currency_over_ten_gives_no_money_to_others():
    state = new_state(["B2", "$5", "$4", "$2", "G1"], num_players=3)
    play(state, "draw", "draw", "draw")  # currency 11
    assert market(state) == ["B2"]
    assert list(state.consolation) == [1, 0, 0]
    assert list(state.tokens) == [5, 5, 5]
    assert sum(state.discard[parse_card(f"${v}")] for v in range(1, 6)) == 3
    assert state.active == 1


def test_consolation_tokens_are_gained_even_at_ten_money_and_have_no_cap():
    state = new_state(["$5", "$5", "B9", "B8", "G9", "G8", "O9", "O8"])
    play(state, "draw", "take money")  # player 0: 10 tokens
    play(state, "draw")  # player 1 busts on B9 + B8
    play(state, "draw")  # player 0 busts on G9 + G8
    play(state, "draw")  # player 1 busts again
    assert list(state.tokens) == [10, 5] and list(state.consolation) == [1, 2]


def test_a_turn_may_stop_with_an_empty_tableau_after_a_wild():
    state = new_state(["W5", "B1"])
    play(state, "pass", "pass")  # nobody bids: the wild is discarded
    assert state.phase == DECIDE and tableau(state) == [] and legal(state) == ["draw", "take numbers", "take money"]
    play(state, "take numbers")
    assert state.phase == BUY and collection(state, 0) == []


# --- buying -------------------------------------------------------------------------------------


def _market_b4_then_g2_taken() -> object:
    """Two players: player 0 leaves B4 in the market; player 1 takes G2 and may buy."""
    state = new_state(["B4", "G2", "G3", "O1"])
    play(state, "take money", "take numbers")
    return state


def test_a_buy_pays_the_number_value_item_by_item_and_ends_the_turn():
    state = _market_b4_then_g2_taken()
    assert state.current_player() == 1 and legal(state) == ["buy B4", "skip"]
    play(state, "buy B4")
    assert state.phase == PAYMENT and state.pay_left == 4
    assert legal(state) == ["pay token", "pay G2"]
    play(state, "pay G2")  # a number card pays 1 whatever its value
    assert state.pay_left == 3 and state.discard[parse_card("G2")] == 1
    play(state, "pay token", "pay token", "pay token")
    assert collection(state, 1) == ["B4"] and state.tokens[1] == 2 and market(state) == []
    assert state.active == 0 and tableau(state) == ["G3"]  # one buy, then the turn ends


def test_skip_ends_the_buy_phase_without_buying():
    state = _market_b4_then_g2_taken()
    play(state, "skip")
    assert market(state) == ["B4"] and collection(state, 1) == ["G2"] and state.active == 0


def test_a_card_identical_to_one_held_cannot_be_bought():
    state = new_state(["B4", "B4", "G1"], num_players=3)
    play(state, "take money", "take numbers")
    assert collection(state, 1) == ["B4"] and market(state) == ["B4"]
    assert legal(state) == ["skip"]


def test_a_card_beyond_the_buyers_means_cannot_be_bought():
    state = new_state(["B7", "G2", "G3"])
    play(state, "take money", "take numbers")  # player 1: 5 tokens + 1 card = 6 < 7
    assert legal(state) == ["skip"]


def test_a_consolation_token_pays_three_and_the_change_is_lost():
    state = new_state(["B9", "B5", "B4", "G1", "O1"])
    play(state, "draw")  # player 0 busts: B9, B5 to the market, one consolation token
    play(state, "take money")  # player 1 leaves B4 in the market
    play(state, "take numbers")  # player 0 takes G1: means 5 + 3 + 1 = 9
    assert legal(state) == ["buy B4", "buy B5", "buy B9", "skip"]
    play(state, "buy B4")
    assert legal(state) == ["pay token", "pay consolation", "pay G1"]  # only what the player has
    play(state, "pay token", "pay token", "pay consolation")  # 2 + 3 covers 4: 1 is lost
    assert state.tokens[0] == 3 and state.consolation[0] == 0 and collection(state, 0) == ["B4", "G1"]


def test_wilds_never_pay():
    state = new_state(["W5", "B4", "G2", "G3", "O1"])
    play(state, "pass", "bid 1")  # player 0 wins W5 for 1
    play(state, "pay token", "take numbers", "skip")
    play(state, "take money")  # player 1 drew B4 and takes the money: B4 goes to the market
    play(state, "take numbers", "buy B4")  # player 0 takes G2 and buys B4
    assert "W5" in collection(state, 0)
    assert legal(state) == ["pay token", "pay G2"]


# --- auctions -----------------------------------------------------------------------------------


def test_a_wild_is_auctioned_from_the_active_players_left_active_player_last():
    state = new_state(["B#", "B2"], num_players=3, first_player=1)
    assert state.phase == AUCTION and state.auction_card == parse_card("B#")
    order = []
    while state.phase == AUCTION:
        order.append(state.current_player())
        play(state, "pass")
    assert order == [2, 0, 1]


def test_bids_must_beat_the_high_bid_and_stay_within_the_bidders_means():
    state = new_state(["B9", "B5", "G1", "G2", "W3", "O1"])
    play(state, "draw")  # player 0 busts: consolation token
    play(state, "draw", "take numbers", "skip")  # player 1 holds G1, G2
    assert state.phase == AUCTION and state.current_player() == 1
    assert legal(state) == [f"bid {n}" for n in range(1, 8)] + ["pass"]  # 5 tokens + 2 cards
    play(state, "bid 7")
    assert legal(state) == ["bid 8", "pass"]  # player 0: 5 tokens + 3 for the consolation token


def test_a_bidder_who_cannot_beat_the_high_bid_can_only_pass():
    state = new_state(["B#", "B2"], num_players=3)
    play(state, "bid 5")
    assert legal(state) == ["pass"]
    play(state, "pass")
    assert legal(state) == ["pass"]


def test_each_bidder_bids_once_and_the_winner_pays_then_the_turn_resumes():
    state = new_state(["B2", "W5", "B3"], num_players=3)
    play(state, "draw")  # W5 on auction, B2 waits in the tableau
    play(state, "bid 2", "bid 3", "bid 4")
    assert state.phase == PAYMENT and state.current_player() == 0 and state.pay_left == 4
    play(state, "pay token", "pay token", "pay token", "pay token")
    assert collection(state, 0) == ["W5"] and list(state.tokens) == [1, 5, 5]
    assert state.phase == DECIDE and state.current_player() == 0 and tableau(state) == ["B2"]


def test_the_winner_may_be_a_bidder_before_the_active_player():
    state = new_state(["W5", "B3"], num_players=3)
    play(state, "bid 2", "pass", "pass")
    assert state.current_player() == 1 and state.phase == PAYMENT
    play(state, "pay token", "pay token")
    assert collection(state, 1) == ["W5"] and state.current_player() == 0 and state.phase == DECIDE


def test_a_wild_nobody_bids_on_is_discarded():
    state = new_state(["**", "B3"], num_players=3)
    play(state, "pass", "pass", "pass")
    assert state.discard[parse_card("**")] == 1 and state.auction_card == -1
    assert all(collection(state, p) == [] for p in range(3))


# --- payment by rule ----------------------------------------------------------------------------


def test_auto_pay_pays_duplicates_then_tokens_then_the_least_useful_card_without_asking():
    state = new_state(["B1", "B1", "G2", "W5", "O1"], num_players=3, auto_pay=True)
    play(state, "draw", "take numbers", "skip")  # player 0: B1 × 2
    play(state, "take numbers", "skip")  # player 1: G2
    assert state.phase == AUCTION and state.current_player() == 0  # player 2 drew W5
    play(state, "bid 7", "pass", "pass")  # 7 = the duplicate B1 + 5 tokens + the last B1
    assert state.phase == DECIDE and state.current_player() == 2
    assert collection(state, 0) == ["W5"] and state.tokens[0] == 0
    assert state.discard[parse_card("B1")] == 2


# --- the end ------------------------------------------------------------------------------------


def test_drawing_the_last_card_forbids_further_draws():
    state = new_state(["B2", "B3"])
    play(state, "draw")
    assert state.last_drawn and legal(state) == ["take numbers", "take money"]


def test_a_wild_as_last_card_is_auctioned_then_the_player_must_stop():
    state = new_state(["B2", "W5"])
    play(state, "draw")
    assert state.phase == AUCTION
    play(state, "bid 1", "pass", "pay token")
    assert legal(state) == ["take numbers", "take money"]


def test_final_round_gives_one_buy_to_each_player_from_the_left_ending_with_the_last_active():
    state = new_state(["B3", "G1", "O1"], num_players=3)
    play(state, "take money")  # B3 to the market
    play(state, "take numbers", "skip")  # player 1
    play(state, "take numbers")  # player 2 takes the last card, then its ordinary buy
    assert state.phase == BUY and state.buy_kind == BUY_TAKE and state.current_player() == 2
    play(state, "skip")
    order = []
    while not state.is_terminal():
        assert state.phase in (BUY, PAYMENT)
        if state.phase == BUY:
            assert state.buy_kind == BUY_FINAL
            order.append(state.current_player())
        play(state, "buy B3" if state.current_player() == 1 and state.phase == BUY else
             "pay token" if state.phase == PAYMENT else "skip")
    assert order == [0, 1, 2]
    assert collection(state, 1) == ["B3", "G1"] and state.tokens[1] == 2
    assert state.current_player() == -1 and state.legal_actions() == []


def test_a_bust_on_the_last_card_still_leads_to_the_final_round():
    state = new_state(["B9", "B5"])
    play(state, "draw")
    assert state.phase == BUY and state.buy_kind == BUY_FINAL and state.current_player() == 1
    assert legal(state) == ["buy B5", "skip"]


# --- scoring and ties ---------------------------------------------------------------------------


def _two_player_game(deck, *actions, **options):
    state = new_state(deck, **options)
    play(state, *actions)
    while not state.is_terminal():
        play(state, "skip")
    return state


def test_scores_are_the_best_runs_of_each_collection():
    state = new_state(["B1", "B2", "W2", "G1", "G3", "O1"])
    play(state, "draw", "take numbers", "skip", "pass", "bid 1", "pay token")  # player 1 wins W2
    play(state, "draw", "draw", "take numbers", "skip")
    assert state.scores() == [2, 3]  # B1 B2 | G1 W2 G3 (the number wild fills the green gap)


def test_equal_scores_are_broken_by_money_tokens_plus_three_per_consolation():
    # Player 0 takes B1; player 1 takes G1 with $2, which pays player 0.
    state = _two_player_game(["B1", "G1", "$2"], "take numbers", "skip", "draw", "take numbers")
    assert state.scores() == [1, 1] and list(state.tokens) == [7, 5]
    assert state.ranking_keys()[0] > state.ranking_keys()[1]


def test_equal_scores_and_money_are_broken_by_fewest_cards():
    state = new_state(["B1", "G1", "G1"], num_players=3)
    play(state, "take numbers", "skip", "draw", "take numbers")
    while not state.is_terminal():
        play(state, "skip")
    keys = state.ranking_keys()
    assert state.scores() == [1, 1, 0] and list(state.tokens) == [5, 5, 5]
    assert keys[0] > keys[1] > keys[2]  # one card beats two duplicates


def test_a_full_tie_is_a_shared_win():
    state = _two_player_game(["B1", "G1"], "take numbers", "skip", "take numbers")
    keys = state.ranking_keys()
    assert keys[0] == keys[1]


# --- the bust_buy variant -----------------------------------------------------------------------


def test_bust_buy_offers_a_buy_instead_of_the_consolation_token_before_others_are_paid():
    state = new_state(["$2", "B9", "B4", "G1"], bust_buy=True)
    play(state, "draw", "draw")  # total 11: bust
    assert state.phase == BUY and state.buy_kind == BUY_BUST and state.current_player() == 0
    assert list(state.tokens) == [5, 5] and tableau(state) == ["$2"]  # steps 3 and 4 come after
    assert legal(state) == ["buy B4", "skip"]
    play(state, "buy B4", "pay token", "pay token", "pay token", "pay token")
    assert collection(state, 0) == ["B4"] and state.consolation[0] == 0
    assert list(state.tokens) == [1, 7] and state.active == 1


def test_bust_buy_skipping_the_buy_gives_the_consolation_token():
    state = new_state(["$2", "B9", "B4", "G1"], bust_buy=True)
    play(state, "draw", "draw", "skip")
    assert state.consolation[0] == 1 and list(state.tokens) == [5, 7] and market(state) == ["B4", "B9"]
