"""dix de suite heuristic figures: turns to finish a round, rounds per game, win share, time per decision.

Usage::

    python -m experiments.studies.dix_de_suite_heuristic.dix_de_suite_stats --games 300 --players 2 3 4 --jobs 2
    python -m experiments.studies.dix_de_suite_heuristic.dix_de_suite_stats --mode solo --games 200 --players 2 --param target_weight=0.5

Modes:

* ``solo``: one heuristic (seat 0) against passive opponents who always draw and discard, so
  nobody disturbs it except by cycling the piles: the heuristic's own turns to finish a round
  (every round, whatever its length) measure how fast it sorts a rack with that player count's deck.
* ``selfplay``: the heuristic in every seat: turns per round (all players' turns) of the rounds
  that end, the heuristic's own turns per round, rounds per game, truncated games.
* ``random``: one heuristic against ``players - 1`` random agents (its seat rotates with the game
  number): its win share (a win shared by k counts 1/k; a random seat's share is 1/players).
  ``python -m experiments.evaluate --game dix_de_suite --agents heuristic random`` gives the same
  figure with seat rotation over replayed deals.

The per-decision time of the heuristic is measured around ``act``. This harness reads the round
state from ``env.unwrapped.state`` (statistics only: the agent itself sees only its observation).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from dixenv.agents.base import RandomAgent
from dixenv.agents.dix_de_suite_heuristic import DixDeSuiteHeuristic
from dixenv.agents.registry import parse_key_values
from dixenv.dix_de_suite_v0 import raw_env
from dixenv.games.dix_de_suite import actions as A
from dixenv.experiments.chunked import run_chunked


class PassiveAgent:
    """Never changes its rack: draws and discards (takes the discard only when forced to)."""

    name = "passive"

    def __init__(self, env: Any = None, seed: int | None = None):
        pass

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """``draw`` then ``discard`` whenever they are legal."""
        mask = observation["action_mask"]
        for a in (A.DRAW, A.DISCARD):
            if mask[a]:
                return a
        return int(np.flatnonzero(mask)[0])


def play_games(players: int, games: int, seed: int, mode: str, params: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """Play ``games`` games; return raw counts (rounds, turns, wins, timing)."""
    env = raw_env(num_players=players, **options)
    heur = DixDeSuiteHeuristic(env, seed=seed, **params)
    other = PassiveAgent() if mode == "solo" else RandomAgent(env, seed=seed)
    out: dict[str, Any] = {
        "games": games, "rounds": 0, "round_turns": [], "hero_turns": [], "rounds_per_game": [],
        "truncated": 0, "hero_round_wins": 0, "win_share": 0.0, "act_time": 0.0, "decisions": 0,
        "hero_scores": [], "other_scores": [],
    }
    for g in range(games):
        env.reset(seed=seed * 100_003 + g)
        state = env.unwrapped.state
        hero = 0 if mode == "solo" else g % players
        seats = [heur if (mode == "selfplay" or s == hero) else other for s in range(players)]
        rounds_before = 0
        hero_turns = 0
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            seat = state.current_player()
            agent = seats[seat]
            obs = env.observe(env.agent_selection)
            if agent is heur:
                t0 = time.perf_counter()
                action = agent.act(obs)
                out["act_time"] += time.perf_counter() - t0
                out["decisions"] += 1
            else:
                action = agent.act(obs)
            turns_before = state.round_turns
            round_before = state.round
            env.step(action)
            state = env.unwrapped.state
            if (mode == "selfplay" or seat == hero) and action not in (A.DRAW, A.TAKE_DISCARD):
                hero_turns += 1  # a placement ends a turn (the draw/take decision starts it)
            if state.round != round_before or state.is_terminal():
                # The round just ended (won); a new round starts unless the game is over.
                out["rounds"] += 1
                out["round_turns"].append(turns_before + 1)
                out["hero_turns"].append(hero_turns / (players if mode == "selfplay" else 1))
                out["hero_round_wins"] += state.last_round_winner == hero
                hero_turns = 0
                rounds_before += 1
        if state.is_truncated():
            out["truncated"] += 1
        out["rounds_per_game"].append(rounds_before)
        scores = env.unwrapped.scores()
        keys = [k[0] for k in state.ranking_keys()]
        if mode != "selfplay":
            top = max(keys)
            winners = [s for s in range(players) if keys[s] == top]
            out["win_share"] += (1.0 / len(winners)) if hero in winners else 0.0
            out["hero_scores"].append(scores[hero])
            out["other_scores"].extend(scores[s] for s in range(players) if s != hero)
    return out


def run(players: int, games: int, seed: int, mode: str, params: dict[str, Any], options: dict[str, Any], jobs: int) -> dict[str, Any]:
    """Play the games in ``jobs`` processes (distinct seeds per chunk) and merge the counts."""
    return run_chunked(play_games, players, games, seed, jobs, mode, params, options)


def _mean_ci(xs: list[float]) -> str:
    if not xs:
        return "n/a"
    a = np.asarray(xs, dtype=np.float64)
    half = 1.96 * a.std(ddof=1) / np.sqrt(len(a)) if len(a) > 1 else float("nan")
    return f"{a.mean():.1f} ± {half:.1f}"


def report(players: int, mode: str, r: dict[str, Any]) -> dict[str, float]:
    """Print one line of figures; return the headline numbers."""
    us = r["act_time"] / max(1, r["decisions"]) * 1e6
    if mode == "solo":
        print(
            f"{players}p deck, solo (vs passive): {r['rounds']} rounds; heuristic's own turns per round "
            f"{_mean_ci(r['hero_turns'])} (median {np.median(r['hero_turns']):.0f}, 90th pct "
            f"{np.percentile(r['hero_turns'], 90):.0f}); truncated games {r['truncated']}; {us:.0f} µs/decision"
        )
        return {"solo_turns": float(np.mean(r["hero_turns"]))}
    if mode == "selfplay":
        print(
            f"{players}p self-play, {r['games']} games: turns per round (all players) {_mean_ci(r['round_turns'])}, "
            f"own turns per round {_mean_ci(r['hero_turns'])}, rounds per game {_mean_ci(r['rounds_per_game'])}; "
            f"truncated games {r['truncated']}; {us:.0f} µs/decision"
        )
        return {"turns_per_round": float(np.mean(r["round_turns"])), "rounds_per_game": float(np.mean(r["rounds_per_game"]))}
    share = r["win_share"] / r["games"]
    print(
        f"{players}p, 1 heuristic vs {players - 1} random, {r['games']} games: win share {share:.1%} "
        f"(a random seat: {1 / players:.1%}); rounds won {r['hero_round_wins']}/{r['rounds']}; "
        f"mean score {np.mean(r['hero_scores']):.0f} vs random {np.mean(r['other_scores']):.0f}; "
        f"turns per round {_mean_ci(r['round_turns'])}; truncated {r['truncated']}; {us:.0f} µs/decision"
    )
    return {"win_share": share}


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, play, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per player count and mode (default 200)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], help="player counts (default 2 3 4)")
    ap.add_argument("--mode", nargs="+", choices=["solo", "selfplay", "random", "all"], default=["all"],
                    help="which figures (default all)")
    ap.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--param", nargs="*", default=[], metavar="KEY=VALUE", help="heuristic parameters, e.g. target_weight=0.5")
    ap.add_argument("--option", nargs="*", default=[], metavar="KEY=VALUE", help="game options, e.g. run_bonus=True")
    args = ap.parse_args(argv)
    params = parse_key_values(args.param, what="parameter")
    options = parse_key_values(args.option)
    modes = ["solo", "selfplay", "random"] if "all" in args.mode else args.mode
    summary = []
    for players in args.players:
        for mode in modes:
            r = run(players, args.games, args.seed, mode, params, options, args.jobs)
            figs = report(players, mode, r)
            summary += [f"{players}p {k} {v:.3g}" for k, v in figs.items()]
    print("\nsummary: " + "; ".join(summary))


if __name__ == "__main__":
    main()
