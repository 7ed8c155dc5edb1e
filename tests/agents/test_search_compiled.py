"""``pimc:engine=compiled``: rollouts on the compiled le_dix engine (``agents/search/compiled.py``).

The compiled greedy rollout policy chooses the Python one's move in every position; with the same
worlds, the compiled pimc finds the Python pimc's means exactly (greedy rollouts, and random ones
where the rest of the deal is forced); the worlds it redraws in compiled code are consistent with
what the seat knows and follow ``sample_hidden``'s law; it plays only legal moves through whole
games, is reproducible from its seed, and refuses what it cannot play with a clear message.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

pytest.importorskip("numba")

from dixenv import dix_de_suite_v0, le_dix_v0  # noqa: E402
from dixenv.agents.base import RandomAgent  # noqa: E402
from dixenv.agents.registry import make_agent  # noqa: E402
from dixenv.agents.search.compiled import greedy_action  # noqa: E402
from dixenv.agents.search.le_dix import _le_dix_greedy  # noqa: E402
from dixenv.games.le_dix.compiled import LeDixBatch  # noqa: E402
from dixenv.games.le_dix.config import make_config  # noqa: E402
from dixenv.games.le_dix.state import PLAYING, LeDixState  # noqa: E402
from tests.agents.helpers import play_game  # noqa: E402

TABLE = dict(num_players=4, deals=(3, 2))


def _decision(env, seed: int, skip: int, deal: int = 0):
    """Reset with ``seed``, let random players play to deal index ``deal`` and make ``skip`` more
    decisions; the observation of the next (None if the game ended first)."""
    env.reset(seed=seed)
    rnd = RandomAgent(env, seed=seed)
    state = env.unwrapped.state
    while state.current_player() >= 0 and (state.deal_index < deal or skip > 0):
        skip -= state.deal_index >= deal
        env.step(rnd.act(env.observe(env.agent_selection)))
        state = env.unwrapped.state
    return None if state.current_player() < 0 else env.observe(env.agent_selection)


@pytest.mark.parametrize("options", [
    {"num_players": 4},
    {"num_players": 3, "deals": (17,), "scoring": "oh_hell"},
    {"num_players": 5, "deals": (3, 1), "hook": True},
])
def test_compiled_greedy_chooses_the_python_greedy_move(options):
    config = make_config(**options)
    rng = np.random.default_rng(0)
    states = []
    for game in range(6):
        state = LeDixState(config, np.random.default_rng(game), {}, None)
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1:
                states.append(state.clone())
            state.apply_action(legal[rng.integers(len(legal))])
    batch = LeDixBatch(config, len(states))
    batch.load_states(batch.all_slots, states)
    for i, state in enumerate(states):
        assert greedy_action(batch, i) == _le_dix_greedy(state, state.legal_actions()), state.render_text()


def _python_worlds(agent):
    """The compiled pimc drawing its worlds as the Python one does (``sample_hidden``, one per world)."""
    agent._compiled.redraw = False
    return agent


def _same_search(spec: str, skips, deal: int = 0, seed: int = 3) -> int:
    """The Python and compiled pimc (``spec`` + engine) find the same visits and means and play the
    same move at the decision after each of ``skips`` random moves; returns the decisions compared."""
    env = le_dix_v0.raw_env(**TABLE)
    compared = 0
    for skip in skips:
        obs = _decision(env, seed=seed + skip, skip=skip, deal=deal)
        if obs is None or obs["action_mask"].sum() < 2:
            continue
        python = make_agent("le_dix", spec, env, seed=7)
        compiled = _python_worlds(make_agent("le_dix", spec + ",engine=compiled", env, seed=7))
        assert compiled.act(obs) == python.act(obs)
        for key in ("iterations", "visits", "means", "nodes"):
            assert compiled.last_search.get(key) == python.last_search.get(key), (skip, key)
        compared += 1
    return compared


@pytest.mark.parametrize("spec", [
    "pimc:iterations=23",  # greedy rollouts to the end of the deal, points
    "pimc:iterations=30,value=margin,worlds=3",
    "pimc:iterations=17,depth=3",
])
def test_greedy_values_equal_the_python_engine(spec):
    assert _same_search(spec, skips=(0, 1, 2, 5, 9, 14)) >= 4


def test_game_horizon_in_the_last_deal_equals_the_python_engine():
    # In the last deal no later deal is drawn, so the game's end is the same on both engines.
    assert _same_search("pimc:iterations=21,horizon=game,value=win", skips=(0, 1, 3, 5, 7), deal=1) >= 3
    assert _same_search("pimc:iterations=21,horizon=game,value=margin", skips=(0, 4), deal=1) >= 1


@pytest.mark.parametrize("spec", [
    "ismcts:iterations=40,root=halving",  # greedy playouts to the end of the deal, points (le_dix's
    # defaults run the whole search compiled: tests/agents/test_search_compiled_ismcts.py)
    "ismcts:iterations=30,horizon=game,value=win,root=paired",
    "ismcts:iterations=25,depth=4,value=margin,opponents=policy",
])
def test_ismcts_greedy_playouts_equal_the_python_engine(spec):
    """The tree walks the same Python worlds; a greedy playout from each leaf on the compiled engine
    (the leaf's generator of later deals loaded with it) scores what the Python playout scores."""
    assert _same_search(spec, skips=(0, 2, 5, 9, 14)) >= 4
    assert _same_search(spec, skips=(0, 3), deal=1) >= 1  # the last deal: the horizon at the game's end


def test_random_rollouts_are_scored_exactly_when_the_rest_of_the_deal_is_forced():
    # One-card hands after the first trick of a 2-card deal: after the first trick's last card
    # every move is forced, so random rollouts are scored exactly on both engines.
    table = dict(num_players=4, deals=(2,))
    env = le_dix_v0.raw_env(**table)
    found = 0
    for seed in range(40):
        obs = _decision(env, seed=seed, skip=0)
        rnd = RandomAgent(env, seed=seed)
        state = env.unwrapped.state
        while not (state.phase == PLAYING and len(state.trick) == 3 and obs["action_mask"].sum() > 1):
            if state.phase == PLAYING and len(state.trick) == 3 or env.agents == [] or state.is_terminal():
                break
            env.step(rnd.act(obs))
            obs = env.observe(env.agent_selection)
            state = env.unwrapped.state
        if state.phase == PLAYING and len(state.trick) == 3 and obs["action_mask"].sum() > 1:
            python = make_agent("le_dix", "pimc:iterations=9,rollout=random", env, seed=1)
            compiled = _python_worlds(make_agent("le_dix", "pimc:iterations=9,rollout=random,engine=compiled", env, seed=1))
            assert compiled.act(obs) == python.act(obs)
            assert compiled.last_search["means"] == python.last_search["means"]
            found += 1
    assert found >= 2


@pytest.mark.parametrize("spec", [
    "pimc:iterations=8,engine=compiled",
    "pimc:iterations=12,engine=compiled,rollout=random,horizon=game,value=win",
    "pimc:seconds=0.01,engine=compiled,rollout=random,value=margin",
])
def test_compiled_pimc_plays_whole_games_legally(spec):
    env = le_dix_v0.raw_env(**TABLE)
    agents = [make_agent("le_dix", spec, env, seed=s) for s in range(4)]
    assert play_game(env, agents, seed=3)  # the helper checks every move against the mask
    assert env.unwrapped.state.current_player() < 0


@pytest.mark.parametrize("spec, skips", [
    ("pimc:iterations=40,engine=compiled,rollout=random,horizon=game,value=win", (0, 6)),
    ("ismcts:iterations=200,engine=compiled,rollout=random", (0, 2)),  # the compiled tree
])
def test_results_are_reproducible_from_the_seed(spec, skips):
    env = le_dix_v0.raw_env(num_players=4)
    for skip in skips:
        obs = _decision(env, seed=11, skip=skip)
        one, two = make_agent("le_dix", spec, env, seed=4), make_agent("le_dix", spec, env, seed=4)
        first = one.act(obs)
        assert two.act(obs) == first
        assert one.last_search == two.last_search | {"seconds": one.last_search["seconds"]}
        one.reset(4)
        assert one.act(obs) == first
        other = make_agent("le_dix", spec, env, seed=5)
        other.act(obs)
        assert other.last_search["means"] != one.last_search["means"]  # another seed, other worlds


@pytest.mark.parametrize("search", ["pimc", "ismcts"])
def test_a_time_budget_bounds_the_search(search):
    env = le_dix_v0.raw_env(num_players=4)
    obs = _decision(env, seed=1, skip=3)
    agent = make_agent("le_dix", f"{search}:seconds=0.05,engine=compiled", env, seed=0)
    agent.act(obs)  # compiled (or loaded from numba's cache) before the timed call
    action = agent.act(obs)
    assert obs["action_mask"][action] == 1
    # pimc's first round is one world for every move; ismcts' first is one iteration, then it doubles
    assert agent.last_search["iterations"] >= (int(obs["action_mask"].sum()) if search == "pimc" else 2)
    assert agent.last_search["seconds"] < 0.5
    capped = make_agent("le_dix", f"{search}:seconds=5,iterations=13,engine=compiled", env, seed=0)
    capped.act(obs)
    assert capped.last_search["iterations"] == 13


def test_bad_options_are_refused_with_clear_messages(monkeypatch):
    env = le_dix_v0.raw_env(**TABLE)
    with pytest.raises(ValueError, match="engine='turbo'; allowed: python, compiled"):
        make_agent("le_dix", "pimc:engine=turbo", env)
    with pytest.raises(ValueError, match="rollout='heuristic' is Python only"):
        make_agent("le_dix", "pimc:engine=compiled,rollout=heuristic", env)
    with pytest.raises(ValueError, match="rollout='heuristic' is Python only"):
        make_agent("le_dix", "ismcts:engine=compiled,rollout=heuristic", env)
    with pytest.raises(ValueError, match="plays le_dix, dix only; got game 'dix_de_suite'"):
        make_agent("dix_de_suite", "ismcts:engine=compiled", dix_de_suite_v0.raw_env())
    assert make_agent("le_dix", "ismcts:engine=python,iterations=3", env).engine == "python"
    with pytest.raises(ValueError, match="plays le_dix, dix only; got game .dix_de_suite."):
        make_agent("dix_de_suite", "pimc:engine=compiled", dix_de_suite_v0.raw_env())
    monkeypatch.setitem(sys.modules, "dixenv.agents.search.compiled", None)  # as if numba were missing
    with pytest.raises(ValueError, match=r"needs numba: pip install 'dixenv\[fast\]'"):
        make_agent("le_dix", "pimc:engine=compiled", env)
    assert make_agent("le_dix", "pimc:engine=python", env).engine == "python"


# --- worlds redrawn in compiled code -------------------------------------------------------------------


def _positions(config, games: int, seed: int) -> list[LeDixState]:
    """Every decision of ``games`` random games."""
    rng = np.random.default_rng(seed)
    out = []
    for game in range(games):
        state = LeDixState(config, np.random.default_rng([seed, game]), {}, None)
        while not state.is_terminal():
            out.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    return out


def _redrawn(state: LeDixState, seat: int, k: int, seed: int) -> LeDixBatch:
    """A batch of ``k`` copies of ``state`` with what ``seat`` cannot see redrawn in compiled code."""
    from dixenv.agents.search.compiled import _random_rows, _redraw_slots

    batch = LeDixBatch(state.config, k)
    batch.load_states([0], [state])
    batch.copy_slots(0, np.arange(1, k))
    batch.rng[:] = _random_rows(np.random.default_rng(seed), k)
    assert _redraw_slots(batch.ints, batch.seats, batch.cards, batch._prm, batch.rng, batch.all_slots, seat) == 0
    return batch


@pytest.mark.parametrize("options", [{"num_players": 4}, {"num_players": 3, "deals": (5, 3)}, {"num_players": 5, "deals": (8, 2)}])
def test_redrawn_worlds_are_consistent_with_what_the_seat_knows(options):
    """Each redrawn world keeps the seat's hand, the public table, every hand's size, the voids, and
    the turned-up card where the seat may not know it; the seat's observation is unchanged."""
    from dixenv.games.le_dix.compiled import DISCARD_CARD, HAND, VOID

    config = make_config(**options)
    states = _positions(config, 3, seed=config.num_players)
    for i, state in enumerate(states[:: max(1, len(states) // 60)]):
        for seat in {state.current_player(), (state.dealer + 1 + i) % config.num_players}:
            batch = _redrawn(state, seat, 16, seed=i)
            ref = LeDixBatch(config, 1)
            ref.load_states([0], [state])
            obs = batch.observe(seat)
            assert (obs == ref.observe(seat)[0]).all(), "the seat's observation is unchanged"
            unseen = set(range(52)) - set(state.hands[seat]) - set(state.played) - {state.trump_card}
            if seat == state.dealer and state.dealer_discard is not None:
                unseen.discard(state.dealer_discard)
            for g in range(batch.n):
                hands = [[c for c in range(52) if batch.cards[g, HAND, s] >> c & 1] for s in range(config.num_players)]
                discard = int(batch.ints[g, DISCARD_CARD])
                for s in range(config.num_players):
                    assert len(hands[s]) == len(state.hands[s]), "hand sizes"
                    assert all(not batch.seats[g, VOID, s] >> (c // 13) & 1 for c in hands[s]), "voids"
                others = [c for s in range(config.num_players) if s != seat for c in hands[s]]
                if discard >= 0 and seat != state.dealer:
                    others.append(discard)
                assert hands[seat] == state.hands[seat]
                assert len(set(others)) == len(others), "no card twice"
                turned = state.trump_card
                assert set(others) - {turned} <= unseen, "the hidden cards are unseen ones"
                took = state.dealer_took and seat != state.dealer
                assert (discard >= 0) == (state.dealer_discard is not None)
                if took and state.dealer_discard is not None:
                    assert (turned in hands[state.dealer] or turned in state.played) != (discard == turned)
                if not took and seat != state.dealer:
                    assert turned not in others


def _frequencies(hands_and_discards, n: int) -> np.ndarray:
    """Per seat (and a last row for the discard): how often each card is there."""
    counts = np.zeros((n + 1, 52))
    for hands, discard in hands_and_discards:
        for s, hand in enumerate(hands):
            counts[s, hand] += 1
        if discard is not None:
            counts[n, discard] += 1
    return counts / len(hands_and_discards)


def test_redrawn_worlds_follow_sample_hidden_s_law():
    """Card by seat (and the discard), the redrawn worlds' frequencies agree with ``sample_hidden``'s,
    at positions with voids and with the turned-up card's two layouts (held or discarded)."""
    from dixenv.games.le_dix.compiled import DISCARD_CARD, HAND

    config = make_config(num_players=4, deals=(6,))
    picked = {}
    for state in _positions(config, 30, seed=1):
        seat = (state.dealer + 1) % 4
        if state.dealer_took and state.phase == PLAYING and state.trump_card not in state.played and len(state.played) >= 6:
            if not state.voids[state.dealer] >> state.trump_card // 13 & 1 and any(state.voids):
                picked.setdefault("took, voids", (state, seat))
        if state.dealer_took is False and state.phase == PLAYING and sum(map(bool, state.voids)) >= 2:
            picked.setdefault("left, voids", (state, seat))
        if state.dealer_took and state.phase == PLAYING and state.trump_card in state.played:
            picked.setdefault("took, played", (state, seat))
    assert len(picked) == 3
    n_compiled, n_python = 20000, 4000
    for name, (state, seat) in picked.items():
        batch = _redrawn(state, seat, n_compiled, seed=0)
        hands = (batch.cards[:, HAND, :, None] >> np.arange(52)) & 1  # (k, seats, 52)
        got = np.zeros((5, 52))
        got[:4] = hands.mean(axis=0)
        discards = batch.ints[:, DISCARD_CARD]
        got[4] = np.bincount(discards[discards >= 0], minlength=52) / n_compiled
        rng = np.random.default_rng(1)
        want = _frequencies([(w.hands, w.dealer_discard) for w in (state.sample_hidden(seat, rng) for _ in range(n_python))], 4)
        p = (got * n_compiled + want * n_python) / (n_compiled + n_python)
        se = np.sqrt(np.maximum(p * (1 - p), 1e-12) * (1 / n_compiled + 1 / n_python))
        z = np.abs(got - want) / se
        assert z.max() < 5.0, f"{name}: card frequencies differ (max z {z.max():.1f})"
        assert np.array_equal(got > 0, want > 0), f"{name}: the same cards can be in each place"
