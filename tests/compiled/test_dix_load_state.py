"""``DixBatch.load_states`` and ``copy_slots``: a reference dix state written into a slot plays on as the reference.

For every option set, reference games (a mostly greedy player, so auctions, payments and buys
happen) are stopped at decisions of every phase (a draw decision, an auction, a payment, a buy,
the last card drawn, the game's end); each stopped state (a clone) and a ``sample_hidden`` world of
it (the pile reshuffled) are loaded into a batch, then the batch and the references take the same
moves to the end of the game: masks, player to act, every seat's observation (bit for bit), scores,
ranking keys and end agree at every step.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dixenv.compiled.rng import seed_rows  # noqa: E402
from dixenv.games.dix.compiled import DixBatch  # noqa: E402
from dixenv.games.dix.config import make_config  # noqa: E402
from dixenv.games.dix.observation import DixObserver  # noqa: E402
from dixenv.games.dix.state import AUCTION, BUY, DECIDE, GAME_OVER, PAYMENT, DixState  # noqa: E402
from tests.compiled.test_dix_compiled import OPTION_SETS, _biased, _compare  # noqa: E402

#: The kinds of decision a game is stopped at (``_kind``).
KINDS = ("decide", "auction", "payment", "buy", "last card drawn", "game over")


def _kind(state: DixState) -> str:
    if state.phase == GAME_OVER:
        return "game over"
    if state.last_drawn:
        return "last card drawn"
    return {DECIDE: "decide", AUCTION: "auction", PAYMENT: "payment", BUY: "buy"}[state.phase]


def _stopped_states(config, seed: int) -> list[DixState]:
    """States of games stopped at decisions of every kind that occurs (``KINDS``), one of each."""
    chooser = np.random.default_rng(seed)
    found: dict[str, DixState] = {}
    for game in range(30):
        state = DixState(config, np.random.default_rng([seed, game]))
        while True:
            kind = _kind(state)
            if kind not in found and (chooser.random() < 0.2 or kind in ("game over", "last card drawn")):
                found[kind] = state.clone()
            if state.phase == GAME_OVER:
                break
            state.apply_action(_biased(state, chooser))
        if len(found) == len(KINDS):
            break
    return [found[k] for k in KINDS if k in found]


def _play_both(batch: DixBatch, refs: list[DixState], seed: int, where: str) -> None:
    """The same moves in the batch and the references to the end; compare at every step."""
    observer = DixObserver(batch.config)
    chooser = np.random.default_rng(seed)
    step = 0
    while True:
        _compare(batch, refs, observer, f"{where}, step {step}")
        if all(ref.is_terminal() for ref in refs):
            break
        actions = np.full(batch.n, -1, dtype=np.int64)
        for i, ref in enumerate(refs):
            if not ref.is_terminal():
                actions[i] = _biased(ref, chooser)
                ref.apply_action(int(actions[i]))
        batch.apply(actions)
        step += 1


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_loaded_states_play_on_as_the_reference(name: str) -> None:
    config = make_config(**OPTION_SETS[name])
    seed = 11 + len(name)
    stopped = _stopped_states(config, seed)
    needed = {"decide", "auction", "last card drawn", "game over"} | (set() if config.auto_pay else {"payment"})
    assert {_kind(s) for s in stopped} >= needed, "a stop of every kind (auto_pay makes no payment decisions)"
    worlds = [s.sample_hidden(max(s.current_player(), 0), np.random.default_rng([seed, k]))
              for k, s in enumerate(stopped) if s.phase != GAME_OVER]
    refs = [s.clone() for s in stopped] + worlds
    batch = DixBatch(config, len(refs) + 2)
    batch.new_games(batch.all_slots, seed_rows(range(batch.n)))  # the slots held other games before
    batch.load_states(np.arange(len(refs)), [r.clone() for r in refs])
    # the two spare slots: copies of the first stopped state and of the first world
    batch.copy_slots([0, len(stopped)], [len(refs), len(refs) + 1])
    refs += [refs[0].clone(), refs[len(stopped)].clone()]
    _play_both(batch, refs, seed, name)


def test_one_slot_copied_to_many_plays_the_same_game() -> None:
    config = make_config(num_players=3)
    state = _stopped_states(config, 5)[0]
    batch = DixBatch(config, 5)
    batch.load_states([2], [state])
    batch.copy_slots(2, [0, 1, 3, 4])
    assert (batch.state == batch.state[2]).all() and (batch.rng == batch.rng[2]).all()
    _play_both(batch, [state.clone() for _ in range(5)], 0, "copies")


def test_bad_states_are_refused() -> None:
    config = make_config(num_players=3)
    batch = DixBatch(config, 2)
    before = batch.state.copy()
    with pytest.raises(ValueError, match="has config"):
        batch.load_states([0], [DixState(make_config(num_players=4), np.random.default_rng(0))])
    with pytest.raises(ValueError, match="not a DixState"):
        batch.load_states([0], [object()])
    with pytest.raises(ValueError, match="2 states for 1 slots"):
        batch.load_states([0], [DixState(config, np.random.default_rng(0))] * 2)
    stacked = DixState(config, np.random.default_rng(0), {"deck": ["B1", "G2", "O3", "$1"], "first_player": 0})
    if stacked.pile_start != sum(config.box):
        with pytest.raises(ValueError, match="scenario"):
            batch.load_states([1], [stacked])
    assert (batch.state == before).all(), "a refused load changes nothing"
    with pytest.raises(ValueError, match="slots must be in 0..1"):
        batch.copy_slots(0, [2])
