"""What the search agents know of dix: its greedy rollout (ALIX's rules), the span, its tree defaults and presets.

The generic search (``core.py``) reads these through ``RULES``, which dix's spec names
(``dixenv/games/dix/spec.py``, ``search_rules``).
"""

from __future__ import annotations

from typing import Any

from dixenv.agents.search.rules import Preset, SearchRules
from dixenv.games.dix import actions as dix_actions
from dixenv.games.dix.cards import NUM_NUMBERS as DIX_NUMBERS
from dixenv.games.dix.solo import alix_decision
from dixenv.games.dix.state import AUCTION as DIX_AUCTION, BUY as DIX_BUY, BUY_FINAL as DIX_BUY_FINAL, DECIDE as DIX_DECIDE


def _dix_span(state: Any, horizon: str) -> float:
    return float(4 * (DIX_NUMBERS + 1))  # a full 1–9 run in each of the four colours



def _dix_greedy(state: Any, legal: list[int]) -> int:
    """A cheap dix rollout move: ALIX's solo rules (SPEC §1) played from every seat.

    Why by hand: random play bids a random amount up to 99 for every wild, buys and pays at random
    and draws until it busts, so a simulation values a position as nobody plays it; the tuned
    heuristic costs about 150 µs a decision, ten times a move of this one. Draw while the tableau
    total is below ``GREEDY_DRAW_BELOW`` and the currency sum at most 10, then take the numbers;
    bid the lowest legal bid while it is at most ``GREEDY_TOP_BID``, else pass; never buy (ALIX's
    rule) but in the final round, where money is worth nothing; pay with tokens first, then
    consolation tokens, then the first card. Reads the public table only (dix hides nothing but
    the pile's order).
    """
    # The engine lists legal actions in id order: bids before PASS, buys before SKIP, tokens (140)
    # before consolation tokens (141) before cards; taking the numbers is always legal in DECIDE.
    phase = state.phase
    if phase == DIX_DECIDE:
        return alix_decision(state.tableau_total, state.tableau_currency, GREEDY_DRAW_BELOW, dix_actions.DRAW in legal)
    if phase == DIX_AUCTION:  # legal[0] is the lowest bid, or PASS when no bid is affordable
        return legal[0] if legal[0] <= dix_actions.BID_BASE + GREEDY_TOP_BID else dix_actions.PASS
    if phase == DIX_BUY:
        return legal[0] if state.buy_kind == DIX_BUY_FINAL else dix_actions.SKIP
    return legal[0]  # payment


#: The dix greedy rollout draws while its tableau total is below this (ALIX at difficulty 6).
GREEDY_DRAW_BELOW = 6
#: The dix greedy rollout bids for a wild while the lowest legal bid is at most this.
GREEDY_TOP_BID = 3


#: dix's presets (the generic ``defaults``, ``fast`` and ``cowling2012`` apply too: ``rules.py``).
PRESETS = {
    "strongest": Preset(
        {"iterations": 250, "rollout": "greedy", "horizon": "game", "value": "margin", "c": 0.0,
         "opponents": "policy", "expand": "policy", "root": "paired"},
        "dix's defaults at 250 iterations, written out: 0.586 [0.555, 0.616] of 1,000 games against the "
        "heuristic (even 0.50), 195 ms a move (docs/search_results/dix-ismcts250-heuristic.json, run as "
        "ismcts:iterations=250; docs/results/search.md)",
    ),
}

# dix: greedy rollouts and the score margin, every root move on the same worlds, the tree
# growing from the rollout policy's move and choosing by mean alone (c=0), the other seats by
# the rollout policy. Why: in dix the pile order moves a game's score far more than one
# decision does (a move's value differs from its rivals' by a few hundredths of the margin
# scale, a simulation's spread is ten times that), so UCB exploration at c=0.7 visits the
# moves nearly evenly and the tree plays at random; unpaired worlds drown the differences; and
# random rollouts bid up to 99 for a wild. docs/results/search.md gives the screens behind each choice.
RULES = SearchRules(
    None, "game", "margin", "greedy", lambda s: 0, _dix_span, greedy=_dix_greedy,
    default_c=0.0, default_opponents="policy", default_expand="policy", default_root="paired",
    presets=PRESETS,
)
