"""Ray RLlib recipe: the wrapper pays every seat, masking, exact export, self-play snapshots, smoke runs.

Skipped as a whole when the ``rllib`` extra (ray[rllib] and torch) is not installed. The smoke runs
are tiny (one or two PPO iterations of about a hundred env steps, sampled in this process).
"""

from __future__ import annotations

import json
import types

import numpy as np
import pytest

from dixenv.experiments import train_rllib

train_rllib.keep_local_ray_on_loopback()  # before ray is imported
ray = pytest.importorskip("ray", reason="needs the rllib extra: pip install -e '.[rllib]'")
torch = pytest.importorskip("torch", reason="needs the rllib extra: pip install -e '.[rllib]'")

from dixenv.agents.policy import Policy, PolicyAgent  # noqa: E402
from dixenv.experiments import rllib_support as rs  # noqa: E402
from dixenv.experiments.tournament import run_tournament  # noqa: E402

#: Small tables and short games, one per game (solo dix included).
GAMES = {
    "le_dix": {"num_players": 3, "deals": (3, 2)},
    "dix_de_suite": {"num_players": 2},
    "dix": {"num_players": 2},
    "dix_solo": {"solo": True, "difficulty": 4},
}
TINY = {"train_batch_size": 128, "minibatch_size": 64, "num_epochs": 1, "hidden": (16,), "envs_per_runner": 2}


def game_of(key: str) -> str:
    return "dix" if key == "dix_solo" else key


def random_observations(game: str, options: dict, count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the seats to act along random games."""
    env = rs.make_aec_env(game, options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    while len(obs) < count:
        if not env.agents:
            env.reset()
        o, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        obs.append(o["observation"])
        masks.append(o["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    return np.array(obs), np.array(masks)


@pytest.fixture(scope="module")
def ray_session():
    """One small Ray instance on loopback for the module, torch on one thread, shut down after."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    ray.init(num_cpus=1, include_dashboard=False)
    yield
    ray.shutdown()
    torch.set_num_threads(threads)


# -- the environment -------------------------------------------------------------------------------
def play_through_wrapper(game: str, options: dict, seed: int) -> tuple[dict[str, float], list[int]]:
    """Random legal play through RLlib's PettingZoo wrapper: total reward per agent and the actions."""
    env = rs.DixenvPettingZooEnv({"game": game, "options": options})
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    actions = []
    while True:
        (agent, o), = obs.items()  # one seat asked at a time
        actions.append(int(rng.choice(np.flatnonzero(o["action_mask"]))))
        obs, rewards, terminated, truncated, _ = env.step({agent: actions[-1]})
        for a, r in rewards.items():
            totals[a] += r
        if terminated["__all__"] or truncated["__all__"]:
            return totals, actions


def play_aec(game: str, options: dict, seed: int, actions: list[int]) -> dict[str, float]:
    """The same actions in the plain AEC loop: each agent's total of ``last()`` rewards (PettingZoo's own count)."""
    env = rs.make_aec_env(game, options)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    moves = iter(actions)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else next(moves))
    return totals


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("reward", ["win", "points"])
def test_wrapper_pays_every_seat_what_the_aec_env_pays(key, reward):
    options = {**GAMES[key], "reward": reward}
    totals, actions = play_through_wrapper(game_of(key), options, seed=5)
    assert totals == pytest.approx(play_aec(game_of(key), options, 5, actions))
    if reward == "win" and len(totals) == 2:
        assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_env_config_without_a_game_is_refused():
    with pytest.raises(ValueError, match="env_config needs 'game'"):
        rs.DixenvPettingZooEnv({"options": {}})
    with pytest.raises(ValueError, match="unknown game"):
        rs.DixenvPettingZooEnv({"game": "poker"})


# -- the masking module and its export -------------------------------------------------------------
def built_module(game: str, options: dict, hidden=(24, 12), activation="tanh") -> rs.MaskedMLPModule:
    env = rs.make_aec_env(game, options)
    agent = env.possible_agents[0]
    return rs.module_spec(env.observation_space(agent), env.action_space(agent), hidden, activation).build()


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_exported_policy_gives_the_modules_logits_and_actions(key, activation, tmp_path):
    game, options = game_of(key), GAMES[key]
    module = built_module(game, options, activation=activation)
    obs, masks = random_observations(game, options, 40)
    batch = {"obs": {"observation": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks)}}
    with torch.no_grad():
        masked = module.forward_inference(batch)["action_dist_inputs"].numpy()
        raw = module.policy_net(torch.as_tensor(obs)).numpy()
    rs.export_policy(module, tmp_path / "p", game, options)
    policy = Policy.load(tmp_path / "p")
    assert np.allclose(policy.logits(obs), raw, atol=1e-5)
    legal = masks.astype(bool)
    assert np.all(masked[~legal] == rs.MASKED_LOGIT)
    assert np.allclose(masked[legal], policy.masked_logits(obs, masks)[legal], atol=1e-5)
    assert np.array_equal(policy.choose(obs, masks), masked.argmax(axis=1))


def test_illegal_actions_are_never_sampled_from_the_masked_distribution():
    game, options = "le_dix", GAMES["le_dix"]
    module = built_module(game, options)
    obs, masks = random_observations(game, options, 30)
    batch = {"obs": {"observation": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks)}}
    logits = module.forward_exploration(batch)["action_dist_inputs"]
    dist = module.get_exploration_action_dist_cls().from_logits(logits)
    torch.manual_seed(0)
    samples = torch.stack([dist.sample() for _ in range(200)]).numpy()
    assert np.all(np.take_along_axis(masks.T, samples, axis=0) == 1)
    assert torch.isfinite(dist.entropy()).all()


