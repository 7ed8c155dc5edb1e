"""The game registry itself: registering, refusing clashes, and removing a game with its ids."""

from __future__ import annotations

import dataclasses

import gymnasium
import pytest

from dixenv.agents import registry as agents
from dixenv.games import game_names, register_game, unregister_game
from tests import toy_game


def test_a_game_registers_with_its_ids_and_unregisters_without_them():
    spec = dataclasses.replace(toy_game.SPEC, name="toy_copy", aec_id="dixenv_tests/toy_copy-v0", versus_id="dixenv_tests/ToyCopy-v0")
    register_game(spec)
    try:
        assert "toy_copy" in game_names() and "dixenv_tests/ToyCopy-v0" in gymnasium.registry
        with pytest.raises(ValueError, match="registered already"):
            register_game(spec)
    finally:
        unregister_game("toy_copy")
    assert "toy_copy" not in game_names() and "dixenv_tests/ToyCopy-v0" not in gymnasium.registry


def test_ids_of_another_game_are_refused():
    clash = dataclasses.replace(toy_game.SPEC, name="toy_clash", aec_id="dixenv_tests/other-v0", versus_id="dixenv/LeDix-v0")
    with pytest.raises(ValueError, match="belong to game 'le_dix'"):
        register_game(clash)
    assert "toy_clash" not in game_names()


def test_an_agent_registration_can_be_removed(monkeypatch):
    monkeypatch.setattr(agents, "_REGISTERED", {})
    agents.register("le_dix", "first", "dixenv.agents.base:RandomAgent")
    agents.unregister("le_dix", "first")
    assert "first" not in agents.list_agents("le_dix")
