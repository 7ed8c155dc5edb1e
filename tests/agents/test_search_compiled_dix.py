"""``engine=compiled`` search in dix: rollouts on the compiled dix engine (``agents/search/compiled_dix.py``).

The compiled greedy rollout policy chooses the Python one's move in every position; with the same
worlds, the compiled pimc finds the Python pimc's visits and means exactly (greedy rollouts, every
value, a depth cut, the solo game with ALIX), and so does ``ismcts`` with its playouts there; the piles it reshuffles in compiled code keep what is
known and follow ``sample_hidden``'s law (uniform orders of the cards not drawn); it plays only
legal moves through whole games and is reproducible from its seed.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dixenv import dix_v0  # noqa: E402
from dixenv.agents.base import RandomAgent  # noqa: E402
from dixenv.agents.registry import make_agent  # noqa: E402
from dixenv.agents.search.compiled_dix import _reshuffle, greedy_action  # noqa: E402
from dixenv.agents.search.dix import _dix_greedy  # noqa: E402
from dixenv.games.dix.compiled import P_PILE, PILE_POS, DixBatch  # noqa: E402
from dixenv.games.dix.config import make_config  # noqa: E402
from dixenv.games.dix.state import GAME_OVER, DixState  # noqa: E402
from tests.agents.helpers import play_game
from tests.agents.test_search_compiled_ismcts import _own_floats, _python_worlds  # noqa: E402
from tests.compiled.test_dix_compiled import _biased  # noqa: E402


def _positions(config, games: int, seed: int) -> list[DixState]:
    """Every decision of ``games`` games of a mostly greedy player (auctions, payments, buys)."""
    chooser = np.random.default_rng(seed)
    out = []
    for game in range(games):
        state = DixState(config, np.random.default_rng([seed, game]))
        while state.phase != GAME_OVER:
            out.append(state.clone())
            state.apply_action(_biased(state, chooser))
    return out


@pytest.mark.parametrize("options", [
    {"num_players": 2},
    {"num_players": 4, "bust_buy": True},
    {"solo": True, "difficulty": 8},
])
def test_compiled_greedy_chooses_the_python_greedy_move(options):
    config = make_config(**options)
    states = [s for s in _positions(config, 3, seed=1) if len(s.legal_actions()) > 1]
    batch = DixBatch(config, len(states))
    batch.load_states(batch.all_slots, states)
    for i, state in enumerate(states):
        assert greedy_action(batch, i) == _dix_greedy(state, state.legal_actions()), state.render_text()


def _decision(env, seed: int, skip: int):
    """Reset with ``seed`` and let random players make ``skip`` decisions; the next observation
    with two or more legal moves (None if the game ended first)."""
    env.reset(seed=seed)
    rnd = RandomAgent(env, seed=seed)
    while env.unwrapped.state.current_player() >= 0:
        obs = env.observe(env.agent_selection)
        if skip <= 0 and obs["action_mask"].sum() > 1:
            return obs
        skip -= 1
        env.step(rnd.act(obs))
    return None


def _same_search(spec: str, options: dict, skips, seed: int = 3) -> int:
    """The Python and compiled pimc (``spec`` + engine, the compiled one drawing its worlds with
    ``sample_hidden`` as the Python one does) find the same visits and means and play the same move
    at the decision after each of ``skips`` random moves; returns the decisions compared."""
    env = dix_v0.raw_env(**options)
    compared = 0
    for skip in skips:
        obs = _decision(env, seed=seed + skip, skip=skip)
        if obs is None:
            continue
        python = make_agent("dix", spec, env, seed=7)
        compiled = make_agent("dix", spec + ",engine=compiled", env, seed=7)
        compiled._compiled.redraw = False
        keys = ("iterations", "visits", "means")
        if getattr(compiled, "_compiled_tree", None) is not None:  # ismcts: the whole search compiled
            compiled = _own_floats(_python_worlds(compiled))
            python = _own_floats(python)
            keys += ("nodes",)
        assert compiled.act(obs) == python.act(obs)
        for key in keys:
            assert compiled.last_search[key] == python.last_search[key], (skip, key)
        compared += 1
    return compared


@pytest.mark.parametrize("spec, options", [
    ("pimc:iterations=20", {"num_players": 2}),  # greedy rollouts to the end, margin
    ("pimc:iterations=18,value=win", {"num_players": 3}),
    ("pimc:iterations=16,value=points,worlds=3", {"num_players": 2, "bust_buy": True}),
    ("pimc:iterations=14,depth=5,value=win", {"num_players": 2}),  # cut short: ranked by scores alone
    ("pimc:iterations=15,depth=4", {"num_players": 4, "auto_pay": True}),
    ("pimc:iterations=12", {"solo": True, "difficulty": 6}),
    ("pimc:iterations=12,value=win", {"solo": True, "difficulty": 10}),
])
def test_greedy_values_equal_the_python_engine(spec, options):
    assert _same_search(spec, options, skips=(0, 3, 8, 20, 40)) >= 4


@pytest.mark.parametrize("spec, options", [
    ("ismcts:iterations=40", {"num_players": 2}),  # dix's defaults: paired root, greedy, margin
    ("ismcts:iterations=30,root=ucb,c=0.7,value=win,opponents=tree", {"num_players": 3}),
    ("ismcts:iterations=24,depth=6,value=win", {"num_players": 2}),
    ("ismcts:iterations=20", {"solo": True, "difficulty": 9}),
    ("ismcts:iterations=60,expand=random,value=points,worlds=3", {"num_players": 4, "auto_pay": True}),
    ("ismcts:iterations=50,root=ucb,c=0.5,opponents=tree,expand=policy", {"num_players": 2, "bust_buy": True}),
])
def test_ismcts_equals_the_python_engine(spec, options):
    """The whole search compiled (``compiled_ismcts_dix.py``), on the same Python worlds and floats,
    finds the Python search's visits, means and node count."""
    assert _same_search(spec, options, skips=(0, 3, 8, 20, 40)) >= 4


