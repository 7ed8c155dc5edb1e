"""Why an action is illegal in le_dix: each kind of illegality has its own reason, in the ValueError too."""

from __future__ import annotations

import pytest

from dixenv.games.le_dix import actions as A
from tests.games.illegal import refused_reason
from tests.games.le_dix.helpers import legal_strings, make, play

# Three players, two cards each, dealer 0, diamonds trump (player 1 leads: left of the dealer).
HANDS_3 = {0: ["AS", "2H"], 1: ["KS", "3H"], 2: ["QS", "4D"]}


def _refused(env, text: str) -> str:
    """The reason for ``text``, checked to be in the ValueError of ``env.step`` that changes nothing."""
    snapshot = lambda: (env.state.render_text(), legal_strings(env))  # noqa: E731
    return refused_reason(env.state, env.string_to_action(text), env.step, snapshot, f"({text})", "; legal: ")


def test_a_legal_action_has_no_reason():
    env = make(3, HANDS_3, "5D")
    assert [env.state.why_illegal(a) for a in env.legal_actions()] == ["", ""]


def test_a_player_holding_the_led_suit_must_follow_it():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "leave trump", "bid 1", "bid 0", "bid 1", "play 3H")  # player 1 leads hearts
    play(env, "play 4D")  # player 2 holds no heart: any card
    assert env.agent_selection == "player_0"
    assert _refused(env, "play AS") == "you must follow hearts (you hold 2H)"


def test_a_card_not_in_hand_cannot_be_played():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "leave trump", "bid 1", "bid 0", "bid 1")
    assert _refused(env, "play QS") == "you do not hold QS"  # player 2's card: nothing about who holds it


def test_the_dealers_own_discard_is_named_as_discarded():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "take trump", "discard AS", "bid 1", "bid 0", "bid 1", "play 3H", "play 4D")
    assert _refused(env, "play AS") == "you discarded AS face down"


def test_the_dealer_discards_only_a_card_of_their_hand():
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, "take trump")
    assert _refused(env, "discard KS") == "you do not hold KS"


def test_a_bid_above_the_hand_size_is_refused():
    env = make(3, HANDS_3, "5D", dealer=0, deals=(2, 3))  # max_bid 3, this deal 2 cards
    play(env, "leave trump")
    assert _refused(env, "bid 3") == "you cannot bid 3 in a deal of 2 cards (bid 0..2)"


def test_the_hook_forbids_the_dealer_the_bid_that_makes_the_total_the_hand_size():
    env = make(3, HANDS_3, "5D", dealer=0, hook=True)
    play(env, "leave trump", "bid 1", "bid 0")
    assert env.agent_selection == "player_0"
    why = _refused(env, "bid 1")
    assert why == "the hook rule: the dealer may not bid 1, which would make the bids add up to the 2 tricks of the deal"


@pytest.mark.parametrize(
    "setup, action, reason",
    [
        ([], "bid 1", "you are the dealer: first take or leave the turned-up 5D"),
        ([], "play AS", "you are the dealer: first take or leave the turned-up 5D"),
        (["take trump"], "leave trump", "you took the turned-up card: discard one card face down first"),
        (["leave trump"], "play KS", "it is time to bid: bid 0..2"),
        (["leave trump"], "discard KS", "it is time to bid: bid 0..2"),
        (["leave trump", "bid 1", "bid 0", "bid 1"], "bid 2", "the bidding is over: play a card"),
    ],
)
def test_an_action_of_another_phase_says_what_the_phase_wants(setup, action, reason):
    env = make(3, HANDS_3, "5D", dealer=0)
    play(env, *setup)
    assert _refused(env, action) == reason


def test_the_game_over_and_out_of_range():
    env = make(3, HANDS_3, "5D", dealer=0)
    n = A.num_actions(env.config.max_bid)
    assert env.state.why_illegal(n) == f"there is no action {n} (actions are 0..{n - 1})"
    play(env, "leave trump", "bid 1", "bid 0", "bid 1", "play KS", "play QS", "play AS", "play 2H", "play 3H", "play 4D")
    assert env.state.is_terminal() and env.state.why_illegal(A.LEAVE_TRUMP) == "the game is over"
