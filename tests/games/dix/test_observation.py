"""The observation: every piece matches the table, seats are relative, only the pile order is hidden."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv import dix_v0
from dixenv.games.dix.cards import NUM_TYPES, parse_card
from dixenv.games.dix.game import GAME
from dixenv.games.dix.observation import DixObserver
from dixenv.games.dix.state import AUCTION, BUY, PAY_BUY, PAYMENT, DixState
from tests.games.dix.helpers import collection, heuristic_policy, new_state, play, random_policy


def expected_pieces(state: DixState, seat: int) -> dict[str, np.ndarray]:
    """The observation of ``seat`` written out naively from the state, piece by piece."""
    n = state.num_seats
    rel = [(seat + k) % n for k in range(n)]
    wild_scale = np.array([0.5] * 4 + [1.0] * 10)
    scores = state.scores()
    e = {
        "collection_numbers": np.array([list(state.collections[s])[:36] for s in rel]).reshape(n, 4, 9) / 3,
        "collection_wilds": np.array([list(state.collections[s])[36:50] for s in rel]) * wild_scale,
        "tokens": np.array([state.tokens[s] for s in rel]) / 10,
        "consolation": np.array([state.consolation[s] for s in rel]) / 5,
        "number_cards": np.array([sum(list(state.collections[s])[:36]) for s in rel]) / 40,
        "duplicates": np.array([sum(c - 1 for c in list(state.collections[s])[:36] if c > 1) for s in rel]) / 10,
        "score": np.array([scores[s] for s in rel]) / 40,
        "tableau_numbers": np.array(list(state.tableau)[:36]).reshape(4, 9) / 3,
        "tableau_currency": np.array(list(state.tableau)[50:55]) / 3,
        "market": np.array(list(state.market)).reshape(4, 9) / 3,
        "unseen_numbers": np.array([state.pile.count(t) for t in range(36)]).reshape(4, 9) / 3,
        "unseen_wilds": np.array([state.pile.count(t) for t in range(36, 50)]) * wild_scale,
        "unseen_currency": np.array([state.pile.count(t) for t in range(50, 55)]) / 6,
        "discard_numbers": np.array(list(state.discard)[:36]).reshape(4, 9) / 3,
        "discard_wilds": np.array(list(state.discard)[36:50]) * wild_scale,
        "discard_currency": np.array(list(state.discard)[50:55]) / 6,
        "tableau_total": np.array([state.tableau_total / 10]),
        "tableau_currency_sum": np.array([state.tableau_currency / 10]),
        "draw_pile_size": np.array([len(state.pile) / 129]),
        "draw_pile_fraction": np.array([len(state.pile) / state.pile_start]),
        "last_card_drawn": np.array([float(len(state.pile) == 0)]),
        "active": np.eye(n)[rel.index(state.active)],
        "to_act": np.zeros(n) if state.current_player() < 0 else np.eye(n)[rel.index(state.actor)],
        "phase": np.zeros(4) if state.current_player() < 0 else np.eye(4)[state.phase],
        "buy_kind": np.eye(3)[state.buy_kind]
        if state.phase == BUY or (state.phase == PAYMENT and state.pay_reason == PAY_BUY)
        else np.zeros(3),
        "auction_card": np.eye(14)[state.auction_card - 36] if state.auction_card >= 0 else np.zeros(14),
        "high_bid": np.array([state.high_bid / 10 if state.auction_card >= 0 and state.high_bidder >= 0 else 0.0]),
        "high_bidder": np.eye(n)[rel.index(state.high_bidder)]
        if state.auction_card >= 0 and state.high_bidder >= 0
        else np.zeros(n),
        "payment_left": np.array([state.pay_left / 10 if state.phase == PAYMENT else 0.0]),
        "buy_card": np.eye(36)[state.buy_card].reshape(4, 9) if state.buy_card >= 0 else np.zeros((4, 9)),
        "rules": np.array([float(state.config.bust_buy), float(state.config.solo), state.config.difficulty / 10]),
    }
    to_bid = np.zeros(n)
    if state.phase == AUCTION:
        k = state.actor
        while True:
            to_bid[rel.index(k)] = 1
            if k == state.active:
                break
            k = (k + 1) % n
    e["still_to_bid"] = to_bid
    return e


@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 3, "bust_buy": True}, {"num_players": 5}, {"solo": True, "difficulty": 7}])
def test_every_piece_matches_the_table_for_every_seat(options):
    config = GAME.make_config(**options)
    observer = DixObserver(config)
    rng = np.random.default_rng(5)
    for game in range(3):
        state = GAME.new_state(config, np.random.default_rng(game), {})
        step = 0
        while True:
            if step % 7 == 0 or state.current_player() < 0:
                for seat in range(config.num_players):
                    observer.set_from(state, seat)
                    got = observer.layout.unflatten(observer.tensor)
                    for name, want in expected_pieces(state, seat).items():
                        np.testing.assert_allclose(got[name], want, rtol=1e-6, atol=1e-7, err_msg=name)
                    assert set(got) == set(expected_pieces(state, seat))
            if state.current_player() < 0:
                break
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            step += 1


def test_unseen_cards_are_the_box_minus_every_card_seen():
    env = dix_v0.raw_env(num_players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(80):
        env.state.apply_action(env.state.legal_actions()[-1 if rng.random() < 0.5 else 0])
    state = env.state
    view = env.layout.unflatten(env.observe(env.agent_selection)["observation"])
    unseen = np.concatenate([view["unseen_numbers"].ravel() * 3, view["unseen_wilds"] / ([0.5] * 4 + [1.0] * 10),
                             view["unseen_currency"] * 6])
    seen = np.zeros(NUM_TYPES)
    for t in range(NUM_TYPES):
        seen[t] = state.tableau[t] + state.discard[t] + sum(c[t] for c in state.collections if t < 50)
        seen[t] += state.market[t] if t < 36 else 0
    if state.auction_card >= 0:
        seen[state.auction_card] += 1
    np.testing.assert_allclose(unseen, np.array(state.config.box) - seen, atol=1e-5)


def test_the_order_of_the_draw_pile_is_the_only_hidden_thing():
    # Same cards, the unseen ones in another order: every seat sees exactly the same.
    a = new_state(["B3", "$2", "W5", "G1", "O4", "P2", "B6"], num_players=3)
    b = new_state(["B3", "$2", "W5", "P2", "B6", "G1", "O4"], num_players=3)
    for state in (a, b):
        play(state, "draw", "draw", "bid 2")
    observer = DixObserver(a.config)
    for seat in range(3):
        observer.set_from(a, seat)
        first = observer.tensor.copy()
        observer.set_from(b, seat)
        assert np.array_equal(first, observer.tensor)


def test_seats_are_relative_to_the_observer():
    state = new_state(["B3", "G2", "O1"], num_players=3)
    play(state, "take numbers", "skip")  # player 0 holds B3
    observer = DixObserver(state.config)
    for seat, index in ((0, 0), (1, 2), (2, 1)):
        observer.set_from(state, seat)
        view = observer.layout.unflatten(observer.tensor)
        assert view["collection_numbers"][index, 0, 2] == pytest.approx(1 / 3)
        assert view["collection_numbers"].sum() == pytest.approx(1 / 3)
        assert view["active"][(1 - seat) % 3] == 1  # player 1's turn


def test_an_auction_in_progress_is_visible():
    state = new_state(["W5", "B3"], num_players=4, first_player=1)
    play(state, "bid 2")  # player 2 bids; players 3, 0 and then 1 are still to bid
    observer = DixObserver(state.config)
    observer.set_from(state, 0)
    view = observer.layout.unflatten(observer.tensor)
    assert view["auction_card"][parse_card("W5") - 36] == 1
    assert view["high_bid"][0] == pytest.approx(0.2) and list(view["high_bidder"]) == [0, 0, 1, 0]
    assert list(view["still_to_bid"]) == [1, 1, 0, 1] and list(view["to_act"]) == [0, 0, 0, 1]
    assert list(view["phase"]) == [0, 1, 0, 0]


def test_observations_stay_in_a_small_range():
    env = dix_v0.env(num_players=5)
    rng = np.random.default_rng(1)
    for game in range(5):
        env.reset(seed=game)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            assert obs["observation"].dtype == np.float32
            assert -1.5 <= obs["observation"].min() and obs["observation"].max() <= 2.5
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# --- the discard pile: public history that the rest of the table does not give -------------------


def differing_pieces(a: DixState, b: DixState) -> set[str]:
    """Names of the observation pieces that differ between two states, for any seat."""
    observer = DixObserver(a.config)
    names = set()
    for seat in range(a.num_seats):
        observer.set_from(a, seat)
        first = observer.layout.unflatten(observer.tensor.copy())
        observer.set_from(b, seat)
        second = observer.layout.unflatten(observer.tensor)
        names |= {name for name in first if not np.array_equal(first[name], second[name])}
    return names


def test_the_wild_nobody_bid_on_shows_in_the_discard_pile():
    # W5 or W6 discarded, the same cards left: only the discard pile tells the games apart
    # (the deck leaves cards out of the game, so the discard is not the box minus the rest).
    a, b = new_state(["W5", "B3", "G1"]), new_state(["W6", "B3", "G1"])
    for state in (a, b):
        play(state, "pass", "pass")
    assert differing_pieces(a, b) == {"discard_wilds"}


def test_the_currency_spent_shows_in_the_discard_pile():
    # $1 + $1 or $2 on the tableau when player 0 takes the (no) numbers: player 1 gains 2 either way.
    a, b = new_state(["$1", "$1", "B3"]), new_state(["$2", "B3"])
    play(a, "draw", "take numbers", "skip")
    play(b, "take numbers", "skip")
    assert list(a.tokens) == list(b.tokens) == [5, 7]
    assert differing_pieces(a, b) == {"discard_currency"}


def test_the_number_card_paid_for_a_wild_shows_in_the_discard_pile():
    # Player 0 holds B1 (or G1), wins W5 for 1 and pays with that card: same collection after.
    a, b = new_state(["B1", "W5", "B3"]), new_state(["G1", "W5", "B3"])
    for state, card in ((a, "B1"), (b, "G1")):
        play(state, "take numbers", "skip", "bid 1", "pass", f"pay {card}")
    assert collection(a, 0) == collection(b, 0) == ["W5"]
    assert differing_pieces(a, b) == {"discard_numbers"}


def test_states_that_differ_only_in_the_pile_order_look_the_same_after_a_discard():
    a = new_state(["W5", "$2", "B3", "G1", "O2"], num_players=3)
    b = new_state(["W5", "$2", "B3", "O2", "G1"], num_players=3)  # player 1 draws B3 in both
    for state in (a, b):
        play(state, "pass", "pass", "pass", "draw", "take money")
    assert sum(a.discard) == 2  # W5 and $2
    assert differing_pieces(a, b) == set()


# --- bounds: every entry within its piece's low..high, derived from the rules ---------------------

BOUND_CONFIGS = [
    {"num_players": 2},
    {"num_players": 3, "bust_buy": True},
    {"num_players": 5},
    {"solo": True, "difficulty": 10, "bust_buy": True},
    {"solo": True, "difficulty": 4, "auto_pay": True},
    # a user's box with many copies: the bounds grow with it
    {"num_players": 4, "deck_spec": {"B1": 12, "G9": 5, "W3": 4, "**": 3, "B#": 5, "$1": 15, "$5": 9, "$3": 6}},
]


def extremes_of_play(config, choose, games: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Play ``games`` engine games; the entry-wise min and max of every seat's observation at every step."""
    observer = DixObserver(config)
    low = np.full(observer.layout.size, np.inf, dtype=np.float32)
    high = np.full(observer.layout.size, -np.inf, dtype=np.float32)
    steps = 0
    for game in range(games):
        state = GAME.new_state(config, np.random.default_rng(seed + game), {})
        while True:
            for seat in range(config.num_players):  # every seat's view (ALIX's too), not only the one to act
                observer.set_from(state, seat)
                np.minimum(low, observer.tensor, out=low)
                np.maximum(high, observer.tensor, out=high)
            if state.current_player() < 0:
                break
            state.apply_action(choose(state))
            steps += 1
    return low, high, steps


