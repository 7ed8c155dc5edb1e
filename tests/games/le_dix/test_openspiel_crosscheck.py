"""Cross-check the le_dix engine against OpenSpiel's ``oh_hell`` (same trick rules), deal by deal.

Both engines get the same hands, trump card and dealer, then the same random sequence of bids and
cards (chosen among the actions legal in both). Every step they must agree on who acts and on the
legal set; every trick on who won it; at the end on bids and scores.

The mapping of cards, actions and the deal between the two lives in ``experiments.oh_hell_bridge``
(shared with the lockstep comparison ``experiments.studies.le_dix_heuristic.le_dix_vs_openspiel``).

One rule genuinely differs: OpenSpiel's ``oh_hell`` always applies the hook (the last bidder, the
dealer, may not bid so that the bids add up to the number of tricks) and has no option to turn it
off. With our ``hook=True`` the legal sets must be identical at every step; with ``hook=False``
(our default) they must be identical except at the dealer's bid, where ours has exactly one more
bid — the hooked one — when it lies in 0..hand size.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from dixenv.experiments.oh_hell_bridge import OS_BID_BASE, OURS_OF_OS_CARD, deal_os, os_game, to_os_action, to_os_card  # noqa: E402
from dixenv.games.le_dix import actions as A  # noqa: E402
from dixenv.games.le_dix.cards import CARD_NAMES, NUM_CARDS, SUIT_OF  # noqa: E402
from dixenv.games.le_dix.config import make_config  # noqa: E402
from dixenv.games.le_dix.state import BIDDING, LeDixState  # noqa: E402

HAND_SIZES = range(1, 11)
DEALS_PER_CASE = 500  # × 3 player counts × 2 hook settings = 3000 deals (about 3 s)


def os_hand(state, player: int) -> list[int]:
    """A player's current hand read from OpenSpiel's information-state string, as our card ids."""
    text = state.information_state_string(player)
    block = text[text.index(f"Player: {player}\n") :].split("\n")[1:5]
    cards = []
    for line in block:
        suit, ranks = line.strip().split(":")
        cards += [OURS_OF_OS_CARD["23456789TJQKA".index(r) * 4 + "CDSH".index(suit)] for r in ranks.strip()]
    return sorted(cards)


def os_row(state, label: str) -> list[int]:
    """A per-player integer row (``Bids:`` or ``Tricks Won:``) of OpenSpiel's state string."""
    match = re.search(rf"^{label}:\s+([-\d ]+)$", str(state), re.MULTILINE)
    assert match, f"no {label!r} row in OpenSpiel's state string"
    return [int(x) for x in match.group(1).split()]


def deal_both(n: int, size: int, dealer: int, deck: list[int], hook: bool):
    """Our two states (exact10, oh_hell scoring) and the two OpenSpiel states, dealt identically."""
    ours = [
        LeDixState(make_config(num_players=n, deals=(size,), scoring=scoring, hook=hook), np.random.default_rng(0),
                   {"deck": [CARD_NAMES[c] for c in deck], "dealer": dealer})
        for scoring in ("exact10", "oh_hell")
    ]
    spiel = [deal_os(os_game(n, size, ppt, penalty), dealer, deck) for ppt, penalty in ((0, False), (1, True))]
    return ours, spiel


def test_card_mapping_matches_openspiel_card_names():
    """Every one of our cards maps to the OpenSpiel card with the same rank and suit letters."""
    st = os_game(3, 1, 0, False).new_initial_state()
    st.apply_action(1)  # number of tricks
    st.apply_action(0)  # dealer; now in the deal phase, where action strings are card names
    for card in range(NUM_CARDS):
        name = st.action_to_string(to_os_card(card))  # suit first, e.g. "S3"
        assert name[1] + name[0] == CARD_NAMES[card]
    assert sorted(to_os_card(c) for c in range(NUM_CARDS)) == list(range(NUM_CARDS))


def test_openspiel_always_applies_the_hook():
    """The one rule difference: OpenSpiel's dealer may never make the bids add up to the tricks."""
    st = os_game(3, 2, 0, False).new_initial_state()
    for a in [2, 0] + list(range(7)):  # 2 tricks, dealer 0, deal cards 0..6
        st.apply_action(a)
    st.apply_action(OS_BID_BASE + 1)  # player 1 bids 1
    st.apply_action(OS_BID_BASE + 0)  # player 2 bids 0
    assert st.current_player() == 0
    assert st.legal_actions() == [OS_BID_BASE + 0, OS_BID_BASE + 2]  # bid 1 (total 2) forbidden