def test_an_activation_the_policy_format_cannot_hold_is_refused():
    with pytest.raises(ValueError, match="activation 'gelu'.*allowed: \\['relu', 'tanh'\\]"):
        built_module("le_dix", GAMES["le_dix"], activation="gelu")


# -- which module plays which seat ------------------------------------------------------------------
def test_self_play_learner_takes_one_seat_that_rotates_over_episodes():
    seats_taken = set()
    for i in range(200):
        episode = types.SimpleNamespace(id_=f"episode-{i}")
        modules = [rs.self_play_mapping(f"player_{s}", episode, num_seats=4, num_snapshots=3) for s in range(4)]
        assert modules.count(rs.MAIN) == 1
        assert set(modules) - {rs.MAIN} <= {rs.snapshot_id(k) for k in range(3)}
        seats_taken.add(modules.index(rs.MAIN))
        assert modules == [rs.self_play_mapping(f"player_{s}", episode, num_seats=4, num_snapshots=3) for s in range(4)]
    assert seats_taken == {0, 1, 2, 3}


def test_bad_policy_choices_are_refused():
    with pytest.raises(ValueError, match="self-play needs at least two agents"):
        rs.build_config("dix", GAMES["dix_solo"], self_play=True)
    with pytest.raises(ValueError, match="policies='everyone'; allowed: \\['shared', 'per-seat'\\]"):
        rs.build_config("le_dix", GAMES["le_dix"], policies="everyone")
    with pytest.raises(ValueError, match="use policies='shared'"):
        rs.build_config("le_dix", GAMES["le_dix"], policies="per-seat", self_play=True)
    with pytest.raises(ValueError, match="every=0 and slots=3"):
        rs.SnapshotOpponents(every=0, slots=3)


def test_per_seat_policies_give_each_agent_its_own_trained_module():
    config = rs.build_config("le_dix", GAMES["le_dix"], policies="per-seat")
    assert rs.trained_modules(config) == ["player_0", "player_1", "player_2"]
    assert [config.policy_mapping_fn(f"player_{s}", None) for s in range(3)] == ["player_0", "player_1", "player_2"]


# -- training runs (tiny) ---------------------------------------------------------------------------
def weights_of(algo, module_id: str) -> list[np.ndarray]:
    state = algo.learner_group.get_weights([module_id])[module_id]
    return [np.asarray(state[k]).copy() for k in sorted(state)]


def same(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def test_self_play_snapshots_copy_the_learner_and_stay_frozen(ray_session):
    config = rs.build_config("le_dix", GAMES["le_dix"], self_play=True, snapshots=2, snapshot_every=1, **TINY)
    algo = config.build_algo()
    try:
        initial = weights_of(algo, rs.MAIN)
        assert same(weights_of(algo, rs.snapshot_id(0)), initial) and same(weights_of(algo, rs.snapshot_id(1)), initial)
        algo.train()  # iteration 1: slot 0 takes main
        after_one = weights_of(algo, rs.MAIN)
        assert not same(after_one, initial)
        assert same(weights_of(algo, rs.snapshot_id(0)), after_one)
        assert same(weights_of(algo, rs.snapshot_id(1)), initial)  # not trained meanwhile
        algo.train()  # iteration 2: slot 1 takes main
        assert same(weights_of(algo, rs.snapshot_id(0)), after_one)
        assert same(weights_of(algo, rs.snapshot_id(1)), weights_of(algo, rs.MAIN))
        # The EnvRunner that samples plays the same snapshot weights as the learner holds.
        runner_state = algo.env_runner.module[rs.snapshot_id(0)].get_state()
        assert same([np.asarray(runner_state[k]) for k in sorted(runner_state)], after_one)
    finally:
        algo.stop()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_smoke_train_each_game_then_play_the_exported_policy(key, ray_session, tmp_path):
    game, options = game_of(key), GAMES[key]
    settings = {**TINY, "game": game, "options": {**options, "reward": "points"}, "policies": "shared",
                "self_play": False, "snapshots": 3, "snapshot_every": 5, "num_env_runners": 0,
                "activation": "tanh", "lr": 3e-4, "seed": 0}
    summary = train_rllib.train(settings, 2, tmp_path)
    assert [it["iteration"] for it in summary["iterations"]] == [1, 2]
    assert all(it["env_steps"] >= TINY["train_batch_size"] for it in summary["iterations"])
    assert summary["env_steps_per_second"] > 0
    assert json.loads((tmp_path / "summary.json").read_text())["policies"] == {"shared": str(tmp_path / "final")}
    # The exported policy is an agent: it plays whole games in the tournament harness, numpy only.
    seats = len(rs.make_aec_env(game, options).possible_agents)
    agents = [f"policy:{tmp_path / 'final'}"] + ["random"] * (seats - 1)
    results = run_tournament(game, agents, len(agents) * 2, options, workers=1)
    assert results.num_games == len(agents) * 2
    # A later export from the checkpoint gives the same policy.
    train_rllib.main(["--export-from", str(tmp_path / "checkpoint"), "--out", str(tmp_path / "again")])
    first, again = Policy.load(tmp_path / "final"), Policy.load(tmp_path / "again")
    assert all(np.array_equal(w, v) for (w, _), (v, _) in zip(first.weights, again.weights))
    env = rs.make_aec_env(game, options)
    PolicyAgent(env, path=tmp_path / "again")  # checks game, layout and action count


def test_export_from_a_folder_that_is_no_checkpoint_names_it(tmp_path):
    with pytest.raises(ValueError, match="not a checkpoint saved by experiments.train_rllib"):
        train_rllib.export_from_checkpoint(tmp_path, tmp_path / "p")