@pytest.mark.parametrize("options", BOUND_CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items() if k != "deck_spec") + (",deck_spec" if "deck_spec" in o else ""))
def test_long_random_play_never_leaves_the_bounds(options):
    config = GAME.make_config(**options)
    low, high, steps = extremes_of_play(config, random_policy(11), 80, seed=100)
    layout = DixObserver(config).layout
    assert steps > 4_000
    assert layout.out_of_bounds(low) == [] and layout.out_of_bounds(high) == []


@pytest.mark.parametrize("options", [{"num_players": 4}, {"num_players": 3, "bust_buy": True}, {"solo": True, "difficulty": 8}])
def test_heuristic_play_never_leaves_the_bounds(options):
    config = GAME.make_config(**options)
    low, high, _ = extremes_of_play(config, heuristic_policy(**options), 8, seed=200)
    layout = DixObserver(config).layout
    assert layout.out_of_bounds(low) == [] and layout.out_of_bounds(high) == []


def observe_piece(state: DixState, seat: int, name: str) -> np.ndarray:
    observer = DixObserver(state.config)
    observer.set_from(state, seat)
    return observer.layout.unflatten(observer.tensor)[name].copy()


def piece_bounds(config, name: str) -> tuple[float, float]:
    piece = next(p for p in DixObserver(config).layout.pieces if p.name == name)
    return piece.low, piece.high


