"""The solo game against ALIX: her decision rules one by one, in the engine and as functions."""

from __future__ import annotations

import pytest

from dixenv import dix_v0
from dixenv.games.dix import actions as A
from dixenv.games.dix.cards import CARD_NAMES, STANDARD_DECK, DeckSpec, parse_card
from dixenv.games.dix.solo import alix_bid, alix_decision, alix_payment, alix_should_draw, duplicates, first_duplicate
from dixenv.games.dix.state import AUCTION, BUY, PAYMENT
from tests.games.dix.helpers import collection, legal, market, new_state, play, tableau

ALIX = 1
# The whole 129-card box at two seats, so that duplicates exist (the 2-player box has none).
FULL_BOX = DeckSpec.from_mapping({CARD_NAMES[t]: c for t, c in enumerate(STANDARD_DECK.counts(4)) if c})


def solo(deck, difficulty=6, **options):
    return new_state(deck, solo=True, difficulty=difficulty, **options)


# --- her turn -----------------------------------------------------------------------------------


def test_alix_draws_until_her_total_reaches_the_difficulty_then_takes_the_numbers():
    state = solo(["B1", "G1", "G2", "G3", "O1"], difficulty=6)
    play(state, "take numbers", "skip")
    # ALIX drew G1, G2, G3 (total 6) and took them; the player's next turn has begun.
    assert collection(state, ALIX) == ["G1", "G2", "G3"]
    assert state.current_player() == 0 and state.active == 0 and tableau(state) == ["O1"]


def test_alix_taking_numbers_pays_the_player_the_currency():
    state = solo(["B1", "G5", "$1", "G4", "O1"], difficulty=6)
    play(state, "take numbers", "skip")  # ALIX: G5 (5), $1 (4), G4 (8)
    assert collection(state, ALIX) == ["G4", "G5"] and list(state.tokens) == [6, 5]


def test_alix_busting_on_currency_keeps_her_numbers_and_gains_a_consolation_token():
    state = solo(["B1", "G1", "$5", "$4", "$2", "O1"], difficulty=10)
    play(state, "take numbers", "skip")  # ALIX: G1, $5, $4, $2: currency 11
    assert collection(state, ALIX) == ["G1"] and market(state) == []
    assert list(state.consolation) == [0, 1] and list(state.tokens) == [5, 5]  # nobody is paid
    assert state.current_player() == 0 and tableau(state) == ["O1"]


def test_alix_never_busts_on_her_total():
    state = solo(["B1", "G9", "G6", "O1"], difficulty=10)
    play(state, "take numbers", "skip")  # ALIX: G9 (9 < 10), G6: total 15
    assert collection(state, ALIX) == ["G6", "G9"] and state.consolation[ALIX] == 0


def test_alix_never_buys():
    state = solo(["B2", "G5", "G3", "O1"], difficulty=6)
    play(state, "take money")  # B2 to the market; ALIX takes G5 G3 and could afford B2
    assert market(state) == ["B2"] and collection(state, ALIX) == ["G3", "G5"] and state.tokens[ALIX] == 5


def test_alix_stops_at_the_last_card_and_skips_her_final_buy():
    state = solo(["B1", "G1"], difficulty=6)
    play(state, "take money")  # B1 to the market; ALIX draws G1, the last card
    assert collection(state, ALIX) == ["G1"]
    assert state.phase == BUY and state.current_player() == 0  # the player's final buy
    play(state, "skip")
    assert state.is_terminal() and market(state) == ["B1"]


def test_the_player_starts_and_only_the_player_is_ever_asked():
    state = solo(["B1", "G1", "G2", "G3", "O1", "O2"], difficulty=4)
    assert state.current_player() == 0 and state.active == 0
    with pytest.raises(ValueError, match="first_player"):
        new_state(["B1"], first_player=1, solo=True)
    env = dix_v0.env(solo=True, difficulty=5)
    assert env.possible_agents == ["player_0"]
    env.reset(seed=0)
    assert len(env.unwrapped.scores()) == 2  # ALIX's score too


# --- auctions -----------------------------------------------------------------------------------


def test_solo_bids_start_at_five():
    state = solo(["B1", "W3", "O1"], difficulty=6)
    play(state, "take numbers", "skip")  # ALIX draws W3: the player bids first, at least 5
    assert state.phase == AUCTION and legal(state) == ["bid 5", "pass"]


def test_alix_bidding_first_bids_the_players_means_when_she_can():
    # Player takes B1 with $3 (ALIX: 8 tokens); ALIX G5; player takes $1 money (6 tokens); ALIX G4.
    state = solo(["$3", "B1", "G5", "$1", "G4", "W3", "O1"], difficulty=4)
    play(state, "draw", "take numbers", "skip", "take money")
    assert state.phase == AUCTION and state.high_bidder == ALIX and state.high_bid == 6
    assert legal(state) == ["pass"]  # the player cannot beat her own means


def test_alix_bidding_first_bids_at_least_five_within_her_means():
    state = solo(["W3", "O1"], difficulty=6)
    assert state.high_bidder == ALIX and state.high_bid == 5  # player's means 5, ALIX's 5
    play(state, "pass")
    assert collection(state, ALIX) == ["W3"] and state.tokens[ALIX] == 0


def test_alix_bidding_first_bids_her_whole_means_when_the_player_has_more():
    state = solo(["$3", "G5", "W3", "O1"], difficulty=4)
    play(state, "take money")  # player: 8 tokens; ALIX takes G5
    assert state.high_bidder == ALIX and state.high_bid == 5
    assert legal(state) == ["bid 6", "bid 7", "bid 8", "pass"]


