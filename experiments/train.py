"""Train a masked-PPO agent on a dixenv single-agent environment, then evaluate it.

``python -m experiments.train`` trains sb3-contrib's MaskablePPO on the default game — solo dix
against ALIX (``dixenv/DixSolo-v0``, difficulty 4) — with a progress bar, then plays evaluation
episodes with the trained policy and with a random policy on the same seeds, and prints both win
rates with 95% confidence intervals. Other games: ``--env dixenv/LeDix-v0 --option num_players=3
--option opponents=random`` (any id registered by dixenv, any of its options).

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib): install torch's CPU build
first (``pip install torch==2.13.0``), then ``pip install -e ".[train]"``.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

import gymnasium
import numpy as np

import dixenv  # noqa: F401  (registers the environment ids)

DEFAULT_ENV = "dixenv/DixSolo-v0"


@dataclass
class EvalResult:
    """Outcome of evaluation episodes for one policy."""

    policy: str
    episodes: int
    wins: float
    draws: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_reward: float


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["difficulty=6", "opponents=random"]`` -> ``{"difficulty": 6, "opponents": "random"}``."""
    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"option {pair!r} must look like key=value")
        key, text = pair.split("=", 1)
        try:
            options[key] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            options[key] = text
    return options


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson 95% interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(env_id: str, options: dict[str, Any], choose: Callable[[np.ndarray, np.ndarray], int], name: str, episodes: int, seed: int) -> EvalResult:
    """Play ``episodes`` with ``choose(obs, mask) -> action`` on seeds seed, seed+1, …; a win is a final reward > 0."""
    env = gymnasium.make(env_id, **options)
    wins = draws = 0
    total = 0.0
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        done, reward = False, 0.0
        while not done:
            obs, reward, terminated, truncated, info = env.step(choose(obs, info["action_mask"]))
            total += reward
            done = terminated or truncated
        wins += reward > 0
        draws += reward == 0
    env.close()
    low, high = wilson(wins, episodes)
    return EvalResult(name, episodes, wins, draws, wins / episodes, low, high, total / episodes)


def train(env_id: str, options: dict[str, Any], timesteps: int, seed: int, progress_bar: bool = True, **ppo_kwargs: Any):
    """Train MaskablePPO on ``env_id`` for ``timesteps`` steps; returns the model."""
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as exc:  # the train extra is optional
        raise SystemExit(
            "training needs the train extra: pip install torch==2.13.0 && pip install -e '.[train]'"
        ) from exc
    env = gymnasium.make(env_id, **options)
    params = {"n_steps": 1024, "batch_size": 256, "learning_rate": 3e-4, "gamma": 0.995, "ent_coef": 0.01}
    params.update(ppo_kwargs)
    model = MaskablePPO("MlpPolicy", env, seed=seed, verbose=0, device="cpu", **params)
    model.learn(total_timesteps=timesteps, progress_bar=progress_bar)
    return model


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default=DEFAULT_ENV, help=f"Gymnasium id (default {DEFAULT_ENV})")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="environment option, repeatable")
    parser.add_argument(
        "--train-reward",
        default="points",
        choices=["points", "win"],
        help="reward while training (default points: dense game points; evaluation always counts wins)",
    )
    parser.add_argument("--timesteps", type=int, default=60_000, help="training steps (default 60,000: a few minutes on 2 cores)")
    parser.add_argument("--eval-episodes", type=int, default=300, help="evaluation episodes per policy (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="results/maskable_ppo", help="where to save the model (.zip) and the results (.json)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    options = parse_options(args.option)

    start = time.perf_counter()
    model = train(args.env, {**options, "reward": args.train_reward}, args.timesteps, args.seed, progress_bar=not args.no_progress)
    options = {**options, "reward": "win"}
    seconds = time.perf_counter() - start
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out.with_suffix(".zip"))

    def trained(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    rng = np.random.default_rng(args.seed)

    def random_policy(obs: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(len(legal))])

    eval_seed = 1_000_000 + args.seed  # evaluation seeds differ from anything seen in training
    results = [
        evaluate(args.env, options, trained, "maskable_ppo", args.eval_episodes, eval_seed),
        evaluate(args.env, options, random_policy, "random", args.eval_episodes, eval_seed),
    ]
    print(f"\n{args.env} {options or ''}: trained {args.timesteps:,} steps in {seconds:.0f} s; "
          f"evaluation on {args.eval_episodes} episodes (same seeds for both policies)")
    print(f"{'policy':<14}{'win rate [95% CI]':<26}{'draws':>6}{'mean reward':>13}")
    for r in results:
        print(f"{r.policy:<14}{r.win_rate:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]{'':<6}{r.draws:>6}{r.mean_reward:>13.3f}")
    summary = {
        "env": args.env,
        "options": options,
        "timesteps": args.timesteps,
        "train_seconds": seconds,
        "results": [asdict(r) for r in results],
    }
    out.with_suffix(".json").write_text(json.dumps(summary, indent=2, default=str))
    print(f"model: {out.with_suffix('.zip')}  results: {out.with_suffix('.json')}")
    return summary


if __name__ == "__main__":
    main()