def test_a_currency_bust_with_bust_buy_reaches_the_currency_bounds_exactly():
    # The buy after a bust is the one decision where the currency sum is over 10: 5 + 5 + 5 = 15.
    state = new_state(["$5", "$5", "$5", "B3", "G1"], bust_buy=True)
    play(state, "draw", "draw")
    assert state.phase == BUY and state.tableau_currency == 15
    low, _ = piece_bounds(state.config, "tableau_total")
    _, high = piece_bounds(state.config, "tableau_currency_sum")
    assert observe_piece(state, 0, "tableau_currency_sum")[0] == np.float32(high)
    assert observe_piece(state, 0, "tableau_total")[0] == np.float32(low)
    assert not DixObserver(state.config).layout.out_of_bounds(observed(state, 0))


def observed(state: DixState, seat: int) -> np.ndarray:
    observer = DixObserver(state.config)
    observer.set_from(state, seat)
    return observer.tensor.copy()


def test_without_bust_buy_the_currency_sum_stays_within_ten():
    _, high = piece_bounds(GAME.make_config(num_players=2), "tableau_currency_sum")
    assert high == pytest.approx(1.0)
    _, high = piece_bounds(GAME.make_config(num_players=2, bust_buy=True), "tableau_currency_sum")
    assert high == pytest.approx(1.5)  # 10, then a $5


