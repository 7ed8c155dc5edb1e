"""Search presets: named option settings, plain ``ismcts`` as each game's strongest measured setting."""

from __future__ import annotations

import pytest

from dixenv import dix_de_suite_v0
from dixenv.agents.registry import make_agent, parse_agent_spec
from dixenv.agents.search import GENERIC_RULES, plain_preset, presets
from tests.agents.helpers import play_game
from tests.agents.test_search import TABLES, _decision, _env

GAMES = list(TABLES)
#: The option strings measured for each game's strongest setting (docs/results/search.md), as run.
MEASURED_STRONGEST = {
    "le_dix": "ismcts:iterations=100",
    "dix": "ismcts:iterations=250",
    "dix_de_suite": "ismcts:iterations=64,horizon=move,estimate=game,rollout=heuristic,decisions=place,width=4,"
                    "root=paired,rollout.secure=1,rollout.prefix_weight=0.3,round_win=fitted,deviate=0.01,belief=progress",
}


def _positions(env, count: int, seed: int = 0):
    """``count`` decisions with at least two legal moves, from random play on fixed seeds."""
    found = []
    for skip in range(0, 60, 3):
        obs = _decision(env, seed=seed + skip, skip=skip)
        if obs["action_mask"].sum() >= 2:
            found.append((seed + skip, skip))
        if len(found) == count:
            return found
    raise AssertionError("too few decisions with a choice")


def test_every_game_has_the_generic_presets_and_its_strongest():
    for game in GAMES:
        names = set(presets(game, "ismcts"))
        assert {"defaults", "fast", "cowling2012", "strongest"} <= names, (game, names)
        assert set(presets(game, "pimc")) >= {"defaults"}
        assert "cowling2012" not in presets(game, "pimc")  # a tree algorithm
    assert set(presets("dix_de_suite", "ismcts")) == {"defaults", "fast", "cowling2012", "strongest", "reply"}


@pytest.mark.parametrize("game", GAMES)
def test_a_preset_resolves_to_its_options(game):
    env = _env(game)
    for name, preset in presets(game, "ismcts").items():
        agent = make_agent(game, f"ismcts:preset={name}", env)
        assert agent.preset == name and agent.options == preset.options
        assert preset.source  # every preset says where it comes from


def test_the_dix_de_suite_strongest_preset_is_the_measured_string():
    env = _env("dix_de_suite")
    agent = make_agent("dix_de_suite", "ismcts:preset=strongest", env)
    assert agent.options == parse_agent_spec(MEASURED_STRONGEST["dix_de_suite"])[1]
    assert (agent.iterations, agent.horizon, agent.estimate, agent.rollout, agent.decisions, agent.width, agent.root,
            agent.round_win, agent.deviate, agent.belief, agent.value) == (
        64, "move", "game", "heuristic", "place", 4, "paired", "fitted", 0.01, "progress", "win")
    assert agent._policy.params["secure"] == 1.0 and agent._policy.params["prefix_weight"] == 0.3


def test_explicit_options_override_the_presets():
    env = _env("dix_de_suite")
    agent = make_agent("dix_de_suite", "ismcts:preset=strongest,iterations=7,belief=uniform", env)
    assert (agent.iterations, agent.belief, agent.estimate, agent.width) == (7, "uniform", "game", 4)
    dix = make_agent("dix", "ismcts:preset=cowling2012,c=0.3", _env("dix"))
    assert (dix.rollout, dix.horizon, dix.value, dix.c, dix.opponents, dix.expand, dix.root) == (
        "random", "game", "win", 0.3, "tree", "random", "ucb")
    # Keyword arguments are options like those of the string.
    kw = make_agent("le_dix", "ismcts", _env("le_dix"), preset="fast", rollout="random")
    assert (kw.preset, kw.iterations, kw.rollout) == ("fast", 30, "random")


