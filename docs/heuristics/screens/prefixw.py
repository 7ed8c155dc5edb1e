"""Screen (prototype of ``prefix_weight``): the dix_de_suite heuristic with a bonus of w cost units per card of the ascending prefix.

Run from the repository: ``PYTHONPATH=.:docs/heuristics/screens python docs/heuristics/screens/prefixw.py 2000 900 prefixw:w=0.3,secure=1``
(games, seed, agent spec; ``secure=1`` is the library heuristic's parameter).
"""
from __future__ import annotations

import sys
import time

import numpy as np

from dixenv.agents import registry
from dixenv.agents.dix_de_suite_heuristic import RACK, DixDeSuiteHeuristic

registry.AGENTS["dix_de_suite"]["prefixw"] = "prefixw:PrefixW"


def prefixes(racks):
    asc = racks[..., 1:] > racks[..., :-1]
    return 1 + np.cumprod(asc, axis=-1).sum(axis=-1)


class PrefixW(DixDeSuiteHeuristic):
    name = "prefixw"

    def __init__(self, env, seed=None, w=0.3, **params):
        super().__init__(env, seed=seed, **params)
        self.w = float(w)

    def _decode(self, flat):
        super()._decode(flat)
        self._cost0 -= self.w * prefixes(self._rack)

    def _placement_costs(self, cards, guard=True):
        costs = super()._placement_costs(cards, guard)
        racks = np.broadcast_to(self._rack, (RACK, len(cards), RACK)).copy()
        racks[np.arange(RACK), :, np.arange(RACK)] = cards[None, :]
        return costs - self.w * prefixes(racks)


if __name__ == "__main__":
    from experiments.tournament import run_tournament

    games, seed, spec = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    t = time.time()
    res = run_tournament("dix_de_suite", [spec, "heuristic"], games, seed=seed, workers=1)
    print(res.table())
    print("wall", round(time.time() - t), "s")
