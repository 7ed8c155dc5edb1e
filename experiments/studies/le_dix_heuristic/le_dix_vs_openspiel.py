"""Our le_dix heuristic against OpenSpiel's IS-MCTS on ``oh_hell``, in lockstep on the same deals.

Usage::

    python -m experiments.studies.le_dix_heuristic.le_dix_vs_openspiel --deals 1000 --sizes 10 5 3
    python -m experiments.studies.le_dix_heuristic.le_dix_vs_openspiel --deals 1000 --baseline /tmp/le_dix_heuristic_old.py

Each deal (a seeded shuffle and dealer) is played in both engines at once: our ``le_dix`` (one deal
of that size, ``hook=True``, every decision a step) and OpenSpiel's ``oh_hell`` dealt the same
cards (``experiments.oh_hell_bridge``). OpenSpiel's ``oh_hell`` has no pick-up of the turned card,
so our dealer always leaves it. The seats alternate between the two sides, IS-MCTS on the even
seats then on the odd ones, so each side holds each hand of the deal exactly once (duplicate play).
An IS-MCTS seat searches OpenSpiel's state with OpenSpiel's C++ ``ISMCTSBot`` (``--simulations``,
one random rollout per simulation, returns 10 for an exact bid else 0: our ``exact10``); a heuristic
seat sees only our observation. Every move is applied to both engines; at the end their scores must
agree.

Reported per hand size and side: made-bid rate with its Wilson 95% interval (bids of one deal are
not independent, so the interval is a little narrow), the mean bid against the fair share
(hand size / players), how missed bids missed, CPU time per decision; and the duplicate difference:
per deal, the mean over hands of (points IS-MCTS scored with the hand − points the heuristic scored
with it), with a normal 95% interval over deals.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from dixenv.agents.registry import parse_key_values
from experiments.studies.le_dix_heuristic.le_dix_stats import heuristic_class
from dixenv.experiments.oh_hell_bridge import deal_os, from_os_action, os_game, pyspiel, to_os_action
from dixenv.experiments.tournament import mean_ci, wilson_interval
from dixenv.games.le_dix import actions as A
from dixenv.games.le_dix.cards import CARD_NAMES
from dixenv.le_dix_v0 import raw_env

SIDES = ("ismcts", "heuristic")
POLICY_TYPES = {
    "max_visit_count": pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    "normalized_visit_count": pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
    "max_value": pyspiel.ISMCTSFinalPolicyType.MAX_VALUE,
}


def lineups(n: int) -> list[tuple[str, ...]]:
    """The two seatings of a deal: IS-MCTS on the even seats, then on the odd ones."""
    return [tuple(SIDES[(s + k) % 2] for s in range(n)) for k in (0, 1)]


def seed_of(*parts: int) -> int:
    """A 31-bit seed that depends only on ``parts``."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1)[0] >> 1)


