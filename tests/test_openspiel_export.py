"""dixenv.openspiel: the three games as OpenSpiel Python games, checked with OpenSpiel's own tools."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from dixenv import openspiel as X  # noqa: E402
from dixenv.core.rewards import win_rewards  # noqa: E402

#: Small tables so that OpenSpiel's checks (every observation of every seat at every step) stay quick.
SMALL = {
    "le_dix": dict(deals="3,2"),
    "dix_de_suite": dict(target_score=40, max_turns=80),
    "dix": dict(),
}
CASES = [
    ("le_dix", dict(deals="3,2")),
    ("le_dix", dict(num_players=3, deals="2", scoring="oh_hell", hook=True, returns="points")),
    ("dix_de_suite", dict(target_score=40, max_turns=80)),
    ("dix_de_suite", dict(num_players=4, teams=True, target_score=20, max_turns=40)),
    ("dix", dict()),
    ("dix", dict(solo=True, difficulty=6, returns="points")),
]


def _random_moves(state, rng, limit=10_000):
    """Play uniformly random moves to the end (at most ``limit``); yields the state before each move."""
    for _ in range(limit):
        if state.is_terminal():
            return
        yield state
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("game, params", CASES, ids=lambda x: x if isinstance(x, str) else ",".join(f"{k}={v}" for k, v in x.items()))
def test_openspiel_random_simulation_test_passes(game, params):
    # OpenSpiel's own check: legal actions sorted and empty for the others, unique action strings,
    # clones equal, finite tensors of the declared sizes for every seat, returns in the declared
    # range and summing as the utility says, the game within its declared length.
    sims = 2 if game == "le_dix" else 1  # dix and dix_de_suite games are a few hundred moves long
    pyspiel.random_sim_test(X.load_game(game, rng_seed=1, **params), num_sims=sims, serialize=False, verbose=False)


def test_games_are_registered_under_their_short_names():
    names = {g.short_name for g in pyspiel.registered_games()}
    assert {"dixenv_le_dix", "dixenv_dix_de_suite", "dixenv_dix"} <= names
    game = pyspiel.load_game("dixenv_le_dix", {"num_players": 3, "deals": "4"})
    assert game.num_players() == 3 and game.config.deals == (4,)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC


@pytest.mark.parametrize("game", list(SMALL))
def test_resampled_worlds_keep_every_seat_information_and_the_player_to_act(game):
    # OpenSpiel's ResampleInfostateTest, in Python: at every decision of a random game, a world
    # drawn for any seat gives that seat the same information state (string and tensor).
    g = X.load_game(game, rng_seed=2, **SMALL[game])
    rng = np.random.default_rng(0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    for state in _random_moves(g.new_initial_state(), rng, limit=60):
        for p in range(g.num_players()):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.current_player() == state.current_player()
            other.engine.check_invariants()
            checked += 1
    assert checked > 50


def test_a_resampled_world_differs_in_what_the_seat_cannot_see():
    g = X.load_game("le_dix", rng_seed=3, deals="5")
    state = g.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = {tuple(map(tuple, state.resample_from_infostate(0, sampler).engine.hands)) for _ in range(5)}
    assert len({h[1:] for h in hands}) > 1  # other seats' hands vary
    assert len({h[0] for h in hands}) == 1  # seat 0's own hand never does


@pytest.mark.parametrize("game", list(SMALL))
def test_a_clone_has_the_same_future(game):
    # Sampled chance: the state's own generator deals the later deals / rounds; a clone copies it.
    g = X.load_game(game, rng_seed=4, **SMALL[game])
    state = g.new_initial_state()
    clone = state.clone()
    rng = np.random.default_rng(1)
    for _ in _random_moves(state, rng):
        pass
    for action in state.history():
        clone.apply_action(action)
    assert str(clone) == str(state)
    assert clone.returns() == state.returns()
    assert clone.history() == state.history()


def test_the_game_seed_makes_deals_reproducible():
    first = [str(X.load_game("le_dix", rng_seed=7).new_initial_state()) for _ in range(2)]
    assert first[0] == first[1]
    g = X.load_game("le_dix", rng_seed=7)
    assert str(g.new_initial_state()) != str(g.new_initial_state())  # successive deals differ


def test_actions_use_the_dixenv_vocabulary():
    g = X.load_game("le_dix", deals="3")
    state = g.new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["take trump", "leave trump"]
    state.apply_action(state.legal_actions()[1])
    assert state.action_to_string(state.legal_actions()[0]) == "bid 0"
    d = X.load_game("dix_de_suite")
    assert [d.new_initial_state().action_to_string(a) for a in (0, 1, 2, 12)] == ["draw", "take discard", "swap 1", "discard"]


def test_tensors_are_the_dixenv_observation_with_its_named_pieces():
    from dixenv import le_dix_v0

    g = X.load_game("le_dix", rng_seed=5, deals="3")
    state = g.new_initial_state()
    env = le_dix_v0.raw_env(deals=(3,))
    env.reset(seed=0)
    env.unwrapped.state = state.engine
    for p in range(4):
        assert np.array_equal(np.array(state.observation_tensor(p), dtype=np.float32), env.observe(f"player_{p}")["observation"])
    observer = g.make_py_observer()
    assert set(observer.dict) == {piece.name for piece in env.unwrapped.layout.pieces}
    observer.set_from(state, 0)
    assert observer.dict["hand"].sum() == 3
    assert state.information_state_string(0).startswith("player_0\nhand: ")


@pytest.mark.parametrize("returns", ["win", "points"])
def test_returns_are_paid_at_the_end(returns):
    g = X.load_game("le_dix", rng_seed=6, deals="2", returns=returns)
    state = g.new_initial_state()
    for s in _random_moves(state, np.random.default_rng(2)):
        assert s.returns() == [0.0] * 4
    scores = state.engine.scores()
    expected = win_rewards([(s,) for s in scores]) if returns == "win" else [float(s) for s in scores]
    assert state.returns() == pytest.approx(expected)


def test_a_truncated_round_ends_the_game_with_no_winner():
    g = X.load_game("dix_de_suite", rng_seed=1, max_turns=6)
    state = g.new_initial_state()
    for _ in _random_moves(state, np.random.default_rng(0)):
        pass
    assert state.is_terminal() and state.engine.is_truncated()
    assert state.returns() == [0.0, 0.0]


@pytest.mark.parametrize(
    "game, params, message",
    [
        ("le_dix", dict(deals="ten"), "deals"),
        ("le_dix", dict(num_players=7), "num_players"),
        ("le_dix", dict(returns="money"), "returns"),
        ("dix", dict(difficulty=5), "difficulty"),
        ("dix_de_suite", dict(teams=True), "teams"),
    ],
)
def test_bad_parameters_are_refused_by_name(game, params, message):
    with pytest.raises(Exception, match=message):
        X.load_game(game, **params)
    with pytest.raises(ValueError, match="unknown dixenv game"):
        X.load_game("belote")


def test_dixenv_agents_play_as_openspiel_bots():
    g = X.load_game("dix", rng_seed=8)
    bots = [X.DixenvBot(g, "heuristic"), X.DixenvBot(g, "random", seed=1)]
    state = g.new_initial_state()
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]


def test_openspiel_ismcts_and_our_ismcts_play_le_dix_through_the_export():
    # A short duplicate match on our le_dix: OpenSpiel's ISMCTSBot in seats 0 and 2, ours in 1 and
    # 3, then the other way round on the same deal. ISMCTSBot checks at every simulation that the
    # world drawn by resample_from_infostate (our sample_hidden) has the root's information state;
    # our agent draws its worlds from the same engine through DixenvBot.
    made = {"openspiel": 0, "ours": 0}
    for deal in range(2):
        for swap in (False, True):
            g = X.load_game("le_dix", rng_seed=100 + deal, deals="3", hook=True, returns="points")
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(deal))
            theirs = ismcts.ISMCTSBot(g, evaluator, uct_c=2.0, max_simulations=20, random_state=np.random.RandomState(deal))
            ours = X.DixenvBot(g, "ismcts:iterations=20,rollout=random", seed=deal)
            who = ["openspiel", "ours", "openspiel", "ours"]
            if swap:
                who = who[1:] + who[:1]
            bots = {"openspiel": theirs, "ours": ours}
            state = g.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                action = legal[0] if len(legal) == 1 else bots[who[state.current_player()]].step(state)
                assert action in legal
                state.apply_action(action)
            for seat, points in enumerate(state.returns()):
                made[who[seat]] += points > 0
    assert sum(made.values()) > 0
