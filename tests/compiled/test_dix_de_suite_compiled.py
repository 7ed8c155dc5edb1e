"""The compiled dix de suite engine plays exactly the reference engine's games, move by move.

Slot i of a batch seeded s against ``DixDeSuiteState`` built with ``np.random.default_rng(s + i)``:
the same actions on both sides, and at every step the legal masks, the player to act, the
observation of every seat (bit for bit), scores, terminal and truncated must agree; then a
second game per slot from the same generator (an env's next unseeded reset), and at the end
the generators themselves. Every option is played (``OPTION_SETS``); wins that need runs are set
up from stacked decks loaded into the batch; ``play_random`` is checked against the same steps
taken one by one, and results against the thread count.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import numba  # noqa: E402

import dixenv.dix_de_suite_v0 as dds  # noqa: E402
from dixenv.compiled.rng import generator_from_row, seed_rows  # noqa: E402
from dixenv.core.aec import play_forced  # noqa: E402
from dixenv.games.dix_de_suite import actions as A  # noqa: E402
from dixenv.games.dix_de_suite.compiled import DixDeSuiteBatch, play_random  # noqa: E402
from dixenv.games.dix_de_suite.observation import make_observer  # noqa: E402
from dixenv.games.dix_de_suite.state import PHASE_PLACE  # noqa: E402

N = 8


@pytest.fixture
def one_thread():
    """Step-by-step tests call many small kernels: one thread avoids a thread wake-up per call
    (milliseconds on a loaded machine); the results do not depend on it (tested below)."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


#: Every option, each in at least one set; small targets and turn limits so that games end by
#: the target (several rounds), by truncation, and turn the draw pile over (with and without reshuffle).
OPTION_SETS = {
    "2p": dict(num_players=2, target_score=100, max_turns=400),
    "3p": dict(num_players=3, target_score=100, max_turns=400),
    "4p": dict(num_players=4, target_score=100, max_turns=400),
    "4p_teams": dict(num_players=4, teams=True, target_score=150, max_turns=400),
    "2p_two_player_run": dict(num_players=2, two_player_run=True, target_score=100, max_turns=250),
    "2p_run_bonus": dict(num_players=2, run_bonus=True, target_score=100, max_turns=400),
    "2p_reshuffle": dict(num_players=2, reshuffle=True, target_score=100, max_turns=400),
    "3p_reshuffle_run_bonus": dict(num_players=3, reshuffle=True, run_bonus=True, target_score=100, max_turns=400),
    "4p_teams_reshuffle_truncated": dict(num_players=4, teams=True, reshuffle=True, max_turns=40),
    "2p_truncated": dict(num_players=2, max_turns=30),
}


def _choose(state, chooser: np.random.Generator) -> int:
    """A legal action: mostly a sorting heuristic (so rounds end), sometimes a uniformly random one.

    The heuristic gives slot k the cards of the k-th tenth of the deck; a rack of such cards is
    ascending, so rounds are won and games reach the target. Random moves cover the rest.
    """
    legal = state.legal_actions()
    if chooser.random() < 0.2:
        return legal[int(chooser.integers(len(legal)))]
    d = state.config.deck_size
    rack = state.racks[state.current]

    def band(card: int) -> int:
        return (card - 1) * 10 // d

    def wanted(card: int) -> bool:
        return band(rack[band(card)]) != band(card)

    if state.phase == PHASE_PLACE:
        if wanted(state.held) or state.held_from_discard:
            return A.SWAP_BASE + band(state.held)
        return A.DISCARD
    return A.TAKE_DISCARD if wanted(state.discard[-1]) else A.DRAW


def _ref_mask(state) -> np.ndarray:
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[state.legal_actions()] = 1
    return mask


