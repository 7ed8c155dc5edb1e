"""``ismcts:engine=compiled`` in le_dix: the whole search compiled (``agents/search/compiled_ismcts.py``).

On the same worlds and the same stream of floats the compiled search finds the Python search's
visits, means and node count exactly and plays its move (in a game's last deal, where a playout
draws no later deal from the agent's generator; its floats from a stream of their own); it plays only legal moves through whole games,
keeps the iteration budget and the paired root's pairing, grows its table past its first capacity,
and leaves the options it does not cover to the tree on the reference engine. (Its seed and time
budget are tested with pimc's, in ``test_search_compiled.py``; dix's compiled tree in
``test_search_compiled_dix.py``.)
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dixenv import le_dix_v0  # noqa: E402
from dixenv.agents.registry import make_agent  # noqa: E402
from dixenv.agents.search import compiled_ismcts  # noqa: E402
from tests.agents.helpers import play_game  # noqa: E402
from tests.agents.test_search_compiled import TABLE, _decision  # noqa: E402


def _python_worlds(agent):
    """The compiled search drawing every world with ``sample_hidden``, as the Python one does."""
    assert agent._compiled_tree is not None, "these options should run the compiled tree"
    agent._compiled_tree.redraw = False
    return agent


def _own_floats(agent):
    """The agent's expansion floats from a stream of their own: the two searches take them in the
    same order, but draw them from the agent's generator at other times than its worlds."""
    floats = np.random.default_rng(99)
    agent._uniform = lambda: float(floats.random())
    return agent


@pytest.mark.parametrize("spec", [
    "ismcts:iterations=40",  # le_dix's defaults: ucb root, greedy playouts to the end of the deal, points
    "ismcts:iterations=60,root=paired,value=margin",
    "ismcts:iterations=30,depth=3,c=1.5",
    "ismcts:iterations=50,worlds=3",
    "ismcts:iterations=45,root=paired,width=2,deviate=0.05",
])
def test_the_compiled_tree_finds_the_python_search_s_visits_and_means(spec):
    env = le_dix_v0.raw_env(**TABLE)
    compared = 0
    for skip in range(0, 16, 3):
        obs = _decision(env, seed=3 + skip, skip=skip, deal=1)  # the last deal: no later deal is drawn
        if obs is None or obs["action_mask"].sum() < 2:
            continue
        python = _own_floats(make_agent("le_dix", spec, env, seed=7))
        compiled = _own_floats(_python_worlds(make_agent("le_dix", spec + ",engine=compiled", env, seed=7)))
        assert compiled.act(obs) == python.act(obs)
        for key in ("iterations", "visits", "means", "nodes"):
            assert compiled.last_search[key] == python.last_search[key], (skip, key)
        compared += 1
    assert compared >= 4


@pytest.mark.parametrize("spec", [
    "ismcts:engine=compiled,iterations=3",  # root=ucb, horizon=deal, value=points: the compiled tree
    "ismcts:engine=compiled,root=paired,value=margin,iterations=3",
    "ismcts:engine=compiled,rollout=random,iterations=3",
])
def test_the_options_the_compiled_tree_covers_run_it(spec):
    assert make_agent("le_dix", spec, le_dix_v0.raw_env(**TABLE))._compiled_tree is not None


@pytest.mark.parametrize("spec", [
    "ismcts:engine=compiled,root=halving,iterations=3",
    "ismcts:engine=compiled,horizon=game,value=win,iterations=3",
    "ismcts:engine=compiled,opponents=policy,iterations=3",
    "ismcts:engine=compiled,expand=policy,iterations=3",
    "ismcts:engine=python,iterations=3",
])
def test_other_options_keep_the_tree_on_the_reference_engine(spec):
    assert make_agent("le_dix", spec, le_dix_v0.raw_env(**TABLE))._compiled_tree is None


@pytest.mark.parametrize("options,spec", [
    (TABLE, "ismcts:engine=compiled,iterations=30"),
    ({"num_players": 3, "deals": (4,), "scoring": "oh_hell"}, "ismcts:engine=compiled,iterations=20,root=paired,rollout=random"),
    ({"num_players": 5, "deals": (2, 1), "hook": True}, "ismcts:engine=compiled,seconds=0.005,value=margin"),
])
def test_whole_games_are_played_legally(options, spec):
    env = le_dix_v0.raw_env(**options)
    agents = [make_agent("le_dix", spec, env, seed=s) for s in range(env.unwrapped.config.num_players)]
    assert play_game(env, agents, seed=3)  # the helper checks every move against the mask
    assert env.unwrapped.state.current_player() < 0


def test_budgets_pairing_and_a_grown_table(monkeypatch):
    env = le_dix_v0.raw_env(num_players=4)
    obs = _decision(env, seed=2, skip=5)
    ucb = make_agent("le_dix", "ismcts:engine=compiled,iterations=3000", env, seed=1)
    ucb.act(obs)
    stats = ucb.last_search
    assert stats["iterations"] == 3000 and sum(stats["visits"].values()) == 3000  # every iteration backed up at the root
    # A table that starts tiny grows (rehashing every edge) many times and finds the same search.
    monkeypatch.setattr(compiled_ismcts, "_FIRST_CAPACITY", 16)
    ucb.reset(1)
    ucb.act(obs)
    assert ucb.last_search == stats | {"seconds": ucb.last_search["seconds"]}
    paired = make_agent("le_dix", "ismcts:engine=compiled,iterations=101,root=paired", env, seed=1)
    paired.act(obs)
    visits = paired.last_search["visits"]
    assert sum(visits.values()) == 101 and max(visits.values()) - min(visits.values()) <= 1


def test_python_worlds_need_a_budget_of_iterations():
    env = le_dix_v0.raw_env(num_players=4)
    obs = _decision(env, seed=1, skip=3)
    agent = _python_worlds(make_agent("le_dix", "ismcts:seconds=0.01,engine=compiled", env, seed=0))
    with pytest.raises(ValueError, match="Python worlds .* for a budget of iterations only"):
        agent.act(obs)
