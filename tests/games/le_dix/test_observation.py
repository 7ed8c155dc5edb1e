"""Hidden information: a seat's observation depends only on what that seat may know."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv import le_dix_v0
from dixenv.games.le_dix.cards import card_name
from dixenv.games.le_dix.config import make_config
from dixenv.games.le_dix.observation import LeDixObserver
from dixenv.games.le_dix.state import LeDixState
from tests.games.le_dix.helpers import differing_pieces, observed, play, stacked_deck


def _shuffle_hidden(state: LeDixState, seat: int, rng: np.random.Generator) -> LeDixState:
    """A copy of ``state`` where the cards ``seat`` cannot see are dealt out differently."""
    other = state.clone()
    pools = [s for s in range(state.num_seats) if s != seat]
    hidden = [c for s in pools for c in other.hands[s]] + list(other.undealt)
    hide_discard = other.dealer_discard is not None and seat != other.dealer
    if hide_discard:
        hidden.append(other.dealer_discard)
    hidden = [hidden[i] for i in rng.permutation(len(hidden))]
    for s in pools:
        k = len(other.hands[s])
        other.hands[s], hidden = sorted(hidden[:k]), hidden[k:]
    if hide_discard:
        other.dealer_discard = hidden.pop()
    other.undealt = hidden
    other._legal = None
    return other


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_observation_does_not_change_when_only_unseen_cards_change(num_players):
    config = make_config(num_players=num_players)
    observer = LeDixObserver(config)
    rng = np.random.default_rng(num_players)
    for game in range(3):
        state = LeDixState(config, np.random.default_rng(game), {})
        step = 0
        while state.current_player() >= 0:
            if step % 7 == 0:
                for seat in range(num_players):
                    observer.set_from(state, seat)
                    before = observer.tensor.copy()
                    observer.set_from(_shuffle_hidden(state, seat, rng), seat)
                    assert np.array_equal(before, observer.tensor), f"seat {seat} saw hidden cards at step {step}"
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            step += 1


def test_observation_changes_when_the_observers_own_hand_changes():
    config = make_config(num_players=3)
    observer = LeDixObserver(config)
    state = LeDixState(config, np.random.default_rng(0), {})
    observer.set_from(state, 0)
    before = observer.tensor.copy()
    other = state.clone()
    other.hands[0], other.hands[1] = other.hands[1], other.hands[0]
    observer.set_from(other, 0)
    assert not np.array_equal(before, observer.tensor)


def test_seats_are_relative_to_the_observer():
    config = make_config(num_players=4)
    observer = LeDixObserver(config)
    state = LeDixState(config, np.random.default_rng(0), {"dealer": 2})
    for seat in range(4):
        observer.set_from(state, seat)
        dealer = observer.layout.unflatten(observer.tensor)["dealer"]
        assert dealer.argmax() == (2 - seat) % 4


# --- the public history of the current deal --------------------------------------------------
# Three players, dealer 2, spades trump (TS turned up); player_0 leads. Trick 1 is all spades
# (player_0's ace wins), trick 2 clubs (player_2's 9C wins), then player_2 leads 4H and
# player_0, void in hearts, decides with 6D and 7D.
HANDS_4 = {0: ["AS", "5C", "6D", "7D"], 1: ["KS", "3C", "2H", "3H"], 2: ["QS", "4C", "9C", "4H"]}
SCRIPT_4 = ["leave trump", "bid 1", "bid 1", "bid 1", "play AS", "play KS", "play QS", "play 5C", "play 3C", "play 9C", "play 4H"]


def _third_trick(hands, script=SCRIPT_4, deck_tail=()):
    deck = stacked_deck(hands, "TS", 2, 3) + list(deck_tail)
    env = le_dix_v0.raw_env(num_players=3, deals=(4,), auto_forced=False)
    env.reset(seed=0, options={"deck": deck, "dealer": 2})
    play(env, *script)
    assert env.agent_selection == "player_0"
    return env


def test_played_by_shows_who_played_each_card_this_deal():
    view = observed(_third_trick(HANDS_4), "player_0")
    by = view["played_by"]  # rows: player_0 (0), player_1 (1), player_2 (2)
    assert {card_name(c) for c in np.flatnonzero(by[0])} == {"AS", "5C"}
    assert {card_name(c) for c in np.flatnonzero(by[1])} == {"KS", "3C"}
    assert {card_name(c) for c in np.flatnonzero(by[2])} == {"QS", "9C", "4H"}
    assert (by.sum(axis=0) == view["played"]).all()


def test_who_played_a_card_of_an_earlier_trick_changes_the_observation():
    # The same cards fall in trick 1, but player_1 and player_2 hold each other's spade: only
    # ``played_by`` can tell (trick 1 is neither the current nor the last trick any more).
    swapped = {0: HANDS_4[0], 1: ["QS", "3C", "2H", "3H"], 2: ["KS", "4C", "9C", "4H"]}
    script = [a.replace("KS", "XX").replace("QS", "KS").replace("XX", "QS") for a in SCRIPT_4]
    a = observed(_third_trick(HANDS_4), "player_0")
    b = observed(_third_trick(swapped, script), "player_0")
    assert differing_pieces(a, b) == {"played_by"}


def test_unplayed_cards_of_other_hands_do_not_change_the_observation():
    # player_1 still holds 2H and 3H in one game, 2H and 5H (undealt in the first) in the other.
    other = {0: HANDS_4[0], 1: ["KS", "3C", "2H", "5H"], 2: HANDS_4[2]}
    a = _third_trick(HANDS_4, deck_tail=["5H"])
    b = _third_trick(other, deck_tail=["3H"])
    for agent in ("player_0", "player_2"):
        assert differing_pieces(observed(a, agent), observed(b, agent)) == set()


def test_void_shows_the_suits_a_seat_did_not_follow_this_deal():
    env = _third_trick(HANDS_4)
    assert observed(env, "player_0")["void"].sum() == 0  # everyone has followed so far
    play(env, "play 6D")  # player_0 cannot follow hearts
    for seat in range(3):
        void = observed(env, f"player_{seat}")["void"]
        rel = (0 - seat) % 3
        assert void[rel].tolist() == [0, 1, 0, 0] and void.sum() == 1  # hearts (S, H, D, C)


def test_a_void_shown_in_an_earlier_trick_changes_the_observation():
    # player_1 holds 3D instead of KS, so in trick 1 it shows it has no spade.
    no_spade = {0: HANDS_4[0], 1: ["3D", "3C", "2H", "3H"], 2: HANDS_4[2]}
    script = [a.replace("KS", "3D") for a in SCRIPT_4]
    a = observed(_third_trick(HANDS_4), "player_0")
    b = observed(_third_trick(no_spade, script), "player_0")
    assert a["void"].sum() == 0 and b["void"][1].tolist() == [1, 0, 0, 0]


def test_last_trick_leader_is_the_seat_that_led_the_last_complete_trick():
    env = le_dix_v0.raw_env(num_players=3, deals=(4,), auto_forced=False)
    env.reset(seed=0, options={"deck": stacked_deck(HANDS_4, "TS", 2, 3), "dealer": 2})
    play(env, *SCRIPT_4[:7])  # trick 1 complete: led by player_0
    assert observed(env, "player_0")["last_trick_leader"].tolist() == [1, 0, 0]
    assert observed(env, "player_1")["last_trick_leader"].tolist() == [0, 0, 1]
    play(env, *SCRIPT_4[7:10])  # trick 2 complete: led by player_0 again, won by player_2
    play(env, "play 4H", "play 6D", "play 2H")  # trick 3: led by player_2
    assert observed(env, "player_2")["last_trick_leader"].tolist() == [1, 0, 0]
    assert observed(env, "player_0")["last_trick_leader"].tolist() == [0, 0, 1]


def test_last_trick_leader_is_zero_before_the_first_trick_completes():
    env = le_dix_v0.raw_env(num_players=3, deals=(4,), auto_forced=False)
    env.reset(seed=0, options={"deck": stacked_deck(HANDS_4, "TS", 2, 3), "dealer": 2})
    play(env, *SCRIPT_4[:6])
    assert observed(env, "player_2")["last_trick_leader"].sum() == 0


# --- the previous deal ------------------------------------------------------------------------
# Deal 1 of (2, 1): dealer 0, diamonds trump; player_0 wins KS/QS/AS, player_2 ruffs 2H/3H with 4D.
HANDS_PREV = {0: ["AS", "2H"], 1: ["KS", "3H"], 2: ["QS", "4D"]}
SCRIPT_PREV = ["leave trump", "bid 0", "bid 1", "bid 1", "play KS", "play QS", "play AS", "play 2H", "play 3H", "play 4D"]


def _second_deal(hands=HANDS_PREV, script=SCRIPT_PREV, trump="5D", auto_forced=False):
    env = le_dix_v0.raw_env(num_players=3, deals=(2, 1), auto_forced=auto_forced)
    env.reset(seed=3, options={"deck": stacked_deck(hands, trump, 0, 3), "dealer": 0})
    play(env, *script)
    assert env.state.deal_index == 1 and env.agent_selection == "player_1"  # the new dealer's trump choice
    return env


def _cards_of(row) -> set[str]:
    return {card_name(c) for c in np.flatnonzero(row)}


def test_previous_deal_block_is_zero_until_the_first_deal_ends():
    env = le_dix_v0.raw_env(num_players=3, deals=(2, 1), auto_forced=False)
    env.reset(seed=3, options={"deck": stacked_deck(HANDS_PREV, "5D", 0, 3), "dealer": 0})
    play(env, *SCRIPT_PREV[:-1])
    view = observed(env, "player_2")
    assert all(view[name].sum() == 0 for name in view if name.startswith("prev_"))


def test_previous_deal_block_holds_trump_bids_tricks_every_card_and_the_final_trick():
    view = observed(_second_deal(), "player_1")  # rows: player_1, player_2, player_0
    assert view["prev_trump_suit"].tolist() == [0, 0, 1, 0]
    assert view["prev_bids"].argmax(axis=1).tolist() == [0, 1, 1]
    assert view["prev_tricks_won"].argmax(axis=1).tolist() == [0, 1, 1]
    assert [_cards_of(r) for r in view["prev_played_by"]] == [{"KS", "3H"}, {"QS", "4D"}, {"AS", "2H"}]
    assert [_cards_of(r) for r in view["prev_last_trick"]] == [{"3H"}, {"4D"}, {"2H"}]
    assert view["prev_last_trick_leader"].tolist() == [0, 0, 1]  # player_0 led 2H
    # The deal in progress starts afresh.
    assert view["played"].sum() == 0 and view["last_trick"].sum() == 0 and view["bids"].sum() == 0


def test_a_final_trick_played_by_the_environment_reaches_every_seat():
    # With auto_forced, everything after player_1's lead is forced: the whole final trick (and
    # the end of the first) is played by the environment, and no seat decides before deal 2.
    env = le_dix_v0.raw_env(num_players=3, deals=(2, 1), auto_forced=True)
    env.reset(seed=3, options={"deck": stacked_deck(HANDS_PREV, "5D", 0, 3), "dealer": 0})
    play(env, *SCRIPT_PREV[:5])
    assert env.state.deal_index == 1 and env.agent_selection == "player_1"
    forced = observed(env, "player_1")
    assert differing_pieces(forced, observed(_second_deal(), "player_1")) == set()
    assert [_cards_of(r) for r in forced["prev_last_trick"]] == [{"3H"}, {"4D"}, {"2H"}]


def test_a_different_final_trick_changes_the_next_deals_observation():
    # player_2 follows with 4H instead of ruffing with 4D: it still wins the trick.
    other = {0: HANDS_PREV[0], 1: HANDS_PREV[1], 2: ["QS", "4H"]}
    script = SCRIPT_PREV[:-1] + ["play 4H"]
    a, b = observed(_second_deal(), "player_1"), observed(_second_deal(other, script), "player_1")
    assert differing_pieces(a, b) == {"prev_played_by", "prev_last_trick"}


def test_different_bids_change_the_previous_deal_block():
    script = ["leave trump", "bid 1"] + SCRIPT_PREV[2:]  # player_1 bids 1 and misses
    a, b = observed(_second_deal(), "player_1"), observed(_second_deal(script=script), "player_1")
    assert differing_pieces(a, b) == {"prev_bids", "scores"}


def test_a_different_trump_suit_changes_the_previous_deal_block():
    # Clubs trump: 4D no longer ruffs, player_1's 3H wins the last trick.
    a, b = observed(_second_deal(), "player_1"), observed(_second_deal(trump="5C"), "player_1")
    assert {"prev_trump_suit", "prev_tricks_won"} <= differing_pieces(a, b)
    assert b["prev_trump_suit"].tolist() == [0, 0, 0, 1]


def test_the_previous_dealers_discard_stays_hidden():
    # The dealer takes the turned-up 5D and discards 2H in one game, 7C in the other; it then
    # plays AS and 5D in both.
    script = ["take trump", "discard 2H", "bid 0", "bid 1", "bid 1", "play KS", "play QS", "play AS", "play 5D", "play 3H", "play 4D"]
    other = {0: ["AS", "7C"], 1: HANDS_PREV[1], 2: HANDS_PREV[2]}
    a = _second_deal(script=script)
    b = _second_deal(other, [s.replace("2H", "7C") for s in script])
    for agent in ("player_1", "player_2"):
        assert differing_pieces(observed(a, agent), observed(b, agent)) == set()
    assert differing_pieces(observed(a, "player_0"), observed(b, "player_0")) == set()  # the new deal hides it too


# --- bounds -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [{"num_players": 3}, {"num_players": 5, "hook": True}, {"num_players": 3, "scoring": "oh_hell", "deals": (17, 17, 9)}],
)
def test_random_and_heuristic_play_stays_within_the_observation_bounds(options):
    from dixenv.agents.le_dix_heuristic import LeDixHeuristic

    env = le_dix_v0.raw_env(**options)
    heuristic = LeDixHeuristic(env)
    rng = np.random.default_rng(0)
    for game in range(12):
        env.reset(seed=game)
        while not all(env.terminations.values()):
            for agent in env.agents:
                obs = env.observe(agent)
                assert env.layout.out_of_bounds(obs["observation"]) == [], f"game {game}, {agent}"
            obs = env.observe(env.agent_selection)
            if game % 2:  # heuristic games reach high scores, random ones many voids
                action = heuristic.act(obs)
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        assert env.layout.out_of_bounds(env.observe("player_0")["observation"]) == []


@pytest.mark.parametrize("scoring, top", [("exact10", 0.10), ("oh_hell", 0.12)])
def test_scores_bound_is_the_highest_reachable_total(scoring, top):
    # One deal of two cards: player_0 bids both tricks and takes them, the most a seat can score.
    env = le_dix_v0.raw_env(num_players=3, deals=(2,), scoring=scoring, auto_forced=False)
    env.reset(seed=0, options={"deck": stacked_deck({0: ["AS", "KS"], 1: ["2S", "3H"], 2: ["3S", "4H"]}, "5S", 2, 3), "dealer": 2})
    play(env, "leave trump", "bid 2", "bid 0", "bid 0", "play AS", "play 2S", "play 3S", "play KS", "play 3H", "play 4H")
    assert all(env.terminations.values())
    high = env.layout.high[env.observation_layout()["scores"]]
    scores = observed(env, "player_0")["scores"]
    assert np.allclose(high, top) and scores[0] == np.float32(top)
    assert env.layout.out_of_bounds(env.observe("player_0")["observation"]) == []
