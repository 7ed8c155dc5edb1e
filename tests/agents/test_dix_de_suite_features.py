"""dix de suite rack features (``agents/dix_de_suite_features.py``): every number checked against
the heuristic's own cost model and against a brute force over the rack's increasing chains."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from dixenv import dix_de_suite_v0
from dixenv.agents import dix_de_suite_features as F
from dixenv.agents.dix_de_suite_heuristic import DixDeSuiteHeuristic, ascending_prefixes
from dixenv.agents.features import Featurizer, check_features

from .helpers import feature_pieces


def _decisions(players, games, seed, **options):
    """(env, observation) at every decision with a choice of a few games, the heuristic playing 80% of the moves."""
    env = dix_de_suite_v0.env(num_players=players, **{"max_turns": 120, **options})
    heuristic = DixDeSuiteHeuristic(env)
    rng = np.random.default_rng(seed)
    for game in range(games):
        env.reset(seed=seed + game)
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if obs["action_mask"].sum() > 1:
                yield env, obs
            legal = np.flatnonzero(obs["action_mask"])
            env.step(heuristic.act(obs) if rng.random() < 0.8 else int(rng.choice(legal)))


def test_the_cost_parameters_are_the_heuristics_defaults():
    defaults = DixDeSuiteHeuristic.DEFAULTS
    assert (F.EMPTY_COST, F.OPP_WEIGHT, F.DISCARD_WEIGHT, F.TARGET_WEIGHT) == (
        defaults["empty_cost"], defaults["opp_weight"], defaults["discard_weight"], defaults["target_weight"])
    assert defaults["alpha"] == 1.0 and defaults["gap_share"] == 0.0  # the forms the batched model writes out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_costs_and_gains_equal_the_heuristics(players):
    """The rack's cost, each placement of the held card and the two source gains, decision by decision."""
    checked = {"place": 0, "source": 0, "public": 0}
    heuristic = None
    for env, obs in _decisions(players, games=2, seed=10 * players):
        if heuristic is None:
            heuristic = DixDeSuiteHeuristic(env)  # the chain costs
            weighted = DixDeSuiteHeuristic(env, prefix_weight=F.PREFIX_WEIGHT)  # the gains: the prefix term too
            featurizer = Featurizer(env, "rack")
            feats = featurizer.features
        flat = obs["observation"]
        feats.compute(flat[None, :])
        heuristic._decode(flat)
        weighted._decode(flat)
        assert np.isclose(feats.cost0[0], heuristic._cost0)
        assert np.allclose(feats.skip[0], heuristic._skip)
        if heuristic._held:
            got = feats.placement_costs(np.array([[heuristic._held]]))[0, :, 0]
            want = heuristic._placement_costs(np.array([heuristic._held]), guard=False)[:, 0]
            assert np.allclose(np.minimum(got, 1e8), np.minimum(want, 1e8))
            gains = feats.placement_gains(np.array([[heuristic._held]]), np.array([0]))[0, :, 0]
            want = weighted._cost0 - weighted._placement_costs(np.array([heuristic._held]), guard=False)[:, 0]
            assert np.allclose(np.maximum(gains, -1e8), np.maximum(want, -1e8), atol=1e-6)
            checked["place"] += 1
        elif heuristic._discard_top:
            _, take, draw = feats.source_gains()
            assert np.allclose([take[0], draw[0]], weighted._source_gains())
            checked["source"] += 1
            checked["public"] += bool(heuristic._draw_top)
    assert checked["place"] > 50 and checked["source"] > 50, checked


def _brute_force(heuristic):
    """Cost of the best chain and of the best chain without each slot, over every subset of kept slots."""
    vals = heuristic._vals
    node = np.zeros(12)
    node[1:11] = heuristic._node_cost(np.arange(10), vals[1:11])

    def chain_cost(kept):
        positions = [0, *kept, 11]
        if any(vals[a] >= vals[b] for a, b in zip(positions, positions[1:])):
            return np.inf
        gaps = sum(heuristic._gap_cost(np.array(b - a - 1), np.array(vals[a]), np.array(vals[b]))
                   for a, b in zip(positions, positions[1:]))
        return gaps + node[list(kept)].sum()

    best, best_without = np.inf, np.full(10, np.inf)
    for size in range(11):
        for kept in combinations(range(1, 11), size):
            cost = chain_cost(kept)
            best = min(best, cost)
            for slot in set(range(1, 11)) - set(kept):
                best_without[slot - 1] = min(best_without[slot - 1], cost)
    return best, best_without


