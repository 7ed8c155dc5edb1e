"""dixenv.vector: N games stepped together equal N single-agent envs slot for slot; autoreset, seeding,
illegal actions, batched opponents, bad input, and the Stable-Baselines3 adapter."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import dixenv  # noqa: F401  (registers the ids)
from dixenv.vector import VECTOR_IDS, VectorEnv

# One short configuration per registered id (and reward mode), so that many episodes end in a test.
CASES = [
    ("dixenv/DixSolo-v0", {"difficulty": 6}),
    ("dixenv/DixSolo-v0", {"reward": "points", "auto_pay": True}),
    ("dixenv/LeDix-v0", {"num_players": 3, "opponents": "random", "deals": (3, 1)}),
    ("dixenv/LeDix-v0", {"num_players": 4, "opponents": "heuristic", "deals": (2,), "reward": "points", "learner_seat": 2}),
    ("dixenv/DixDeSuite-v0", {"num_players": 2, "opponents": "heuristic", "target_score": 100}),
    ("dixenv/DixDeSuite-v0", {"num_players": 3, "opponents": "random", "max_turns": 12, "reward": "points"}),  # truncations
    ("dixenv/Dix-v0", {"num_players": 3, "opponents": ["random", "heuristic"], "learner_seat": 1}),
]
CASE_IDS = [f"{env_id.split('/')[1]}-{i}" for i, (env_id, _) in enumerate(CASES)]


def single_envs(env_id: str, n: int, mode: AutoresetMode = AutoresetMode.NEXT_STEP, **options) -> SyncVectorEnv:
    """The reference: N separate single-agent envs made by gymnasium.make, in Gymnasium's own vector env."""
    return SyncVectorEnv([lambda: gymnasium.make(env_id, **options) for _ in range(n)], autoreset_mode=mode)


def assert_infos_equal(ours: dict, theirs: dict, where: str = "infos") -> None:
    assert sorted(ours) == sorted(theirs), f"{where}: keys {sorted(ours)} != {sorted(theirs)}"
    for key, a in ours.items():
        b = theirs[key]
        if isinstance(b, dict):
            assert_infos_equal(a, b, f"{where}[{key!r}]")
        elif b.dtype == object:  # final_obs: one array or None per slot
            assert [x is None for x in a] == [y is None for y in b], f"{where}[{key!r}]"
            assert all(x is None or np.array_equal(x, y) for x, y in zip(a, b)), f"{where}[{key!r}]"
        else:
            assert a.dtype == b.dtype and np.array_equal(a, b), f"{where}[{key!r}]: {a} != {b}"


