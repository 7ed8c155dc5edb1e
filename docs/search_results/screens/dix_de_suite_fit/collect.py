"""Round outcomes against the heuristic's rack costs, for fitting the search's round-win model.

Two race heuristics play 2-player games (seeds SEED, SEED+1, ...). At every source decision
(the seat to act is about to draw or take, as at the leaves of the ``horizon=move`` search)
this records the acting seat's ``turn_cost``, the other seat's ``rack_cost``, the round's turn
count and whether the acting seat went on to win the round. Output: an .npz of those columns.

    python docs/search_results/screens/dix_de_suite_fit/collect.py GAMES SEED OUT.npz
"""
import sys

import numpy as np

from dixenv import dix_de_suite_v0
from dixenv.agents.dix_de_suite_heuristic import DixDeSuiteHeuristic
from dixenv.games.dix_de_suite.state import PHASE_SOURCE

games, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
env = dix_de_suite_v0.raw_env(num_players=2)
judge = DixDeSuiteHeuristic(env)
players = [DixDeSuiteHeuristic(env), DixDeSuiteHeuristic(env)]
rows = []  # (game, round, acting cost after its turn, other cost, round_turns, acting seat)
winners = {}  # (game, round) -> seat that sorted first
for g in range(games):
    env.reset(seed=seed + g)
    state = env.unwrapped.state
    while not (any(env.terminations.values()) or any(env.truncations.values())):
        seat = state.current_player()
        obs = env.observe(f"player_{seat}")
        if state.phase == PHASE_SOURCE:
            other = 1 - seat
            rows.append((g, state.round, judge.turn_cost(obs),
                         judge.rack_cost(env.observe(f"player_{other}")["observation"]),
                         state.round_turns, seat))
        rnd = state.round
        env.step(players[seat].act(obs))
        if state.round != rnd or state.terminal:
            winners[(g, rnd)] = state.last_round_winner
rows = [r for r in rows if (r[0], r[1]) in winners]
data = np.array(rows, dtype=np.float64)
won = np.array([winners[(int(r[0]), int(r[1]))] == r[5] for r in rows], dtype=np.float64)
np.savez(out, game=data[:, 0], round=data[:, 1], acting=data[:, 2], other=data[:, 3],
         turns=data[:, 4], won=won)
print(f"{games} games, {len(winners)} rounds, {len(rows)} decisions -> {out}")
