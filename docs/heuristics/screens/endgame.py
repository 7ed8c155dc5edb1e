"""Screen (prototype of ``secure=1``): the dix_de_suite heuristic, plus play for the game (not the round) near the target.

Run from the repository: ``PYTHONPATH=.:docs/heuristics/screens python docs/heuristics/screens/endgame.py 2000 900 endgame``
(games, seed, agent spec).

When a prefix of p* slots would win the game even if the opponent sorts first (my + 5 p* >= target
and > opp + 75), sorting slots 1..p* is worth as much as sorting the rack: sort that sub-rack first
(cost of the first p* slots by the heuristic's own gap model), keep it once made.
"""
from __future__ import annotations

import sys
import time

import numpy as np

from dixenv.agents import registry
from dixenv.agents.dix_de_suite_heuristic import BIG, RACK, DixDeSuiteHeuristic
from dixenv.games.dix_de_suite import actions as A

registry.AGENTS["dix_de_suite"]["endgame"] = "endgame:Endgame"


def prefix_len(rack):
    q = 1
    while q < len(rack) and rack[q] > rack[q - 1]:
        q += 1
    return q


class Endgame(DixDeSuiteHeuristic):
    name = "endgame"

    def __init__(self, env, seed=None, mode="sub", **params):
        super().__init__(env, seed=seed, **params)
        self._target = float(env.unwrapped.config.target_score)
        self._np = env.unwrapped.config.num_players
        self.mode = mode
        self.used = 0

    def _need(self, flat):
        s = np.rint(flat[self._sl["scores"]] * self._target)
        me, opp = s[0], s[1:].max()
        for p in range(2, RACK):
            v = me + 5 * p
            if v >= self._target and v > opp + 75:
                # p - 1 would not do: p is the least prefix that secures the game
                return p
        return None

    def _sub_cost(self, rack, p):
        """The heuristic's chain cost of slots 1..p alone (anchors 0 and D + 1 around them)."""
        vals = np.concatenate(([0], rack[:p], [self._d + 1]))
        n = p + 2
        pos = np.arange(n)
        g = np.maximum(pos[None, :] - pos[:, None] - 1, 0)
        gap = self._gap_cost(g, vals[:, None], vals[None, :])
        gap[pos[None, :] - pos[:, None] - 1 < 0] = BIG
        node = np.zeros(n)
        node[1 : p + 1] = self._node_cost(np.arange(p), rack[:p])
        f = np.zeros(n)
        for j in range(1, n):
            f[j] = node[j] + np.min(f[:j] + gap[:j, j])
        return f[n - 1]

    def act(self, observation):
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        flat = observation["observation"]
        p = self._need(flat) if self._np == 2 else None
        if p is None:
            return super().act(observation)
        self._decode(flat)
        rack = self._rack
        q = prefix_len(rack)
        self.used += 1
        if mask[A.DRAW] or mask[A.TAKE_DISCARD]:
            if q >= p or not mask[A.TAKE_DISCARD] or self._discard_top <= 0:
                return super().act(observation)
            # take the discard top if it lowers the sub-rack cost more than a blind draw would
            base = self._sub_cost(rack, p)
            def best(card):
                out = base
                for k in range(p):
                    r = rack.copy(); r[k] = card
                    out = min(out, self._sub_cost(r, p))
                return base - out
            take = best(self._discard_top)
            draws = self._unseen_cards if self._draw_top <= 0 else np.array([self._draw_top])
            draw = np.mean([best(c) for c in draws]) if len(draws) else 0.0
            if take > draw:
                return A.TAKE_DISCARD
            if mask[A.DRAW]:
                return A.DRAW
            return A.TAKE_DISCARD
        held = self._held
        if q >= p:
            # secured: the heuristic's move unless it breaks the prefix
            a = super().act(observation)
            if a == A.DISCARD or a - A.SWAP_BASE >= p:
                return a
            r = rack.copy(); r[a - A.SWAP_BASE] = held
            if prefix_len(r) >= p:
                return a
            costs = self._placement_costs(np.array([held]))[:, 0]
            best_a, best_c = (A.DISCARD, self._cost0) if mask[A.DISCARD] else (None, np.inf)
            for k in range(RACK):
                if not mask[A.SWAP_BASE + k]:
                    continue
                r = rack.copy(); r[k] = held
                if prefix_len(r) >= p and costs[k] < best_c:
                    best_a, best_c = A.SWAP_BASE + k, costs[k]
            return best_a if best_a is not None else a
        base = self._sub_cost(rack, p)
        cands = []
        if mask[A.DISCARD]:
            cands.append((base, self._cost0, A.DISCARD))
        full = self._placement_costs(np.array([held]), guard=False)[:, 0]
        for k in range(RACK):
            if not mask[A.SWAP_BASE + k]:
                continue
            r = rack.copy(); r[k] = held
            sc = self._sub_cost(r, p) if k < p else base
            cands.append((sc, full[k], A.SWAP_BASE + k))
        # lowest sub-rack cost; among equals (swaps beyond p), the full rack's cost
        cands.sort(key=lambda t: (round(t[0], 9), t[1]))
        return int(cands[0][2])


if __name__ == "__main__":
    from experiments.tournament import run_tournament

    games, seed, spec = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    t = time.time()
    res = run_tournament("dix_de_suite", [spec, "heuristic"], games, seed=seed, workers=int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    print(res.table())
    print("wall", round(time.time() - t), "s")