def make_bot(seed: int, simulations: int, uct_c: float, final_policy: str) -> Any:
    """OpenSpiel's C++ IS-MCTS with one random rollout per simulation."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.ISMCTSBot(seed, evaluator, uct_c, simulations, -1, POLICY_TYPES[final_policy], False, False)


def play_deal(env: Any, heuristic: Any, os_state: Any, sides: tuple[str, ...], bots: dict[int, Any], clock: dict[str, list[float]]) -> dict[str, list[int]]:
    """Play one dealt deal in both engines, each seat moved by its side; return bids, tricks, points."""
    state = env.unwrapped.state
    max_bid = state.config.max_bid
    env.step(A.LEAVE_TRUMP)  # the dealer's choice: OpenSpiel's oh_hell has no pick-up
    while not state.is_terminal():
        seat = state.current_player()
        if os_state.current_player() != seat or env.agent_selection != f"player_{seat}":
            raise RuntimeError(f"the engines disagree on who acts: le_dix seat {seat}, oh_hell {os_state.current_player()}")
        t0 = time.process_time()
        if sides[seat] == "ismcts":
            os_action = bots[seat].step(os_state)
            action = from_os_action(max_bid, os_action)
        else:
            action = heuristic.act(env.observe(env.agent_selection))
            os_action = to_os_action(max_bid, action)
        clock[sides[seat]].append(time.process_time() - t0)
        if os_action not in os_state.legal_actions():
            raise RuntimeError(f"{A.action_to_string(max_bid, action)} is legal in le_dix but not in oh_hell")
        os_state.apply_action(os_action)
        env.step(action)
    points = state.scores()
    if not os_state.is_terminal() or list(os_state.returns()) != [float(p) for p in points]:
        raise RuntimeError(f"the engines disagree on the scores: le_dix {points}, oh_hell {os_state.returns()}")
    return {"bids": list(state.bids), "tricks": list(state.tricks_won), "points": list(points)}


def run_size(size: int, deals: int, players: int, seed: int, simulations: int, uct_c: float, final_policy: str,
             heuristic_cls: type, params: dict[str, Any]) -> dict[str, Any]:
    """Play ``deals`` deals of ``size`` cards in both lineups; return per-side counts and per-deal differences."""
    env = raw_env(num_players=players, deals=(size,), hook=True, auto_forced=False)
    heuristic = heuristic_cls(env, seed=seed, **params)
    game = os_game(players, size)
    made = dict.fromkeys(SIDES, 0)
    over = dict.fromkeys(SIDES, 0)
    under = dict.fromkeys(SIDES, 0)
    bid_sum = dict.fromkeys(SIDES, 0)
    clock: dict[str, list[float]] = {side: [] for side in SIDES}
    differences = []
    bids_per_side = 0
    for k in range(deals):
        rng = np.random.default_rng([seed, size, k])
        deck = [int(c) for c in rng.permutation(52)]
        dealer = int(rng.integers(players))
        scored = {side: 0 for side in SIDES}
        for li, sides in enumerate(lineups(players)):
            env.reset(seed=seed_of(seed, size, k), options={"deck": [CARD_NAMES[c] for c in deck], "dealer": dealer})
            bots = {s: make_bot(seed_of(seed, size, k, li, s), simulations, uct_c, final_policy)
                    for s in range(players) if sides[s] == "ismcts"}
            result = play_deal(env, heuristic, deal_os(game, dealer, deck), sides, bots, clock)
            for s, side in enumerate(sides):
                bid, won = result["bids"][s], result["tricks"][s]
                made[side] += bid == won
                over[side] += won > bid
                under[side] += won < bid
                bid_sum[side] += bid
                scored[side] += result["points"][s]
        bids_per_side += players  # each side held each of the deal's hands once
        differences.append((scored["ismcts"] - scored["heuristic"]) / players)
    return {
        "size": size, "deals": deals, "bids": bids_per_side, "made": made, "over": over, "under": under,
        "bid_sum": bid_sum, "differences": differences,
        "us_per_decision": {side: 1e6 * float(np.mean(clock[side])) for side in SIDES},
    }


def summary(r: dict[str, Any], players: int) -> dict[str, Any]:
    """Rates, intervals and the duplicate difference of one hand size's counts."""
    n = r["bids"]
    sides = {}
    for side in SIDES:
        lo, hi = wilson_interval(r["made"][side], n)
        sides[side] = {
            "made": r["made"][side] / n, "made_ci": [lo, hi], "mean_bid": r["bid_sum"][side] / n,
            "over": r["over"][side] / n, "under": r["under"][side] / n, "us_per_decision": r["us_per_decision"][side],
        }
    diff, half = mean_ci(r["differences"])
    return {"size": r["size"], "deals": r["deals"], "bids_per_side": n, "fair_bid": r["size"] / players, "sides": sides,
            "duplicate_difference": diff, "duplicate_ci": [diff - half, diff + half]}


def report(s: dict[str, Any]) -> None:
    """Print one hand size's table."""
    print(f"\nhand size {s['size']}: {s['deals']} deals, {s['bids_per_side']} bids per side (fair share of the tricks {s['fair_bid']:.2f})")
    print("side      | made  | 95% CI          | mean bid | over  | under | CPU µs/decision")
    for side, v in s["sides"].items():
        lo, hi = v["made_ci"]
        print(f"{side:9s} | {v['made']:5.1%} | [{lo:5.1%}, {hi:5.1%}] | {v['mean_bid']:8.2f} | {v['over']:5.1%} | {v['under']:5.1%} | {v['us_per_decision']:8.0f}")
    lo, hi = s["duplicate_ci"]
    print(f"duplicate: IS-MCTS − heuristic = {s['duplicate_difference']:+.2f} points per hand [{lo:+.2f}, {hi:+.2f}]")


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Parse arguments, play every hand size, print the tables; return the summaries."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000, help="deals per hand size, each played in both lineups (default 1000)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 5, 3], help="hand sizes (default 10 5 3)")
    ap.add_argument("--players", type=int, default=4, choices=[3, 4, 5], help="players (default 4)")
    ap.add_argument("--simulations", type=int, default=100, help="IS-MCTS simulations per move (default 100)")
    ap.add_argument("--uct-c", type=float, default=2.0, help="IS-MCTS exploration constant (returns are 0 or 10; default 2.0)")
    ap.add_argument("--final-policy", choices=sorted(POLICY_TYPES), default="max_visit_count",
                    help="how IS-MCTS picks its move from the search (default max_visit_count)")
    ap.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    ap.add_argument("--param", nargs="*", default=[], metavar="KEY=VALUE", help="heuristic parameters, e.g. bid_offset=0.1")
    ap.add_argument("--baseline", default=None, metavar="FILE",
                    help="play the LeDixHeuristic class of this Python file instead of the current one (before/after comparisons)")
    ap.add_argument("--out", default=None, help="write the summaries to this JSON file")
    args = ap.parse_args(argv)
    if args.deals < 2:
        ap.error("--deals must be at least 2 (the duplicate interval needs two deals)")
    params = parse_key_values(args.param, what="parameter")
    cls = heuristic_class(args.baseline)
    out = []
    for size in args.sizes:
        s = summary(run_size(size, args.deals, args.players, args.seed, args.simulations, args.uct_c, args.final_policy, cls, params), args.players)
        report(s)
        out.append(s)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)
        print(f"wrote {args.out}")
    return out


if __name__ == "__main__":
    main()
