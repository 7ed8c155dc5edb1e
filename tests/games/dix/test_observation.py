"""The observation: every piece matches the table, seats are relative, only the pile order is hidden."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv import dix_v0
from dixenv.games.dix.cards import NUM_TYPES, parse_card
from dixenv.games.dix.game import GAME
from dixenv.games.dix.observation import DixObserver
from dixenv.games.dix.state import AUCTION, BUY, PAY_BUY, PAYMENT, DixState
from tests.games.dix.helpers import new_state, play


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
