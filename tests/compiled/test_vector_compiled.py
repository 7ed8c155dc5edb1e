"""VectorEnv on the compiled engine equals VectorEnv on the Python engine, step for step: observations,
masks, rewards in every mode, terminations, truncations and infos, in every autoreset mode."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

pytest.importorskip("numba")

from dixenv.vector import VectorEnv  # noqa: E402
from tests.test_vector import assert_infos_equal, random_masked  # noqa: E402

CASES = [
    ("dixenv/LeDix-v0", {"num_players": 3, "opponents": "random", "deals": (3, 1)}),
    ("dixenv/LeDix-v0", {"num_players": 4, "opponents": "random", "deals": (2, 1), "learner_seat": 2, "hook": True}),
    ("dixenv/LeDix-v0", {"num_players": 5, "opponents": "random", "deals": (1,), "scoring": "oh_hell"}),
    ("dixenv/DixDeSuite-v0", {"num_players": 2, "opponents": "random", "target_score": 100}),
    ("dixenv/DixDeSuite-v0", {"num_players": 3, "opponents": "random", "max_turns": 30, "learner_seat": 1}),
    ("dixenv/DixDeSuite-v0", {"num_players": 4, "teams": True, "opponents": "random", "target_score": 80, "max_turns": 60}),
    ("dixenv/DixDeSuite-v0", {"num_players": 2, "opponents": "random", "target_score": 60, "reshuffle": True, "run_bonus": True}),
    ("dixenv/DixSolo-v0", {"difficulty": 7, "bust_buy": True}),
    ("dixenv/Dix-v0", {"num_players": 3, "opponents": "random", "auto_pay": True}),
    ("dixenv/Dix-v0", {"num_players": 5, "opponents": "random", "learner_seat": 3}),
]
CASE_IDS = [f"{env_id.split('/')[1]}-{i}" for i, (env_id, _) in enumerate(CASES)]


def side_by_side(options: Any, env_id: str, steps: int, seed: int, **vector_options) -> int:
    """Step a compiled and a Python VectorEnv with the same actions (some illegal); assert equal outputs.

    ``options``: the envs' options, or a function that makes them (each env then gets its own
    opponents, as stateful policies need)."""
    ours = VectorEnv(env_id, 4, engine="compiled", **vector_options, **(options() if callable(options) else options))
    theirs = VectorEnv(env_id, 4, engine="python", **vector_options, **(options() if callable(options) else options))
    assert ours.engine == "compiled" and theirs.engine == "python"
    a, b = ours.reset(seed=seed), theirs.reset(seed=seed)
    assert np.array_equal(a[0], b[0])
    assert_infos_equal(a[1], b[1], "reset infos")
    rng = np.random.default_rng(seed)
    ended = 0
    for t in range(steps):
        masks = ours.action_masks()
        assert np.array_equal(masks, theirs.action_masks()), f"step {t}: masks"
        actions = random_masked(masks, rng)
        if t % 37 == 36:
            slot = t % 4
            if not masks[slot].all():
                actions[slot] = int(np.flatnonzero(~masks[slot])[0])
        if ours.autoreset_mode is AutoresetMode.DISABLED and ours._ended.any():
            done = ours._ended.copy()
            a, b = ours.reset(options={"reset_mask": done}), theirs.reset(options={"reset_mask": done.copy()})
            assert np.array_equal(a[0], b[0])
            assert_infos_equal(a[1], b[1], f"step {t} partial reset infos")
            continue
        a, b = ours.step(actions), theirs.step(actions)
        for name, x, y in zip(("observations", "rewards", "terminations", "truncations"), a[:4], b[:4]):
            assert x.dtype == y.dtype and np.array_equal(x, y), f"step {t}: {name} differ"
        assert_infos_equal(a[4], b[4], f"step {t} infos")
        ended += int(np.sum(a[2] | a[3]))
    return ended


@pytest.mark.parametrize("mode", ["win", "points", "margin"])
@pytest.mark.parametrize("env_id, options", CASES, ids=CASE_IDS)
def test_compiled_vector_env_equals_the_python_one_in_every_reward_mode(env_id, options, mode):
    assert side_by_side({**options, "reward": mode}, env_id, steps=160, seed=7) >= 1


@pytest.mark.parametrize("autoreset", [AutoresetMode.SAME_STEP, AutoresetMode.DISABLED])
@pytest.mark.parametrize("env_id, options", [CASES[0], CASES[3], CASES[7]], ids=[CASE_IDS[0], CASE_IDS[3], CASE_IDS[7]])
def test_compiled_vector_env_equals_the_python_one_in_every_autoreset_mode(env_id, options, autoreset):
    assert side_by_side(options, env_id, steps=160, seed=3, autoreset_mode=autoreset) >= 1


@pytest.mark.parametrize("env_id, options", [CASES[1], CASES[4], CASES[9]], ids=[CASE_IDS[1], CASE_IDS[4], CASE_IDS[9]])
def test_compiled_vector_env_with_forced_moves_as_steps(env_id, options):
    assert side_by_side({**options, "auto_forced": False}, env_id, steps=120, seed=5) >= 1


class SamplingPolicy:
    """A batched policy that samples from its own generator (reseeded by ``reset``, as the envs reseed
    opponents) and reads the observation (a fixed random linear score), as a sampling network does."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng()
        self.weights: np.ndarray | None = None
        self.batch_sizes: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.dtype == np.float32 and masks.dtype == bool
        if self.weights is None:
            self.weights = np.random.default_rng(99).normal(size=(observations.shape[1], masks.shape[1]))
        self.batch_sizes.append(len(masks))
        scores = observations.astype(np.float64) @ self.weights + self.rng.random(masks.shape)
        return np.argmax(np.where(masks, scores, -np.inf), axis=1)