def random_masked(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row."""
    return np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)


def play_side_by_side(ours, theirs, steps: int, seed: int = 0, illegal_every: int = 0) -> int:
    """Step both vector envs with the same random legal actions (and now and then an illegal one) and
    assert every output is equal; returns the number of episodes that ended by the game's rules."""
    rng = np.random.default_rng(seed)
    ended = 0
    finished = np.zeros(ours.num_envs, dtype=bool)  # NEXT_STEP: games whose next action is ignored
    for t in range(steps):
        masks = ours.action_masks()
        expected = np.stack(theirs.call("action_masks"))
        expected[finished] = True  # a finished game's row allows every action (the single env's is all False)
        assert masks.dtype == bool and np.array_equal(masks, expected)
        actions = random_masked(masks, rng)
        if illegal_every and t % illegal_every == illegal_every - 1:
            slot = t % ours.num_envs
            if finished[slot]:
                slot = int(np.flatnonzero(~finished)[0])
            actions[slot] = int(np.flatnonzero(~masks[slot])[0])
        a, b = ours.step(actions), theirs.step(actions)
        if ours.autoreset_mode is AutoresetMode.NEXT_STEP:
            finished = a[2] | a[3]
            b[4]["action_mask"][finished] = 1
        for name, x, y in zip(("observations", "rewards", "terminations", "truncations"), a[:4], b[:4]):
            assert x.dtype == y.dtype and np.array_equal(x, y), f"step {t}: {name} differ"
        assert_infos_equal(a[4], b[4], f"step {t} infos")
        illegal = a[4].get("illegal_action", a[4].get("final_info", {}).get("illegal_action", np.zeros(ours.num_envs, bool)))
        ended += int(np.sum((a[2] | a[3]) & ~illegal))
    return ended


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("env_id, options", CASES, ids=CASE_IDS)
def test_each_slot_equals_a_separate_single_agent_env(env_id, options, mode):
    ours = VectorEnv(env_id, 3, autoreset_mode=mode, **options)
    theirs = single_envs(env_id, 3, mode, **options)
    a, b = ours.reset(seed=11), theirs.reset(seed=11)
    assert np.array_equal(a[0], b[0])
    assert_infos_equal(a[1], b[1], "reset infos")
    assert play_side_by_side(ours, theirs, steps=120, illegal_every=25) >= 1  # games end by the rules, not only by illegal actions


def test_whole_episodes_are_equal_too_in_the_longest_game():
    ours = VectorEnv("dixenv/LeDix-v0", 2, num_players=3, opponents="random")
    theirs = single_envs("dixenv/LeDix-v0", 2, num_players=3, opponents="random")
    ours.reset(seed=5), theirs.reset(seed=5)
    assert play_side_by_side(ours, theirs, steps=140) >= 2  # 10 deals, 55 learner decisions per game


def test_disabled_autoreset_with_reset_mask_equals_separate_envs():
    options = {"num_players": 3, "opponents": "random", "deals": (2,)}
    ours = VectorEnv("dixenv/LeDix-v0", 3, autoreset_mode=AutoresetMode.DISABLED, **options)
    theirs = single_envs("dixenv/LeDix-v0", 3, AutoresetMode.DISABLED, **options)
    ours.reset(seed=2), theirs.reset(seed=2)
    rng = np.random.default_rng(0)
    resets = 0
    for _ in range(40):
        actions = random_masked(ours.action_masks(), rng)
        a, b = ours.step(actions), theirs.step(actions)
        assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4]))
        done = a[2] | a[3]
        if done.any():
            with pytest.raises(RuntimeError, match="reset_mask"):
                ours.step(actions)
            ra, rb = ours.reset(options={"reset_mask": done}), theirs.reset(options={"reset_mask": done.copy()})
            assert np.array_equal(ra[0], rb[0])
            assert_infos_equal(ra[1], rb[1], "partial reset infos")
            resets += 1
    assert resets >= 2


def test_next_step_autoreset_ignores_the_action_and_starts_a_new_game():
    env = VectorEnv("dixenv/LeDix-v0", 2, num_players=3, opponents="random", deals=(1,))
    env.reset(seed=0)
    rng = np.random.default_rng(1)
    done = np.zeros(2, dtype=bool)
    while not done.any():
        obs, rewards, terminated, truncated, _ = env.step(random_masked(env.action_masks(), rng))
        done = terminated | truncated
    slot = int(np.flatnonzero(done)[0])
    actions = random_masked(env.action_masks(), rng)
    actions[slot] = 10_000  # out of range: ignored, the slot only restarts
    obs, rewards, terminated, truncated, infos = env.step(actions)
    assert rewards[slot] == 0.0 and not terminated[slot] and not truncated[slot]
    assert "illegal_action" not in infos and env.action_masks()[slot].any()


def test_same_step_autoreset_returns_the_last_observation_and_info_of_a_finished_game():
    env = VectorEnv("dixenv/LeDix-v0", 2, autoreset_mode="SameStep", num_players=3, opponents="random", deals=(1,))
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(1)
    while True:
        masks = env.action_masks()
        obs, rewards, terminated, truncated, infos = env.step(random_masked(masks, rng))
        done = terminated | truncated
        if done.any():
            break
    assert np.array_equal(infos["_final_obs"], done) and np.array_equal(infos["_final_info"], done)
    slot = int(np.flatnonzero(done)[0])
    assert not infos["final_info"]["action_mask"][slot].any()  # the finished game has no legal action left
    assert not np.array_equal(infos["final_obs"][slot], obs[slot])  # obs is already the new game's
    assert env.action_masks()[slot].any() and np.array_equal(infos["action_mask"][slot], env.action_masks()[slot])