def _compare(batch: DixDeSuiteBatch, refs: list, observer, where: str) -> None:
    n = batch.num_seats
    masks = batch.masks()
    for i, ref in enumerate(refs):
        assert np.array_equal(masks[i], _ref_mask(ref)), f"{where} slot {i}: mask"
    assert batch.current_players().tolist() == [r.current_player() for r in refs], where
    assert batch.scores().tolist() == [r.scores() for r in refs], where
    assert batch.terminal().tolist() == [r.is_terminal() for r in refs], where
    assert batch.truncated().tolist() == [r.is_truncated() for r in refs], where
    out = np.empty((batch.n, batch.obs_size), dtype=np.float32)
    for seat in range(n):
        batch.observe(seat, out)
        for i, ref in enumerate(refs):
            observer.set_from(ref, seat)
            if not np.array_equal(out[i], observer.tensor):
                bad = np.nonzero(out[i] != observer.tensor)[0]
                pieces = [name for j in bad[:5] for name, s in observer.layout.slices.items() if s.start <= j < s.stop]
                raise AssertionError(f"{where} slot {i} seat {seat}: observation differs at {bad[:5]} ({pieces})")
    # seat -1: the player to act's observation, a zero row where no one is to act (as le_dix's and dix's batches)
    to_act = batch.observe(-1)
    for i, ref in enumerate(refs):
        if ref.current_player() < 0:
            assert not to_act[i].any(), f"{where} slot {i}: observe(-1) of a finished game"
        else:
            observer.set_from(ref, ref.current_player())
            assert np.array_equal(to_act[i], observer.tensor), f"{where} slot {i}: observe(-1)"


def _play_until_over(
    batch, refs, observer, chooser, where: str, seen: dict, script: tuple = (), every: int = 1, choose=_choose
) -> None:
    """Play both sides to the end of every game (``script``: the first actions of every slot, then
    ``choose(state, chooser)``), comparing every ``every`` steps and at the end."""
    _compare(batch, refs, observer, f"{where} start")
    step = 0
    while any(r.current_player() >= 0 for r in refs):
        actions = np.full(batch.n, -1, dtype=np.int64)
        for i, ref in enumerate(refs):
            if ref.current_player() >= 0:
                actions[i] = script[step] if step < len(script) else choose(ref, chooser)
                ref.apply_action(int(actions[i]))
                play_forced(ref, None)
        batch.apply(actions)
        batch.play_forced()
        step += 1
        if step % every == 0 or all(r.current_player() < 0 for r in refs):
            _compare(batch, refs, observer, f"{where} step {step}")
        for ref in refs:
            seen["turnovers"] = max(seen["turnovers"], ref.turnovers)
            seen["pools"] = max(seen["pools"], ref.pool)
            seen["rounds"] = max(seen["rounds"], ref.round)
            if ref.last_round_points is not None:
                seen["bonus"] = max(seen["bonus"], max(ref.last_round_points))
    seen["terminal"] += sum(r.is_terminal() for r in refs)
    seen["truncated"] += sum(r.is_truncated() for r in refs)


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_compiled_engine_plays_the_reference_games_move_by_move(name: str, one_thread) -> None:
    opts = OPTION_SETS[name]
    env = dds.raw_env(**opts)
    config = env.config
    seed = 1000 + 17 * list(OPTION_SETS).index(name)
    generators = [np.random.default_rng(seed + i) for i in range(N)]
    refs = [env.game.new_state(config, generators[i], {}, None) for i in range(N)]
    for ref in refs:
        play_forced(ref, None)
    batch = DixDeSuiteBatch(config, N)
    batch.new_games(None, seed_rows([seed + i for i in range(N)]))
    batch.play_forced()
    observer = make_observer(config)
    chooser = np.random.default_rng(seed)
    seen = dict(terminal=0, truncated=0, turnovers=0, pools=0, rounds=0, bonus=0)
    _play_until_over(batch, refs, observer, chooser, f"{name} game 1", seen)
    # A second game in every slot from the same generators: the env's next unseeded reset.
    refs = [env.game.new_state(config, generators[i], {}, None) for i in range(N)]
    for ref in refs:
        play_forced(ref, None)
    batch.new_games()
    batch.play_forced()
    _play_until_over(batch, refs, observer, chooser, f"{name} game 2", seen)
    for i in range(N):
        assert generator_from_row(batch.rng, i).bit_generator.state == generators[i].bit_generator.state
    # The options set up to reach these events did reach them (else the comparison proved less).
    # (Wins under two_player_run and run bonuses need runs, which this chooser rarely builds:
    # test_round_won_with_a_run_on_a_stacked_deck covers them.)
    assert seen["turnovers"] > 0
    if config.max_turns <= 40 or config.two_player_run:
        assert seen["truncated"] > 0
    else:
        assert seen["terminal"] > 0 and seen["rounds"] >= 2
    if config.reshuffle:
        assert seen["pools"] > 0