def _with_policies(base: dict, seats: list) -> Any:
    """Options whose opponents are ``seats`` ("random", or "policy" / "policy2": fresh SamplingPolicy objects per env)."""
    def make() -> dict:
        policies = {"policy": SamplingPolicy(), "policy2": SamplingPolicy()}
        return {**base, "opponents": [policies.get(s, s) for s in seats]}
    return make


@pytest.mark.parametrize("env_id, base, seats", [
    ("dixenv/LeDix-v0", {"num_players": 4, "deals": (2, 1), "learner_seat": 1}, ["policy", "random", "policy"]),
    ("dixenv/LeDix-v0", {"num_players": 3, "deals": (2,), "reward": "points"}, ["policy", "policy2"]),
    ("dixenv/DixDeSuite-v0", {"num_players": 3, "target_score": 80, "max_turns": 40}, ["random", "policy"]),
    ("dixenv/Dix-v0", {"num_players": 4, "reward": "margin"}, ["policy", "random", "policy2"]),
], ids=["le_dix-policy-random-policy", "le_dix-two-policies", "dix_de_suite-random-policy", "dix-policy-random-policy2"])
def test_batched_policy_opponents_play_the_python_engines_games(env_id, base, seats):
    """Policies are asked in the same groups and order on both engines: sampling policies play the same games."""
    make = _with_policies(base, seats)
    assert VectorEnv(env_id, 2, **make()).engine == "compiled"
    assert side_by_side(make, env_id, steps=150, seed=11) >= 1
    assert side_by_side(make, env_id, steps=60, seed=12, autoreset_mode=AutoresetMode.SAME_STEP) >= 0


def test_a_batched_policy_is_asked_once_per_round_on_the_compiled_engine():
    policy = SamplingPolicy()
    env = VectorEnv("dixenv/LeDix-v0", 8, engine="compiled", num_players=4, opponents=[policy, policy, policy], deals=(3,))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(10):
        env.step(random_masked(env.action_masks(), rng))
    assert max(policy.batch_sizes) > 1 and len(policy.batch_sizes) < sum(policy.batch_sizes) / 2


def test_a_batched_policy_that_chooses_an_illegal_move_is_named_on_the_compiled_engine():
    class Illegal(SamplingPolicy):
        def act_batch(self, observations, masks):
            return np.argmin(masks, axis=1)  # a masked-out action where one exists

    env = VectorEnv("dixenv/LeDix-v0", 2, engine="compiled", num_players=3, opponents=[Illegal(), Illegal()], learner_seat=2)
    with pytest.raises(ValueError, match="act_batch chose action \\d+ in game \\d, which is not legal there; legal actions: \\["):
        env.reset(seed=0)

    class Floats(SamplingPolicy):
        def act_batch(self, observations, masks):
            return np.zeros(len(masks), dtype=np.float32)

    env = VectorEnv("dixenv/LeDix-v0", 2, engine="compiled", num_players=3, opponents=[Floats(), Floats()], learner_seat=2)
    with pytest.raises(ValueError, match="act_batch returned a float32 array.*integer action ids"):
        env.reset(seed=0)


