"""Train a masked-PPO agent on any dixenv game, evaluate it, and save it as a policy agents can load.

    python -m experiments.train                                  # the quick preset: dix, 2 players, a few minutes
    python -m experiments.train --preset le_dix --out runs/le_dix
    python -m experiments.train --preset dix --self-play 0.5 --timesteps 2000000
    python -m experiments.train --env dixenv/LeDix-v0 --option num_players=3 --opponents heuristic random

What a run does (sb3-contrib's MaskablePPO on ``dixenv.vector``, several games stepped together):

0. With ``--hint heuristic`` the policy sees, beside the observation, the heuristic's move there
   (one-hot, ``dixenv.agents.hints``): it learns where to depart from the heuristic rather than
   how to compute what the heuristic computes. The saved policy's metadata says so, and the agent
   that plays it adds the same hint.
1. Warm start (optional, on by default): the learner's seat is played by a baseline agent (the
   game's heuristic) for some games; the network learns its moves and the critic the returns
   (``experiments.imitation``), so PPO starts from the baseline's play instead of from random moves.
2. PPO against the opponents: fixed baselines (one per seat, or ``name=weight`` mixed per episode),
   and with ``--self-play R`` a share R of the opponent seats taken from a pool of frozen snapshots
   of the learner (one added every ``--snapshot-every`` updates, the last ``--pool-size`` kept,
   sampled per episode and seat, acting in batches). The learner's seat rotates every episode.
3. Every ``--eval-every`` steps the current policy is evaluated with the tournament code (seat
   rotation, replayed deals, Wilson intervals) against the heuristic and random tables; the figures
   go to the logs (TensorBoard, ``progress.csv``) and ``eval.csv``; checkpoints are saved.
4. At the end: ``final.npz`` + ``final.json`` (the policy and its metadata: env id, options, layout
   fingerprint), ``model.zip`` (to resume), ``curve.png`` (learning curve), and the final table:
   the trained agent beside the heuristic and random on the same unseen deals.

``python -m experiments.evaluate --game le_dix --agents policy:runs/le_dix/final heuristic heuristic heuristic``
plays the result afterwards. Needs the ``train`` extra: ``pip install torch==2.13.0`` first, then
``pip install -e ".[train]"``.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import os
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from dixenv.agents.registry import parse_key_values, parse_value
from dixenv.experiments.presets import PRESETS, Preset, get_preset

EVAL_SEED = 1_000_003  # deals of evaluations during training; never the training games' (those come from other streams)
FINAL_SEED = 2_000_003  # deals of the final table


# --------------------------------------------------------------------------------------------
# opponents: baselines, mixes and the snapshot pool


def parse_opponents(items: Sequence[str]) -> tuple[list[str], list[tuple[str, float]]]:
    """``["heuristic", "random"]`` -> per seat; ``["heuristic=0.7", "random=0.3"]`` -> a mix drawn per episode and seat."""
    mixed = [i for i in items if "=" in i and not i.startswith("policy:")]
    if mixed and len(mixed) != len(items):
        raise ValueError(f"opponents {list(items)}: give either one agent per seat or name=weight entries, not both")
    if not mixed:
        return list(items), []
    mix = []
    for item in items:
        name, _, weight = item.rpartition("=")
        value = parse_value(weight)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise ValueError(f"opponent weight in {item!r} must be a positive number")
        mix.append((name, float(value)))
    return [], mix


class MatchMaker:
    """Who sits where in each new episode of each game: the learner's seat and every opponent.

    The learner's seat is drawn uniformly among the agent seats (``rotate``) or fixed; each
    opponent seat takes, with probability ``self_play`` (once the pool is not empty), a snapshot of
    the learner drawn uniformly from the pool, else its baseline (per seat, or drawn from the mix).
    Baseline agents are built once per game slot and kept (they are per-game agents).
    """

    def __init__(self, raw_env: Any, per_seat: list[str], mix: list[tuple[str, float]], self_play: float = 0.0,
                 rotate: bool = True, pool_size: int = 20):
        if not 0.0 <= self_play <= 1.0:
            raise ValueError(f"self_play={self_play!r} must be a share from 0 to 1")
        self.raw_env = raw_env
        self.seats = [raw_env._seat_of[a] for a in raw_env.possible_agents]
        opponents = len(self.seats) - 1
        if per_seat and len(per_seat) not in (1, opponents):
            raise ValueError(f"{opponents} opponent(s) needed, got {len(per_seat)}: {per_seat}")
        self.per_seat = (per_seat * opponents if len(per_seat) == 1 else per_seat) if per_seat else []
        self.mix_names = [name for name, _ in mix]
        weights = np.array([w for _, w in mix], dtype=float)
        self.mix_p = weights / weights.sum() if mix else None
        if not self.per_seat and not mix and self_play < 1.0:
            raise ValueError("no opponents given: name one per seat, a mix, or self_play=1")
        self.self_play = float(self_play)
        self.rotate = rotate
        self.pool: list[Any] = []
        self.pool_size = pool_size
        self._agents: dict[tuple[int, int, str], Any] = {}

    def add_snapshot(self, agent: Any) -> None:
        """Put a frozen copy of the learner into the pool (the oldest leaves when it is full)."""
        self.pool.append(agent)
        del self.pool[: max(0, len(self.pool) - self.pool_size)]

    def _baseline(self, slot: int, k: int, name: str, rng: np.random.Generator) -> Any:
        key = (slot, k, name)
        agent = self._agents.get(key)
        if agent is None:
            from dixenv.agents.registry import make_agent

            agent = self._agents[key] = make_agent(self.raw_env.game.name, name, self.raw_env, seed=int(rng.integers(2**31)))
        return agent

    def __call__(self, slot: int, rng: np.random.Generator) -> tuple[int, list[Any]]:
        learner = self.seats[int(rng.integers(len(self.seats)))] if self.rotate else self.seats[0]
        opponents = []
        for k in range(len(self.seats) - 1):
            if self.pool and (self.self_play >= 1.0 or rng.random() < self.self_play):
                opponents.append(self.pool[int(rng.integers(len(self.pool)))])
                continue
            if self.mix_p is not None:
                name = self.mix_names[int(rng.choice(len(self.mix_names), p=self.mix_p))]
            elif self.per_seat:
                name = self.per_seat[k]
            else:  # self_play=1 with an empty pool: the learner's first snapshot is not there yet
                name = "random"
            opponents.append(self._baseline(slot, k, name, rng))
        return learner, opponents


# --------------------------------------------------------------------------------------------
# evaluation through the tournament code


def eval_tables(preset: Preset) -> dict[str, list[str]]:
    """The tables a candidate is evaluated at: against the heuristic and against random (solo: against ALIX)."""
    if not preset.eval_opponents:
        return {"ALIX": []}
    return {"heuristic": list(preset.eval_opponents), "random": ["random"] * len(preset.eval_opponents)}


def evaluate_candidate(preset: Preset, candidate: str, opponents: list[str], games: int, seed: int, workers: int) -> dict[str, Any]:
    """One tournament of ``candidate`` and ``opponents`` (seats rotated, deals replayed); the candidate's summary."""
    from dixenv.experiments.tournament import run_tournament

    results = run_tournament(preset.game, [candidate, *opponents], games, dict(preset.eval_options), workers=workers, seed=seed)
    summary = results.summary()[results.labels[0]]
    return {k: summary[k] for k in summary if k not in ("agent",)} | {"seconds": results.seconds}


