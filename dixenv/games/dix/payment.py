"""The ``auto_pay=True`` payment rule: which item to hand over next.

Order (SPEC §1 "Payment"): duplicates first, then money tokens, then consolation tokens (worth 3,
change lost), then the least useful number card. Concretely:

* a *duplicate* is a copy of a number card held twice or more; giving one up never changes the
  score; the lowest number goes first, then colour B, G, O, P;
* the *least useful* card is the one whose removal lowers the collection's score least; ties go to
  the lowest number, then colour B, G, O, P;
* when only duplicates may pay (a bid in the solo game), single cards are never offered.

With this rule payment is never a decision point. ALIX has her own order (``solo.alix_payment``).
"""

from __future__ import annotations

from typing import Sequence

from dixenv.games.dix import actions as A
from dixenv.games.dix.cards import COLOUR_WILD_BASE, NUM_NUMBERS, NUMBER_WILD_BASE, NUMBERS_BY_VALUE, STAR
from dixenv.games.dix.scoring import score_collection
from dixenv.games.dix.solo import first_duplicate


def collection_masks(collection: Sequence[int]) -> list[int]:
    """Per colour B, G, O, P, the 9-bit mask of numbers held (bit k-1 = number k)."""
    masks = [0, 0, 0, 0]
    for t in range(36):
        if collection[t]:
            masks[t // NUM_NUMBERS] |= 1 << (t % NUM_NUMBERS)
    return masks


def least_useful_card(collection: Sequence[int]) -> int:
    """The held number card whose loss lowers the score least (ties: lowest number, then colour); -1 if none."""
    masks = collection_masks(collection)
    colour_wilds = tuple(collection[COLOUR_WILD_BASE:NUMBER_WILD_BASE])
    number_wilds = tuple(collection[NUMBER_WILD_BASE:STAR])
    stars = collection[STAR]
    best, best_score = -1, -1
    for t in NUMBERS_BY_VALUE:
        count = collection[t]
        if not count:
            continue
        if count > 1:
            return t  # a duplicate costs nothing
        c, bit = t // NUM_NUMBERS, 1 << (t % NUM_NUMBERS)
        masks[c] ^= bit
        score = score_collection(masks, colour_wilds, number_wilds, stars)
        masks[c] ^= bit
        if score > best_score:
            best, best_score = t, score
    return best


def auto_pay_item(tokens: int, consolation: int, collection: Sequence[int], duplicates_only: bool) -> int:
    """The next payment item (an action id) by the documented ``auto_pay`` rule."""
    t = first_duplicate(collection)
    if t >= 0:
        return A.PAY_CARD_BASE + t
    if tokens > 0:
        return A.PAY_TOKEN
    if consolation > 0:
        return A.PAY_CONSOLATION
    if not duplicates_only:
        t = least_useful_card(collection)
        if t >= 0:
            return A.PAY_CARD_BASE + t
    raise ValueError("nothing left to pay with")
