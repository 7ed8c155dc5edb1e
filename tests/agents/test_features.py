"""Card features (dixenv.agents.features): each one checked against the engine's own state, and their
path through policy files, agents, demonstrations and both trainers."""

from __future__ import annotations

import numpy as np
import pytest

from dixenv import dix_v0, le_dix_v0
from dixenv.agents.features import Featurizer, check_features
from dixenv.agents.policy import Policy, PolicyAgent, policy_metadata
from dixenv.agents.registry import make_agent
from dixenv.games.le_dix.state import PLAYING, trick_winner

from .helpers import feature_pieces, play_game

SUIT = np.arange(52) // 13
RANK = np.arange(52) % 13


def _expected(state, n, b):
    """Every feature computed from the engine's state for the player to move (relative seat j = me + j)."""
    me = state.current_player()
    hand = np.zeros(52)
    hand[state.hands[me]] = 1
    trump = (SUIT == state.trump_suit).astype(float)
    # beats_trick: would the card be winning the trick, were it played now?
    beats = np.zeros(52)
    for c in state.hands[me]:
        beats[c] = not state.trick or trick_winner(state.trick + [(me, c)], state.trump_suit) == me
    # unseen: not in the hand, not played this deal, not my discard, not a turned-up card left on the table
    known = set(state.hands[me]) | set(state.played)
    if state.dealer_discard is not None and state.dealer == me:
        known.add(state.dealer_discard)
    if state.dealer_took is False:
        known.add(state.trump_card)
    higher = np.zeros(52)
    for c in state.hands[me]:
        higher[c] = sum(1 for d in range(52) if d not in known and SUIT[d] == SUIT[c] and RANK[d] > RANK[c])
    need = np.zeros((n, b + 1))
    for j in range(n):
        bid = state.bids[(me + j) % n]
        if bid is not None:
            need[j, max(bid - state.tricks_won[(me + j) % n], -1) + 1] = 1
    spare = np.zeros(b + 2)
    if state.bids[me] is not None:
        spare[max(len(state.hands[me]) - (state.bids[me] - state.tricks_won[me]), -1) + 1] = 1
    winning, led = np.zeros(n), np.zeros(4)
    if state.trick:
        winning[(trick_winner(state.trick, state.trump_suit) - me) % n] = 1
        led[SUIT[state.trick[0][1]]] = 1
    after = np.zeros(n)
    after[n - 1 - len(state.trick)] = 1
    return {"is_trump": hand * trump, "beats_trick": beats, "master": hand * (higher == 0), "higher_unseen": higher / 12,
            "need": need.ravel(), "spare": spare, "winning_seat": winning, "led_suit": led, "to_play_after": after}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_feature_matches_the_engines_state(players):
    env = le_dix_v0.env(num_players=players)
    featurizer = Featurizer(env, "cards")
    n, b = featurizer.features.n, featurizer.features.b
    rng = np.random.default_rng(players)
    seen = {"mid_trick": 0, "bust": 0, "took": 0, "left": 0}
    for game in range(3):
        env.reset(seed=100 * players + game)
        state = env.unwrapped.state
        while not state.is_terminal():
            obs = env.observe(env.agent_selection)
            row = featurizer.extend_batch(obs["observation"][None, :])[0]
            assert np.array_equal(row[:featurizer.obs_size], obs["observation"])
            got, want = feature_pieces(featurizer, row), _expected(state, n, b)
            for name in want:
                assert np.allclose(got[name], want[name]), (name, got[name], want[name])
            seen["mid_trick"] += bool(state.trick)
            seen["bust"] += bool(want["need"].reshape(n, b + 1)[:, 0].any())
            seen["took" if state.dealer_took else "left"] += state.dealer_took is not None
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(count > 0 for count in seen.values()), seen


