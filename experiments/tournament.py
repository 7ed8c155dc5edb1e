"""Tournaments between agents on any dixenv game: seat rotation, replayed deals, parallel play.

``run_tournament(game, agent_names, num_games, options, workers, seed)`` plays the agents against
each other. Games come in groups of one *deal seed* and every cyclic rotation of the agent list
over the seats: each rotation resets with the same seed, so the same cards are dealt and every
agent sits once in every seat with every hand (duplicate-style play, which cancels much of the
luck of the deal). Games run in worker processes (spawn-safe: workers import this module and get
only picklable task tuples) and come back as per-game records; ``Results`` turns them into a table,
a CSV of per-game rows and a JSON summary.

Ratings over a pool of agents (``run_rating``) live in ``experiments.rating`` and reuse ``run_tasks``.

Win counting: at the end, the seats whose ranking key (``state.ranking_keys()``) is the highest
share the win, each getting 1/k of it for k such seats. With teams (``state.teams()``), the
winning *teams* share it: every member of a winning team gets 1/k for k winning teams, as the
team's result is each member's (the ``reward="win"`` convention). A truncated game gives nobody a
win. Without teams, win shares add up to 1 per untruncated game over all seats.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from dixenv.agents.registry import env_module, make_agent, resolve_game
from dixenv.experiments.game_stats import make_hook
from dixenv.experiments.progress import progress_bar
from dixenv.experiments.workers import worker_pool

Z95 = 1.959963984540054  # two-sided 95% normal quantile

# --------------------------------------------------------------------------------------------
# statistics


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional successes, e.g. shared wins, are allowed)."""
    if n <= 0:
        return (float("nan"), float("nan"))
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1.0 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    # At p = 0 (or 1) the bound is exactly 0 (or 1); rounding would leave it a hair inside.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Mean and the half-width of its normal 95% confidence interval (nan half-width below 2 values)."""
    if len(values) == 0:
        return (float("nan"), float("nan"))
    a = np.asarray(values, dtype=float)
    if len(a) < 2:
        return (float(a.mean()), float("nan"))
    return (float(a.mean()), float(z * a.std(ddof=1) / math.sqrt(len(a))))


def derive_seed(*parts: int) -> int:
    """A 32-bit seed that depends only on ``parts`` (so results do not depend on chunking or workers)."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1)[0])


# --------------------------------------------------------------------------------------------
# playing games (this part runs in the worker processes)

# One task: (game_id, base, rotation, deal_seed, specs per agent seat, agent seeds per agent seat)
Task = tuple[int, int, int, int, tuple[str, ...], tuple[int, ...]]

_ENVS: dict[tuple[str, str], Any] = {}  # per-process cache: (game, repr(options)) -> raw env


def _options_key(options: dict[str, Any]) -> str:
    return repr(sorted(options.items()))


def make_env(game: str, options: dict[str, Any]) -> Any:
    """A bare (``raw_env``) environment of ``game`` with ``options``; illegal actions raise ``ValueError``."""
    return env_module(game).raw_env(**options)


def _cached_env(game: str, options: dict[str, Any]) -> Any:
    key = (game, _options_key(options))
    env = _ENVS.get(key)
    if env is None:
        env = _ENVS[key] = make_env(game, options)
    return env


def agent_seats(env: Any) -> list[int]:
    """Seat numbers of the env's agents (``player_K`` -> K), in ``possible_agents`` order."""
    return [int(a.rsplit("_", 1)[1]) for a in env.possible_agents]