def test_alix_passes_when_she_cannot_bid_five():
    state = solo(["W3", "W4", "O1"], difficulty=6)
    play(state, "pass")  # ALIX won W3 for all her 5 tokens
    play(state, "draw")  # W4: ALIX has nothing left
    assert state.phase == AUCTION and state.high_bidder == -1 and state.current_player() == 0
    assert legal(state) == ["bid 5", "pass"]


def test_alix_bidding_last_bids_one_more_than_the_player():
    state = solo(["$3", "B1", "W3", "O1"], difficulty=6)
    play(state, "draw", "take numbers", "skip")  # ALIX: 8 tokens, then draws W3
    play(state, "bid 5")  # ALIX bids 6, pays it, then draws O1 and takes it
    assert collection(state, ALIX) == ["O1", "W3"] and state.tokens[ALIX] == 2 and state.tokens[0] == 5


def test_alix_bidding_last_passes_when_she_cannot_beat_the_player():
    state = solo(["B1", "W3", "O1"], difficulty=6)
    play(state, "take numbers", "skip", "bid 5")  # ALIX would need 6 but has 5
    assert state.phase == PAYMENT and state.current_player() == 0
    play(state, *["pay token"] * 5)
    assert collection(state, 0) == ["B1", "W3"]


def test_alix_bidding_last_bids_five_when_the_player_passed():
    state = solo(["B1", "W3", "O1"], difficulty=6)
    play(state, "take numbers", "skip", "pass")  # ALIX bids 5, pays, then draws O1 and takes it
    assert collection(state, ALIX) == ["O1", "W3"] and state.tokens[ALIX] == 0


def test_alix_pays_tokens_first_then_consolation():
    # Player takes $2 (7 tokens); ALIX busts on currency (5 tokens + 1 consolation).
    state = solo(["$2", "$5", "$4", "$2", "W3", "O1"], difficulty=10)
    play(state, "take money")
    assert list(state.consolation) == [0, 1] and state.high_bid == 7  # she bids the player's means
    play(state, "pass")
    assert state.tokens[ALIX] == 0 and state.consolation[ALIX] == 0 and collection(state, ALIX) == ["W3"]


def test_solo_bids_count_and_pay_only_duplicates_among_cards():
    state = solo(["B1", "B1", "G1", "G5", "W3", "O1"], difficulty=4, deck_spec=FULL_BOX)
    play(state, "draw", "draw", "take numbers", "skip")  # player: B1 × 2, G1; ALIX takes G5
    assert state.high_bidder == ALIX and state.high_bid == 5  # player's means 5 + 1 duplicate = 6
    assert legal(state) == ["bid 6", "pass"]
    play(state, "bid 6")
    assert legal(state) == ["pay token", "pay B1"]  # G1 is no duplicate


def test_solo_buys_may_use_any_number_card():
    state = solo(["B4", "G5", "G1", "O1"], difficulty=4)
    play(state, "take money", "take numbers", "buy B4")  # ALIX takes G5; player takes G1 and buys B4
    assert legal(state) == ["pay token", "pay G1"]


# --- the decision functions ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "total, currency, difficulty, draws",
    [(0, 0, 4, True), (3, 0, 4, True), (4, 0, 4, False), (12, 0, 10, False), (-5, 10, 6, True), (-6, 11, 6, False)],
)
def test_alix_should_draw_below_the_threshold_unless_currency_is_over_ten(total, currency, difficulty, draws):
    assert alix_should_draw(total, currency, difficulty) is draws


def test_alix_decision_takes_numbers_when_she_may_not_draw():
    assert alix_decision(0, 0, 6, can_draw=True) == A.DRAW
    assert alix_decision(0, 0, 6, can_draw=False) == A.TAKE_NUMBERS
    assert alix_decision(7, 0, 6, can_draw=True) == A.TAKE_NUMBERS


@pytest.mark.parametrize(
    "high, own, rival, last, bid",
    [
        (0, 10, 7, False, 7),  # first: the rival's means
        (0, 10, 2, False, 5),  # first: at least 5
        (0, 6, 9, False, 6),  # first: as close as she can
        (0, 4, 2, False, 0),  # first: cannot bid 5, passes
        (6, 10, 9, True, 7),  # last: one more than the player
        (6, 6, 9, True, 0),  # last: cannot beat, passes
        (0, 5, 9, True, 5),  # last, the player passed: 5
        (0, 4, 9, True, 0),  # last, the player passed, she cannot bid 5
    ],
)
def test_alix_bid_rules(high, own, rival, last, bid):
    assert alix_bid(high, own, rival, last) == bid


def test_alix_payment_order_tokens_then_duplicates_then_consolation():
    numbers = [0] * 36
    numbers[parse_card("G2")] = 2
    numbers[parse_card("B3")] = 3
    assert duplicates(numbers) == 3 and first_duplicate(numbers) == parse_card("G2")  # lowest number first
    assert alix_payment(1, 1, numbers) == A.PAY_TOKEN
    assert alix_payment(0, 1, numbers) == A.PAY_CARD_BASE + parse_card("G2")
    assert alix_payment(0, 1, [1] * 36) == A.PAY_CONSOLATION
    with pytest.raises(ValueError):
        alix_payment(0, 0, [1] * 36)
