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
    game = pyspiel.load_game("dixenv_le_dix", {"players": 3, "deals": 4})
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


# --- game strings, parameters, pickling and what OpenSpiel's tools can do with sampled chance ------

#: Game strings as OpenSpiel users write them; together they give every parameter of every game a
#: value other than its default (checked below).
GAME_STRINGS = [
    "dixenv_le_dix",
    "dixenv_le_dix(deals=5)",
    "dixenv_le_dix(players=3,hand_sizes=5;3;1,scoring=oh_hell,hook=true,returns=points,rng_seed=7)",
    "dixenv_le_dix(num_players=5,deals=2)",
    "dixenv_dix_de_suite",
    "dixenv_dix_de_suite(players=4,teams=true,target_score=200,max_turns=300,run_bonus=true,reshuffle=true)",
    "dixenv_dix_de_suite(num_players=2,two_player_run=true,returns=points,rng_seed=3)",
    "dixenv_dix",
    "dixenv_dix(players=5,bust_buy=true,auto_pay=true,rng_seed=11)",
    "dixenv_dix(solo=true,difficulty=6,returns=points)",
    "dixenv_dix(num_players=3)",
]


@pytest.mark.parametrize("text", GAME_STRINGS)
def test_every_game_string_loads_and_round_trips_through_its_own_string(text):
    game = pyspiel.load_game(text)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again == game
    assert again.get_parameters() == game.get_parameters()
    assert again.config == game.config and again.options == game.options
    assert again.num_players() == game.num_players() and again.max_game_length() == game.max_game_length()
    assert again.get_type().utility == game.get_type().utility
    # The dict form of the same parameters gives the same game.
    assert str(pyspiel.load_game(game.get_type().short_name, game.get_parameters())) == str(game)


def test_the_round_trip_cases_give_every_parameter_a_non_default_value():
    for export in X.EXPORTS.values():
        spec = pyspiel.load_game(export.short_name).get_type().parameter_specification
        changed = set()
        for text in GAME_STRINGS:
            params = pyspiel.game_parameters_from_string(text)
            if params.pop("name") == export.short_name:
                changed |= {k for k, v in params.items() if v != spec[k]}
        assert changed == set(spec), export.short_name


def test_game_strings_have_no_comma_inside_a_value():
    # OpenSpiel splits name(k=v,k=v) at every comma: a list must not write one.
    text = str(pyspiel.load_game("dixenv_le_dix"))
    params = pyspiel.game_parameters_from_string(text)
    assert params["hand_sizes"] == "10;9;8;7;6;5;4;3;2;1"
    assert text.count(",") == len(params) - 2  # name excluded: one comma between each pair


@pytest.mark.parametrize(
    "text, deals",
    [
        ("dixenv_le_dix(deals=5)", (5,)),
        ("dixenv_le_dix(hand_sizes=5;)", (5,)),  # a string; hand_sizes=5 would be an int
        ("dixenv_le_dix(hand_sizes=3;2;1)", (3, 2, 1)),
        ("dixenv_le_dix", (10, 9, 8, 7, 6, 5, 4, 3, 2, 1)),
        ("dixenv_le_dix(deals=4,hand_sizes=4;)", (4,)),
        ("dixenv_le_dix(players=3,deals=13)", (13,)),
    ],
)
def test_le_dix_deals_are_written_as_openspiel_users_write_them(text, deals):
    game = pyspiel.load_game(text)
    assert game.config.deals == deals
    # One deal is written deals=N (hand_sizes=N would load as an int), several hand_sizes=a;b;c.
    params = game.get_parameters()
    assert params.get("deals") == (deals[0] if len(deals) == 1 else None)
    assert params.get("hand_sizes") == (None if len(deals) == 1 else ";".join(map(str, deals)))


def test_the_default_schedule_is_le_dix_default():
    from dixenv.games.le_dix.config import DEFAULT_DEALS

    assert X.LE_DIX_HAND_SIZES == ";".join(map(str, DEFAULT_DEALS))


def test_parameters_take_openspiel_types_in_dicts_too():
    assert pyspiel.load_game("dixenv_le_dix", {"deals": 5, "hook": True}).config.deals == (5,)
    assert pyspiel.load_game("dixenv_le_dix", {"hand_sizes": "4;2"}).config.deals == (4, 2)
    # dixenv's own spellings through X.load_game: an int, a tuple, or the older comma string.
    for deals in (5, "5", (5,), [5]):
        assert X.load_game("le_dix", deals=deals).config.deals == (5,)
    for deals in ((4, 2), "4,2", "4;2"):
        assert X.load_game("le_dix", deals=deals).config.deals == (4, 2)
    assert pyspiel.load_game("dixenv_dix(solo=true)").config.difficulty == 4  # the solo default


