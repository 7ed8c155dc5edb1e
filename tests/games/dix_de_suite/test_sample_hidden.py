"""``sample_hidden``: a world consistent with what one seat knows, uniform over such worlds."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from dixenv.games.dix_de_suite.game import GAME
from dixenv.games.dix_de_suite.state import PHASE_PLACE

from .helpers import DESC_2, band_player, make, option_id, play, shuffle_hidden

OPTION_SETS = [
    {"num_players": 2},
    {"num_players": 2, "reshuffle": True, "two_player_run": True},
    {"num_players": 3, "reshuffle": True},
    {"num_players": 4, "teams": True, "reshuffle": True, "run_bonus": True},
    {"num_players": 4},
]
#: Upper 0.1 % points of the chi-square distribution (statistical tables), by degrees of freedom.
CHI2_CRITICAL_0_001 = {5: 20.515, 18: 42.312, 28: 56.892}


def _mid_game_states(options, games=6, every=5):
    """States met in random (half the games) and sorting play, every few decisions, both phases."""
    config = GAME.make_config(**options, target_score=200, max_turns=300)
    rng = np.random.default_rng(sum(map(ord, repr(options))))
    for game in range(games):
        state = GAME.new_state(config, np.random.default_rng(game), {})
        eps = 1.0 if game % 2 else 0.3
        step = 0
        while state.current_player() >= 0:
            if step % every == 0:
                yield state
            state.apply_action(band_player(state, rng, eps))
            step += 1


def _hidden_from(state, seat):
    """What ``seat`` cannot see: opponents' racks, the draw pile (if hidden) and an unseen held card."""
    racks = tuple(tuple(r) for s, r in enumerate(state.racks) if s != seat)
    pile = () if state.draw_public else tuple(state.draw_pile)
    held = state.held if state.phase == PHASE_PLACE and state.current != seat and not state.held_public else 0
    return racks, pile, held


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_a_sample_keeps_the_seats_observation_and_legal_actions_and_is_a_legal_state(options):
    config = GAME.make_config(**options)
    observer = GAME.make_observer(config)
    rng = np.random.default_rng(0)
    checked = placing = reshuffled = 0
    for state in _mid_game_states(options):
        for seat in range(config.num_players):
            sample = state.sample_hidden(seat, rng)
            observer.set_from(state, seat)
            before = observer.tensor.copy()
            observer.set_from(sample, seat)
            assert np.array_equal(before, observer.tensor), f"seat {seat} would see the difference"
            assert sample.legal_actions() == state.legal_actions()
            assert sample.current_player() == state.current_player()
            sample.check_invariants()
            state.check_invariants()  # sampling changed nothing in the original
            checked += 1
        placing += state.phase == PHASE_PLACE
        reshuffled += state.pool > 0
    assert checked > 100 and placing > 5
    assert reshuffled > 5 or not options.get("reshuffle")


@pytest.mark.parametrize("options", OPTION_SETS[:4], ids=option_id)
def test_a_sample_plays_on_to_the_end_legally(options):
    rng = np.random.default_rng(1)
    for i, state in enumerate(_mid_game_states(options, games=2, every=40)):
        sample = state.sample_hidden(i % state.num_seats, rng)
        moves = 0
        while sample.current_player() >= 0:
            sample.apply_action(band_player(sample, rng, 0.2))
            sample.check_invariants()
            moves += 1
        assert sample.is_terminal() or sample.is_truncated()
        assert moves > 0


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_hidden_facts_vary_across_samples_and_what_the_seat_sees_does_not(options):
    rng = np.random.default_rng(2)
    varied = 0
    for i, state in enumerate(_mid_game_states(options, games=2, every=25)):
        seat = i % state.num_seats
        samples = [state.sample_hidden(seat, rng) for _ in range(8)]
        assert all(s.racks[seat] == state.racks[seat] and s.discard == state.discard for s in samples)
        hidden = {_hidden_from(s, seat) for s in samples}
        varied += len(hidden) > 1
        # The generator of later shuffles is drawn too: the future is hidden.
        assert len({int(s.rng.integers(2**62)) for s in samples}) == len(samples)
    assert varied >= 3


def _as_data(state):
    """Everything in a state, its generator included (as the next numbers it draws)."""
    fields = {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in vars(state).items() if k not in ("_rng", "_rng_snapshot", "events")}
    return fields, state.clone().rng.integers(2**62, size=4).tolist()


def hidden_twins(options):
    """(index, state, twin, seat): mid-game states and copies that differ only in what ``seat`` cannot see."""
    rng = np.random.default_rng(3)
    for i, state in enumerate(_mid_game_states(options, games=2, every=15)):
        seat = i % state.num_seats
        other = shuffle_hidden(state, seat, rng)
        if _hidden_from(other, seat) != _hidden_from(state, seat):  # else nothing hidden was moved
            yield i, state, other, seat


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_a_sample_depends_only_on_the_seats_information(options):
    compared = 0
    for i, state, other, seat in hidden_twins(options):
        a = state.sample_hidden(seat, np.random.default_rng(i))
        b = other.sample_hidden(seat, np.random.default_rng(i))
        assert _as_data(a) == _as_data(b)
        compared += 1
    assert compared >= 5