def test_the_consolation_bound_is_reached_by_a_seat_busting_every_turn():
    # Player 0 busts on each of its 6 turns with two cards, player 1 takes one card a turn: 17 cards,
    # the fewest for 6 busts at two seats, and the bound (cards + n - 1) // (n + 1) = 6 for this box.
    p0_turns = [("B6", "B5"), ("G6", "G5"), ("O6", "O5"), ("P6", "P5"), ("B9", "G9"), ("O9", "P9")]
    p1_cards = ["B1", "G1", "O1", "P1", "B2"]
    deck = list(p0_turns[0])
    for card, turn in zip(p1_cards, p0_turns[1:]):
        deck += [card, *turn]
    box = {card: 1 for card in deck}
    state = new_state(deck, deck_spec=box)
    for k in range(len(p1_cards)):
        play(state, "draw")  # player 0 busts
        play(state, "take numbers", "skip")  # player 1 takes its one card (nothing it can buy: skip only)
    play(state, "draw")
    assert state.consolation[0] == 6 and not state.pile
    _, high = piece_bounds(state.config, "consolation")
    assert observe_piece(state, 0, "consolation")[0] == np.float32(high)


def test_bounds_grow_with_a_users_box_and_never_clip():
    big = GAME.make_config(num_players=4, deck_spec={"B1": 12, "$1": 15})
    _, high = piece_bounds(big, "collection_numbers")
    assert high == pytest.approx(12 / 3)
    # Twelve B1 taken at once: the collection shows 12 / 3, within its bound.
    state = new_state(["B1"] * 10 + ["$1"] * 3, deck_spec={"B1": 12, "$1": 15}, num_players=4)
    play(state, *["draw"] * 9, "take numbers")
    assert observe_piece(state, 0, "collection_numbers")[0, 0, 0] == pytest.approx(10 / 3)
    assert not DixObserver(state.config).layout.out_of_bounds(observed(state, 0))


@pytest.mark.parametrize("options", [{"num_players": 2}, {"solo": True}, {"num_players": 2, "deck_spec": {"B1": 1, "B2": 1}}])
def test_a_count_the_box_keeps_at_zero_keeps_the_range_of_one_card(options):
    # The standard 2-player box has no duplicates; a box of two number cards has no wild and no
    # currency. Gymnasium's check_env flags an entry whose low equals its high, so none is degenerate.
    layout = DixObserver(GAME.make_config(**options)).layout
    assert all(p.low < p.high for p in layout.pieces)
    assert piece_bounds(GAME.make_config(**options), "duplicates")[1] == pytest.approx(0.1)
