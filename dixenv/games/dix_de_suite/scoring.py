"""Rack rules of dix de suite: ascending racks, ascending prefixes, runs, and round points.

A rack is a list of 10 cards, index 0 = slot 1 (front, lowest) … index 9 = slot 10 (back).
"""

from __future__ import annotations

from typing import Sequence

WIN_POINTS = 75  # 5 per card + 25 bonus for going out
POINTS_PER_CARD = 5
#: ``run_bonus`` variant: longest run length → bonus (6 or more pays the 6 bonus).
RUN_BONUS = {3: 50, 4: 100, 5: 200, 6: 400}


def ascending_prefix(rack: Sequence[int]) -> int:
    """Number of cards from slot 1 that are in ascending order before the order first breaks (1..10)."""
    n = 1
    prev = rack[0]
    for c in rack[1:]:
        if c < prev:
            break
        prev = c
        n += 1
    return n


def is_ascending(rack: Sequence[int]) -> bool:
    """True if the whole rack is ascending from slot 1 to slot 10 ("dix de suite")."""
    return ascending_prefix(rack) == len(rack)


def longest_run(rack: Sequence[int]) -> int:
    """Longest run of consecutive numbers (c, c+1, c+2, …) in consecutive slots (at least 1)."""
    best = run = 1
    for a, b in zip(rack, rack[1:]):
        run = run + 1 if b == a + 1 else 1
        if run > best:
            best = run
    return best


def run_bonus(rack: Sequence[int]) -> int:
    """The ``run_bonus`` variant's bonus for a rack: 50/100/200/400 for a longest run of 3/4/5/6+."""
    return RUN_BONUS[min(longest_run(rack), 6)] if longest_run(rack) >= 3 else 0


def wins_round(rack: Sequence[int], two_player_run: bool) -> bool:
    """True if the rack makes "dix de suite" (with ``two_player_run``: also a run of 3 or more)."""
    if not is_ascending(rack):
        return False
    return not two_player_run or longest_run(rack) >= 3


def round_points(racks: Sequence[Sequence[int]], winner: int, with_run_bonus: bool) -> list[int]:
    """Points of one round per seat: 75 (+ run bonus) to the winner, 5 × ascending prefix to the others."""
    points = []
    for seat, rack in enumerate(racks):
        if seat == winner:
            points.append(WIN_POINTS + (run_bonus(rack) if with_run_bonus else 0))
        else:
            points.append(POINTS_PER_CARD * ascending_prefix(rack))
    return points


def max_round_points(with_run_bonus: bool) -> int:
    """The most points one seat can score in a round: the winner's 75, plus the top run bonus (400) if on."""
    return WIN_POINTS + (max(RUN_BONUS.values()) if with_run_bonus else 0)
