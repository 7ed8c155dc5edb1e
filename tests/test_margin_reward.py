"""reward="margin": the change of each seat's lead over its best rival, so a game pays its final lead."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv import dix_de_suite_v0, dix_v0, le_dix_v0
from dixenv.core.rewards import REWARD_MODES, margins


def test_margins_are_the_lead_over_the_best_rival():
    assert margins([10, 12]) == [-2.0, 2.0]
    assert margins([5, 9, 7]) == [-4.0, 2.0, -2.0]
    assert margins([30, 10, 30, 10], teams=[0, 1, 0, 1]) == [20.0, -20.0, 20.0, -20.0]
    assert margins([4]) == [0.0], "no rival, no lead"
    assert "margin" in REWARD_MODES


def test_margin_reward_pays_the_change_of_the_lead_on_a_stacked_deck():
    env = dix_v0.env(num_players=2, reward="margin")
    env.reset(seed=0, options={"deck": ["B1", "B2", "G1"], "first_player": 0})
    env.step(env.unwrapped.string_to_action("draw"))
    env.step(env.unwrapped.string_to_action("take numbers"))  # B1 B2: 2 points (the buy is forced)
    assert env.rewards == {"player_0": 2.0, "player_1": -2.0}


@pytest.mark.parametrize("make", [
    lambda: dix_v0.env(num_players=3, reward="margin"),
    lambda: dix_v0.env(solo=True, difficulty=6, reward="margin"),
    lambda: le_dix_v0.env(num_players=3, deals=(2, 1), reward="margin"),
    lambda: dix_de_suite_v0.env(num_players=4, teams=True, target_score=150, reward="margin"),
], ids=["dix-3", "dix-solo", "le_dix-3", "dix_de_suite-teams"])
def test_a_game_pays_each_seat_its_final_lead(make):
    env = make()
    rng = np.random.default_rng(1)
    for game in range(3):
        env.reset(seed=game)
        state = env.unwrapped.state
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            for a, r in env.rewards.items():
                totals[a] += r
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        end = margins(state.scores(), state.teams())
        seats = env.unwrapped._seat_of
        for a, total in totals.items():
            # every game starts at 0 points; the rewards of moves made in reset (forced moves, ALIX's
            # first turns) are the first ones agent_iter shows
            assert total == pytest.approx(end[seats[a]]), (game, a)