@pytest.mark.parametrize("spec, options", [
    ("pimc:iterations=12,rollout=policy,value=win", {"solo": True, "difficulty": 10}),
    ("pimc:iterations=10,rollout=policy,deviate=0.1", {"num_players": 2}),
    ("ismcts:iterations=16,rollout=policy", {"solo": True, "difficulty": 9}),  # the Python tree, compiled playouts
])
def test_policy_rollouts_equal_the_python_engine(spec, options):
    """``rollout=policy`` (the shipped ``ppo``): the compiled rollouts, every slot stepped together
    with one forward pass a step, score what the Python engine's rollouts score on the same worlds."""
    assert _same_search(spec, options, skips=(0, 3, 8, 20)) >= 3


def test_a_policy_rollout_plays_the_policy_and_deviate_keeps_its_move():
    env = dix_v0.raw_env(solo=True, difficulty=10)
    obs = _decision(env, seed=5, skip=2)
    ppo = make_agent("dix", "ppo", env)
    search = make_agent("dix", "pimc:iterations=30,rollout=policy,deviate=2,engine=compiled", env, seed=1)
    # deviate=2 is more than any difference of win means: the blueprint's move is always kept
    assert search.act(obs) == ppo.act(obs) == search.last_search["policy_move"]
    path = _shipped_solo_path()
    by_path = make_agent("dix", f"pimc:iterations=30,rollout=policy,rollout.path={path},deviate=2,engine=compiled", env, seed=1)
    assert by_path.act(obs) == ppo.act(obs)


def test_a_policy_rollouts_width_keeps_the_policys_most_likely_moves():
    env = dix_v0.raw_env(num_players=2)
    ppo = make_agent("dix", "ppo", env)
    checked = 0
    for skip in range(0, 80, 2):
        obs = _decision(env, seed=11, skip=skip)
        if obs is None or obs["action_mask"].sum() < 4 or checked == 3:
            continue
        logits = ppo.masked_logits(obs["observation"][None, :], obs["action_mask"][None, :])[0]
        top = sorted(np.flatnonzero(obs["action_mask"]).tolist(), key=lambda a: (-logits[a], a))[:3]
        search = make_agent("dix", "pimc:iterations=9,rollout=policy,width=3,engine=compiled", env, seed=1)
        search.act(obs)
        assert sorted(search.last_search["visits"]) == sorted(top) and top[0] == ppo.act(obs)
        checked += 1
    assert checked >= 2


def _shipped_solo_path() -> str:
    from dixenv.agents.zoo import shipped

    return next(m["path"] for m in shipped("dix") if m.get("env_id") == "dixenv/DixSolo-v0")


@pytest.mark.parametrize("spec, options, message", [
    ("pimc:rollout=policy,engine=compiled", {"num_players": 4},
     "no shipped ppo policy for dix at this table"),
    ("pimc:rollout=policy,depth=5,engine=compiled", {"solo": True}, "plays dix games to their end \\(no depth\\)"),
    ("pimc:rollout=policy,rollout.secure=1", {"solo": True}, "takes rollout.path=PATH .*got rollout.secure"),
    ("pimc:rollout=greedy,rollout.path=x", {"solo": True}, "but rollout='greedy'; use rollout=heuristic"),
    ("pimc:rollout=policy,rollout.path=/nonexistent/p", {"solo": True}, "nonexistent"),
])
def test_bad_policy_rollouts_are_refused(spec, options, message):
    with pytest.raises(ValueError, match=message):
        make_agent("dix", spec, dix_v0.raw_env(**options))