def test_plain_ismcts_is_the_strongest_preset_and_options_alone_keep_the_defaults():
    for game in GAMES:
        env = _env(game)
        plain = make_agent(game, "ismcts", env)
        assert plain.preset == "strongest" and plain.options == presets(game)["strongest"].options
        alone = make_agent(game, "ismcts:iterations=30", env)
        assert alone.preset == "defaults" and alone.options == {"iterations": 30}
    assert make_agent("dix", "ismcts", _env("dix")).iterations == 250
    defaults = make_agent("dix_de_suite", "ismcts:iterations=30", _env("dix_de_suite"))
    assert (defaults.horizon, defaults.estimate, defaults.rollout, defaults.belief) == ("round", "lis", "greedy", "uniform")
    for game in GAMES:  # pimc has no measured setting: plain pimc is its game's defaults
        assert make_agent(game, "pimc", _env(game)).preset == "defaults"
    assert plain_preset(GENERIC_RULES, "ismcts", None) == "defaults"  # a game without search rules


@pytest.mark.parametrize("game", GAMES)
def test_plain_ismcts_plays_the_strongest_preset_and_the_measured_string_move_for_move(game):
    env = _env(game)
    spellings = ["ismcts", "ismcts:preset=strongest", MEASURED_STRONGEST[game]]
    searched = 0
    for seed, skip in _positions(env, 3, seed=4):
        moves, searches = [], []
        for spec in spellings:
            obs = _decision(env, seed=seed, skip=skip)
            agent = make_agent(game, spec, env, seed=11)
            moves.append(agent.act(obs))
            searches.append({k: v for k, v in agent.last_search.items() if k != "seconds"})
            assert obs["action_mask"][moves[-1]] == 1
        assert moves[1:] == moves[:-1], (spellings, moves)
        assert searches[1:] == searches[:-1]
        searched += searches[0].get("iterations", 0) > 0
    assert searched  # at least one position was searched, not left to the rollout policy


def test_a_preset_the_table_does_not_cover_is_refused_and_plain_ismcts_falls_back():
    env = dix_de_suite_v0.raw_env(num_players=3, target_score=80, max_turns=120)
    with pytest.raises(ValueError, match="preset 'strongest' of dix_de_suite does not cover this table.*2 players"):
        make_agent("dix_de_suite", "ismcts:preset=strongest", env)
    plain = make_agent("dix_de_suite", "ismcts", env)
    assert plain.preset == "reply" and plain.estimate == "reply"
    obs = _decision(env, seed=1, skip=3)
    assert obs["action_mask"][make_agent("dix_de_suite", "ismcts:preset=reply,iterations=4", env, seed=0).act(obs)] == 1


@pytest.mark.parametrize("agent", ["ismcts", "pimc"])
@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_preset_is_refused_naming_the_games_presets(game, agent):
    names = ", ".join(presets(game, agent))
    with pytest.raises(ValueError, match=f"unknown search preset 'best' for {agent} in {game}; presets: {names}$"):
        make_agent(game, f"{agent}:preset=best", _env(game))
    with pytest.raises(ValueError, match="unknown search preset 3"):
        make_agent(game, agent, _env(game), preset=3)


def _every_preset():
    return [(game, agent, name) for game in GAMES for agent in ("ismcts", "pimc") for name in presets(game, agent)]


@pytest.mark.parametrize("game, agent, name", _every_preset())
def test_every_preset_plays_legal_moves(game, agent, name):
    env = _env(game)
    players = [make_agent(game, f"{agent}:preset={name},iterations=2", env, seed=s) for s in range(env.unwrapped.config.num_players)]
    for seed, skip in _positions(env, 2, seed=7):
        obs = _decision(env, seed=seed, skip=skip)
        seat = int(env.unwrapped.agent_selection.rsplit("_", 1)[1])
        assert obs["action_mask"][players[seat].act(obs)] == 1
    if game == "le_dix":  # one whole short game too, every move checked against the mask
        short = _env(game, deals=(2,))
        assert play_game(short, [make_agent(game, f"{agent}:preset={name},iterations=2", short, seed=s) for s in range(4)], seed=1)
