"""A dix_de_suite screen: SPEC against the heuristic, GAMES games, seed SEED, one process.

    PYTHONPATH=. python docs/search_results/screens/dix_de_suite_turn_prototype/screen.py SPEC GAMES SEED
"""
import sys
import time

from experiments.tournament import run_tournament

spec, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t = time.time()
r = run_tournament("dix_de_suite", [spec, "heuristic"], games, seed=seed, workers=1)
print(r.table())
print("wall", round(time.time() - t))
