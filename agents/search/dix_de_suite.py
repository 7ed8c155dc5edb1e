"""What the search agents know of dix_de_suite: its greedy rollout, estimates, beliefs, fitted constants and presets.

The estimates score a simulation cut short (``estimate=lis``, ``cost``, ``reply``, ``game``; the
``round_win`` option turns rack costs into round-win chances), ``belief=progress`` refines the
worlds drawn, and the presets name the measured settings. The generic search (``core.py``) reads
them through ``RULES``, which dix_de_suite's spec names (``dixenv/games/dix_de_suite/spec.py``,
``search_rules``).
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_left
from typing import Any

import numpy as np

from dixenv.agents.search.rules import Preset, SearchRules
from dixenv.games.dix_de_suite import actions as dds_actions
from dixenv.games.dix_de_suite.scoring import POINTS_PER_CARD as DDS_POINTS_PER_CARD, WIN_POINTS as DDS_WIN_POINTS
from dixenv.games.dix_de_suite.scoring import ascending_prefix, max_round_points
from dixenv.games.dix_de_suite.state import PHASE_SOURCE as DDS_PHASE_SOURCE


def _dix_de_suite_span(state: Any, horizon: str) -> float:
    return float(max_round_points(state.config.run_bonus) if horizon == "round" else state.config.target_score)



def _dix_de_suite_estimate(state: Any) -> list[float]:
    """Expected round points of each seat if the round were played out (a simulation cut short).

    Why this model: a rack's longest increasing subsequence (LIS) counts the cards a player can
    keep; the others must be replaced, about one a turn. The seat with the longest LIS is taken to
    win the round (75 points, split on ties); every other seat scores 5 per card of its LIS, as if
    the round ended with that many of its cards in order (the round's own scoring counts the
    ascending prefix from slot 1).
    """
    lis = [_lis_length(rack) for rack in state.racks]
    best = max(lis)
    leaders = [s for s, v in enumerate(lis) if v == best]
    out = []
    for s, v in enumerate(lis):
        base = DDS_POINTS_PER_CARD * v
        out.append(base + (DDS_WIN_POINTS - base) / len(leaders) if s in leaders else float(base))
    return out


def _dix_de_suite_cost_estimate(agent: Any, state: Any) -> list[float]:
    """dix_de_suite ``estimate=cost``: expected round points from the heuristic's rack costs.

    Why: the LIS estimate ignores where a rack's cards sit (a 55 in slot 1 of a 60-card deck
    counts as well kept), and rollouts to the end of the round carry little of one move's
    effect. The heuristic's rack cost (``DixDeSuiteHeuristic.rack_cost``: roughly the draws a
    rack still needs, from the seat's own observation) is what its one-ply play minimises.
    Seat s is taken to win the round with probability softmax(-cost / ``COST_TAU``) and scores
    75 if it does, else 5 per card of its ascending prefix (the run bonus is not counted).
    """
    return _dix_de_suite_points_from_costs(agent, state, _dix_de_suite_costs(agent, state, reply=False))


def _dix_de_suite_reply_estimate(agent: Any, state: Any) -> list[float]:
    """dix_de_suite ``estimate=reply``: as ``cost``, but the seat to act is first credited with the
    rest of its turn as the heuristic expects it (``DixDeSuiteHeuristic.turn_cost``: exact over
    the cards it may draw, not sampled).

    Why: with ``horizon=move`` a simulation stops as soon as the searching seat has placed its
    card, so the next seat's view of the card left on the discard pile is all that differs between
    two placements besides the searcher's own rack cost: this scores what that card gives it (a
    screen: docs/results/search.md). The expectation is exact, so no sampled draw adds noise; only the
    world (the other racks) is sampled.
    """
    return _dix_de_suite_points_from_costs(agent, state, _dix_de_suite_costs(agent, state, reply=True))


def _dix_de_suite_costs(agent: Any, state: Any, reply: bool) -> list[float]:
    """Each seat's rack cost from its own observation (``reply``: the seat to act's after its turn)."""
    heuristic = getattr(agent, "_cost_heuristic", None)
    if heuristic is None:
        from dixenv.agents.dix_de_suite_heuristic import DixDeSuiteHeuristic

        heuristic = agent._cost_heuristic = DixDeSuiteHeuristic(agent.env)
    observer = agent._observer
    acting = state.current_player() if reply else -1
    costs = []
    for seat in range(state.num_seats):
        if seat == acting:
            costs.append(agent._ask(state, state.legal_actions(), heuristic.turn_cost))
        else:
            observer.set_from(state, seat)
            costs.append(heuristic.rack_cost(observer.tensor))
    return costs


def _dix_de_suite_game_estimate(agent: Any, state: Any) -> list[float]:
    """dix_de_suite ``estimate=game`` (2 players): each seat's chance of winning the game, as
    ``dixenv.core.rewards.win_rewards`` scales it (2 P - 1).

    Why: the other estimates count a round's points, and a point is not worth the same at every
    score. A round's loser scores 5 per card of its ascending prefix; near the end of a game that
    can win it (a prefix that takes a seat past the target and past the other's score + 75 wins
    whoever sorts first), and far from it a round won is worth more than any prefix. Seat s sorts
    first with the ``reply`` chances (softmax of the rack costs, the seat to act credited with its
    turn); each outcome gives the winner 75 and the other 5 per card of its prefix as it stands;
    the points then left are worth what the rules say if the game ends, else
    ``_dix_de_suite_game_values``. At a round's start (a simulation that sorted a rack) it is the
    table's value of the scores.
    """
    config = state.config
    values = _dix_de_suite_game_values(config.target_score)
    goal = -(-config.target_score // DDS_POINTS_PER_CARD)  # in units of 5 points, rounded up
    units = [s // DDS_POINTS_PER_CARD for s in state.scores()]
    if state.round_turns == 0:
        # A round just dealt (the one a simulation's sorted rack began): the table's even chances.
        # The fresh racks' costs would put a deal's noise beside a banked round.
        chance = _dix_de_suite_game_value(values, goal, units[0], units[1])
        return [2.0 * chance - 1.0, 1.0 - 2.0 * chance]
    chances = _dix_de_suite_sort_chances(agent, state, _dix_de_suite_costs(agent, state, reply=True))
    prefix = [ascending_prefix(rack) for rack in state.racks]
    win = DDS_WIN_POINTS // DDS_POINTS_PER_CARD
    chance = 0.0  # seat 0's chance of winning the game
    for sorter, p in enumerate(chances):
        a = units[0] + (win if sorter == 0 else prefix[0])
        b = units[1] + (win if sorter == 1 else prefix[1])
        chance += p * _dix_de_suite_game_value(values, goal, a, b)
    return [2.0 * chance - 1.0, 1.0 - 2.0 * chance]


#: dix_de_suite ``estimate=game``: how often the loser of a round scores 5, 10, …, 45 points (2,847
#: rounds of 300 games of the heuristic against itself, 2 players; docs/results/search.md).
DDS_LOSER_POINTS = (0.1939, 0.1405, 0.1222, 0.1120, 0.1099, 0.0941, 0.0790, 0.0688, 0.0794)


def _dix_de_suite_game_value(values: np.ndarray, goal: int, a: int, b: int) -> float:
    """Seat 0's chance of winning the game with ``a`` against ``b`` points (in 5s) at a round's
    start: the rules' result once either reaches ``goal`` (the highest wins, equal ones share),
    else ``values[a, b]``."""
    if a >= goal or b >= goal:
        return 1.0 if a > b else 0.5 if a == b else 0.0
    return float(values[a, b])


@functools.lru_cache(maxsize=None)
def _dix_de_suite_game_values(target: int) -> np.ndarray:
    """values[a, b]: seat 0's chance of winning a 2-player game from ``a`` against ``b`` points
    (in 5s, both below the target) at the start of a round, if each round is won by either seat
    with even chance and its loser scores as ``DDS_LOSER_POINTS``. Computed once per target
    (every round adds points to both seats, so higher scores are solved first)."""
    goal = -(-target // DDS_POINTS_PER_CARD)
    win = DDS_WIN_POINTS // DDS_POINTS_PER_CARD
    total = sum(DDS_LOSER_POINTS)
    losers = [(points, p / total) for points, p in enumerate(DDS_LOSER_POINTS, start=1)]
    values = np.zeros((goal, goal))
    for a in range(goal - 1, -1, -1):
        for b in range(goal - 1, -1, -1):
            chance = 0.0
            for points, p in losers:
                chance += p * (_dix_de_suite_game_value(values, goal, a + win, b + points)
                               + _dix_de_suite_game_value(values, goal, a + points, b + win))
            values[a, b] = chance / 2.0
    return values


def _dix_de_suite_game_refusal(config: Any) -> str | None:
    """Why ``estimate=game`` cannot score this dix_de_suite configuration (None: it can)."""
    if config.num_players != 2 or config.teams or config.run_bonus:
        return (f"search option estimate='game' covers 2 players without teams or run_bonus "
                f"(num_players={config.num_players}, teams={config.teams}, run_bonus={config.run_bonus}); "
                f"use estimate='reply' or 'cost'")
    return None


def _dix_de_suite_round_win_refusal(round_win: str, estimate: str | None, config: Any) -> str | None:
    """Why dix_de_suite's ``round_win`` option cannot be used here (None: it can): it turns rack
    costs into round-win chances, so it needs an estimate that reads them (``reply``, ``game``),
    and ``fitted`` only covers what was fitted (2 players; the run variants add terms to the
    heuristic's cost)."""
    if estimate not in ("reply", "game"):
        return (f"search option round_win={round_win!r} turns dix_de_suite rack costs into round-win chances: it needs "
                f"game dix_de_suite with estimate='reply' or 'game' (got estimate={estimate!r})")
    if round_win == "fitted" and (config.num_players != 2 or config.two_player_run or config.run_bonus):
        return (f"search option round_win='fitted' was fitted on 2-player games without two_player_run or run_bonus "
                f"(num_players={config.num_players}, two_player_run={config.two_player_run}, "
                f"run_bonus={config.run_bonus}); use round_win='softmax'")
    return None


def _dix_de_suite_points_from_costs(agent: Any, state: Any, costs: list[float]) -> list[float]:
    """Expected round points: seat s wins with ``_dix_de_suite_sort_chances``'s probability and
    scores 75, else 5 per card of its ascending prefix."""
    chances = _dix_de_suite_sort_chances(agent, state, costs)
    return [p * DDS_WIN_POINTS + (1.0 - p) * DDS_POINTS_PER_CARD * ascending_prefix(rack)
            for p, rack in zip(chances, state.racks)]


def _dix_de_suite_sort_chances(agent: Any, state: Any, costs: list[float]) -> list[float]:
    """Each seat's chance of sorting its rack first, from the rack costs (``round_win`` option).

    ``softmax``: softmax(-cost / ``COST_TAU``). ``fitted`` (2 players; the costs of ``reply``:
    the seat to act already credited with its turn): softmax of -``DDS_FIT_SLOPE`` log(1 + cost),
    plus ``DDS_FIT_TEMPO`` for the seat to act. Why: in the heuristic's self-play a cost gap
    decides more the lower the costs (4 against 2 is nearly a lost round, 34 against 32 is not),
    and the seat to act, having played its turn in the cost, has the other seat's turn to face
    first; the softmax at 8 scored the held-out rounds worse (log-loss 0.600 against 0.547,
    docs/search_results/screens/dix_de_suite_fit/fit.txt).
    """
    if agent.round_win == "fitted":
        acting = state.current_player()
        logits = [DDS_FIT_TEMPO * (s == acting) - DDS_FIT_SLOPE * math.log1p(max(c, 0.0)) for s, c in enumerate(costs)]
    else:
        logits = [-c / COST_TAU for c in costs]
    high = max(logits)
    weights = [math.exp(v - high) for v in logits]
    total = sum(weights)
    return [w / total for w in weights]


def _lis_length(values: list[int]) -> int:
    """Length of the longest strictly increasing subsequence (patience sorting, O(n log n))."""
    tails: list[int] = []
    for v in values:
        i = bisect_left(tails, v)
        if i == len(tails):
            tails.append(v)
        else:
            tails[i] = v
    return len(tails)



def _dix_de_suite_greedy(state: Any, legal: list[int]) -> int:
    """A cheap dix_de_suite rollout move: slot k wants a card of the k-th tenth of the deck.

    Why by hand: random play never sorts a rack (a round would last until ``max_turns``), and the
    tuned heuristic costs about half a millisecond a move. Ten disjoint ranges, one per slot, make
    an ascending rack once every slot holds a card of its range; a card goes to its range's slot
    when that slot holds a card outside it. Reads the acting seat's rack, its held card and the
    discard top only.
    """
    seat = state.current
    rack = state.racks[seat]
    size = state.config.deck_size
    misplaced = [(c - 1) * 10 // size != k for k, c in enumerate(rack)]
    if state.phase == DDS_PHASE_SOURCE:
        if dds_actions.TAKE_DISCARD in legal and misplaced[(state.discard[-1] - 1) * 10 // size]:
            return dds_actions.TAKE_DISCARD
        return dds_actions.DRAW
    slot = (state.held - 1) * 10 // size
    if misplaced[slot]:
        return dds_actions.SWAP_BASE + slot
    if dds_actions.DISCARD in legal:
        return dds_actions.DISCARD
    wrong = [k for k in range(len(rack)) if misplaced[k]]  # a taken card must go somewhere
    return dds_actions.SWAP_BASE + (wrong[0] if wrong else slot)


#: dix_de_suite ``estimate=cost``: rack-cost scale of the round-win softmax. Two seats' costs
#: differed by about 16 between the quartiles in a screened game, so 2 nearly saturates it; a
#: screen at 2 (with fewer worlds) lost far more than one at 8 (docs/results/search.md).
COST_TAU = 8.0
#: dix_de_suite ``round_win=fitted``: the logistic fit of the seat to act's chance of winning the
#: round, sigmoid(TEMPO + SLOPE × log((1 + other's cost) / (1 + its cost after its turn))), on
#: 90,917 source decisions of 600 games of the heuristic against itself (2 players, seeds
#: 5000..5599; held out: 60,853 of 400 games, seeds 20000..20399). ``screens/dix_de_suite_fit/``.
DDS_FIT_SLOPE = 2.2114
DDS_FIT_TEMPO = -0.2363


def _dix_de_suite_progress_belief(world: Any, seat: int, rng: np.random.Generator) -> Any:
    """dix_de_suite ``belief=progress``: the other seats' hidden slots hold racks about as sorted as
    their turns this round suggest (``dixenv.agents.dix_de_suite_belief``)."""
    from dixenv.agents.dix_de_suite_belief import refine  # lazy: only this belief needs it

    return refine(world, seat, rng)


def _dix_de_suite_strongest_refusal(config: Any) -> str | None:
    """Why the ``strongest`` preset (``estimate=game``, ``round_win=fitted``) cannot play this table."""
    return _dix_de_suite_game_refusal(config) or _dix_de_suite_round_win_refusal("fitted", "game", config)


#: The rollout options of the heuristic that plays for the game (docs/results/search.md).
_GAME_HEURISTIC = {"rollout": "heuristic", "rollout.secure": 1, "rollout.prefix_weight": 0.3}

#: dix_de_suite's presets (the generic ``defaults`` and ``cowling2012`` apply too: ``rules.py``).
PRESETS = {
    "strongest": Preset(
        {"iterations": 64, "horizon": "move", "estimate": "game", **_GAME_HEURISTIC, "decisions": "place",
         "width": 4, "root": "paired", "round_win": "fitted", "deviate": 0.01, "belief": "progress"},
        "0.535 [0.514, 0.557] of 2,000 games against the heuristic (even 0.50; replication, seed 1: 0.554 "
        "[0.523, 0.585] of 1,000), 39 ms a move "
        "(docs/search_results/dix_de_suite-ismcts64-game-fitted-belief-deviate01-heuristic.json; "
        "docs/results/search.md). 2 players without teams, run_bonus or two_player_run",
        refusal=_dix_de_suite_strongest_refusal,
    ),
    "reply": Preset(
        {"iterations": 64, "horizon": "move", "estimate": "reply", "rollout": "heuristic", "decisions": "place",
         "width": 4, "root": "paired"},
        "0.500 [0.470, 0.531] of 1,000 games against the heuristic (even 0.50), 27 ms a move "
        "(docs/search_results/dix_de_suite-ismcts64-reply-heuristic.json; docs/results/search.md); "
        "every table: what plain ismcts plays where strongest does not apply (not measured there)",
    ),
    "fast": Preset(
        {"iterations": 16, "horizon": "move", "estimate": "game", "rollout": "heuristic", "decisions": "place",
         "width": 2, "root": "paired"},
        "0.485 [0.436, 0.534] of a 400-game screen against the heuristic, 8 ms a move "
        "(docs/search_results/screens/dix_de_suite_game/scr_game16w2.txt; docs/results/search.md, the "
        "estimate=game screen). 2 players without teams or run_bonus",
        refusal=_dix_de_suite_game_refusal,
    ),
}

# Each game's rules are named by its spec (``dixenv/games/<game>/spec.py``, ``search_rules``).
RULES = SearchRules(
    "round", "round", "margin", "greedy", lambda s: s.round, _dix_de_suite_span,
    {"lis": lambda agent, state: _dix_de_suite_estimate(state), "cost": _dix_de_suite_cost_estimate,
     "reply": _dix_de_suite_reply_estimate, "game": _dix_de_suite_game_estimate},
    _dix_de_suite_greedy,
    win_estimates={"game": _dix_de_suite_game_refusal},
    round_win_refusal=_dix_de_suite_round_win_refusal,
    beliefs={"progress": _dix_de_suite_progress_belief},
    # A turn is a source decision (draw or take) then a placement: ``decisions=place``
    # searches the placements only and leaves the source to the rollout policy.
    decisions={"all": None, "place": lambda s: s.phase != DDS_PHASE_SOURCE},
    presets=PRESETS,
    # Plain ismcts: the strongest measured setting where it applies (2 players), else ``reply``.
    plain=("strongest", "reply", "defaults"),
)
