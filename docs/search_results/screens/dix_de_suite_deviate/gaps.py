"""How far the game-scored search's best placement is from the rollout policy's: seat 0 searches
in 2-player games (seeds 100, 101, ...) against the heuristic; at each searched placement this
prints the gap (best mean - the policy move's mean, in win units [-1, 1]) and the time taken.

    python docs/search_results/screens/dix_de_suite_deviate/gaps.py 4            # gaps.txt
    python docs/search_results/screens/dix_de_suite_deviate/gaps.py 4 race       # gaps_race.txt

The second runs the same search with the race heuristic (the default one) as rollout policy.
A search spec in place of ``race`` screens that search instead (``deviate=1e-9`` is added):

    python docs/search_results/screens/dix_de_suite_deviate/gaps.py 4 ismcts:...,round_win=fitted
"""
import sys
import time

import numpy as np

from dixenv import dix_de_suite_v0
from dixenv.agents.registry import make_agent

games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
race = len(sys.argv) > 2 and sys.argv[2] == "race"
env = dix_de_suite_v0.raw_env(num_players=2)
spec = "ismcts:iterations=64,horizon=move,estimate=game,rollout=heuristic,decisions=place,width=4,root=paired,deviate=1e-9"
if len(sys.argv) > 2 and not race:
    spec = sys.argv[2] + ",deviate=1e-9"
elif not race:
    spec += ",rollout.secure=1,rollout.prefix_weight=0.3"
agent = make_agent("dix_de_suite", spec, env, seed=1)
heuristic = make_agent("dix_de_suite", "heuristic", env)
gaps = []
start = time.perf_counter()
for g in range(games):
    env.reset(seed=100 + g)
    while not (any(env.terminations.values()) or any(env.truncations.values())):
        seat = env.agent_selection
        obs = env.observe(seat)
        if seat == "player_0" and obs["action_mask"].sum() > 1:
            a = agent.act(obs)
            stats = agent.last_search
            if stats.get("searched", True):
                means = stats["means"]
                gaps.append(max(means.values()) - means[stats["policy_move"]])
        else:
            a = heuristic.act(obs)
        env.step(a)
gaps = np.array(gaps)
print(spec)
print(f"{games} games, {len(gaps)} searched placements, {time.perf_counter() - start:.1f} s")
for q in (0.5, 0.75, 0.9, 0.95, 0.99):
    print(f"gap quantile {q}: {np.quantile(gaps, q):.4f}")
for d in (0.0, 0.01, 0.02, 0.05, 0.1, 0.2):
    print(f"share of placements with gap > {d}: {np.mean(gaps > d):.3f}")