def test_reset_seed_gives_slot_i_the_single_env_of_seed_plus_i_and_replays():
    env = VectorEnv("dixenv/Dix-v0", 3, num_players=2, opponents="random")
    single = gymnasium.make("dixenv/Dix-v0", num_players=2, opponents="random")
    obs, _ = env.reset(seed=40)
    for i in range(3):
        assert np.array_equal(obs[i], single.reset(seed=40 + i)[0])
    again, _ = env.reset(seed=40)
    assert np.array_equal(obs, again)
    listed, _ = env.reset(seed=[42, 41, 40])
    assert np.array_equal(listed, obs[::-1])


def test_each_slot_has_its_own_named_opponents_seeded_from_its_own_seed():
    """Slot 1 of a 2-game env plays exactly as slot 0 of a 1-game env seeded one higher: random
    opponents given by name draw from a generator of their own game, seeded from that game's seed."""
    options = {"num_players": 3, "opponents": "random", "deals": (2,)}
    pair, alone = VectorEnv("dixenv/LeDix-v0", 2, **options), VectorEnv("dixenv/LeDix-v0", 1, **options)
    a, _ = pair.reset(seed=9)
    b, _ = alone.reset(seed=10)
    rng = np.random.default_rng(4)
    for _ in range(30):
        assert np.array_equal(a[1], b[0])
        actions = random_masked(pair.action_masks(), rng)
        a, ra, *_ = pair.step(actions)
        b, rb, *_ = alone.step(actions[1:])
        assert ra[1] == rb[0]


def test_illegal_action_ends_that_episode_with_minus_one():
    env = VectorEnv("dixenv/DixSolo-v0", 2)
    obs, _ = env.reset(seed=0)
    masks = env.action_masks()
    actions = np.argmax(masks, axis=1)
    actions[1] = int(np.flatnonzero(~masks[1])[0])
    after, rewards, terminated, truncated, infos = env.step(actions)
    assert rewards[1] == -1.0 and terminated[1] and not truncated[1]
    assert np.array_equal(infos["illegal_action"], [False, True]) and np.array_equal(infos["_illegal_action"], [False, True])
    assert np.array_equal(after[1], obs[1])  # nothing moved
    # the episode ended: its next action is ignored (NEXT_STEP), so its row allows every action
    assert env.action_masks()[1].all() and infos["action_mask"][1].all()


def test_a_finished_games_mask_row_is_safe_for_minus_inf_logits():
    # CleanRL-style masked sampling: logits of masked actions set to -inf, then a softmax.
    env = VectorEnv("dixenv/LeDix-v0", 4, num_players=3, opponents="random", deals=(1,))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    finished_seen = 0
    for _ in range(60):
        masks = env.action_masks()
        logits = np.where(masks, rng.normal(size=masks.shape), -np.inf)
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        assert np.isfinite(probs).all()
        _, _, term, trunc, infos = env.step(np.array([rng.choice(len(p), p=p) for p in probs]))
        done = term | trunc
        finished_seen += int(done.sum())
        assert infos["action_mask"][done].all() and env.action_masks()[done].all()
    assert finished_seen >= 2


def test_illegal_action_raises_before_any_game_moves_when_asked_to():
    env = VectorEnv("dixenv/LeDix-v0", 3, num_players=3, opponents="random", illegal_action="raise")
    reference = VectorEnv("dixenv/LeDix-v0", 3, num_players=3, opponents="random")
    obs, _ = env.reset(seed=1)
    reference.reset(seed=1)
    masks = env.action_masks()
    legal = np.argmax(masks, axis=1)
    bad = legal.copy()
    bad[2] = int(np.flatnonzero(~masks[2])[0])
    with pytest.raises(ValueError, match=r"game 2: illegal action \d+; legal: "):
        env.step(bad)
    a, b = env.step(legal), reference.step(legal)  # the refused step changed nothing
    assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4]))


