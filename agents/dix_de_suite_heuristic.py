"""A baseline heuristic for dix de suite (Rack-O): keep a well-spread ascending chain, fill its gaps by value.

It reads only the observation (decoded with the offsets of ``env.unwrapped.layout``) and the action
mask, never the engine's state.

How it judges a rack (the *cost*, lower is better, roughly "draws still needed"):

* The rack is read as a chain of **anchors**: an increasing subsequence of its cards that it
  keeps, between two virtual anchors 0 (before slot 1) and ``D + 1`` (after slot 10). The slots
  between two consecutive anchors (``g`` of them) are *gaps*; they must be filled with cards
  strictly between the anchors' values.
* A gap of ``g`` slots whose value window holds ``w`` available cards costs
  ``g × empty_cost + N × (g / w) ** alpha × m(g)`` with ``m(g) = g`` (``gap_share = 0``; 1 uses
  the harmonic number ``H_g``, as if the slots shared their draws): each empty slot waits for a
  card of its share ``w / g`` of the window among ``N`` available cards, plus the turn that places
  it. A window with fewer card values than slots is impossible.
* *Available* weighs each card by the chance that it may still come to this player: a card of a
  public draw pile or the discard top 1; an unseen card the chance that it is in the hidden draw
  pile (draw pile size / unseen cards), at least ``opp_weight`` (it may sit in an opponent's rack
  for long; after an unshuffled turn-over every unseen card is in a rack); a card deep in the
  discard pile ``discard_weight`` (it comes back after a turn-over); a card in a rack 0.
* Each anchor may pay ``target_weight × N × |card − target| / D`` for straying from its slot's
  target value ``(k − 0.5) / 10 × D`` (the anchor/range strategy: slot k ideally holds a card near
  its tenth of the deck). The gap costs alone already place cards near their targets; a small
  weight (0.1) still shortened rounds a little in tuning.
* The cost of a rack is that of its best chain: a shortest-path dynamic programme over the 12
  positions (forward costs ``F`` and backward costs ``B``), so cards already in a long, well-spread
  increasing subsequence are kept, and the others count as empty slots.
* Replacing slot k by card c is costed in O(10) from ``F`` and ``B`` (the chain either keeps c as
  an anchor at k, or skips slot k), for every card and slot at once with numpy.
* ``two_player_run``: plus ``run_weight`` × the draws expected before three consecutive slots
  hold a run (every run x, x+1, x+2 that keeps a card already there and leaves room for an
  ascending rack around it is a way; its draws are the sum of 1 / availability of its missing
  cards; the ways' rates add up). ``run_bonus``: minus ``bonus_weight × N`` per 100 points of the
  bonus that the longest run would pay.

How it plays:

* **Source**: take the discard top only if its best placement lowers the cost by more than the
  expected gain of a blind draw (mean over the cards that may be on the draw pile of the gain of
  their best placement, discarding when none helps; when the draw pile's order is public, the
  gain of its known top card) plus ``take_margin``.
* **Drawn card**: put it in the slot that lowers the cost most if that beats ``swap_margin``,
  else discard it. **Taken card**: the slot that lowers the cost most.
* A sorted rack (it can only be seen with ``two_player_run``, still lacking a run) is never broken
  during the first ``guard_turns`` turns of a round (a guard against deadlocks after that, when
  the cards that would make a run are held by opponents; the agent reads ``max_turns`` from the
  public game config to turn the ``round_turns`` fraction into turns).

Playing for the game (``secure=1``; off by default, the baseline plays every round as a race):

* A round's loser scores 5 per card of the ascending prefix of its rack from slot 1. Near the
  end of a game that can win it: when a prefix of ``p`` slots (2..9) would take this seat to the
  target and above every other score plus the 75 points of a sorted rack
  (``mine + 5 p >= target`` and ``> best other + 75``), the game is won as soon as slots 1..p
  ascend, whoever sorts first. Then the cost is that of the sub-rack of slots 1..p alone (the
  same chain-and-gap model with the virtual anchor D + 1 after slot p), the full rack's cost
  only breaking ties; and once slots 1..p ascend, no placement breaks them (as the sorted-rack
  guard). Off in the ``teams`` and ``run_bonus`` variants, where other points decide.

``prefix_weight`` (0 by default): the cost is lowered by that many units per card of the
ascending prefix, which the round's loser scores.

Parameters were tuned on the heuristic's own turns per round against passive opponents (see
``experiments/studies/dix_de_suite_heuristic/dix_de_suite_stats.py``); most of them move that figure by less than its noise
(±0.15 turns), the chain-and-gap structure does the work.
"""

