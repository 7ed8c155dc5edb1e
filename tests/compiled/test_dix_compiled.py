"""The compiled dix engine plays exactly the reference engine's games, step for step.

Slot i of a batch seeded s is ``DixState(config, np.random.default_rng(s + i))`` (as
``game.new_state`` builds it): the same legal mask, player to act, observation of every seat (bit
for bit), scores and end after every move, for every option set (2-5 players, solo at several
difficulties with ALIX played inside the engine, bust_buy, auto_pay, a user's deck), under random
and biased move choices; the next game of a slot continues the slot's generator as an env's
unseeded reset does, and the generators end where the reference's do.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import numba  # noqa: E402

from dixenv.compiled.rng import generator_from_row, seed_rows  # noqa: E402
from dixenv.core.aec import play_forced  # noqa: E402
from dixenv.core.rewards import win_rewards  # noqa: E402
from dixenv.games.dix import actions as A  # noqa: E402
from dixenv.games.dix.compiled import DixBatch, play_random  # noqa: E402
from dixenv.games.dix.config import make_config  # noqa: E402
from dixenv.games.dix.game import GAME  # noqa: E402
from dixenv.games.dix.observation import DixObserver  # noqa: E402
from dixenv.games.dix.state import AUCTION, BUY, DECIDE, PAYMENT, DixState  # noqa: E402

N = 6

#: A user's box: many copies of some wilds (contested number wilds, several stars), big currency,
#: marks for 3+ players, a card type absent.
CUSTOM_DECK = {
    **{f"{c}{k}": (2, 2, 3) for c in "BGOP" for k in range(1, 7)},
    **{f"{c}{k}": 1 for c in "BGOP" for k in range(7, 10) if (c, k) != ("P", 9)},
    "B#": 3, "G#": 1, "O#": (2, 4), "W1": 2, "W5": 3, "W9": 1, "W4": (3, 3), "**": 3,
    "$1": 4, "$2": 4, "$3": 3, "$5": 5,
}

#: Four copies of every number card: duplicates everywhere, so ALIX and the auto_pay rule pay with
#: them, and the solo player pays bids with them.
DUPLICATES_DECK = {**{f"{c}{k}": 4 for c in "BGOP" for k in range(1, 10)}, "B#": 2, "W5": 1, "**": 1,
                   "$1": 6, "$2": 6, "$3": 4, "$5": 3}

#: Every option in at least one set.
OPTION_SETS = {
    "2p": dict(num_players=2),
    "3p": dict(num_players=3),
    "4p": dict(num_players=4),
    "5p": dict(num_players=5),
    "solo_d4": dict(solo=True, difficulty=4),
    "solo_d7_bust_buy": dict(solo=True, difficulty=7, bust_buy=True),
    "solo_d10_auto_pay": dict(solo=True, difficulty=10, auto_pay=True),
    "2p_bust_buy": dict(num_players=2, bust_buy=True),
    "3p_auto_pay": dict(num_players=3, auto_pay=True),
    "4p_bust_buy_auto_pay": dict(num_players=4, bust_buy=True, auto_pay=True),
    "3p_custom_deck": dict(num_players=3, deck_spec=CUSTOM_DECK),
    "2p_custom_deck_auto_pay": dict(num_players=2, deck_spec=CUSTOM_DECK, auto_pay=True, bust_buy=True),
    "solo_d8_custom_deck": dict(solo=True, difficulty=8, deck_spec=CUSTOM_DECK),
    "solo_d6_duplicates_auto_pay": dict(solo=True, difficulty=6, deck_spec=DUPLICATES_DECK, auto_pay=True),
}


def _random(state: DixState, chooser: np.random.Generator) -> int:
    legal = state.legal_actions()
    return legal[int(chooser.integers(len(legal)))]


def _biased(state: DixState, chooser: np.random.Generator) -> int:
    """Mostly a greedy player (draws on low totals, takes numbers, bids high, buys, pays with cards),
    sometimes a random move: long auctions, payments with every kind of item, buys, busts."""
    legal = state.legal_actions()
    if chooser.random() < 0.25:
        return legal[int(chooser.integers(len(legal)))]
    phase = state.phase
    if phase == DECIDE:
        if A.DRAW in legal and state.tableau_total < 6 + int(chooser.integers(6)):
            return A.DRAW
        return A.TAKE_NUMBERS if chooser.random() < 0.8 else A.TAKE_MONEY
    if phase == AUCTION:
        if len(legal) > 1 and chooser.random() < 0.7:
            return legal[-2] if chooser.random() < 0.5 else legal[0]  # the highest bid or the lowest
        return A.PASS
    if phase == BUY:
        return legal[0] if len(legal) > 1 else A.SKIP
    if phase == PAYMENT:
        return legal[-1]  # a number card when one is held
    raise AssertionError(phase)


def _compare(batch: DixBatch, refs: list[DixState], observer: DixObserver, where: str) -> None:
    """Mask, player to act, every seat's observation, scores and end of every slot equal the reference."""
    masks = batch.masks()
    players = batch.current_players()
    terminal = batch.terminal()
    scores = batch.scores()
    keys = batch.ranking_keys()
    results = batch.win_results(batch.all_slots)
    for i, ref in enumerate(refs):
        assert np.flatnonzero(masks[i]).tolist() == ref.legal_actions(), f"{where}, slot {i}: legal mask"
        assert players[i] == ref.current_player(), f"{where}, slot {i}: player to act"
        assert terminal[i] == ref.is_terminal(), f"{where}, slot {i}: terminal"
        assert scores[i].tolist() == ref.scores(), f"{where}, slot {i}: scores"
        assert [tuple(k) for k in keys[i].tolist()] == ref.ranking_keys(), f"{where}, slot {i}: ranking keys"
        assert results[i].tolist() == win_rewards(ref.ranking_keys()), f"{where}, slot {i}: win results"
    for seat in range(batch.num_players):
        obs = batch.observe(seat)
        for i, ref in enumerate(refs):
            observer.set_from(ref, seat)
            if not np.array_equal(obs[i], observer.tensor):
                slices = observer.layout.slices
                bad = [name for name, sl in slices.items() if not np.array_equal(obs[i][sl], observer.tensor[sl])]
                pytest.fail(f"{where}, slot {i}, seat {seat}: observation differs in {bad}")
    current = batch.observe(-1)
    for i, ref in enumerate(refs):
        if ref.current_player() < 0:
            assert not current[i].any(), f"{where}, slot {i}: no observation once over"
        else:
            observer.set_from(ref, ref.current_player())
            assert np.array_equal(current[i], observer.tensor), f"{where}, slot {i}: the player to act's observation"