@pytest.mark.parametrize(
    "actions, problem",
    [([0.0, 1.0], "float64"), ([True, False], "bool"), ([1, 2, 3], r"shape \(3,\)"), ([[1, 2]], r"shape \(1, 2\)"), (["a", "b"], "<U1")],
)
def test_actions_that_are_not_one_integer_per_game_are_refused(actions, problem):
    env = VectorEnv("dixenv/DixSolo-v0", 2)
    obs, _ = env.reset(seed=0)
    with pytest.raises(ValueError, match=f"2 integer action ids.*{problem}"):
        env.step(actions)
    assert np.array_equal(env.reset(seed=0)[0], obs)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"env_id": "dixenv/NoSuch-v0", "num_envs": 2}, "unknown env id"),
        ({"env_id": "CartPole-v1", "num_envs": 2}, "not a dixenv single-agent env"),
        ({"env_id": "dixenv/DixSolo-v0", "num_envs": 0}, "num_envs=0"),
        ({"env_id": "dixenv/DixSolo-v0", "num_envs": 2.0}, "num_envs=2.0"),
        ({"env_id": "dixenv/DixSolo-v0", "num_envs": 2, "autoreset_mode": "sometimes"}, "autoreset_mode='sometimes'"),
        ({"env_id": "dixenv/DixSolo-v0", "num_envs": 2, "copy": 1}, "copy=1"),
        ({"env_id": "dixenv/DixSolo-v0", "num_envs": 2, "difficulty": 11}, "difficulty"),
        ({"env_id": "dixenv/DixSolo-v0", "num_envs": 2, "max_episode_steps": 9}, "max_episode_steps"),
        ({"env_id": "dixenv/LeDix-v0", "num_envs": 2, "num_players": 3, "opponents": [7, 7]}, "opponent 7"),
    ],
)
def test_bad_construction_options_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        VectorEnv(**kwargs)


@pytest.mark.parametrize(
    "seed, options, message",
    [
        (1.5, None, "seed=1.5"),
        ([1, 2, 3], None, "list of 2"),
        (None, {"reset_mask": [True, False]}, "numpy bool array"),
        (None, {"reset_mask": np.array([1, 0])}, "numpy bool array"),
        (None, {"reset_mask": np.zeros(2, dtype=bool)}, "selects no game"),
    ],
)
def test_bad_reset_arguments_are_named(seed, options, message):
    env = VectorEnv("dixenv/DixSolo-v0", 2)
    with pytest.raises(ValueError, match=message):
        env.reset(seed=seed, options=options)


def test_spaces_buffers_and_masks_are_batched():
    env = VectorEnv("dixenv/LeDix-v0", 4, num_players=3, opponents="random", copy=False)
    single = gymnasium.make("dixenv/LeDix-v0", num_players=3, opponents="random")
    size, n_actions = single.observation_space.shape[0], single.action_space.n
    assert env.single_observation_space == single.observation_space and env.single_action_space == single.action_space
    assert env.observation_space.shape == (4, size) and env.action_space == gymnasium.spaces.MultiDiscrete([n_actions] * 4)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, infos = env.reset(seed=0)
    assert obs.dtype == np.float32 and obs.shape == (4, size) and env.observation_space.contains(obs)
    assert env.action_masks().shape == (4, n_actions) and np.array_equal(infos["action_mask"], env.action_masks())
    again = env.step(np.argmax(env.action_masks(), axis=1))[0]
    assert again is obs  # copy=False: the one preallocated array, written in place
    assert VectorEnv("dixenv/DixSolo-v0", 2).reset(seed=0)[0] is not VectorEnv("dixenv/DixSolo-v0", 2).reset(seed=0)[0]


