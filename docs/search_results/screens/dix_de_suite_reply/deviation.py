"""How often the reply search plays another move than the heuristic would: seat 0 searches in two
2-player games (seeds 100, 101) against the heuristic; each searched placement is compared with
the heuristic's move on the same observation.

    PYTHONPATH=. python docs/search_results/screens/dix_de_suite_reply/deviation.py   # deviation.txt
"""
import numpy as np
from dixenv import dix_de_suite_v0
from dixenv.agents.registry import make_agent
env=dix_de_suite_v0.raw_env(num_players=2)
spec="ismcts:iterations=64,horizon=move,estimate=reply,rollout=heuristic,decisions=place,width=4,root=paired"
ag=make_agent("dix_de_suite",spec,env,seed=1); h=make_agent("dix_de_suite","heuristic",env)
dev=srch=pl=0
for g in range(2):
    env.reset(seed=100+g)
    while not (any(env.terminations.values()) or any(env.truncations.values())):
        a_sel=env.agent_selection; obs=env.observe(a_sel)
        if a_sel=="player_0" and obs["action_mask"].sum()>1:
            a=ag.act(obs); hm=h.act(obs)
            if ag.last_search.get("searched",True):
                srch+=1; dev+= a!=hm
        else:
            a=h.act(obs)
        env.step(a)
print("searched placements",srch,"differ from heuristic",dev, dev/srch)
