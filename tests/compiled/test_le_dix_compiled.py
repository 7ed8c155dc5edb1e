"""The compiled le_dix engine plays exactly the reference engine's games, step for step.

Slot i of a batch seeded s is ``LeDixState(config, np.random.default_rng(s + i))``: the same legal
mask, player to act, observation of every seat (bit for bit), scores and end after every move, for
every option set, and the next game of a slot continues the slot's generator as an env's unseeded
reset does.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dixenv.compiled.rng import generator_from_row, seed_rows  # noqa: E402
from dixenv.core.aec import play_forced  # noqa: E402
from dixenv.games.le_dix.compiled import LeDixBatch, play_random  # noqa: E402
from dixenv.games.le_dix.config import make_config  # noqa: E402
from dixenv.games.le_dix.observation import LeDixObserver  # noqa: E402
from dixenv.games.le_dix.state import LeDixState  # noqa: E402

N = 8

#: Every option: 3, 4, 5 players; short schedules (a 1-card deal gives forced bids under the hook),
#: a hand of the largest size (3 players, 17 cards: bids up to 17), the full default schedule; both
#: scorings; the hook.
OPTION_SETS = [
    {"num_players": 3, "deals": (3, 1)},
    {"num_players": 4, "deals": (3, 1)},
    {"num_players": 5, "deals": (2, 1)},
    {"num_players": 4, "deals": (1, 3), "scoring": "oh_hell"},
    {"num_players": 3, "deals": (2, 1), "hook": True},
    {"num_players": 5, "deals": (3, 1), "hook": True, "scoring": "oh_hell"},
    {"num_players": 3, "deals": (17,), "scoring": "oh_hell"},
    {"num_players": 4},
]


def _compare(batch: LeDixBatch, refs: list[LeDixState], observer: LeDixObserver, where: str) -> None:
    """Mask, player to act, every seat's observation, scores and end of every slot equal the reference."""
    n = batch.num_players
    masks = batch.masks()
    players = batch.current_players()
    terminal = batch.terminal()
    scores = batch.scores()
    for i, ref in enumerate(refs):
        expected = np.zeros(batch.num_actions, dtype=np.int8)
        expected[ref.legal_actions()] = 1
        assert np.array_equal(masks[i], expected), f"{where}, slot {i}: legal mask"
        assert players[i] == ref.current_player(), f"{where}, slot {i}: player to act"
        assert terminal[i] == ref.is_terminal(), f"{where}, slot {i}: terminal"
        assert scores[i].tolist() == ref.scores(), f"{where}, slot {i}: scores"
    for seat in range(n):
        obs = batch.observe(seat)
        for i, ref in enumerate(refs):
            observer.set_from(ref, seat)
            if not np.array_equal(obs[i], observer.tensor):
                bad = [p.name for p in observer.layout.pieces
                       if not np.array_equal(obs[i][observer.layout.slices[p.name]], observer.tensor[observer.layout.slices[p.name]])]
                pytest.fail(f"{where}, slot {i}, seat {seat}: observation differs in {bad}")
    current = batch.observe(-1)
    for i, ref in enumerate(refs):
        if ref.current_player() < 0:
            assert not current[i].any(), f"{where}, slot {i}: no observation once over"
        else:
            observer.set_from(ref, ref.current_player())
            assert np.array_equal(current[i], observer.tensor), f"{where}, slot {i}: the player to act's observation"


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_compiled_engine_plays_the_reference_games_step_for_step(options: dict) -> None:
    config = make_config(**options)
    seed = 1000 * config.num_players + len(config.deals)
    gens = [np.random.default_rng(seed + i) for i in range(N)]
    refs = [LeDixState(config, gens[i], {}, None) for i in range(N)]
    batch = LeDixBatch(config, N)
    batch.new_games(batch.all_slots, seed_rows(range(seed, seed + N)))
    observer = LeDixObserver(config)
    pick = np.random.default_rng(seed + 99)
    for game in range(2):
        for ref in refs:
            play_forced(ref, None)
        batch.play_forced()
        step = 0
        while True:
            _compare(batch, refs, observer, f"game {game}, step {step}")
            if all(ref.is_terminal() for ref in refs):
                break
            actions = np.full(N, -1, dtype=np.int64)
            for i, ref in enumerate(refs):
                if not ref.is_terminal():
                    legal = ref.legal_actions()
                    actions[i] = legal[pick.integers(len(legal))]
                    ref.apply_action(int(actions[i]))
                    play_forced(ref, None)
            if step % 2:  # both entry points: apply + play_forced, and the one-pass step
                batch.apply(actions)
                batch.play_forced()
            else:
                batch.step(actions)
            step += 1
        for i in range(N):  # each slot's generator is where the reference's is
            assert generator_from_row(batch.rng, i).bit_generator.state == gens[i].bit_generator.state
        # The next game continues each slot's generator (an env's reset() without a seed).
        refs = [LeDixState(config, gens[i], {}, None) for i in range(N)]
        batch.new_games(batch.all_slots)