# --------------------------------------------------------------------------------------------
# the run


def build_model(preset: Preset, venv: Any, seed: int, out: Path) -> Any:
    """A MaskablePPO with the preset's hyper-parameters and network, logging to ``out``."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure

    model = MaskablePPO("MlpPolicy", venv, seed=seed, verbose=0, device="cpu",
                        policy_kwargs={"net_arch": list(preset.net_arch), "activation_fn": torch.nn.Tanh}, **preset.ppo)
    model.set_logger(configure(str(out), ["csv", "tensorboard"]))
    return model


def _demonstrations(preset: Preset, games: int, seed: int, workers: int, learner: str | None = None) -> Any:
    """``games`` labelled games spread over every learner seat (played by the clone ``learner`` if given: DAgger)."""
    from dixenv.experiments.imitation import Demonstrations, collect

    options = {**preset.options, "reward": preset.train_reward}
    seats = _learner_seats(preset)
    parts = []
    for k, seat in enumerate(seats):
        opts = dict(options)
        if preset.opponents:
            opts["opponents"] = _fixed_opponents(preset)
            opts["learner_seat"] = seat
        count = games // len(seats) + (k < games % len(seats))
        if count:
            parts.append(collect(preset.env_id, opts, preset.warm_start, count, seed=seed + 100_000 * k, workers=workers,
                                 learner=learner, expert_share=0.0, hint=preset.hint, features=preset.features,
                                 targets=preset.warm_start_targets))
    played = f"the clone's moves labelled by {preset.warm_start}" if learner else f"{preset.warm_start}'s moves"
    source = (f"{played} on {preset.env_id} {preset.options}, features {preset.features}, hint {preset.hint}, "
              f"targets {preset.warm_start_targets}")
    return dataclasses.replace(Demonstrations.concatenate(parts), source=source)


def check_demonstrations(demos: Any, preset: Preset, model: Any, where: str) -> None:
    """Refuse demonstrations that do not fit the run: other inputs or actions, or no visit shares
    where the run clones them (with ``--warm-start-targets move`` a file's visit shares go unused)."""
    inputs, actions = model.observation_space.shape[0], model.action_space.n
    if demos.observations.shape[1] != inputs or demos.masks.shape[1] != actions:
        raise ValueError(f"{where}: {demos.observations.shape[1]} inputs and {demos.masks.shape[1]} actions, but this run's "
                         f"policy has {inputs} and {actions} (another game, table, hint or feature set?)")
    if demos.targets is None and preset.warm_start_targets == "visits":
        raise ValueError(f"{where}: moves only, but --warm-start-targets is 'visits'; give --warm-start-targets move, "
                         f"or demonstrations collected with visits")


def warm_start(preset: Preset, model: Any, seed: int, workers: int, log: Any, out: Path, metadata: dict[str, Any],
               demonstrations: Any = None, save_demonstrations: bool = False) -> dict[str, Any]:
    """Behaviour cloning of ``preset.warm_start`` in every learner seat (the critic on the returns), then DAgger rounds.

    ``demonstrations`` (``imitation.Demonstrations``, e.g. loaded from a file): clone these instead of
    collecting ``preset.warm_start_games`` games. ``save_demonstrations``: write everything cloned,
    DAgger rounds included, to ``out/demonstrations.npz`` (a search's labels cost minutes of CPU per
    thousand games; fitted again from the file, they cost nothing)."""
    from dixenv.agents.policy import from_sb3
    from dixenv.experiments.imitation import Demonstrations, pretrain

    start = time.perf_counter()
    if demonstrations is not None:
        check_demonstrations(demonstrations, preset, model, "the demonstrations given")
        demos = demonstrations
        log(f"the demonstrations given: {len(demos):,} decisions of {demos.source or 'an unrecorded source'}")
        if demos.targets is not None and preset.warm_start_targets == "move":
            log("the demonstrations' visit shares are not used: --warm-start-targets move clones the moves")
            demos = dataclasses.replace(demos, targets=None)
    else:
        demos = _demonstrations(preset, preset.warm_start_games, seed * 7919, workers)
    collected = time.perf_counter() - start
    history = pretrain(model, demos, epochs=preset.warm_start_epochs, seed=seed, smoothing=preset.warm_start_smoothing)
    info = {"agent": preset.warm_start, "targets": preset.warm_start_targets, "games": demos.episodes, "decisions": len(demos), "collect_seconds": collected,
            "pretrain_seconds": time.perf_counter() - start - collected, "accuracy": history[-1]["accuracy"]}
    source = "given" if demonstrations is not None else f"played in {collected:.0f} s"
    log(f"warm start: {demos.episodes} games of {preset.warm_start} ({len(demos):,} decisions, {source}); "
        f"cloned to {info['accuracy']:.1%} accuracy in {info['pretrain_seconds']:.0f} s")
    for r in range(preset.dagger_rounds):
        t0 = time.perf_counter()
        clone = out / "dagger_clone"  # the workers load the clone from a file (spawned processes)
        from_sb3(model, metadata).save(clone)
        new = _demonstrations(preset, preset.dagger_games, seed * 7919 + 1_000_000 * (r + 1), workers, learner=str(clone))
        demos = Demonstrations.concatenate([demos, new])
        history = pretrain(model, demos, epochs=preset.dagger_epochs, seed=seed + r + 1, smoothing=preset.warm_start_smoothing)
        log(f"DAgger round {r + 1}: {new.episodes} games played by the clone, labelled by {preset.warm_start}; "
            f"{len(demos):,} decisions in all, accuracy {history[-1]['accuracy']:.1%} ({time.perf_counter() - t0:.0f} s)")
    info.update(dagger_rounds=preset.dagger_rounds, dagger_games=preset.dagger_games, decisions=len(demos),
                accuracy=history[-1]["accuracy"], seconds=time.perf_counter() - start,
                loaded=demonstrations is not None, source=demos.source)
    if save_demonstrations:
        path = demos.save(out / "demonstrations.npz")
        log(f"demonstrations: {len(demos):,} decisions written to {path}")
    return info


def _learner_seats(preset: Preset) -> list[int]:
    from dixenv.agents.registry import env_module

    raw = env_module(preset.game).raw_env(**preset.eval_options)
    return [raw._seat_of[a] for a in raw.possible_agents]


def _fixed_opponents(preset: Preset) -> list[str]:
    per_seat, mix = parse_opponents(preset.opponents)
    if mix:  # warm start against the most likely baseline
        return [max(mix, key=lambda m: m[1])[0]] * (len(_learner_seats(preset)) - 1)
    return per_seat * (len(_learner_seats(preset)) - 1) if len(per_seat) == 1 else per_seat


def recorded_command(args: Sequence[str], out: Path) -> str:
    """The command line recorded in a trained policy's metadata, free of this machine's paths.

    ``--out`` is left out (the run is the folder the metadata is saved in), and any other absolute
    path in an argument (``policy:/…/final`` among the opponents, say) is written relative to the
    run folder ``out``.
    """
    run = os.path.abspath(out)
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in ("--out", "--ou"):  # argparse accepts the unambiguous prefix too
            skip = "=" not in arg
            continue
        kept.append("".join(_relative(part, run) for part in re.split(r"([:=,])", arg)))
    return shlex.join(["python", "-m", "experiments.train", *kept])


def _relative(part: str, run: str) -> str:
    if not part or not os.path.isabs(part):
        return part
    try:
        return os.path.relpath(part, run)
    except ValueError:  # another drive (Windows): keep only the name
        return os.path.basename(part)


def train(preset: Preset, out: Path, seed: int = 0, workers: int = 2, progress: bool = True, log: Any = print,
          command_args: Sequence[str] | None = None, demonstrations: Any = None,
          save_demonstrations: bool = False) -> dict[str, Any]:
    """Run the whole pipeline of the module docstring; returns the summary (also written to ``out/summary.json``).

    ``demonstrations`` and ``save_demonstrations``: the warm start's (``warm_start``).

    ``command_args``: the command-line arguments recorded in the policy's metadata (default
    ``sys.argv[1:]``), as ``recorded_command`` writes them: without ``--out`` or absolute paths.
    """
    import torch
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
    from torch.distributions import Distribution

    from dixenv.agents.policy import PolicyAgent, from_sb3, policy_metadata
    from dixenv.vector import SB3VecEnv, VectorEnv

    torch.set_num_threads(1)  # measured: 2 threads made small forward passes many times slower here
    Distribution.set_default_validate_args(False)  # sb3-contrib's masked distribution spends ~10% validating
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()

    options = {**preset.options, "reward": preset.train_reward}
    per_seat, mix = parse_opponents(preset.opponents)
    from dixenv.agents.registry import env_module

    raw = env_module(preset.game).raw_env(**preset.eval_options)
    maker = None
    if preset.opponents or preset.self_play:
        maker = MatchMaker(raw, per_seat, mix, preset.self_play, rotate=True, pool_size=preset.pool_size)
        options["opponents"] = _fixed_opponents(preset) if preset.opponents else "random"
    venv = VectorEnv(preset.env_id, preset.n_envs, match_maker=maker, **options)
    vec = SB3VecEnv(venv)
    vec.seed(seed)
    if preset.features:
        from dixenv.agents.features import Featurizer, featured_vec_env

        vec = featured_vec_env(vec, Featurizer(venv.raw_env, preset.features))
    if preset.hint:
        from dixenv.agents.hints import Hinter, hinted_vec_env

        vec = hinted_vec_env(vec, Hinter(venv.raw_env, preset.hint, seed=seed))
    model = build_model(preset, vec, seed, out)
    metadata = policy_metadata(preset.env_id, preset.options, venv.raw_env, hint=preset.hint, features=preset.features,
                               preset=preset_dict(preset), seed=seed)

    ws_info = None
    if preset.warm_start:
        ws_info = warm_start(preset, model, seed, workers, log, out, metadata, demonstrations, save_demonstrations)
    timings["warm_start"] = time.perf_counter() - t0
    if preset.trainer == "selfplay":
        return _train_selfplay(preset, out, seed, workers, progress, log, command_args, metadata, model, ws_info, timings, t0)

    eval_rows: list[dict[str, Any]] = []
    tables = eval_tables(preset)
    snapshots = out / "snapshots"

    def evaluate_now(step: int) -> None:
        path = snapshots / f"step_{step}"
        from_sb3(model, metadata | {"training": {"timesteps": step}}).save(path)
        for table, opponents in tables.items():
            row = evaluate_candidate(preset, f"policy:{path}", opponents, preset.eval_games, EVAL_SEED + seed, workers)
            row = {"step": step, "table": table, **{k: v for k, v in row.items() if not isinstance(v, list)},
                   "ci_low": row["win_ci95"][0], "ci_high": row["win_ci95"][1]}
            eval_rows.append(row)
            model.logger.record(f"eval/{table}/win_share", row["win_share"])
            for key in ("made_bid_rate", "round_win_share", "points_per_game"):
                if key in row:
                    model.logger.record(f"eval/{table}/{key}", row[key])
            log(f"step {step:,}: vs {table}: win share {row['win_share']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}]")
        _write_rows(out / "eval.csv", eval_rows)

    class Periodic(BaseCallback):
        """Evaluations every ``eval_every`` steps and snapshots into the self-play pool every ``snapshot_every`` updates."""

        def __init__(self) -> None:
            super().__init__()
            self.next_eval = preset.eval_every if preset.eval_every > 0 else float("inf")
            self.updates = 0
            self.snapshots = 0
            self.eval_seconds = 0.0

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next_eval:
                start = time.perf_counter()
                evaluate_now(self.num_timesteps)
                self.eval_seconds += time.perf_counter() - start
                self.next_eval += preset.eval_every
            return True

        def _on_rollout_end(self) -> None:
            self.updates += 1
            if maker is not None and preset.self_play and self.updates % preset.snapshot_every == 0:
                snapshot = PolicyAgent(raw, policy=from_sb3(self.model, metadata), deterministic=False,
                                       seed=int(self.updates))
                maker.add_snapshot(snapshot)
                self.snapshots += 1

    periodic = Periodic()
    checkpoints = CheckpointCallback(save_freq=max(1, preset.eval_every // preset.n_envs), save_path=str(out / "checkpoints"),
                                     name_prefix="model")
    if preset.eval_every:
        evaluate_now(0)  # the starting point: the warm-started (or random) policy
    t1 = time.perf_counter()
    model.learn(preset.timesteps, callback=CallbackList([periodic, checkpoints]), progress_bar=progress)
    timings["ppo"] = time.perf_counter() - t1 - periodic.eval_seconds
    timings["evaluation_during_training"] = periodic.eval_seconds
    model.save(out / "model.zip")
    training = {"timesteps": preset.timesteps, "seed": seed, "warm_start": ws_info,
                "seconds": time.perf_counter() - t0,
                "command": recorded_command(sys.argv[1:] if command_args is None else command_args, out)}
    final = from_sb3(model, metadata | {"training": training})
    final.save(out / "final")
    timings["train_total"] = time.perf_counter() - t0
    return _finish(preset, out, seed, workers, log, timings, ws_info, eval_rows, {"snapshots_added": periodic.snapshots})


def _finish(preset: Preset, out: Path, seed: int, workers: int, log: Any, timings: dict[str, float], ws_info: Any,
            eval_rows: list[dict[str, Any]], extra: dict[str, Any]) -> dict[str, Any]:
    """Step 4 of every run: the final table of ``out/final``, the curve, ``summary.json``; returns the summary."""
    t2 = time.perf_counter()
    table = final_table(preset, f"policy:{out / 'final'}", seed, workers)
    timings["final_evaluation"] = time.perf_counter() - t2
    if eval_rows:
        plot_curve(eval_rows, out / "curve.png", preset)
    summary = {"preset": preset_dict(preset), "seed": seed, "timings_seconds": timings, "warm_start": ws_info,
               **extra, "final": table, "eval_during_training": eval_rows}
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    log(format_final(preset, table, timings))
    return summary


def _train_selfplay(preset: Preset, out: Path, seed: int, workers: int, progress: bool, log: Any,
                    command_args: Sequence[str] | None, metadata: dict[str, Any], model: Any, ws_info: Any,
                    timings: dict[str, float], t0: float) -> dict[str, Any]:
    """Steps 2–4 with ``experiments.selfplay`` in place of MaskablePPO: the warm-started actor
    (``clone.npz``) plays every agent seat on the compiled engine; evaluations and the final table
    as for SB3 runs (the curve's evaluations against the heuristic table only)."""
    from dataclasses import asdict

    from dixenv.agents.policy import from_sb3
    from dixenv.experiments.selfplay import SelfPlay, SelfPlayConfig

    init = None
    if preset.warm_start:
        init = str(out / "clone")
        from_sb3(model, metadata).save(init)
    cfg = SelfPlayConfig(game=preset.game, options=dict(preset.eval_options), total_steps=preset.timesteps,
                         net_arch=tuple(preset.net_arch), reward=preset.train_reward, init=init, features=preset.features,
                         **preset.selfplay)
    run = SelfPlay(cfg, seed=seed)
    table = next(iter(eval_tables(preset)))
    snapshots = out / "snapshots"
    eval_rows: list[dict[str, Any]] = []

    def row(result: dict[str, Any]) -> dict[str, Any]:
        low, high = result["win_ci95"]
        log(f"step {result['steps']:,}: vs {table}: win share {result['win_share']:.3f} [{low:.3f}, {high:.3f}]")
        return {"step": result["steps"], "table": table, "games": result["games"], "win_share": result["win_share"],
                "mean_score": result["mean_score"], "ci_low": low, "ci_high": high}

    t1 = time.perf_counter()
    if preset.eval_every:  # the starting point: the warm-started (or random) policy
        eval_rows.append(row(run.evaluate(preset.eval_opponents, preset.eval_games, EVAL_SEED + seed, workers)))
        run.policy({"trainer": "experiments.selfplay", "steps": 0}).save(snapshots / "step_0")
    first_eval = time.perf_counter() - t1
    summary_sp = run.train(progress=progress, log=lambda text: None, eval_every=preset.eval_every, eval_games=preset.eval_games,
                           eval_opponents=preset.eval_opponents, eval_seed=EVAL_SEED + seed, workers=workers,
                           checkpoints=snapshots)
    for result in summary_sp["curve"]:
        eval_rows.append(row(result))
    _write_rows(out / "eval.csv", eval_rows)
    timings["ppo"] = summary_sp["seconds"]
    timings["evaluation_during_training"] = summary_sp["eval_seconds"] + first_eval
    training = {"trainer": "experiments.selfplay", "config": {**asdict(cfg), "net_arch": list(cfg.net_arch)},
                "timesteps": run.steps, "seed": seed, "warm_start": ws_info, "seconds": time.perf_counter() - t0,
                "command": recorded_command(sys.argv[1:] if command_args is None else command_args, out)}
    run.policy(training).save(out / "final")
    timings["train_total"] = time.perf_counter() - t0
    selfplay = {k: v for k, v in summary_sp.items() if k not in ("curve", "last_losses")}
    return _finish(preset, out, seed, workers, log, timings, ws_info, eval_rows, {"selfplay": selfplay})


def final_table(preset: Preset, trained: str, seed: int, workers: int) -> list[dict[str, Any]]:
    """The trained agent, the heuristic and random, each at the heuristic table (solo: against ALIX), same deals."""
    rows = []
    opponents = list(preset.eval_opponents)
    for name, candidate in (("trained", trained), ("heuristic", "heuristic"), ("random", "random")):
        row = evaluate_candidate(preset, candidate, opponents, preset.final_games, FINAL_SEED + seed, workers)
        rows.append({"candidate": name, **row})
    return rows


def format_final(preset: Preset, rows: list[dict[str, Any]], timings: dict[str, float]) -> str:
    """The final table as text, with the time each phase took."""
    against = "ALIX (the env plays her)" if not preset.eval_opponents else " + ".join(preset.eval_opponents)
    lines = [f"\n{preset.env_id} {preset.options}: each candidate against {against}, {rows[0]['games']} games on the same "
             f"unseen deals (seats rotated)",
             f"{'candidate':<11}{'win share [95% CI]':<26}{'mean score':>11}  {'game figure':<20}"]
    for r in rows:
        figure = next(((k, r[k]) for k in ("made_bid_rate", "round_win_share", "points_per_game") if k in r), None)
        fig = f"{figure[0]} {figure[1]:.3f}" if figure else ""
        lines.append(f"{r['candidate']:<11}{r['win_share']:.3f} [{r['win_ci95'][0]:.3f}, {r['win_ci95'][1]:.3f}]"
                     f"{'':<4}{r['mean_score']:>9.2f}  {fig}")
    t = timings
    lines.append(f"time: warm start {t.get('warm_start', 0):.0f} s, PPO {t.get('ppo', 0):.0f} s, evaluations during "
                 f"training {t.get('evaluation_during_training', 0):.0f} s, final evaluation {t.get('final_evaluation', 0):.0f} s")
    return "\n".join(lines)


def plot_curve(rows: list[dict[str, Any]], path: Path, preset: Preset) -> None:
    """Win share against training steps, per evaluation table, with the 95% interval as a band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for table in dict.fromkeys(r["table"] for r in rows):
        pts = [r for r in rows if r["table"] == table]
        x = [r["step"] for r in pts]
        ax.plot(x, [r["win_share"] for r in pts], marker="o", label=f"vs {table}")
        ax.fill_between(x, [r["ci_low"] for r in pts], [r["ci_high"] for r in pts], alpha=0.2)
    seats = len(preset.eval_opponents) + 1
    if preset.eval_opponents:
        ax.axhline(1 / seats, color="grey", linestyle="--", linewidth=1, label=f"fair share 1/{seats}")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win share")
    ax.set_ylim(0, 1)
    ax.set_title(f"{preset.env_id} {preset.options}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def preset_dict(preset: Preset) -> dict[str, Any]:
    from dataclasses import asdict

    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(preset).items()}


def _write_rows(path: Path, rows: list[dict[str, Any]]) -> None:
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


# --------------------------------------------------------------------------------------------
# command line


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m experiments.train", description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Presets: " + ", ".join(f"{k} ({v.env_id} {v.options})" for k, v in PRESETS.items()))
    p.add_argument("--preset", default="quick", help="starting point for every setting (default quick: dix at 2 players against the heuristic, minutes)")
    p.add_argument("--env", help="Gymnasium id (overrides the preset's; give --game-options to match)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="env option, repeatable (e.g. num_players=3)")
    p.add_argument("--opponents", nargs="+", help="one baseline per opponent seat, or name=weight entries mixed per episode")
    p.add_argument("--self-play", type=float, help="share of opponent seats taken from the learner's snapshots (0..1)")
    p.add_argument("--snapshot-every", type=int, help="PPO updates between snapshots")
    p.add_argument("--pool-size", type=int, help="snapshots kept in the pool")
    p.add_argument("--timesteps", type=int, help="PPO learner steps")
    p.add_argument("--n-envs", type=int, help="games stepped together")
    p.add_argument("--warm-start", help="agent to clone before PPO, or 'none'")
    p.add_argument("--warm-start-games", type=int, help="games the warm-start agent plays to make the demonstrations")
    p.add_argument("--warm-start-epochs", type=int, help="behaviour-cloning epochs over the demonstrations")
    p.add_argument("--warm-start-smoothing", type=float,
                   help="label smoothing over the legal moves while cloning (0..1; keeps the clone exploring in PPO)")
    p.add_argument("--warm-start-targets", choices=["move", "visits"],
                   help="what the clone learns: the warm-start agent's move (default), or an ismcts's share of root visits per move")
    p.add_argument("--demonstrations", metavar="FILE",
                   help="clone the demonstrations of this file (written by --save-demonstrations) instead of playing --warm-start-games")
    p.add_argument("--save-demonstrations", action="store_true",
                   help="write the demonstrations cloned (DAgger rounds included) to OUT/demonstrations.npz")
    p.add_argument("--dagger-rounds", type=int, help="DAgger rounds after the cloning (the clone plays, the warm-start agent labels)")
    p.add_argument("--dagger-games", type=int, help="games per DAgger round")
    p.add_argument("--train-reward", choices=["win", "points", "margin"],
                   help="reward while training: win, points (as scored) or margin (the change of the lead over the best rival); evaluation counts wins")
    p.add_argument("--trainer", choices=["sb3", "selfplay"],
                   help="sb3 (MaskablePPO against the opponents) or selfplay (PPO on the compiled engine, experiments.selfplay)")
    p.add_argument("--hint", help="advisor whose move the policy sees among its inputs (heuristic), or 'none'")
    p.add_argument("--features", help="feature set appended to the policy's observations (dixenv.agents.features; "
                                      "le_dix: cards, cards_bid; dix_de_suite: rack), or 'none'")
    p.add_argument("--net", help="hidden layer sizes, e.g. 256,256")
    p.add_argument("--ppo", action="append", default=[], metavar="KEY=VALUE", help="MaskablePPO argument, repeatable (e.g. learning_rate=3e-4)")
    p.add_argument("--eval-every", type=int, help="learner steps between evaluations (0: none)")
    p.add_argument("--eval-games", type=int, help="games per evaluation during training")
    p.add_argument("--final-games", type=int, help="games per candidate in the final table")
    p.add_argument("--workers", type=int, default=2, help="processes for data collection and evaluation (default 2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="output folder (default runs/PRESET)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def preset_from_args(args: argparse.Namespace) -> Preset:
    """The preset named by ``--preset`` with every command-line override applied."""
    preset = get_preset(args.preset)
    changes: dict[str, Any] = {}
    if args.env:
        changes["env_id"] = args.env
    options = parse_key_values(args.option)
    if options:
        changes["options"] = {**preset.options, **options}
        game_opts = {k: v for k, v in options.items() if k not in ("opponents", "learner_seat", "reward")}
        changes["eval_options"] = {**preset.eval_options, **game_opts}
    if args.opponents:
        parse_opponents(args.opponents)  # fails early on a bad list
        changes["opponents"] = tuple(args.opponents)
    for name in ("trainer", "self_play", "snapshot_every", "pool_size", "timesteps", "n_envs", "warm_start_games", "warm_start_epochs", "warm_start_smoothing", "warm_start_targets", "dagger_rounds", "dagger_games", "train_reward",
                 "eval_every", "eval_games", "final_games"):
        value = getattr(args, name)
        if value is not None:
            changes[name] = value
    if args.warm_start is not None:
        changes["warm_start"] = None if args.warm_start.lower() == "none" else args.warm_start
    if args.hint is not None:
        from dixenv.agents.hints import check_advisor

        changes["hint"] = None if args.hint.lower() == "none" else check_advisor(args.hint)
    if args.features is not None:
        from dixenv.agents.features import check_features

        changes["features"] = None if args.features.lower() == "none" else check_features(preset.game, args.features)
    if args.net:
        changes["net_arch"] = tuple(int(x) for x in args.net.split(","))
    if args.ppo:
        changes["ppo"] = {**preset.ppo, **parse_key_values(args.ppo, what="PPO argument")}
    preset = preset.with_(**changes)
    if preset.eval_opponents:  # the heuristic table follows the player count
        others = len(_learner_seats(preset)) - 1
        if len(preset.eval_opponents) != others:
            preset = preset.with_(eval_opponents=("heuristic",) * others)
    return preset


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = build_parser().parse_args(argv)
    try:
        preset = preset_from_args(args)
        demonstrations = None
        if args.demonstrations:
            if not preset.warm_start:
                raise ValueError("--demonstrations are cloned by the warm start, but it is off (--warm-start none)")
            from dixenv.experiments.imitation import Demonstrations

            demonstrations = Demonstrations.load(args.demonstrations)
        import sb3_contrib  # noqa: F401
    except ImportError:
        raise SystemExit("training needs the train extra: pip install torch==2.13.0 && pip install -e '.[train]'") from None
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None
    out = Path(args.out or f"runs/{args.preset}")
    print(f"training {preset.env_id} {preset.options} for {preset.timesteps:,} steps ({preset.n_envs} games at a time); "
          f"output in {out}/", flush=True)
    return train(preset, out, seed=args.seed, workers=args.workers, progress=not args.no_progress,
                 log=lambda text: print(text, flush=True), command_args=sys.argv[1:] if argv is None else list(argv),
                 demonstrations=demonstrations, save_demonstrations=args.save_demonstrations)


def cli() -> int:
    """The ``dixenv-train`` console script: ``main`` with exit status 0 (``main`` returns the run's summary)."""
    main()
    return 0


if __name__ == "__main__":
    main()
