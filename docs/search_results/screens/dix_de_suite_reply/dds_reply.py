"""Prototype: the heuristic's placement, corrected by what each candidate discard gives the next seat.

At a placement decision (held card known), the candidates are the heuristic's best few swaps and,
for a drawn card, its discard. Each leaves a card on the discard pile. On K sampled worlds, the
next seat (modelled as the heuristic) either takes it, gaining take_gain, or draws blind, gaining
its expected draw gain (exact over the cards it cannot see, as the heuristic computes it). Score of
a candidate = my rack cost after it + lam * mean over worlds of max(0, take_gain - draw_gain), the
next seat's extra progress from the card. Lowest score wins; source decisions are the heuristic's.
It reads the heuristic's private fields (``_decode``, ``_cost0``...): a screen, not library code.
The library's version is ``ismcts:horizon=move,estimate=reply,decisions=place,width=k,root=paired``
(docs/search.md). Run from the repository root (the two ``scr_proto_*`` logs beside this file; the
``scr_ismcts*`` logs ran the library's version through ../dix_de_suite_turn_prototype/screen.py):

    PYTHONPATH=docs/search_results/screens/dix_de_suite_reply:. \
        python docs/search_results/screens/dix_de_suite_reply/dds_reply.py 200 900 "reply:worlds=16,lam=1.0"
    ... dds_reply.py 200 900 "reply:worlds=16,lam=2.0"
"""

from __future__ import annotations

import sys
import time

import numpy as np

from dixenv.agents import registry
from dixenv.games.dix_de_suite import actions as A

registry.AGENTS["dix_de_suite"]["reply"] = "dds_reply:Reply"


class Reply:
    name = "reply"

    def __init__(self, env, seed=None, worlds=16, lam=1.0, top=3, gate=1e9):
        from dixenv.agents.dix_de_suite_heuristic import DixDeSuiteHeuristic

        raw = env.unwrapped
        self.env = env
        self.h = DixDeSuiteHeuristic(env)
        self.ev = DixDeSuiteHeuristic(env)
        self.obs = raw.game.make_observer(raw.config)
        self.worlds, self.lam, self.top, self.gate = int(worlds), float(lam), int(top), float(gate)
        self.rng = np.random.default_rng(seed)
        self.searched = 0

    def reset(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def _feed(self, state, opp):
        """The next seat's extra progress from the discard top, over a blind draw (>= 0)."""
        self.obs.set_from(state, opp)
        ev = self.ev
        ev._decode(self.obs.tensor)
        top = ev._discard_top
        if top <= 0:
            return 0.0
        if ev._draw_top > 0:
            cands = np.array([top, ev._draw_top])
        else:
            cands = np.concatenate(([top], ev._unseen_cards))
        gains = ev._cost0 - ev._placement_costs(cands).min(axis=0)
        draw_gain = float(np.maximum(gains[1:], 0.0).mean()) if len(gains) > 1 else 0.0
        return max(0.0, float(gains[0]) - draw_gain)

    def act(self, observation):
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        if mask[A.DRAW] or mask[A.TAKE_DISCARD]:
            return int(self.h.act(observation))
        ev = self.ev
        ev._decode(observation["observation"])
        costs = ev._placement_costs(np.array([ev._held]))[:, 0]
        swaps = mask[A.SWAP_BASE : A.SWAP_BASE + 10].astype(bool)
        costs = np.where(swaps, costs, np.inf)
        order = np.argsort(costs, kind="stable")[: self.top]
        cands = [(A.SWAP_BASE + int(k), float(costs[k])) for k in order if np.isfinite(costs[k]) and costs[k] < 1e8]
        if mask[A.DISCARD]:
            cands.append((A.DISCARD, float(ev._cost0)))
        cands.sort(key=lambda x: x[1])
        best = cands[0][1]
        cands = [(a, c) for a, c in cands if c - best <= self.gate]
        heur = int(self.h.act(observation))
        if len(cands) < 2:
            return heur
        self.searched += 1
        raw = self.env.unwrapped
        seat = int(raw.agent_selection.rsplit("_", 1)[1])
        state = raw.state
        feed = {a: 0.0 for a, _ in cands}
        for _ in range(self.worlds):
            world = state.sample_hidden(seat, self.rng)
            for a, _ in cands:
                s = world.clone()
                s.apply_action(a)
                p = s.current_player()
                if p < 0 or p == seat:
                    continue
                feed[a] += self._feed(s, p)
        score = {a: c + self.lam * feed[a] / self.worlds for a, c in cands}
        return min(score, key=lambda a: (score[a], a != heur))


if __name__ == "__main__":
    from experiments.tournament import run_tournament

    games, seed, spec = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    t = time.time()
    res = run_tournament("dix_de_suite", [spec, "heuristic"], games, seed=seed, workers=1)
    print(res.table())
    print("wall", round(time.time() - t), "s")