def _play_games(config, seed: int, choose, games: int = 2, parallel: bool = False) -> dict:
    """Both engines play ``games`` games per slot with the same moves, compared after every move."""
    gens = [np.random.default_rng(seed + i) for i in range(N)]
    refs = [GAME.new_state(config, gens[i], {}, None) for i in range(N)]
    batch = DixBatch(config, N)
    batch.parallel = parallel
    batch.new_games(batch.all_slots, seed_rows(range(seed, seed + N)))
    observer = DixObserver(config)
    chooser = np.random.default_rng(seed + 99)
    seen = dict(moves=0, payments=0, auctions=0, buys=0, consolation=0)
    for game in range(games):
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
                    actions[i] = choose(ref, chooser)
                    seen["payments"] += ref.phase == PAYMENT
                    seen["auctions"] += ref.phase == AUCTION
                    seen["buys"] += ref.phase == BUY and actions[i] != A.SKIP
                    ref.apply_action(int(actions[i]))
                    play_forced(ref, None)
                    seen["moves"] += 1
                    seen["consolation"] += sum(ref.consolation) > 0
            if step % 3 == 2:  # every entry point: apply + play_forced, apply_slots, the one-pass step
                batch.step(actions)
            elif step % 3 == 1:
                moving = np.flatnonzero(actions >= 0)
                batch.apply_slots(moving, actions[moving])
                batch.play_forced(moving)
            else:
                batch.apply(actions)
                batch.play_forced()
            step += 1
        for i in range(N):  # each slot's generator is where the reference's is
            assert generator_from_row(batch.rng, i).bit_generator.state == gens[i].bit_generator.state
        # The next game continues each slot's generator (an env's reset() without a seed).
        refs = [GAME.new_state(config, gens[i], {}, None) for i in range(N)]
        batch.new_games(batch.all_slots)
    return seen


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_compiled_engine_plays_the_reference_games_step_for_step(name: str) -> None:
    config = make_config(**OPTION_SETS[name])
    seed = 1000 + 37 * list(OPTION_SETS).index(name)
    seen = _play_games(config, seed, _random, games=1)
    seen_biased = _play_games(config, seed + 500, _biased, games=2)
    # The choices reached the decisions they were meant to (else the comparison proved less).
    assert seen["moves"] > 0 and seen_biased["auctions"] > 0 and seen_biased["buys"] > 0
    assert seen["consolation"] + seen_biased["consolation"] > 0
    if not config.auto_pay:
        assert seen_biased["payments"] > 0


