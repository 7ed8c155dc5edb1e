"""Train any dixenv game with Ray RLlib (PPO, new API stack), on one machine or on a Ray cluster.

Every seat learns: one module shared by all seats (default), one module per seat
(``--policies per-seat``), or self-play (``--self-play``: a learner whose seat rotates from episode
to episode, against frozen snapshots of itself refreshed every ``--snapshot-every`` iterations)::

    python -m experiments.train_rllib --game le_dix --option num_players=4 --iterations 20 --out runs/le_dix
    python -m experiments.train_rllib --game dix --option solo=True --env-runners 2
    python -m experiments.train_rllib --game dix_de_suite --self-play --address auto   # on a Ray cluster

It saves the RLlib checkpoint (``OUT/checkpoint``), exports each learned module in dixenv's policy
format (``OUT/final.npz`` + ``OUT/final.json``; with ``--policies per-seat`` ``OUT/final_player_0`` …),
which plays with numpy only, anywhere an agent is asked for::

    python -m experiments.evaluate --game le_dix --agents policy:runs/le_dix/final heuristic heuristic heuristic

and writes ``OUT/summary.json`` (settings, returns and throughput per iteration). An exported
policy can also be made later from any checkpoint: ``--export-from OUT/checkpoint --out PATH``.
Needs the ``rllib`` extra (``pip install torch==2.13.0 && pip install -e ".[rllib]"``); see
docs/guides/scale-out.md for clusters.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from dixenv.agents.registry import GAMES, parse_key_values, resolve_game

CHECKPOINT_METADATA = "dixenv.json"  # beside RLlib's own files in a checkpoint: what was trained


def keep_local_ray_on_loopback() -> None:
    """Make a single-machine Ray instance listen on 127.0.0.1 only, with no usage reporting.

    Without it Ray binds its services to the machine's network address, which a run on one
    machine does not need. Ray reads these variables when it is imported, so this must run first;
    it changes nothing that is already set. Not for cluster runs: a driver on loopback could not be
    reached by the other nodes.
    """
    if "ray" in sys.modules:
        return  # too late to matter, and the caller's Ray settings stand
    # Ray uses loopback addresses when "clusters" are off (its setting for macOS and Windows).
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    p = argparse.ArgumentParser(prog="python -m experiments.train_rllib", description=__doc__.splitlines()[0])
    p.add_argument("--game", default="le_dix", help=f"one of {', '.join(GAMES)} (default le_dix)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="game option, repeatable: num_players=3, solo=True, difficulty=6, deals=(5,)")
    p.add_argument("--train-reward", default="points", choices=["points", "win"],
                   help="the reward option while training (default points, as experiments.train)")
    p.add_argument("--policies", default="shared", choices=["shared", "per-seat"],
                   help="one module for every seat (default) or one per seat")
    p.add_argument("--self-play", action="store_true", help="learner against frozen snapshots of itself")
    p.add_argument("--snapshots", type=int, default=3, help="self-play: snapshot opponents kept (default 3)")
    p.add_argument("--snapshot-every", type=int, default=5, help="self-play: iterations between snapshots (default 5)")
    p.add_argument("--iterations", type=int, default=10, help="training iterations (default 10)")
    p.add_argument("--env-runners", type=int, default=0, help="remote EnvRunner actors (default 0: sample in this process)")
    p.add_argument("--envs-per-runner", type=int, default=8, help="games stepped together per EnvRunner (default 8)")
    p.add_argument("--train-batch", type=int, default=4000, help="env steps per iteration (default 4000)")
    p.add_argument("--minibatch", type=int, default=256, help="PPO minibatch size (default 256)")
    p.add_argument("--epochs", type=int, default=10, help="PPO epochs per iteration (default 10)")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--hidden", type=int, nargs="+", default=[256, 256], help="hidden layer sizes (default 256 256)")
    p.add_argument("--activation", default="tanh", choices=["tanh", "relu"])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/rllib", help="output folder (default runs/rllib)")
    p.add_argument("--checkpoint-every", type=int, default=0, help="also checkpoint every N iterations (default: at the end only)")
    p.add_argument("--address", default=None,
                   help="Ray cluster to join ('auto' or HOST:PORT); default: start Ray on this machine, on loopback")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of a Ray started here (default: all)")
    p.add_argument("--torch-threads", type=int, default=1,
                   help="torch threads in this process (default 1: batches of a few observations are "
                        "slower with more, several times so on a busy machine)")
    p.add_argument("--export-from", default=None, metavar="CHECKPOINT",
                   help="export a module of this checkpoint to --out (a policy path) instead of training")
    p.add_argument("--module", default=None, help="with --export-from: the module to export (default: the first trained)")
    return p


def training_settings(args: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``rllib_support.build_config`` from the command line."""
    return {
        "game": resolve_game(args.game),
        "options": options,
        "policies": args.policies,
        "self_play": args.self_play,
        "snapshots": args.snapshots,
        "snapshot_every": args.snapshot_every,
        "num_env_runners": args.env_runners,
        "envs_per_runner": args.envs_per_runner,
        "hidden": tuple(args.hidden),
        "activation": args.activation,
        "train_batch_size": args.train_batch,
        "minibatch_size": args.minibatch,
        "num_epochs": args.epochs,
        "lr": args.lr,
        "seed": args.seed,
    }


