"""OpenSkill ratings for a pool of agents, from random tables played with the tournament machinery.

``run_rating(game, agent_names, num_games, options, workers, seed, players)`` draws ``players``
agents without replacement for each game, plays the games in parallel (``run_tasks``) and fits
Plackett-Luce ratings game by game in game order, each seat its own team ranked by the game's
result. ``openskill`` is optional: without it ``run_rating`` fails at once with a clear message.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from dixenv.agents.registry import make_agent, parse_agent_spec, resolve_game
from dixenv.experiments.tournament import (
    Task,
    derive_seed,
    make_env,
    run_tasks,
    to_jsonable,
    unique_labels,
)


@dataclass
class Rating:
    """OpenSkill ratings fitted on random tables drawn from a pool of agents."""

    game: str
    agents: list[str]
    options: dict[str, Any]
    seed: int
    records: list[dict[str, Any]]
    ratings: dict[str, dict[str, float]]
    seconds: float = 0.0

    def table(self) -> str:
        """Agents by ordinal rating (mu − 3 sigma), best first."""
        head = ["agent", "ordinal", "mu", "sigma", "games", "win share"]
        rows = [
            [label, f"{r['ordinal']:.2f}", f"{r['mu']:.2f}", f"{r['sigma']:.2f}", str(r["games"]), f"{r['win_share']:.3f}"]
            for label, r in sorted(self.ratings.items(), key=lambda kv: -kv[1]["ordinal"])
        ]
        widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items()))
        lines = [
            f"{self.game} [{opts}]: OpenSkill Plackett-Luce ratings from {len(self.records)} random tables, seed {self.seed}; "
            f"{self.seconds:.1f} s",
            "  ".join(h.ljust(w) for h, w in zip(head, widths)),
            "  ".join("-" * w for w in widths),
        ]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
        return "\n".join(lines)

    def to_json(self, path: str | Path) -> Path:
        """Write ratings and setup as JSON."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"game": self.game, "agents": self.agents, "options": self.options, "seed": self.seed,
                "games": len(self.records), "seconds": self.seconds, "ratings": self.ratings}
        path.write_text(json.dumps(to_jsonable(data), indent=2) + "\n")
        return path


def _openskill_model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError as exc:
        raise ImportError(
            "--rating needs the optional package 'openskill' (pip install openskill, or the dev extra)"
        ) from exc
    return PlackettLuce()


def fit_ratings(records: Iterable[dict[str, Any]], labels: Sequence[str], model: Any = None) -> dict[str, dict[str, float]]:
    """Fit OpenSkill ratings game by game (in record order); each seat is its own team, ranked by the game's result."""
    model = model or _openskill_model()
    current = {label: model.rating(name=label) for label in labels}
    games = dict.fromkeys(labels, 0)
    wins = dict.fromkeys(labels, 0.0)
    for r in records:
        if r["truncated"]:
            continue
        table = r["labels"]
        teams = [[current[label]] for label in table]
        ranks = [r["ranks"][seat] for seat in r["seats"]]
        new = model.rate(teams, ranks=ranks)
        for label, team, seat in zip(table, new, r["seats"]):
            current[label] = team[0]
            games[label] += 1
            wins[label] += r["wins"][seat]
    return {
        label: {
            "ordinal": float(current[label].ordinal()),
            "mu": float(current[label].mu),
            "sigma": float(current[label].sigma),
            "games": games[label],
            "win_share": wins[label] / games[label] if games[label] else float("nan"),
        }
        for label in labels
    }


def run_rating(
    game: str,
    agent_names: Sequence[str],
    num_games: int,
    options: dict[str, Any] | None = None,
    workers: int | None = None,
    seed: int = 0,
    players: int | None = None,
    progress: bool = False,
    start_method: str | None = None,
    rotate: bool = False,
) -> Rating:
    """Play ``num_games`` random tables of ``players`` agents drawn from the pool, then fit OpenSkill ratings.

    ``rotate``: each table drawn is played once per seat rotation on the same deal (``num_games``
    tables, ``num_games x players`` games), so no agent gains from its seat or its cards.
    """
    model = _openskill_model()  # fail before playing if openskill is missing
    game = resolve_game(game)
    options = dict(options or {})
    if options.get("solo"):
        raise ValueError("rating needs at least two agent seats; solo dix has one (use a tournament instead)")
    if players is not None:
        options["num_players"] = players
    probe = make_env(game, options)
    table_size = len(probe.possible_agents)
    pool = list(agent_names)
    if len(pool) < table_size:
        raise ValueError(f"rating {table_size}-seat tables needs at least {table_size} agents in the pool, got {len(pool)}: {pool}")
    labels = unique_labels(pool)
    for spec in pool:
        parse_agent_spec(spec)
        make_agent(game, spec, probe, seed=0)
    rng = np.random.default_rng(seed)
    tasks: list[Task] = []
    chosen: list[list[int]] = []
    for g in range(num_games):
        drawn = [int(i) for i in rng.choice(len(pool), size=table_size, replace=False)]
        for r in range(table_size if rotate else 1):
            idx = drawn[r:] + drawn[:r]
            chosen.append(idx)
            seeds = tuple(derive_seed(seed, g, i, 2) for i in idx)
            tasks.append((len(tasks), g, r, derive_seed(seed, g), tuple(pool[i] for i in idx), seeds))
    t0 = time.perf_counter()
    records = run_tasks(game, options, tasks, workers, progress, start_method)
    for r in records:
        r["labels"] = [labels[i] for i in chosen[r["game_id"]]]
    ratings = fit_ratings(records, labels, model)
    return Rating(game, pool, options, seed, records, ratings, time.perf_counter() - t0)
