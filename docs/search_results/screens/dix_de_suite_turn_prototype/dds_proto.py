"""Prototype (not in the library): a selective determinized search for dix_de_suite.

At each decision, the heuristic proposes its best moves (source: draw / take; placement: its two
best swaps and, for a drawn card, discard). Each candidate is played on K sampled worlds (paired),
then the heuristic plays every seat until the searching seat's next decision after the opponents'
turns (or the round ends). The position is then valued by P(win round) = sigmoid((cost_opp_min -
cost_me) / tau), the costs being the heuristic's own rack cost read from each seat's observation.

GATE: search only when the heuristic's two best moves differ by at most this much rack cost.
It reads the heuristic's private fields (``_decode``, ``_cost0``...): a screen, not library code.
The library's version is ``ismcts:horizon=turn,estimate=cost,...,width=3`` (docs/search.md).

Run from the repository root (the three logs beside this file; the first two ran before the gate
was added, when a source decision also broke ties towards draw instead of the heuristic's move):

    PYTHONPATH=docs/search_results/screens/dix_de_suite_turn_prototype:. \
        python docs/search_results/screens/dix_de_suite_turn_prototype/dds_proto.py 60 900 8 2.0
    ... dds_proto.py 60 900 16 8.0        # scr_k16_t8.txt
    ... dds_proto.py 60 900 16 8.0 3.0    # scr_k16_t8_g3.txt
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from dixenv.agents import registry
from dixenv.games.dix_de_suite import actions as A
from dixenv.games.dix_de_suite.state import PHASE_SOURCE

registry.AGENTS["dix_de_suite"]["proto"] = "dds_proto:Proto"


class Proto:
    name = "proto"

    def __init__(self, env, seed=None, worlds=8, tau=2.0, gate=1e9, top=2):
        from dixenv.agents.dix_de_suite_heuristic import DixDeSuiteHeuristic

        raw = env.unwrapped
        self.env = env
        self.h = DixDeSuiteHeuristic(env)  # rollouts and candidates
        self.ev = DixDeSuiteHeuristic(env)  # costs
        self.obs = raw.game.make_observer(raw.config)
        self.mask = np.zeros(raw.game.num_actions(raw.config), dtype=np.int8)
        self.worlds, self.tau, self.gate, self.top = int(worlds), float(tau), float(gate), int(top)
        self.rng = np.random.default_rng(seed)
        self.searched = 0
        self.decisions = 0

    def reset(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def _observe(self, state, seat):
        self.obs.set_from(state, seat)
        return self.obs.tensor

    def _heuristic_move(self, state):
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        m = self.mask
        m[:] = 0
        m[list(legal)] = 1
        return int(self.h.act({"observation": self._observe(state, seat), "action_mask": m}))

    def _candidates(self, observation):
        """The heuristic's best moves with their costs (lower is better)."""
        mask = observation["action_mask"]
        ev = self.ev
        ev._decode(observation["observation"])
        if mask[A.DRAW] or mask[A.TAKE_DISCARD]:
            if not (mask[A.DRAW] and mask[A.TAKE_DISCARD]) or ev._discard_top <= 0:
                return [int(self.h.act(observation))], None
            if ev._draw_top > 0:
                cands = np.array([ev._discard_top, ev._draw_top])
            else:
                cands = np.concatenate(([ev._discard_top], ev._unseen_cards))
            gains = ev._cost0 - ev._placement_costs(cands).min(axis=0)
            take_gain = gains[0]
            draw_gain = float(np.maximum(gains[1:], 0.0).mean()) if len(gains) > 1 else 0.0
            order = [A.TAKE_DISCARD, A.DRAW] if take_gain > draw_gain else [A.DRAW, A.TAKE_DISCARD]
            if abs(take_gain - draw_gain) > self.gate:
                return order[:1], None
            return order, None
        costs = ev._placement_costs(np.array([ev._held]))[:, 0]
        swaps = mask[A.SWAP_BASE : A.SWAP_BASE + 10].astype(bool)
        costs = np.where(swaps, costs, np.inf)
        order = np.argsort(costs, kind="stable")[: self.top]
        cands = [(A.SWAP_BASE + int(k), float(costs[k])) for k in order if np.isfinite(costs[k])]
        if mask[A.DISCARD]:
            cands.append((A.DISCARD, float(ev._cost0)))
        cands.sort(key=lambda x: x[1])
        if len(cands) >= 2 and cands[1][1] - cands[0][1] > self.gate:
            return [cands[0][0]], None
        return [a for a, _ in cands], None

    def _value(self, state, seat, round0):
        if state.current_player() < 0 or state.round != round0:
            w = state.last_round_winner
            return 1.0 if w == seat else 0.0
        cme = self._cost(state, seat)
        copp = min(self._cost(state, s) for s in range(state.num_seats) if s != seat)
        return 1.0 / (1.0 + math.exp(-(copp - cme) / self.tau))

    def _cost(self, state, s):
        self.ev._decode(self._observe(state, s))
        return float(self.ev._cost0)

    def act(self, observation):
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask).tolist()
        if len(legal) == 1:
            return legal[0]
        self.decisions += 1
        cands, _ = self._candidates(observation)
        if len(cands) == 1:
            return cands[0]
        self.searched += 1
        raw = self.env.unwrapped
        seat = int(raw.agent_selection.rsplit("_", 1)[1])
        state = raw.state
        totals = {a: 0.0 for a in cands}
        for _ in range(self.worlds):
            world = state.sample_hidden(seat, self.rng)
            world.rng = self.rng
            round0 = world.round
            for a in cands:
                s = world.clone()
                s.apply_action(a)
                left = False  # has the searching seat's turn passed to another seat?
                while s.current_player() >= 0 and s.round == round0:
                    p = s.current_player()
                    if p != seat:
                        left = True
                    elif left and s.phase == PHASE_SOURCE:
                        break
                    s.apply_action(self._heuristic_move(s))
                totals[a] += self._value(s, seat, round0)
        return max(cands, key=lambda a: (totals[a], -cands.index(a)))


if __name__ == "__main__":
    from experiments.tournament import run_tournament

    games, seed, k, tau = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    gate = float(sys.argv[5]) if len(sys.argv) > 5 else 1e9
    spec = f"proto:worlds={k},tau={tau},gate={gate}"
    t = time.time()
    res = run_tournament("dix_de_suite", [spec, "heuristic"], games, seed=seed, workers=1)
    print(res.table())
    print("wall", round(time.time() - t), "s")