def test_long_round_past_the_recency_table(one_thread) -> None:
    """Recencies 1 / k come from a table up to k = INV_MAX and are divided beyond: each player
    puts its first card into slot 1, then only draws and discards, until slot 1 was replaced
    more than INV_MAX own turns ago."""
    from dixenv.games.dix_de_suite.compiled import INV_MAX

    env = dds.raw_env(num_players=2, max_turns=2 * INV_MAX + 40)
    config = env.config
    refs = [env.game.new_state(config, np.random.default_rng(77 + i), {}, None) for i in range(2)]
    batch = DixDeSuiteBatch(config, 2)
    batch.new_games(None, seed_rows([77, 78]))

    def draw_and_discard(state, chooser) -> int:
        return A.DRAW if state.phase != PHASE_PLACE else A.DISCARD

    seen = dict(terminal=0, truncated=0, turnovers=0, pools=0, rounds=0, bonus=0)
    script = (A.DRAW, A.SWAP_BASE, A.DRAW, A.SWAP_BASE)  # both seats: slot 1 at their first turn
    _play_until_over(batch, refs, make_observer(config), None, "long round", seen, script, every=20, choose=draw_and_discard)
    assert seen["truncated"] == 2
    assert all(r.seat_turns[s] - r.slot_turn[s][0] > INV_MAX for r in refs for s in range(2))


def _stacked_deck(racks: list[list[int]], top: int) -> list[int]:
    """The deck (top first) that deals ``racks[s]`` to seat s when seat n−1 deals, ``top`` on the discard pile."""
    n = len(racks)
    order = [0] * (10 * n)
    for s, rack in enumerate(racks):
        for k, card in enumerate(rack):
            order[n * (9 - k) + s] = card
    return order + [top]


def _first_rack(run: bool, d: int) -> tuple[list[int], int]:
    """Seat 0's rack and the discard pile's top card. With ``run``: 1..10 but for the top card D in
    slot 9, and 9 on the discard pile, so taking it into slot 9 makes dix de suite with a run of
    10. Without: ascending without a run once 18 goes into slot 9 (no win under two_player_run,
    a win without a bonus otherwise)."""
    if run:
        return [1, 2, 3, 4, 5, 6, 7, 8, d, 10], 9
    return [2, 4, 6, 8, 11, 13, 15, 17, d, 20], 18


