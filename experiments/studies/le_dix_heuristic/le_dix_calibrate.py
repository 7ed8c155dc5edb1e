"""Refit the le_dix heuristic's per-card calibration (``agents.le_dix_heuristic._CALIB``).

Usage::

    python -m experiments.studies.le_dix_heuristic.le_dix_calibrate --games 500 400 300 --players 3 4 5 --seed 22

Plays heuristic games (half of them self-play, half with 1..n-1 random seats, so the fit also sees
weak tables), records for every heuristic bid (hands of two or more cards) the features of each
card (``LeDixHeuristic.calibration_features``, the very code the agent bids with) and whether that
card took a trick, then fits a logistic regression (Newton steps, light L2) and prints the weight
tuple to paste into ``_CALIB`` with the held-out log-loss of the raw and the calibrated model.
The outcome depends on the policy that played the games, so refit after changing the play and
iterate until the weights settle (two rounds were enough). This harness reads which cards won
each trick by wrapping the engine's ``trick_winner`` (statistics only).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

import dixenv.games.le_dix.state as engine
from dixenv.agents.base import RandomAgent
from dixenv.agents.le_dix_heuristic import _CALIB, LeDixHeuristic
from dixenv.le_dix_v0 import raw_env


def collect(players: int, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and took-a-trick labels of the heuristic's cards over ``games`` games."""
    winners: list[int] = []
    original = engine.trick_winner

    def recording(trick: list[tuple[int, int]], trump: int) -> int:
        seat = original(trick, trump)
        winners.append(dict(trick)[seat])
        return seat

    env = raw_env(num_players=players)
    agent = LeDixHeuristic(env)
    rnd = RandomAgent(env, seed=seed)
    rng = np.random.default_rng(seed)
    rows: list[list[float]] = []
    labels: list[int] = []
    engine.trick_winner = recording
    try:
        for g in range(games):
            env.reset(seed=seed * 100_003 + g)
            k = 0 if rng.random() < 0.5 else int(rng.integers(1, players))
            random_seats = set(rng.permutation(players)[:k].tolist())
            pending: list[tuple[list[int], list[list[float]]]] = []
            for name in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                state = env.unwrapped.state
                deal = state.deal_index
                if int(name.split("_")[1]) in random_seats:
                    env.step(rnd.act(obs))
                else:
                    agent.last_estimate = None
                    action = agent.act(obs)
                    if agent.last_estimate is not None and agent.h > 1:
                        hand = list(agent.hand)
                        pending.append((hand, agent.calibration_features(hand, agent.raw_card_probs(hand))))
                    env.step(action)
                if state.deal_index != deal or state.is_terminal():  # a deal ended: label its cards
                    won = set(winners)
                    winners.clear()
                    for hand, feats in pending:
                        rows.extend(feats)
                        labels.extend(int(c in won) for c in hand)
                    pending = []
    finally:
        engine.trick_winner = original
    return np.array(rows, dtype=float), np.array(labels, dtype=float)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 40) -> np.ndarray:
    """Logistic regression weights by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        q = 1.0 / (1.0 + np.exp(-x @ w))
        grad = x.T @ (y - q) - l2 * w
        hess = (x * (q * (1 - q))[:, None]).T @ x + l2 * np.eye(len(w))
        w += np.linalg.solve(hess, grad)
    return w


def log_loss(q: np.ndarray, y: np.ndarray) -> float:
    """Mean log-likelihood (higher is better)."""
    q = np.clip(q, 1e-4, 1 - 1e-4)
    return float(np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Collect, fit, print the new weights; return them with the log-losses."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=[500, 400, 300], help="games per player count (default 500 400 300)")
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], help="player counts (default 3 4 5)")
    ap.add_argument("--seed", type=int, default=22, help="seed (default 22)")
    args = ap.parse_args(argv)
    if len(args.games) == 1:
        args.games = args.games * len(args.players)
    parts = [collect(p, g, args.seed) for p, g in zip(args.players, args.games)]
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    test = np.arange(len(y)) % 5 == 0
    w = fit(x[~test], y[~test])
    raw = 1.0 / (1.0 + np.exp(-x[test][:, 1]))  # feature 1 is the raw model's logit
    result = {
        "cards": len(y),
        "held_out_loglik_raw": log_loss(raw, y[test]),
        "held_out_loglik_current": log_loss(1.0 / (1.0 + np.exp(-x[test] @ np.array(_CALIB))), y[test]),
        "held_out_loglik_refit": log_loss(1.0 / (1.0 + np.exp(-x[test] @ w)), y[test]),
        "weights": tuple(round(float(v), 3) for v in fit(x, y)),
    }
    for key, value in result.items():
        print(f"{key}: {value}")
    return result


if __name__ == "__main__":
    main()
