"""Reward modes shared by every game."""

from __future__ import annotations

REWARD_MODES = ("win", "points", "margin")


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


def margins(scores: list[int] | list[float], teams: list[int] | None = None) -> list[float]:
    """Each seat's lead: its score minus the best score of a rival (another seat, or another team's).

    The ``reward="margin"`` signal pays the change of this at every move, so over a game a seat
    earns its final lead (positive exactly when it finishes ahead of every rival on points): a shaping that
    keeps the win's sign and is dense. Teams share a score, so with ``teams`` a seat's rivals are the
    other teams' seats. One seat alone has no rival and a lead of 0.
    """
    out = []
    for s, own in enumerate(scores):
        rivals = [v for o, v in enumerate(scores) if o != s and (teams is None or teams[o] != teams[s])]
        out.append(float(own - max(rivals)) if rivals else 0.0)
    return out


def score_values(mode: str, scores: list[int] | list[float], teams: list[int] | None) -> list[float]:
    """Per seat, what a score-paid mode counts: the seat's points (``"points"``) or its lead (``"margin"``).

    Both modes pay the change of this value at every move, so over a game a seat earns its final value.
    """
    if mode == "points":
        return [float(v) for v in scores]
    if mode == "margin":
        return margins(scores, teams)
    raise ValueError(f"reward mode {mode!r} is not paid from scores; score-paid modes: ['points', 'margin']")
