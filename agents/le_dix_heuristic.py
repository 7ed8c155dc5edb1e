"""A baseline heuristic for le_dix: estimate the tricks a hand takes, bid them, then play to the bid.

It reads only the observation (decoded with the piece boundaries of ``env.unwrapped.layout``, taken
once at construction) and the action mask, never the engine's state.

How it decides:

* Probabilities come from one model: the cards a player cannot see (the *pool*: other hands plus
  the undealt cards) are spread at random, so "seat j holds none of these ``a`` pool cards" is
  hypergeometric, ``C(U - a, m) / C(U, m)`` for a pool of ``U`` cards and ``m`` unknown cards in
  j's hand (a table of these is built once at import). The turned-up card, when the dealer took it,
  counts as known to be in the dealer's hand; a seat that did not follow a suit this deal (the
  observation's ``void``) is known to hold none of it.
* **Trump pick-up** (dealer): always take the turned card (leaving it gives no option that taking
  and then discarding it does not), then discard the card least likely to take a trick.
* **Bidding**: expected tricks = sum over the hand of per-card trick probabilities. The raw model:
  a trump wins if the opponents hold no more higher trumps than the player holds above it; a side
  card wins if no opponent holds a higher card of its suit and nobody ruffs it by the round it is
  played in; spare low trumps add ruffs when a side suit is short. A logistic calibration fitted
  on self-play outcomes (``_CALIB``) then corrects each card's probability using its context:
  hand size and player count, rank, suit length, trump length, voids, whether the player leads,
  how far the earlier bids exceed their fair share of the tricks (capped at ``table_cap`` so that
  nonsense bids cannot talk it out of its hand) and how often the opponents have made their bids
  so far (read from their scores: tricks come more easily against players who rarely do). One-card
  deals are computed exactly. The bid is the legal bid closest to ``bid_scale × estimate +
  bid_offset`` (a slight underbid: tricks are easier to shed than to win); the hook rule arrives
  through the mask.
* **Play** (need = bid − tricks won): every legal card is scored by the chance that the bid ends
  exact if it is played. For the card: its chance of winning the trick now (it beats the cards
  down, and each player still to play, weighted by whether it still wants tricks, lacks a card that
  beats it). For the cards kept: what each *can* still win (the larger of its chance if led now and
  the bidding model's chance on the hand that is left, given the voids shown; a side card counts
  ``side_decay`` less: ruffs come) and what it wins *against its will* (its strength to the power
  ``forced_power``, ``trump_forced_power`` for a trump; side voids, including one this card would
  open, lower it by ``void_relief`` each: they are chances to throw it). The player can steer its
  count anywhere between the forced and the possible tricks, so the score is P(forced ≤ k ≤
  possible) for the k still needed after this trick (``_window``). Ties shed strength once the bid
  is made and keep it while tricks are needed. Bust already (more tricks than bid): give the trick
  to an opponent whose bid is made, else take it from one that still needs tricks.

The parameters (``DEFAULTS``) and the calibration were tuned with ``experiments/studies/le_dix_heuristic/le_dix_stats.py``.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from functools import lru_cache
from typing import Any

import numpy as np

from dixenv.agents.base import tuned_params
from dixenv.games.le_dix import actions as A

_SUIT = tuple(c // 13 for c in range(52))
_RANK = tuple(c % 13 for c in range(52))


def _none_table(size: int = 53) -> list[list[list[float]]]:
    """``T[U][a][m]`` = P(m cards drawn from U hold none of a marked ones) = C(U-a, m) / C(U, m)."""
    lf = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, size + 1)))])
    u = np.arange(size)[:, None, None]
    a = np.arange(size)[None, :, None]
    m = np.arange(size)[None, None, :]
    ok = (a <= u) & (m <= u - a)
    ua, um = np.clip(u - a, 0, None), np.clip(u - m, 0, None)
    uam = np.clip(u - a - m, 0, None)
    logp = lf[ua] - lf[uam] + lf[um] - lf[u]
    return np.where(ok, np.exp(np.where(ok, logp, 0.0)), 0.0).tolist()


_NONE = _none_table()

#: Logistic calibration of the per-card trick model (features: ``calibration_features``), fitted by
#: ``experiments/studies/le_dix_heuristic/le_dix_calibrate.py`` on which cards took a trick in heuristic games (half of them
#: self-play, half with random seats).
_CALIB = (
    -6.499, 0.166, 0.918, 1.621, 2.853, 0.066, 0.058, 2.303, 0.548, -0.131, -0.012, -1.267, 2.114,
    3.86, 0.008, 0.153, 0.047, 8.668, 0.039, -0.336, -0.002, -0.26, -0.672, -1.966, -0.743,
    -2.416, 0.026, -0.302, -3.458, 1.726,
)

def _contains(sorted_list: list[int], x: int) -> bool:
    """Membership in a sorted list."""
    i = bisect_left(sorted_list, x)
    return i < len(sorted_list) and sorted_list[i] == x


@lru_cache(maxsize=None)
def _hyper_cdf(pool: int, marked: int, drawn: int, k: int) -> float:
    """P(at most k marked cards among ``drawn`` cards drawn from ``pool`` holding ``marked``)."""
    if k < 0:
        return 0.0
    if drawn > pool:
        drawn = pool
    total = math.comb(pool, drawn)
    top = min(k, marked, drawn)  # never more marked cards than drawn ones
    return min(1.0, sum(math.comb(marked, x) * math.comb(pool - marked, drawn - x) for x in range(top + 1)) / total)


class LeDixHeuristic:
    """Bids its estimated tricks and plays to make exactly that many (see the module docstring)."""

    name = "heuristic"

    #: Tunable parameters (constructor keywords); the defaults were tuned in 4-player self-play.
    DEFAULTS: dict[str, float] = {
        "bid_scale": 1.0,  # multiplies the expected-trick estimate
        "bid_offset": -0.25,  # added to it before rounding (a slight underbid makes more bids)
        "ruff_value": 0.35,  # raw model: tricks per spare trump that can ruff a short side suit
        "duck_willing": 1.0,  # weight of a made-bid opponent beating a card (1: as likely as anyone; tuned)
        "forced_power": 1.5,  # play: a side card of strength p wins against its will with chance p ** this (tuned)
        "trump_forced_power": 1.0,  # the same for a trump (harder to shed: it wins on every void; tuned)
        "side_decay": 0.3,  # play: a side card kept for later counts this much less as a possible trick (ruffs come; tuned)
        "void_relief": 0.15,  # play: each side void cuts a side card's forced chance by this share (throw chances; tuned)
        "table_cap": 0.15,  # cap on "earlier bids above their fair share" (per trick) in the calibration
        "calibrate": 1.0,  # 1: calibrated per-card model (fitted on self-play), 0: the raw model
    }

    def __init__(self, env: Any, seed: int | None = None, **params: float):
        self.params = tuned_params("LeDixHeuristic", self.DEFAULTS, params)
        for key, value in self.params.items():
            setattr(self, "_" + key, value)
        layout = env.unwrapped.layout
        self._bounds = {p.name: (layout.slices[p.name].start, layout.slices[p.name].stop) for p in layout.pieces}
        self._n = layout["dealer"].shape[0]
        self._b = layout["hand_size"].shape[0]  # max_bid + 1
        self._play_base = A.play_base(self._b - 1)
        self.last_estimate: float | None = None  # the expected tricks behind the last bid (for analysis)


    # --- the entry point ------------------------------------------------------------------------
    def act(self, observation: dict[str, np.ndarray]) -> int:
        """A legal action for this observation: trump choice, discard, bid or card to play."""
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        first = int(legal[0])
        if first == A.TAKE_TRUMP:
            return A.TAKE_TRUMP
        self._decode(observation["observation"])
        if first < A.BID_BASE:
            return A.DISCARD_BASE + self._choose_discard()
        if first < self._play_base:
            bids = (legal - A.BID_BASE).tolist()
            return A.BID_BASE + self._choose_bid(bids)
        cards = (legal - self._play_base).tolist()
        return self._play_base + self._choose_card(cards)

    # --- decoding the observation -------------------------------------------------------------
    def _decode(self, o: np.ndarray) -> None:
        """Read what this decision needs from the flat observation into plain Python values.

        The vector is sparse (about a hundred non-zero entries), so one ``flatnonzero`` split by
        piece boundaries is much cheaper than slicing every piece with numpy.
        """
        n, b = self._n, self._b
        nz = np.flatnonzero(o).tolist()
        piece = {}
        for name, (start, stop) in self._bounds.items():
            lo, hi = bisect_left(nz, start), bisect_left(nz, stop)
            piece[name] = [i - start for i in nz[lo:hi]]
        self.hand = hand = piece["hand"]
        self._obs = o
        self.deal_index = piece["deal"][0]
        played = piece["played"]
        tc = piece["trump_card"][0]
        self.trump = _SUIT[tc]
        self.dealer = dealer = piece["dealer"][0]
        took = bool(piece["dealer_took_trump"])
        seen = [False] * 52
        for c in hand:
            seen[c] = True
        for c in played:
            seen[c] = True
        for c in piece["own_discard"]:
            seen[c] = True
        seen[tc] = True  # the turned card is never in the pool: out, in my hand, or known in the dealer's
        above = []
        pool = 0
        for s in range(4):
            row = [0] * 14
            k = 0
            for r in range(12, -1, -1):
                if not seen[s * 13 + r]:
                    k += 1
                row[r] = k
            above.append(row)  # above[s][r + 1] = pool cards of suit s ranked above r
            pool += k
        self.above, self.pool = above, pool
        self.h = h = piece["hand_size"][0]
        bids = [-1] * n
        for i in piece["bids"]:
            bids[i // b] = i % b
        self.bids = bids
        won = [0] * n
        for i in piece["tricks_won"]:
            won[i // b] = i % b
        self.won = won
        self.leader = leader = piece["trick_leader"][0]
        in_trick = [False] * n
        cards = {}
        for i in piece["trick"]:
            seat, card = divmod(i, 52)
            in_trick[seat] = True
            cards[seat] = card
        # The trick in play order, from the leader.
        self.trick = [cards[s] for s in ((leader + k) % n for k in range(n)) if s in cards]
        # Voids: every suit a seat did not follow this deal (the observation remembers them all).
        void = [[False] * 4 for _ in range(n)]
        for i in piece["void"]:
            void[i // 4][i % 4] = True
        self.void = void
        T = self.trump
        done = sum(won)
        in_hand = [h - done - in_trick[s] for s in range(n)]
        # Known card: the turned-up trump another dealer took, while it is unplayed and the dealer
        # could still hold it (it may have been the discard: then the guess is wrong, rarely).
        known = took and dealer != 0 and in_hand[dealer] > 0 and not void[dealer][T] and not _contains(played, tc)
        self.known_seat = dealer if known else -1
        self.known_card = tc
        self.unknown = [in_hand[s] - (s == self.known_seat) for s in range(n)]
        self.unknown[0] = 0

    # --- the probability model ----------------------------------------------------------------
    def _beat_prob(self, j: int, card: int, led: int) -> float:
        """P(seat j holds a card that beats ``card`` as the trick's winner, led suit ``led``)."""
        s, r, T, U = _SUIT[card], _RANK[card], self.trump, self.pool
        m = self.unknown[j]
        known = self.known_seat == j
        above = self.above
        vj = self.void[j]
        if s == T:
            a = above[T][r + 1]
            kb = known and self.known_card > card
            if led == T:
                if vj[T]:
                    return 0.0
                return 1.0 if kb else 1.0 - _NONE[U][a][m]
            L = above[led][0]
            void = 1.0 if vj[led] else _NONE[U][L][m]
            if kb:
                return void
            return 0.0 if vj[T] else void * (1.0 - _NONE[U - L][a][m])
        if vj[s]:
            return 0.0 if vj[T] else (1.0 if known else 1.0 - _NONE[U][above[T][0]][m])
        a, L = above[s][r + 1], above[s][0]
        higher = 1.0 - _NONE[U][a][m]
        void = _NONE[U][L][m]
        ruff = 0.0 if vj[T] else (1.0 if known else 1.0 - _NONE[U - L][above[T][0]][m])
        return higher + void * ruff

    def _willing(self, j: int) -> float:
        """How hard seat j tries to win: fully while it needs tricks, ``duck_willing`` once its bid is made."""
        bid = self.bids[j]
        return 1.0 if bid < 0 or self.won[j] < bid else self._duck_willing

    def _win_chance(self, card: int, led: int, later: range) -> float:
        """P(``card``, winning the trick so far, is not beaten by the seats in ``later``)."""
        p = 1.0
        for j in later:
            if self.unknown[j] > 0 or self.known_seat == j:
                p *= 1.0 - self._willing(j) * min(1.0, self._beat_prob(j, card, led))
        return p

    def _strength(self, card: int) -> float:
        """The card's chance of winning if it were led now (what keeping it is worth)."""
        return self._win_chance(card, _SUIT[card], range(1, self._n))

    # --- trump pick-up ------------------------------------------------------------------------
    def _choose_discard(self) -> int:
        """Discard the card least likely to take a trick (tuning: better than the least predictable)."""
        probs = self._card_probs(self.hand)
        return min(zip(probs, self.hand))[1]

    # --- bidding ------------------------------------------------------------------------------
    def _card_probs(self, hand: list[int]) -> list[float]:
        """Per card, its chance of taking a trick this deal (the bidding model, calibrated)."""
        raw = self.raw_card_probs(hand)
        if not self._calibrate:
            return raw
        w = _CALIB
        out = []
        for row in self.calibration_features(hand, raw):
            z = sum(wi * xi for wi, xi in zip(w, row))
            out.append(1.0 / (1.0 + math.exp(-z)))
        return out

    def _opponents(self) -> list[int]:
        """The relative seats that may still hold cards this player cannot see."""
        return [j for j in range(1, self._n) if self.unknown[j] > 0 or self.known_seat == j]

    def _suit_probs(self, s: int, mine: list[int], opp: list[int]) -> list[float]:
        """Raw model: per card of ``mine`` (this player's cards of suit ``s``, highest first), its trick chance.

        Trumps: the i-th highest wins if the opponents hold at most i trumps above it. Side suits:
        the k-th highest wins if no opponent holds a higher one and none ruffs by round k + 1.
        Voids shown so far count (at bidding there are none): a void seat holds no card of that
        suit, so it cannot beat a card in it and it ruffs unless it is void in trumps too.
        """
        T, U, above, void, unknown, n = self.trump, self.pool, self.above, self.void, self.unknown, self._n
        drawn = sum(unknown[j] for j in opp if not void[j][s])
        if s == T:
            kh = self.known_seat > 0
            return [_hyper_cdf(U, above[T][_RANK[c] + 1], drawn, i - (kh and self.known_card > c)) for i, c in enumerate(mine)]
        L = above[s][0]
        tr = above[T][0]
        out = []
        for k, c in enumerate(mine):
            p = _NONE[U][above[s][_RANK[c] + 1]][drawn]
            for j in opp:
                if void[j][T]:
                    continue  # cannot ruff
                m = unknown[j]
                if void[j][s]:
                    p_short = 1.0
                else:
                    p_short = _hyper_cdf(U, L, m, k) if k else _NONE[U][L][m]
                p_trump = 1.0 if self.known_seat == j else 1.0 - _NONE[U - L][tr][m]
                p *= 1.0 - p_short * p_trump
            out.append(p)
        return out

    def raw_card_probs(self, hand: list[int]) -> list[float]:
        """Per card, the raw model's chance of taking a trick this deal (before calibration).

        Per suit ``_suit_probs``; then spare low trumps add ruffs when a side suit is short.
        """
        n, T = self._n, self.trump
        opp = self._opponents()
        by_suit = _by_suit(hand)
        probs: dict[int, float] = {}
        rounds = len(hand)
        short = 0.0
        for s in range(4):
            probs.update(zip(by_suit[s], self._suit_probs(s, by_suit[s], opp)))
            if s != T:
                expected_rounds = min(rounds, (len(by_suit[s]) + self.above[s][0]) / n)
                short += max(0.0, min(expected_rounds, 2.0) - len(by_suit[s]))
        spare = sum(1.0 - probs[c] for c in by_suit[T])
        if spare > 0 and short > 0:
            extra = self._ruff_value * min(spare, short)
            for c in by_suit[T]:
                if probs[c] < 1.0:
                    probs[c] = min(1.0, probs[c] + extra * (1.0 - probs[c]) / spare)
        return [probs[c] for c in hand]

    def calibration_features(self, hand: list[int], raw: list[float]) -> list[list[float]]:
        """Per card, the features of the logistic calibration, in the order of ``_CALIB``.

        The raw model misses the tricks that middling cards take late, the ruffs of a long trump
        holding, what the earlier bids say about the other hands and how easily tricks come
        against weak players; these features let the fit correct for them. Only a decoded
        bidding (or discard) observation is needed, so ``experiments/studies/le_dix_heuristic/le_dix_calibrate.py`` fits
        on exactly what the agent computes.
        """
        n, T, h = self._n, self.trump, self.h
        by_suit: list[list[int]] = [[], [], [], []]
        for c in sorted(hand, reverse=True):
            by_suit[_SUIT[c]].append(c)
        d = n * h / 52.0  # share of the deck in the hands
        lead = 1.0 if self.dealer == n - 1 else 0.0  # this player leads the first trick
        ntr = len(by_suit[T]) / h
        voids = sum(1 for x in range(4) if x != T and not by_suit[x])
        singles = sum(1 for x in range(4) if x != T and len(by_suit[x]) == 1)
        said = sum(b for b in self.bids if b >= 0)
        to_bid = sum(1 for b in self.bids[1:] if b < 0)
        # How far the earlier bids exceed their fair share of the tricks, capped (see table_cap).
        sf = min(self._table_cap, (said - (n - 1 - to_bid) * h / n) / h)
        cp = self._opponent_rate()
        rows = []
        for c, p in zip(hand, raw):
            x = _SUIT[c]
            p = min(0.99, max(0.01, p))
            lg = math.log(p / (1.0 - p))
            tr = 1.0 if x == T else 0.0
            rank = _RANK[c] / 12.0
            mine = by_suit[x]
            k = mine.index(c)  # own higher cards in the suit
            ln = len(mine)
            single_side = (1.0 - tr) * ntr * (ln == 1)
            rows.append([
                1.0, lg, tr, d, rank, tr * lg, d * lg, tr * d, k, ln, lead, tr * rank, d * rank,
                ntr, tr * ntr, tr * voids, tr * singles, 1.0 / n, lg / n, tr * k, sf, sf * tr,
                single_side, d * d, d * d * tr, cp, cp * lg, cp * tr, cp * sf, cp * d,
            ])
        return rows

    def _opponent_rate(self) -> float:
        """The opponents' share of bids made so far (from their scores), shrunk towards 0.55 early on.

        Against opponents who rarely make their bids (random play) their bids say little and
        tricks come more easily: the calibration uses this to tell such tables apart.
        """
        n = self._n
        start = self._bounds["scores"][0]
        made = sum(min(float(self._obs[start + j]) * 10.0, self.deal_index) for j in range(1, n))
        return (made + 1.1 * (n - 1)) / ((self.deal_index + 2) * (n - 1))

    def _one_card_prob(self) -> float:
        """Exact chance that a one-card hand takes the trick (every play is forced)."""
        n, T, U, above = self._n, self.trump, self.pool, self.above
        c = self.hand[0]
        s, r = _SUIT[c], _RANK[c]
        first = (self.dealer + 1) % n
        known = self.known_seat > 0
        drawn = sum(self.unknown[1:])
        if s == T:
            if known and self.known_card > c:
                return 0.0
            return _NONE[U][above[T][r + 1]][drawn]
        if known:
            return 0.0  # the dealer holds a trump
        beaters = above[s][r + 1] + above[T][0]
        if first == 0:
            return _NONE[U][beaters][drawn]
        lower = above[s][0] - above[s][r + 1]  # pool cards of my suit below mine: the leader must lead one
        return lower / U * _NONE[U - 1][beaters][drawn - 1]

    def _estimate(self) -> float:
        """Expected tricks of the hand (one-card deals exactly, else the per-card model and the tuning)."""
        if self.h == 1:
            return self._one_card_prob()
        est = self._bid_scale * sum(self._card_probs(self.hand))
        return est + self._bid_offset

    def hand_trick_chances(self, observation: np.ndarray) -> tuple[list[int], list[float]]:
        """The hand of a flat observation and, per card, its chance of taking a trick this deal.

        The bidding model (calibrated; a one-card hand exactly), as the bid and the discard use it:
        ``bid_scale × sum + bid_offset`` is the estimate the bid rounds (``_estimate``). Read by the
        le_dix ``cards_bid`` features (``agents/features.py``), which give a policy the evaluation,
        not the bid.
        """
        self._decode(observation)
        if len(self.hand) == 1:
            return self.hand, [self._one_card_prob()]
        return self.hand, self._card_probs(self.hand)

    def _choose_bid(self, bids: list[int]) -> int:
        """The legal bid closest to the estimate (ties: the lower bid)."""
        self.last_estimate = est = self._estimate()
        return min(bids, key=lambda b: (abs(b - est), b))

    # --- card play ----------------------------------------------------------------------------
    def _forced_probs(self, strength: dict[int, float]) -> dict[int, float]:
        """Per card in hand, P(it takes a trick even when this player tries to lose it).

        A side card of strength p is forced with chance p ** ``forced_power`` (it can be thrown on
        a void or under a higher card) and a trump with p ** ``trump_forced_power`` (it wins
        whenever it must be played on a side suit). A logistic model fitted on which kept cards
        still won while their player ducked did worse against the previous heuristic (win share
        50.4% against 53.2% for these powers, the same 1,000 4-player games), so it was dropped.
        """
        T, fp, tp = self.trump, self._forced_power, self._trump_forced_power
        return {c: p ** (tp if _SUIT[c] == T else fp) for c, p in strength.items()}

    def _trick_leader_card(self) -> tuple[int, int]:
        """(card, relative seat) winning the current trick so far."""
        n, T = self._n, self.trump
        leader = self.leader
        best, seat = self.trick[0], leader
        for k, c in enumerate(self.trick[1:], 1):
            if (_SUIT[c] == T and (_SUIT[best] != T or c > best)) or (_SUIT[c] == _SUIT[best] and c > best):
                best, seat = c, (leader + k) % n
        return best, seat

    def card_strengths(self) -> dict[int, float]:
        """Per card in hand, its chance of winning if it were led now (decoded playing observation)."""
        return {c: self._strength(c) for c in self.hand}

    def _choose_card(self, cards: list[int]) -> int:
        """The card most likely to make the bid exactly (see the module docstring and ``_window``)."""
        need = self.bids[0] - self.won[0]
        hand = self.hand
        pos = len(self.trick)
        later = range(1, self._n - pos)
        strength = self.card_strengths()
        if pos == 0:
            chance = [strength[c] for c in cards]
            best_seat = -1
        else:
            led = _SUIT[self.trick[0]]
            best, best_seat = self._trick_leader_card()
            T = self.trump
            best_trump = _SUIT[best] == T

            def beats(c: int) -> bool:
                if _SUIT[c] == T:
                    return not best_trump or c > best
                return _SUIT[c] == led and not best_trump and c > best

            chance = [self._win_chance(c, led, later) if beats(c) else 0.0 for c in cards]
        if need < 0:
            return self._spoil(cards, chance, strength, best_seat)
        forced = self._forced_probs(strength)
        T = self.trump
        # What each kept card can still win: its chance if led now, or later, once the higher cards
        # and the trumps have gone (the raw bidding model on the hand that is left and the voids).
        opp = self._opponents()
        by_suit = _by_suit(hand)
        suit_able = [self._suit_probs(s, by_suit[s], opp) for s in range(4)]
        voids = sum(1 for x in range(4) if x != T and not by_suit[x])
        keep = 1.0 - self._side_decay
        relief = 1.0 - self._void_relief
        best_score, choice = -1.0, cards[0]
        for c, w in zip(cards, chance):
            sc = _SUIT[c]
            rest = [x for x in by_suit[sc] if x != c]
            # Playing a side suit's last card opens a void: a later chance to throw a dangerous card.
            side_relief = relief ** (voids + (sc != T and not rest))
            p, q = [], []
            for s in range(4):
                mine = rest if s == sc else by_suit[s]
                probs = self._suit_probs(s, rest, opp) if s == sc else suit_able[s]
                for x, a in zip(mine, probs):
                    a = max(a, strength[x])
                    if s == T:
                        p.append(a)
                        q.append(forced[x])
                    else:  # a side card kept for later may be ruffed by then: cash side winners first
                        p.append(a * keep)
                        q.append(forced[x] * side_relief)
            score = w * _window(q, p, need - 1) + (1.0 - w) * _window(q, p, need)
            # Ties (often: the outcome is settled either way): shed strength when the bid is made,
            # keep it while tricks are needed; then the higher rank.
            sign = 1.0 if need == 0 else -1.0
            score += sign * (1e-3 * strength[c] + 1e-5 * _RANK[c])
            if score > best_score:
                best_score, choice = score, c
        return choice

    def _spoil(self, cards: list[int], chance: list[float], strength: dict[int, float], best_seat: int) -> int:
        """Bid already lost: take tricks from players who still need them, give them to those who made theirs."""
        if best_seat > 0 and self.bids[best_seat] == self.won[best_seat]:
            return max((c for c, w in zip(cards, chance) if w == 0.0), key=lambda c: strength[c], default=min(cards, key=lambda c: strength[c]))
        return max(zip(chance, [-strength[c] for c in cards], cards))[2]


def _by_suit(cards: list[int]) -> list[list[int]]:
    """The cards split by suit, highest first in each."""
    out: list[list[int]] = [[], [], [], []]
    for c in sorted(cards, reverse=True):
        out[_SUIT[c]].append(c)
    return out


def _cdf_upto(probs: list[float], k: int) -> list[float]:
    """``[P(S <= 0), ..., P(S <= k)]`` for S a sum of independent Bernoulli(``probs``)."""
    d = [1.0] + [0.0] * k
    for p in probs:
        for j in range(k, 0, -1):
            d[j] = d[j] * (1.0 - p) + d[j - 1] * p
        d[0] *= 1.0 - p
    out, acc = [], 0.0
    for v in d:
        acc += v
        out.append(acc)
    return out


def _window(forced: list[float], able: list[float], k: int) -> float:
    """P(the rest of the hand can take exactly ``k`` tricks): forced tricks <= k <= tricks it can take.

    Forced tricks F (cards that win even when played to lose) and possible tricks M (cards that win
    when played to win) are sums of independent Bernoulli; the player can steer its count anywhere
    between them, so P(F <= k <= M) = P(F <= k) - P(M <= k - 1) (F <= M card by card).
    """
    if k < 0 or k > len(able):
        return 0.0
    f = _cdf_upto(forced, k)[k]
    m = _cdf_upto(able, k - 1)[k - 1] if k > 0 else 0.0
    return max(0.0, f - m)
