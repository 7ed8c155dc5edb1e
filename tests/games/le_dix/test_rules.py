"""Scenario tests for every le_dix rule, with stacked decks."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest

from dixenv import le_dix_v0
from tests.games.le_dix.helpers import legal_strings, make, play, stacked_deck

# Three players, two cards each, dealer 0, diamonds trump.
HANDS_3 = {0: ["AS", "2H"], 1: ["KS", "3H"], 2: ["QS", "4D"]}


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left():
    deck = ["2S", "3S", "4S", "5S", "6S", "7S", "8S"]  # 3 players × 2 cards + the turn-up
    env = le_dix_v0.raw_env(num_players=3, deals=(2,), auto_forced=False)
    env.reset(seed=0, options={"deck": deck, "dealer": 1})
    hands = env.state.hands
    # seat 2 (left of dealer 1) gets cards 1 and 4, seat 0 cards 2 and 5, the dealer cards 3 and 6.
    assert hands[2] == [0, 3] and hands[0] == [1, 4] and hands[1] == [2, 5]


def test_the_card_after_the_deal_is_turned_up_and_sets_trump():
    env = make(3, HANDS_3, "5D")
    assert env.action_to_string(env.state.trump_card + 2) == "discard 5D"
    assert env.state.trump_suit == 2  # S, H, D, C


def test_dealer_decides_first_whether_to_take_the_trump_card():
    env = make(3, HANDS_3, "5D", dealer=0)
    assert env.agent_selection == "player_0"
    assert legal_strings(env) == ["take trump", "leave trump"]


def test_dealer_taking_trump_must_discard_one_card_possibly_the_trump_itself():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "take trump")
    assert env.agent_selection == "player_0"
    assert sorted(legal_strings(env)) == sorted(["discard AS", "discard 2H", "discard 5D"])
    play(env, "discard 5D")
    assert sorted(env.state.hands[0]) == sorted([env.string_to_action(f"discard {c}") - 2 for c in ["AS", "2H"]])
    assert env.agent_selection == "player_1"


def test_dealer_discard_is_hidden_from_others_but_the_pick_up_is_public():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "take trump", "discard 2H")
    layout = env.layout
    dealer_view = layout.unflatten(env.observe("player_0")["observation"])
    other_view = layout.unflatten(env.observe("player_1")["observation"])
    two_h = env.string_to_action("discard 2H") - 2
    assert dealer_view["own_discard"][two_h] == 1
    assert other_view["own_discard"].sum() == 0
    assert dealer_view["dealer_took_trump"][0] == 1 and other_view["dealer_took_trump"][0] == 1


def test_leaving_the_trump_card_starts_bidding_at_the_dealers_left():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "leave trump")
    assert env.agent_selection == "player_1"
    assert legal_strings(env) == ["bid 0", "bid 1", "bid 2"]


def test_bids_go_round_with_the_dealer_last_then_dealers_left_leads():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "leave trump", "bid 0")
    assert env.agent_selection == "player_2"
    play(env, "bid 1")
    assert env.agent_selection == "player_0"
    play(env, "bid 1")
    assert env.state.bids == [1, 0, 1]
    assert env.agent_selection == "player_1"  # left of the dealer leads the first trick
    assert legal_strings(env) == ["play KS", "play 3H"]


def test_bid_total_is_unrestricted_without_the_hook():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "leave trump", "bid 1", "bid 0")
    assert legal_strings(env) == ["bid 0", "bid 1", "bid 2"]  # bid 1 makes the total 2 = hand size


def test_hook_forbids_the_dealer_a_bid_that_makes_the_total_equal_the_hand_size():
    env = make(3, HANDS_3, "5D", dealer=0, hook=True)
    play(env, "leave trump", "bid 1", "bid 0")
    assert legal_strings(env) == ["bid 0", "bid 2"]
    with pytest.raises(ValueError, match="bid 1"):
        play(env, "bid 1")


def test_hook_does_not_restrict_the_other_bidders():
    env = make(3, HANDS_3, "5D", dealer=0, hook=True)
    play(env, "leave trump", "bid 1")
    assert legal_strings(env) == ["bid 0", "bid 1", "bid 2"]


def test_players_must_follow_the_led_suit_when_they_can():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "leave trump", "bid 0", "bid 1", "bid 1", "play KS")
    assert legal_strings(env) == ["play QS"]  # player_2 holds QS and 4D: must follow spades


def test_a_player_void_in_the_led_suit_may_trump_or_discard_any_card():
    hands = {0: ["AS", "2H", "3H"], 1: ["KC", "4H", "5H"], 2: ["QS", "4D", "6H"]}
    env = make(3, hands, "5D", dealer=2, deals=(3,))
    # dealer 2: player_0 bids first and leads; it leads AS; player_1 has no spade.
    play(env, "leave trump", "bid 0", "bid 0", "bid 0", "play AS")
    assert env.agent_selection == "player_1"
    assert legal_strings(env) == ["play 4H", "play 5H", "play KC"]


def test_highest_card_of_the_led_suit_wins_without_trumps():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "leave trump", "bid 0", "bid 1", "bid 1", "play KS", "play QS", "play AS")
    assert env.state.tricks_won == [1, 0, 0]
    assert env.agent_selection == "player_0"  # the trick's winner leads the next


def test_any_trump_beats_the_led_suit():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "leave trump", "bid 0", "bid 1", "bid 1", "play KS", "play QS", "play AS")
    play(env, "play 2H", "play 3H", "play 4D")  # player_2 is void in hearts and trumps with 4D
    assert env.state.tricks_won == [1, 0, 1]


def test_highest_trump_wins_when_several_trump():
    hands = {0: ["2S", "9D"], 1: ["3S", "TD"], 2: ["AS", "2D"]}
    env = make(3, hands, "5D", dealer=2)
    # player_0 leads; everyone else is void in... no: player_1 and player_2 hold a spade, so lead a trump
    play(env, "leave trump", "bid 0", "bid 0", "bid 0", "play 9D", "play TD", "play 2D")
    assert env.state.tricks_won == [0, 1, 0]


def test_an_off_suit_discard_never_wins_the_trick():
    hands = {0: ["2S", "3H"], 1: ["AH", "4H"], 2: ["3S", "5C"]}
    env = make(3, hands, "5D", dealer=2)
    play(env, "leave trump", "bid 0", "bid 0", "bid 0", "play 2S", "play AH", "play 3S")
    assert env.state.tricks_won == [0, 0, 1]  # 3S beats 2S; the ace of hearts was a discard


def test_exact_bids_score_ten_and_missed_bids_score_nothing():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "leave trump", "bid 0", "bid 2", "bid 1", "play KS", "play QS", "play AS")
    play(env, "play 2H", "play 3H", "play 4D")
    assert env.state.tricks_won == [1, 0, 1]
    assert env.scores() == [10, 10, 0]  # player_2 bid 2 but made 1
    assert all(env.terminations.values())


def test_oh_hell_scoring_pays_ten_plus_the_bid_for_an_exact_bid():
    env = make(3, HANDS_3, "5D", dealer=0, scoring="oh_hell")
    play(env, "leave trump", "bid 0", "bid 1", "bid 1", "play KS", "play QS", "play AS")
    play(env, "play 2H", "play 3H", "play 4D")
    assert env.scores() == [11, 10, 11]


def test_ten_deals_of_ten_down_to_one_card_with_the_deal_passing_left():
    env = le_dix_v0.raw_env(num_players=4)
    env.reset(seed=3, options={"dealer": 2})
    seen: dict[int, tuple[int, int]] = {}
    rng = np.random.default_rng(0)
    while not all(env.terminations.values()):
        st = env.state
        seen.setdefault(st.deal_index, (st.hand_size, st.dealer))
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    assert [seen[i][0] for i in range(10)] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert [seen[i][1] for i in range(10)] == [2, 3, 0, 1, 2, 3, 0, 1, 2, 3]


def test_the_deals_option_sets_the_schedule_and_the_bid_range():
    env = le_dix_v0.raw_env(num_players=5, deals=(5, 2))
    env.reset(seed=1)
    assert [len(h) for h in env.state.hands] == [5] * 5
    assert env.action_space("player_0").n == 2 + 52 + 6 + 52  # bids 0..5


def test_game_ends_after_the_last_deal_and_the_highest_total_wins():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "leave trump", "bid 0", "bid 2", "bid 1", "play KS", "play QS", "play AS")
    play(env, "play 2H", "play 3H", "play 4D")
    # scores [10, 10, 0]: players 0 and 1 share the win, player 2 lost to both
    assert env.rewards == {"player_0": 0.5, "player_1": 0.5, "player_2": -1.0}


def test_points_reward_pays_each_deal_as_it_is_scored():
    env = make(3, HANDS_3, "5D", dealer=0, reward="points")
    play(env, "leave trump", "bid 0", "bid 2", "bid 1", "play KS", "play QS", "play AS")
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": 0.0}
    play(env, "play 2H", "play 3H", "play 4D")
    assert env.rewards == {"player_0": 10.0, "player_1": 10.0, "player_2": 0.0}


def test_forced_moves_are_played_by_the_environment():
    hands = {0: ["AS", "2H"], 1: ["KS", "3H"], 2: ["QS", "4D"]}
    env = make(3, hands, "5D", dealer=0, auto_forced=True)
    play(env, "leave trump", "bid 0", "bid 1", "bid 1", "play KS")
    # player_2 must play QS and player_0 must play AS: both forced; player_0 then leads 2H,
    # after which everyone's last card is forced, so the deal (and game) is over.
    assert env.state.tricks_won == [1, 0, 1]
    assert all(env.terminations.values())


def test_trump_choice_is_asked_even_with_auto_forced():
    env = make(3, HANDS_3, "5D", dealer=0, auto_forced=True)
    assert legal_strings(env) == ["take trump", "leave trump"]


def test_illegal_action_in_raw_env_raises_naming_the_action_and_the_legal_ones():
    env = make(3, HANDS_3, "5D", dealer=0)
    with pytest.raises(ValueError, match=r"play AS.*legal: take trump, leave trump"):
        play(env, "play AS")
    assert legal_strings(env) == ["take trump", "leave trump"]  # state unchanged


def test_illegal_action_in_wrapped_env_ends_the_game_with_the_offender_losing():
    env = le_dix_v0.env(num_players=3, deals=(2,))
    env.reset(seed=0, options={"deck": stacked_deck(HANDS_3, "5D", 0, 3), "dealer": 0})
    env.step(env.unwrapped.string_to_action("play AS"))
    assert all(env.terminations.values())
    assert env.rewards["player_0"] == -1
    assert env.rewards["player_1"] == 0 and env.rewards["player_2"] == 0


@pytest.mark.skipif(not hasattr(pettingzoo, "aec_registry"), reason="PettingZoo's registry is new in 1.27")
def test_pettingzoo_make_builds_le_dix_from_the_registry():
    import dixenv  # noqa: F401  (registers)

    env = pettingzoo.make("aec", "dixenv/le_dix-v0", num_players=5)
    env.reset(seed=0)
    assert env.possible_agents == [f"player_{i}" for i in range(5)]


@pytest.mark.parametrize(
    "text",
    ["take trump", "leave trump", "discard TH", "bid 0", "bid 10", "play AS", "play 2C"],
)
def test_action_strings_round_trip(text):
    env = le_dix_v0.raw_env()
    assert env.action_to_string(env.string_to_action(text)) == text


def test_every_action_id_has_a_distinct_string():
    env = le_dix_v0.raw_env(num_players=3, deals=(17,))
    names = [env.action_to_string(a) for a in range(env.action_space("player_0").n)]
    assert len(set(names)) == len(names)
    assert all(env.string_to_action(s) == a for a, s in enumerate(names))