def test_gymnasium_record_episode_statistics_sums_the_rewards():
    env = RecordEpisodeStatistics(VectorEnv("dixenv/LeDix-v0", 2, num_players=3, opponents="random", deals=(2,), reward="points"))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    totals, finished = np.zeros(2), []
    for _ in range(60):
        _, rewards, terminated, truncated, infos = env.step(random_masked(env.unwrapped.action_masks(), rng))
        totals += rewards
        for i in np.flatnonzero(terminated | truncated):
            assert infos["episode"]["r"][i] == totals[i]
            finished.append(i)
            totals[i] = 0.0
    assert finished


def test_render_gives_each_game_as_its_single_env_renders_it():
    env = VectorEnv("dixenv/LeDix-v0", 2, num_players=3, opponents="random", render_mode="ansi")
    single = gymnasium.make("dixenv/LeDix-v0", num_players=3, opponents="random", render_mode="ansi")
    env.reset(seed=0)
    texts = env.render()
    single.reset(seed=1)
    assert len(texts) == 2 and texts[0] != texts[1] and texts[1] == single.render()


def test_render_rgb_array_draws_each_game_from_the_learners_view():
    pytest.importorskip("PIL")
    options = {"num_players": 3, "opponents": "random", "render_mode": "rgb_array"}
    env = VectorEnv("dixenv/LeDix-v0", 2, **options)
    single = gymnasium.make("dixenv/LeDix-v0", **options)
    env.reset(seed=4)
    single.reset(seed=5)
    frames = env.render()
    assert frames[0].dtype == np.uint8 and frames[0].ndim == 3 and np.array_equal(frames[1], single.render())


def test_every_listed_id_is_registered_and_vectorises():
    for env_id in VECTOR_IDS:
        env = VectorEnv(env_id, 2, **({} if env_id.endswith("Solo-v0") else {"opponents": "random"}))
        obs, _ = env.reset(seed=0)
        assert obs.shape[0] == 2 and env.action_masks().any(axis=1).all()


# --- batched opponents ------------------------------------------------------------------------------


class FirstLegal:
    """A deterministic batched policy (the lowest legal action) that records its calls."""

    def __init__(self) -> None:
        self.batch_sizes: list[int] = []

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.dtype == np.float32 and masks.dtype == bool and len(observations) == len(masks)
        self.batch_sizes.append(len(masks))
        return np.argmax(masks, axis=1)


def test_a_batched_policy_is_asked_once_per_round_for_all_waiting_games():
    policy = FirstLegal()
    env = VectorEnv("dixenv/LeDix-v0", 8, num_players=4, opponents=[policy, policy, policy], deals=(3,))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(10):
        env.step(random_masked(env.action_masks(), rng))
    assert max(policy.batch_sizes) > 1  # games waiting together are asked together
    assert len(policy.batch_sizes) < sum(policy.batch_sizes) / 2


def test_a_batched_policy_plays_as_it_would_in_separate_single_envs():
    policy = FirstLegal()
    options = {"num_players": 3, "opponents": [policy, "random"], "deals": (2,)}
    ours = VectorEnv("dixenv/LeDix-v0", 3, autoreset_mode=AutoresetMode.SAME_STEP, **options)
    theirs = single_envs("dixenv/LeDix-v0", 3, AutoresetMode.SAME_STEP, **options)  # the single env asks it with a batch of one
    ours.reset(seed=3), theirs.reset(seed=3)
    assert play_side_by_side(ours, theirs, steps=60) >= 1