def test_players_is_openspiel_name_and_num_players_its_alias():
    assert pyspiel.load_game("dixenv_le_dix(players=3)").num_players() == 3
    assert pyspiel.load_game("dixenv_le_dix(num_players=3)").num_players() == 3
    assert pyspiel.load_game("dixenv_le_dix(players=5,num_players=5)").num_players() == 5
    assert X.load_game("dix_de_suite", num_players=3).num_players() == 3
    # The game string always writes OpenSpiel's name.
    params = pyspiel.load_game("dixenv_dix(num_players=4)").get_parameters()
    assert params["players"] == 4 and "num_players" not in params
    with pytest.raises(Exception, match="players=3.*num_players=5|num_players=5.*players=3"):
        pyspiel.load_game("dixenv_le_dix(players=3,num_players=5)")
    with pytest.raises(Exception, match="players=4.*num_players=3|num_players=3.*players=4"):
        X.load_game("le_dix", players=4, num_players=3)


@pytest.mark.parametrize(
    "text, message",
    [
        ("dixenv_le_dix(players=7)", r"players=7.*3 to 5"),
        ("dixenv_le_dix(num_players=2)", r"num_players=2.*3 to 5"),
        ("dixenv_le_dix(hand_sizes=5;x)", r"hand_sizes='5;x'"),
        ("dixenv_le_dix(hand_sizes=12;13)", r"hand_sizes='12;13'.*13 is out of range.*1 to 12"),
        ("dixenv_le_dix(players=5,deals=11)", r"deals=11.*1 to 10"),
        ("dixenv_le_dix(hand_sizes=5)", r"hand_sizes.*kString"),  # OpenSpiel's own type check
        ("dixenv_le_dix(deals=5,hand_sizes=4;3)", r"deals=5.*hand_sizes='4;3'"),
        ("dixenv_le_dix(scoring=bridge)", r"scoring='bridge'.*exact10"),
        ("dixenv_dix(players=3,solo=true)", r"players=3.*solo"),
        ("dixenv_dix(difficulty=5)", r"difficulty=5.*solo"),
        ("dixenv_dix(solo=true,difficulty=2)", r"difficulty=2.*4 to 10"),
        ("dixenv_dix_de_suite(teams=true)", r"teams=True.*players=4"),
        ("dixenv_dix_de_suite(returns=money)", r"returns='money'.*win, points"),
        ("dixenv_dix_de_suite(rng_seed=-5)", r"rng_seed=-5"),
    ],
)
def test_bad_values_are_refused_naming_the_parameter_and_the_allowed_values(text, message):
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(text)


def _same_so_far(a, b):
    assert a.history() == b.history() and a.move_number() == b.move_number()
    assert a.current_player() == b.current_player() and a.is_terminal() == b.is_terminal()
    assert a.returns() == b.returns() and str(a) == str(b)
    if not a.is_terminal():
        assert a.legal_actions() == b.legal_actions()
    for p in range(a.num_players()):
        assert a.observation_tensor(p) == b.observation_tensor(p)
        assert a.information_state_tensor(p) == b.information_state_tensor(p)
        assert a.information_state_string(p) == b.information_state_string(p)


PICKLE_CASES = [
    ("le_dix", dict(deals="3,2,1")),  # later deals come from the state's generator
    ("dix_de_suite", dict(target_score=30, max_turns=60, reshuffle=True)),  # draws, rounds, reshuffles
    ("dix", dict()),
    ("dix", dict(solo=True, difficulty=6)),  # ALIX plays inside the engine
]


@pytest.mark.parametrize("game, params", PICKLE_CASES, ids=lambda x: x if isinstance(x, str) else ",".join(f"{k}={v}" for k, v in x.items()))
def test_a_pickled_state_continues_exactly_like_the_original(game, params):
    import copy
    import pickle

    g = X.load_game(game, rng_seed=9, **params)
    rng = np.random.default_rng(3)
    state = g.new_initial_state()
    copies = [pickle.loads(pickle.dumps(state))]  # before the deal is drawn
    for i, _ in enumerate(_random_moves(state, rng, limit=400)):
        if i in (1, 17, 150):
            copies += [pickle.loads(pickle.dumps(state)), copy.deepcopy(state)]
    assert state.is_terminal()
    for copy in copies:
        assert isinstance(copy, X.DixenvState) and copy.get_game() == g
        for action in state.history()[len(copy.history()):]:
            copy.apply_action(action)
        _same_so_far(copy, state)


