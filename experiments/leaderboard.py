"""A leaderboard per game: every shipped agent rated together by one command.

``python -m experiments.leaderboard --game le_dix --tables 200`` draws random tables of the game's
default size from the pool (every agent the registry lists for the game: random, the heuristic and
its frozen versions, ALIX, the shipped ``ppo`` policy where one fits the table, and the search
agents at the presets in ``SEARCH_SPECS``), plays each table once per seat rotation on the same
deal, and fits OpenSkill (Plackett-Luce) ratings (``experiments.rating.run_rating(rotate=True)``).
It writes ``docs/results/leaderboard/<game>.json`` (ratings, pool, games, seconds, the command and
the date) and prints the table in Markdown; ``--write-docs`` puts it in
``docs/results/leaderboard.md`` between the game's generated markers.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from pathlib import Path
from typing import Any, Sequence

from dixenv.agents.registry import list_agents, make_agent
from dixenv.experiments.rating import Rating, run_rating
from dixenv.experiments.tournament import make_env, to_jsonable
from dixenv.games import game_names, game_spec

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "results" / "leaderboard"
PAGE = ROOT / "docs" / "results" / "leaderboard.md"
#: The search agents on the leaderboard: their presets (``agents/search/``), each game's strongest
#: measured setting and the cheap one.
SEARCH_SPECS = ("ismcts:preset=strongest", "ismcts:preset=fast", "pimc:preset=fast")
#: Names that are not agents of their own on a leaderboard (``policy`` needs a file).
NOT_RATED = ("policy",)


def default_pool(game: str, options: dict[str, Any]) -> list[str]:
    """Every agent of ``game`` that can sit at a table with ``options``, search agents at ``SEARCH_SPECS``."""
    env = make_env(game, options)
    pool = []
    for name in list_agents(game):
        if name in NOT_RATED:
            continue
        specs = [s for s in SEARCH_SPECS if s.split(":")[0] == name] or [name]
        for spec in specs:
            try:
                make_agent(game, spec, env, seed=0)
            except (ValueError, ImportError, FileNotFoundError) as exc:
                print(f"  {spec}: left out ({exc})", file=sys.stderr)
                continue
            pool.append(spec)
    return pool


def markdown(rating: Rating, command: str, date: str) -> str:
    """The rating as a Markdown table with its command and date."""
    rows = ["| rank | agent | ordinal (μ − 3σ) | μ | σ | games | win share |", "|---|---|---|---|---|---|---|"]
    ranked = sorted(rating.ratings.items(), key=lambda kv: -kv[1]["ordinal"])
    for k, (label, r) in enumerate(ranked, 1):
        rows.append(f"| {k} | `{label}` | {r['ordinal']:.2f} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['games']} | {r['win_share']:.3f} |")
    opts = ", ".join(f"{k}={v!r}" for k, v in sorted(rating.options.items()))
    head = (f"{rating.game} ({opts}): {len(rating.records)} games ({len(rating.records) // max(1, _table_size(rating))} tables, "
            f"every seat rotation on the same deal), seed {rating.seed}, {rating.seconds:,.0f} s; {date}.\n\n"
            f"`{command}`\n\n")
    return head + "\n".join(rows) + "\n"


def _table_size(rating: Rating) -> int:
    return len(rating.records[0]["specs"]) if rating.records else 1


def write_page(game: str, block: str, page: Path | None = None) -> Path:
    """Put ``block`` between the game's markers on the leaderboard page (``PAGE`` by default; added at the end if absent)."""
    page = PAGE if page is None else page
    text = page.read_text() if page.exists() else "# Leaderboards\n"
    start, end = f"<!-- leaderboard: {game} -->", f"<!-- end leaderboard: {game} -->"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    new = f"{start}\n{block}{end}"
    text = pattern.sub(lambda m: new, text) if pattern.search(text) else text.rstrip() + f"\n\n## {game}\n\n{new}\n"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(text)
    return page


def main(argv: Sequence[str] | None = None) -> int:
    """Rate a game's pool and write the leaderboard."""
    p = argparse.ArgumentParser(prog="python -m experiments.leaderboard", description=__doc__.splitlines()[0])
    p.add_argument("--game", required=True, choices=game_names())
    p.add_argument("--tables", type=int, default=200, help="random tables drawn (each played in every seat rotation; default 200)")
    p.add_argument("--pool", nargs="+", help="agent specs to rate (default: every agent of the game, see SEARCH_SPECS)")
    p.add_argument("--players", type=int, help="table size (default: the game's default table)")
    p.add_argument("--seed", type=int, default=20261204)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--out", type=Path, help="JSON output (default docs/results/leaderboard/GAME.json)")
    p.add_argument("--write-docs", action="store_true", help="also write the table into docs/results/leaderboard.md")
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    options = dict(game_spec(args.game).default_table)
    if args.players:
        options["num_players"] = args.players
    pool = args.pool or default_pool(args.game, options)
    rating = run_rating(args.game, pool, args.tables, {k: v for k, v in options.items() if k != "num_players"}, args.workers,
                        args.seed, players=options.get("num_players"), progress=not args.no_progress, rotate=True)
    command = "python -m experiments.leaderboard " + " ".join(sys.argv[1:] if argv is None else argv)
    date = dt.date.today().isoformat()
    block = markdown(rating, command, date)
    print(block)
    out = args.out or OUT / f"{args.game}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    data = {"game": rating.game, "pool": pool, "options": rating.options, "seed": rating.seed, "games": len(rating.records),
            "seconds": rating.seconds, "ratings": rating.ratings, "command": command, "date": date}
    out.write_text(json.dumps(to_jsonable(data), indent=2) + "\n")
    if args.write_docs:
        write_page(args.game, block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