def test_unseeded_resets_continue_each_slots_generators_as_the_python_engine():
    ours = VectorEnv("dixenv/LeDix-v0", 3, engine="compiled", num_players=3, opponents="random", deals=(1,))
    theirs = VectorEnv("dixenv/LeDix-v0", 3, engine="python", num_players=3, opponents="random", deals=(1,))
    ours.reset(seed=[4, None, 9]), theirs.reset(seed=[4, None, 9])
    ours.step(np.argmax(ours.action_masks(), axis=1)), theirs.step(np.argmax(theirs.action_masks(), axis=1))
    # slot 1 had no seed: both engines dealt from an unseeded generator, so compare the seeded slots only
    a, b = ours.reset(), theirs.reset()
    assert np.array_equal(a[0][[0, 2]], b[0][[0, 2]])


def test_compiled_results_do_not_depend_on_the_thread_count():
    """One thread (the default), and numba's threads (``threads=True``) with 1 and 2 of them: the same games."""
    code = (
        "import sys, numba, numpy as np\n"
        "from dixenv.vector import VectorEnv\n"
        "numba.set_num_threads(int(sys.argv[1]))\n"
        "env = VectorEnv('dixenv/LeDix-v0', 16, engine='compiled', threads=sys.argv[2] == 'on', num_players=4,\n"
        "                opponents='random', deals=(2, 1))\n"
        "obs, _ = env.reset(seed=1); rng = np.random.default_rng(0); total = obs.astype(np.float64).sum()\n"
        "for _ in range(100):\n"
        "    m = env.action_masks(); a = np.argmax(np.where(m, rng.random(m.shape), -1), axis=1)\n"
        "    o, r, te, tr, _ = env.step(a); total += o.astype(np.float64).sum() * 1e-3 + r.sum() + te.sum()\n"
        "print(repr(total))\n"
    )
    runs = [("1", "on"), ("2", "on"), ("2", "off")]
    outs = {subprocess.run([sys.executable, "-c", code, *run], check=True, capture_output=True, text=True).stdout for run in runs}
    assert len(outs) == 1


def test_threads_option_is_checked_and_only_for_the_compiled_engine():
    assert VectorEnv("dixenv/LeDix-v0", 2, opponents="random", threads=True)._compiled.batch.parallel
    assert not VectorEnv("dixenv/LeDix-v0", 2, opponents="random")._compiled.batch.parallel
    with pytest.raises(ValueError, match="threads"):
        VectorEnv("dixenv/LeDix-v0", 2, opponents="random", threads="yes")
    with pytest.raises(ValueError, match="threads=True applies to the compiled engine.*engine='python' was asked"):
        VectorEnv("dixenv/LeDix-v0", 2, opponents="random", engine="python", threads=True)
    with pytest.raises(ValueError, match="threads=True applies to the compiled engine.*heuristic"):
        VectorEnv("dixenv/LeDix-v0", 2, opponents="heuristic", threads=True)


def test_engine_option_is_checked_and_explains_what_the_compiled_engine_cannot_play():
    with pytest.raises(ValueError, match="engine='fast' is not allowed; allowed values: \\['compiled', 'python'\\]"):
        VectorEnv("dixenv/LeDix-v0", 2, opponents="random", engine="fast")
    with pytest.raises(ValueError, match="opponents .*heuristic.* play in Python.*engine='python'"):
        VectorEnv("dixenv/LeDix-v0", 2, opponents="heuristic", engine="compiled")
    with pytest.raises(ValueError, match="match_maker seats agents per episode in Python"):
        VectorEnv("dixenv/DixSolo-v0", 2, engine="compiled", match_maker=lambda slot, rng: (0, []))
    assert VectorEnv("dixenv/LeDix-v0", 2, opponents="heuristic").engine == "python"
    assert VectorEnv("dixenv/LeDix-v0", 2, opponents="random").engine == "compiled"
    env = VectorEnv("dixenv/LeDix-v0", 2, opponents="random", engine="compiled")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="engine='python'"):
        env.reset(seed=0, options={"dealer": 1})