def test_a_saved_policy_agent_plays_batched_as_it_plays_in_single_envs():
    """agents.policy.PolicyAgent (act and act_batch) as opponents: batched here, one game at a time there."""
    from dixenv.agents.policy import Policy, PolicyAgent

    probe = VectorEnv("dixenv/LeDix-v0", 1, num_players=3, opponents="random", deals=(3,))
    size, n_actions = probe.single_observation_space.shape[0], probe.single_action_space.n
    rng = np.random.default_rng(0)
    weights = [(rng.normal(size=(32, size)), rng.normal(size=32)), (rng.normal(size=(n_actions, 32)), rng.normal(size=n_actions))]

    class Counting(PolicyAgent):
        batches: list[int] = []

        def act_batch(self, observations, masks):
            Counting.batches.append(len(masks))
            return super().act_batch(observations, masks)

    agent = Counting(policy=Policy(weights, "tanh", {}))
    options = {"num_players": 3, "opponents": [agent, agent], "deals": (3,)}
    ours = VectorEnv("dixenv/LeDix-v0", 4, **options)
    theirs = single_envs("dixenv/LeDix-v0", 4, **options)
    ours.reset(seed=8), theirs.reset(seed=8)
    Counting.batches.clear()
    play_side_by_side(ours, theirs, steps=30)
    assert max(Counting.batches) > 1


def test_a_batched_policy_that_returns_a_bad_array_is_named():
    class Bad(FirstLegal):
        def act_batch(self, observations, masks):
            return np.zeros(len(masks), dtype=np.float32)

    env = VectorEnv("dixenv/LeDix-v0", 2, num_players=3, opponents=[Bad(), Bad()], learner_seat=2)
    with pytest.raises(ValueError, match="act_batch returned a float32 array.*integer action ids"):
        env.reset(seed=0)


def test_a_single_agent_env_accepts_a_batched_policy_as_an_opponent():
    policy = FirstLegal()
    env = gymnasium.make("dixenv/LeDix-v0", num_players=3, opponents=[policy, policy], learner_seat=2)
    env.reset(seed=0)
    for _ in range(5):
        env.step(int(np.argmax(env.unwrapped.action_masks())))
    assert policy.batch_sizes and set(policy.batch_sizes) == {1}


# --- Stable-Baselines3 ------------------------------------------------------------------------------

sb3 = pytest.importorskip("stable_baselines3")


def test_importing_dixenv_vector_does_not_load_stable_baselines3():
    code = "import sys, dixenv.vector; assert 'stable_baselines3' not in sys.modules and 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_sb3_vec_env_equals_dummy_vec_env_of_separate_envs(mode):
    from stable_baselines3.common.vec_env import DummyVecEnv

    from dixenv.vector import SB3VecEnv

    options = {"num_players": 3, "opponents": "random", "deals": (2,)}
    ours = SB3VecEnv(VectorEnv("dixenv/LeDix-v0", 3, autoreset_mode=mode, **options))
    theirs = DummyVecEnv([lambda: gymnasium.make("dixenv/LeDix-v0", **options) for _ in range(3)])
    ours.seed(21), theirs.seed(21)
    assert np.array_equal(ours.reset(), theirs.reset())
    rng = np.random.default_rng(0)
    ended = 0
    for t in range(80):
        masks = np.stack(ours.env_method("action_masks"))
        assert np.array_equal(masks, np.stack(theirs.env_method("action_masks")))
        actions = random_masked(masks, rng)
        (o1, r1, d1, i1), (o2, r2, d2, i2) = ours.step(actions), theirs.step(actions)
        assert np.array_equal(o1, o2) and r1.dtype == r2.dtype and np.array_equal(r1, r2) and np.array_equal(d1, d2)
        for a, b, done in zip(i1, i2, d1):
            if done and mode is AutoresetMode.NEXT_STEP:
                b["action_mask"] = np.ones_like(b["action_mask"])  # a finished game's row allows every action
            assert sorted(a) == sorted(b) and all(np.array_equal(a[k], b[k]) for k in a), f"step {t}"
        ended += int(d1.sum())
    assert ended >= 2


def test_sb3_vec_env_returns_a_new_observation_array_each_step():
    from dixenv.vector import SB3VecEnv

    env = SB3VecEnv(VectorEnv("dixenv/DixSolo-v0", 2, copy=False))
    first = env.reset()
    second, *_ = env.step(np.argmax(np.stack(env.env_method("action_masks")), axis=1))
    assert first is not second and not np.shares_memory(first, second)