def test_a_state_pickled_at_every_step_stays_equal_to_the_original():
    import pickle

    g = X.load_game("le_dix", rng_seed=10, deals="2,1")
    state = g.new_initial_state()
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        copy = pickle.loads(pickle.dumps(state))
        _same_so_far(copy, state)
        legal = state.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
        copy.apply_action(action)
        _same_so_far(copy, state)


def test_a_pickled_game_deals_what_the_original_deals_next():
    import pickle

    for name in SMALL:
        g = X.load_game(name, **SMALL[name])  # rng_seed=-1: fresh entropy, carried by the pickle
        g.new_initial_state().legal_actions()  # one deal drawn already
        copy = pickle.loads(pickle.dumps(g))
        assert copy == g and copy.get_parameters() == g.get_parameters() and copy is not g
        assert str(copy.new_initial_state()) == str(g.new_initial_state())


def test_openspiel_serialize_and_deserialize_state_keep_the_engine():
    g = X.load_game("dix_de_suite", rng_seed=12, target_score=30, max_turns=60)
    state = g.new_initial_state()
    for _ in _random_moves(state, np.random.default_rng(6), limit=25):
        pass
    copy = g.deserialize_state(state.serialize())
    _same_so_far(copy, state)
    for _ in _random_moves(state, np.random.default_rng(7)):
        pass
    for action in state.history()[len(copy.history()):]:
        copy.apply_action(action)
    _same_so_far(copy, state)


@pytest.mark.parametrize("game", list(SMALL))
def test_random_sim_test_needs_serialize_false(game):
    # serialize=False passes for every game (test_openspiel_random_simulation_test_passes). OpenSpiel
    # serializes a sampled-stochastic game with its generator (Game::GetRNGState), which a Python
    # game cannot provide: serialize=True stops there, at the first state, whatever the game.
    g = X.load_game(game, rng_seed=1, **SMALL[game])
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.random_sim_test(g, num_sims=1, serialize=True, verbose=False)
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        g.serialize()


def test_tree_algorithms_see_only_the_deal_of_their_root():
    # Sampled chance: no chance nodes, so a tree walked from new_initial_state() holds one deal,
    # and every new root draws another. CFR, nash_conv and best responses cannot run on that.
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability, get_all_states

    g = X.load_game("le_dix", players=3, deals=1, rng_seed=15)
    roots = set()
    for _ in range(3):
        states = get_all_states.get_all_states(g, include_terminals=True, include_chance_states=True)
        assert not any(s.is_chance_node() for s in states.values())
        deals = {tuple(map(tuple, s.engine.hands)) for s in states.values() if s.move_number() == 0}
        assert len(deals) == 1
        roots |= deals
    assert len(roots) == 3
    with pytest.raises(KeyError):  # the best response meets an information state of another deal
        exploitability.nash_conv(g, policy.UniformRandomPolicy(g))


def test_openspiel_mcts_bot_runs_but_searches_the_true_state():
    # MCTSBot searches clones of the real state: every hidden card, and (the clone keeps the engine's
    # generator) every future draw. It runs, and it cheats: documented, not a fair opponent.
    g = X.load_game("dix_de_suite", rng_seed=13, target_score=20, max_turns=30)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(g, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=np.random.RandomState(0))
    state = g.new_initial_state()
    for _ in range(6):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    # What a clone draws next is what the real game draws next.
    state = X.load_game("dix_de_suite", rng_seed=14).new_initial_state()
    clone = state.clone()
    draw = state.action_to_string(state.legal_actions()[0])
    assert draw == "draw"
    for s in (state, clone):
        s.apply_action(s.legal_actions()[0])
    assert state.observation_tensor(0) == clone.observation_tensor(0)


def test_a_copied_observer_writes_its_own_tensor_and_views():
    import copy

    from dixenv.openspiel import DixenvObserver

    game = pyspiel.load_game("dixenv_dix_de_suite")
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    original = DixenvObserver(game)
    twin = copy.deepcopy(original)
    twin.tensor.fill(np.nan)
    original.set_from(state, 0), twin.set_from(state, 0)
    assert np.array_equal(original.tensor, twin.tensor)
    for name, view in twin.dict.items():
        assert np.shares_memory(view, twin.tensor) and np.array_equal(view, original.dict[name]), name
