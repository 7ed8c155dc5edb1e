"""Measure the search agents: tournaments against the baselines, and le_dix against OpenSpiel's ISMCTSBot.

Three commands (``--help`` on each)::

    # one search agent against copies of an opponent, through the tournament code (seat
    # rotation, replayed deals); writes the summary JSON that the tables are built from
    python -m experiments.search_stats tournament --game le_dix --agent ismcts:iterations=100 \\
        --opponent heuristic --games 1000 --out docs/search_results/le_dix-ismcts100-heuristic.json

    # a duplicate match on our le_dix through dixenv.openspiel: OpenSpiel's ISMCTSBot in two
    # seats, our agent in the other two, then the other way round on the same deal
    python -m experiments.search_stats openspiel --deals 10 --simulations 100 --pairs 100 \\
        --out docs/search_results/le_dix-openspiel-10.json

    # simple regret of search settings on decisions drawn from heuristic play: how much worse, by
    # a high-budget reference search's means, is the move each setting plays (cheap and low-noise
    # next to a tournament; used to choose the root schemes, docs/results/search.md)
    python -m experiments.search_stats regret --game dix --positions 60 \
        --reference ismcts:iterations=3000 --agent ismcts:iterations=100 --agent ismcts:iterations=100,root=halving

    # the Markdown tables of every saved result (README "Search agents", docs/results/search.md)
    python -m experiments.search_stats table docs/search_results/*.json

Long runs: one worker each, ``nice -n 10``, no more than two at a time (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from dixenv.games import game_names
from dixenv.experiments.tournament import Z95, derive_seed, mean_ci, run_tournament, to_jsonable, wilson_interval
from dixenv.experiments.workers import worker_pool



def default_players(game: str) -> int:
    """The player count of the game's default table (its spec's ``default_table``)."""
    from dixenv.games import game_spec

    return game_spec(game).default_table["num_players"]


# --- tournaments ------------------------------------------------------------------------------------


def tournament(game: str, agent: str, opponent: str, games: int, seed: int, options: dict[str, Any], workers: int) -> dict[str, Any]:
    """``agent`` against copies of ``opponent`` at the game's default table: the tournament summary."""
    options = dict(options)
    solo = bool(options.get("solo"))
    if not solo:
        options.setdefault("num_players", default_players(game))
    seats = 1 if solo else options["num_players"]
    specs = [agent] + [opponent] * (seats - 1)
    results = run_tournament(game, specs, games, options, workers=workers, seed=seed)
    print(results.table())
    return tournament_summary(results, opponent if not solo else f"ALIX (difficulty {options.get('difficulty')})")


def tournament_summary(results: Any, opponent: str) -> dict[str, Any]:
    """A tournament's summary as ``table`` reads it: the first agent's row against ``opponent``
    (also written by ``experiments.paired --a-summary``)."""
    summary = results.summary_dict()
    summary["kind"] = "tournament"
    summary["opponent"] = opponent
    return summary


# --- simple regret against a reference search ---------------------------------------------------------


def regret_positions(game: str, options: dict[str, Any], count: int, seed: int, every: int = 5, min_moves: int = 3) -> list[tuple[int, list[int]]]:
    """``count`` decisions from heuristic self-play, as (reset seed, moves before it).

    Every ``every``-th decision with at least ``min_moves`` legal moves, from games reset with
    seeds ``seed``, ``seed + 1``, …, so the positions are spread over the game.
    """
    from dixenv.agents.registry import make_agent
    from dixenv.experiments.tournament import make_env

    out: list[tuple[int, list[int]]] = []
    g = 0
    while len(out) < count:
        env = make_env(game, options)
        env.reset(seed=seed + g)
        players = [make_agent(game, "heuristic", env, seed=derive_seed(seed, g, i)) for i in range(len(env.possible_agents))]
        moves: list[int] = []
        wide = 0
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if obs["action_mask"].sum() >= min_moves:
                if wide % every == 0 and len(out) < count:
                    out.append((seed + g, list(moves)))
                wide += 1
            action = int(players[env.possible_agents.index(name)].act(obs))
            moves.append(action)
            env.step(action)
        g += 1
    return out


def _replay(game: str, options: dict[str, Any], position: tuple[int, list[int]]) -> Any:
    from dixenv.experiments.tournament import make_env

    env = make_env(game, options)
    env.reset(seed=position[0])
    for action in position[1]:
        env.step(action)
    return env