def test_maskable_ppo_trains_on_sb3_vec_env_and_logs_episodes_through_gymnasium_wrappers():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from dixenv.vector import SB3VecEnv

    venv = RecordEpisodeStatistics(VectorEnv("dixenv/LeDix-v0", 4, autoreset_mode="SameStep", num_players=3, opponents="random", deals=(1,)))
    env = SB3VecEnv(venv)
    assert is_masking_supported(env)
    env.reset()
    assert get_action_masks(env).shape == (4, env.action_space.n)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, device="cpu", seed=0)
    model.learn(total_timesteps=128)
    assert model.num_timesteps >= 128 and len(model.ep_info_buffer) > 0  # "episode" infos reached SB3's logger


# --- the benchmark's vector and training tables ------------------------------------------------------


def test_bench_vector_table_measures_every_kind_against_dummy_vec_env(capsys):
    from dixenv.experiments import bench

    bench.main(["--no-single", "--vector", "--vector-ids", "dixenv/DixSolo-v0", "--num-envs", "2", "--seconds", "0.05", "--rounds", "1", "--no-memory"])
    out = capsys.readouterr().out
    rows = {line.split()[2]: line.split() for line in out.splitlines() if line.startswith("DixSolo-v0")}
    compiled = VectorEnv("dixenv/DixSolo-v0", 1).engine == "compiled"  # numba installed: a threads row too
    assert set(rows) == {"VectorEnv", "VectorEnv(py)", "SB3VecEnv", "DummyVecEnv"} | ({"VectorEnv(thr)"} if compiled else set())
    assert rows["DummyVecEnv"][-1] == "1.00" and float(rows["VectorEnv"][3].replace(",", "")) > 0
    assert "worst VectorEnv/DummyVecEnv ratio at N=64" not in out  # no N = 64 row here


def test_bench_compiled_table_prints_the_ratio_to_pyspiel(capsys):
    pytest.importorskip("numba")
    pytest.importorskip("pyspiel")
    from dixenv.experiments import bench

    bench.main(["--no-single", "--compiled", "--games", "le_dix", "--compiled-n", "8", "--seconds", "0.2", "--rounds", "1"])
    out = capsys.readouterr().out
    assert "compiled le_dix / pyspiel oh_hell = " in out and "cached" in out
    row = next(line.split() for line in out.splitlines() if line.startswith("le_dix"))
    assert row[1] == "8" and row[2] == "compiled" and float(row[3].replace(",", "")) > 0


