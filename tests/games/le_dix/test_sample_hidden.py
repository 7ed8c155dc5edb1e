"""``sample_hidden``: a state consistent with all a seat knows, the rest redrawn uniformly."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from dixenv import le_dix_v0
from dixenv.agents.le_dix_heuristic import LeDixHeuristic
from dixenv.games.le_dix import actions as A
from dixenv.games.le_dix.cards import SUIT_OF
from dixenv.games.le_dix.config import make_config
from dixenv.games.le_dix.observation import LeDixObserver
from dixenv.games.le_dix.state import PLAYING, LeDixState
from tests.games.le_dix.helpers import play, stacked_deck

OPTION_SETS = [
    {"num_players": 3},
    {"num_players": 4, "scoring": "oh_hell", "deals": (12, 3, 1)},
    {"num_players": 5, "hook": True},
]


def _observation(observer: LeDixObserver, state: LeDixState, seat: int) -> np.ndarray:
    observer.set_from(state, seat)
    return observer.tensor.copy()


def _hidden(state: LeDixState, seat: int) -> tuple:
    """What ``seat`` cannot see: the other hands, the discard unless it dealt, the undealt set."""
    others = tuple(tuple(h) for s, h in enumerate(state.hands) if s != seat)
    discard = state.dealer_discard if seat != state.dealer else None
    return others, discard, tuple(sorted(state.undealt))


def _play_out(state: LeDixState, rng: np.random.Generator) -> None:
    while state.current_player() >= 0:
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    state.check_invariants()


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_samples_keep_the_seats_view_and_play_on_legally(options):
    env = le_dix_v0.raw_env(**options)
    n = env.config.num_players
    observer = LeDixObserver(env.config)
    heuristic = LeDixHeuristic(env)
    rng, sample_rng = np.random.default_rng(0), np.random.default_rng(1)
    checked = varied = 0
    for game in range(6):
        env.reset(seed=game)
        step = 0
        while not all(env.terminations.values()):
            state = env.state
            if step % 3 == 0:
                seat = step % n
                samples = [state.sample_hidden(seat, sample_rng) for _ in range(3)]
                for sample in samples:
                    sample.check_invariants()
                    assert np.array_equal(_observation(observer, sample, seat), _observation(observer, state, seat))
                    assert sample.current_player() == state.current_player()
                    if state.current_player() == seat:
                        assert sample.legal_actions() == state.legal_actions()
                    assert sample.scores() == state.scores() and sample.events is None
                varied += len({_hidden(s, seat) for s in samples}) > 1
                checked += 1
                if step % 30 == 0:
                    _play_out(samples[0], rng)
            obs = env.observe(env.agent_selection)
            legal = np.flatnonzero(obs["action_mask"])
            action = heuristic.act(obs) if game % 2 else int(rng.choice(legal))  # heuristic and random games
            env.step(action)
            step += 1
    assert checked > 100 and varied > checked // 2


def test_hidden_cards_the_discard_and_the_future_deals_vary_across_samples():
    state = LeDixState(make_config(num_players=4, deals=(8, 8)), np.random.default_rng(4), {"dealer": 0})
    state.apply_action(A.TAKE_TRUMP)
    state.apply_action(A.DISCARD_BASE + state.hands[0][0])
    rng = np.random.default_rng(5)
    samples = [state.sample_hidden(2, rng) for _ in range(30)]
    assert len({tuple(s.hands[1]) for s in samples}) > 20
    assert len({s.dealer_discard for s in samples}) > 10  # player_2 did not see the discard
    assert len({tuple(sorted(s.undealt)) for s in samples}) > 20
    nexts = set()
    for s in samples[:5]:
        _finish_deal(s, np.random.default_rng(0))
        nexts.add(tuple(s.hands[2]))
    assert len(nexts) == 5  # each sample deals its own future
    # The dealer itself knows its discard: its samples keep it.
    assert {state.sample_hidden(0, rng).dealer_discard for _ in range(10)} == {state.dealer_discard}


def _finish_deal(state: LeDixState, rng: np.random.Generator) -> None:
    deal = state.deal_index
    while state.deal_index == deal:
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])


def _samples(state: LeDixState, seat: int, seed: int, count: int = 5) -> list[tuple]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        s = state.sample_hidden(seat, rng)
        out.append((_hidden(s, seat), s.hands[seat], s.rng.integers(1 << 62)))
    return out


def test_a_sample_depends_only_on_what_the_seat_knows():
    rng = np.random.default_rng(6)
    for game in range(20):
        state = LeDixState(make_config(num_players=4), np.random.default_rng(game), {})
        for _ in range(int(rng.integers(0, 45))):
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        seat = int(rng.integers(4))
        # Another world the seat cannot tell apart: hidden cards redrawn, undealt cards in another
        # order, another generator for the future.
        other = state.sample_hidden(seat, np.random.default_rng(100 + game))
        other.undealt.reverse()
        assert _samples(state, seat, game) == _samples(other, seat, game)


def test_two_stacked_games_that_differ_only_in_hidden_cards_give_the_same_samples():
    # Three players, dealer 2: player_1's 3H (one game) or 5H (the other) is never played before
    # player_0 looks; the games use different seeds for the undealt order.
    hands_a = {0: ["AS", "5C", "6D", "7D"], 1: ["KS", "3C", "2H", "3H"], 2: ["QS", "4C", "9C", "4H"]}
    hands_b = {0: hands_a[0], 1: ["KS", "3C", "2H", "5H"], 2: hands_a[2]}
    script = ["leave trump", "bid 1", "bid 1", "bid 1", "play AS", "play KS", "play QS", "play 5C", "play 3C", "play 9C", "play 4H"]
    states = []
    for hands, tail, seed in ((hands_a, ["5H"], 0), (hands_b, ["3H"], 1)):
        env = le_dix_v0.raw_env(num_players=3, deals=(4, 2), auto_forced=False)
        env.reset(seed=seed, options={"deck": stacked_deck(hands, "TS", 2, 3) + tail, "dealer": 2})
        play(env, *script)
        states.append(env.state)
    assert states[0].hands[1] != states[1].hands[1]
    assert _samples(states[0], 0, 9) == _samples(states[1], 0, 9)


@pytest.mark.parametrize("seat", [3, -1, 1.0, "1"])
def test_sample_hidden_refuses_a_seat_that_is_not_at_the_table(seat):
    state = LeDixState(make_config(num_players=3), np.random.default_rng(0), {})
    with pytest.raises(ValueError, match=r"not at the table; seats are 0\.\.2"):
        state.sample_hidden(seat, np.random.default_rng(0))


def test_sample_hidden_refuses_a_state_no_deal_fits():
    state = LeDixState(make_config(num_players=3, deals=(4,)), np.random.default_rng(0), {})
    state.voids[1] = 0b1111  # player_1 "showed" it holds no suit at all, yet has 4 cards
    with pytest.raises(ValueError, match="no deal fits"):
        state.sample_hidden(0, np.random.default_rng(0))


# --- the exact distribution in a small case ---------------------------------------------------
#: The chi-square distribution's 0.999 quantile by degrees of freedom (a standard table).
CHI2_999 = {
    9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 13: 34.528, 14: 36.123, 15: 37.697, 16: 39.252,
    17: 40.790, 18: 42.312, 19: 43.820, 20: 45.315, 21: 46.797, 22: 48.268, 23: 49.728, 24: 51.179,
    25: 52.620, 26: 54.052, 27: 55.476, 28: 56.892, 29: 58.301,
}


def _consistent_worlds(state: LeDixState, seat: int) -> set[tuple]:
    """By brute force: every (other hands, discard) that fits what ``seat`` knows (no undealt cards here)."""
    others = [s for s in range(state.num_seats) if s != seat]
    known = set(state.hands[seat]) | set(state.played)
    candidates = sorted(c for c in range(52) if c not in known)  # the unseen cards and the turned-up one
    sizes = [len(state.hands[s]) for s in others] + [1]
    slots = [i for i, k in enumerate(sizes) for _ in range(k)]
    worlds = set()
    for order in itertools.permutations(candidates):
        parts = [tuple(sorted(c for c, slot in zip(order, slots) if slot == i)) for i in range(len(sizes))]
        hands = dict(zip(others, parts))
        if any(state.voids[s] >> SUIT_OF[c] & 1 for s in others for c in hands[s]):
            continue  # a seat holding a suit it showed a void in
        if any(state.trump_card in hands[s] for s in others if s != state.dealer):
            continue  # only the dealer can hold the turned-up card
        worlds.add((tuple(parts[:-1]), parts[-1][0]))
    return worlds


def _small_case() -> tuple[LeDixState, int, set[tuple]]:
    """A three-player deal of 17 (no undealt card) with two cards left each, voids shown, and the
    turned-up card taken and unplayed: it is in the dealer's hand or was the discard."""
    config = make_config(num_players=3, deals=(17,))
    for seed in range(1000):
        state = LeDixState(config, np.random.default_rng(seed), {"dealer": 0})
        state.apply_action(A.TAKE_TRUMP)
        rng = np.random.default_rng(seed)
        while not (state.phase == PLAYING and not state.trick and len(state.hands[0]) == 2):
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        seat = 1 if state.current_player() != 1 else 2
        if state.trump_card in state.played or not (state.voids[0] and state.voids[3 - seat]):
            continue
        worlds = _consistent_worlds(state, seat)
        if 10 <= len(worlds) <= 30:
            return state, seat, worlds
    raise AssertionError("no small case found")


def test_sample_frequencies_match_the_uniform_distribution_over_consistent_worlds():
    state, seat, worlds = _small_case()
    assert state.undealt == [] and state.dealer_took and state.dealer != seat
    rng = np.random.default_rng(7)
    draws = 300 * len(worlds)
    seen: Counter = Counter()
    for _ in range(draws):
        s = state.sample_hidden(seat, rng)
        seen[(tuple(tuple(s.hands[o]) for o in range(3) if o != seat), s.dealer_discard)] += 1
    assert set(seen) == worlds
    expected = draws / len(worlds)
    chi2 = sum((seen[w] - expected) ** 2 / expected for w in worlds)
    assert chi2 < CHI2_999[len(worlds) - 1]
    # Both places of the turned-up card occur: the test covers the dealer's hidden choice.
    assert {w[1] == state.trump_card for w in worlds} == {True, False}
