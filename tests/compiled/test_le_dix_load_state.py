"""``LeDixBatch.load_states`` and ``copy_slots``: a reference state written into a slot plays on as the reference.

For every option set, reference games are stopped at decisions of every phase (trump choice,
discard, bidding, a trick's lead, mid-trick, the first decision of a later deal, the game's end);
each stopped state (a clone, its generator included) and a ``sample_hidden`` world of it are
loaded into a batch, then the batch and the references take the same random legal moves to the
end of the game: masks, player to act, every seat's observation (bit for bit), scores and end agree
at every step, and each slot's generator ends where its reference's does.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dixenv.compiled.rng import generator_from_row, seed_rows  # noqa: E402
from dixenv.games.le_dix.compiled import LeDixBatch  # noqa: E402
from dixenv.games.le_dix.config import make_config  # noqa: E402
from dixenv.games.le_dix.observation import LeDixObserver  # noqa: E402
from dixenv.games.le_dix.state import BIDDING, DISCARD, GAME_OVER, PLAYING, TRUMP_CHOICE, LeDixState  # noqa: E402
from tests.compiled.test_le_dix_compiled import OPTION_SETS, _compare  # noqa: E402

#: The kinds of decision a game is stopped at (``_kind``).
KINDS = ("trump choice", "discard", "bidding", "lead", "mid-trick", "later deal", "game over")


def _kind(state: LeDixState) -> str:
    if state.phase == GAME_OVER:
        return "game over"
    if state.deal_index > 0 and state.phase == TRUMP_CHOICE:
        return "later deal"
    if state.phase == PLAYING:
        return "mid-trick" if state.trick else "lead"
    return {TRUMP_CHOICE: "trump choice", DISCARD: "discard", BIDDING: "bidding"}[state.phase]


def _stopped_states(config, seed: int, per_kind: int = 1) -> list[LeDixState]:
    """States of random games stopped at decisions of every kind (``KINDS``), ``per_kind`` of each at
    most, chosen at random among the decisions of that kind (the generator of each is its own)."""
    rng = np.random.default_rng(seed)
    found: dict[str, list[LeDixState]] = {k: [] for k in KINDS}
    for game in range(40):
        state = LeDixState(config, np.random.default_rng([seed, game]), {}, None)
        while True:
            kind = _kind(state)
            if len(found[kind]) < per_kind and rng.random() < 0.3 or (kind == "game over" and not found[kind]):
                found[kind].append(state.clone())
            if state.phase == GAME_OVER:
                break
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        if all(len(v) >= per_kind for v in found.values()):
            break
    return [s for kind in KINDS for s in found[kind]]


def _play_both(batch: LeDixBatch, refs: list[LeDixState], seed: int, where: str) -> None:
    """The same random legal moves in the batch and the references to the end; compare at every step."""
    observer = LeDixObserver(batch.config)
    pick = np.random.default_rng(seed)
    step = 0
    while True:
        _compare(batch, refs, observer, f"{where}, step {step}")
        if all(ref.is_terminal() for ref in refs):
            break
        actions = np.full(batch.n, -1, dtype=np.int64)
        for i, ref in enumerate(refs):
            if not ref.is_terminal():
                legal = ref.legal_actions()
                actions[i] = legal[pick.integers(len(legal))]
                ref.apply_action(int(actions[i]))
        batch.apply(actions)
        step += 1
    for i, ref in enumerate(refs):  # each slot's generator is where the reference's is
        assert generator_from_row(batch.rng, i).bit_generator.state == ref.rng.bit_generator.state, f"{where}, slot {i}"


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_loaded_states_play_on_as_the_reference(options: dict) -> None:
    config = make_config(**options)
    full = len(config.deals) > 3  # the default schedule: fewer seeds, its games are long
    for seed in range(1 if full else 3):
        seed += 100 * config.num_players + 7 * len(config.deals)
        stopped = _stopped_states(config, seed)
        optional = {"discard"} | ({"later deal"} if len(config.deals) == 1 else set())
        assert {_kind(s) for s in stopped} >= set(KINDS) - optional, "a stop of every kind"
        worlds = []
        for k, state in enumerate(stopped):
            if state.phase != GAME_OVER:  # a world of what the seat to act knows
                worlds.append(state.sample_hidden(state.current_player(), np.random.default_rng([seed, k])))
            worlds.append(state.sample_hidden((state.dealer + 1) % config.num_players, np.random.default_rng(k)))
        refs = [s.clone() for s in stopped] + worlds
        batch = LeDixBatch(config, len(refs) + 2)
        batch.new_games(batch.all_slots, seed_rows(range(batch.n)))  # the slots held other games before
        batch.load_states(np.arange(len(refs)), [r.clone() for r in refs])
        # the two spare slots: copies of the first stopped state and of the first world
        batch.copy_slots([0, len(stopped)], [len(refs), len(refs) + 1])
        refs += [refs[0].clone(), refs[len(stopped)].clone()]
        _play_both(batch, refs, seed, f"seed {seed}")


def test_one_slot_copied_to_many_plays_the_same_game() -> None:
    config = make_config(num_players=4, deals=(5, 4))
    state = _stopped_states(config, 3)[3]  # a trick's lead
    batch = LeDixBatch(config, 6)
    batch.load_states([2], [state])
    batch.copy_slots(2, [0, 1, 3, 4, 5])
    for array in (batch.ints, batch.seats, batch.cards, batch.rng):
        assert (array == array[2]).all()
    _play_both(batch, [state.clone() for _ in range(6)], 0, "copies")


def test_bad_states_are_refused() -> None:
    config = make_config(num_players=4, deals=(3, 2))
    batch = LeDixBatch(config, 3)
    state = LeDixState(config, np.random.default_rng(0), {}, None)
    with pytest.raises(ValueError, match="3 players; this batch plays 4"):
        batch.load_states([0], [LeDixState(make_config(num_players=3, deals=(3, 2)), np.random.default_rng(0), {}, None)])
    with pytest.raises(ValueError, match="config"):
        batch.load_states([0], [LeDixState(make_config(num_players=4, deals=(3,)), np.random.default_rng(0), {}, None)])
    with pytest.raises(ValueError, match="not a LeDixState"):
        batch.load_states([0], ["a state"])
    with pytest.raises(ValueError, match="2 states for 1 slots"):
        batch.load_states([0], [state, state])
    with pytest.raises(ValueError, match="repeat"):
        batch.load_states([1, 1], [state, state])
    with pytest.raises(ValueError, match="0..2"):
        batch.load_states([3], [state])
    odd = state.clone()
    odd.rng = np.random.Generator(np.random.MT19937(0))
    with pytest.raises(ValueError, match="PCG64"):
        batch.load_states([0], [odd])
    with pytest.raises(ValueError, match="0..2"):
        batch.copy_slots([5], [0])
    with pytest.raises(ValueError, match="repeat"):
        batch.copy_slots(0, [1, 1])