def _fingerprint(state: Any) -> str:
    """A short hash of the full table after reset: equal for equal deals, whoever sits where."""
    try:
        text = state.render_text()
    except Exception:  # a game still being written may lack it; the fingerprint is only a check
        return ""
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def play_game(
    game: str, options: dict[str, Any], task: Task, env: Any | None = None, record_dir: str | Path | None = None
) -> dict[str, Any]:
    """Play one game described by ``task`` and return its record (scores, win shares, figures).

    With ``record_dir``, the game is also written there as a game record (``dixenv.replay``:
    game, options, deal seed, seats, moves), ``<game>_<game_id>.json``, which replays exactly.
    """
    game_id, base, rotation, deal_seed, specs, seeds = task
    env = env if env is not None else _cached_env(game, options)
    u = env.unwrapped
    names = list(env.possible_agents)
    seats = agent_seats(env)
    agents = {name: make_agent(game, spec, env, seed=s) for name, spec, s in zip(names, specs, seeds)}
    seat_of = dict(zip(names, seats))
    hook = make_hook(game)
    env.reset(seed=deal_seed)
    start = _fingerprint(u.state)
    hook.start(env)
    steps = 0
    n_seats = len(u.scores())
    moves, think = [0] * n_seats, [0.0] * n_seats  # per seat: decisions and seconds spent in act()
    clock = time.perf_counter
    actions: list[int] | None = [] if record_dir is not None else None
    while True:
        name = env.agent_selection
        if env.terminations[name] or env.truncations[name]:
            break
        obs = env.observe(name)
        t0 = clock()
        action = agents[name].act(obs)
        think[seat_of[name]] += clock() - t0
        moves[seat_of[name]] += 1
        env.step(action)
        if actions is not None:
            actions.append(int(action))
        steps += 1
        hook.after_step(env, seat_of[name], u.action_to_string(action))
    state = u.state
    truncated = not state.is_terminal()
    scores = [float(s) for s in u.scores()]
    keys = state.ranking_keys()
    n = len(keys)
    ranks = [1 + sum(1 for o in keys if o > k) for k in keys]
    shares = [0.0] * n
    if not truncated:
        best = max(keys)
        winners = [s for s in range(n) if keys[s] == best]
        teams = state.teams()
        parts = len(winners) if teams is None else len({teams[s] for s in winners})
        for s in winners:
            shares[s] = 1.0 / parts
    figures = hook.seat_figures(env)
    if record_dir is not None:
        from dixenv.replay import make_record, save_record

        save_record(make_record(game, options, deal_seed, specs, actions or [], scores, agent_seeds=list(seeds), game_id=game_id),
                    Path(record_dir) / f"{game}_{game_id:06d}.json")
    return {
        "game_id": game_id,
        "base": base,
        "rotation": rotation,
        "deal_seed": deal_seed,
        "start": start,
        "truncated": truncated,
        "steps": steps,
        "seats": seats,
        "specs": list(specs),
        "scores": scores,  # every seat of the table, env-played seats (ALIX) included
        "wins": shares,
        "ranks": ranks,
        "figures": figures,
        "moves": moves,  # per seat: decisions its agent made (env-played seats: 0)
        "think_seconds": think,  # per seat: seconds its agent spent choosing them
    }


