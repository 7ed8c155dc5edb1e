"""Play and render one game between random agents: ``python -m dixenv.demo [GAME] [--seed S]``.

Prints the table at the start, every move as its action string, and the table and scores at the end.
"""

from __future__ import annotations

import argparse
import importlib

import numpy as np

import dixenv


def play_random_game(game: str = "le_dix", seed: int = 0, print_fn=print, **options) -> list[float]:
    """Play one game of ``game`` with uniformly random legal moves, narrating it; return the scores."""
    module = importlib.import_module(f"dixenv.{game}_v0")
    env = module.env(render_mode="ansi", **options)
    env.reset(seed=seed)
    raw = env.unwrapped
    rng = np.random.default_rng(seed)
    print_fn(env.render())
    moves = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        print_fn(f"{agent}: {raw.action_to_string(action)}")
        env.step(action)
        moves += 1
    print_fn(raw.render())
    scores = raw.scores()
    print_fn(f"game over after {moves} decisions; scores: {scores}")
    return scores


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="le_dix", choices=dixenv.GAMES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
    args = parser.parse_args(argv)
    options = {} if args.players is None else {"num_players": args.players}
    play_random_game(args.game, args.seed, **options)


if __name__ == "__main__":
    main()