@pytest.mark.parametrize("hook", [True, False], ids=["hook", "no_hook"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_deals_agree_with_openspiel_oh_hell(n: int, hook: bool):
    """Random deals: same player to act, same legal moves, same trick winners, same bids and scores."""
    rng = np.random.default_rng(1000 * n + hook)
    hook_differences = trumped_tricks = discards = 0
    for deal in range(DEALS_PER_CASE):
        size = HAND_SIZES[deal % len(HAND_SIZES)]
        dealer = int(rng.integers(n))
        deck = [int(c) for c in rng.permutation(NUM_CARDS)]
        ours, spiel = deal_both(n, size, dealer, deck, hook)
        mine = ours[0]
        for st in ours:
            assert st.hand_size == size and st.dealer == dealer
            assert st.trump_card == deck[n * size]
            assert st.current_player() == dealer and st.legal_actions() == [A.TAKE_TRUMP, A.LEAVE_TRUMP]
            st.apply_action(A.LEAVE_TRUMP)  # OpenSpiel has no pick-up of the trump card
        for seat in range(n):
            assert mine.hands[seat] == os_hand(spiel[0], seat), f"hands differ for seat {seat}"
        plays = 0
        while not spiel[0].is_terminal():
            player = spiel[0].current_player()
            assert [st.current_player() for st in ours] == [player, player]
            assert spiel[1].current_player() == player
            os_legal = set(spiel[0].legal_actions())
            assert set(spiel[1].legal_actions()) == os_legal
            assert ours[0].legal_actions() == ours[1].legal_actions()
            ours_legal = {to_os_action(mine.config.max_bid, a): a for a in mine.legal_actions()}
            assert os_legal <= set(ours_legal), "OpenSpiel allows a move that le_dix forbids"
            # The only allowed difference: without the hook, our dealer keeps the hooked bid.
            expected_extra = set()
            if not hook and mine.phase == BIDDING and player == dealer:
                assert mine.bids.count(None) == 1  # the dealer bids last in both games
                hooked = size - sum(b for b in mine.bids if b is not None)
                if 0 <= hooked <= size:
                    expected_extra = {OS_BID_BASE + hooked}
                    hook_differences += 1
            assert set(ours_legal) - os_legal == expected_extra
            if mine.trick and len({SUIT_OF[a - A.play_base(mine.config.max_bid)] for a in mine.legal_actions()}) > 1:
                discards += 1  # could not follow suit: any card was legal in both
            choice = sorted(os_legal)[int(rng.integers(len(os_legal)))]
            for st in spiel:
                st.apply_action(choice)
            for st in ours:
                st.apply_action(ours_legal[choice])
            if choice < OS_BID_BASE:
                plays += 1
                if plays % n == 0:  # a trick just completed: same winner
                    won = os_row(spiel[0], "Tricks Won")
                    assert won == mine.tricks_won, f"deal {deal}: trick {plays // n} winners differ"
                    last = mine.last_trick
                    if any(SUIT_OF[c] == mine.trump_suit for _, c in last) and SUIT_OF[last[0][1]] != mine.trump_suit:
                        trumped_tricks += 1
                    if not spiel[0].is_terminal():
                        assert spiel[0].current_player() == mine.leader == mine.current_player()
        assert plays == n * size
        assert all(st.is_terminal() for st in ours)
        assert os_row(spiel[0], "Bids") == mine.bids
        made = [b == t for b, t in zip(mine.bids, mine.tricks_won)]
        assert spiel[0].returns() == [10.0 if m else 0.0 for m in made]
        assert ours[0].scores() == spiel[0].returns(), "exact10 scores differ from oh_hell(points_per_trick=0)"
        assert ours[1].scores() == [max(0.0, r) for r in spiel[1].returns()], (
            "oh_hell scores differ from max(0, oh_hell(points_per_trick=1, off_bid_penalty=True))"
        )
    # The run must have exercised the interesting rules, or it proves little.
    assert trumped_tricks > 0 and discards > 0
    assert (hook_differences > 0) == (not hook)
