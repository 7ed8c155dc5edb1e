"""Rack features for dix de suite: the heuristic's chain-and-gap costs, computed for a batch.

A dix de suite clone of the game-playing heuristic from the observation alone copied 86% of its
moves and won 0.092 [0.060, 0.141] of its games against it (docs/results/training.md): the
heuristic's move comes from a shortest-path programme over the rack's increasing chains, which a
256-unit MLP does not learn from one-hots. Here that programme runs for a whole batch of
observations in numpy (about a dozen array operations per chain position), and its results are
appended to the policy's inputs as numbers: how much each placement of the held card, of the
discard top and of a blind draw would lower the rack's cost. The network still picks the move; it
is given the evaluation, not the heuristic's choice, its margins or its end-of-game rules.

Cost: about 70 µs a row in batches of 256; 1.2 ms for one observation, where numpy's per-call
overhead on some 150 small array operations dominates (a row-at-a-time agent: evaluations, the web
table).

The cost model is ``agents/dix_de_suite_heuristic.py``'s, with its default parameters and without
the ``two_player_run`` / ``run_bonus`` terms (see that module's docstring); the tests check these
numbers against the heuristic's own, decision by decision.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dixenv.agents.dix_de_suite_heuristic import ascending_prefixes
from dixenv.games.dix_de_suite.scoring import POINTS_PER_CARD, WIN_POINTS

RACK = 10
BIG = 1e9  # an impossible chain, as in the heuristic
#: The heuristic's default cost parameters (``DixDeSuiteHeuristic.DEFAULTS``; checked in the tests).
EMPTY_COST, OPP_WEIGHT, DISCARD_WEIGHT, TARGET_WEIGHT = 1.0, 0.1, 0.5, 0.1
#: Cost removed per card of the ascending prefix (a round's loser scores 5 points a card): the value
#: of the game-playing heuristic ``heuristic:secure=1,prefix_weight=0.3``, the one the clones copy.
PREFIX_WEIGHT = 0.3
GAIN_SCALE = 5.0  # a gain g is given as 0.5 + 0.5 tanh(g / GAIN_SCALE): one empty slot's worth moves it clearly
COST_SCALE = 50.0  # the rack's cost c as c / (c + COST_SCALE)


def relative_gains(gains: np.ndarray) -> np.ndarray:
    """``exp(gain − best gain)`` along the last axis: 1 for the best, 0 for an impossible one."""
    return np.exp(np.maximum(gains - gains.max(axis=-1, keepdims=True), -50.0))


def squash_gain(gain: np.ndarray) -> np.ndarray:
    """A cost decrease (any sign; impossible placements are −BIG) mapped into [0, 1], 0.5 for none."""
    return 0.5 + 0.5 * np.tanh(np.clip(gain, -1e3, 1e3) / GAIN_SCALE)


class DixDeSuiteRackFeatures:
    """dix de suite, for the observer's rack (every piece in [0, 1]; ``names`` lists them):

    * ``rack_cost`` (1): the rack's cost (roughly the draws it still needs), ``c / (c + 50)``;
    * ``in_chain`` (10): 1 for each slot whose card the best chain keeps;
    * ``slot_loss`` (10): how much the cost rises if the slot's card is given up, squashed;
    * ``held_gain`` (10): for the card held between the two decisions (0.5 when none), how much
      putting it in each slot lowers the cost, squashed (``squash_gain``); every gain counts the
      prefix term too (``PREFIX_WEIGHT`` per card of the ascending prefix);
    * ``held_rel`` (10): ``exp(gain − best gain)`` of each placement of the held card (1 for the
      best slot or slots, 0 when no card is held): the squashed gains of two bad placements are
      both near 0, and a clone of the heuristic without this piece put a taken card in another slot
      than the heuristic's 5% of the time;
    * ``top_gain`` (10): the same for the discard pile's top card;
    * ``source`` (3): the best placement gain of the discard top, the expected gain of a blind draw
      (mean over the cards that may be drawn of their best gain, discarding when none helps; a
      public draw pile's known top card), and the first minus the second, each squashed;
    * ``prefix`` (10): one-hot of the rack's ascending prefix from slot 1 (1..10 cards; a round's
      loser scores 5 points per card);
    * ``held_prefix`` (10): the ascending prefix after putting the held card in each slot, / 10;
    * ``secure`` (10): one-hot of the shortest prefix p (1..10) whose points would win the game now
      (own score + 5p at the target and above every other score + 75); all 0 when none would;
    * with such a p of 2..9 (the heuristic's ``secure=1``: the game is won as soon as slots 1..p
      ascend, whoever sorts first), the same model on the sub-rack of slots 1..p alone (the virtual
      anchor D + 1 after slot p), else 0 / 0.5: ``sub_kept`` (1, slots 1..p ascend already),
      ``sub_cost`` (1), ``sub_held_gain`` (10, squashed), ``sub_held_rel`` (10) and ``sub_source``
      (3): the pieces above for the sub-rack. A clone without them chose as the race heuristic
      does in these end-of-game decisions, a third of them otherwise than the heuristic it copied.
    """

    #: The definition's version, saved in a policy's metadata (``features_version``) and checked on
    #: load: raise it whenever any piece above changes its meaning, order or size.
    version = 1

    def __init__(self, layout: Any, config: Any):
        s = layout.slices
        self._s = s
        self.d = layout["discard_top"].shape[0]
        self.n = layout["dealer"].shape[0]
        self._p = float(self.d - RACK * self.n + 1)  # the pile scale of the size and depth pieces
        self._target = float(config.target_score)
        self.names = [("rack_cost", 1), ("in_chain", RACK), ("slot_loss", RACK), ("held_gain", RACK),
                      ("held_rel", RACK), ("top_gain", RACK), ("source", 3), ("prefix", RACK), ("held_prefix", RACK), ("secure", RACK),
                      ("sub_kept", 1), ("sub_cost", 1), ("sub_held_gain", RACK), ("sub_held_rel", RACK), ("sub_source", 3)]
        self.size = sum(size for _, size in self.names)
        pos = np.arange(RACK + 2)
        pair = pos[None, :] - pos[:, None] - 1  # slots between chain positions i < j
        self._pair_gaps, self._pair_bad = np.maximum(pair, 0), pair < 0
        self._targets = (np.arange(1, RACK + 1) - 0.5) / RACK * self.d

    def _piece(self, obs: np.ndarray, name: str) -> np.ndarray:
        return obs[:, self._s[name]]

    # --- the heuristic's cost model, batched --------------------------------------------------------
    @staticmethod
    def _lookup(table: np.ndarray, index: np.ndarray) -> np.ndarray:
        """``table[row, index[row, ...]]`` for a (k, m) table and (k, ...) integer indices."""
        flat = index.reshape(len(index), -1)
        return np.take_along_axis(table, flat, axis=1).reshape(index.shape)

    def _gap_cost(self, g: np.ndarray, lo: np.ndarray, hi: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """``g`` empty slots between anchors ``lo`` < ``hi`` per row (arrays shaped (k, ...), the
        prepared rows ``rows``, all by default); BIG if impossible."""
        cum = self._cum if rows is None else self._cum[rows]
        w = self._lookup(cum, hi - 1) - self._lookup(cum, lo)
        nav = (self._n_avail if rows is None else self._n_avail[rows]).reshape((-1,) + (1,) * (w.ndim - 1))
        cost = g * EMPTY_COST + nav * (g / np.maximum(w, 0.25)) * g
        return np.where(hi - lo - 1 >= g, cost, BIG)

    def _node_cost(self, card: np.ndarray, targets: np.ndarray, n_avail: np.ndarray | None = None) -> np.ndarray:
        """Keeping ``card`` as an anchor where the slot's target value is ``targets`` (per row)."""
        nav = (self._n_avail if n_avail is None else n_avail).reshape((-1,) + (1,) * (card.ndim - 1))
        return TARGET_WEIGHT * nav * np.abs(card - targets) / self.d

    def _prepare(self, obs: np.ndarray) -> None:
        """Availability, chain costs F and B, the cost of each rack, and the cost of skipping each slot."""
        k, d = len(obs), self.d
        rows = np.arange(k)
        rack = np.rint(self._piece(obs, "own_rack") * d).astype(np.int64)
        unseen = self._piece(obs, "unseen").astype(np.float64)
        top = self._piece(obs, "discard_top")
        self._top = np.where(top.any(axis=1), top.argmax(axis=1) + 1, 0)
        held = self._piece(obs, "held_card")
        self._held = np.where(held.any(axis=1), held.argmax(axis=1) + 1, 0)
        pdepth = self._piece(obs, "draw_pile_depth")
        public = (self._piece(obs, "draw_pile_public")[:, 0] > 0.5) & pdepth.any(axis=1)
        self._draw_top = np.where(public, np.where(pdepth > 0, pdepth, np.inf).argmin(axis=1) + 1, 0)
        n_unseen = unseen.sum(axis=1)
        hidden = np.where(self._draw_top > 0, 0.0, self._piece(obs, "draw_pile_size")[:, 0] * self._p)
        p_pile = np.where(n_unseen > 0, np.minimum(1.0, hidden / np.maximum(n_unseen, 1.0)), 0.0)
        avail = unseen * np.maximum(OPP_WEIGHT, p_pile)[:, None] + (pdepth > 0)
        avail += DISCARD_WEIGHT * self._piece(obs, "discard_cards")
        has_top = self._top > 0
        avail[rows[has_top], self._top[has_top] - 1] = 1.0
        np.minimum(avail, 1.0, out=avail)
        self._unseen = unseen
        cum = np.zeros((k, d + 2))
        np.cumsum(avail, axis=1, out=cum[:, 1 : d + 1])
        cum[:, d + 1] = cum[:, d]
        self._cum = cum
        self._n_avail = np.maximum(cum[:, d], 1.0)

        vals = np.empty((k, RACK + 2), dtype=np.int64)
        vals[:, 0], vals[:, 1 : RACK + 1], vals[:, RACK + 1] = 0, rack, d + 1
        self._rack, self._vals = rack, vals
        shape = (k, RACK + 2, RACK + 2)
        gap = self._gap_cost(np.broadcast_to(self._pair_gaps, shape), np.broadcast_to(vals[:, :, None], shape),
                             np.broadcast_to(vals[:, None, :], shape))
        gap[:, self._pair_bad] = BIG
        node = np.zeros((k, RACK + 2))
        node[:, 1 : RACK + 1] = self._node_cost(rack, self._targets[None, :])
        f = np.zeros((k, RACK + 2))
        for j in range(1, RACK + 2):
            f[:, j] = node[:, j] + (f[:, :j] + gap[:, :j, j]).min(axis=1)
        b = np.zeros((k, RACK + 2))
        for i in range(RACK, -1, -1):
            b[:, i] = node[:, i] + (gap[:, i, i + 1 :] + b[:, i + 1 :]).min(axis=1)
        self._f, self._b, self._node = f, b, node
        self.cost0 = f[:, RACK + 1]
        through = f[:, :, None] + gap + b[:, None, :]
        suffix = np.minimum.accumulate(through[:, :, ::-1], axis=2)[:, :, ::-1]
        prefix = np.minimum.accumulate(suffix[:, :, 2:], axis=1)  # [i, k - 1] = min over i' <= i, j > k
        slots = np.arange(RACK)
        self.skip = prefix[:, slots, slots]  # (k, 10): the best chain that does not keep slot k's card

    def placement_costs(self, cards: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """The rack's cost after putting ``cards[r, m]`` (1..D) in each slot: (r, 10 slots, m), for
        the prepared rows ``rows`` (all of them by default).

        A card kept in slot k joins the best chain ending at a left anchor i < k and the best one
        starting at a right anchor j > k (the heuristic's ``_placement_costs``); one loop per slot
        over its own anchors keeps the arrays at (r, anchors, m)."""
        sel = slice(None) if rows is None else rows
        vals, f, b, cum = self._vals[sel], self._f[sel], self._b[sel], self._cum[sel]
        nav = self._n_avail[sel][:, None, None]
        r, m = cards.shape
        cum_vals = np.take_along_axis(cum, vals, axis=1)  # cum[v] at each chain position
        cum_below = np.take_along_axis(cum, np.maximum(vals - 1, 0), axis=1)  # cum[v - 1]
        cum_c = np.take_along_axis(cum, cards, axis=1)[:, None, :]
        cum_c_below = np.take_along_axis(cum, cards - 1, axis=1)[:, None, :]
        c = cards[:, None, :]
        node = self._node_cost(c, self._targets[None, :, None], self._n_avail[sel])  # (r, 10, m)
        out = np.empty((r, RACK, m))
        for slot in range(RACK):  # position slot + 1; left anchors 0..slot, right anchors slot + 2..11
            g = (slot - np.arange(slot + 1))[None, :, None].astype(np.float64)
            lo = vals[:, : slot + 1, None]
            w = cum_c_below - cum_vals[:, : slot + 1, None]
            left = g * EMPTY_COST + nav * (g / np.maximum(w, 0.25)) * g + f[:, : slot + 1, None]
            left = np.where(c - lo - 1 >= g, left, BIG).min(axis=1)
            g = (np.arange(slot + 2, RACK + 2) - slot - 2)[None, :, None].astype(np.float64)
            hi = vals[:, slot + 2 :, None]
            w = cum_below[:, slot + 2 :, None] - cum_c
            right = g * EMPTY_COST + nav * (g / np.maximum(w, 0.25)) * g + b[:, slot + 2 :, None]
            right = np.where(hi - c - 1 >= g, right, BIG).min(axis=1)
            out[:, slot, :] = left + right + node[:, slot, :]
        return np.minimum(np.minimum(out, self.skip[sel][:, :, None]), BIG)

    def placement_gains(self, cards: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """How much putting ``cards[r, m]`` in each slot lowers the cost, the prefix term included
        (``PREFIX_WEIGHT`` per card of the ascending prefix, before and after): (r, 10, m)."""
        r, m = cards.shape
        racks = np.broadcast_to(self._rack[rows, None, None, :], (r, RACK, m, RACK)).copy()
        for slot in range(RACK):
            racks[:, slot, :, slot] = cards
        before = self.cost0[rows] - PREFIX_WEIGHT * ascending_prefixes(self._rack[rows])
        after = self.placement_costs(cards, rows) - PREFIX_WEIGHT * ascending_prefixes(racks)
        return before[:, None, None] - after

    def source_gains(self, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For the prepared rows ``rows``: the gains of the discard top in each slot (r, 10; 0
        without a top), its best gain, and a blind draw's expected gain (the heuristic's
        ``_source_gains``: the mean over the cards that may be drawn of their best gain, none below 0)."""
        sel = np.arange(len(self.cost0)) if rows is None else rows
        r, d = len(sel), self.d
        all_cards = np.ascontiguousarray(np.broadcast_to(np.arange(1, d + 1), (r, d)))
        gains = self.placement_gains(all_cards, sel)  # (r, 10, d)
        top_gains = np.where((self._top[sel] > 0)[:, None],
                             np.take_along_axis(gains, (np.maximum(self._top[sel], 1) - 1)[:, None, None].repeat(RACK, 1), axis=2)[:, :, 0], 0.0)
        take, draw = self._take_and_draw(gains.max(axis=1), sel)
        return top_gains, take, draw

    def _take_and_draw(self, best: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """From each card's best gain (rows × D): the discard top's (0 without one) and the mean,
        over the cards that may be drawn (the unseen ones, or a public pile's known top), of the
        best gain or 0 (a card that helps nowhere is discarded)."""
        r = len(rows)
        top = self._top[rows]
        take = np.where(top > 0, best[np.arange(r), np.maximum(top, 1) - 1], 0.0)
        may_draw = self._unseen[rows].copy()
        draw_top = self._draw_top[rows]
        public = draw_top > 0
        may_draw[public] = 0.0
        may_draw[np.flatnonzero(public), draw_top[public] - 1] = 1.0
        count = may_draw.sum(axis=1)
        draw = np.where(count > 0, (np.maximum(best, 0.0) * may_draw).sum(axis=1) / np.maximum(count, 1.0), 0.0)
        return take, draw

    # --- the features --------------------------------------------------------------------------------
    def compute(self, obs: np.ndarray) -> np.ndarray:
        """The features of a batch: ``(k, obs_size)`` -> ``(k, size)`` float32."""
        obs = np.asarray(obs, dtype=np.float32)
        k = len(obs)
        self._prepare(obs)
        cost0 = self.cost0
        in_chain = np.isclose(self._f[:, 1 : RACK + 1] + self._b[:, 1 : RACK + 1] - self._node[:, 1 : RACK + 1],
                              cost0[:, None], rtol=1e-9, atol=1e-9)
        slot_loss = squash_gain(self.skip - cost0[:, None])
        held_gain = np.zeros((k, RACK))  # rows without a held card: no gain (0.5 once squashed)
        top_gain = np.zeros((k, RACK))
        take, draw = np.zeros(k), np.zeros(k)
        placing = np.flatnonzero(self._held > 0)
        if len(placing):
            pair = np.stack([self._held[placing], np.maximum(self._top[placing], 1)], axis=1)
            gains = self.placement_gains(pair, placing)
            held_gain[placing] = gains[:, :, 0]
            top_gain[placing] = np.where(self._top[placing, None] > 0, gains[:, :, 1], 0.0)
        choosing = np.flatnonzero(self._held == 0)  # the source decision: every card that may come matters
        if len(choosing):
            top_gain[choosing], take[choosing], draw[choosing] = self.source_gains(choosing)
        source = squash_gain(np.stack([take, draw, take - draw], axis=1))
        prefix = np.eye(RACK, dtype=np.float32)[ascending_prefixes(self._rack) - 1]
        after = np.broadcast_to(self._rack[:, None, :], (k, RACK, RACK)).copy()
        slots = np.arange(RACK)
        after[:, slots, slots] = self._held[:, None]
        held_prefix = np.where(self._held[:, None] > 0, ascending_prefixes(after) / RACK, 0.0)
        held_rel = np.where(self._held[:, None] > 0, relative_gains(held_gain), 0.0)
        secure = self._secure(obs)
        parts = [(cost0 / (cost0 + COST_SCALE))[:, None], in_chain, slot_loss, squash_gain(held_gain), held_rel,
                 squash_gain(top_gain), source, prefix, held_prefix, secure, *self._sub_rack(secure)]
        return np.concatenate([np.asarray(p, dtype=np.float32) for p in parts], axis=1)

    def _secure(self, obs: np.ndarray) -> np.ndarray:
        """One-hot of the shortest prefix whose loser's points win the game now (the heuristic's ``secure``)."""
        scores = self._piece(obs, "scores").astype(np.float64) * self._target
        mine, best_other = scores[:, 0], scores[:, 1:].max(axis=1)
        p = np.arange(1, RACK + 1)[None, :]
        points = mine[:, None] + POINTS_PER_CARD * p
        wins = (points >= self._target - 1e-6) & (points > best_other[:, None] + WIN_POINTS + 1e-6)
        first = np.where(wins.any(axis=1), wins.argmax(axis=1), -1)
        out = np.zeros((len(obs), RACK), dtype=np.float32)
        rows = np.flatnonzero(first >= 0)
        out[rows, first[rows]] = 1.0
        return out

    # --- the sub-rack of a prefix that wins the game (the heuristic's secure=1) ---------------------
    def sub_costs(self, racks: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The chain cost of each rack of ``racks`` (m × p cards) as a rack of p slots, with the
        availability of prepared row ``rows[i]`` (the heuristic's ``_sub_costs``)."""
        m, p = racks.shape
        vals = np.empty((m, p + 2), dtype=np.int64)
        vals[:, 0], vals[:, 1 : p + 1], vals[:, p + 1] = 0, racks, self.d + 1
        shape = (m, p + 2, p + 2)
        gap = self._gap_cost(np.broadcast_to(self._pair_gaps[: p + 2, : p + 2], shape),
                             np.broadcast_to(vals[:, :, None], shape), np.broadcast_to(vals[:, None, :], shape), rows)
        gap[:, self._pair_bad[: p + 2, : p + 2]] = BIG
        node = np.zeros((m, p + 2))
        node[:, 1 : p + 1] = self._node_cost(racks, self._targets[None, :p], self._n_avail[rows])
        f = np.zeros((m, p + 2))
        for j in range(1, p + 2):
            f[:, j] = node[:, j] + (f[:, :j] + gap[:, :j, j]).min(axis=1)
        return f[:, p + 1]

    def _sub_placements(self, rows: np.ndarray, p: int, cards: np.ndarray) -> np.ndarray:
        """Sub-rack (slots 1..p) cost after putting ``cards[i, m]`` in each slot 1..p: (rows, p, m)."""
        r, m = cards.shape
        racks = np.broadcast_to(self._rack[rows, None, None, :p], (r, p, m, p)).copy()
        for slot in range(p):
            racks[:, slot, :, slot] = cards
        costs = self.sub_costs(racks.reshape(-1, p), np.repeat(rows, p * m))
        return costs.reshape(r, p, m)

    def _sub_rack(self, secure: np.ndarray) -> list[np.ndarray]:
        """``sub_kept``, ``sub_cost``, ``sub_held_gain``, ``sub_held_rel`` and ``sub_source`` (class docstring)."""
        k = len(secure)
        kept, cost = np.zeros((k, 1)), np.zeros((k, 1))
        held_gain, held_rel = np.zeros((k, RACK)), np.zeros((k, RACK))
        source = np.zeros((k, 3))
        length = np.where(secure.any(axis=1), secure.argmax(axis=1) + 1, 0)
        for p in range(2, RACK):
            rows = np.flatnonzero(length == p)
            if not len(rows):
                continue
            sub0 = self.sub_costs(self._rack[rows, :p], rows)
            kept[rows, 0] = np.all(np.diff(self._rack[rows, :p], axis=1) > 0, axis=1)
            cost[rows, 0] = sub0 / (sub0 + COST_SCALE)
            placing = rows[self._held[rows] > 0]
            if len(placing):
                gains = np.zeros((len(placing), RACK))  # slots past p leave the sub-rack as it is
                gains[:, :p] = sub0[self._held[rows] > 0, None] - \
                    self._sub_placements(placing, p, self._held[placing, None])[:, :, 0]
                held_gain[placing], held_rel[placing] = gains, relative_gains(gains)
            choosing = rows[self._held[rows] == 0]
            if len(choosing):
                source[choosing] = self._sub_source(choosing, p)
        return [kept, cost, np.where(held_rel > 0, squash_gain(held_gain), 0.5), held_rel, squash_gain(source)]

    def _sub_source(self, rows: np.ndarray, p: int) -> np.ndarray:
        """(take gain, blind draw's expected gain, their difference) on the sub-rack, per row."""
        d = self.d
        cards = np.ascontiguousarray(np.broadcast_to(np.arange(1, d + 1), (len(rows), d)))
        sub0 = self.sub_costs(self._rack[rows, :p], rows)
        # A card put in a slot past p leaves the sub-rack as it is (gain 0), and p < 10.
        best = np.maximum((sub0[:, None, None] - self._sub_placements(rows, p, cards)).max(axis=1), 0.0)  # (rows, D)
        take, draw = self._take_and_draw(best, rows)
        return np.stack([take, draw, take - draw], axis=1)