from __future__ import annotations

from operator import add
from typing import Any

import numpy as np

from dixenv.agents.base import tuned_params
from dixenv.games.dix_de_suite import actions as A
from dixenv.games.dix_de_suite.scoring import POINTS_PER_CARD, WIN_POINTS

RACK = 10
BIG = 1e9  # an impossible chain (finite, so differences stay finite)
INF = float("inf")
TIE, TIE_CAP = 1e-6, 1e4  # secure=1: the full rack's cost (at most TIE_CAP) beside the sub-rack's only breaks ties
#: ``run_bonus`` variant: points of the longest run (index = run length, 6 or more pays 400).
_BONUS = np.array([0, 0, 0, 50, 100, 200, 400, 400, 400, 400, 400], dtype=np.float64)


def ascending_prefixes(racks: np.ndarray) -> np.ndarray:
    """The ascending prefix length of each rack (the last axis: slots 1..10), as the round's
    loser scores it (5 points a card; one card at least)."""
    ascending = racks[..., 1:] > racks[..., :-1]
    return 1 + np.cumprod(ascending, axis=-1).sum(axis=-1)


def racks_with_each_card(rack: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """``rack`` with each of ``cards`` put in each of its slots: ``out[k, i]`` is ``rack`` with
    ``cards[i]`` in slot k (shape: slots × cards × slots)."""
    n = len(rack)
    racks = np.broadcast_to(rack, (n, len(cards), n)).copy()
    racks[np.arange(n), :, np.arange(n)] = cards[None, :]
    return racks


class DixDeSuiteHeuristic:
    """Keeps a well-spread ascending chain and fills its gaps by value (see the module docstring)."""

    name = "heuristic"

    #: Tunable parameters (constructor keywords); defaults tuned for short rounds (module docstring).
    DEFAULTS: dict[str, float] = {
        "alpha": 1.0,  # exponent of (slots / window cards) in a gap's waiting cost
        "gap_share": 0.0,  # 0: a gap's slots wait one after another (× g); 1: they share draws (× H_g)
        "empty_cost": 1.0,  # cost of an empty slot besides the waiting (the turn that fills it)
        "discard_weight": 0.5,  # availability of a card deep in the discard pile (back after a turn-over)
        "opp_weight": 0.1,  # least availability of an unseen card (it may sit in an opponent's rack for long)
        "target_weight": 0.1,  # pull of an anchor towards its slot's target value (k - 0.5) / 10 × D
        "take_margin": 0.0,  # taking the discard must beat the expected gain of a blind draw by this
        "swap_margin": 0.0,  # a drawn card replaces a slot only if it lowers the cost by more than this
        "run_weight": 2.0,  # two_player_run: weight of the draws expected before 3 slots hold a run
        "guard_turns": 100.0,  # a sorted rack (two_player_run) is kept as it is for this many turns of the round
        "bonus_weight": 0.5,  # run_bonus: cost removed per 100 points of the longest run's bonus, in units of N
        "secure": 0.0,  # 1: near the end of a game, first sort the prefix that wins it (module docstring)
        "prefix_weight": 0.0,  # cost removed per card of the ascending prefix (5 points to a round's loser)
    }

    def __init__(self, env: Any, seed: int | None = None, **params: float):
        self.params = tuned_params("DixDeSuiteHeuristic", self.DEFAULTS, params)
        for key, value in self.params.items():
            setattr(self, "_" + key, value)
        layout = env.unwrapped.layout
        self._sl = {p.name: layout.slices[p.name] for p in layout.pieces}
        d = layout["discard_top"].shape[0]
        self._d = d
        self._p = float(d - RACK * (layout["dealer"].shape[0]) + 1)  # pile scale of the depth pieces
        # Index grids of the vectorised placement costs: slot position k (1..10) against a left
        # anchor position i (0..10) or a right anchor position j (1..11).
        k = np.arange(1, RACK + 1)[:, None, None]
        i = np.arange(0, RACK + 1)[None, :, None]
        j = np.arange(1, RACK + 2)[None, :, None]
        gl = k - i - 1  # slots between left anchor i and slot k (< 0: i is not left of k)
        gr = j - k - 1
        self._gl_ok, self._gr_ok = gl >= 0, gr >= 0
        self._gl_c, self._gr_c = np.maximum(gl, 0), np.maximum(gr, 0)
        harmonic = np.concatenate(([0.0], np.cumsum(1.0 / np.arange(1, RACK + 1))))
        self._mult = (1.0 - self._gap_share) * np.arange(RACK + 1) + self._gap_share * harmonic
        config = getattr(env.unwrapped, "config", None)  # public game options, not the state
        self._max_turns = float(getattr(config, "max_turns", 1000))
        self._target_score = float(getattr(config, "target_score", 500))
        if getattr(config, "teams", False) or getattr(config, "run_bonus", False):
            self._secure = 0.0  # other points decide the game there (module docstring)
        self._targets = (np.arange(1, RACK + 1) - 0.5) / RACK * d  # slot k's target value
        # Slots between positions i < j of the chain (0 and 11 are the virtual anchors): fixed, so
        # built once rather than at every decision.
        pos = np.arange(RACK + 2)
        pair = pos[None, :] - pos[:, None] - 1
        self._pair_gaps, self._pair_bad = np.maximum(pair, 0), pair < 0
        self._slots = np.arange(RACK)
        self._slot_column = self._slots[:, None]


    # --- the entry point ------------------------------------------------------------------------
    def act(self, observation: dict[str, np.ndarray]) -> int:
        """A legal action for this observation: draw / take discard, then swap K / discard."""
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        self._decode(observation["observation"])
        if mask[A.DRAW] or mask[A.TAKE_DISCARD]:
            return self._choose_source(mask)
        return self._choose_slot(mask)

    def rack_cost(self, flat: np.ndarray) -> float:
        """The cost of the observing seat's rack (lower is better: roughly the draws it still
        needs) from its flat observation; what the heuristic's play minimises (module docstring)."""
        self._decode(flat)
        return float(self._cost0)

    # --- decisions ------------------------------------------------------------------------------
    def _choose_source(self, mask: np.ndarray) -> int:
        """Take the discard top only when it helps more than a blind draw is expected to."""
        self._gains = None  # the source gains, once computed (turn_cost reuses them)
        if not mask[A.TAKE_DISCARD]:
            return A.DRAW
        if not mask[A.DRAW]:
            return A.TAKE_DISCARD
        if self._discard_top <= 0:
            return A.DRAW
        take_gain, draw_gain = self._gains = self._source_gains()
        return A.TAKE_DISCARD if take_gain > draw_gain + self._take_margin else A.DRAW

    def _source_gains(self) -> tuple[float, float]:
        """(gain of the discard top's best placement, 0 without one; expected gain of a blind draw:
        the mean over the cards that may be on the draw pile of their best placement's gain, a card
        that helps nowhere being discarded, or with a public order the known top card's)."""
        top = self._discard_top
        if self._draw_top > 0:  # public order: the next draw is known
            draws = np.array([self._draw_top])
        else:
            draws = self._unseen_cards
        cands = np.concatenate(([top], draws)) if top > 0 else draws
        if not len(cands):
            return 0.0, 0.0
        gains = self._cost0 - self._placement_costs(cands).min(axis=0)
        take_gain = float(gains[0]) if top > 0 else 0.0
        draw = gains[1:] if top > 0 else gains
        return take_gain, float(np.maximum(draw, 0.0).mean()) if len(draw) else 0.0

    def turn_cost(self, observation: dict[str, np.ndarray]) -> float:
        """The rack cost the observing seat, which is to act, expects after playing the rest of its
        turn as this heuristic does: at the source, after taking the discard or (mean over the
        cards it may draw) after a blind draw, whichever it would choose; with a card in hand,
        after placing or discarding it. A search estimate (``agents/search/dix_de_suite.py``, ``estimate=reply``):
        what the next seat makes of the card another seat leaves on the discard pile."""
        mask = observation["action_mask"]
        self._decode(observation["observation"])
        if mask[A.DRAW] or mask[A.TAKE_DISCARD]:
            take = self._choose_source(mask) == A.TAKE_DISCARD
            take_gain, draw_gain = self._gains or self._source_gains()
            return self._cost0 - (take_gain if take else draw_gain)
        action = self._choose_slot(mask)
        if action == A.DISCARD or self._held <= 0:
            return float(self._cost0)
        return float(self._slot_costs[action - A.SWAP_BASE])

    def _choose_slot(self, mask: np.ndarray) -> int:
        """The swap that lowers the rack cost most; discard a drawn card that does not help enough."""
        held = self._held
        can_discard = bool(mask[A.DISCARD])
        swaps = mask[A.SWAP_BASE : A.SWAP_BASE + RACK].astype(bool)
        if held <= 0:  # cannot happen for the player to act; stay legal anyway
            return A.DISCARD if can_discard else A.SWAP_BASE + int(np.flatnonzero(swaps)[0])
        costs = self._placement_costs(np.array([held]))[:, 0]
        costs = np.where(swaps, costs, np.inf)
        k = int(np.argmin(costs))
        if can_discard and not (self._cost0 - costs[k] > self._swap_margin):
            return A.DISCARD
        if costs[k] >= BIG and (self._sorted or self._prefix) and not can_discard:
            # A taken card that fits nowhere in a sorted rack: least harm (no guard) instead.
            costs = np.where(swaps, self._placement_costs(np.array([held]), guard=False)[:, 0], np.inf)
            k = int(np.argmin(costs))
        self._slot_costs = costs  # the rack cost after each swap it weighed (turn_cost reads the chosen one)
        return A.SWAP_BASE + k

    # --- observation ----------------------------------------------------------------------------
    def _decode(self, flat: np.ndarray) -> None:
        """Read the rack, held card, piles and availability; compute the chain costs F, B of the rack."""
        sl, d = self._sl, self._d
        rack = np.rint(flat[sl["own_rack"]] * d).astype(np.int64)
        self._rack = rack
        held = flat[sl["held_card"]]
        self._held = int(np.argmax(held)) + 1 if held.any() else 0
        top = flat[sl["discard_top"]]
        self._discard_top = int(np.argmax(top)) + 1 if top.any() else 0
        unseen = flat[sl["unseen"]]
        self._unseen_cards = np.flatnonzero(unseen) + 1
        pdepth = flat[sl["draw_pile_depth"]]
        if flat[sl["draw_pile_public"]][0] > 0.5 and pdepth.any():
            # The top of a public draw pile has the smallest depth value (1 / P).
            self._draw_top = int(np.argmin(np.where(pdepth > 0, pdepth, np.inf))) + 1
        else:
            self._draw_top = 0
        variants = flat[sl["variants"]]
        self._need_run = variants[1] > 0.5
        self._bonus = variants[3] > 0.5 and self._bonus_weight != 0.0

        # Availability per card value 1..D: what may still come to this player. An unseen card is
        # on the hidden draw pile with probability (its size / unseen cards), else in a rack.
        n_unseen = len(self._unseen_cards)
        hidden = 0.0 if self._draw_top else float(flat[sl["draw_pile_size"]][0]) * self._p
        p_pile = min(1.0, hidden / n_unseen) if n_unseen else 0.0
        avail = unseen.astype(np.float64) * max(self._opp_weight, p_pile)
        avail += pdepth > 0
        avail += self._discard_weight * flat[sl["discard_cards"]]
        if self._discard_top:
            avail[self._discard_top - 1] = 1.0
        np.minimum(avail, 1.0, out=avail)
        cum = np.zeros(d + 2)
        np.cumsum(avail, out=cum[1 : d + 1])
        cum[d + 1] = cum[d]
        self._cum = cum
        self._n_avail = max(float(cum[d]), 1.0)

        vals = np.empty(RACK + 2, dtype=np.int64)
        vals[0], vals[1 : RACK + 1], vals[RACK + 1] = 0, rack, d + 1
        self._vals = vals
        # Pairwise gap costs between positions i < j (12 × 12), then forward / backward chain costs.
        gap = self._gap_cost(self._pair_gaps, vals[:, None], vals[None, :])
        gap[self._pair_bad] = BIG
        node = np.zeros(RACK + 2)
        node[1 : RACK + 1] = self._node_cost(self._slots, rack)
        gl = gap.tolist()
        gl_in = gap.T.tolist()  # gl_in[j][i] = gap[i, j]: the gaps into position j
        nl = node.tolist()
        # Plain-float chains (12 positions): ``map`` over row slices loops in C, faster than a
        # generator or numpy calls at this size, and adds the same pairs in the same order.
        f = [0.0] * (RACK + 2)
        for j in range(1, RACK + 2):
            f[j] = nl[j] + min(map(add, f[:j], gl_in[j][:j]))
        b = [0.0] * (RACK + 2)
        for i in range(RACK, -1, -1):
            b[i] = nl[i] + min(map(add, gl[i][i + 1 :], b[i + 1 :]))
        self._f = np.array(f)
        self._b = np.array(b)
        # skip[k]: best chain that does not use slot k (1..10) as an anchor.
        # skip[k] = min over i < k < j of F[i] + gap[i, j] + B[j]: a suffix minimum over j, then a
        # prefix minimum over i.
        through = self._f[:, None] + gap + self._b[None, :]
        suffix = np.minimum.accumulate(through[:, ::-1], axis=1)[:, ::-1]
        prefix = np.minimum.accumulate(suffix[:, 2:], axis=0)  # [i, k - 1] = min over i' <= i, j > k
        self._skip = prefix[self._slots, self._slots]
        turns = float(flat[sl["round_turns"]][0]) * self._max_turns
        self._sorted = bool(np.all(np.diff(rack) > 0)) and turns < self._guard_turns
        cost0 = f[RACK + 1]
        if self._bonus:
            self._runs_prepare(rack)
            cost0 += self._bonus_term(np.array([self._run_now]))[0]
        if self._need_run:
            self._avail_list = [0.0] + avail.tolist()
            self._rack_list = rack.tolist()
            self._triple_rates = [self._triple_rate(self._rack_list, t) for t in range(RACK - 2)]
            cost0 += self._run_cost_from(sum(self._triple_rates))
        if self._prefix_weight:
            cost0 -= self._prefix_weight * float(ascending_prefixes(rack))
        self._cost0 = cost0
        self._prefix = 0  # the secured prefix's length, while it is being sorted or kept (secure=1)
        if self._secure:
            self._prefix_setup(flat)

    # --- costs ----------------------------------------------------------------------------------
    def _gap_cost(self, g: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Cost of ``g`` empty slots between anchors of values ``lo`` < ``hi`` (BIG if impossible)."""
        raw = hi - lo - 1
        cum = self._cum
        w = cum[hi - 1] - cum[lo]  # values are 0..D+1, so both indices are 0..D
        ratio = g / np.maximum(w, 0.25)
        wait = ratio if self._alpha == 1.0 else ratio**self._alpha
        cost = g * self._empty_cost + self._n_avail * wait * self._mult[g]
        return np.where(raw >= g, cost, BIG)

    def _node_cost(self, slot_index: np.ndarray, card: np.ndarray) -> np.ndarray:
        """Cost of keeping ``card`` as an anchor in slot index 0..9 (distance to the slot's target)."""
        if not self._target_weight:
            return np.zeros(np.broadcast(slot_index, card).shape)
        return self._target_weight * self._n_avail * np.abs(card - self._targets[slot_index]) / self._d

    def _placement_costs(self, cards: np.ndarray, guard: bool = True) -> np.ndarray:
        """Rack cost after putting each card in each slot: shape (10 slots, len(cards)).

        ``guard``: a sorted rack is never broken (such placements cost BIG).
        """
        vals, f, b = self._vals, self._f, self._b
        c = cards[None, None, :]
        left = self._gap_cost(self._gl_c, vals[: RACK + 1][None, :, None], c) + f[: RACK + 1][None, :, None]
        left = np.where(self._gl_ok, left, BIG).min(axis=1)
        right = self._gap_cost(self._gr_c, c, vals[1:][None, :, None]) + b[1:][None, :, None]
        right = np.where(self._gr_ok, right, BIG).min(axis=1)
        keep = left + right + self._node_cost(self._slot_column, cards[None, :])
        costs = np.minimum(keep, self._skip[:, None])
        if self._bonus:
            costs = costs + self._bonus_term(self._runs_after(cards))
        if self._need_run:
            costs = costs + self._run_costs(cards)
        if self._prefix_weight:
            costs = costs - self._prefix_weight * ascending_prefixes(racks_with_each_card(self._rack, cards))
        if guard and self._sorted:
            lo, hi = vals[:RACK][:, None], vals[2:][:, None]
            costs = np.where((lo < cards[None, :]) & (cards[None, :] < hi), costs, BIG)
        if self._prefix:
            costs = self._prefix_placement_costs(cards, costs, guard)
        return np.minimum(costs, BIG)

    # --- playing for the game (secure=1) --------------------------------------------------------
    def _secure_length(self, flat: np.ndarray) -> int:
        """The least prefix length p (2..9) that wins the game whoever sorts first; 0 if none does
        or one card already would (module docstring)."""
        scores = flat[self._sl["scores"]] * self._target_score
        mine, best_other = float(scores[0]), float(scores[1:].max())
        for p in range(1, RACK):
            points = mine + POINTS_PER_CARD * p
            if points >= self._target_score and points > best_other + WIN_POINTS:
                return p if p > 1 else 0
        return 0

    def _prefix_setup(self, flat: np.ndarray) -> None:
        """With a secure length p: keep slots 1..p once they ascend, else cost the sub-rack 1..p."""
        p = self._secure_length(flat)
        if not p:
            return
        self._prefix = p
        self._prefix_kept = bool(np.all(np.diff(self._rack[:p]) > 0))
        if not self._prefix_kept:
            self._sub_cost0 = float(self._sub_costs(self._rack[None, :p])[0])
            self._cost0 = self._sub_cost0 + TIE * min(self._cost0, TIE_CAP)

    def _sub_costs(self, racks: np.ndarray) -> np.ndarray:
        """The chain cost of each row of ``racks`` (m × p cards) as a rack of p slots: the forward
        chain of ``_decode`` over positions 0..p + 1, the last one the virtual anchor D + 1."""
        m, p = racks.shape
        vals = np.empty((m, p + 2), dtype=np.int64)
        vals[:, 0], vals[:, 1 : p + 1], vals[:, p + 1] = 0, racks, self._d + 1
        gaps, bad = self._pair_gaps[: p + 2, : p + 2], self._pair_bad[: p + 2, : p + 2]
        gap = np.where(bad, BIG, self._gap_cost(gaps, vals[:, :, None], vals[:, None, :]))
        node = np.zeros((m, p + 2))
        node[:, 1 : p + 1] = self._node_cost(self._slots[:p], racks)
        f = np.zeros((m, p + 2))
        for j in range(1, p + 2):
            f[:, j] = node[:, j] + (f[:, :j] + gap[:, :j, j]).min(axis=1)
        return f[:, p + 1]

    def _prefix_placement_costs(self, cards: np.ndarray, costs: np.ndarray, guard: bool) -> np.ndarray:
        """``costs`` (10 slots × cards, the full rack's) made the secured prefix's: kept slots
        1..p are never broken (``guard``); an unsorted sub-rack's cost leads, the full cost breaks ties."""
        p, rack = self._prefix, self._rack
        if self._prefix_kept:
            if not guard:
                return costs
            lo = np.concatenate(([0], rack[: p - 1]))[:, None]
            hi = np.concatenate((rack[1:p], [self._d + 1]))[:, None]
            fits = (lo < cards[None, :]) & (cards[None, :] < hi)
            out = costs.copy()
            out[:p] = np.where(fits, costs[:p], BIG)
            return out
        sub = self._sub_costs(racks_with_each_card(rack[:p], cards).reshape(-1, p)).reshape(p, len(cards))
        tie = TIE * np.minimum(costs, TIE_CAP)
        out = self._sub_cost0 + tie  # slots past p leave the sub-rack as it is
        out[:p] = sub + tie[:p]
        return out

    # --- runs (two_player_run and run_bonus variants) -------------------------------------------
    def _runs_prepare(self, rack: np.ndarray) -> None:
        """Run lengths ending / starting at each slot, and the longest run on each side of each slot."""
        r = rack.tolist()
        end = [1] * RACK
        for s in range(1, RACK):
            if r[s] == r[s - 1] + 1:
                end[s] = end[s - 1] + 1
        start = [1] * RACK
        for s in range(RACK - 2, -1, -1):
            if r[s + 1] == r[s] + 1:
                start[s] = start[s + 1] + 1
        before = [0] * RACK
        after = [0] * RACK
        for s in range(1, RACK):
            before[s] = max(before[s - 1], end[s - 1])
        for s in range(RACK - 2, -1, -1):
            after[s] = max(after[s + 1], start[s + 1])
        self._run_now = max(end)
        self._run_end = np.array([0] + end)  # index s + 1 -> run ending at slot index s; index 0 -> 0
        self._run_start = np.array(start + [0])  # index s -> run starting at slot index s; index 10 -> 0
        self._run_other = np.maximum(np.array(before), np.array(after))[:, None]

    def _runs_after(self, cards: np.ndarray) -> np.ndarray:
        """Longest run after putting each card in each slot: shape (10, len(cards))."""
        r = self._vals  # positions: slot index s is position s + 1
        c = cards[None, :]
        s = np.arange(RACK)[:, None]
        left = np.where(c == r[s] + 1, self._run_end[s], 0)  # r[s] is the slot left of s (or 0)
        left = np.where(s > 0, left, 0)
        right = np.where(c == r[s + 2] - 1, self._run_start[np.minimum(s + 1, RACK)], 0)
        right = np.where(s < RACK - 1, right, 0)
        return np.maximum(self._run_other, left + 1 + right)

    def _bonus_term(self, runs: np.ndarray) -> np.ndarray:
        """``run_bonus``: minus the weighted bonus that the longest run would pay."""
        return -self._bonus_weight * self._n_avail * _BONUS[np.minimum(runs, RACK)] / 100.0

    def _triple_rate(self, r: list[int], t: int) -> float:
        """How fast slots t..t+2 can become a run: sum over target runs x, x+1, x+2 of 1 / (draws needed).

        The target runs are those that keep a card already there; the draws needed are the sum of
        1 / availability of the missing cards; ``inf`` if the slots already hold a run.
        """
        d, avail = self._d, self._avail_list
        a, b, c = r[t], r[t + 1], r[t + 2]
        if b == a + 1 and c == a + 2:
            return INF
        rate = 0.0
        for x in sorted({a, b - 1, c - 2}):
            # The run must leave room for ascending cards around it (x - 1 values for the t slots before).
            if x - 1 < t or d - x - 2 < RACK - 3 - t:
                continue
            need = 0.0
            for v, want in ((a, x), (b, x + 1), (c, x + 2)):
                if v != want:
                    av = avail[want]
                    if av <= 0.0:
                        break
                    need += 1.0 / av
            else:
                rate += 1.0 / need
        return rate

    def _run_cost_from(self, rate: float) -> float:
        """``two_player_run``: ``run_weight`` × the draws expected before some 3 slots hold a run."""
        if rate == INF:
            return 0.0
        # No run within reach: a large finite cost (as if each of the 3 cards were 20 times rarer).
        return self._run_weight * self._n_avail * min(1.0 / rate if rate > 0 else 60.0, 60.0)

    def _run_costs(self, cards: np.ndarray) -> np.ndarray:
        """``two_player_run`` cost after putting each card in each slot: shape (10, len(cards)).

        A placement in slot k changes only the triples of slots that contain k.
        """
        r = list(self._rack_list)
        rates = self._triple_rates
        out = np.empty((RACK, len(cards)))
        cards_list = cards.tolist()
        for k in range(RACK):
            touched = range(max(0, k - 2), min(k, RACK - 3) + 1)
            untouched = sum(rates[t] for t in range(RACK - 2) if t not in touched)
            old = r[k]
            for ci, c in enumerate(cards_list):
                r[k] = c
                rate = untouched
                for t in touched:
                    rate += self._triple_rate(r, t)
                out[k, ci] = self._run_cost_from(rate)
            r[k] = old
        return out