def test_a_halving_root_keeps_the_tree_on_the_reference_engine():
    """``root=halving`` is not compiled: its tree walks the same Python worlds with each leaf's
    greedy playout on the compiled engine, which scores what the Python playout scores."""
    agent = make_agent("dix", "ismcts:iterations=3,root=halving,engine=compiled", dix_v0.raw_env(num_players=2))
    assert agent._compiled_tree is None
    assert _same_search("ismcts:iterations=30,root=halving", {"num_players": 2}, skips=(0, 3, 8, 20, 40)) >= 4


@pytest.mark.parametrize("spec, options", [
    ("pimc:iterations=8,engine=compiled", {"num_players": 2}),
    ("pimc:iterations=10,engine=compiled,rollout=random,value=win", {"num_players": 3}),
    ("pimc:seconds=0.005,engine=compiled", {"solo": True, "difficulty": 7}),
    ("ismcts:iterations=10,engine=compiled,rollout=random", {"num_players": 2}),
    ("ismcts:seconds=0.005,engine=compiled,opponents=tree,root=ucb,value=win", {"num_players": 3}),
    ("ismcts:iterations=15,engine=compiled", {"solo": True, "difficulty": 8}),
    ("pimc:iterations=12,engine=compiled,rollout=policy,value=win", {"solo": True, "difficulty": 10}),
])
def test_compiled_pimc_plays_whole_games_legally(spec, options):
    env = dix_v0.raw_env(**options)
    agents = [make_agent("dix", spec, env, seed=s) for s in range(len(env.possible_agents))]
    assert play_game(env, agents, seed=3)  # the helper checks every move against the mask
    assert env.unwrapped.state.current_player() < 0


def test_results_are_reproducible_from_the_seed():
    env = dix_v0.raw_env(num_players=2)
    spec = "pimc:iterations=60,engine=compiled,rollout=random,value=win"
    obs = _decision(env, seed=11, skip=10)
    one, two = make_agent("dix", spec, env, seed=4), make_agent("dix", spec, env, seed=4)
    first = one.act(obs)
    assert two.act(obs) == first
    assert one.last_search == two.last_search | {"seconds": one.last_search["seconds"]}
    other = make_agent("dix", spec, env, seed=5)
    other.act(obs)
    assert other.last_search["means"] != one.last_search["means"]  # another seed, other worlds


def test_reshuffled_piles_keep_what_is_known_and_are_uniform():
    """A reshuffled world changes only the order of the cards not yet drawn; over many worlds the
    top card is each remaining type as often as its share of the pile (sample_hidden's law)."""
    from dixenv.agents.search.compiled import _random_rows

    config = make_config(num_players=3)
    state = [s for s in _positions(config, 1, seed=2) if 20 < len(s.pile) < 60][0]
    k = 6000
    batch = DixBatch(config, k)
    batch.load_states([0], [state])
    batch.copy_slots(0, np.arange(1, k))
    before = batch.state.copy()
    batch.rng[:] = _random_rows(np.random.default_rng(0), k)
    _reshuffle(batch.state, batch._prm, batch.rng, batch.all_slots)
    pile = batch.field("pile")
    drawn = int(before[0, PILE_POS])
    pile_start = pile.shape[1] - len(state.pile)
    assert drawn == pile_start
    others = np.ones(batch.state.shape[1], dtype=bool)
    others[batch._prm[P_PILE] + drawn:] = False  # everything but the cards not yet drawn
    assert (batch.state[:, others] == before[:, others]).all(), "nothing else changes"
    remaining = np.sort(np.asarray(state.pile))
    assert all((np.sort(pile[g, drawn:]) == remaining).all() for g in range(0, k, 97)), "the same cards"
    assert len({pile[g, drawn:].tobytes() for g in range(200)}) == 200, "other orders"
    top = pile[:, drawn]
    types, counts = np.unique(remaining, return_counts=True)
    expected = counts / counts.sum() * k
    observed = np.array([(top == t).sum() for t in types])
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    assert chi2 < len(types) + 6 * np.sqrt(2 * len(types)), (chi2, len(types))  # far above the mean = dof
    # the world the compiled search starts from plays on as the reference with that pile
    ref = state.clone()
    ref.pile = pile[5, drawn:][::-1].tolist()
    one = DixBatch(config, 1)
    one.load_states([0], [ref])
    assert (one.state[0] == batch.state[5]).all()
