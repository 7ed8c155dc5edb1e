"""Which half of a le_dix agent loses its games: its bids or its card play?

``PhaseSwap`` is a le_dix agent that takes its bids from one agent and everything else (trump
choice, discard, card play) from another. Played in one seat against three heuristics, a policy
that bids with the heuristic's play, and the heuristic's bids with the policy's play, show which
phase costs it its share (each row on the same deals, seats rotated):

    python -m experiments.studies.le_dix_heuristic.phase_swap --policy runs/le_dix_clone/final --games 800

Measured 2026-12-07 (seed 9101, 800 games each; docs/results/training.md): a clone 95% accurate
per decision won 0.234 [0.206, 0.264] bidding with the heuristic's play and 0.122 [0.101, 0.147]
playing to the heuristic's bids: its card play was what lost.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Sequence

import numpy as np

from dixenv.agents.registry import make_agent
from dixenv.games.le_dix import actions as A


class PhaseSwap:
    """Bids with ``bidder``, plays every other decision with ``player`` (both agent specs of le_dix)."""

    name = "phase_swap"

    def __init__(self, env: Any, seed: int | None = None, bidder: str = "heuristic", player: str = "heuristic"):
        self.bidder = make_agent("le_dix", bidder.replace(";", ","), env, seed=seed)
        self.player = make_agent("le_dix", player.replace(";", ","), env, seed=seed)
        self._bids = range(A.BID_BASE, A.play_base(env.unwrapped.layout["hand_size"].shape[0] - 1))

    def reset(self, seed: int | None = None) -> None:
        for agent in (self.bidder, self.player):
            if hasattr(agent, "reset"):
                agent.reset(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        bidding = int(np.flatnonzero(observation["action_mask"])[0]) in self._bids  # a bid is legal only while bidding
        return (self.bidder if bidding else self.player).act(observation)


def main(argv: Sequence[str] | None = None) -> int:
    from dixenv.experiments.tournament import run_tournament

    p = argparse.ArgumentParser(prog="python -m experiments.studies.le_dix_heuristic.phase_swap", description=__doc__.splitlines()[0])
    p.add_argument("--policy", required=True, help="a saved le_dix policy (PATH of PATH.npz/.json)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=800)
    p.add_argument("--seed", type=int, default=9101)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    policy = f"policy:{args.policy}"
    here = f"{__name__ if __name__ != '__main__' else 'experiments.studies.le_dix_heuristic.phase_swap'}:PhaseSwap"
    for bidder, player in ((policy, "heuristic"), ("heuristic", policy), (policy, policy)):
        spec = f"{here}:bidder={bidder},player={player}"
        results = run_tournament("le_dix", [spec] + ["heuristic"] * (args.players - 1), args.games,
                                 options={"num_players": args.players}, workers=args.workers, seed=args.seed)
        row = next(iter(results.summary().values()))
        low, high = row["win_ci95"]
        print(f"bids: {bidder:<40} play: {player:<40} win share {row['win_share']:.3f} [{low:.3f}, {high:.3f}]  "
              f"mean score {row['mean_score']:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
