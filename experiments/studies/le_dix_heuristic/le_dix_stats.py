"""le_dix heuristic figures: made-bid rate by hand size in self-play, win share against random agents
and against another version of the heuristic.

Usage::

    python -m experiments.studies.le_dix_heuristic.le_dix_stats --games 500 --players 3 4 5
    python -m experiments.studies.le_dix_heuristic.le_dix_stats --games 200 --players 4 --mode selfplay --param bid_offset=0.1
    git show 815454f:agents/le_dix_heuristic.py > /tmp/old.py
    python -m experiments.studies.le_dix_heuristic.le_dix_stats --games 1000 --players 4 --mode versus --baseline /tmp/old.py

Self-play seats the heuristic everywhere and counts, per hand size, how often a bid is made
(tricks == bid) and whether missed bids were over or under. Against random, one heuristic plays
``players - 1`` random agents (its seat rotates with the game number); its win share counts a win
shared by k players as 1/k (a random agent's share would be 1/players). Versus seats the heuristic
in ``players // 2`` adjacent seats and the ``--baseline`` heuristic (the ``LeDixHeuristic`` class of
that file, e.g. an older version) in the others; each deal seed is replayed with the seating rotated
through every seat, so both sides hold the same cards from every seat. The per-decision time of the
heuristic is measured around ``act``. Intervals are Wilson 95% (``experiments.tournament``); bids of
one game are not independent, so the made-rate intervals are a little narrow. This harness reads
bids and tricks from ``env.unwrapped.state`` (statistics only: the agents see only their observation).
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path
from typing import Any

import numpy as np

from dixenv.agents.base import RandomAgent
from dixenv.agents.le_dix_heuristic import LeDixHeuristic
from dixenv.agents.registry import parse_key_values
from dixenv.le_dix_v0 import raw_env
from dixenv.experiments.chunked import run_chunked
from dixenv.experiments.tournament import mean_ci, wilson_interval


def heuristic_class(path: str | None) -> type:
    """The ``LeDixHeuristic`` class of a Python file (an older version, for comparisons), or today's."""
    if path is None:
        return LeDixHeuristic
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"baseline {path!r} is not a file (e.g. git show 815454f:agents/le_dix_heuristic.py > old.py)")
    spec = importlib.util.spec_from_file_location(f"le_dix_baseline_{file.stem}", file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, "LeDixHeuristic"):
        raise ValueError(f"baseline {path!r} defines no LeDixHeuristic class")
    return module.LeDixHeuristic


def _hook_deals(env: Any, record: list[tuple[int, list[int], list[int]]]) -> None:
    """Record (hand size, bids, tricks) of every deal just before the engine scores it."""
    state = env.unwrapped.state
    end_deal = state._end_deal

    def hooked() -> None:
        record.append((state.hand_size, list(state.bids), list(state.tricks_won)))
        end_deal()

    state._end_deal = hooked