def _play_chunk(args: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Worker entry point: play a list of tasks in this process (a 4th item: the records' folder)."""
    game, options, tasks = args[:3]
    record_dir = args[3] if len(args) > 3 else None
    return [play_game(game, options, t, record_dir=record_dir) for t in tasks]


def run_tasks(
    game: str,
    options: dict[str, Any],
    tasks: list[Task],
    workers: int | None = None,
    progress: bool = False,
    start_method: str | None = None,
    record_dir: str | Path | None = None,
) -> list[dict[str, Any]]:
    """Play every task, in ``workers`` processes (1: in this process), records sorted by game id.

    With ``record_dir``, every game is also written there as a game record (``play_game``).

    Worker processes start with ``spawn`` unless ``start_method`` says otherwise (fork hangs with
    agents that use torch once the parent process has used it).
    """
    workers = (os.cpu_count() or 1) if workers is None else max(1, int(workers))
    records: list[dict[str, Any]] = []
    bar = progress_bar(len(tasks), progress, unit="game", desc=game, smoothing=0.05)
    try:
        if workers == 1 or len(tasks) <= 1:
            for t in tasks:
                records.append(play_game(game, options, t, record_dir=record_dir))
                bar.update(1)
        else:
            size = max(1, min(64, math.ceil(len(tasks) / (workers * 8))))
            chunks = [(game, options, tasks[i : i + size]) + ((str(record_dir),) if record_dir is not None else ())
                      for i in range(0, len(tasks), size)]
            # spawn by default: a forked worker inherits the parent's torch/OpenMP thread pools in a
            # broken state and hangs at its first tensor operation when the parent already ran
            # one (a policy agent is built in the parent to check it, before the pool starts).
            with worker_pool(workers, start_method or "spawn") as pool:
                for recs in pool.imap_unordered(_play_chunk, chunks):
                    records.extend(recs)
                    bar.update(len(recs))
    finally:
        bar.close()
    records.sort(key=lambda r: r["game_id"])
    return records


# --------------------------------------------------------------------------------------------
# tournaments


def unique_labels(specs: Sequence[str]) -> list[str]:
    """Agent specs made unique for display: ``random, random`` -> ``random, random#2``."""
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return out


def _check_setup(game: str, agent_names: Sequence[str], options: dict[str, Any]) -> tuple[str, dict[str, Any], Any]:
    """Canonical game, options with ``num_players`` filled in, and a probe env; clear errors if inconsistent."""
    game = resolve_game(game)
    options = dict(options or {})
    names = list(agent_names)
    if not names:
        raise ValueError("no agents given")
    if "num_players" not in options and not options.get("solo"):
        options["num_players"] = len(names)
    env = make_env(game, options)
    seats = len(env.possible_agents)
    if seats != len(names):
        raise ValueError(
            f"{game} with options {options} has {seats} agent seat(s) but {len(names)} agent(s) were given: {names}"
        )
    for spec in names:  # fail now, in the parent, on a bad name or a missing agent module
        make_agent(game, spec, env, seed=0)
    return game, options, env


@dataclass
class Results:
    """Per-game records of a tournament and what is computed from them."""

    game: str
    agents: list[str]
    options: dict[str, Any]
    seed: int
    records: list[dict[str, Any]]
    seconds: float = 0.0
    labels: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.labels:
            self.labels = unique_labels(self.agents)

    # -- per-agent views -------------------------------------------------------------------------
    def entry_seat(self, record: dict[str, Any], entry: int) -> int:
        """Index (into the record's seat lists) of agent entry ``entry`` in that game."""
        return (entry + record["rotation"]) % len(record["specs"])

    @property
    def num_games(self) -> int:
        return len(self.records)

    @property
    def truncated(self) -> int:
        return sum(1 for r in self.records if r["truncated"])

    @property
    def solo(self) -> bool:
        """True when the env plays seats of its own (solo dix: ALIX)."""
        return bool(self.records) and len(self.records[0]["scores"]) > len(self.records[0]["seats"])

    def summary(self) -> dict[str, dict[str, Any]]:
        """Per agent label: games, win share and its Wilson 95% CI, mean score and CI, game figures."""
        hook = make_hook(self.game)
        out: dict[str, dict[str, Any]] = {}
        for j, label in enumerate(self.labels):
            wins, scores, figures = [], [], []
            moves = think = 0.0
            for r in self.records:
                i = self.entry_seat(r, j)
                seat = r["seats"][i]
                wins.append(r["wins"][seat])
                scores.append(r["scores"][seat])
                figures.append(r["figures"][seat])
                moves += r["moves"][seat]
                think += r["think_seconds"][seat]
            n = len(wins)
            w = float(sum(wins))
            lo, hi = wilson_interval(w, n)
            mean, half = mean_ci(scores)
            out[label] = {
                "agent": self.agents[j],
                "games": n,
                "wins": w,
                "win_share": w / n if n else float("nan"),
                "win_ci95": [lo, hi],
                "mean_score": mean,
                "score_ci95_half_width": half,
                "ms_per_move": 1000 * think / moves if moves else float("nan"),
                **hook.summarize(figures),
            }
        return out

    def env_seat_summary(self) -> dict[int, dict[str, float]]:
        """For seats the env plays itself (ALIX in solo dix): their win share and mean score."""
        if not self.solo:
            return {}
        first = self.records[0]
        own = set(first["seats"])
        out = {}
        for seat in range(len(first["scores"])):
            if seat in own:
                continue
            wins = [r["wins"][seat] for r in self.records]
            mean, half = mean_ci([r["scores"][seat] for r in self.records])
            out[seat] = {"win_share": float(np.mean(wins)), "mean_score": mean, "score_ci95_half_width": half}
        return out

    # -- output --------------------------------------------------------------------------------
    def table(self) -> str:
        """The per-agent results as a fixed-width text table."""
        summ = self.summary()
        display = make_hook(self.game).display
        head = ["agent", "games", "win share [95% CI]", "mean score ± 95% CI", "ms/move"] + [t for _, t in display]
        rows = []
        for label, s in summ.items():
            lo, hi = s["win_ci95"]
            rows.append(
                [
                    label,
                    str(s["games"]),
                    f"{s['win_share']:.3f} [{lo:.3f}, {hi:.3f}]",
                    _pm(s["mean_score"], s["score_ci95_half_width"]),
                    _ms(s["ms_per_move"]),
                ]
                + [_num(s.get(k)) for k, _ in display]
            )
        for seat, s in self.env_seat_summary().items():
            rows.append(
                [f"(env seat {seat}{': ALIX' if self.game == 'dix' else ''})", str(self.num_games), f"{s['win_share']:.3f}", _pm(s["mean_score"], s["score_ci95_half_width"]), ""]
                + ["" for _ in display]
            )
        widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
        lines = [self.header(), "  ".join(h.ljust(w) for h, w in zip(head, widths))]
        lines.append("  ".join("-" * w for w in widths))
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
        return "\n".join(lines)

    def header(self) -> str:
        """One line saying what was played."""
        rotations = len(self.agents)
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items()))
        rate = f", {self.num_games / self.seconds:.0f} games/s" if self.seconds > 0 else ""
        trunc = f", {self.truncated} truncated (no winner)" if self.truncated else ""
        return (
            f"{self.game} [{opts}]: {self.num_games} games = {self.num_games // max(rotations, 1)} deal seeds × "
            f"{rotations} seat rotation(s), seed {self.seed}{trunc}; {self.seconds:.1f} s{rate}"
        )

    def rows(self) -> list[dict[str, Any]]:
        """Flat per-game rows (one per game; per-agent columns suffixed with the agent's index)."""
        out = []
        for r in self.records:
            row: dict[str, Any] = {k: r[k] for k in ("game_id", "base", "rotation", "deal_seed", "start", "truncated", "steps")}
            for j, spec in enumerate(self.agents):
                i = self.entry_seat(r, j)
                seat = r["seats"][i]
                row[f"agent{j}"] = spec
                row[f"seat{j}"] = seat
                row[f"score{j}"] = r["scores"][seat]
                row[f"win{j}"] = r["wins"][seat]
                row[f"rank{j}"] = r["ranks"][seat]
                row[f"moves{j}"] = r["moves"][seat]
                row[f"think{j}"] = r["think_seconds"][seat]
                for k, v in r["figures"][seat].items():
                    row[f"{k}{j}"] = v
            for seat in range(len(r["scores"])):
                if seat not in r["seats"]:
                    row[f"env_score{seat}"] = r["scores"][seat]
                    row[f"env_win{seat}"] = r["wins"][seat]
            out.append(row)
        return out

    def to_csv(self, path: str | Path) -> Path:
        """Write the per-game rows as CSV."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        rows = self.rows()
        fields = list(rows[0]) if rows else ["game_id"]
        with path.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
        return path

    def summary_dict(self) -> dict[str, Any]:
        """Everything the JSON summary holds."""
        return {
            "game": self.game,
            "agents": self.agents,
            "labels": self.labels,
            "options": self.options,
            "seed": self.seed,
            "games": self.num_games,
            "rotations": len(self.agents),
            "truncated": self.truncated,
            "seconds": self.seconds,
            "win_counting": "the seats (with teams: the teams) with the highest ranking key share the win (1/k each); truncated games: no win",
            "agents_summary": self.summary(),
            "env_seats": {str(k): v for k, v in self.env_seat_summary().items()},
        }

    def to_json(self, path: str | Path) -> Path:
        """Write the summary as JSON."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(to_jsonable(self.summary_dict()), indent=2) + "\n")
        return path

    def save(self, out: str | Path) -> tuple[Path, Path]:
        """Write ``<out>.csv`` (rows) and ``<out>.json`` (summary); ``out`` may end in either suffix or none."""
        out = Path(out)
        stem = out.with_suffix("") if out.suffix in (".csv", ".json") else out
        return self.to_csv(stem.with_suffix(".csv")), self.to_json(stem.with_suffix(".json"))


