"""Evaluate agents against each other on any dixenv game (tournaments and ratings).

Tournament (every cyclic seat rotation of the agent list replays the same deal seeds)::

    python -m experiments.evaluate --game le_dix --agents heuristic random random random \\
        --games 2000 --option scoring=oh_hell --workers 2 --out results/le_dix.csv
    python -m experiments.evaluate --game dix --agents heuristic --option solo=True --option difficulty=6

Rating (random tables drawn from a pool of agents, OpenSkill Plackett-Luce; needs ``openskill``)::

    python -m experiments.evaluate --rating --game le_dix --players 3 \\
        --agents heuristic random random --games 500

The table shows, per agent: games, win share with its Wilson 95% interval (shared wins count
1/k each, see ``experiments.tournament``), mean final score ± 95% CI and the game's own figures
(``experiments.game_stats``). ``--out X.csv`` writes per-game rows to ``X.csv`` and the summary to
``X.json``. The library functions (``run_tournament``, ``Results`` in ``experiments.tournament``;
``run_rating`` in ``experiments.rating``) are re-exported here. ``--record DIR`` writes every game of a
tournament to DIR as a JSON game record (``dixenv.replay``), which replays exactly and opens in the
web table (``python -m dixenv.web``).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from dixenv.agents.registry import AGENTS, GAMES, parse_key_values
from dixenv.experiments.rating import Rating, run_rating
from dixenv.experiments.tournament import Results, run_tournament, wilson_interval

__all__ = ["Rating", "Results", "main", "run_rating", "run_tournament", "wilson_interval"]


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    names = "; ".join(f"{g}: {', '.join(sorted(a))}" for g, a in AGENTS.items())
    p = argparse.ArgumentParser(
        prog="python -m experiments.evaluate",
        description="Play dixenv agents against each other (seat rotation, same deals replayed) or rate a pool of agents.",
        epilog=f"Agents per game ({names}); parameters ride along as name:key=value,key=value (e.g. alix:difficulty=6).",
    )
    p.add_argument("--game", required=True, help=f"one of {', '.join(GAMES)}")
    p.add_argument("--agents", nargs="+", required=True, metavar="AGENT",
                   help="one agent per agent seat (tournament) or the pool to draw tables from (--rating)")
    p.add_argument("--games", type=int, default=1000,
                   help="games to play (tournament: rounded up to a whole number of seat rotations); default 1000")
    p.add_argument("--players", type=int, default=None,
                   help="table size (the num_players option); default: the number of agents (tournament), the game's default (rating)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="game option, repeatable: scoring=oh_hell, deals=(5,), solo=True, difficulty=6")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes (default: CPU count; 1 = in process)")
    p.add_argument("--seed", type=int, default=0, help="master seed: deal seeds and agent seeds derive from it (default 0)")
    p.add_argument("--out", default=None, help="write per-game rows to OUT.csv and the summary to OUT.json")
    p.add_argument("--record", default=None, metavar="DIR",
                   help="write every game (tournament) to DIR as a JSON game record (dixenv.replay; the web table replays them)")
    p.add_argument("--rating", action="store_true", help="rate the agents with OpenSkill from random tables instead")
    p.add_argument("--start-method", default=None, choices=["fork", "spawn", "forkserver"],
                   help="multiprocessing start method for the workers (default spawn; fork hangs with torch agents)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        options = parse_key_values(args.option)
        if args.rating:
            rating = run_rating(args.game, args.agents, args.games, options, args.workers, args.seed,
                                players=args.players, progress=not args.no_progress, start_method=args.start_method)
            print(rating.table())
            if args.out:
                path = rating.to_json(os.path.splitext(args.out)[0] + ".json")
                print(f"wrote {path}")
            return 0
        if args.players is not None:
            if options.get("solo"):
                raise ValueError("--players does not apply to solo dix (one agent against the env's ALIX)")
            options["num_players"] = args.players
        results = run_tournament(args.game, args.agents, args.games, options, args.workers, args.seed,
                                 progress=not args.no_progress, start_method=args.start_method, record_dir=args.record)
    except (ValueError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(results.table())
    if args.out:
        csv_path, json_path = results.save(args.out)
        print(f"wrote {csv_path} and {json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