def test_the_chain_and_the_slot_losses_match_a_brute_force_over_every_chain():
    seen = 0
    for env, obs in _decisions(2, games=1, seed=7):
        if seen >= 12:
            break
        featurizer = Featurizer(env, "rack")
        heuristic = DixDeSuiteHeuristic(env)
        heuristic._decode(obs["observation"])
        best, without = _brute_force(heuristic)
        row = featurizer.extend_batch(obs["observation"][None, :])[0]
        got = feature_pieces(featurizer, row)
        assert np.isclose(featurizer.features.cost0[0], best)
        assert np.allclose(np.minimum(featurizer.features.skip[0], 1e8), np.minimum(without, 1e8))
        # A slot is in the best chain exactly when giving it up costs more.
        assert np.array_equal(got["in_chain"] > 0.5, without > best + 1e-9)
        assert np.allclose(got["slot_loss"], F.squash_gain(without - best), atol=1e-6)
        assert np.isclose(got["rack_cost"][0], best / (best + F.COST_SCALE), atol=1e-6)
        seen += 1
    assert seen == 12


def test_prefixes_secure_lengths_and_the_gain_pieces():
    counts = {"held": 0, "secure": 0, "top": 0, "sub_held": 0, "sub_source": 0}
    for env, obs in _decisions(2, games=3, seed=31, target_score=100, max_turns=400):
        featurizer = Featurizer(env, "rack")
        flat = obs["observation"]
        got = feature_pieces(featurizer, featurizer.extend_batch(flat[None, :])[0])
        state, me = env.unwrapped.state, env.unwrapped.state.current_player()
        rack = np.array(state.racks[me])
        assert got["prefix"].argmax() + 1 == ascending_prefixes(rack) and got["prefix"].sum() == 1
        mine, other = state.scores_[me], max(s for i, s in enumerate(state.scores_) if i != me)
        wins = [p for p in range(1, 11) if mine + 5 * p >= 100 and mine + 5 * p > other + 75]
        assert got["secure"].sum() == (1 if wins else 0)
        if wins:
            assert got["secure"].argmax() + 1 == wins[0]
            counts["secure"] += 1
        heuristic = DixDeSuiteHeuristic(env, prefix_weight=F.PREFIX_WEIGHT)
        heuristic._decode(flat)
        _check_sub_rack(env, flat, got, wins[0] if wins else 0, counts)
        if heuristic._held:
            counts["held"] += 1
            after = np.array([np.concatenate([rack[:k], [heuristic._held], rack[k + 1:]]) for k in range(10)])
            assert np.allclose(got["held_prefix"], ascending_prefixes(after) / 10)
            want = heuristic._cost0 - heuristic._placement_costs(np.array([heuristic._held]), guard=False)[:, 0]
            want = np.maximum(want, -1e8)
            assert np.allclose(got["held_gain"], F.squash_gain(want), atol=1e-6)
            assert np.allclose(got["held_rel"], np.exp(np.maximum(want - want.max(), -50)), atol=1e-6)
            assert got["held_rel"].max() == 1.0
        else:
            assert np.all(got["held_gain"] == 0.5) and np.all(got["held_prefix"] == 0) and np.all(got["held_rel"] == 0)
            if heuristic._discard_top:
                counts["top"] += 1
                want = heuristic._cost0 - heuristic._placement_costs(np.array([heuristic._discard_top]), guard=False)[:, 0]
                assert np.allclose(got["top_gain"], F.squash_gain(want), atol=1e-6)
                take, draw = heuristic._source_gains()
                assert np.allclose(got["source"], F.squash_gain(np.array([take, draw, take - draw])), atol=1e-6)
    assert all(counts.values()), counts