def _pm(mean: float, half: float) -> str:
    if math.isnan(half):
        return f"{mean:.2f}"
    return f"{mean:.2f} ± {half:.2f}"


def _ms(x: float) -> str:
    if math.isnan(x):
        return "—"
    return f"{x:.3g}"


def _num(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, float) and math.isnan(x):
        return "—"
    return f"{x:.3f}" if isinstance(x, float) else str(x)


def to_jsonable(x: Any) -> Any:
    """``x`` with tuples as lists, NaN as None and numpy scalars as Python numbers (for JSON)."""
    if isinstance(x, dict):
        return {str(k): to_jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_jsonable(v) for v in x]
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, np.generic):
        return x.item()
    return x


def tournament_tasks(agent_names: Sequence[str], num_games: int, seed: int) -> list[Task]:
    """Deal seeds × cyclic rotations: rotation r puts agent entry j in agent seat (j + r) mod m."""
    m = len(agent_names)
    bases = max(1, math.ceil(num_games / m))
    tasks: list[Task] = []
    for base in range(bases):
        deal_seed = derive_seed(seed, base)
        for r in range(m):
            seat_entry = [(i - r) % m for i in range(m)]  # entry sitting in agent seat i
            specs = tuple(agent_names[e] for e in seat_entry)
            seeds = tuple(derive_seed(seed, base, r, e, 1) for e in seat_entry)
            tasks.append((base * m + r, base, r, deal_seed, specs, seeds))
    return tasks


def run_tournament(
    game: str,
    agent_names: Sequence[str],
    num_games: int,
    options: dict[str, Any] | None = None,
    workers: int | None = None,
    seed: int = 0,
    progress: bool = False,
    start_method: str | None = None,
    record_dir: str | Path | None = None,
) -> Results:
    """Play ``agent_names`` (one per agent seat) against each other; games rounded up to whole rotations.

    ``record_dir``: write every game there as a game record too (``dixenv.replay``).
    """
    game, options, _ = _check_setup(game, agent_names, options or {})
    tasks = tournament_tasks(list(agent_names), num_games, seed)
    t0 = time.perf_counter()
    records = run_tasks(game, options, tasks, workers, progress, start_method, record_dir=record_dir)
    return Results(game, list(agent_names), options, seed, records, time.perf_counter() - t0)
