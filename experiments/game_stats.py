"""Game-specific tournament figures, all in one place.

A hook follows one game as it is played (``start`` after reset, ``after_step`` after every agent
step) and then gives per-seat raw counts for that game (``seat_figures``, written to the CSV) and
turns one agent's counts over many games into the figures printed in the table (``summarize``).

Hooks are harness code, so they may read ``env.unwrapped`` (scores, config, even the state); only
agents must not. They lean on the public API (``scores()``, action strings) wherever that is
enough, so they keep working while an engine's internals change, and a game without a hook (or
whose module is missing) simply gets no extra figures.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class StatsHook:
    """No game-specific figures (the base class and the fallback)."""

    #: (figure key in ``summarize``'s result, column title in the printed table)
    display: tuple[tuple[str, str], ...] = ()

    def start(self, env: Any) -> None:
        """Called once after ``reset``."""

    def after_step(self, env: Any, seat: int, action_text: str) -> None:
        """Called after ``seat`` (an agent) played ``action_text`` and the env played any forced moves."""

    def seat_figures(self, env: Any) -> list[dict[str, float]]:
        """Per seat, the raw counts of the finished game (CSV columns)."""
        return [{} for _ in range(len(env.unwrapped.scores()))]

    def summarize(self, figures: list[dict[str, float]]) -> dict[str, float]:
        """One agent's figures over its games -> the numbers shown in the table."""
        return {}


def _scores(env: Any) -> list[float]:
    return [float(s) for s in env.unwrapped.scores()]


class LeDixStats(StatsHook):
    """Made-bid rate: bids made / deals played.

    A made bid is seen as a score increase: an exact bid always scores (10, or 10 + bid with
    ``scoring="oh_hell"``) and nothing else does, and one step never ends two deals (every deal
    opens with the dealer's two-way trump choice), so counting increases counts made bids.
    """

    display = (("made_bid_rate", "made-bid rate"),)

    def start(self, env: Any) -> None:
        self._last = _scores(env)
        self._made = [0] * len(self._last)

    def after_step(self, env: Any, seat: int, action_text: str) -> None:
        now = _scores(env)
        if now != self._last:
            for s, (a, b) in enumerate(zip(self._last, now)):
                if b > a:
                    self._made[s] += 1
            self._last = now

    def seat_figures(self, env: Any) -> list[dict[str, float]]:
        u = env.unwrapped
        # deals completed so far (all of them once the game is over)
        deals = u.state.deal_index if hasattr(u.state, "deal_index") else len(u.config.deals)
        return [{"bids_made": m, "deals": deals} for m in self._made]

    def summarize(self, figures: list[dict[str, float]]) -> dict[str, float]:
        deals = sum(f["deals"] for f in figures)
        return {"made_bid_rate": sum(f["bids_made"] for f in figures) / deals if deals else float("nan")}


class DixDeSuiteStats(StatsHook):
    """Turns per round (all players' turns, completed rounds only), rounds per game, rounds won.

    A turn starts with ``draw`` or ``take discard``; a round ends when the scores change; its
    winner is the state's ``last_round_winner`` or else the seat whose score rose most (the
    winner gets 75, the others at most 45).
    """

    display = (("turns_per_round", "turns/round"), ("rounds_per_game", "rounds/game"), ("round_win_share", "rounds won"))

    def start(self, env: Any) -> None:
        self._last = _scores(env)
        n = len(self._last)
        self._turns_in_round = 0
        self._turns_completed = 0
        self._rounds = 0
        self._won = [0] * n

    def after_step(self, env: Any, seat: int, action_text: str) -> None:
        if action_text in ("draw", "take discard"):
            self._turns_in_round += 1
        now = _scores(env)
        if now != self._last:
            winner = getattr(env.unwrapped.state, "last_round_winner", -1)
            if not isinstance(winner, int) or winner < 0:
                winner = int(np.argmax([b - a for a, b in zip(self._last, now)]))
            self._won[winner] += 1
            self._rounds += 1
            self._turns_completed += self._turns_in_round
            self._turns_in_round = 0
            self._last = now

    def seat_figures(self, env: Any) -> list[dict[str, float]]:
        return [
            {"rounds": self._rounds, "round_turns": self._turns_completed, "rounds_won": w} for w in self._won
        ]

    def summarize(self, figures: list[dict[str, float]]) -> dict[str, float]:
        rounds = sum(f["rounds"] for f in figures)
        nan = float("nan")
        return {
            "turns_per_round": sum(f["round_turns"] for f in figures) / rounds if rounds else nan,
            "rounds_per_game": rounds / len(figures) if figures else nan,
            "round_win_share": sum(f["rounds_won"] for f in figures) / rounds if rounds else nan,
        }


class DixStats(StatsHook):
    """Points per game (what the collection scores at the end) and buys per game (chosen ``buy`` actions)."""

    display = (("points_per_game", "points/game"), ("buys_per_game", "buys/game"))

    def start(self, env: Any) -> None:
        self._buys = [0] * len(env.unwrapped.scores())

    def after_step(self, env: Any, seat: int, action_text: str) -> None:
        if action_text.startswith("buy "):
            self._buys[seat] += 1

    def seat_figures(self, env: Any) -> list[dict[str, float]]:
        return [{"points": p, "buys": b} for p, b in zip(_scores(env), self._buys)]

    def summarize(self, figures: list[dict[str, float]]) -> dict[str, float]:
        if not figures:
            return {"points_per_game": float("nan"), "buys_per_game": float("nan")}
        return {
            "points_per_game": float(np.mean([f["points"] for f in figures])),
            "buys_per_game": float(np.mean([f["buys"] for f in figures])),
        }


def make_hook(game: str) -> StatsHook:
    """The stats hook of a game (its spec's ``stats``; the figure-less base hook for a game without one)."""
    from dixenv.games import game_names, game_spec

    cls = game_spec(game).load("stats") if game in game_names() else None
    return (cls or StatsHook)()
