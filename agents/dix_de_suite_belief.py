"""Worlds for dix de suite search that believe the other players have been sorting their racks.

``state.sample_hidden(seat, rng)`` deals the cards a seat has not seen uniformly over the places
that hide them: exactly the posterior of a shuffled deck if the other players' choices revealed
nothing. In dix de suite they reveal a great deal. Each player keeps the cards that fit its rack
and places each card it draws where it fits, so its hidden slots hold a nearly sorted rack late in
a round; a uniform world puts a random one there. Measured on 2-player self-play of the heuristic
(``docs/results/search.md``): after 8 or 9 turns of the other seat, its true rack cost (the heuristic's,
roughly the draws it still needs) averaged 8.7, while uniform worlds put it at 51.7. A search over
uniform worlds believes every other seat is far from sorting and misjudges every race.

``refine(world, seat, rng)`` redraws a uniform world towards the belief

    P(world) ∝ Π over other seats s of exp(−β(t_s) · chain_cost(rack of s) / 10)

among the worlds consistent with what ``seat`` knows, where ``t_s`` is the number of turns seat s
has played this round (public) and ``chain_cost`` is the heuristic's chain-and-gap rack cost
(``agents/dix_de_suite_heuristic.py``) with every card taken as equally available, so it reads the
rack alone. ``β(t)`` (``BETA``) was calibrated on the heuristic's self-play: for each t, the β at
which the refined worlds' mean ``chain_cost`` of the other seat equals its true mean (bisection on
80 positions per t, seeds disjoint from the check). On held-out positions the other seat's
*heuristic* rack cost in refined worlds then matched its true distribution (2 players: means 57.8
against 64.8 in its first two turns, 24.8 against 24.0 at turns 4–5, 10.8 against 8.7 at turns
8–9; medians within 5, the quartiles wider late in a round;
``docs/search_results/screens/dix_de_suite_belief/check2.txt``).

How: Metropolis–Hastings over the hidden places of each pool (``state.hidden_places``). A step
picks one of another seat's hidden slots and proposes to swap its card with the card at another
hidden place of the same pool (a slot of any other seat, the hidden draw pile, an unseen held
card): with probability ``WINDOW`` a card whose value lies between the slot's two neighbours,
else any card of the pool. Every step keeps the world consistent (cards only move between places
that hide them from ``seat``, within their pool), and the Hastings ratio corrects the uneven
proposal, so the chain's stationary law is the belief above; the walk starts from the uniform
world and runs ``SWEEPS`` proposals per hidden slot. 8 suffice for the small case of the tests
(three hidden slots: the exact law, chi-square) and, at β 3–8 in a screen, moved the other rack's
mean cost to within a few units of 30 sweeps'; β was calibrated with the sampler as it runs, so
the table matches what 8 sweeps give. The order of the draw pile among its own places stays uniform.

What it reads: the world's public facts (turns played, the pools and their places) and the cards
the world puts in hidden places, which ``sample_hidden`` drew from ``seat``'s information alone;
never the true hidden cards. What it leaves out: which slot each player replaced when (public, and
informative), and opponents who play otherwise than the heuristic it was calibrated on.
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_left, bisect_right
from typing import Any

import numpy as np

RACK = 10
#: β per turns the seat has played this round (0, 1, …; the last entry for every later turn),
#: by number of players. Calibrated as the module docstring says, on 60 games of each table
#: (``docs/search_results/screens/dix_de_suite_belief/calibrate.py calibrate PLAYERS 60 7000``).
BETA: dict[int, tuple[float, ...]] = {
    2: (0.0, 0.76, 1.31, 1.82, 2.44, 2.79, 3.5, 3.73, 4.32, 4.63, 4.79),
    3: (0.14, 0.61, 1.27, 1.78, 2.25, 2.71, 3.26, 3.73, 4.51, 5.06, 5.14),
    4: (0.21, 0.76, 1.35, 1.89, 2.17, 2.68, 3.34, 3.81, 4.43, 4.55),
}
SWEEPS = 8  # proposals per hidden slot of the other seats
WINDOW = 0.7  # share of proposals drawn from the cards that fit between the slot's neighbours
#: The heuristic's default gap parameters (``DixDeSuiteHeuristic.DEFAULTS``): a gap of g slots in
#: a window of w values costs g + N g² / w (alpha 1, gap_share 0, empty_cost 1), an anchor
#: ``TARGET_WEIGHT`` × N × |card − target| / D.
TARGET_WEIGHT = 0.1


def beta(num_players: int, turns: int) -> float:
    """The belief's β for a seat that has played ``turns`` turns this round."""
    table = BETA[num_players]
    return table[min(turns, len(table) - 1)]


