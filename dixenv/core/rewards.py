"""Reward modes shared by every game."""

from __future__ import annotations

REWARD_MODES = ("win", "points")


def win_rewards(keys: list[tuple], teams: list[int] | None = None) -> list[float]:
    """End-of-game reward per seat: (seats it beat − seats that beat it) / (n − 1).

    Two players get +1 / −1, or 0 each for a tie. With ``teams`` (team index per seat) the same
    formula is applied between teams (keys of one team must be equal) and every member gets its
    team's result, so two teams get ±1 or 0.
    """
    if teams is not None:
        team_ids = sorted(set(teams))
        team_keys = [keys[teams.index(t)] for t in team_ids]
        team_result = win_rewards(team_keys)
        return [team_result[team_ids.index(t)] for t in teams]
    n = len(keys)
    if n < 2:
        return [0.0] * n
    out = []
    for k in keys:
        beat = sum(1 for other in keys if k > other)
        lost = sum(1 for other in keys if other > k)
        out.append((beat - lost) / (n - 1))
    return out
