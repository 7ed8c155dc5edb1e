"""The dix_de_suite belief (``belief=progress`` worlds): consistent, informed only by the seat, and
distributed as the documented law."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from dixenv.agents import dix_de_suite_belief as B
from dixenv.agents.dix_de_suite_heuristic import DixDeSuiteHeuristic
from dixenv.dix_de_suite_v0 import raw_env
from dixenv.games.dix_de_suite.game import GAME
from tests.games.dix_de_suite.helpers import DESC_2, make, option_id, play
from tests.games.dix_de_suite.test_sample_hidden import (
    CHI2_CRITICAL_0_001, OPTION_SETS, _as_data, _hidden_from, _mid_game_states, hidden_twins,
)


def _heuristic_states(players: int, games: int, seed: int):
    """States at seat 0's decisions of the race heuristic's self-play (where the belief was calibrated)."""
    env = raw_env(num_players=players)
    agent = DixDeSuiteHeuristic(env)
    for g in range(games):
        env.reset(seed=seed + g)
        state = env.unwrapped.state
        while not (any(env.terminations.values()) or any(env.truncations.values())):
            if state.current_player() == 0:
                yield state
            env.step(agent.act(env.observe(env.agent_selection)))


def test_chain_cost_keeps_the_best_chain_and_prices_the_gaps():
    at_targets = [2, 6, 10, 14, 18, 22, 26, 30, 34, 38]  # slot k's target (k - 0.5) / 10 × 40
    assert B.chain_cost(at_targets, 40) == 0.0
    # The last card breaks the order: the chain keeps slots 1..9, slot 10 is a gap of one slot
    # between 34 and the virtual 41 (6 values): 1 + N × 1 / 6 with N = 30 cards outside the rack.
    assert B.chain_cost(at_targets[:9] + [1], 40) == pytest.approx(1 + 30 / 6)
    assert B.chain_cost(at_targets[::-1], 40) > B.chain_cost(at_targets[:9] + [1], 40)


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_a_refined_world_keeps_the_seats_observation_and_legal_actions_and_is_a_legal_state(options):
    config = GAME.make_config(**options)
    observer = GAME.make_observer(config)
    rng = np.random.default_rng(0)
    checked = moved = 0
    for state in _mid_game_states(options, games=3):
        seat = state.current_player()
        world = state.sample_hidden(seat, rng)
        before = _hidden_from(world, seat)
        B.refine(world, seat, rng)
        observer.set_from(state, seat)
        seen = observer.tensor.copy()
        observer.set_from(world, seat)
        assert np.array_equal(seen, observer.tensor), f"seat {seat} would see the difference"
        assert world.legal_actions() == state.legal_actions()
        world.check_invariants()
        state.check_invariants()
        checked += 1
        moved += _hidden_from(world, seat) != before
    assert checked > 50 and moved > 10


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_a_refined_world_depends_only_on_the_seats_information(options):
    compared = 0
    for i, state, other, seat in hidden_twins(options):
        worlds = []
        for s in (state, other):
            r = np.random.default_rng(i)
            worlds.append(_as_data(B.refine(s.sample_hidden(seat, r), seat, r)))
        assert worlds[0] == worlds[1]
        compared += 1
    assert compared >= 5


def test_late_in_a_round_the_other_rack_is_as_sorted_as_play_made_it_not_as_a_deal():
    # Heuristic self-play, 2 players, the other seat 8 or more turns into its round: its true
    # rack is nearly sorted; uniform worlds deal it a random one, refined worlds a nearly sorted one.
    rng = np.random.default_rng(5)
    true, uniform, refined = [], [], []
    for state in _heuristic_states(2, games=12, seed=9100):
        if state.seat_turns[1] < 8:
            continue
        true.append(B.chain_cost(state.racks[1], 40))
        uniform.append(B.chain_cost(state.sample_hidden(0, rng).racks[1], 40))
        refined.append(B.chain_cost(B.refine(state.sample_hidden(0, rng), 0, rng).racks[1], 40))
    assert len(true) >= 30
    assert np.mean(uniform) > 3 * np.mean(true)  # the bias the belief removes
    assert abs(np.mean(refined) - np.mean(true)) < 0.35 * np.mean(true)
    # Early in a round (no turn played) the belief is the deal: β(0) = 0 for 2 players.
    assert B.beta(2, 0) == 0.0 and B.beta(2, 99) == B.BETA[2][-1]


def test_three_unknown_slots_follow_the_documented_law_exactly():
    # As in test_sample_hidden: after the turn-over only seat 1's dealt 23, 22, 21 in slots 8..10
    # are unknown to seat 0. The belief gives each order the weight exp(-β(19) / 10 × chain cost).
    env = make(DESC_2, 1, draw=list(range(2, 21)))
    for turn in range(19):
        play(env, "take discard", f"swap {min(turn, 6) + 1}", "draw", "discard")
    state = env.state
    assert state.draw_public and state.known[1][7:] == [0, 0, 0] and state.seat_turns[1] == 19
    orders = [(a, b, c) for a in (21, 22, 23) for b in (21, 22, 23) for c in (21, 22, 23) if len({a, b, c}) == 3]
    weights = [math.exp(-B.beta(2, 19) / 10 * B.chain_cost(state.racks[1][:7] + list(o), 40)) for o in orders]
    probabilities = [w / sum(weights) for w in weights]
    assert max(probabilities) > 2 * min(probabilities)  # the law is far from the uniform one
    rng = np.random.default_rng(11)
    samples = 3000
    counts = Counter(tuple(B.refine(state.sample_hidden(0, rng), 0, rng, sweeps=20).racks[1][7:]) for _ in range(samples))
    chi2 = sum((counts[o] - samples * p) ** 2 / (samples * p) for o, p in zip(orders, probabilities))
    assert chi2 < CHI2_CRITICAL_0_001[5]