def regret(game: str, agents: Sequence[str], reference: str, positions: int, repeats: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Each agent's simple regret on ``positions`` decisions, by the reference search's root means.

    The reference (a search agent with a large budget, on its own seed) gives every legal move a
    mean value; a setting's regret at a decision is the best mean minus the mean of the move it
    plays, averaged over the decisions and ``repeats`` seeds of the setting. It measures only
    how well a setting finds the move its own kind of search prefers given far more time; it is
    no substitute for a tournament, but separates settings in minutes where a tournament takes
    hours.
    """
    from dixenv.agents.registry import make_agent

    options = dict(options)
    options.setdefault("num_players", default_players(game))
    # One env per decision, replayed once: searching reads the state but never steps it.
    envs = [_replay(game, options, spot) for spot in regret_positions(game, options, positions, seed)]
    t0 = time.perf_counter()
    means = []
    for i, env in enumerate(envs):
        ref = make_agent(game, reference, env, seed=derive_seed(seed, 1, i))
        ref.act(env.observe(env.agent_selection))
        means.append(ref.last_search["means"])
    rows: dict[str, Any] = {"reference": {"agent": reference, "seconds": time.perf_counter() - t0}}
    for spec in agents:
        losses, best_share, seconds = [], 0, 0.0
        for i, env in enumerate(envs):
            best = max(means[i].values())
            for r in range(repeats):
                agent = make_agent(game, spec, env, seed=derive_seed(seed, 2, r, i))
                start = time.perf_counter()
                action = int(agent.act(env.observe(env.agent_selection)))
                seconds += time.perf_counter() - start
                losses.append(best - means[i][action])
                best_share += means[i][action] == best
        n = len(losses)
        mean, half = mean_ci(losses)
        rows[spec] = {"regret": mean, "half_width": half, "best_share": best_share / n, "decisions": n, "ms_per_move": 1000 * seconds / n}
        print(f"{spec}: regret {mean:.4f} ± {half:.4f}, best move {best_share / n:.3f}, {1000 * seconds / n:.0f} ms/move", flush=True)
    return {"kind": "regret", "game": game, "options": options, "positions": positions, "repeats": repeats, "seed": seed, "rows": rows}


def regret_table(summary: dict[str, Any]) -> str:
    """A Markdown table of a regret summary."""
    ref = summary["rows"]["reference"]["agent"]
    lines = [
        f"| {summary['game']}: setting | regret vs `{ref}` [95% CI] | plays the reference's best move | ms/move |",
        "|---|---|---|---|",
    ]
    for spec, row in summary["rows"].items():
        if spec == "reference":
            continue
        lo, hi = row["regret"] - row["half_width"], row["regret"] + row["half_width"]
        lines.append(f"| `{spec}` | {row['regret']:.4f} [{lo:.4f}, {hi:.4f}] | {row['best_share']:.3f} | {row['ms_per_move']:.0f} |")
    return "\n".join(lines)


# --- the duplicate match against OpenSpiel's ISMCTSBot -------------------------------------------------


def openspiel_match(
    deals: int, simulations: int, pairs: int, seed: int, uct_c: float, ours: str, players: int = 4, workers: int = 1
) -> dict[str, Any]:
    """Our le_dix, one ``deals``-card deal per game, hook on: ISMCTSBot in half the seats, ``ours`` in the others, then swapped.

    Every deal is played twice (duplicate): seats 0, 2 OpenSpiel and 1, 3 ours, then the reverse,
    so each side holds every hand once. Returned: per side, bids made and points per seat-deal,
    milliseconds per search move; the paired difference (ours − OpenSpiel) per deal with its 95%
    interval. Each pair is seeded by its index alone, so ``workers`` processes (spawned, as the
    tournament's) give the same figures as one, timings aside.
    """
    import pyspiel  # noqa: F401  (the export needs it; fail early with its own message)

    jobs = [(pair, deals, simulations, seed, uct_c, ours, players) for pair in range(pairs)]
    results: list[dict[str, Any]] = []

    def collect(done: Any) -> None:
        for r in done:
            results.append(r)
            if len(results) % 10 == 0:
                mine = sum(x["made"]["ours"] for x in results) / (len(results) * players)
                theirs = sum(x["made"]["openspiel"] for x in results) / (len(results) * players)
                print(f"{len(results)} pairs: made ours {mine:.3f}, openspiel {theirs:.3f}", file=sys.stderr, flush=True)

    if workers > 1 and pairs > 1:
        with worker_pool(workers) as pool:
            collect(pool.imap(_openspiel_pair, jobs))  # in pair order
    else:
        collect(map(_openspiel_pair, jobs))
    sides = ("openspiel", "ours")
    made = {s: sum(r["made"][s] for r in results) for s in sides}
    points = {s: sum(r["points"][s] for r in results) for s in sides}
    moves = {s: sum(r["moves"][s] for r in results) for s in sides}
    think = {s: sum(r["think"][s] for r in results) for s in sides}
    diffs = [r["diff"] for r in results]
    n = pairs * players  # seat-deals per side
    mean, half = mean_ci(diffs)
    out: dict[str, Any] = {
        "kind": "openspiel",
        "game": "le_dix",
        "options": {"num_players": players, "deals": [deals], "hook": True},
        "simulations": simulations,
        "uct_c": uct_c,
        "ours_agent": ours,
        "pairs": pairs,
        "seed": seed,
        "points_difference_per_deal": mean,
        "points_difference_ci95_half_width": half,
        "pair_differences": diffs,
    }
    for s in sides:
        lo, hi = wilson_interval(made[s], n)
        out[s] = {"seat_deals": n, "made_bid_rate": made[s] / n, "made_ci95": [lo, hi], "points_per_deal": points[s] / n,
                  "ms_per_move": 1000 * think[s] / moves[s] if moves[s] else float("nan")}
    return out


def _openspiel_pair(job: tuple) -> dict[str, Any]:
    """One deal of the duplicate match, played twice with the sides swapped (``openspiel_match``)."""
    from open_spiel.python.algorithms import ismcts, mcts

    from dixenv import openspiel as X

    pair, deals, simulations, seed, uct_c, ours, players = job
    sides = ("openspiel", "ours")
    made = {s: 0 for s in sides}
    points = {s: 0.0 for s in sides}
    moves = {s: 0 for s in sides}
    think = {s: 0.0 for s in sides}
    deal_seed = derive_seed(seed, pair) % (1 << 31)  # OpenSpiel parameters are 32-bit ints
    for swap in (False, True):
        game = X.load_game("le_dix", num_players=players, deals=str(deals), hook=True, returns="points", rng_seed=deal_seed)
        bot_seed = derive_seed(seed, pair, int(swap))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(bot_seed))
        bots = {
            "openspiel": ismcts.ISMCTSBot(game, evaluator, uct_c=uct_c, max_simulations=simulations,
                                          random_state=np.random.RandomState(bot_seed)),
            "ours": X.DixenvBot(game, ours, seed=bot_seed),
        }
        # ISMCTSBot draws its worlds with pyspiel.UniformProbabilitySampler, which takes no seed:
        # the same uniform sampler from a seeded generator makes the match reproducible.
        worlds = np.random.RandomState(derive_seed(seed, pair, int(swap), 2) % (1 << 32))
        bots["openspiel"].set_resampler(lambda s, player, uniform=worlds.uniform: s.resample_from_infostate(player, uniform))
        who = [sides[(s + swap) % 2] for s in range(players)]
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            side = who[state.current_player()]
            if len(legal) == 1:  # forced: no search, as in the environments
                action = legal[0]
            else:
                t0 = time.perf_counter()
                action = bots[side].step(state)
                think[side] += time.perf_counter() - t0
                moves[side] += 1
            state.apply_action(action)
        for s, p in enumerate(state.returns()):
            made[who[s]] += p > 0
            points[who[s]] += p
    seat_deals = players  # each side sat in players/2 seats in each of the two games
    diff = (points["ours"] - points["openspiel"]) / seat_deals
    return {"made": made, "points": points, "moves": moves, "think": think, "diff": diff}


# --- tables -----------------------------------------------------------------------------------------


def tournament_row(summary: dict[str, Any]) -> str:
    """One Markdown row of a saved tournament: game, agent, opponent, games, win share, ms/move, made bids."""
    agent = summary["agents"][0]
    me = summary["agents_summary"][summary["labels"][0]]
    others = [v for k, v in summary["agents_summary"].items() if k != summary["labels"][0]]
    lo, hi = me["win_ci95"]
    seats = len(summary["agents"])
    even = 1 / seats if seats > 1 else float("nan")
    made = "" if "made_bid_rate" not in me else f"{me['made_bid_rate']:.3f} ({np.mean([o['made_bid_rate'] for o in others]):.3f})"
    even_text = "" if math.isnan(even) else f" (even {even:.2f})"
    return (f"| {summary['game']} | `{agent}` | {summary['opponent']} ×{max(seats - 1, 1)} | {summary['games']} | "
            f"{me['win_share']:.3f} [{lo:.3f}, {hi:.3f}]{even_text} | {me['ms_per_move']:.0f} | {made} |")


def tournament_table(summaries: Sequence[dict[str, Any]]) -> str:
    """The tournaments as a Markdown table."""
    head = ["| game | agent | opponents | games | win share [95% CI] | ms/move | made-bid rate (opponents') |",
            "|---|---|---|---|---|---|---|"]
    return "\n".join(head + [tournament_row(s) for s in summaries])


def openspiel_table(summaries: Sequence[dict[str, Any]]) -> str:
    """The duplicate matches against ISMCTSBot as a Markdown table."""
    rows = ["| cards | simulations | ours | deals × 2 | made bids: ours | made bids: ISMCTSBot | points/deal ours − ISMCTSBot [95% CI] | ms/move ours / ISMCTSBot |",
            "|---|---|---|---|---|---|---|---|"]
    for s in summaries:
        o, t = s["ours"], s["openspiel"]
        d, h = s["points_difference_per_deal"], s["points_difference_ci95_half_width"]
        rows.append(f"| {s['options']['deals'][0]} | {s['simulations']} | `{s['ours_agent']}` | {s['pairs']} | {o['made_bid_rate']:.3f} | "
                    f"{t['made_bid_rate']:.3f} | {d:+.2f} [{d - h:+.2f}, {d + h:+.2f}] | {o['ms_per_move']:.0f} / {t['ms_per_move']:.0f} |")
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for s in summaries:
        groups.setdefault(_match_setting(s), []).append(s)
    for (cards, simulations, ours, _), runs in groups.items():
        if len(runs) < 2 or len({r["seed"] for r in runs}) < len(runs):
            continue  # one run, or the same deals twice (a repeated seed): nothing to pool
        p = pool_openspiel(runs)
        d, h = p["points_difference_per_deal"], p["points_difference_ci95_half_width"]
        rows.append(f"| {cards} | {simulations} | `{ours}`, {len(runs)} runs pooled | {p['pairs']} | {p['ours']['made_bid_rate']:.3f} | "
                    f"{p['openspiel']['made_bid_rate']:.3f} | {d:+.2f} [{d - h:+.2f}, {d + h:+.2f}] | |")
    return "\n".join(rows)


def _match_setting(summary: dict[str, Any]) -> tuple:
    """What must agree for two duplicate matches to be pooled: cards, simulations, our agent, ISMCTSBot's c."""
    return (summary["options"]["deals"][0], summary["simulations"], summary["ours_agent"], summary["uct_c"])


def pool_openspiel(summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Several duplicate matches of one setting (different seeds) as one: the mean paired
    difference over all their pairs with its 95% interval, and the pooled made-bid rates.

    The interval is that of the combined sample, recovered exactly from each run's pairs, mean
    and half-width (``mean_ci``: half = 1.96 sd / sqrt(n)): the pooled sum of squares is each
    run's (n - 1) sd² plus n (its mean - the pooled mean)².
    """
    settings = {_match_setting(s) for s in summaries}
    if len(settings) != 1:
        raise ValueError(f"cannot pool matches of different settings (cards, simulations, ours, uct_c): {sorted(settings, key=str)}")
    seeds = [s["seed"] for s in summaries]
    if len(set(seeds)) < len(seeds):
        raise ValueError(f"cannot pool matches that share a seed (they played the same deals): seeds {seeds}")
    ns = [s["pairs"] for s in summaries]
    means = [s["points_difference_per_deal"] for s in summaries]
    sds = [s["points_difference_ci95_half_width"] * math.sqrt(n) / Z95 for s, n in zip(summaries, ns)]
    n = sum(ns)
    mean = sum(k * m for k, m in zip(ns, means)) / n
    squares = sum((k - 1) * sd**2 + k * (m - mean) ** 2 for k, m, sd in zip(ns, means, sds))
    out: dict[str, Any] = {"pairs": n, "seeds": seeds, "points_difference_per_deal": mean,
                           "points_difference_ci95_half_width": Z95 * math.sqrt(squares / (n - 1)) / math.sqrt(n)}
    for side in ("openspiel", "ours"):
        seat_deals = sum(s[side]["seat_deals"] for s in summaries)
        made = sum(s[side]["made_bid_rate"] * s[side]["seat_deals"] for s in summaries)
        lo, hi = wilson_interval(round(made), seat_deals)
        out[side] = {"seat_deals": seat_deals, "made_bid_rate": made / seat_deals, "made_ci95": [lo, hi]}
    return out


# --- the command line -------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    p = argparse.ArgumentParser(prog="python -m experiments.search_stats", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tournament", help="a search agent against copies of an opponent")
    t.add_argument("--game", required=True, choices=game_names())
    t.add_argument("--agent", required=True, help="e.g. ismcts:iterations=100")
    t.add_argument("--opponent", default="heuristic", help="the agent in every other seat (default heuristic)")
    t.add_argument("--games", type=int, default=1000)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option, e.g. solo=True")
    t.add_argument("--workers", type=int, default=1)
    t.add_argument("--out", help="write the summary JSON here")
    o = sub.add_parser("openspiel", help="le_dix duplicate match against OpenSpiel's ISMCTSBot through dixenv.openspiel")
    o.add_argument("--deals", type=int, default=10, help="cards per player in the single deal (default 10)")
    o.add_argument("--simulations", type=int, default=100, help="simulations per move, both sides (default 100)")
    o.add_argument("--pairs", type=int, default=100, help="deals, each played twice with the sides swapped (default 100)")
    o.add_argument("--seed", type=int, default=0)
    o.add_argument("--uct-c", type=float, default=7.0,
                   help="ISMCTSBot's UCT constant; its returns are 0 or 10 points, ours are scaled to 0..1 with c=0.7 (default 7)")
    o.add_argument("--ours", default=None, help="our agent (default ismcts:iterations=SIMULATIONS,rollout=random)")
    o.add_argument("--workers", type=int, default=1, help="processes, each playing whole pairs (default 1; same figures)")
    o.add_argument("--out", help="write the summary JSON here")
    r = sub.add_parser("regret", help="simple regret of search settings against a high-budget reference search")
    r.add_argument("--game", required=True, choices=game_names())
    r.add_argument("--agent", action="append", required=True, help="a setting to measure (repeatable)")
    r.add_argument("--reference", required=True, help="the high-budget search whose root means judge the moves, e.g. ismcts:iterations=3000")
    r.add_argument("--positions", type=int, default=60, help="decisions drawn from heuristic self-play (default 60)")
    r.add_argument("--repeats", type=int, default=3, help="seeds of each setting per decision (default 3)")
    r.add_argument("--seed", type=int, default=500)
    r.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option")
    r.add_argument("--out", help="write the summary JSON here")
    tb = sub.add_parser("table", help="Markdown tables of saved results")
    tb.add_argument("files", nargs="+")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    from dixenv.agents.registry import parse_key_values

    args = build_parser().parse_args(argv)
    if args.command == "table":
        loaded = [json.loads(Path(f).read_text()) for f in args.files]
        tours = [s for s in loaded if s.get("kind") == "tournament"]
        matches = [s for s in loaded if s.get("kind") == "openspiel"]
        if tours:
            print(tournament_table(tours) + "\n")
        if matches:
            print(openspiel_table(matches))
        for s in loaded:
            if s.get("kind") == "regret":
                print("\n" + regret_table(s))
        return 0
    t0 = time.perf_counter()
    if args.command == "tournament":
        summary = tournament(args.game, args.agent, args.opponent, args.games, args.seed, parse_key_values(args.option), args.workers)
    elif args.command == "regret":
        summary = regret(args.game, args.agent, args.reference, args.positions, args.repeats, args.seed, parse_key_values(args.option))
        print(regret_table(summary))
    else:
        ours = args.ours or f"ismcts:iterations={args.simulations},rollout=random"
        summary = openspiel_match(args.deals, args.simulations, args.pairs, args.seed, args.uct_c, ours, workers=args.workers)
        print(openspiel_table([summary]))
    summary["command"] = "python -m experiments.search_stats " + " ".join(sys.argv[1:] if argv is None else argv)
    summary["wall_seconds"] = time.perf_counter() - t0
    if args.out:
        path = Path(args.out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(to_jsonable(summary), indent=2) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