def test_without_numba_the_compiled_engine_names_the_extra_and_the_default_is_python():
    """VectorEnv and the single env (``le_dix_v0.env(engine="compiled")``) alike."""
    code = (
        "import sys, importlib.util\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda name, *a: None if name == 'numba' else real(name, *a)\n"
        "sys.modules['numba'] = None  # import numba now fails\n"
        "import dixenv.le_dix_v0\n"
        "from dixenv.vector import VectorEnv\n"
        "assert VectorEnv('dixenv/LeDix-v0', 2, opponents='random').engine == 'python'\n"
        "dixenv.le_dix_v0.env(num_players=3).reset(seed=0)\n"
        "for make in (lambda: VectorEnv('dixenv/LeDix-v0', 2, opponents='random', engine='compiled'),\n"
        "             lambda: dixenv.le_dix_v0.env(engine='compiled')):\n"
        "    try:\n"
        "        make()\n"
        "    except ImportError as err:\n"
        "        print(err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.count("pip install 'dixenv[fast]'") == 2, out


@pytest.mark.parametrize("env_id, options", [CASES[0], CASES[3], CASES[7], CASES[8]],
                         ids=[CASE_IDS[0], CASE_IDS[3], CASE_IDS[7], CASE_IDS[8]])
def test_an_illegal_action_is_refused_as_on_the_python_engine_and_changes_nothing(env_id, options):
    """``illegal_action="raise"``: the same ValueError on both engines, raised before any game moves."""
    envs = [VectorEnv(env_id, 3, engine=engine, illegal_action="raise", **options) for engine in ("compiled", "python")]
    outs = [env.reset(seed=4)[0] for env in envs]
    rng = np.random.default_rng(4)
    for t in range(30):
        masks = envs[0].action_masks()
        actions = random_masked(masks, rng)
        bad = actions.copy()
        slot = t % 3
        if masks[slot].all():
            continue
        bad[slot] = int(np.flatnonzero(~masks[slot])[0])
        messages = []
        for env in envs:
            with pytest.raises(ValueError) as caught:
                env.step(bad)
            messages.append(str(caught.value))
        assert messages[0] == messages[1] and messages[0].startswith(f"game {slot}: illegal action {bad[slot]}; legal: ")
        assert np.array_equal(envs[0].action_masks(), masks)  # nothing moved
        outs = [env.step(actions) for env in envs]
        for x, y in zip(outs[0][:4], outs[1][:4]):
            assert np.array_equal(x, y)


@pytest.mark.parametrize("env_id, options", [CASES[1], CASES[7], CASES[9]], ids=[CASE_IDS[1], CASE_IDS[7], CASE_IDS[9]])
def test_versus_step_deals_new_games_as_new_games_then_play_forced_do(env_id, options):
    """``NEW_GAME`` in ``versus_step``: the same game and the same scores at the deal as ``new_games`` then the step."""
    from dixenv.compiled.rng import seed_rows

    venv = VectorEnv(env_id, 8, engine="compiled", **options)
    games = venv._compiled
    twins = [type(games.batch)(games.batch.config, 8) for _ in range(2)]
    k = len(games.opponent_seats)
    n, p = 8, games.batch.config.num_players
    out = [(np.zeros((n, games.batch.obs_size), np.float32), np.zeros((n, games.batch.num_actions), np.int8)) for _ in twins]
    opponents = [seed_rows(range(100, 100 + n * k)) for _ in twins]
    for batch in twins:
        batch.new_games(np.arange(n), seed_rows(range(n)))
    at_deal = twins[0].scores().reshape(-1).copy()
    twins[0].play_forced()
    twins[0].versus_step(np.full(n, -1), games.learner, games._row_of_seat, opponents[0], True, *out[0])
    twins[1].rng[:] = seed_rows(range(n))  # the same generators, dealt by the step itself
    deal_scores = np.full(n * p, -7, dtype=np.int64)
    twins[1].versus_step(np.full(n, twins[1].NEW_GAME), games.learner, games._row_of_seat, opponents[1], True, *out[1],
                         deal_scores)
    assert np.array_equal(deal_scores, at_deal)
    assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])
    assert np.array_equal(twins[0].scores(), twins[1].scores()) and np.array_equal(twins[0].rng, twins[1].rng)