def test_two_deals_that_differ_only_in_cards_hidden_from_a_seat_give_it_the_same_samples():
    # Seat 1's racks and the draw piles differ, except for the cards that become public (the
    # slots seat 1 replaces, 28 and 26, go to the discard pile); seat 0 only takes the discard.
    racks_b = {0: DESC_2[0], 1: [21, 22, 28, 24, 26, 25, 27, 23, 29, 30]}
    a = make(DESC_2, 1, draw=list(range(2, 21)), seed=1)
    b = make(racks_b, 1, draw=[5, 4, 3, 2] + list(range(20, 5, -1)), seed=2)
    for env in (a, b):
        play(env, "draw", "swap 3", "take discard", "swap 1", "draw", "swap 5", "take discard", "swap 2")
    assert a.state.racks[1] != b.state.racks[1] and a.state.draw_pile != b.state.draw_pile
    assert np.array_equal(a.observe("player_0")["observation"], b.observe("player_0")["observation"])
    for seed in range(3):
        assert _as_data(a.state.sample_hidden(0, np.random.default_rng(seed))) == _as_data(
            b.state.sample_hidden(0, np.random.default_rng(seed))
        )


def _chi_square(counts: Counter, outcomes: list, samples: int) -> float:
    expected = samples / len(outcomes)
    return sum((counts[o] - expected) ** 2 / expected for o in outcomes)


def test_three_unknown_slots_are_filled_by_each_of_the_six_orders_equally_often():
    # Seat 1 takes the discard into slots 1..7 while seat 0 draws and discards; after the
    # unshuffled turn-over only seat 1's dealt 23, 22, 21 in slots 8..10 are unknown to seat 0.
    env = make(DESC_2, 1, draw=list(range(2, 21)))
    for turn in range(19):
        play(env, "take discard", f"swap {min(turn, 6) + 1}", "draw", "discard")
    state = env.state
    assert state.draw_public and state.known[1][:7] != [0] * 7 and state.known[1][7:] == [0, 0, 0]
    rng = np.random.default_rng(7)
    samples = 1200
    counts = Counter(tuple(state.sample_hidden(0, rng).racks[1][7:]) for _ in range(samples))
    orders = [(a, b, c) for a in (21, 22, 23) for b in (21, 22, 23) for c in (21, 22, 23) if len({a, b, c}) == 3]
    assert set(counts) == set(orders)
    assert _chi_square(counts, orders, samples) < CHI2_CRITICAL_0_001[5]


def test_a_slot_filled_from_a_reshuffled_pile_gets_a_uniform_card_of_that_pile_only():
    env = make(DESC_2, 1, draw=list(range(2, 21)), reshuffle=True)
    for _ in range(19):
        play(env, "draw", "discard")
    play(env, "draw", "swap 4")  # seat 0: a card of the reshuffled pile into slot 4 (37 out)
    state = env.state
    pool = [c for c in range(1, 21) if c not in state.discard]  # the 19 reshuffled cards not seen since
    assert len(pool) == 19 and state.racks[0][3] in pool
    rng = np.random.default_rng(8)
    samples = 1900
    counts = Counter()
    for _ in range(samples):
        sample = state.sample_hidden(1, rng)
        counts[sample.racks[0][3]] += 1
        assert sorted(sample.draw_pile) == sorted(set(pool) - {sample.racks[0][3]})  # no dealt card in the pile
        assert sorted(sample.racks[0][:3] + sample.racks[0][4:]) == [31, 32, 33, 34, 35, 36, 38, 39, 40]
    assert set(counts) == set(pool)
    assert _chi_square(counts, pool, samples) < CHI2_CRITICAL_0_001[18]


def test_the_sampled_held_card_of_another_player_is_any_card_the_seat_has_not_seen():
    env = make(DESC_2, 1, draw=[2, 3, 4, 5])
    play(env, "draw")  # seat 1 holds 2, unseen by seat 0: as likely as any of seat 1's dealt cards
    rng = np.random.default_rng(9)
    held = Counter(env.state.sample_hidden(0, rng).held for _ in range(2900))
    assert set(held) == set(range(2, 31))  # the 19 cards of the draw pile and seat 1's 21..30
    assert _chi_square(held, list(range(2, 31)), 2900) < CHI2_CRITICAL_0_001[28]
    assert {env.state.sample_hidden(1, rng).held for _ in range(20)} == {2}  # its own card


@pytest.mark.parametrize("seat", [-1, 2, 1.0, "0", True])
def test_sampling_for_a_seat_that_does_not_exist_is_refused(seat):
    env = make(DESC_2, 1, draw=[2])
    with pytest.raises(ValueError, match="seat must be an int 0..1"):
        env.state.sample_hidden(seat, np.random.default_rng(0))