@pytest.mark.parametrize("players", [3, 4, 5])
def test_bid_features_are_the_heuristics_evaluation_at_discards_and_bids_only(players):
    """``cards_bid``: the ``cards`` pieces, then per hand card the bidding model's trick chance and their sum,
    at the discard and bidding decisions; the heuristic's own bid and discard follow from these numbers."""
    from dixenv.agents.le_dix_heuristic import LeDixHeuristic
    from dixenv.games.le_dix import actions as A

    env = le_dix_v0.env(num_players=players)
    cards, bid = Featurizer(env, "cards"), Featurizer(env, "cards_bid")
    assert bid.size == cards.size + 53
    heuristic = LeDixHeuristic(env)
    phase = env.unwrapped.layout.slices["phase"]
    max_bid = bid.features.b - 1
    seen = {"choice": 0, "discard": 0, "bid": 0, "one_card_bid": 0, "play": 0}
    for game in range(2):
        env.reset(seed=700 + 10 * players + game)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            o = obs["observation"]
            row = bid.extend_batch(o[None, :])[0]
            assert np.array_equal(row[:bid.obs_size + cards.size], cards.extend_batch(o[None, :])[0])
            got = feature_pieces(bid, row)
            action = heuristic.act(obs)
            hand = np.flatnonzero(o[:52])
            chance, total = got["trick_chance"], got["expected_tricks"][0]
            kind = ("choice", "discard", "bid", "play")[int(np.argmax(o[phase]))]
            if kind in ("choice", "play"):
                assert not chance.any() and total == 0
            else:
                assert not np.delete(chance, hand).any() and ((chance[hand] >= 0) & (chance[hand] <= 1)).all()
                assert total == pytest.approx(chance.sum() / max_bid, abs=1e-5)
            if kind == "discard" and len(np.flatnonzero(obs["action_mask"])) > 1:
                assert action - A.DISCARD_BASE == hand[np.argmin(chance[hand])]  # the card of least chance
            if kind == "bid" and len(np.flatnonzero(obs["action_mask"])) > 1:
                one = len(hand) == 1
                estimate = chance.sum() + (0.0 if one else heuristic.params["bid_offset"])
                assert heuristic.last_estimate == pytest.approx(estimate, abs=1e-5)
                seen["one_card_bid"] += one
            seen[kind] += 1
            env.step(action)
    assert all(count > 0 for count in seen.values()), seen


def test_features_for_a_batch_are_the_features_of_each_row():
    env = le_dix_v0.env(num_players=4)
    env.reset(seed=3)
    featurizer = Featurizer(env, "cards")
    rows = []
    for _ in range(40):
        obs = env.observe(env.agent_selection)
        rows.append(obs["observation"])
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    batch = featurizer.extend_batch(np.array(rows))
    assert batch.dtype == np.float32 and batch.shape == (40, featurizer.obs_size + featurizer.size)
    assert ((batch[:, featurizer.obs_size:] >= 0) & (batch[:, featurizer.obs_size:] <= 1)).all()
    for i, r in enumerate(rows):
        assert np.array_equal(featurizer.extend_batch(r[None, :])[0], batch[i])


def test_unknown_feature_sets_and_wrong_shapes_are_refused():
    with pytest.raises(ValueError, match="not a feature set of le_dix; allowed: cards"):
        check_features("le_dix", "bids")
    with pytest.raises(ValueError, match="allowed: none for this game"):
        Featurizer(dix_v0.env(num_players=2), "cards")
    featurizer = Featurizer(le_dix_v0.env(num_players=4), "cards")
    with pytest.raises(ValueError, match=r"observations of shape \(k, "):
        featurizer.extend_batch(np.zeros((2, featurizer.obs_size + 1)))


def _trump_policy(env):
    """A one-layer policy that plays the hand card with the largest ``is_trump + beats_trick`` feature (ties: lowest id)."""
    featurizer = Featurizer(env, "cards")
    size, actions = featurizer.obs_size, env.action_space(env.possible_agents[0]).n
    w = np.zeros((actions, size + featurizer.size), dtype=np.float32)
    play_base = actions - 52
    for c in range(52):
        w[play_base + c, size + c] = 2.0  # is_trump
        w[play_base + c, size + 52 + c] = 1.0  # beats_trick
    meta = policy_metadata("dixenv/LeDix-v0", {"num_players": 4}, env, features="cards")
    return Policy([(w, np.zeros(actions, dtype=np.float32))], "tanh", meta)


def test_a_policy_with_features_computes_them_when_it_plays(tmp_path):
    env = le_dix_v0.env(num_players=4)
    policy = _trump_policy(env)
    assert policy.metadata["features"] == "cards" and policy.metadata["features_size"] == Featurizer(env, "cards").size
    policy.save(tmp_path / "p")
    agent = make_agent("le_dix", f"policy:{tmp_path / 'p'}", env)
    env.reset(seed=5)
    state = env.unwrapped.state
    checked = 0
    while not state.is_terminal() and checked < 60:
        obs = env.observe(env.agent_selection)
        action = agent.act(obs)
        if state.phase == PLAYING and len(np.flatnonzero(obs["action_mask"])) > 1:  # playing, a real choice
            me = state.current_player()
            legal = [a - (len(obs["action_mask"]) - 52) for a in np.flatnonzero(obs["action_mask"])]
            def score(c):
                wins = not state.trick or trick_winner(state.trick + [(me, c)], state.trump_suit) == me
                return 2 * (SUIT[c] == state.trump_suit) + wins
            best = max(score(c) for c in legal)
            assert action - (len(obs["action_mask"]) - 52) == min(c for c in legal if score(c) == best)
            checked += 1
        env.step(action)
    assert checked > 10
    # the same agent plays whole games next to heuristics
    heuristics = [make_agent("le_dix", "heuristic", env) for _ in range(3)]
    assert play_game(env, [agent, *heuristics], seed=2)


