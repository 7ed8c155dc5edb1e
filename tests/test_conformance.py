"""The shared conformance suite: every registered game (the test-only toy game included) and its option sets.

Parametrised over the registry (``dixenv.games``): a game added with ``register_game`` is checked by
every test here without a line of its own. What each game's option sets are: its soak configurations
(``GameSpec.soak_configs()``). Per-game folders (tests/games/<game>/) keep the tests of what only
that game means: its rules, its scoring, its encodings, and the same checks over more option sets.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from dixenv.agents.registry import make_agent
from dixenv.core.options import ENV_OPTIONS
from dixenv.games import game_specs, load
from dixenv.vector import VectorEnv

SPECS = game_specs()
TABLES = [(s, n) for s in SPECS for n in s.players]
OPTION_SETS = [(s, dict(c.options)) for s in SPECS for c in s.soak_configs()]


def _id(case) -> str:
    spec, rest = case[0], case[1]
    if isinstance(rest, dict):
        return spec.name + "[" + ",".join(f"{k}={v}" for k, v in sorted(rest.items())) + "]"
    return f"{spec.name}-{rest}p"


def _game_options(options: dict) -> dict:
    """The game's own options of an option set (the env's reward, auto_forced... left out)."""
    return {k: v for k, v in options.items() if k not in ENV_OPTIONS}


def _new(spec, options: dict, seed: int):
    game = spec.game_record()
    config = game.make_config(**_game_options(options))
    return game, config, game.new_state(config, np.random.default_rng(seed), {}, None)


def _views(game, config, state) -> list[bytes]:
    observer = game.make_observer(config)
    out = []
    for seat in range(state.num_seats):
        observer.set_from(state, seat)
        out.append(observer.tensor.tobytes())
    return out


def _play(state, rng: np.random.Generator, moves: int) -> None:
    for _ in range(moves):
        if state.current_player() < 0:
            return
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.integers(len(legal))]))


# --- PettingZoo and Gymnasium ------------------------------------------------------------------


@pytest.mark.parametrize("case", OPTION_SETS, ids=_id)
def test_pettingzoo_api_and_seed_tests_pass_on_every_option_set(case):
    from pettingzoo.test import api_test, seed_test

    spec, options = case
    module = spec.env_module_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's generic advice about Dict spaces
        api_test(module.env(**options), num_cycles=300)
        seed_test(lambda: module.env(**options), num_cycles=300)


def test_the_option_sets_cover_every_player_count():
    for spec in SPECS:
        counts = {o.get("num_players", spec.default_table["num_players"]) for s, o in OPTION_SETS if s is spec}
        assert counts >= set(spec.players), f"{spec.name}: no option set at {sorted(set(spec.players) - counts)} players"


@pytest.mark.parametrize("case", TABLES, ids=_id)
def test_the_layout_covers_the_observation_without_gaps_or_overlaps(case):
    spec, n = case
    env = spec.env_module_().raw_env(num_players=n)
    stops = sorted((s.start, s.stop) for s in env.observation_layout().values())
    assert stops[0][0] == 0 and all(a[1] == b[0] for a, b in zip(stops, stops[1:]))
    assert stops[-1][1] == env.observation_space(env.possible_agents[0])["observation"].shape[0]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_action_strings_round_trip_over_the_whole_space(spec):
    env = spec.env_module_().raw_env(**spec.default_table)
    for a in range(env.action_space(env.possible_agents[0]).n):
        assert env.string_to_action(env.action_to_string(a)) == a
    with pytest.raises(ValueError):
        env.string_to_action("no such action")


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_reset_with_the_same_seed_replays_the_same_game_and_another_seed_another(spec):
    a, b = (spec.env_module_().raw_env(**spec.default_table) for _ in range(2))
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.state.render_text() == b.state.render_text()
    assert [a.observe(x)["observation"].tobytes() for x in a.agents] == [b.observe(x)["observation"].tobytes() for x in b.agents]
    assert any(a.reset(seed=s) or a.state.render_text() != b.state.render_text() for s in range(8, 12))


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_render_ansi_returns_the_table_as_text(spec):
    env = spec.env_module_().env(render_mode="ansi", **spec.default_table)
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text == env.unwrapped.state.render_text()


@pytest.mark.parametrize("spec", [s for s in SPECS if hasattr(pettingzoo, "aec_registry")], ids=lambda s: s.name)
def test_the_aec_id_is_registered_with_pettingzoo(spec):
    env = pettingzoo.make("aec", spec.aec_id, **spec.default_table)
    env.reset(seed=0)
    assert env.agent_selection in env.possible_agents


@pytest.mark.parametrize("env_id", [i for s in SPECS for i in s.gymnasium_ids], ids=str)
def test_every_gymnasium_id_passes_the_env_checker_and_runs_vectorised(env_id):
    from gymnasium.utils.env_checker import check_env

    options = {"opponents": "random"} if env_id != "dixenv/DixSolo-v0" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make(env_id, **options).unwrapped, skip_render_check=True)
    venv = VectorEnv(env_id, 3, **options)
    obs, _ = venv.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(30):
        masks = venv.action_masks()
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, rewards, term, trunc, _ = venv.step(np.array(actions))
        assert np.all(np.isfinite(rewards)) and rewards.shape == (3,)
    venv.close()


# --- the state contract over every option set ----------------------------------------------------


@pytest.mark.parametrize("case", OPTION_SETS, ids=_id)
def test_random_play_keeps_invariants_bounds_and_why_illegal_exact(case):
    spec, options = case
    game, config, state = _new(spec, options, seed=11)
    observer = game.make_observer(config)
    layout = observer.layout
    n_actions = game.num_actions(config)
    rng = np.random.default_rng(3)
    for _ in range(400):
        state.check_invariants()
        for seat in range(state.num_seats):
            observer.set_from(state, seat)
            assert layout.out_of_bounds(observer.tensor) == [], f"seat {seat} out of bounds"
        if state.current_player() < 0:
            break
        legal = set(state.legal_actions())
        for a in range(n_actions):
            assert (state.why_illegal(a) == "") == (a in legal), f"why_illegal({a}) disagrees with legal_actions"
        state.apply_action(int(rng.choice(sorted(legal))))
    assert state.is_terminal() != state.is_truncated() or state.current_player() >= 0


@pytest.mark.parametrize("case", OPTION_SETS, ids=_id)
def test_an_illegal_action_is_refused_and_changes_nothing(case):
    spec, options = case
    game, config, state = _new(spec, options, seed=12)
    _play(state, np.random.default_rng(1), 7)
    if state.current_player() < 0:
        return
    before = (_views(game, config, state), state.render_text(), state.legal_actions())
    illegal = [a for a in range(-1, game.num_actions(config) + 1) if a not in state.legal_actions()]
    for a in illegal[:5]:
        with pytest.raises(ValueError):
            state.apply_action(a)
    assert (_views(game, config, state), state.render_text(), state.legal_actions()) == before


@pytest.mark.parametrize("case", OPTION_SETS, ids=_id)
def test_a_clone_plays_on_independently(case):
    spec, options = case
    game, config, state = _new(spec, options, seed=13)
    _play(state, np.random.default_rng(2), 5)
    twin = state.clone()
    before = _views(game, config, state)
    _play(twin, np.random.default_rng(4), 30)
    assert _views(game, config, state) == before, "playing a clone changed the original"
    _play(state, np.random.default_rng(4), 30)
    assert _views(game, config, state) == _views(game, config, twin), "a clone and its original diverged on the same moves"


@pytest.mark.parametrize("case", OPTION_SETS, ids=_id)
def test_sample_hidden_keeps_the_seats_view_and_hidden_twins_sample_alike(case):
    spec, options = case
    game, config, state = _new(spec, options, seed=14)
    _play(state, np.random.default_rng(5), 9)
    if state.current_player() < 0:
        return
    seat = state.current_player()
    observer = game.make_observer(config)
    observer.set_from(state, seat)
    view = observer.tensor.copy()
    twin = state.sample_hidden(seat, np.random.default_rng(100))  # differs only in what seat cannot see
    for world in (twin, state.sample_hidden(seat, np.random.default_rng(101))):
        observer.set_from(world, seat)
        assert np.array_equal(observer.tensor, view)
        assert world.legal_actions() == state.legal_actions()
        world.check_invariants()
    a = state.sample_hidden(seat, np.random.default_rng(7))
    b = twin.sample_hidden(seat, np.random.default_rng(7))
    assert _views(game, config, a) == _views(game, config, b) and a.render_text() == b.render_text()


# --- a Hypothesis state machine, generic over the game and its option sets -------------------------


class GameMachine(RuleBasedStateMachine):
    """Random legal play with refused illegal actions and clones, checking invariants every step."""

    @initialize(case=st.sampled_from(OPTION_SETS), seed=st.integers(0, 2**32 - 1))
    def start(self, case, seed):
        spec, options = case
        self.game, self.config, self.state = _new(spec, options, seed)
        self.n_actions = self.game.num_actions(self.config)

    def not_over(self) -> bool:
        return self.state.current_player() >= 0

    @precondition(not_over)
    @rule(pick=st.integers(0, 10**6))
    def play_a_legal_action(self, pick):
        legal = self.state.legal_actions()
        self.state.apply_action(legal[pick % len(legal)])

    @precondition(not_over)
    @rule(action=st.integers(-2, 400))
    def an_illegal_action_changes_nothing(self, action):
        if action in self.state.legal_actions():
            return
        before = self.state.render_text()
        with pytest.raises(ValueError):
            self.state.apply_action(action)
        assert self.state.render_text() == before

    @rule()
    def a_clone_looks_the_same(self):
        twin = self.state.clone()
        assert _views(self.game, self.config, twin) == _views(self.game, self.config, self.state)

    @invariant()
    def invariants_hold(self):
        if hasattr(self, "state"):
            self.state.check_invariants()


TestGameMachine = GameMachine.TestCase
TestGameMachine.settings = settings(max_examples=25, stateful_step_count=40, deadline=None,
                                    suppress_health_check=[HealthCheck.too_slow])


# --- agents and tools that need no game knowledge --------------------------------------------------


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_random_and_search_agents_finish_a_game(spec):
    env = spec.env_module_().raw_env(**spec.default_table)
    env.reset(seed=3)
    agents = {a: make_agent(spec.name, "random" if k else "ismcts:iterations=8", env, seed=k)
              for k, a in enumerate(env.possible_agents)}
    for _ in range(5000):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(agents[agent].act(env.observe(agent)))
    assert not env.agents, "the game did not end"


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_a_tournament_of_random_agents_runs(spec):
    from dixenv.experiments.tournament import run_tournament

    n = spec.default_table["num_players"]
    results = run_tournament(spec.name, ["random"] * n, 4, options=dict(spec.default_table), workers=1, seed=1)
    assert results.game == spec.name and len(results.records) == 4


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_the_soak_plays_the_game_without_failures(spec):
    from dixenv.experiments import soak

    configs = soak.configurations(spec.name)
    assert configs, "every game has soak configurations"
    report = soak.run({spec.name: 2 * len(configs)}, seed=7, workers=1, progress=False)
    assert report["failures"] == [] and report["games"][spec.name] == 2 * len(configs)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_spec_field_names_something_that_loads(spec):
    for field in ("renderer", "view", "search_rules", "openspiel", "compiled", "compiled_state", "stats"):
        target = getattr(spec, field)
        if target is None:
            continue
        if field == "renderer":
            import importlib

            assert importlib.util.find_spec(target) is not None, f"{spec.name}.{field}: {target} is not a module"
        elif field == "openspiel" and isinstance(target, str):
            pytest.importorskip("pyspiel")
            assert load(target) is not None
        elif field in ("compiled", "compiled_state") and isinstance(target, str):
            pytest.importorskip("numba")
            assert isinstance(load(target), type)
        else:
            assert load(target) is not None, f"{spec.name}.{field}: {target} does not load"
    for name, target in spec.agents.items():
        assert isinstance(load(target), type), f"{spec.name} agent {name}: {target}"
    assert spec.game_record().name == spec.name
