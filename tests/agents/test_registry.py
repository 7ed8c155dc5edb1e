"""The agent registry: short names, parameters in names, unknown names and missing modules."""

from __future__ import annotations

import re
import sys
import types

import numpy as np
import pytest

from dixenv.agents import registry
from dixenv.agents.base import RandomAgent
from dixenv.games import BUILTIN
from dixenv.agents.registry import (
    AGENTS,
    agent_class,
    env_module,
    list_agents,
    make_agent,
    parse_agent_spec,
    parse_key_values,
    parse_value,
    resolve_game,
)


def test_every_game_lists_random_and_dix_lists_alix():
    from dixenv.games import BUILTIN

    for game in BUILTIN:
        assert "random" in list_agents(game)
        assert "heuristic" in list_agents(game)
    assert "alix" in list_agents("dix")
    assert "alix" not in list_agents("le_dix")


@pytest.mark.parametrize("text", ["le_dix", "le_dix_v0", "dixenv.le_dix_v0", "dixenv/le_dix-v0", " LE_DIX "])
def test_resolve_game_accepts_module_and_registry_spellings(text):
    assert resolve_game(text) == "le_dix"


def test_unknown_game_is_a_value_error_listing_the_games():
    with pytest.raises(ValueError, match="dix_de_suite"):
        resolve_game("belote")


@pytest.mark.parametrize(
    "text, value",
    [("6", 6), ("0.5", 0.5), ("True", True), ("false", False), ("none", None), ("(5,)", (5,)), ("oh_hell", "oh_hell"), ("[1, 2]", [1, 2])],
)
def test_parse_value_reads_python_literals_and_bare_words(text, value):
    assert parse_value(text) == value


def test_parse_key_values_rejects_an_item_without_equals_sign():
    assert parse_key_values(["scoring=oh_hell", "deals=(5,)"]) == {"scoring": "oh_hell", "deals": (5,)}
    with pytest.raises(ValueError, match="key=value"):
        parse_key_values(["scoring"])


def test_agent_spec_carries_parameters_after_a_colon():
    assert parse_agent_spec("alix:difficulty=6") == ("alix", {"difficulty": 6})
    assert parse_agent_spec("heuristic:aggression=0.5,greedy=True") == ("heuristic", {"aggression": 0.5, "greedy": True})
    assert parse_agent_spec("Random") == ("random", {})


def test_random_agent_is_made_for_every_game_and_plays_legal_moves():
    env = env_module("le_dix").raw_env(num_players=3)
    agent = make_agent("le_dix", "random", env, seed=1)
    assert isinstance(agent, RandomAgent)
    env.reset(seed=0)
    for _ in range(30):
        obs = env.observe(env.agent_selection)
        a = agent.act(obs)
        assert obs["action_mask"][a] == 1
        env.step(a)


def test_unknown_agent_name_is_a_value_error_listing_known_names():
    known = re.escape(str(sorted(AGENTS["le_dix"])))
    with pytest.raises(ValueError, match=f"unknown agent 'alix' for le_dix; known agents: {known}"):
        make_agent("le_dix", "alix", env=None)


def test_known_name_whose_module_is_missing_gives_a_clear_import_error(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTERED", {})
    registry.register("le_dix", "future", "dixenv.agents.no_such_module_yet:Future")
    with pytest.raises(ImportError, match="agents.no_such_module_yet, which is not available yet"):
        make_agent("le_dix", "future", env=None)
    assert "future" in list_agents("le_dix")  # listing never imports


def test_missing_class_in_existing_module_is_an_import_error(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTERED", {})
    registry.register("le_dix", "ghost", "dixenv.agents.base:NoSuchAgent")
    with pytest.raises(ImportError, match="has no class NoSuchAgent"):
        agent_class("le_dix", "ghost")


class _EchoAgent:
    name = "echo"

    def __init__(self, env, seed=None, **params):
        self.env, self.seed, self.params = env, seed, params

    def act(self, observation):
        return int(np.flatnonzero(observation["action_mask"])[0])


def test_spec_parameters_and_keyword_parameters_reach_the_constructor(monkeypatch):
    module = types.ModuleType("fake_agents_for_registry_test")
    module.EchoAgent = _EchoAgent
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(registry, "_REGISTERED", {})
    registry.register("dix", "echo", f"{module.__name__}:EchoAgent")
    agent = make_agent("dix", "echo:difficulty=6,mode=fast", env="ENV", seed=7, extra=1)
    assert (agent.env, agent.seed) == ("ENV", 7)
    assert agent.params == {"difficulty": 6, "mode": "fast", "extra": 1}
    # an explicit keyword beats the same key in the name
    assert make_agent("dix", "echo:difficulty=6", env=None, difficulty=9).params == {"difficulty": 9}


def _available(game, name):
    try:
        env_module(game)
        agent_class(game, name)
    except ImportError:
        return False
    return True


# "policy" needs the path of a saved policy: tests/agents/test_policy.py plays it.
CASES = [(g, n) for g in BUILTIN for n in registry.AGENTS[g] if n != "policy"]


@pytest.mark.parametrize("game, name", CASES)
def test_every_registered_agent_that_exists_plays_a_legal_move(game, name):
    if not _available(game, name):
        pytest.skip(f"{game}/{name} is not written yet")
    options = {"num_players": 2} if name == "alix" else {}
    env = env_module(game).raw_env(**options)
    agent = make_agent(game, name, env, seed=3)
    env.reset(seed=5)
    for _ in range(20):
        agent_name = env.agent_selection
        if env.terminations[agent_name] or env.truncations[agent_name]:
            break
        obs = env.observe(agent_name)
        a = agent.act(obs)
        assert obs["action_mask"][a] == 1, env.unwrapped.action_to_string(a)
        env.step(a)
