"""ALIX, the virtual opponent of the solo rules, as plain decision functions.

The solo engine (``state.py``) calls these to play ALIX in seat 1; an ALIX agent at a
multi-player table can call the very same functions with what it reads from an observation.
Every function is a pure function of public numbers and returns an amount or an action id.

The solo rules (SPEC §1, rule text "Variante solo"):

* ALIX draws until her tableau total is at least the difficulty d (4..10) or her currency sum
  exceeds 10; she always takes the number cards, even when she busts on currency (then she also
  gains her consolation token); she never busts on the total and never buys.
* Auctions: a bid must be at least 5 (``SOLO_MIN_BID``), for both sides; number cards may pay a
  bid only if they are duplicates. Bidding first, ALIX bids as close as possible to the player's
  means (tokens + 3 × consolation + duplicates) but at least 5, within her own means, else passes.
  Bidding last, she bids the player's bid + 1 if she can; if the player passed, 5 if she can.
* She pays with tokens first, then duplicates, then consolation tokens (a decision of ours).
"""

from __future__ import annotations

from typing import Sequence

from dixenv.games.dix import actions as A
from dixenv.games.dix.cards import NUMBERS_BY_VALUE

ALIX_SEAT = 1
SOLO_MIN_BID = 5
CURRENCY_LIMIT = 10  # a currency sum above this busts


def alix_should_draw(tableau_total: int, currency_sum: int, difficulty: int) -> bool:
    """True while ALIX keeps drawing: tableau total below ``difficulty`` and currency sum at most 10."""
    return tableau_total < difficulty and currency_sum <= CURRENCY_LIMIT


def alix_decision(tableau_total: int, currency_sum: int, difficulty: int, can_draw: bool) -> int:
    """ALIX's choice after a draw: ``draw`` while she should and may, else ``take numbers``."""
    if can_draw and alix_should_draw(tableau_total, currency_sum, difficulty):
        return A.DRAW
    return A.TAKE_NUMBERS


def alix_bid(high_bid: int, own_means: int, rival_means: int, last: bool, min_bid: int = SOLO_MIN_BID) -> int:
    """ALIX's bid amount, 0 for a pass.

    ``high_bid`` is the bid to beat (0 if none), ``own_means`` what ALIX can pay for a bid,
    ``rival_means`` what the player can pay (tokens + 3 × consolation + duplicates) and ``last``
    whether ALIX closes the auction (her own turn).
    """
    if last:
        want = max(high_bid + 1, min_bid)
    else:
        # As close as possible to the rival's means (so the rival cannot outbid), but at least 5.
        want = min(max(rival_means, min_bid, high_bid + 1), own_means)
    if want < min_bid or want <= high_bid or want > own_means:
        return 0
    return want


def duplicates(numbers: Sequence[int]) -> int:
    """Number cards held beyond the first copy of each (counts per number type, ids 0..35)."""
    return sum(c - 1 for c in numbers[:36] if c > 1)


def first_duplicate(numbers: Sequence[int]) -> int:
    """The duplicate to give up first: lowest number, then colour B, G, O, P; -1 if none."""
    for t in NUMBERS_BY_VALUE:
        if numbers[t] > 1:
            return t
    return -1


def alix_payment(tokens: int, consolation: int, numbers: Sequence[int]) -> int:
    """ALIX's next payment item (an action id): a token, else a duplicate, else a consolation token."""
    if tokens > 0:
        return A.PAY_TOKEN
    t = first_duplicate(numbers)
    if t >= 0:
        return A.PAY_CARD_BASE + t
    if consolation > 0:
        return A.PAY_CONSOLATION
    raise ValueError("ALIX has nothing left to pay with")
