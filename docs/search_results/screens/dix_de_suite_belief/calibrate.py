"""Calibrate and check the dix_de_suite belief (``dixenv.agents.dix_de_suite_belief``).

The race heuristic plays every seat of GAMES games (seeds SEED, SEED+1, ...). At seat 0's source
decisions the true state is kept. ``calibrate`` finds, for each number t of turns the other seats
have played this round, the β at which refined worlds give those seats the same mean
``chain_cost`` as their true racks (bisection, 80 positions per t); it prints the table
``BETA[players]``. ``check`` compares, on other positions, the other seats' *heuristic* rack
cost (``DixDeSuiteHeuristic.rack_cost``, from their own observation) in the true state, in
uniform ``sample_hidden`` worlds and in refined worlds, by turns played.

    python docs/search_results/screens/dix_de_suite_belief/calibrate.py calibrate PLAYERS GAMES SEED
    python docs/search_results/screens/dix_de_suite_belief/calibrate.py check PLAYERS GAMES SEED
"""
import sys
import time

import numpy as np

from dixenv import dix_de_suite_v0
from dixenv.agents import dix_de_suite_belief as belief
from dixenv.agents.dix_de_suite_heuristic import DixDeSuiteHeuristic
from dixenv.games.dix_de_suite.state import PHASE_SOURCE


def positions(players: int, games: int, seed: int) -> tuple[list, object]:
    """(state clone, turns of each other seat) at seat 0's source decisions of heuristic self-play."""
    env = dix_de_suite_v0.raw_env(num_players=players)
    agent = DixDeSuiteHeuristic(env)
    out = []
    for g in range(games):
        env.reset(seed=seed + g)
        state = env.unwrapped.state
        while not (any(env.terminations.values()) or any(env.truncations.values())):
            seat = state.current_player()
            if seat == 0 and state.phase == PHASE_SOURCE:
                out.append(state.clone())
            env.step(agent.act(env.observe(f"player_{seat}")))
    return out, env


def others(state) -> list[int]:
    return list(range(1, state.num_seats))


def calibrate(players: int, games: int, seed: int) -> None:
    states, _ = positions(players, games, seed)
    rng = np.random.default_rng(0)
    d = states[0].config.deck_size
    table = []
    for t in range(0, 16):
        sel = [s for s in states if s.seat_turns[1] == t][:80]
        if len(sel) < 20:
            break
        true = np.mean([belief.chain_cost(s.racks[o], d) for s in sel for o in others(s)])

        def mean_at(b: float) -> float:
            saved = belief.BETA.get(players)
            belief.BETA[players] = (b,)  # one β for every turn count while this t is fitted
            try:
                costs = []
                for s in sel:
                    w = belief.refine(s.sample_hidden(0, rng), 0, rng)
                    costs += [belief.chain_cost(w.racks[o], d) for o in others(s)]
            finally:
                if saved is None:
                    del belief.BETA[players]
                else:
                    belief.BETA[players] = saved
            return float(np.mean(costs))

        if mean_at(0.0) <= true:
            b = 0.0
        else:
            lo, hi = 0.0, 10.0
            for _ in range(8):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if mean_at(mid) > true else (lo, mid)
            b = (lo + hi) / 2
        table.append(round(b, 2))
        print(f"t={t:2d} positions={len(sel):3d} true chain cost {true:5.1f} beta {b:.2f}", flush=True)
    print(f"BETA[{players}] = {tuple(table)}")


def check(players: int, games: int, seed: int) -> None:
    states, env = positions(players, games, seed)
    judge = DixDeSuiteHeuristic(env)
    observer = env.unwrapped.game.make_observer(env.unwrapped.config)
    rng = np.random.default_rng(1)

    def cost(state, seat: int) -> float:
        observer.set_from(state, seat)
        return judge.rack_cost(observer.tensor.copy())

    spent = made = 0
    print("turns | true cost: mean median q25 q75 | uniform worlds: mean | refined worlds: mean median q25 q75")
    for lo, hi in [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10), (10, 99)]:
        sel = [s for s in states if lo <= s.seat_turns[1] < hi][:100]
        if not sel:
            continue
        true, uniform, refined = [], [], []
        for s in sel:
            true.append(cost(s, 1))
            uniform.append(cost(s.sample_hidden(0, rng), 1))
            t0 = time.perf_counter()
            w = belief.refine(s.sample_hidden(0, rng), 0, rng)
            spent += time.perf_counter() - t0
            made += 1
            w.check_invariants()
            refined.append(cost(w, 1))
        q = lambda xs: f"{np.mean(xs):5.1f} {np.median(xs):5.1f} {np.quantile(xs, .25):5.1f} {np.quantile(xs, .75):5.1f}"
        print(f"{lo:2d}-{hi:2d} (n={len(sel):3d}) | {q(true)} | {np.mean(uniform):5.1f} | {q(refined)}")
    print(f"{spent / made * 1e3:.2f} ms per refined world (sample_hidden + refine)")


if __name__ == "__main__":
    what, players, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    {"calibrate": calibrate, "check": check}[what](players, games, seed)
