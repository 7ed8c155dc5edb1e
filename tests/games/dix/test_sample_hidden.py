"""``sample_hidden``: the draw pile reshuffled, everything a seat knows kept, and nothing it cannot know used."""

from __future__ import annotations

from collections import Counter
from math import factorial

import numpy as np
import pytest

from dixenv.games.dix.game import GAME
from dixenv.games.dix.observation import DixObserver
from dixenv.games.dix.state import DixState
from tests.games.dix.helpers import OPTION_SETS, heuristic_policy, new_state, options_id, play, random_policy

def snapshot(state: DixState) -> tuple:
    """Everything a state holds (its count buffer, pile and records; not the legal-action cache), comparable with ``==``."""
    state.refresh_scores()
    scalars = {k: v for k, v in state.__dict__.items() if isinstance(v, (int, bool)) and k != "_legal"}
    return bytes(state._buf), tuple(state.pile), sorted(scalars.items()), state.masks, state._score_dirty


def mid_game_states(options: dict, policy: str, games: int, seed: int, every: int = 11) -> list[DixState]:
    """States met along ``games`` games (every ``every``-th decision and the last one), played by ``policy``."""
    config = GAME.make_config(**options)
    choose = random_policy(seed) if policy == "random" else heuristic_policy(**options)
    states = []
    for game in range(games):
        state = GAME.new_state(config, np.random.default_rng(seed + game), {})
        step = 0
        while state.current_player() >= 0:
            if step % every == 5:
                states.append(state.clone())
            state.apply_action(choose(state))
            step += 1
        states.append(state)
    return states


def observation(state: DixState, seat: int) -> bytes:
    observer = DixObserver(state.config)
    observer.set_from(state, seat)
    return observer.tensor.tobytes()


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("options", OPTION_SETS, ids=options_id)
def test_a_sample_keeps_what_the_seat_sees_and_plays_on_to_the_end(options, policy):
    rng = np.random.default_rng(1)
    states = mid_game_states(options, policy, games=2, seed=30, every=29)
    varied = 0
    for k, state in enumerate(states):
        before = snapshot(state)
        for seat in range(state.num_seats):
            samples = [state.sample_hidden(seat, rng) for _ in range(3)]
            for sample in samples:
                assert observation(sample, seat) == observation(state, seat)  # bit for bit
                assert sample.legal_actions() == state.legal_actions()
                assert sorted(sample.pile) == sorted(state.pile) and sample.events is None
                sample.check_invariants()
            varied += len({tuple(s.pile) for s in samples}) > 1
        finish = samples[k % len(samples)]  # one sample of each state plays on, legally, to the end
        choose = random_policy(k)
        while finish.current_player() >= 0:
            finish.apply_action(choose(finish))
            finish.check_invariants()
        assert snapshot(state) == before, "sampling changed the original"
    assert varied > len(states)  # the hidden order really is redrawn (for most seats of most states)


def test_a_sample_is_a_function_of_the_seats_information_only():
    # Two games whose piles hold the same cards in other orders below the cards drawn so far.
    deck = ["B3", "$2", "W5", "G1", "O4", "P2", "B6", "G7", "$1", "O9", "P5"]
    other = deck[:4] + deck[4:][::-1]
    a, b = new_state(deck, num_players=3), new_state(other, num_players=3)
    for state in (a, b):
        play(state, "draw", "draw", "bid 2", "pass", "pass", "pay token", "pay token", "draw")
    assert a.pile != b.pile and snapshot(a) != snapshot(b)
    for seat in range(3):
        assert observation(a, seat) == observation(b, seat)
        sa, sb = a.sample_hidden(seat, np.random.default_rng(9)), b.sample_hidden(seat, np.random.default_rng(9))
        assert snapshot(sa) == snapshot(sb)


@pytest.mark.parametrize("options", OPTION_SETS, ids=options_id)
def test_twins_that_differ_only_in_hidden_facts_give_identical_samples(options):
    # A sample is itself a state that differs from the original only in hidden facts.
    for state in mid_game_states(options, "random", games=3, seed=50, every=17):
        for seat in range(state.num_seats):
            twin = state.sample_hidden(seat, np.random.default_rng(123))
            first = state.sample_hidden(seat, np.random.default_rng(7))
            second = twin.sample_hidden(seat, np.random.default_rng(7))
            assert snapshot(first) == snapshot(second)


def test_sample_frequencies_match_the_uniform_distribution_over_pile_orders():
    # After B1 is drawn, the pile holds $1 $1 G2 O3: 4! / 2! = 12 distinct orders, equally likely.
    state = new_state(["B1", "$1", "$1", "G2", "O3"])
    draws = 6000
    rng = np.random.default_rng(2024)
    counts = Counter(tuple(state.sample_hidden(0, rng).pile) for _ in range(draws))
    orders = factorial(4) // factorial(2)
    assert len(counts) == orders and all(sorted(order) == sorted(state.pile) for order in counts)
    expected = draws / orders
    chi_square = sum((observed - expected) ** 2 / expected for observed in counts.values())
    assert chi_square < 31.264  # the chi-square critical value for 11 degrees of freedom at p = 0.001


def test_sample_hidden_refuses_a_seat_that_is_not_at_the_table():
    state = new_state(["B1", "G2"], num_players=3)
    for seat in (-1, 3, 1.0, "0"):
        with pytest.raises(ValueError, match="seats are 0 to 2"):
            state.sample_hidden(seat, np.random.default_rng(0))