def test_bench_plot_draws_each_series_of_the_run(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from PIL import Image

    from dixenv.experiments.bench import Result, plot_speed

    results = [Result("le_dix", n, "compiled", 1_000_000 * n, 0, 1.0) for n in (16, 64)]
    results += [Result("LeDix-v0", n, kind, 1000 * n, 0, 1.0) for n in (16, 64) for kind in ("VectorEnv", "DummyVecEnv")]
    results += [Result("os oh_hell", 4, "rl_env", 3000, 0, 1.0), Result("os oh_hell", 3, "rl_env", 9, 0, 1.0)]
    path = tmp_path / "plots" / "speed.png"
    plot_speed(str(path), results)
    assert "plot written" in capsys.readouterr().out
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size[0] > 400
    plot_speed(str(tmp_path / "empty.png"), [Result("dix", 2, "env", 10, 1, 1.0)])
    assert "nothing to draw" in capsys.readouterr().out and not (tmp_path / "empty.png").exists()


def test_bench_slot_bytes_counts_what_each_extra_game_holds():
    from dixenv.experiments.bench import slot_bytes

    after_reset, playing = slot_bytes("VectorEnv", "dixenv/DixSolo-v0", {}, seed=0, sizes=(2, 6))
    assert 1_000 < after_reset < 1_000_000 and 1_000 < playing < 1_000_000


def test_bench_training_run_splits_its_time_into_env_rollout_and_updates():
    pytest.importorskip("sb3_contrib")
    from dixenv.experiments.bench import train_run

    result = train_run("SB3VecEnv", "dixenv/DixSolo-v0", 2, {}, timesteps=32, rollout=32, seed=0)
    assert result.steps >= 32 and 0 < result.env_seconds < result.rollout_seconds < result.seconds


@pytest.mark.parametrize("kind", ["selfplay", "selfplay+compile"])
def test_bench_selfplay_runs_time_only_the_training_steps(kind):
    pytest.importorskip("torch")
    from tests.skips import skip_without_cxx

    if kind == "selfplay+compile":
        skip_without_cxx()
    from dixenv.experiments.bench import train_run

    result = train_run(kind, "dixenv/DixSolo-v0", 4, {}, timesteps=64, rollout=32, seed=0)
    # the compiled run's warm-up rollout (its compilation) is off the clock and out of the count
    assert result.kind == kind and result.num_envs == 4 and 64 <= result.steps < 64 + 32
    assert 0 < result.env_seconds < result.rollout_seconds < result.seconds


def test_performance_doc_examples_and_prototype_run():
    """docs/guides/performance.md's Python blocks run, and its batched prototype keeps every card once."""
    import re
    from pathlib import Path

    pytest.importorskip("sb3_contrib")
    text = (Path(__file__).resolve().parent.parent / "docs" / "guides" / "performance.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 3
    namespace: dict = {}
    for block in blocks:
        namespace = {}
        exec(compile(block, "docs/guides/performance.md", "exec"), namespace)  # noqa: S102  (our own documentation)
    batch = namespace["Batch"](4, seed=0)  # the prototype is the last block
    rng = np.random.default_rng(0)
    for _ in range(300):
        for g in range(batch.n):
            held = [batch.held[g]] if batch.phase[g] > 0 else []
            cards = [*batch.racks[g].ravel(), *batch.pile[g, : batch.top[g]], *batch.disc[g, : batch.dlen[g]], *held]
            assert sorted(cards) == list(range(1, 41))
        batch.encode()
        batch.step(random_masked(batch.masks(), rng))


def _lowest(observation):
    """A deterministic opponent shared by every game: the lowest legal action."""
    return int(np.flatnonzero(observation["action_mask"])[0])


def test_a_match_maker_seats_the_learner_and_opponents_per_episode_as_a_single_env_would():
    """With a match maker fixing seat 2 and a deterministic opponent, games equal single envs with learner_seat=2."""
    import gymnasium

    def maker(slot, rng):
        return 2, [_lowest, _lowest, _lowest]

    venv = VectorEnv("dixenv/LeDix-v0", 3, num_players=4, opponents="random", match_maker=maker)
    singles = [gymnasium.make("dixenv/LeDix-v0", num_players=4, opponents=[_lowest] * 3, learner_seat=2) for _ in range(3)]
    obs, _ = venv.reset(seed=4)
    single_obs = [env.reset(seed=4 + i)[0] for i, env in enumerate(singles)]
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert np.array_equal(obs, np.array(single_obs))
        masks = venv.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, term, trunc, _ = venv.step(actions)
        for i, env in enumerate(singles):
            o, r, t, tr, _ = env.step(int(actions[i]))
            assert r == rewards[i] and t == term[i] and tr == trunc[i]
            single_obs[i] = env.reset()[0] if (t or tr) else o
        if (term | trunc).any():
            break


def test_a_match_maker_with_the_wrong_number_of_opponents_is_refused():
    venv = VectorEnv("dixenv/LeDix-v0", 2, num_players=3, opponents="random", match_maker=lambda slot, rng: (0, [_lowest]))
    with pytest.raises(ValueError, match="2 opponents"):
        venv.reset(seed=0)
    with pytest.raises(ValueError, match="match_maker"):
        VectorEnv("dixenv/LeDix-v0", 2, num_players=3, opponents="random", match_maker=5)
