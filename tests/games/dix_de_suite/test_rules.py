"""Scenario tests with stacked decks: one test per rule and variant of dix de suite."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv.games.dix_de_suite.game import GAME
from dixenv.games.dix_de_suite.scoring import ascending_prefix, longest_run, round_points, run_bonus, wins_round

from .helpers import DESC_2, NEAR_WIN, PREFIX_3, band_player, legal_strings, make, play, stacked_deck



# --- deal ------------------------------------------------------------------------------------------


def test_deal_one_card_at_a_time_from_dealers_left_filling_slot_10_towards_slot_1():
    env = GAME.new_state(GAME.make_config(num_players=2), np.random.default_rng(0), {"deck": list(range(1, 22)), "dealer": 0})
    # Card 1 goes to seat 1's slot 10, card 2 to seat 0's slot 10, card 3 to seat 1's slot 9, ...
    assert env.racks[1] == [19, 17, 15, 13, 11, 9, 7, 5, 3, 1]
    assert env.racks[0] == [20, 18, 16, 14, 12, 10, 8, 6, 4, 2]
    assert env.discard == [21]
    assert sorted(env.draw_pile) == list(range(22, 41))


def test_deal_with_three_players_starts_left_of_the_dealer():
    deck = list(range(1, 32))
    state = GAME.new_state(GAME.make_config(num_players=3), np.random.default_rng(0), {"deck": deck, "dealer": 2})
    assert state.racks[0][9] == 1 and state.racks[1][9] == 2 and state.racks[2][9] == 3
    assert state.racks[0][8] == 4
    assert state.discard == [31]
    assert len(state.draw_pile) == 50 - 31
    assert state.current_player() == 0  # the player left of the dealer starts


def test_listed_cards_come_first_and_unlisted_cards_follow_in_seeded_order():
    racks = {0: list(range(1, 11)), 1: list(range(11, 21))}
    deck = stacked_deck(racks, 21, draw=[40, 39])

    def draw_order(seed):
        env = make(racks, 21, draw=[40, 39], seed=seed)
        return env.state.draw_pile[::-1]  # top first

    first = draw_order(3)
    assert first[:2] == [40, 39]
    assert sorted(first[2:]) == list(range(22, 39))
    assert draw_order(3) == first  # same seed, same order
    assert draw_order(4) != first  # the unlisted cards are shuffled by the seed
    assert deck[-3:] == [21, 40, 39]


def test_first_dealer_is_seeded_when_not_given():
    config = GAME.make_config(num_players=4)
    dealers = {GAME.new_state(config, np.random.default_rng(s), {}).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert GAME.new_state(config, np.random.default_rng(5), {}).dealer == GAME.new_state(config, np.random.default_rng(5), {}).dealer


# --- a turn ----------------------------------------------------------------------------------------


def test_a_turn_starts_with_a_choice_between_draw_pile_and_discard_pile():
    env = make(DESC_2, 1, draw=[2])
    assert env.agent_selection == "player_1"
    assert legal_strings(env) == ["draw", "take discard"]


def test_a_drawn_card_may_replace_any_slot_or_be_discarded():
    env = make(DESC_2, 1, draw=[2])
    play(env, "draw")
    assert env.agent_selection == "player_1"  # the same player places the card
    assert legal_strings(env) == [f"swap {k}" for k in range(1, 11)] + ["discard"]
    play(env, "discard")
    assert env.state.discard == [1, 2]
    assert env.state.racks[1] == DESC_2[1]
    assert env.agent_selection == "player_0"


def test_swap_puts_the_card_in_the_slot_and_the_replaced_card_face_up_on_the_discard_pile():
    env = make(DESC_2, 1, draw=[2])
    play(env, "draw", "swap 4")
    assert env.state.racks[1][3] == 2
    assert env.state.discard == [1, DESC_2[1][3]]


def test_a_card_taken_from_the_discard_pile_must_be_kept():
    env = make(DESC_2, 1, draw=[2])
    play(env, "take discard")
    assert legal_strings(env) == [f"swap {k}" for k in range(1, 11)]
    with pytest.raises(ValueError, match="swap 1"):
        env.step(env.string_to_action("discard"))
    play(env, "swap 1")
    assert env.state.racks[1][0] == 1
    assert env.state.discard == [DESC_2[1][0]]


def test_the_discard_pile_is_turned_over_not_shuffled_when_the_draw_pile_is_empty():
    # Every card is listed: discard 1, then the draw pile 2..20 (top first).
    env = make(DESC_2, 1, draw=list(range(2, 21)))
    for _ in range(19):
        play(env, "draw", "discard")
    state = env.state
    # The pile 1 (bottom) .. 20 (top) turned face down: 1 is on top, turned up to start the new discard.
    assert state.discard == [1]
    assert state.draw_pile[::-1] == list(range(2, 21))
    assert state.draw_public
    assert env.agent_selection == "player_0"  # seat 1 played turns 1, 3, …, 19
    play(env, "draw")
    assert state.held == 2


def test_reshuffle_option_shuffles_the_turned_over_discard_pile():
    env = make(DESC_2, 1, draw=list(range(2, 21)), reshuffle=True)
    for _ in range(19):
        play(env, "draw", "discard")
    state = env.state
    assert len(state.discard) == 1 and len(state.draw_pile) == 19
    assert sorted(state.discard + state.draw_pile) == list(range(1, 21))
    assert state.draw_pile[::-1] != list(range(2, 21))
    assert not state.draw_public


# --- end of a round --------------------------------------------------------------------------------


def test_round_ends_when_the_player_who_just_played_has_an_ascending_rack():
    env = make({0: PREFIX_3, 1: NEAR_WIN}, 4, draw=[30], reward="points")
    play(env, "draw", "swap 10")
    assert env.unwrapped.scores() == [15, 75]
    assert env.rewards == {"player_0": 15.0, "player_1": 75.0}
    assert env.state.round == 2


def test_taking_the_discard_can_also_complete_the_rack():
    env = make({0: PREFIX_3, 1: NEAR_WIN}, 30, draw=[4])
    play(env, "take discard", "swap 10")
    assert env.scores() == [15, 75]


def test_only_the_player_who_just_played_is_checked_for_an_ascending_rack():
    # Seat 0 is dealt an ascending rack but seat 1 plays first: the round goes on until seat 0 plays.
    env = make({0: list(range(1, 11)), 1: DESC_2[1]}, 40, draw=[35, 36])
    play(env, "draw", "discard")
    assert env.scores() == [0, 0] and env.state.round == 1
    play(env, "draw", "discard")
    assert env.scores() == [75, 5]  # a descending rack still scores the minimum 5


def test_other_players_score_five_per_card_of_the_ascending_prefix_from_slot_1():
    assert ascending_prefix([10, 12, 14, 1, 20, 21, 22, 23, 24, 25]) == 3
    assert ascending_prefix([30, 1, 2, 3, 4, 5, 6, 7, 8, 9]) == 1  # slot 1 above slot 2: only 5 points
    assert round_points([[30, 1, 2, 3, 4, 5, 6, 7, 8, 9], list(range(11, 21)), [1, 2, 3, 4, 5, 6, 7, 8, 39, 10]], 1, False) == [
        5,
        75,
        45,
    ]


def test_dealer_rotates_left_and_the_player_left_of_the_new_dealer_starts():
    racks = {0: PREFIX_3, 1: NEAR_WIN, 2: [50, 49, 48, 47, 46, 45, 44, 43, 42, 41]}
    env = make(racks, 4, draw=[30], dealer=0)
    assert env.agent_selection == "player_1"
    play(env, "draw", "swap 10")
    assert env.state.round == 2 and env.state.dealer == 1
    assert env.agent_selection == "player_2"
    assert sorted(env.state.all_cards()) == list(range(1, 51))  # a full new deal


def test_game_ends_at_the_end_of_a_round_when_someone_reaches_the_target_and_the_highest_wins():
    env = make({0: PREFIX_3, 1: NEAR_WIN}, 4, draw=[30], target_score=75)
    play(env, "draw", "swap 10")
    assert env.state.is_terminal() and env.state.current_player() == -1
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}


def test_when_several_reach_the_target_the_highest_score_wins():
    env = make({0: PREFIX_3, 1: NEAR_WIN}, 4, draw=[30])
    env.state.scores_ = [490, 450]  # as if after earlier rounds
    play(env, "draw", "swap 10")
    assert env.scores() == [505, 525]
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}


def test_equal_highest_scores_share_the_win():
    env = make({0: PREFIX_3, 1: NEAR_WIN}, 4, draw=[30], target_score=100)
    env.state.scores_ = [85, 25]
    play(env, "draw", "swap 10")
    assert env.scores() == [100, 100]
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


def test_rounds_continue_until_the_target_score_with_seeded_reshuffled_deals():
    config = GAME.make_config(num_players=3)
    racks = {0: PREFIX_3, 1: NEAR_WIN, 2: [50, 49, 48, 47, 46, 45, 44, 43, 42, 41]}
    state = GAME.new_state(config, np.random.default_rng(11), {"deck": stacked_deck(racks, 4, [30]), "dealer": 0})
    rng = np.random.default_rng(0)
    totals = [0, 0, 0]
    rounds = 1
    while state.current_player() >= 0:
        before = state.round
        state.apply_action(band_player(state, rng))
        if state.round != before or state.is_terminal():
            assert max(totals) < 500, "the game went on after someone reached the target"
            assert all(p % 5 == 0 for p in state.last_round_points)
            totals = [t + p for t, p in zip(totals, state.last_round_points)]
            if not state.is_terminal():
                rounds += 1
                assert state.dealer == (rounds - 1) % 3
                assert state.current_player() == (state.dealer + 1) % 3
    assert state.is_terminal() and not state.is_truncated()
    assert state.scores() == totals and max(totals) >= 500
    assert rounds >= 7  # at most 75 points per round


# --- variants --------------------------------------------------------------------------------------


def test_two_player_run_a_rack_without_three_consecutive_numbers_does_not_win():
    env = make({0: PREFIX_3, 1: NEAR_WIN}, 4, draw=[30, 31], two_player_run=True)
    play(env, "draw", "swap 10")
    assert env.state.racks[1] == [3, 5, 7, 9, 11, 13, 15, 17, 19, 30]  # ascending, but no run of 3
    assert env.scores() == [0, 0] and env.state.round == 1
    assert env.agent_selection == "player_0"


def test_two_player_run_an_ascending_rack_with_three_consecutive_numbers_wins():
    rack = [3, 4, 5, 9, 11, 13, 15, 17, 19, 2]
    env = make({0: PREFIX_3, 1: rack}, 7, draw=[30], two_player_run=True)
    play(env, "draw", "swap 10")
    assert env.scores() == [15, 75]


def test_two_player_run_rule_checks_consecutive_numbers_in_consecutive_slots():
    assert not wins_round([1, 2, 4, 5, 7, 8, 10, 11, 13, 14], True)
    assert wins_round([1, 2, 4, 5, 7, 8, 10, 11, 12, 14], True)
    assert wins_round([1, 2, 4, 5, 7, 8, 10, 11, 13, 14], False)


def test_teams_add_their_points_and_the_first_team_to_the_target_wins():
    d = [60, 59, 58, 57, 56, 55, 54, 53, 52, 51]
    racks = {0: d, 1: NEAR_WIN, 2: [50, 49, 48, 47, 46, 45, 44, 43, 42, 41], 3: [21, 22, 1, 40, 39, 38, 37, 36, 35, 34]}
    env = make(racks, 4, draw=[30], teams=True, target_score=80)
    play(env, "draw", "swap 10")
    # Seat 1 has 75 (< 80) but seats 1+3 have 75 + 10 = 85: their team wins.
    assert env.scores() == [5, 75, 5, 10]
    assert env.state.is_terminal()
    assert env.state.ranking_keys() == [(10,), (85,), (10,), (85,)]
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0, "player_2": -1.0, "player_3": 1.0}


def test_teams_game_goes_on_while_no_team_reaches_the_target():
    d = [60, 59, 58, 57, 56, 55, 54, 53, 52, 51]
    racks = {0: d, 1: NEAR_WIN, 2: [50, 49, 48, 47, 46, 45, 44, 43, 42, 41], 3: [21, 22, 1, 40, 39, 38, 37, 36, 35, 34]}
    env = make(racks, 4, draw=[30], teams=True, target_score=86)
    play(env, "draw", "swap 10")
    assert not env.state.is_terminal() and env.state.round == 2


@pytest.mark.parametrize(
    "rack, bonus",
    [
        ([1, 3, 5, 7, 9, 11, 13, 15, 17, 19], 0),
        ([1, 2, 5, 6, 9, 11, 13, 15, 17, 19], 0),
        ([1, 2, 3, 7, 9, 11, 13, 15, 17, 19], 50),
        ([1, 2, 3, 4, 9, 11, 13, 15, 17, 19], 100),
        ([1, 2, 3, 4, 5, 11, 13, 15, 17, 19], 200),
        ([1, 2, 3, 4, 5, 6, 13, 15, 17, 19], 400),
        ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 400),
        ([1, 2, 3, 7, 8, 9, 10, 11, 17, 19], 200),  # two runs: only the longest counts
    ],
)
def test_run_bonus_pays_for_the_single_longest_run(rack, bonus):
    assert run_bonus(rack) == bonus
    assert (longest_run(rack) >= 3) == (bonus > 0)
    assert round_points([rack, list(range(30, 40))], 0, True)[0] == 75 + bonus
    assert round_points([rack, list(range(30, 40))], 0, False)[0] == 75


def test_run_bonus_variant_adds_the_bonus_to_the_round_winner_only():
    winner = [3, 4, 5, 6, 11, 13, 15, 17, 19, 2]  # run of 4 once 2 is replaced
    other = [20, 21, 22, 23, 1, 24, 25, 26, 27, 28]  # run of 4 too, but not the winner
    env = make({0: other, 1: winner}, 7, draw=[30], run_bonus=True)
    play(env, "draw", "swap 10")
    assert env.scores() == [20, 175]


# --- turn limit ------------------------------------------------------------------------------------


def test_max_turns_truncates_a_round_that_does_not_end():
    env = make(DESC_2, 1, draw=[2, 3, 4], max_turns=3)
    play(env, "draw", "discard", "draw", "discard")
    assert not env.state.is_truncated()
    play(env, "draw", "discard")
    state = env.state
    assert state.is_truncated() and not state.is_terminal()
    assert state.current_player() == -1 and state.legal_actions() == []
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


def test_max_turns_counts_turns_of_one_round_only_and_a_win_on_the_last_turn_counts():
    env = make({0: PREFIX_3, 1: NEAR_WIN}, 4, draw=[30], max_turns=1)
    play(env, "draw", "swap 10")  # round 1 is won on its last allowed turn: scored, not truncated
    assert env.scores() == [15, 75] and not env.state.is_truncated()
    assert env.state.round == 2 and env.state.round_turns == 0
    play(env, "draw", "discard")
    assert env.state.is_truncated()


def test_default_max_turns_is_documented_value():
    assert GAME.make_config().max_turns == 1000