def test_new_games_in_some_slots_leave_the_others_alone() -> None:
    config = make_config(num_players=4, deals=(2, 1))
    batch = LeDixBatch(config, N)
    batch.new_games(batch.all_slots, seed_rows(range(N)))
    batch.play_forced()
    before = batch.observe(-1).copy()
    batch.new_games([2, 5], seed_rows([40, 41]))
    batch.play_forced([2, 5])
    after = batch.observe(-1)
    for i in range(N):
        if i in (2, 5):
            ref = LeDixState(config, np.random.default_rng(40 if i == 2 else 41), {}, None)
            play_forced(ref, None)
            observer = LeDixObserver(config)
            observer.set_from(ref, ref.current_player())
            assert np.array_equal(after[i], observer.tensor)
        else:
            assert np.array_equal(after[i], before[i])


def test_play_random_is_random_agent_play_with_new_games_when_one_ends() -> None:
    config = make_config(num_players=3, deals=(2, 1), hook=True)
    steps = 40
    batch = LeDixBatch(config, N)
    batch.new_games(batch.all_slots, seed_rows(range(7, 7 + N)))
    batch.play_forced()
    obs, masks, finished = play_random(batch, None, seed_rows(range(500, 500 + N)), steps)
    observer = LeDixObserver(config)
    for i in range(N):
        rng, moves = np.random.default_rng(7 + i), np.random.default_rng(500 + i)
        state, games = LeDixState(config, rng, {}, None), 0
        legal = play_forced(state, None)
        for _ in range(steps):
            state.apply_action(legal[moves.integers(len(legal))])
            legal = play_forced(state, None)
            if not legal:
                games += 1
                state = LeDixState(config, rng, {}, None)
                legal = play_forced(state, None)
        observer.set_from(state, state.current_player())
        expected = np.zeros(batch.num_actions, dtype=np.int8)
        expected[legal] = 1
        assert finished[i] == games and games >= 1
        assert np.array_equal(obs[i], observer.tensor), f"slot {i}: observation after {steps} random decisions"
        assert np.array_equal(masks[i], expected), f"slot {i}: mask after {steps} random decisions"


def test_results_do_not_depend_on_the_thread_count() -> None:
    """One thread, two threads, and the one-thread wrapper (``parallel = False``) play the same games."""
    numba = pytest.importorskip("numba")
    config = make_config(num_players=5, deals=(3, 2, 1), hook=True)
    threads = numba.get_num_threads()
    runs = []
    try:
        for count, parallel in ((1, True), (min(2, numba.config.NUMBA_NUM_THREADS), True), (1, False)):
            numba.set_num_threads(count)
            batch = LeDixBatch(config, 64)
            batch.parallel = parallel
            batch.new_games(batch.all_slots, seed_rows(range(64)))
            batch.play_forced()
            obs, masks, finished = play_random(batch, None, seed_rows(range(100, 164)), 50)
            runs.append((obs.copy(), masks.copy(), finished, batch.ints.copy(), batch.seats.copy(), batch.cards.copy(), batch.rng.copy()))
    finally:
        numba.set_num_threads(threads)
    for other in runs[1:]:
        for a, b in zip(runs[0], other):
            assert np.array_equal(a, b)


def test_slot_lists_that_repeat_a_slot_are_refused() -> None:
    batch = LeDixBatch(make_config(num_players=3, deals=(1,)), 4)
    with pytest.raises(ValueError, match="repeat"):
        batch.new_games([1, 1], seed_rows([0, 1]))
    with pytest.raises(ValueError, match="0..3"):
        batch.play_forced([4])


def test_dixenv_imports_without_the_compiled_engine() -> None:
    import subprocess
    import sys

    code = ("import sys, dixenv, dixenv.le_dix_v0; "
            "assert 'numba' not in sys.modules and 'dixenv.games.le_dix.compiled' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