@functools.lru_cache(maxsize=None)
def _tables(deck_size: int) -> tuple[list[list[float | None]], list[list[float]]]:
    """Gap costs ``gap[g][w]`` (None: g slots cannot fit in w values) and anchor costs
    ``node[k][card]`` for a deck of ``deck_size``, with N = deck_size − 10 available cards."""
    n = float(deck_size - RACK)
    gap = [[(g + n * g * g / w if g else 0.0) if w >= g and (w or not g) else None for w in range(deck_size + 2)]
           for g in range(RACK + 1)]
    node = [[TARGET_WEIGHT * n * abs(v - (k + 0.5) * deck_size / RACK) / deck_size for v in range(deck_size + 2)]
            for k in range(RACK)]
    return gap, node


def chain_cost(rack: list[int], deck_size: int) -> float:
    """The heuristic's chain-and-gap cost of ``rack`` with every card equally available (lower
    is closer to sorted): the cheapest chain of kept cards, the others as gaps to fill."""
    gap, node = _tables(deck_size)
    return _chain_cost(rack, deck_size, gap, node)


def _chain_cost(rack: list[int], deck_size: int, gap: list, node: list) -> float:
    vals = [0, *rack, deck_size + 1]
    f = [0.0] * (RACK + 2)
    for j in range(1, RACK + 2):
        vj = vals[j]
        best = math.inf
        for i in range(j):
            w = vj - vals[i] - 1
            if w < 0:
                continue
            c = gap[j - i - 1][w]
            if c is not None and c + f[i] < best:
                best = c + f[i]
        f[j] = best + (node[j - 1][vj] if j <= RACK else 0.0)
    return f[RACK + 1]


def refine(world: Any, seat: int, rng: np.random.Generator, sweeps: int = SWEEPS) -> Any:
    """Move ``world`` (a ``sample_hidden`` world for ``seat``) towards the belief that the other
    seats have sorted their racks as far as their turns suggest; returns ``world``, changed in place."""
    d = world.config.deck_size
    gap, node = _tables(d)
    racks = world.racks
    n_players = world.num_seats
    for _, places in world.hidden_places(seat):
        slots = [i for i, p in enumerate(places) if p[0] == "rack"]
        if not slots or len(places) < 2:
            continue
        cards = [_card_at(world, p) for p in places]
        index = {c: i for i, c in enumerate(cards)}
        ordered = sorted(cards)
        seats = {places[i][1] for i in slots}
        betas = {s: beta(n_players, world.seat_turns[s]) / 10.0 for s in seats}
        cost = {s: _chain_cost(racks[s], d, gap, node) for s in seats}
        n, m = len(places), len(slots)
        steps = sweeps * m
        u = rng.random(4 * steps).tolist()
        for step in range(steps):
            u0, u1, u2, u3 = u[4 * step : 4 * step + 4]
            i = slots[int(u0 * m)]
            s, k = places[i][1], places[i][2]
            rack = racks[s]
            old = cards[i]
            window = _window(ordered, rack, k, d)
            if window and u1 < WINDOW:
                new = window[int(u2 * len(window))]
            else:
                new = cards[int(u2 * n)]
            if new == old:
                continue
            j = index[new]
            forward = _proposal(window, new, n)
            other = places[j]
            rack[k] = new
            s2 = other[1] if other[0] == "rack" else -1
            if s2 >= 0:
                racks[s2][other[2]] = old
            backward = _proposal(_window(ordered, rack, k, d), old, n)
            cost_s = _chain_cost(rack, d, gap, node)
            delta = betas[s] * (cost_s - cost[s])
            if s2 >= 0 and s2 != s:
                cost_s2 = _chain_cost(racks[s2], d, gap, node)
                delta += betas[s2] * (cost_s2 - cost[s2])
            log_accept = -delta + math.log(backward / forward)
            if log_accept >= 0.0 or u3 < math.exp(log_accept):
                cards[i], cards[j] = new, old
                index[new], index[old] = i, j
                cost[s] = cost_s
                if s2 >= 0 and s2 != s:
                    cost[s2] = cost_s2
            else:
                rack[k] = old
                if s2 >= 0:
                    racks[s2][other[2]] = new
        for p, c in zip(places, cards):
            if p[0] == "draw":
                world.draw_pile[p[1]] = c
            elif p[0] == "held":
                world.held = c
    return world


def _card_at(world: Any, place: tuple) -> int:
    if place[0] == "rack":
        return world.racks[place[1]][place[2]]
    if place[0] == "draw":
        return world.draw_pile[place[1]]
    return world.held


def _window(ordered: list[int], rack: list[int], k: int, deck_size: int) -> list[int]:
    """The pool's cards strictly between slot k's neighbours (empty if the neighbours descend)."""
    lo = rack[k - 1] if k > 0 else 0
    hi = rack[k + 1] if k < RACK - 1 else deck_size + 1
    if lo >= hi:
        return []
    return ordered[bisect_right(ordered, lo) : bisect_left(ordered, hi)]


def _proposal(window: list[int], card: int, n: int) -> float:
    """The chance that a step at this slot proposes ``card`` (window share plus uniform share)."""
    if not window:
        return 1.0 / n
    inside = window[0] <= card <= window[-1]
    return (WINDOW / len(window) if inside else 0.0) + (1.0 - WINDOW) / n
