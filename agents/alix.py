"""ALIX, the virtual opponent of the dix solo rules, as an agent for any table (2–5 players, or solo).

Her decisions are the solo rules' own functions (``dixenv.games.dix.solo``), fed with what she
reads from her observation, so the rules live in one place:

* **Her turn**: ``alix_decision`` — draw while her tableau total is below ``difficulty`` and her
  currency sum is at most 10, then *take numbers*, always. (At an ordinary table the engine's
  usual bust rules apply to her: a draw may take her total over 10.)
* **Auctions**: ``alix_bid`` with a minimum bid of ``min_bid`` (5, the solo rule; the table's own
  minimum is 1 outside the solo game). Her means, as in the solo rules, are tokens + 3 ×
  consolation + duplicates: she never bids with cards she would have to give up from her runs.
  *Bidding first / bidding last* generalised to n players:

  - she bids **last** when she is the active player (she closes every auction of her turn, as in
    the solo game): one over the high bid if she can, or ``min_bid`` if everybody passed;
  - otherwise the players still to bid after her play the part of the solo player: she bids as
    close as possible to the **largest means among them** (tokens + 3 × consolation +
    duplicates), so none of them can outbid her, at least ``min_bid`` and above the high bid,
    within her own means; she passes if she cannot.
* **Payment**: ``alix_payment`` — tokens, then duplicates, then consolation tokens; if the rule
  names nothing legal (possible only when ``buys=True`` makes her spend more than those), the card
  whose loss costs her least.
* **Buys**: she never buys (``skip``) unless ``buys=True``; then she buys the affordable market
  card that adds most to her score (the cheapest on ties) when it adds at least one point.

She reads only the observation and the action mask.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dixenv.games.dix import actions as A
from dixenv.games.dix.cards import COLOUR_WILD_BASE, NUMBER_WILD_BASE, STAR
from dixenv.games.dix.config import MAX_DIFFICULTY, MIN_DIFFICULTY
from dixenv.games.dix.payment import least_useful_card
from dixenv.games.dix.scoring import score_collection
from dixenv.games.dix.solo import SOLO_MIN_BID, alix_bid, alix_decision, alix_payment

CONSOLATION = 3


class AlixAgent:
    """ALIX's solo rules at any table (see the module docstring)."""

    name = "alix"

    def __init__(
        self,
        env: Any,
        seed: int | None = None,
        difficulty: int = 6,
        min_bid: int = SOLO_MIN_BID,
        buys: bool = False,
    ):
        if isinstance(difficulty, bool) or not isinstance(difficulty, (int, np.integer)) or not (
            MIN_DIFFICULTY <= difficulty <= MAX_DIFFICULTY
        ):
            raise ValueError(f"AlixAgent difficulty={difficulty!r}; allowed: an integer {MIN_DIFFICULTY} to {MAX_DIFFICULTY}")
        if isinstance(min_bid, bool) or not isinstance(min_bid, (int, np.integer)) or not 1 <= min_bid <= A.MAX_BID:
            raise ValueError(f"AlixAgent min_bid={min_bid!r}; allowed: an integer 1 to {A.MAX_BID}")
        if not isinstance(buys, (bool, np.bool_)):
            raise ValueError(f"AlixAgent buys={buys!r}; allowed: True or False")
        self.difficulty = int(difficulty)
        self.min_bid = int(min_bid)
        self.buys = bool(buys)
        layout = env.unwrapped.layout
        self._n = layout["tokens"].shape[0]
        self._sl = {p.name: layout.slices[p.name] for p in layout.pieces}


    # --- reading the observation ----------------------------------------------------------------
    def _count(self, flat: np.ndarray, name: str, scale: float) -> list[int]:
        """A piece of the observation as whole counts (``scale`` undoes its documented scaling)."""
        return np.rint(flat[self._sl[name]] * scale).astype(np.int64).tolist()

    def _means(self, flat: np.ndarray) -> list[int]:
        """Per relative seat, what pays a bid by the solo rules: tokens + 3 × consolation + duplicates."""
        tokens = self._count(flat, "tokens", 10.0)
        cons = self._count(flat, "consolation", 5.0)
        dups = self._count(flat, "duplicates", 10.0)
        return [t + CONSOLATION * c + d for t, c, d in zip(tokens, cons, dups)]

    def _collection(self, flat: np.ndarray) -> list[int]:
        """Her own collection as counts per card type 0..49 (numbers then wilds)."""
        numbers = self._count(flat, "collection_numbers", 3.0)[:36]
        wilds = flat[self._sl["collection_wilds"]][:14] * np.array([2.0] * 4 + [1.0] * 10)
        return numbers + np.rint(wilds).astype(np.int64).tolist()

    # --- the entry point ------------------------------------------------------------------------
    def act(self, observation: dict[str, np.ndarray]) -> int:
        """ALIX's action for this observation (always legal)."""
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask).tolist()
        if len(legal) == 1:
            return legal[0]
        flat = observation["observation"]
        first = legal[0]
        if first <= A.TAKE_MONEY:
            total = int(round(float(flat[self._sl["tableau_total"]][0]) * 10))
            csum = int(round(float(flat[self._sl["tableau_currency_sum"]][0]) * 10))
            action = alix_decision(total, csum, self.difficulty, mask[A.DRAW] == 1)
        elif first <= A.PASS:
            action = self._bid(flat, legal)
        elif first <= A.SKIP:
            action = self._buy(flat, legal) if self.buys else A.SKIP
        else:
            action = self._pay(flat, mask, legal)
        return action if mask[action] else legal[-1]

    def _bid(self, flat: np.ndarray, legal: list[int]) -> int:
        still = self._count(flat, "still_to_bid", 1.0)
        later = [s for s in range(1, self._n) if still[s]]
        means = self._means(flat)
        high_bid = int(round(float(flat[self._sl["high_bid"]][0]) * 10))
        rival = max((means[s] for s in later), default=0)
        amount = alix_bid(high_bid, means[0], rival, last=not later, min_bid=self.min_bid)
        if amount <= 0:
            return A.PASS
        bids = [a for a in legal if a != A.PASS]
        if not bids:
            return A.PASS
        # The mask is the final word (e.g. a table minimum above her own): the nearest legal bid.
        action = A.bid_action(min(max(amount, bids[0] - A.BID_BASE), bids[-1] - A.BID_BASE))
        return action

    def _pay(self, flat: np.ndarray, mask: np.ndarray, legal: list[int]) -> int:
        coll = self._collection(flat)
        tokens = self._count(flat, "tokens", 10.0)[0]
        cons = self._count(flat, "consolation", 5.0)[0]
        try:
            action = alix_payment(tokens, cons, coll)
        except ValueError:
            action = -1
        if action >= 0 and mask[action]:
            return action
        t = least_useful_card(coll)
        if t >= 0 and mask[A.PAY_CARD_BASE + t]:
            return A.PAY_CARD_BASE + t
        return legal[0]

    def _buy(self, flat: np.ndarray, legal: list[int]) -> int:
        coll = self._collection(flat)
        masks = [0, 0, 0, 0]
        for t in range(36):
            if coll[t]:
                masks[t // 9] |= 1 << (t % 9)
        cw, nw, st = coll[COLOUR_WILD_BASE:NUMBER_WILD_BASE], coll[NUMBER_WILD_BASE:STAR], coll[STAR]
        base = score_collection(masks, cw, nw, st)
        best, best_key = A.SKIP, (0, 0)
        for a in legal:
            if a == A.SKIP:
                continue
            t = a - A.BUY_BASE
            masks[t // 9] |= 1 << (t % 9)
            gain = score_collection(masks, cw, nw, st) - base
            masks[t // 9] &= ~(1 << (t % 9))
            key = (gain, -(t % 9))
            if gain >= 1 and key > best_key:
                best, best_key = a, key
        return best
