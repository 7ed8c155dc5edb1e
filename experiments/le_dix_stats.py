"""le_dix heuristic figures: made-bid rate by hand size in self-play, win share against random agents.

Usage::

    python -m experiments.le_dix_stats --games 500 --players 3 4 5
    python -m experiments.le_dix_stats --games 200 --players 4 --mode selfplay --param bid_offset=0.1

Self-play seats the heuristic everywhere and counts, per hand size, how often a bid is made
(tricks == bid) and whether missed bids were over or under. Against random, one heuristic plays
``players - 1`` random agents (its seat rotates with the game number); its win share counts a win
shared by k players as 1/k (a random agent's share would be 1/players). The per-decision time of the
heuristic is measured around ``act``. This harness reads bids and tricks from ``env.unwrapped.state``
(statistics only: the agent itself sees only its observation).
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


def play_games(players: int, games: int, seed: int, mode: str, params: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """Play ``games`` games; return raw counts (made/over/under per hand size, wins, scores, timing)."""
    env = raw_env(num_players=players, **options)
    heur = LeDixHeuristic(env, seed=seed, **params)
    rnd = RandomAgent(env, seed=seed)
    deals = env.unwrapped.config.deals
    size = max(deals) + 1
    made, over, under, count = (np.zeros(size, dtype=np.int64) for _ in range(4))
    bid_sum, table_deals = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
    win_share, heur_scores, rand_scores = 0.0, [], []
    act_time, decisions = 0.0, 0
    for g in range(games):
        env.reset(seed=seed * 100_003 + g)
        record: list[tuple[int, list[int], list[int]]] = []
        _hook_deals(env, record)
        hero = g % players
        seats = [heur if (mode == "selfplay" or s == hero) else rnd for s in range(players)]
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
                if mode == "selfplay" or s == hero:
                    count[h] += 1
                    made[h] += bids[s] == tricks[s]
                    over[h] += tricks[s] > bids[s]
                    under[h] += tricks[s] < bids[s]
        if mode == "random":
            top = max(scores)
            winners = [s for s in range(players) if scores[s] == top]
            win_share += (1.0 / len(winners)) if hero in winners else 0.0
            heur_scores.append(scores[hero])
            rand_scores.extend(scores[s] for s in range(players) if s != hero)
    return {
        "made": made, "bid_sum": bid_sum, "table_deals": table_deals, "over": over, "under": under, "count": count, "win_share": win_share, "games": games,
        "heur_scores": heur_scores, "rand_scores": rand_scores, "act_time": act_time, "decisions": decisions,
    }


def run(players: int, games: int, seed: int, mode: str, params: dict[str, Any], options: dict[str, Any], jobs: int) -> dict[str, Any]:
    """Play the games in ``jobs`` processes (distinct seeds per chunk) and merge the counts."""
    return run_chunked(play_games, players, games, seed, jobs, mode, params, options)


def report_selfplay(players: int, r: dict[str, Any]) -> float:
    """Print made-bid rate per hand size; return the mean over hand sizes."""
    sizes = [h for h in range(len(r["count"])) if r["count"][h]]
    rates = [r["made"][h] / r["count"][h] for h in sizes]
    print(f"\n{players} players, heuristic self-play, {r['games']} games, {int(r['count'].sum())} bids")
    print("hand size | made  | over  | under | sum of bids")
    for h in sizes:
        c = r["count"][h]
        print(
            f"{h:9d} | {r['made'][h] / c:5.1%} | {r['over'][h] / c:5.1%} | {r['under'][h] / c:5.1%} | "
            f"{r['bid_sum'][h] / r['table_deals'][h]:5.2f}"
        )
    mean = float(np.mean(rates))
    print(f"mean over hand sizes: {mean:.1%}   ({r['act_time'] / max(1, r['decisions']) * 1e6:.0f} CPU µs/decision, {r['decisions']} decisions)")
    return mean


def report_random(players: int, r: dict[str, Any]) -> float:
    """Print the heuristic's win share and scores against random agents; return the win share."""
    share = r["win_share"] / r["games"]
    print(
        f"{players} players, 1 heuristic vs {players - 1} random, {r['games']} games: win share {share:.1%} "
        f"(a random seat: {1 / players:.1%}); mean score {np.mean(r['heur_scores']):.1f} vs random {np.mean(r['rand_scores']):.1f}; "
        f"heuristic made-bid rate {r['made'].sum() / r['count'].sum():.1%}; "
        f"{r['act_time'] / max(1, r['decisions']) * 1e6:.0f} CPU µs/decision"
    )
    return share


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, play, print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=500, help="games per player count and mode (default 500)")
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], help="player counts (default 3 4 5)")
    ap.add_argument("--mode", choices=["selfplay", "random", "both"], default="both", help="which figures (default both)")
    ap.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--param", nargs="*", default=[], metavar="KEY=VALUE", help="heuristic parameters, e.g. bid_offset=0.1")
    ap.add_argument("--option", nargs="*", default=[], metavar="KEY=VALUE", help="game options, e.g. hook=True scoring=oh_hell")
    args = ap.parse_args(argv)
    params = parse_key_values(args.param, what="parameter")
    options = parse_key_values(args.option)
    modes = ["selfplay", "random"] if args.mode == "both" else [args.mode]
    means, shares = {}, {}
    for players in args.players:
        for mode in modes:
            r = run(players, args.games, args.seed, mode, params, options, args.jobs)
            if mode == "selfplay":
                means[players] = report_selfplay(players, r)
            else:
                shares[players] = report_random(players, r)
    print("\nsummary: " + "; ".join(
        [f"{p}p self-play made {m:.1%}" for p, m in means.items()] + [f"{p}p win share vs random {s:.1%}" for p, s in shares.items()]
    ))


if __name__ == "__main__":
    main()
