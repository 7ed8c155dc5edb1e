"""Agents from outside the package: ``register(game, name, "module:Class")`` and ``module:Class[:k=v]`` specs."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv.agents import registry
from dixenv.agents.registry import list_agents, make_agent, parse_agent_spec, register
from dixenv.games import BUILTIN
from dixenv.le_dix_v0 import raw_env


class FirstLegal:
    """Plays the lowest legal action id (or the highest with ``last=True``): a user's agent class."""

    def __init__(self, env=None, seed=None, last: bool = False):
        self.last = last

    def act(self, observation):
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[-1] if self.last else legal[0])


HERE = f"{__name__}:FirstLegal"


@pytest.fixture(autouse=True)
def fresh_registrations(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTERED", {})


def _env():
    env = raw_env(num_players=3)
    env.reset(seed=4)
    return env


def test_a_registered_class_is_made_by_its_short_name_with_parameters():
    register("le_dix", "first", HERE)
    env = _env()
    obs = env.observe(env.agent_selection)
    legal = np.flatnonzero(obs["action_mask"])
    assert "first" in list_agents("le_dix") and "first" not in list_agents("dix")
    assert make_agent("le_dix", "first", env).act(obs) == legal[0]
    assert make_agent("le_dix", "first:last=True", env).act(obs) == legal[-1]


def test_registering_for_every_game_reaches_every_game():
    register(registry.ALL_GAMES, "first", HERE)
    for game in BUILTIN:
        assert "first" in list_agents(game)


def test_a_module_class_spec_needs_no_registration():
    assert parse_agent_spec(f"{HERE}:last=True") == (HERE, {"last": True})
    env = _env()
    obs = env.observe(env.agent_selection)
    assert make_agent("le_dix", f"{HERE}:last=True", env).act(obs) == np.flatnonzero(obs["action_mask"])[-1]


def test_short_names_and_policy_paths_are_not_read_as_classes():
    assert parse_agent_spec("policy:final") == ("policy", {"path": "final"})
    assert parse_agent_spec("policy:Final") == ("policy", {"path": "Final"})
    assert parse_agent_spec("heuristic:secure=1") == ("heuristic", {"secure": 1})


@pytest.mark.parametrize("name, target, match", [
    ("First", HERE, "lower case"),
    ("a:b", HERE, "lower case"),
    ("first", "no_colon", "module:Class"),
    ("first", "mod:Class:extra", "module:Class"),
])
def test_bad_registrations_are_refused_with_the_reason(name, target, match):
    with pytest.raises(ValueError, match=match):
        register("le_dix", name, target)
    assert registry._REGISTERED == {}


def test_a_taken_name_is_refused_unless_replaced():
    with pytest.raises(ValueError, match="exists already"):
        register("le_dix", "random", HERE)
    register("le_dix", "random", HERE, replace=True)
    assert isinstance(make_agent("le_dix", "random", _env()), FirstLegal)


def test_an_unknown_game_or_class_is_refused():
    with pytest.raises(ValueError, match="unknown game"):
        register("no_such_game", "first", HERE)
    with pytest.raises(ImportError, match="has no class"):
        make_agent("le_dix", f"{__name__}:NoSuchClass", _env())
    with pytest.raises(ImportError, match="not available"):
        make_agent("le_dix", "no_such_module_anywhere:Agent", _env())


def test_a_tournament_takes_module_class_specs_in_worker_processes():
    from dixenv.experiments.tournament import run_tournament

    spec = f"{HERE}:last=True"
    results = run_tournament("le_dix", [spec, "random", "random"], 3, options={"num_players": 3, "deals": (2, 1)},
                             workers=2, seed=3)
    assert results.agents[0] == spec and len(results.records) == 3


def test_heuristic_v1_is_playable_by_name_and_is_todays_heuristic():
    for game in BUILTIN:
        assert "heuristic-v1" in list_agents(game)
    env = _env()
    obs = env.observe(env.agent_selection)
    assert make_agent("le_dix", "heuristic-v1", env, seed=1).act(obs) == make_agent("le_dix", "heuristic", env, seed=1).act(obs)