def _seating(mode: str, g: int, players: int) -> list[bool]:
    """Per seat, whether the heuristic under measurement sits there in game ``g`` (else the other agent)."""
    if mode == "selfplay":
        return [True] * players
    if mode == "random":
        return [s == g % players for s in range(players)]
    return [(s - g) % players < players // 2 for s in range(players)]  # versus: a rotating block


def play_games(players: int, games: int, seed: int, mode: str, params: dict[str, Any], options: dict[str, Any],
               baseline: str | None = None) -> dict[str, Any]:
    """Play ``games`` games; return raw counts (made/over/under per hand size, wins, scores, timing).

    The counts are of the heuristic's seats (``hero``); in versus mode ``base_*`` counts the
    baseline's seats. In versus mode game ``g`` replays deal seed ``g // players`` with the seating
    rotated by ``g``.
    """
    env = raw_env(num_players=players, **options)
    heur = LeDixHeuristic(env, seed=seed, **params)
    other = heuristic_class(baseline)(env, seed=seed) if mode == "versus" else RandomAgent(env, seed=seed)
    size = max(env.unwrapped.config.deals) + 1
    made, over, under, count, base_made, base_count = (np.zeros(size, dtype=np.int64) for _ in range(6))
    bid_sum, table_deals = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
    win_share, heur_scores, other_scores, score_diffs = 0.0, [], [], []
    act_time, decisions = 0.0, 0
    for g in range(games):
        env.reset(seed=seed * 100_003 + (g // players if mode == "versus" else g))
        record: list[tuple[int, list[int], list[int]]] = []
        _hook_deals(env, record)
        hero = _seating(mode, g, players)
        seats = [heur if hero[s] else other for s in range(players)]
        for agent_name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            agent = seats[int(agent_name.split("_")[1])]
            if agent is heur:
                t0 = time.process_time()
                action = agent.act(obs)
                act_time += time.process_time() - t0
                decisions += 1
            else:
                action = agent.act(obs)
            env.step(action)
        scores = env.unwrapped.scores()
        for h, bids, tricks in record:
            bid_sum[h] += sum(bids)
            table_deals[h] += 1
            for s in range(players):
                if hero[s]:
                    count[h] += 1
                    made[h] += bids[s] == tricks[s]
                    over[h] += tricks[s] > bids[s]
                    under[h] += tricks[s] < bids[s]
                else:
                    base_count[h] += 1
                    base_made[h] += bids[s] == tricks[s]
        if mode != "selfplay":
            winners = [s for s in range(players) if scores[s] == max(scores)]
            win_share += sum(1.0 / len(winners) for s in winners if hero[s])
            mine = [scores[s] for s in range(players) if hero[s]]
            theirs = [scores[s] for s in range(players) if not hero[s]]
            heur_scores.extend(mine)
            other_scores.extend(theirs)
            score_diffs.append(float(np.mean(mine) - np.mean(theirs)))
    return {
        "made": made, "bid_sum": bid_sum, "table_deals": table_deals, "over": over, "under": under, "count": count,
        "base_made": base_made, "base_count": base_count, "win_share": win_share, "games": games,
        "heur_scores": heur_scores, "other_scores": other_scores, "score_diffs": score_diffs, "act_time": act_time, "decisions": decisions,
    }


def run(players: int, games: int, seed: int, mode: str, params: dict[str, Any], options: dict[str, Any], jobs: int,
        baseline: str | None = None) -> dict[str, Any]:
    """Play the games in ``jobs`` processes (distinct seeds per chunk) and merge the counts."""
    if mode == "versus" and games % (players * max(1, jobs)):
        raise ValueError(f"--games {games} must be a multiple of players × jobs ({players * max(1, jobs)}) in versus mode (whole seat rotations)")
    return run_chunked(play_games, players, games, seed, jobs, mode, params, options, baseline)


def _us_per_decision(r: dict[str, Any]) -> float:
    return r["act_time"] / max(1, r["decisions"]) * 1e6


def report_selfplay(players: int, r: dict[str, Any]) -> float:
    """Print made-bid rate per hand size; return the mean over hand sizes."""
    sizes = [h for h in range(len(r["count"])) if r["count"][h]]
    rates = [r["made"][h] / r["count"][h] for h in sizes]
    print(f"\n{players} players, heuristic self-play, {r['games']} games, {int(r['count'].sum())} bids")
    print("hand size | made  | 95% CI          | over  | under | sum of bids")
    for h in sizes:
        c = r["count"][h]
        lo, hi = wilson_interval(r["made"][h], c)
        print(
            f"{h:9d} | {r['made'][h] / c:5.1%} | [{lo:5.1%}, {hi:5.1%}] | {r['over'][h] / c:5.1%} | {r['under'][h] / c:5.1%} | "
            f"{r['bid_sum'][h] / r['table_deals'][h]:5.2f}"
        )
    mean = float(np.mean(rates))
    print(f"mean over hand sizes: {mean:.1%}   ({_us_per_decision(r):.0f} CPU µs/decision, {r['decisions']} decisions)")
    return mean


def report_random(players: int, r: dict[str, Any]) -> float:
    """Print the heuristic's win share and scores against random agents; return the win share."""
    share = r["win_share"] / r["games"]
    lo, hi = wilson_interval(r["win_share"], r["games"])
    print(
        f"{players} players, 1 heuristic vs {players - 1} random, {r['games']} games: win share {share:.1%} [{lo:.1%}, {hi:.1%}] "
        f"(a random seat: {1 / players:.1%}); mean score {np.mean(r['heur_scores']):.1f} vs random {np.mean(r['other_scores']):.1f}; "
        f"heuristic made-bid rate {r['made'].sum() / r['count'].sum():.1%}; {_us_per_decision(r):.0f} CPU µs/decision"
    )
    return share


def report_versus(players: int, r: dict[str, Any]) -> float:
    """Print the heuristic's win share, scores and made-bid rates against the baseline; return the win share."""
    k = players // 2
    share = r["win_share"] / r["games"]
    lo, hi = wilson_interval(r["win_share"], r["games"])
    made, base = r["made"].sum() / r["count"].sum(), r["base_made"].sum() / r["base_count"].sum()
    score, half = mean_ci(r["score_diffs"])
    print(
        f"{players} players, {k} heuristic vs {players - k} baseline, {r['games']} games: heuristic win share {share:.1%} [{lo:.1%}, {hi:.1%}] "
        f"(even: {k / players:.1%}); mean score {np.mean(r['heur_scores']):.1f} vs baseline {np.mean(r['other_scores']):.1f} "
        f"(difference {score:+.1f} ± {half:.1f}); made-bid rate {made:.1%} vs baseline {base:.1%}; {_us_per_decision(r):.0f} CPU µs/decision"
    )
    return share


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, play, print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=500, help="games per player count and mode (default 500)")
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], help="player counts (default 3 4 5)")
    ap.add_argument("--mode", choices=["selfplay", "random", "both", "versus"], default="both",
                    help="which figures (default both: selfplay and random; versus needs --baseline)")
    ap.add_argument("--baseline", default=None, metavar="FILE", help="versus: the file whose LeDixHeuristic class sits in the other seats")
    ap.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--param", nargs="*", default=[], metavar="KEY=VALUE", help="heuristic parameters, e.g. bid_offset=0.1")
    ap.add_argument("--option", nargs="*", default=[], metavar="KEY=VALUE", help="game options, e.g. hook=True scoring=oh_hell")
    args = ap.parse_args(argv)
    if (args.mode == "versus") != (args.baseline is not None):
        ap.error("--baseline goes with --mode versus, and versus needs it")
    params = parse_key_values(args.param, what="parameter")
    options = parse_key_values(args.option)
    modes = ["selfplay", "random"] if args.mode == "both" else [args.mode]
    reports = {"selfplay": (report_selfplay, "self-play made"), "random": (report_random, "win share vs random"),
               "versus": (report_versus, "win share vs baseline")}
    figures = []
    for players in args.players:
        for mode in modes:
            r = run(players, args.games, args.seed, mode, params, options, args.jobs, args.baseline)
            show, label = reports[mode]
            figures.append(f"{players}p {label} {show(players, r):.1%}")
    print("\nsummary: " + "; ".join(figures))


if __name__ == "__main__":
    main()
