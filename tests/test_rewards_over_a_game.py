"""Every reward mode pays the same in every env kind, and over a whole game each seat gets its full result.

The result of a game for a seat: its points (``reward="points"``), its final lead over its best rival
(``"margin"``) or its win reward (``"win"``). It includes what was scored before the seat's first
decision (forced moves, ALIX's turns, the opponents' moves before the learner's first turn), which
the AEC env reports at the seat's first observation and the single-agent envs pay with their first step.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import dixenv  # noqa: F401  (registers the ids)
from dixenv import dix_de_suite_v0, dix_v0, le_dix_v0
from dixenv.core.rewards import REWARD_MODES, score_values, win_rewards
from dixenv.vector import VectorEnv

from tests.test_vector import play_side_by_side, single_envs

# (game module, game options): every option that changes who is paid what (solo, player counts, teams).
TABLES = [
    (dix_v0, {"solo": True, "difficulty": 8}),
    (dix_v0, {"solo": True, "difficulty": 4, "auto_pay": True}),
    (dix_v0, {"num_players": 2}),
    (dix_v0, {"num_players": 4}),
    (le_dix_v0, {"num_players": 3, "deals": (2, 1)}),
    (le_dix_v0, {"num_players": 5, "deals": (1,)}),
    (dix_de_suite_v0, {"num_players": 2, "target_score": 100}),
    (dix_de_suite_v0, {"num_players": 4, "teams": True, "target_score": 100}),
    (dix_de_suite_v0, {"num_players": 3, "max_turns": 15}),  # truncated games
]
TABLE_IDS = [f"{m.__name__.split('.')[-1][:-3]}-{i}" for i, (m, _) in enumerate(TABLES)]


def result(state, mode: str) -> list[float]:
    """What a whole game pays each seat in ``mode``."""
    if mode == "win":
        if not state.is_terminal():
            return [0.0] * state.num_seats
        return win_rewards(state.ranking_keys(), state.teams())
    return score_values(mode, state.scores(), state.teams())


def test_every_game_starts_at_zero_points():
    # The score-paid modes pay changes from the start of the game; the start is 0 for everyone.
    for module, options in TABLES:
        env = module.raw_env(**options)
        env.reset(seed=0)
        assert env.unwrapped.state is not None
        fresh = env.game.new_state(env.config, np.random.default_rng(0), {}, None)
        assert list(fresh.scores()) == [0] * fresh.num_seats


@pytest.mark.parametrize("mode", REWARD_MODES)
@pytest.mark.parametrize("module, options", TABLES, ids=TABLE_IDS)
@pytest.mark.parametrize("wrapped", [False, True], ids=["raw", "env"])
def test_the_rewards_last_reports_over_a_game_sum_to_each_seats_result(module, options, mode, wrapped):
    env = (module.env if wrapped else module.raw_env)(reward=mode, **options)
    raw = env.unwrapped
    rng = np.random.default_rng(7)
    for seed in range(6):
        env.reset(seed=seed)
        state = raw.state
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        end = result(state, mode)
        for agent, total in totals.items():
            assert total == pytest.approx(end[raw._seat_of[agent]]), (seed, agent)


def test_solo_margin_pays_alixs_uncontested_opening_at_the_first_observation():
    # Seed 1 at difficulty 8: ALIX wins an opening auction the player cannot contest (its only
    # legal move is to pass, played by the env in reset), so the player is behind before deciding.
    env = dix_v0.env(solo=True, difficulty=8, reward="margin")
    env.reset(seed=1)
    raw = env.unwrapped
    _, reward, *_ = env.last()
    expected = score_values("margin", raw.state.scores(), None)[0]
    assert expected < 0 and reward == expected


# (Gymnasium id, options): every learner seat that can have moves before its first decision.
SINGLE = [
    ("dixenv/DixSolo-v0", {"difficulty": 8}),
    ("dixenv/DixSolo-v0", {"difficulty": 10}),
    ("dixenv/Dix-v0", {"num_players": 3, "opponents": "random", "learner_seat": 2}),
    ("dixenv/Dix-v0", {"num_players": 2, "opponents": "heuristic", "learner_seat": 1}),
    ("dixenv/LeDix-v0", {"num_players": 4, "opponents": "random", "deals": (2, 1), "learner_seat": 3}),
    ("dixenv/DixDeSuite-v0", {"num_players": 4, "teams": True, "opponents": "random", "target_score": 50, "max_turns": 40, "learner_seat": 1}),
]
SINGLE_IDS = [f"{env_id.split('/')[1]}-{i}" for i, (env_id, _) in enumerate(SINGLE)]


@pytest.mark.parametrize("mode", REWARD_MODES)
@pytest.mark.parametrize("env_id, options", SINGLE, ids=SINGLE_IDS)
def test_a_single_agent_episode_pays_the_learner_its_full_result(env_id, options, mode):
    env = gymnasium.make(env_id, reward=mode, **options)
    raw = env.unwrapped.aec
    seat = raw._seat_of[env.unwrapped.learner]
    rng = np.random.default_rng(3)
    for seed in range(8):
        _, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            _, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += reward
            done = term or trunc
        assert total == pytest.approx(result(raw.state, mode)[seat]), seed


@pytest.mark.parametrize("mode", REWARD_MODES)
@pytest.mark.parametrize("env_id, options", SINGLE, ids=SINGLE_IDS)
def test_vector_env_pays_every_reward_mode_as_the_single_env(env_id, options, mode):
    ours = VectorEnv(env_id, 2, reward=mode, autoreset_mode=AutoresetMode.SAME_STEP, **options)
    theirs = single_envs(env_id, 2, AutoresetMode.SAME_STEP, reward=mode, **options)
    a, b = ours.reset(seed=21), theirs.reset(seed=21)
    assert np.array_equal(a[0], b[0])
    assert play_side_by_side(ours, theirs, steps=150) >= 1


def test_vector_env_margin_is_not_the_win_reward():
    # The defect this guards against: every mode but "points" fell through to the win reward.
    env = VectorEnv("dixenv/DixSolo-v0", 4, reward="margin", difficulty=6)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    paid_mid_game = False
    for _ in range(60):
        masks = env.action_masks()
        actions = np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)
        _, rewards, term, trunc, _ = env.step(actions)
        paid_mid_game |= bool(np.any((rewards != 0) & ~(term | trunc)))
    assert paid_mid_game