def test_a_policy_with_features_is_refused_without_its_env_or_with_a_wrong_size(tmp_path):
    env = le_dix_v0.env(num_players=4)
    policy = _trump_policy(env)
    with pytest.raises(ValueError, match="features='cards': give the agent its env"):
        PolicyAgent(None, policy=policy)
    bad = Policy(policy.weights, "tanh", {**policy.metadata, "features_size": policy.metadata["features_size"] + 1})
    with pytest.raises(ValueError, match="features_size"):
        bad.save(tmp_path / "bad")  # its weights take the true size: the file would not load
    meta = {**policy.metadata, "features": "bids"}
    with pytest.raises(ValueError, match="not a feature set of le_dix"):
        Policy(policy.weights, "tanh", meta).save(tmp_path / "unknown")


@pytest.mark.parametrize("game, module, options, name", [
    ("le_dix", "le_dix_v0", {"num_players": 4}, "cards"),
    ("le_dix", "le_dix_v0", {"num_players": 4}, "cards_bid"),
    ("dix_de_suite", "dix_de_suite_v0", {"num_players": 2}, "rack"),
])
def test_a_policy_records_the_version_of_its_features_and_another_version_is_refused(tmp_path, monkeypatch, game, module,
                                                                                    options, name):
    import importlib

    from dixenv.agents import features as F

    env = importlib.import_module(f"dixenv.{module}").env(**options)
    featurizer = Featurizer(env, name)
    size, actions = featurizer.obs_size + featurizer.size, env.action_space(env.possible_agents[0]).n
    meta = policy_metadata(f"dixenv/{game}", options, env, features=name)
    assert meta["features_version"] == featurizer.version == F.FEATURES[game][name].version >= 1
    weights = [(np.zeros((actions, size), dtype=np.float32), np.zeros(actions, dtype=np.float32))]
    Policy(weights, "tanh", meta).save(tmp_path / "p")
    assert PolicyAgent(env, path=tmp_path / "p").featurizer.version == featurizer.version
    # the definitions change (the class says so): the saved policy no longer loads
    monkeypatch.setattr(F.FEATURES[game][name], "version", featurizer.version + 1)
    with pytest.raises(ValueError, match=f"trained on version {featurizer.version} of the '{name}' features; this "
                                         f"dixenv computes version {featurizer.version + 1}"):
        PolicyAgent(env, path=tmp_path / "p")
    monkeypatch.undo()
    # saved before versions were recorded: refused, with the way to vouch for it
    Policy(weights, "tanh", {k: v for k, v in meta.items() if k != "features_version"}).save(tmp_path / "unversioned")
    with pytest.raises(ValueError, match=f'has no features_version.*add "features_version": {featurizer.version} to its JSON'):
        PolicyAgent(env, path=tmp_path / "unversioned")
    for bad in (0, "1", 1.5, True):
        with pytest.raises(ValueError, match="features_version is .*expected a positive integer"):
            Policy(weights, "tanh", {**meta, "features_version": bad}).save(tmp_path / "bad")


def test_the_shipped_policies_record_the_version_of_their_features():
    from dixenv.agents.features import FEATURES
    from dixenv.agents.zoo import shipped

    seen = 0
    for entry in shipped():
        meta = Policy.load(entry["path"]).metadata
        if meta.get("features"):
            assert meta["features_version"] == FEATURES[meta["game"]][meta["features"]].version
            seen += 1
    assert seen == 2  # le_dix (cards) and dix_de_suite (rack)


def test_demonstrations_carry_the_features():
    from dixenv.experiments.imitation import collect

    demos = collect("dixenv/LeDix-v0", {"num_players": 3}, "heuristic", 1, seed=1, features="cards")
    featurizer = Featurizer(le_dix_v0.env(num_players=3), "cards")
    assert demos.observations.shape[1] == featurizer.obs_size + featurizer.size
    assert np.array_equal(featurizer.extend_batch(demos.observations[:, :featurizer.obs_size]), demos.observations)


def test_the_featured_vec_env_extends_observations_and_trains():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from dixenv.agents.features import featured_vec_env
    from dixenv.vector import SB3VecEnv, VectorEnv

    venv = VectorEnv("dixenv/LeDix-v0", 4, num_players=3, opponents=["heuristic", "heuristic"])
    vec = SB3VecEnv(venv)
    vec.seed(0)
    featurizer = Featurizer(venv.raw_env, "cards")
    featured = featured_vec_env(vec, featurizer)
    obs = featured.reset()
    assert obs.shape == (4, featurizer.obs_size + featurizer.size) and featured.observation_space.contains(obs[0])
    assert np.array_equal(featurizer.extend_batch(obs[:, :featurizer.obs_size]), obs)
    model = sb3_contrib.MaskablePPO("MlpPolicy", featured, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu",
                                    policy_kwargs={"net_arch": [16]})
    model.learn(128)
    assert model.num_timesteps >= 128


def test_a_preset_takes_a_hint_or_features_not_both():
    from dixenv.experiments.presets import get_preset

    with pytest.raises(ValueError, match="a hint .* or features .*, not both"):
        get_preset("le_dix").with_(hint="heuristic", features="cards")
