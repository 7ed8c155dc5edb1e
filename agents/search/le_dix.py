"""What the search agents know of le_dix: its greedy rollout, the deal's points span, its rules and presets.

The generic search (``core.py``) reads these through ``RULES``, which le_dix's spec names
(``dixenv/games/le_dix/spec.py``, ``search_rules``).
"""

from __future__ import annotations

from typing import Any

from dixenv.agents.search.rules import Preset, SearchRules
from dixenv.games.le_dix import actions as le_dix_actions
from dixenv.games.le_dix.cards import NUM_RANKS as LE_DIX_RANKS, RANK_OF as LE_DIX_RANK_OF, SUIT_OF as LE_DIX_SUIT_OF
from dixenv.games.le_dix.state import BIDDING as LE_DIX_BIDDING, PLAYING as LE_DIX_PLAYING, TRUMP_CHOICE as LE_DIX_TRUMP_CHOICE
from dixenv.games.le_dix.state import deal_points, max_total_points


def _le_dix_span(state: Any, horizon: str) -> float:
    if horizon == "deal":
        return float(deal_points(state.hand_size, state.hand_size, state.config.scoring))
    return float(max_total_points(state.config))



def _le_dix_greedy(state: Any, legal: list[int]) -> int:
    """A cheap le_dix rollout move: win tricks while the bid needs them, shed them once it is made.

    Why by hand: random play says little about the tricks a hand takes under purposeful play (a
    bid searched over random rollouts is chosen for random players), and the tuned heuristic costs
    about 200 µs a move, a hundred times a random move. This reads only the acting seat's hand and
    the public table of the world it plays in.
    """
    first = legal[0]
    phase = state.phase
    trump = state.trump_suit
    if phase == LE_DIX_TRUMP_CHOICE:
        return le_dix_actions.TAKE_TRUMP
    seat = state.player
    hand = state.hands[seat]
    if phase == LE_DIX_BIDDING:
        # Sure-ish tricks: high trumps, side aces, half the side kings.
        est = 0.0
        for c in hand:
            r = LE_DIX_RANK_OF[c]
            if LE_DIX_SUIT_OF[c] == trump:
                est += 1.0 if r >= LE_DIX_RANKS - 4 else 0.4
            elif r == LE_DIX_RANKS - 1:
                est += 0.8
            elif r == LE_DIX_RANKS - 2:
                est += 0.4
        bid = le_dix_actions.BID_BASE + int(est + 0.5)
        return bid if bid in legal else min(legal, key=lambda a: abs(a - bid))
    if phase != LE_DIX_PLAYING:  # the dealer's discard: the lowest side card
        return min(legal, key=lambda a: (LE_DIX_SUIT_OF[a - le_dix_actions.DISCARD_BASE] == trump, LE_DIX_RANK_OF[a - le_dix_actions.DISCARD_BASE]))
    base = le_dix_actions.play_base(state.config.max_bid)
    cards = [a - base for a in legal]
    power = lambda c: LE_DIX_RANK_OF[c] + (LE_DIX_RANKS if LE_DIX_SUIT_OF[c] == trump else 0)  # noqa: E731
    need = state.bids[seat] - state.tricks_won[seat]
    trick = state.trick
    if not trick:
        card = max(cards, key=power) if need > 0 else min(cards, key=power)
        return base + card
    # The card winning the trick so far; a card beats it by trumping it or by following higher.
    led = LE_DIX_SUIT_OF[trick[0][1]]
    best = trick[0][1]
    for _, c in trick[1:]:
        if (LE_DIX_SUIT_OF[c] == trump and (LE_DIX_SUIT_OF[best] != trump or c > best)) or (LE_DIX_SUIT_OF[c] == LE_DIX_SUIT_OF[best] and c > best):
            best = c
    best_trump = LE_DIX_SUIT_OF[best] == trump
    winning = [c for c in cards if (LE_DIX_SUIT_OF[c] == trump and (not best_trump or c > best)) or (not best_trump and LE_DIX_SUIT_OF[c] == led and c > best)]
    if need > 0:
        card = min(winning, key=power) if winning else min(cards, key=power)
    else:
        losing = [c for c in cards if c not in winning]
        card = max(losing, key=power) if losing else max(cards, key=power)
    return base + card


#: le_dix's presets (the generic ``defaults``, ``fast`` and ``cowling2012`` apply too: ``rules.py``).
PRESETS = {
    "strongest": Preset(
        {"iterations": 100, "rollout": "greedy", "horizon": "deal", "value": "points", "c": 0.7,
         "opponents": "tree", "expand": "random", "root": "ucb"},
        "le_dix's defaults at 100 iterations, written out: 0.315 [0.287, 0.344] of 1,000 games against "
        "three heuristics (even 0.25), 73 ms a move (docs/search_results/le_dix-ismcts100-heuristic.json, "
        "run as ismcts:iterations=100; docs/results/search.md)",
    ),
}

# Each game's rules are named by its spec (``dixenv/games/<game>/spec.py``, ``search_rules``).
RULES = SearchRules("deal", "deal", "points", "greedy", lambda s: s.deal_index, _le_dix_span, greedy=_le_dix_greedy,
                    presets=PRESETS)