def test_parallel_wrapper_plays_the_same_games() -> None:
    """Every entry point through the threaded wrapper (on one thread: a thread wake-up per small call
    costs milliseconds on a loaded machine; thread counts are compared below)."""
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        _play_games(make_config(num_players=3, bust_buy=True), 77, _biased, games=1, parallel=True)
    finally:
        numba.set_num_threads(threads)


def test_new_games_in_some_slots_leave_the_others_alone() -> None:
    config = make_config(num_players=4)
    batch = DixBatch(config, N)
    batch.parallel = False
    batch.new_games(batch.all_slots, seed_rows(range(N)))
    batch.play_forced()
    before = batch.observe(-1).copy()
    batch.new_games([2, 5], seed_rows([40, 41]))
    batch.play_forced([2, 5])
    after = batch.observe(-1)
    observer = DixObserver(config)
    for i in range(N):
        if i in (2, 5):
            ref = DixState(config, np.random.default_rng(40 if i == 2 else 41))
            play_forced(ref, None)
            observer.set_from(ref, ref.current_player())
            assert np.array_equal(after[i], observer.tensor)
        else:
            assert np.array_equal(after[i], before[i])
    # One seat per slot: slot i as seat i % 4 sees it.
    seats = np.arange(N) % 4
    mixed = batch.observe(seats)
    for i in range(N):
        assert np.array_equal(mixed[i], batch.observe(int(seats[i]))[i])


@pytest.mark.parametrize("options", [dict(num_players=3), dict(solo=True, difficulty=6, auto_pay=True)],
                         ids=["3p", "solo"])
def test_play_random_is_random_agent_play_with_new_games_when_one_ends(options: dict) -> None:
    config = make_config(**options)
    steps = 400
    batch = DixBatch(config, N)
    batch.parallel = False
    batch.new_games(batch.all_slots, seed_rows(range(7, 7 + N)))
    batch.play_forced()
    obs, masks, finished = play_random(batch, None, seed_rows(range(500, 500 + N)), steps)
    observer = DixObserver(config)
    for i in range(N):
        rng, moves = np.random.default_rng(7 + i), np.random.default_rng(500 + i)
        state, games = DixState(config, rng), 0
        legal = play_forced(state, None)
        for _ in range(steps):
            state.apply_action(legal[moves.integers(len(legal))])
            legal = play_forced(state, None)
            if not legal:
                games += 1
                state = DixState(config, rng)
                legal = play_forced(state, None)
        observer.set_from(state, state.current_player())
        expected = np.zeros(batch.num_actions, dtype=np.int8)
        expected[legal] = 1
        assert finished[i] == games and games >= 1
        assert np.array_equal(obs[i], observer.tensor), f"slot {i}: observation after {steps} random decisions"
        assert np.array_equal(masks[i], expected), f"slot {i}: mask after {steps} random decisions"
        assert generator_from_row(batch.rng, i).bit_generator.state == rng.bit_generator.state


@pytest.mark.parametrize("options, learner", [(dict(num_players=3), 1), (dict(num_players=4, bust_buy=True), 0),
                                              (dict(solo=True, difficulty=5), 0)], ids=["3p", "4p", "solo"])
@pytest.mark.parametrize("forced", [True, False])
def test_versus_step_is_the_learner_against_random_agents(options: dict, learner: int, forced: bool) -> None:
    """``versus_step``: the learner's move, forced moves, random opponents drawing from their own rows
    (as ``RandomAgent``), then the learner's observation and mask (zeros off its turn)."""
    config = make_config(**options)
    n = config.num_players
    opponents = [s for s in range(n) if s != learner and not (config.solo and s == 1)]
    seat_rows = np.full(n, -1, dtype=np.int64)
    seat_rows[opponents] = np.arange(len(opponents))
    k = len(opponents)
    opp_seeds = [[900 + 10 * g + j for j in range(k)] for g in range(N)]
    opponent_rows = seed_rows([s for row in opp_seeds for s in row]).reshape(N * k, 6)
    opp_gens = [{opponents[j]: np.random.default_rng(opp_seeds[g][j]) for j in range(k)} for g in range(N)]
    batch = DixBatch(config, N)
    batch.parallel = False
    batch.new_games(batch.all_slots, seed_rows(range(60, 60 + N)))
    refs = [DixState(config, np.random.default_rng(60 + g)) for g in range(N)]
    observer = DixObserver(config)
    chooser = np.random.default_rng(3)
    obs = np.empty((N, batch.obs_size), dtype=np.float32)
    masks = np.empty((N, batch.num_actions), dtype=np.int8)

    def opponents_move(g: int) -> None:
        ref = refs[g]
        if forced:
            play_forced(ref, None)
        while 0 <= ref.current_player() != learner:
            legal = ref.legal_actions()
            ref.apply_action(legal[opp_gens[g][ref.current_player()].integers(len(legal))])
            if forced:
                play_forced(ref, None)

    actions = np.full(N, -1, dtype=np.int64)
    for step in range(400):
        batch.versus_step(actions, learner, seat_rows, opponent_rows, forced, obs, masks)
        for g in range(N):
            if step == 0 or actions[g] >= 0:
                opponents_move(g)
            ref = refs[g]
            observer.set_from(ref, learner)
            assert np.array_equal(obs[g], observer.tensor), f"step {step}, slot {g}: observation"
            expected = np.zeros(batch.num_actions, dtype=np.int8)
            if ref.current_player() == learner:
                expected[ref.legal_actions()] = 1
            assert np.array_equal(masks[g], expected), f"step {step}, slot {g}: mask"
            assert batch.scores()[g].tolist() == ref.scores()
        if all(ref.is_terminal() for ref in refs):
            break
        for g, ref in enumerate(refs):
            actions[g] = -1
            if ref.current_player() == learner:
                actions[g] = _random(ref, chooser)
                ref.apply_action(int(actions[g]))
    assert all(ref.is_terminal() for ref in refs)
    for g in range(N):
        for j, seat in enumerate(opponents):
            state = generator_from_row(opponent_rows, g * k + j).bit_generator.state
            assert state == opp_gens[g][seat].bit_generator.state