def jsonable(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` with tuples as lists, as JSON writes them (so a saved and a fresh copy compare equal)."""
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in settings.items()}


def export_name(module_id: str, trained: list[str]) -> str:
    """``final`` for the one learned module, ``final_<module>`` when each seat has its own."""
    return "final" if len(trained) == 1 else f"final_{module_id}"


def throughput(iterations: list[dict[str, Any]]) -> float:
    """Env steps per second over the iterations after the first (which also builds and warms up)."""
    timed = iterations[1:] or iterations
    seconds = sum(it["seconds"] for it in timed)
    return sum(it["env_steps"] for it in timed) / seconds if seconds else 0.0


def module_returns(result: dict[str, Any]) -> dict[str, float]:
    """Mean episode return per module this iteration (a seat's own reward, not the table's sum)."""
    returns = result.get("env_runners", {}).get("module_episode_returns_mean", {})
    return {str(k): round(float(v), 4) for k, v in returns.items()}


def train(settings: dict[str, Any], iterations: int, out: Path, checkpoint_every: int = 0) -> dict[str, Any]:
    """Build PPO from ``settings``, train ``iterations``, checkpoint and export to ``out``; the summary."""
    from dixenv.experiments import rllib_support as rs

    config = rs.build_config(**settings)
    trained = rs.trained_modules(config)
    algo = config.build_algo()
    history: list[dict[str, Any]] = []
    try:
        for i in range(1, iterations + 1):
            start = time.perf_counter()
            result = algo.train()
            seconds = time.perf_counter() - start
            steps = int(result["env_runners"].get("num_env_steps_sampled", 0))
            history.append({"iteration": i, "env_steps": steps, "seconds": round(seconds, 3),
                            "returns": module_returns(result)})
            print(f"iteration {i:>3}: {steps:>6} env steps in {seconds:6.1f} s ({steps / seconds:7.0f}/s)  "
                  f"mean return {history[-1]['returns'] or '(no game ended yet)'}", flush=True)
            if checkpoint_every and i % checkpoint_every == 0 and i < iterations:
                save_checkpoint(algo, out / f"checkpoint_{i:05d}", settings, trained)
        checkpoint = save_checkpoint(algo, out / "checkpoint", settings, trained)
        exported = {}
        for module_id in trained:
            module = rebuilt_module(config, module_id, algo.learner_group.get_weights([module_id])[module_id])
            npz, _ = rs.export_policy(module, out / export_name(module_id, trained), settings["game"], settings["options"],
                                      **exported_training(settings, module_id))
            exported[module_id] = str(npz.with_suffix(""))
    finally:
        algo.stop()
    summary = {
        "settings": jsonable(settings),
        "checkpoint": str(checkpoint),
        "policies": exported,
        "env_steps": sum(it["env_steps"] for it in history),
        "seconds": round(sum(it["seconds"] for it in history), 3),
        "env_steps_per_second": round(throughput(history), 1),
        "iterations": history,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def exported_training(settings: dict[str, Any], module_id: str) -> dict[str, Any]:
    """How a module was trained, for its policy metadata."""
    keys = ("policies", "self_play", "hidden", "train_batch_size", "num_epochs", "lr", "seed")
    return {"module_id": module_id, **jsonable({k: settings[k] for k in keys})}


def rebuilt_module(config: Any, module_id: str, weights: dict[str, Any]) -> Any:
    """A local copy of one module of ``config`` with ``weights`` (the learners may be on other nodes)."""
    module = config.rl_module_spec.rl_module_specs[module_id].build()
    module.set_state(weights)
    return module


def save_checkpoint(algo: Any, path: Path, settings: dict[str, Any], trained: list[str]) -> Path:
    """RLlib's checkpoint at ``path`` plus ``dixenv.json`` (game, options, settings) for later exports."""
    algo.save_to_path(str(path.resolve()))
    meta = {"settings": jsonable(settings), "trained": trained}
    (path / CHECKPOINT_METADATA).write_text(json.dumps(meta, indent=2) + "\n")
    return path


def export_from_checkpoint(checkpoint: str | Path, out: str | Path, module_id: str | None = None) -> tuple[Path, Path]:
    """Export one learned module of a checkpoint saved by this script to the policy ``out``."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    from dixenv.experiments import rllib_support as rs

    checkpoint = Path(checkpoint)
    meta_path = checkpoint / CHECKPOINT_METADATA
    if not meta_path.exists():
        raise ValueError(f"{checkpoint} is not a checkpoint saved by experiments.train_rllib (no {CHECKPOINT_METADATA})")
    meta = json.loads(meta_path.read_text())
    trained = meta["trained"]
    module_id = module_id or trained[0]
    if module_id not in trained:
        raise ValueError(f"module {module_id!r} was not trained in {checkpoint}; trained modules: {trained}")
    module = RLModule.from_checkpoint(checkpoint / "learner_group" / "learner" / "rl_module" / module_id)
    settings = meta["settings"]
    return rs.export_policy(module, out, settings["game"], settings["options"], **exported_training(settings, module_id))


def start_ray(address: str | None, num_cpus: int | None) -> None:
    """Join the cluster at ``address``, or start Ray here (on loopback) with ``num_cpus``."""
    if address is None:
        keep_local_ray_on_loopback()
    import ray

    if address is None:
        ray.init(num_cpus=num_cpus, include_dashboard=False)
    else:
        if num_cpus is not None:
            raise ValueError("--num-cpus is for a Ray started here; a cluster's CPUs are set by `ray start --num-cpus`")
        ray.init(address=address)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train (or export with ``--export-from``) from the command line; returns the summary."""
    args = build_parser().parse_args(argv)
    options = parse_key_values(args.option)
    if args.export_from:  # needs ray's code, not a running Ray
        npz, meta = export_from_checkpoint(args.export_from, args.out, args.module)
        print(f"policy: {npz} + {meta}")
        return {"policy": str(npz.with_suffix(""))}
    if "reward" in options:
        raise ValueError("set the training reward with --train-reward, not --option reward=…")
    options["reward"] = args.train_reward
    settings = training_settings(args, options)
    start_ray(args.address, args.num_cpus)
    import ray
    import torch

    torch.set_num_threads(args.torch_threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        summary = train(settings, args.iterations, out, args.checkpoint_every)
    finally:
        ray.shutdown()
    print(f"{summary['env_steps']:,} env steps in {summary['seconds']:.0f} s; "
          f"{summary['env_steps_per_second']:.0f} env steps/s after the first iteration")
    print(f"checkpoint: {summary['checkpoint']}  policies: {summary['policies']}  summary: {out / 'summary.json'}")
    return summary


if __name__ == "__main__":
    main()
