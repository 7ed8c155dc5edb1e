"""Paired comparison: two candidates in the same seat of the same deals, against the same opponents.

    python -m experiments.paired --game dix --option solo=True --option difficulty=6 \\
        --a ppo --b heuristic --games 1000 --seed 3000017
    python -m experiments.paired --game le_dix --a ppo --b heuristic --opponents heuristic heuristic heuristic

Each candidate plays a tournament (``experiments.tournament``: seats rotated, deals replayed) with
the same seed, so game ``g`` of one is game ``g`` of the other: same deal, same seat, same
opponents with the same seeds. What differs between the two games is the candidate's play alone,
so the per-game difference of win shares has far less variance than two independent win shares
(the luck of the deal cancels): the 95% interval of the mean difference (normal approximation
over games) can separate two agents whose Wilson intervals overlap. The counts of games only one
of them won are McNemar's discordant pairs.

The check that the games really are paired: every game's starting state (the tournament's
fingerprint of the dealt state) must be the same in both runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from dixenv.agents.registry import parse_key_values
from dixenv.experiments.search_stats import tournament_summary
from dixenv.experiments.tournament import Results, mean_ci, run_tournament, to_jsonable, wilson_interval


def paired(game: str, a: str, b: str, opponents: Sequence[str], games: int, options: dict[str, Any] | None = None,
           seed: int = 0, workers: int | None = 1, runs: dict[str, Results] | None = None) -> dict[str, Any]:
    """Play ``a`` and then ``b`` with ``opponents`` on the same games; their win shares and the paired difference.

    ``runs``, if given, receives the two tournaments' ``Results`` (keys "a" and "b").
    """
    runs = {} if runs is None else runs
    for name, candidate in (("a", a), ("b", b)):
        runs[name] = run_tournament(game, [candidate, *opponents], games, options or {}, workers=workers, seed=seed)
    ra, rb = runs["a"], runs["b"]
    by_id = {r["game_id"]: r for r in rb.records}
    wins_a, wins_b, diffs, score_diffs = [], [], [], []
    for rec in sorted(ra.records, key=lambda r: r["game_id"]):
        other = by_id[rec["game_id"]]
        if rec["start"] != other["start"]:
            raise RuntimeError(f"game {rec['game_id']} did not start from the same state in both runs: not paired")
        seat_a = rec["seats"][ra.entry_seat(rec, 0)]
        seat_b = other["seats"][rb.entry_seat(other, 0)]
        assert seat_a == seat_b, "the candidate sits in the same seat of both games"
        wins_a.append(rec["wins"][seat_a])
        wins_b.append(other["wins"][seat_b])
        diffs.append(wins_a[-1] - wins_b[-1])
        score_diffs.append(rec["scores"][seat_a] - other["scores"][seat_b])
    n = len(diffs)
    mean, half = mean_ci(diffs)
    score_mean, score_half = mean_ci(score_diffs)
    out: dict[str, Any] = {
        "kind": "paired", "game": game, "options": ra.options, "opponents": list(opponents), "seed": seed, "games": n,
        "a": a, "b": b,
        "win_share_difference": mean, "difference_ci95": [mean - half, mean + half],
        "score_difference": score_mean, "score_difference_ci95": [score_mean - score_half, score_mean + score_half],
        "only_a_won": sum(1 for x, y in zip(wins_a, wins_b) if x > y),
        "only_b_won": sum(1 for x, y in zip(wins_a, wins_b) if y > x),
        "seconds": ra.seconds + rb.seconds,
    }
    for name, wins in (("a", wins_a), ("b", wins_b)):
        share = sum(wins) / n
        out[f"{name}_win_share"] = share
        out[f"{name}_win_ci95"] = list(wilson_interval(sum(wins), n))
    return out


def format_paired(result: dict[str, Any]) -> str:
    """The comparison as a few lines of text."""
    lo, hi = result["difference_ci95"]
    slo, shi = result["score_difference_ci95"]
    against = " + ".join(result["opponents"]) or "the env's own seats"
    verdict = "A is stronger" if lo > 0 else "B is stronger" if hi < 0 else "not separated"
    lines = [f"{result['game']} {result['options']}: {result['games']} paired games against {against}, seed {result['seed']}"]
    for name in ("a", "b"):
        wlo, whi = result[f"{name}_win_ci95"]
        lines.append(f"  {name.upper()} {result[name]:<28} win share {result[f'{name}_win_share']:.3f} [{wlo:.3f}, {whi:.3f}]")
    lines.append(f"  A - B: win share {result['win_share_difference']:+.3f} [{lo:+.3f}, {hi:+.3f}] ({verdict}); "
                 f"score {result['score_difference']:+.2f} [{slo:+.2f}, {shi:+.2f}]; "
                 f"games only A won {result['only_a_won']}, only B won {result['only_b_won']}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.paired", description=__doc__.splitlines()[0])
    p.add_argument("--game", required=True)
    p.add_argument("--a", required=True, help="first candidate (an agent name, e.g. ppo or policy:PATH)")
    p.add_argument("--b", required=True, help="second candidate, e.g. heuristic")
    p.add_argument("--opponents", nargs="*", default=[], help="the other agent seats (none for solo dix)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option, repeatable")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0, help="master seed of the deals (use one training never saw)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", help="write the result as JSON here")
    p.add_argument("--a-summary", metavar="PATH",
                   help="also write candidate A's tournament summary here, as experiments.search_stats tournament "
                        "writes it (its table reads it: win share, ms/move)")
    args = p.parse_args(argv)
    runs: dict[str, Results] = {}
    try:
        result = paired(args.game, args.a, args.b, args.opponents, args.games, parse_key_values(args.option), args.seed,
                        args.workers, runs=runs)
    except (ValueError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result["command"] = "python -m experiments.paired " + " ".join(argv if argv is not None else sys.argv[1:])
    print(format_paired(result))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1, default=str) + "\n")
        print(f"wrote {args.out}")
    if args.a_summary:
        summary = tournament_summary(runs["a"], " + ".join(sorted(set(args.opponents))) or "the env's own seats")
        summary["command"] = result["command"]
        Path(args.a_summary).parent.mkdir(parents=True, exist_ok=True)
        Path(args.a_summary).write_text(json.dumps(to_jsonable(summary), indent=2) + "\n")
        print(f"wrote {args.a_summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