def test_serial_and_parallel_wrappers_and_thread_counts_agree() -> None:
    """The same random play on the one-thread wrapper and on threads (1 and 2): identical arrays."""
    config = make_config(num_players=4, bust_buy=True, auto_pay=True)
    threads = numba.get_num_threads()
    runs = []
    try:
        for parallel, count in ((False, 1), (True, 1), (True, min(2, numba.config.NUMBA_NUM_THREADS))):
            numba.set_num_threads(count)
            batch = DixBatch(config, 32)
            batch.parallel = parallel
            batch.new_games(batch.all_slots, seed_rows(range(32)))
            batch.play_forced()
            obs, masks, finished = play_random(batch, None, seed_rows(range(100, 132)), 300)
            runs.append((obs.copy(), masks.copy(), finished, batch.state.copy(), batch.rng.copy()))
    finally:
        numba.set_num_threads(threads)
    for other in runs[1:]:
        for a, b in zip(runs[0], other):
            assert np.array_equal(a, b)


_THREADS_SCRIPT = """
import hashlib, numpy as np
from dixenv.compiled.rng import seed_rows
from dixenv.games.dix.compiled import DixBatch, play_random
from dixenv.games.dix.config import make_config
batch = DixBatch(make_config(num_players=5, bust_buy=True), 48)
batch.new_games(batch.all_slots, seed_rows(range(48)))
batch.play_forced()
obs, masks, finished = play_random(batch, None, seed_rows(range(200, 248)), 250)
h = hashlib.sha256()
for a in (obs, masks, finished, batch.state, batch.rng):
    h.update(np.ascontiguousarray(a).tobytes())
print(h.hexdigest())
"""


def test_results_do_not_depend_on_numba_num_threads() -> None:
    """Fresh processes with NUMBA_NUM_THREADS=1 and 2 play the same games bit for bit."""
    import os
    import subprocess
    import sys

    digests = []
    for threads in ("1", "2"):
        env = dict(os.environ, NUMBA_NUM_THREADS=threads)
        run = subprocess.run([sys.executable, "-c", _THREADS_SCRIPT], env=env, capture_output=True, text=True,
                             check=True)
        digests.append(run.stdout.split()[-1])
    assert digests[0] == digests[1]


def test_arguments_are_checked() -> None:
    batch = DixBatch(make_config(num_players=3), 4)
    with pytest.raises(ValueError, match="repeat"):
        batch.new_games([1, 1], seed_rows([0, 1]))
    with pytest.raises(ValueError, match="0..3"):
        batch.play_forced([4])
    with pytest.raises(ValueError, match="seats"):
        batch.observe(3)
    with pytest.raises(TypeError, match="DixConfig"):
        DixBatch({"num_players": 2}, 4)  # type: ignore[arg-type]
    # Fresh slots are over until dealt.
    assert batch.terminal().all() and (batch.current_players() == -1).all() and not batch.masks().any()


def test_dixenv_imports_without_the_compiled_engine() -> None:
    import subprocess
    import sys

    code = ("import sys, dixenv, dixenv.dix_v0; "
            "assert 'numba' not in sys.modules and 'dixenv.games.dix.compiled' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