@pytest.mark.parametrize(
    "opts",
    [
        dict(num_players=2, run_bonus=True, target_score=400),
        dict(num_players=2, two_player_run=True, target_score=100, max_turns=200),
        dict(num_players=4, teams=True, run_bonus=True, target_score=480, max_turns=200),
    ],
    ids=["run_bonus", "two_player_run", "teams_run_bonus"],
)
def test_round_won_with_a_run_on_a_stacked_deck(opts: dict, one_thread) -> None:
    """Wins that need runs, scored with bonuses and team totals: a reference state dealt from a
    stacked deck is loaded into each slot, then both engines play on (later rounds are dealt
    from the generator on both sides)."""
    env = dds.raw_env(**opts)
    config = env.config
    n = config.num_players
    others = [[21 + 10 * s + k for k in range(10)][::-1] for s in range(n - 1)]
    refs, batch = [], DixDeSuiteBatch(config, N)
    for i in range(N):
        rack, top = _first_rack(i % 2 == 0, config.deck_size)
        deck = _stacked_deck([rack] + others, top)
        ref = env.game.new_state(config, np.random.default_rng(500 + i), {"deck": deck, "dealer": n - 1}, None)
        batch.load(i, ref)
        refs.append(ref)
    seen = dict(terminal=0, truncated=0, turnovers=0, pools=0, rounds=0, bonus=0)
    script = (A.TAKE_DISCARD, A.SWAP_BASE + 8)
    _play_until_over(batch, refs, make_observer(config), np.random.default_rng(1), "stacked", seen, script)
    assert seen["rounds"] >= 2
    if config.run_bonus:
        assert seen["bonus"] == 475
    if config.teams:
        assert seen["terminal"] > 0


def test_play_random_is_random_agent_steps_with_unseeded_resets(one_thread) -> None:
    """``play_random`` = pick ``legal[integers(len(legal))]``, apply, and deal anew from the game rows."""
    config = dds.raw_env(num_players=3, reshuffle=True, max_turns=12).config
    a, b = DixDeSuiteBatch(config, N), DixDeSuiteBatch(config, N)
    a.seed(7)
    b.seed(7)
    moves_a = seed_rows([50 + g for g in range(N)])
    moves_b = [np.random.default_rng(50 + g) for g in range(N)]
    steps = 60
    obs, masks = play_random(a, None, moves_a, steps)
    for _ in range(steps):
        legal = [np.flatnonzero(m) for m in b.masks()]
        b.apply(np.array([legal[g][moves_b[g].integers(len(legal[g]))] for g in range(N)]))
        b.play_forced()
        over = np.flatnonzero(b.current_players() < 0)
        if over.size:
            b.new_games(over)
            b.play_forced(over)
    assert np.array_equal(a.state, b.state)
    assert np.array_equal(a.rng, b.rng)
    assert np.array_equal(obs, b.observe(b.current_players()))
    assert np.array_equal(masks, b.masks())
    for g in range(N):
        assert generator_from_row(moves_a, g).bit_generator.state == moves_b[g].bit_generator.state


def test_results_do_not_depend_on_the_thread_count() -> None:
    """One thread, two threads, and the one-thread wrapper (``parallel = False``) play the same games."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba runs one thread here")
    config = dds.raw_env(num_players=4, reshuffle=True, teams=True, max_turns=50).config
    results = []
    before = numba.get_num_threads()
    try:
        for threads, parallel in ((1, True), (2, True), (2, False)):
            numba.set_num_threads(threads)
            batch = DixDeSuiteBatch(config, 64)
            batch.parallel = parallel
            batch.seed(3)
            obs, masks = play_random(batch, None, seed_rows(range(64)), 200)
            results.append((obs, masks, batch.rng.copy(), batch.state.copy()))
    finally:
        numba.set_num_threads(before)
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert np.array_equal(a, b)


@pytest.mark.parametrize("game", ["le_dix", "dix", "dix_de_suite"])
@pytest.mark.parametrize("seat", [-2, 9])
def test_every_batch_refuses_a_seat_outside_minus_one_to_its_seats(game, seat) -> None:
    from dixenv.compiled.vector import _batch_class
    from dixenv.games import game_spec

    record = game_spec(game).game_record()
    batch = _batch_class(game)(record.make_config(num_players=3), 2)
    batch.new_games(np.arange(2), seed_rows([1, 2]))
    before = batch.observe(-1).copy()
    with pytest.raises(ValueError, match=r"-1 \(the player to act\) or 0\.\.2"):
        batch.observe(seat)
    assert np.array_equal(batch.observe(-1), before)