def _check_sub_rack(env, flat, got, p, counts):
    """The sub-rack pieces against the heuristic's ``secure=1`` sub-rack costs (``_sub_costs``)."""
    if not 2 <= p <= 9:
        assert np.all(got["sub_kept"] == 0) and np.all(got["sub_held_rel"] == 0) and np.all(got["sub_source"] == 0.5)
        return
    secure = DixDeSuiteHeuristic(env, secure=1)
    secure._decode(flat)
    assert secure._prefix == p
    rack = secure._rack
    sub0 = secure._sub_costs(rack[None, :p])[0]
    assert got["sub_kept"][0] == float(np.all(np.diff(rack[:p]) > 0))
    assert np.isclose(got["sub_cost"][0], sub0 / (sub0 + F.COST_SCALE), atol=1e-6)

    def gains(card):  # sub-rack gain of the card in each slot 1..10 (0 past p)
        racks = np.array([np.concatenate([rack[:k], [card], rack[k + 1:p]]) for k in range(p)])
        return np.concatenate([sub0 - secure._sub_costs(racks), np.zeros(10 - p)])

    if secure._held:
        want = gains(secure._held)
        assert np.allclose(got["sub_held_gain"], F.squash_gain(want), atol=1e-6)
        assert np.allclose(got["sub_held_rel"], np.exp(np.maximum(want - want.max(), -50)), atol=1e-6)
        counts["sub_held"] += 1
    elif secure._discard_top:
        draws = [secure._draw_top] if secure._draw_top else list(secure._unseen_cards)
        take = gains(secure._discard_top).max()
        draw = np.mean([max(gains(c).max(), 0.0) for c in draws])
        assert np.allclose(got["sub_source"], F.squash_gain(np.array([take, draw, take - draw])), atol=1e-6)
        counts["sub_source"] += 1


@pytest.mark.parametrize("players, options", [(2, {"two_player_run": True}), (3, {"reshuffle": True}),
                                              (4, {"teams": True}), (2, {"run_bonus": True})])
def test_a_batch_is_its_rows_and_stays_in_the_unit_box_in_every_variant(players, options):
    featurizer, rows = None, []
    for env, obs in _decisions(players, games=1, seed=5, **options):
        featurizer = featurizer or Featurizer(env, "rack")
        rows.append(obs["observation"])
    batch = featurizer.extend_batch(np.array(rows[:300]))
    extra = batch[:, featurizer.obs_size:]
    assert batch.shape == (min(300, len(rows)), featurizer.obs_size + featurizer.size)
    assert ((extra >= 0) & (extra <= 1)).all()
    for i in range(0, len(batch), 37):
        assert np.array_equal(featurizer.extend_batch(rows[i][None, :])[0], batch[i])


def test_the_feature_set_is_named_and_others_refused():
    assert check_features("dix_de_suite", "rack") == "rack"
    with pytest.raises(ValueError, match="not a feature set of dix_de_suite; allowed: rack"):
        check_features("dix_de_suite", "cards")


def test_a_policy_with_rack_features_computes_them_when_it_plays(tmp_path):
    """A one-layer policy that swaps the held card into the slot of largest gain (discarding it at
    0.5, no gain) and takes the discard top when the take-minus-draw feature is above 0.5: loaded by
    name, it must play exactly that, decision by decision, from its observation alone."""
    from dixenv.agents.policy import Policy, policy_metadata
    from dixenv.agents.registry import make_agent
    from dixenv.games.dix_de_suite import actions as A

    from .helpers import play_game

    env = dix_de_suite_v0.env(num_players=2)
    featurizer = Featurizer(env, "rack")
    size, at = featurizer.obs_size, {}
    offset = featurizer.obs_size
    for name, width in featurizer.features.names:
        at[name] = offset
        offset += width
    w = np.zeros((A.NUM_ACTIONS, size + featurizer.size), dtype=np.float32)
    bias = np.zeros(A.NUM_ACTIONS, dtype=np.float32)
    for k in range(10):
        w[A.SWAP_BASE + k, at["held_gain"] + k] = 10.0
    bias[A.DISCARD] = 5.0  # = a swap of no gain (0.5 × 10)
    w[A.TAKE_DISCARD, at["source"] + 2] = 10.0
    bias[A.DRAW] = 5.0
    meta = policy_metadata("dixenv/DixDeSuite-v0", {"num_players": 2}, env, features="rack")
    Policy([(w, bias)], "tanh", meta).save(tmp_path / "p")
    agent = make_agent("dix_de_suite", f"policy:{tmp_path / 'p'}", env)
    env.reset(seed=8)
    checked = 0
    while not env.unwrapped.state.is_terminal() and checked < 80:
        obs = env.observe(env.agent_selection)
        row = featurizer.extend_batch(obs["observation"][None, :])[0]
        logits = np.where(obs["action_mask"] > 0, w @ row + bias, -np.inf)
        action = agent.act(obs)
        assert action == int(np.argmax(logits))
        checked += obs["action_mask"].sum() > 1
        env.step(action)
    assert checked == 80
    assert play_game(env, [agent, make_agent("dix_de_suite", "heuristic", env)], seed=3)
