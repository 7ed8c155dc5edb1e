"""Steps per second of random play for every dixenv game, beside OpenSpiel's ``oh_hell``.

Run ``python -m experiments.bench`` (``--help`` for options). For each game that imports
(the env module of each game in ``dixenv.games``' registry), three ways:

* ``engine``   the rules engine alone: ``legal_actions()`` / ``apply_action()``; every action counts
               as a step, forced ones included;
* ``raw_env``  ``raw_env()`` with ``observe()`` (observation + mask) every step; the move is drawn
               from the mask;
* ``env``      ``env()`` (PettingZoo classic wrappers) with ``last()`` every step; the move is drawn
               from the mask. With ``auto_forced=True`` (the default) forced moves are played
               inside the env and are not steps; ``env(af=0)`` is the same with ``auto_forced=False``;
               ``env(compiled)`` is ``env(engine="compiled")`` (games that have one, numba installed).

and OpenSpiel's ``oh_hell`` (num_tricks_fixed=10, i.e. one 10-card deal) two ways: ``spiel`` bare
``legal_actions()`` / ``apply_action()`` (chance nodes drawn from ``chance_outcomes()``, not counted
as steps) and ``rl_env``, ``open_spiel.python.rl_environment.Environment`` stepping on
``time_step.observations["legal_actions"][player]`` (it computes every player's information-state
tensor each step). Random choice reads precomputed uniform floats (``legal[int(u * len(legal))]``)
so the rng costs next to nothing; the env modes pay ``mask.nonzero()[0]`` (~0.2 µs), as ``RandomAgent``
does (``np.flatnonzero``'s Python wrappers cost ~1.4 µs; OpenSpiel's side reads a ready list).

Each measurement runs ``--rounds`` times, interleaved with the others, and keeps its best round, so
the ratios hold up when the machine is shared. Then: the le_dix env() / OpenSpiel rl_environment
ratio (target >= 10x), tracemalloc memory of one env() and the process max RSS; ``--profile le_dix``
adds a cProfile of env() random play.

``--vector`` adds a second table: learner steps/s of N games of a single-agent id (``--vector-ids``,
at ``--num-envs`` N = 1 16 64 256 by default) three ways, interleaved in the same run:

* ``VectorEnv``    ``dixenv.vector.VectorEnv`` through the Gymnasium vector API (``copy=False``), on
                   the compiled engine where it can play the games (numba installed, random opponents);
* ``VectorEnv(py)`` the same forced onto the Python engines (``engine="python"``);
* ``VectorEnv(thr)`` the compiled engine on numba's threads (``threads=True``; only ids it plays);
* ``SB3VecEnv``    the same wrapped for Stable-Baselines3 (masks by ``get_action_masks``, as MaskablePPO);
* ``DummyVecEnv``  SB3's ``DummyVecEnv`` of N ``gymnasium.make`` envs, masks by ``get_action_masks``;

every learner action uniformly random among the legal ones (one ``argmax`` over precomputed noise,
the same for all three), opponents random (``opponents="random"``: one agent per game), every row
on games of its own (seeds 10,000 apart), and the bytes each extra game (slot) holds, by tracemalloc. ``--profile-vector ID`` profiles ``VectorEnv``
and ``DummyVecEnv`` random play at the largest N (cProfile): the time by part of the code (engines,
encoders, adapters, agents, …) and VectorEnv's top functions.

``--train`` adds a third: end-to-end training on ``--train-id`` at ``--train-num-envs`` N: sb3-contrib
MaskablePPO on ``SB3VecEnv`` and ``DummyVecEnv``, and ``experiments.selfplay``'s PPO fed from the
compiled engine (``selfplay``, the same network and PPO settings; at a table every seat is the
learner's, so every decision is a training step). The MaskablePPO rows: on ``--train-id`` at ``--train-num-envs``
N = 1 16 64, on ``SB3VecEnv`` and on ``DummyVecEnv`` with the same hyper-parameters (a rollout of
``--train-rollout`` steps in all, i.e. ``n_steps = rollout / N``, minibatches of 256, 10 epochs), and
where the time goes: the environment (inside the VecEnv: steps, resets, masks), the rest of the
rollout (the policy's forward passes, the buffer) and the gradient updates; torch runs on
``--torch-threads`` threads (1 by default: on a shared machine more threads thrash).
``--train-compile`` adds ``selfplay+compile``: the same trainer with ``--compile`` (torch.compile of
the loss), its compilation off the clock and printed apart.
``--profile-train`` profiles the SB3VecEnv run at the largest N (time by part, top functions).

``--compiled`` adds the compiled engines' table (the ``fast`` extra): random legal decisions/s of
each game's compiled batch (``dixenv/games/<game>/compiled.py``) at ``--compiled-n`` N = 64 1024
4096, the observation of the player to act and its mask written every decision, beside pyspiel's
bare ``oh_hell`` (4 players) in the same run, with the line ``compiled le_dix / pyspiel oh_hell = Xx``;
then each engine's compile time in a fresh process (cold, then from numba's cache) and its state
bytes per game slot. ``--vector`` ends with the line ``worst VectorEnv/DummyVecEnv ratio at N=64``.

``--plot PNG`` draws le_dix's decisions/s against N from the run's tables (the compiled engine,
``VectorEnv`` on either engine, ``DummyVecEnv``; OpenSpiel's ``rl_environment`` and bare state as
lines): the README's speed figure comes from

    python -m experiments.bench --games le_dix --players 4 --compiled --compiled-n 1 16 64 256 1024 4096 \
        --vector --vector-ids dixenv/LeDix-v0 --num-envs 1 16 64 256 1024 --plot docs/performance_results/speed_vs_n.png

``--search`` measures instead what the search agents (``agents/search/``) pay per call, for each
game and ``--players`` count: ``clone()`` and ``sample_hidden(seat to act)`` over 400 positions of
random games, best of ``--rounds`` passes; for dix_de_suite also a ``belief=progress`` world
(``sample_hidden`` then ``dix_de_suite_belief.refine``).

``--search-compiled`` measures ``pimc``'s and ``ismcts``' iterations per second with ``engine=python`` and
``engine=compiled`` (``agents/search/compiled.py``, ``compiled_dix.py``; the ``fast`` extra) at the
same settings, le_dix 4 players and dix 2 players (``--games`` picks), over the same 24 decisions of
random games, ``--seconds`` per row and engine, and prints ``<game>: compiled pimc / python pimc
iterations per second = Xx`` for each game's default rollout (and the same for ``ismcts``).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import os
import pstats
import resource
import sys
import time
import tracemalloc
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

import dixenv

NUM_UNIFORMS = 1 << 16  # a ring of precomputed uniforms; index with & (NUM_UNIFORMS - 1)
SPIEL_TRICKS = 10


@dataclass
class Result:
    """One measurement: a row of the table."""

    game: str
    players: int
    mode: str
    steps: int
    games: int
    seconds: float

    @property
    def steps_per_s(self) -> float:
        """Steps per second."""
        return self.steps / self.seconds

    @property
    def games_per_s(self) -> float:
        """Complete games per second."""
        return self.games / self.seconds

    @property
    def us_per_step(self) -> float:
        """Microseconds per step."""
        return 1e6 * self.seconds / max(self.steps, 1)


def uniforms(seed: int) -> list[float]:
    """The ring of precomputed uniform floats in [0, 1)."""
    return np.random.default_rng(seed).random(NUM_UNIFORMS).tolist()


# --- the loops ------------------------------------------------------------------------------------
# Each loop runs whole games until ``seconds`` have passed (checked between games and every
# 1024 steps), counting steps and finished games; a game cut off by the clock counts its steps only.


def run_engine(game: Any, options: dict, seconds: float, u: list[float], seed: int) -> tuple[int, int, float]:
    """Random play on the bare rules engine."""
    config = game.make_config(**options)
    rng = np.random.default_rng(seed)
    mask = NUM_UNIFORMS - 1
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_state(config, rng, {})
        current, legal_actions, apply = state.current_player, state.legal_actions, state.apply_action
        while current() >= 0:
            legal = legal_actions()
            apply(legal[int(u[steps & mask] * len(legal))])
            steps += 1
            if not steps & 1023 and time.perf_counter() > deadline:
                return steps, games, time.perf_counter() - start
        games += 1
        if time.perf_counter() > deadline:
            return steps, games, time.perf_counter() - start


def run_raw_env(module: Any, options: dict, seconds: float, u: list[float], seed: int) -> tuple[int, int, float]:
    """Random play on ``raw_env()`` with ``observe()`` every step."""
    env = module.raw_env(**options)
    env.reset(seed=seed)
    mask = NUM_UNIFORMS - 1
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            games += 1
            if time.perf_counter() > deadline:
                return steps, games, time.perf_counter() - start
            env.reset()
            continue
        legal = env.observe(agent)["action_mask"].nonzero()[0]
        env.step(int(legal[int(u[steps & mask] * len(legal))]))
        steps += 1
        if not steps & 1023 and time.perf_counter() > deadline:
            return steps, games, time.perf_counter() - start


def run_env(module: Any, options: dict, seconds: float, u: list[float], seed: int) -> tuple[int, int, float]:
    """Random play on ``env()`` (classic wrappers) with ``last()`` every step."""
    env = module.env(**options)
    env.reset(seed=seed)
    mask = NUM_UNIFORMS - 1
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            games += 1
            if time.perf_counter() > deadline:
                return steps, games, time.perf_counter() - start
            env.reset()
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[int(u[steps & mask] * len(legal))]))
        steps += 1
        if not steps & 1023 and time.perf_counter() > deadline:
            return steps, games, time.perf_counter() - start


def run_spiel(players: int, seconds: float, u: list[float], seed: int) -> tuple[int, int, float]:
    """Random play on OpenSpiel's ``oh_hell`` state (chance outcomes drawn, not counted)."""
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": SPIEL_TRICKS})
    mask = NUM_UNIFORMS - 1
    steps = games = k = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            k += 1
            if state.is_chance_node():
                outcomes = state.chance_outcomes()  # uniform in oh_hell
                state.apply_action(outcomes[int(u[k & mask] * len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[int(u[k & mask] * len(legal))])
            steps += 1
        games += 1
        if time.perf_counter() > deadline:
            return steps, games, time.perf_counter() - start


def run_spiel_rl_env(players: int, seconds: float, u: list[float], seed: int) -> tuple[int, int, float]:
    """Random play on OpenSpiel's ``rl_environment.Environment("oh_hell")``."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(
        "oh_hell", chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed), players=players, num_tricks_fixed=SPIEL_TRICKS
    )
    mask = NUM_UNIFORMS - 1
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    ts = env.reset()
    while True:
        if ts.last():
            games += 1
            if time.perf_counter() > deadline:
                return steps, games, time.perf_counter() - start
            ts = env.reset()
            continue
        obs = ts.observations
        legal = obs["legal_actions"][obs["current_player"]]
        ts = env.step([legal[int(u[steps & mask] * len(legal))]])
        steps += 1
        if not steps & 1023 and time.perf_counter() > deadline:
            return steps, games, time.perf_counter() - start


# --- discovery, memory, profile -------------------------------------------------------------------


def load_game(name: str) -> tuple[Any, Any]:
    """``(the game's env module, its Game record)``; raises whatever the import raises."""
    from dixenv.games import game_spec

    spec = game_spec(name)
    module = importlib.import_module(spec.env_module)
    game = spec.game_record()
    return module, game


def env_peak_memory(module: Any, options: dict, seed: int) -> tuple[float, float]:
    """(KiB held after ``env()`` + reset, KiB peak while it plays one random game), by tracemalloc."""
    u = uniforms(seed)
    tracemalloc.start()
    try:
        env = module.env(**options)
        env.reset(seed=seed)
        held = tracemalloc.get_traced_memory()[0]
        i = 0
        while True:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                break
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(u[i & (NUM_UNIFORMS - 1)] * len(legal))]))
            i += 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return held / 1024, peak / 1024


def profile_env(module: Any, options: dict, seconds: float, seed: int, top: int) -> None:
    """Print a cProfile of ``env()`` random play (tottime and cumulative, ``top`` lines each)."""
    profiler = cProfile.Profile()
    profiler.enable()
    steps, games, _ = run_env(module, options, seconds, uniforms(seed), seed)
    profiler.disable()
    print(f"\ncProfile of env() random play: {steps} steps, {games} games (profiling overhead included)")
    stats = pstats.Stats(profiler, stream=sys.stdout).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


# --- vector envs ----------------------------------------------------------------------------------
# Random masked learner actions for N games at once: the argmax of noise where the mask allows. The
# noise is precomputed (a ring of NOISE_RING matrices), so the choice costs next to nothing.

NOISE_RING = 16
# Untimed steps before a vector env is measured: all its games start together, and early turns
# can cost less than late ones (dix scores bigger collections), so let the games drift apart first.
WARMUP_STEPS = 100


def vector_options(env_id: str, players: int) -> dict:
    """The options the vector table uses for ``env_id``: random opponents, ``players`` seats (solo: none)."""
    return {} if env_id == "dixenv/DixSolo-v0" else {"num_players": players, "opponents": "random"}


def short_id(env_id: str) -> str:
    """``dixenv/LeDix-v0`` -> ``LeDix-v0``."""
    return env_id.split("/", 1)[-1]


def make_vector(kind: str, env_id: str, num_envs: int, options: dict, seed: int) -> tuple[Any, Callable, Callable, int]:
    """A reset vector env of ``kind``: (env, masks(), step(actions), number of actions)."""
    import gymnasium

    from dixenv.vector import VectorEnv

    if kind in ("VectorEnv", "VectorEnv(py)", "VectorEnv(thr)"):
        engine = "python" if kind == "VectorEnv(py)" else None  # None: compiled where it can
        env = VectorEnv(env_id, num_envs, copy=False, engine=engine, threads=kind == "VectorEnv(thr)", **options)
        env.reset(seed=seed)
        return env, env.action_masks, env.step, int(env.single_action_space.n)
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv

    if kind == "SB3VecEnv":
        from dixenv.vector import SB3VecEnv

        env = SB3VecEnv(VectorEnv(env_id, num_envs, copy=False, **options))
    else:
        env = DummyVecEnv([lambda: gymnasium.make(env_id, **options) for _ in range(num_envs)])
    env.seed(seed)
    env.reset()
    return env, (lambda: get_action_masks(env)), env.step, int(env.action_space.n)


def distinct_seed(seed: int, k: int) -> int:
    """The ``k``-th measurement's seed: its games differ from every other measurement's.

    Slot i of a vector env seeded s plays the game of seed s + i, so equal seeds would replay the
    same games in every row, and a process-wide memo (the dix scorer's) would make later rows
    cheaper than earlier ones. Rows stay below 10,000 games.
    """
    return seed + 10_000 * k


class VectorStepper:
    """One vector env of one kind, built once and stepped with random legal actions for a while at a time."""

    def __init__(self, kind: str, env_id: str, num_envs: int, options: dict, seed: int):
        self.num_envs = num_envs
        self.env, self.masks, self.step, num_actions = make_vector(kind, env_id, num_envs, options, seed)
        noise = np.random.default_rng(seed).random((NOISE_RING, num_envs, num_actions))
        self.noise = [noise[k] for k in range(NOISE_RING)]
        self.k = 0
        for _ in range(WARMUP_STEPS):
            self.step_once()

    def step_once(self) -> int:
        """One random legal action per game; the number of episodes that ended."""
        actions = np.argmax(np.where(self.masks(), self.noise[self.k % NOISE_RING], -1.0), axis=1)
        self.k += 1
        out = self.step(actions)
        done = out[2] | out[3] if len(out) == 5 else out[2]  # Gymnasium (terminated, truncated) or SB3 dones
        return int(np.sum(done))

    def run(self, seconds: float) -> tuple[int, int, float]:
        """Step for ``seconds``: (learner steps, episodes finished, seconds)."""
        steps = episodes = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            episodes += self.step_once()
            steps += self.num_envs
        return steps, episodes, time.perf_counter() - start


def slot_bytes(kind: str, env_id: str, options: dict, seed: int, sizes: tuple[int, int] = (16, 80)) -> tuple[float, float]:
    """Bytes per game (after reset, after 64 random steps) of ``kind``, by tracemalloc: the growth
    from ``sizes[0]`` to ``sizes[1]`` games, divided by the games added.

    A small env is built first, untraced, so that imports and first-use caches are not counted;
    the dix scorer's memo (process-wide, shared by every game) is left out of the counts.
    """
    make_vector(kind, env_id, 1, options, seed)
    shared = [tracemalloc.Filter(False, "*/games/dix/scoring.py")]
    held = []
    for n in sizes:
        rng = np.random.default_rng(seed)
        tracemalloc.start()
        try:
            env, masks, step, _ = make_vector(kind, env_id, n, options, seed)
            after_reset = sum(t.size for t in tracemalloc.take_snapshot().filter_traces(shared).traces)
            for _ in range(64):
                mask = masks()
                step(np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1))
            del mask
            playing = sum(t.size for t in tracemalloc.take_snapshot().filter_traces(shared).traces)
        finally:
            tracemalloc.stop()
        held.append((after_reset, playing))
        del env, masks, step
    added = sizes[1] - sizes[0]
    return (held[1][0] - held[0][0]) / added, (held[1][1] - held[0][1]) / added


#: Where a profiled function lives -> the part it is counted in (first match wins). A function of
#: no part (C builtins, numpy, dixenv.core helpers) is counted in the parts of its callers, in
#: proportion to the time each caller spent in it; what is left is "other".
PARTS = (
    ("adapters (dixenv.vector, the AEC adapter, single-agent wrappers)", ("dixenv/vector.py", "dixenv/core/aec.py", "dixenv/wrappers/")),
    ("encoders (games/*/observation.py)", ("observation.py",)),
    ("engines (games/*: rules, scoring, ALIX)", ("dixenv/games/",)),
    ("agents (opponents)", ("/agents/",)),
    ("torch", ("/torch/",)),
    ("stable-baselines3, sb3-contrib", ("/stable_baselines3/", "/sb3_contrib/")),
    ("gymnasium", ("/gymnasium/",)),
    ("the bench's own loop", ("experiments/bench.py",)),
)


def _part(filename: str) -> str | None:
    path = filename.replace("\\", "/")
    return next((name for name, marks in PARTS if any(m in path for m in marks)), None)


def print_parts(stats: pstats.Stats) -> None:
    """Own time (tottime) of the profiled run summed by part of the code, largest first."""
    table = stats.stats  # type: ignore[attr-defined]  # key -> (calls, calls, tottime, cumtime, callers)
    totals: dict[str, float] = {}

    def charge(key: tuple, seconds: float, depth: int) -> None:
        part = _part(key[0])
        callers = table[key][4] if key in table else {}
        if part is None and callers and depth < 8:  # up the call graph, split by each caller's share
            whole = sum(t[2] for t in callers.values()) or 1.0
            for caller, timing in callers.items():
                charge(caller, seconds * timing[2] / whole, depth + 1)
            return
        part = part or "other (numpy, builtins, helpers)"
        totals[part] = totals.get(part, 0.0) + seconds

    for key, (_, _, tottime, _, _) in table.items():
        charge(key, tottime, 0)
    whole = sum(totals.values()) or 1.0
    print("own time by part (helpers and builtins counted in the part that called them):")
    for part, seconds in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"  {100 * seconds / whole:5.1f}%  {part}")


def run_compiled_random(game: str, players: int, n: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random legal play on a game's compiled batch of ``n`` games, observation and mask written every decision."""
    from dixenv.compiled.rng import seed_rows
    from dixenv.compiled.vector import _batch_class

    cls = _batch_class(game)
    module = sys.modules[cls.__module__]
    batch = cls(load_game(game)[1].make_config(num_players=players), n)
    batch.new_games(np.arange(n), seed_rows(range(seed, seed + n)))
    batch.play_forced()
    moves = seed_rows(range(seed + n, seed + 2 * n))
    obs = np.empty((n, batch.obs_size), dtype=np.float32)
    masks = np.empty((n, batch.num_actions), dtype=np.int8)
    chunk = max(1, 50_000 // n)  # about 50k decisions a call: the call overhead vanishes
    module.play_random(batch, None, moves, 1, obs, masks)  # compiled (or loaded from cache) before timing
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        out = module.play_random(batch, None, moves, chunk, obs, masks)
        steps += chunk * n
        games += int(out[2].sum()) if len(out) > 2 else 0  # games finished, where the engine counts them
    return steps, games, time.perf_counter() - start


def compile_seconds(game: str) -> tuple[float, float]:
    """Seconds to import and compile a game's compiled engine in a fresh process: cold, then from numba's cache."""
    import subprocess
    import tempfile

    from dixenv.compiled.vector import compiled_games

    module_name = compiled_games()[game].partition(":")[0]
    code = f"import time; t = time.perf_counter(); from {module_name} import warm_up; warm_up(); print(time.perf_counter() - t)"
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold, cached = (float(subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                                             text=True).stdout.split()[-1]) for _ in range(2))
    return cold, cached


def run_compiled(args: argparse.Namespace) -> list[Result]:
    """The compiled engines' table: decisions/s at each N, beside pyspiel's bare oh_hell, in one run."""
    from dixenv.compiled.vector import _batch_class, compiled_games
    from dixenv.games import game_spec

    BATCHES = compiled_games()
    players = {g: game_spec(g).default_table["num_players"] for g in BATCHES}
    u = uniforms(args.seed)
    specs: list[Spec] = []
    for game in (g for g in args.games if g in BATCHES):
        for n in args.compiled_n:
            seed = distinct_seed(args.seed, len(specs))
            specs.append(((game, n, "compiled"), lambda s, g=game, n=n, seed=seed: run_compiled_random(g, players[g], n, s, seed)))
    specs.append((("os oh_hell", 4, "spiel"), lambda s: run_spiel(4, s, u, args.seed)))
    print(f"\ncompiled engines: random legal decisions/s, observation and mask written every decision, all cores "
          f"(n = games in the batch; le_dix 4 players, dix_de_suite and dix 2; {args.seconds:g} s per row, best of {args.rounds})")
    results = measure_all(specs, args.seconds, args.rounds)
    print_table(results)
    spiel = next((r for r in results if r.game == "os oh_hell"), None)
    for r in results:
        if r.game == "le_dix" and spiel:
            print(f"compiled le_dix / pyspiel oh_hell = {r.steps_per_s / spiel.steps_per_s:.1f}x (n = {r.players})")
    print("\ncompile seconds (fresh process: cold, then from numba's cache) and state bytes per game slot:")
    for game in (g for g in args.games if g in BATCHES):
        cold, cached = compile_seconds(game)
        batch = _batch_class(game)(load_game(game)[1].make_config(num_players=players[game]), 64)
        print(f"  {game:<14} cold {cold:6.1f} s, cached {cached:5.2f} s; {batch.bytes_per_slot:,} B per slot")
    return results


#: The plot's series: (label, game column, mode column) of this run's results, x = the N column.
PLOT_SERIES = (
    ("compiled engine (random play, obs + mask)", "le_dix", "compiled"),
    ("VectorEnv (compiled), learner steps", "LeDix-v0", "VectorEnv"),
    ("VectorEnv (compiled, threads=True)", "LeDix-v0", "VectorEnv(thr)"),
    ("VectorEnv (python engine), learner steps", "LeDix-v0", "VectorEnv(py)"),
    ("SB3 DummyVecEnv, learner steps", "LeDix-v0", "DummyVecEnv"),
)


def plot_speed(path: str, results: list[Result]) -> None:
    """le_dix (4 players) decisions/s against the number of games N, from this run's tables, as a PNG.

    The compiled and vector rows give one point per N; OpenSpiel's ``rl_environment`` (one env) and
    bare ``oh_hell`` state (4 players) are horizontal lines. Run with ``--players 4 --compiled --vector
    --vector-ids dixenv/LeDix-v0`` so every series is in the run.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    drawn = 0
    for label, game, mode in PLOT_SERIES:
        points = sorted((r.players, r.steps_per_s) for r in results if r.game == game and r.mode == mode)
        if points:
            ax.plot(*zip(*points), marker="o", label=label)
            drawn += 1
    for label, mode, style in (("OpenSpiel rl_environment (one env)", "rl_env", "--"), ("pyspiel oh_hell state, no observation", "spiel", ":")):
        rates = [r.steps_per_s for r in results if r.game == "os oh_hell" and r.mode == mode and r.players == 4]
        if rates:
            ax.axhline(max(rates), linestyle=style, color="grey" if mode == "rl_env" else "black", label=label)
            drawn += 1
    if not drawn:
        print(f"\nplot {path}: nothing to draw (run with --players 4 --compiled --vector --vector-ids dixenv/LeDix-v0)")
        plt.close(fig)
        return
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("games stepped together (N)")
    ax.set_ylabel("decisions (learner steps) per second")
    ax.set_title("le_dix, 4 players, random legal play, one 2-core run")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    print(f"\nplot written: {path}")


def print_vector_table(results: list[Result]) -> None:
    """The vector table: id, N, kind, learner steps/s, episodes/s, µs per learner step, ratio to DummyVecEnv."""
    dummy = {(r.game, r.players): r for r in results if r.mode == "DummyVecEnv"}
    print(f"\n{'env id':<16} {'N':>4}  {'kind':<14} {'steps/s':>10} {'episodes/s':>10} {'µs/step':>8} {'x Dummy':>8}")
    for r in results:
        ref = dummy.get((r.game, r.players))
        ratio = f"{r.steps_per_s / ref.steps_per_s:.2f}" if ref else "-"
        print(f"{r.game:<16} {r.players:>4}  {r.mode:<14} {r.steps_per_s:>10,.0f} {r.games_per_s:>10,.1f} {r.us_per_step:>8.1f} {ratio:>8}")


def run_vector(args: argparse.Namespace) -> list[Result]:
    """The vector table and the bytes per slot."""
    options = {env_id: vector_options(env_id, args.players[0]) for env_id in args.vector_ids}
    specs: list[Spec] = []
    from dixenv.vector import VectorEnv

    for env_id in args.vector_ids:
        compiled = VectorEnv(env_id, 1, **options[env_id]).engine == "compiled"
        kinds = ("VectorEnv", "VectorEnv(thr)") if compiled else ("VectorEnv",)
        for n in args.num_envs:
            for kind in (*kinds, "VectorEnv(py)", "SB3VecEnv", "DummyVecEnv"):
                stepper: dict[str, VectorStepper] = {}
                seed = distinct_seed(args.seed, len(specs))

                def fn(seconds: float, kind=kind, env_id=env_id, n=n, stepper=stepper, seed=seed) -> tuple[int, int, float]:
                    if "s" not in stepper:  # built on first use, kept for the later rounds
                        stepper["s"] = VectorStepper(kind, env_id, n, options[env_id], seed)
                    return stepper["s"].run(seconds)

                specs.append(((short_id(env_id), n, kind), fn))
    print(f"\nvector envs: learner steps/s with random legal actions, random opponents ({args.seconds:g} s per row, best of {args.rounds})")
    results = measure_all(specs, args.seconds, args.rounds)
    print_vector_table(results)
    dummy = {(r.game, r.players): r.steps_per_s for r in results if r.mode == "DummyVecEnv"}
    at_64 = [r.steps_per_s / dummy[(r.game, 64)] for r in results if r.mode == "VectorEnv" and r.players == 64 and (r.game, 64) in dummy]
    if at_64:
        print(f"worst VectorEnv/DummyVecEnv ratio at N=64: {min(at_64):.2f}")
    if not args.no_memory:
        print("\nbytes per game (slot), tracemalloc growth from 16 to 80 games (the dix scorer's shared memo left out): after reset / after 64 random steps")
        for env_id in args.vector_ids:
            for kind in ("VectorEnv", "DummyVecEnv"):
                reset_bytes, playing_bytes = slot_bytes(kind, env_id, options[env_id], args.seed)
                print(f"  {short_id(env_id):<16} {kind:<11} {reset_bytes:>10,.0f} B {playing_bytes:>10,.0f} B")
    return results


def profile_vector(args: argparse.Namespace) -> None:
    """cProfiles of VectorEnv and DummyVecEnv random play at the largest N: time by part, VectorEnv's top functions."""
    env_id, n = args.profile_vector, max(args.num_envs)
    for k, kind in enumerate(("VectorEnv", "DummyVecEnv")):
        stepper = VectorStepper(kind, env_id, n, vector_options(env_id, args.players[0]), distinct_seed(args.seed, 1000 + k))
        profiler = cProfile.Profile()
        profiler.enable()
        steps, _, _ = stepper.run(args.seconds)
        profiler.disable()
        print(f"\ncProfile of {kind}({env_id}, {n}) random play: {steps} learner steps (profiling overhead included)")
        stats = pstats.Stats(profiler, stream=sys.stdout)
        print_parts(stats)
        if kind == "VectorEnv":
            stats.strip_dirs().sort_stats("tottime").print_stats(args.profile_top)


# --- end-to-end training --------------------------------------------------------------------------


@dataclass
class TrainResult:
    """One MaskablePPO run: where its time went."""

    kind: str
    num_envs: int
    steps: int
    seconds: float
    env_seconds: float  # inside the VecEnv: step, reset, masks
    rollout_seconds: float  # collecting rollouts, env included

    @property
    def steps_per_s(self) -> float:
        """Training steps (env steps) per second."""
        return self.steps / self.seconds


def selfplay_run(env_id: str, num_envs: int, options: dict, timesteps: int, rollout: int, seed: int, profiler: Any = None,
                 compile: bool = False) -> TrainResult:
    """``experiments.selfplay``'s PPO on the compiled engine with MaskablePPO's settings here (SB3's default
    MlpPolicy: separate 64x64 tanh actor and critic; minibatches of 256, 10 epochs, lr 3e-4, gamma 0.995,
    entropy 0.01, rollouts of ``rollout`` steps).

    ``compile``: with ``--compile``'s torch.compile of the loss. Its compilation (the first rollout's
    update: seconds, about half a minute without torch's on-disk cache) is done before the clock
    starts and printed apart: the table is the trainer's speed once compiled."""
    from dixenv.experiments.selfplay import SelfPlay, SelfPlayConfig
    from dixenv.games import spec_of_gymnasium_id

    spec = spec_of_gymnasium_id(env_id)
    if env_id == "dixenv/DixSolo-v0":
        game_options = {"solo": True, "difficulty": 4, **options}
    else:  # self-play at the table: every seat is the learner's
        game_options = {k: v for k, v in options.items() if k != "opponents"}
    import torch

    cfg = SelfPlayConfig(game=spec.name, options=game_options, num_games=num_envs, rollout=max(1, rollout // num_envs),
                         total_steps=timesteps, net_arch=(64, 64), learning_rate=3e-4, gamma=0.995, gae_lambda=0.95,
                         epochs=10, minibatch=256, ent_coef=0.01, torch_threads=torch.get_num_threads(), compile=compile)
    run = SelfPlay(cfg, seed=seed)
    if compile:
        t0 = time.perf_counter()
        run.update(run.collect())  # the compilation, off the clock
        print(f"  selfplay --compile at N={num_envs}: compiled in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
        run.reset_counters()
    start = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    run.train(progress=False)
    if profiler is not None:
        profiler.disable()
    seconds = time.perf_counter() - start
    return TrainResult("selfplay+compile" if compile else "selfplay", num_envs, run.steps, seconds, run.env_seconds,
                       seconds - run.learn_seconds)


def train_run(kind: str, env_id: str, num_envs: int, options: dict, timesteps: int, rollout: int, seed: int, profiler: Any = None) -> TrainResult:
    """Train for ``timesteps`` on ``num_envs`` games, timing its parts: MaskablePPO on ``kind`` SB3VecEnv or
    DummyVecEnv, or ``experiments.selfplay``'s PPO for ``selfplay`` and ``selfplay+compile`` (``selfplay_run``)."""
    if kind in ("selfplay", "selfplay+compile"):
        return selfplay_run(env_id, num_envs, options, timesteps, rollout, seed, profiler, compile=kind != "selfplay")
    import gymnasium
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, VecEnvWrapper

    from dixenv.vector import SB3VecEnv, VectorEnv

    class EnvClock(VecEnvWrapper):
        """Adds up the time spent inside the wrapped VecEnv (steps, resets, env_method such as the masks)."""

        seconds = 0.0

        def _timed(self, fn: Callable, *a: Any, **k: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                self.seconds += time.perf_counter() - start

        def reset(self) -> Any:
            return self._timed(self.venv.reset)

        def step_wait(self) -> Any:
            return self._timed(self.venv.step_wait)

        def env_method(self, *a: Any, **k: Any) -> Any:
            return self._timed(self.venv.env_method, *a, **k)

    class RolloutClock(BaseCallback):
        """Adds up the time spent collecting rollouts (the rest of learn() is the gradient updates)."""

        seconds = 0.0
        _start = 0.0

        def _on_rollout_start(self) -> None:
            self._start = time.perf_counter()

        def _on_rollout_end(self) -> None:
            self.seconds += time.perf_counter() - self._start

        def _on_step(self) -> bool:
            return True

    if kind == "SB3VecEnv":
        venv = SB3VecEnv(VectorEnv(env_id, num_envs, copy=False, **options))
    else:
        venv = DummyVecEnv([lambda: gymnasium.make(env_id, **options) for _ in range(num_envs)])
    env = EnvClock(venv)
    params = {"n_steps": max(1, rollout // num_envs), "batch_size": 256, "n_epochs": 10, "learning_rate": 3e-4, "gamma": 0.995, "ent_coef": 0.01}
    model = MaskablePPO("MlpPolicy", env, seed=seed, verbose=0, device="cpu", **params)
    clock = RolloutClock()
    start = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    model.learn(total_timesteps=timesteps, callback=clock)
    if profiler is not None:
        profiler.disable()
    seconds = time.perf_counter() - start
    return TrainResult(kind, num_envs, model.num_timesteps, seconds, env.seconds, clock.seconds)


def run_train(args: argparse.Namespace) -> None:
    """The training table: MaskablePPO steps/s on SB3VecEnv and DummyVecEnv, and where the time goes."""
    import torch

    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    options = vector_options(args.train_id, args.players[0])
    print(
        f"\nMaskablePPO on {args.train_id} {options or ''}: {args.train_steps:,} steps per run, rollouts of {args.train_rollout} "
        f"steps (n_steps = rollout / N), batch 256, 10 epochs; torch {torch.__version__}, {torch.get_num_threads()} threads"
    )
    train_run("SB3VecEnv", args.train_id, 4, options, 256, 256, args.seed)  # warm-up: torch's first calls are slow
    results: list[TrainResult] = []
    train_run("selfplay", args.train_id, 4, options, 256, 256, args.seed)  # warm-up (numba's cache, torch)
    for n in args.train_num_envs if args.train else ():
        for kind in ("SB3VecEnv", "DummyVecEnv", "selfplay", *(("selfplay+compile",) if args.train_compile else ())):
            print(f"  training on {kind} of {n} ...", file=sys.stderr, flush=True)
            seed = distinct_seed(args.seed, len(results) + 1)
            results.append(train_run(kind, args.train_id, n, options, args.train_steps, args.train_rollout, seed))
    if results:
        print_train_table(results)
    if args.profile_train:
        n = max(args.train_num_envs)
        profiler = cProfile.Profile()
        train_run("SB3VecEnv", args.train_id, n, options, args.train_steps, args.train_rollout, distinct_seed(args.seed, 1000), profiler)
        print(f"\ncProfile of MaskablePPO on SB3VecEnv of {n} (profiling overhead included)")
        stats = pstats.Stats(profiler, stream=sys.stdout)
        print_parts(stats)
        stats.strip_dirs().sort_stats("tottime").print_stats(args.profile_top)


def print_train_table(results: list[TrainResult]) -> None:
    """The training table: N, kind, steps/s, ratio to DummyVecEnv, and the split of the time."""
    print(f"{'N':>4}  {'kind':<16} {'steps/s':>9} {'x Dummy':>8} {'env %':>6} {'policy %':>9} {'updates %':>10} {'µs/step: env':>13} {'learner':>8}")
    dummy = {r.num_envs: r for r in results if r.kind == "DummyVecEnv"}
    for r in results:
        ref = dummy.get(r.num_envs)
        env_us = 1e6 * r.env_seconds / r.steps
        learner_us = 1e6 * (r.seconds - r.env_seconds) / r.steps
        print(
            f"{r.num_envs:>4}  {r.kind:<16} {r.steps_per_s:>9,.0f} {r.steps_per_s / ref.steps_per_s if ref else 0:>8.2f} "
            f"{100 * r.env_seconds / r.seconds:>6.1f} {100 * (r.rollout_seconds - r.env_seconds) / r.seconds:>9.1f} "
            f"{100 * (r.seconds - r.rollout_seconds) / r.seconds:>10.1f} {env_us:>13.1f} {learner_us:>8.1f}"
        )
    print("(env: inside the VecEnv, for selfplay the compiled batch's calls; policy: the rest of the rollouts, mostly "
          "forward passes; updates: the gradient epochs)")
    by = {(r.kind, r.num_envs): r for r in results}
    for n in sorted({r.num_envs for r in results}):
        sb3 = by.get(("SB3VecEnv", n))
        for kind in ("selfplay", "selfplay+compile"):
            lean = by.get((kind, n))
            if lean and sb3:
                print(f"{kind} / SB3VecEnv MaskablePPO at N={n}: {lean.steps_per_s / sb3.steps_per_s:.2f}x steps/s")


# --- search support: clone() and sample_hidden() per call ----------------------------------------


def search_positions(game: Any, options: dict, count: int, seed: int) -> list[Any]:
    """``count`` states at decision points of random games (every phase; at most 200 from one game)."""
    config = game.make_config(**options)
    rng = np.random.default_rng(seed)
    states: list[Any] = []
    while len(states) < count:
        state = game.new_state(config, rng, {}, None)
        for _ in range(200):
            if state.current_player() < 0 or len(states) >= count:
                break
            states.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return states


def search_costs(game: Any, options: dict, rounds: int, seed: int, count: int = 400) -> tuple[float, float, float | None]:
    """(µs per ``clone()``, µs per ``sample_hidden(seat to act)``, µs per ``belief=progress`` world
    (dix_de_suite; None for the other games)), best of ``rounds`` passes over the same positions."""
    states = search_positions(game, options, count, seed)
    rng = np.random.default_rng(seed)
    refine = None
    if game.name == "dix_de_suite":
        from dixenv.agents.dix_de_suite_belief import refine
    clone_best = sample_best = belief_best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for state in states:
            state.clone()
        t1 = time.perf_counter()
        for state in states:
            state.sample_hidden(state.current_player(), rng)
        t2 = time.perf_counter()
        if refine is not None:
            for state in states:
                seat = state.current_player()
                refine(state.sample_hidden(seat, rng), seat, rng)
        t3 = time.perf_counter()
        clone_best = min(clone_best, (t1 - t0) / len(states))
        sample_best = min(sample_best, (t2 - t1) / len(states))
        belief_best = min(belief_best, (t3 - t2) / len(states))
    return 1e6 * clone_best, 1e6 * sample_best, (1e6 * belief_best if refine is not None else None)


def print_search_costs(names: list[str], players: list[int], rounds: int, seed: int) -> None:
    """The ``--search`` table: per game and player count, µs per clone() and per sample_hidden()."""
    print(f"{'game':<14} {'n':>3}  {'clone µs':>9} {'sample_hidden µs':>17} {'belief=progress µs':>19}   "
          f"(per call, over 400 random-game positions, best of {rounds})")
    for name in names:
        try:
            _, game = load_game(name)
        except Exception as exc:
            print(f"{name}: skipped ({type(exc).__name__}: {exc})")
            continue
        for n in players:
            try:
                game.make_config(num_players=n)
            except ValueError:
                continue
            clone_us, sample_us, belief_us = search_costs(game, {"num_players": n}, rounds, seed)
            belief = f"{belief_us:>19.1f}" if belief_us is not None else f"{'-':>19}"
            print(f"{name:<14} {n:>3}  {clone_us:>9.1f} {sample_us:>17.1f} {belief}")


def search_compiled_rate(game: str, env: Any, positions: list[Any], spec: str, seconds: float) -> tuple[int, float]:
    """(rollouts, seconds) of the search agent ``spec`` over ``positions`` (each searched once, in order,
    the list repeated until ``seconds`` have passed), the agent built once and warmed up on the first."""
    from dixenv.agents.registry import make_agent

    raw = env.unwrapped
    agent = make_agent(game, spec, env, seed=0)

    def search(state: Any) -> int:
        raw.state, raw.agent_selection = state, f"player_{state.current_player()}"
        mask = np.zeros(agent._num_actions, dtype=np.int8)
        mask[state.legal_actions()] = 1
        agent.act({"observation": None, "action_mask": mask})
        return agent.last_search["iterations"]

    search(positions[0])  # numba's compile or cache load, and the batch's first allocation
    rollouts, start = 0, time.perf_counter()
    while True:
        for state in positions:
            rollouts += search(state)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return rollouts, elapsed


#: ``--search-compiled``: per game, its table and the pimc settings compared (the first: its defaults).
SEARCH_COMPILED = {
    "le_dix": ({"num_players": 4}, ("pimc:iterations=200", "pimc:iterations=200,rollout=random",
                                    "pimc:iterations=200,rollout=random,horizon=game,value=win", "ismcts:iterations=200"),
               "greedy to the end of the deal, points"),
    "dix": ({"num_players": 2}, ("pimc:iterations=200", "pimc:iterations=200,rollout=random", "pimc:iterations=200,value=win",
                                 "pimc:iterations=200,rollout=policy", "ismcts:iterations=200"),
            "greedy to the end of the game, margin"),
}


def print_search_compiled(seconds: float, seed: int, names: list[str], count: int = 24) -> None:
    """The ``--search-compiled`` table: rollouts/s of pimc and ismcts on the Python and the compiled engine,
    per game (``SEARCH_COMPILED``), over the same ``count`` decisions of random games (two legal moves or more)."""
    import importlib

    for name in [n for n in SEARCH_COMPILED if n in names]:
        options, settings_list, default = SEARCH_COMPILED[name]
        _, game = load_game(name)
        states = [s for s in search_positions(game, options, 8 * count, seed) if len(s.legal_actions()) > 1]
        positions = [states[i] for i in np.linspace(0, len(states) - 1, count).astype(int)]
        env = importlib.import_module(f"dixenv.{name}_v0").raw_env(**options)
        env.reset(seed=seed)
        print(f"search iterations (rollouts) per second, {name} {options}, {count} decisions of random games (every phase), "
              f"each searched once per pass, passes repeated for {seconds:g} s:")
        print(f"{'settings':<56} {'python /s':>10} {'compiled /s':>12} {'ratio':>7}")
        ratios = {}
        for settings in settings_list:
            rates = {}
            for engine in ("python", "compiled"):
                rollouts, elapsed = search_compiled_rate(name, env, positions, f"{settings},engine={engine}", seconds)
                rates[engine] = rollouts / elapsed
            ratios[settings] = rates["compiled"] / rates["python"]
            print(f"{settings:<56} {rates['python']:>10,.0f} {rates['compiled']:>12,.0f} {ratios[settings]:>6.1f}x")
        print(f"{name}: compiled pimc / python pimc iterations per second = {ratios[settings_list[0]]:.1f}x "
              f"(the default rollout: {default})")
        print(f"{name}: compiled ismcts / python ismcts iterations per second = {ratios[settings_list[-1]]:.1f}x")


# --- main -----------------------------------------------------------------------------------------


Spec = tuple[tuple[str, int, str], Callable[[float], tuple[int, int, float]]]


def measure_all(specs: list[Spec], seconds: float, rounds: int) -> list[Result]:
    """Run every measurement ``rounds`` times, interleaved, ``seconds / rounds`` each; keep each one's best round.

    Interleaving and best-of make the ratios robust to other load on the machine.
    """
    best: dict[int, Result] = {}
    failed: set[int] = set()
    for r in range(rounds):
        print(f"round {r + 1}/{rounds} ...", file=sys.stderr, flush=True)
        for i, (label, fn) in enumerate(specs):
            if i in failed:
                continue
            try:
                steps, games, secs = fn(seconds / rounds)
            except Exception as exc:  # a game being written may be broken; note it and carry on
                print(f"{label[0]} {label[1]} players {label[2]}: failed: {type(exc).__name__}: {exc}")
                failed.add(i)
                continue
            result = Result(*label, steps, games, secs)
            if i not in best or result.steps_per_s > best[i].steps_per_s:
                best[i] = result
    return [best[i] for i in sorted(best)]


def print_table(results: list[Result]) -> None:
    """The table: game, players, mode, steps/s, games/s, µs/step."""
    print(f"{'game':<14} {'n':>3}  {'mode':<13} {'steps/s':>11} {'games/s':>9} {'µs/step':>9}")
    for r in results:
        print(f"{r.game:<14} {r.players:>3}  {r.mode:<13} {r.steps_per_s:>11,.0f} {r.games_per_s:>9,.1f} {r.us_per_step:>9.1f}")


def main(argv: list[str] | None = None) -> int:
    """Parse options, run the measurements, print the table, the ratio and memory."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments.bench",
        description="Steps/s of random play for each dixenv game (engine, raw_env, env) and OpenSpiel's oh_hell.",
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement, split over the rounds (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per measurement; the best is kept (default 3)")
    parser.add_argument("--games", nargs="+", choices=dixenv.GAMES, default=list(dixenv.GAMES), help="games to measure (default: all that import)")
    parser.add_argument("--players", type=int, nargs="+", default=[3], help="player counts (default 3, like the oh_hell reference)")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel oh_hell reference")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory measurements (one env, bytes per vector slot)")
    parser.add_argument("--profile", metavar="GAME", choices=dixenv.GAMES, help="also print a cProfile of GAME's env() random play")
    parser.add_argument("--profile-top", type=int, default=25, help="lines of the profile to print (default 25)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the envs and the precomputed uniforms")
    parser.add_argument("--no-single", action="store_true", help="skip the single-env table (engine, raw_env, env) and memory")
    parser.add_argument("--compiled", action="store_true", help="add the compiled engines' table (needs the fast extra, numba)")
    parser.add_argument("--compiled-n", type=int, nargs="+", default=[64, 1024, 4096], metavar="N", help="batch sizes of --compiled (default 64 1024 4096)")
    vector = parser.add_argument_group("vector envs (--vector) and training (--train); both need the train extra")
    vector.add_argument("--vector", action="store_true", help="add the VectorEnv / SB3VecEnv / DummyVecEnv table and bytes per slot")
    vector.add_argument("--vector-ids", nargs="+", default=["dixenv/DixSolo-v0", "dixenv/LeDix-v0"], metavar="ID", help="single-agent ids (default DixSolo-v0 and LeDix-v0; versus ids get --players[0] seats and random opponents)")
    vector.add_argument("--num-envs", type=int, nargs="+", default=[1, 16, 64, 256], metavar="N", help="games per vector env (default 1 16 64 256)")
    vector.add_argument("--profile-vector", metavar="ID", help="also profile VectorEnv(ID) and DummyVecEnv random play at the largest N: time by part, top functions")
    vector.add_argument("--train", action="store_true", help="add the end-to-end MaskablePPO table")
    vector.add_argument("--train-id", default="dixenv/DixSolo-v0", metavar="ID", help="id to train on (default dixenv/DixSolo-v0)")
    vector.add_argument("--train-num-envs", type=int, nargs="+", default=[1, 16, 64], metavar="N", help="games per VecEnv (default 1 16 64)")
    vector.add_argument("--train-steps", type=int, default=8192, help="training steps per run (default 8192)")
    vector.add_argument("--train-rollout", type=int, default=2048, help="steps per rollout over all games (default 2048)")
    vector.add_argument("--torch-threads", type=int, default=1, help="torch.set_num_threads; 0 keeps torch's default (default 1: on a shared machine more threads thrash)")
    vector.add_argument("--train-compile", action="store_true",
                        help="also time selfplay with --compile (torch.compile of the loss; needs a C++ compiler)")
    vector.add_argument("--profile-train", action="store_true", help="also print a cProfile of the SB3VecEnv training run at the largest N")
    parser.add_argument("--plot", metavar="PNG", help="write a plot of le_dix decisions/s against N from this run's tables "
                        "(compiled engine, VectorEnv, DummyVecEnv; OpenSpiel's rl_environment and bare oh_hell as lines; needs matplotlib)")
    parser.add_argument("--search", action="store_true",
                        help="measure only what search pays per call: clone() and sample_hidden() of the seat to act")
    parser.add_argument("--search-compiled", action="store_true",
                        help="measure only pimc and ismcts iterations/s on the Python and the compiled engine (le_dix 4 players, "
                             "dix 2 players, as --games picks; the fast extra), --seconds per row and engine")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be > 0 and --rounds >= 1")
    if min(args.num_envs + args.train_num_envs) < 1 or args.train_steps < 1 or args.train_rollout < 1:
        parser.error("--num-envs, --train-num-envs, --train-steps and --train-rollout must be >= 1")
    if args.no_single:
        run_extra_tables(args)
        return 0

    if args.search:
        print_search_costs(args.games, args.players, args.rounds, args.seed)
        return 0
    if args.search_compiled:
        print_search_compiled(args.seconds, args.seed, args.games)
        return 0
    u, seed = uniforms(args.seed), args.seed
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}; {args.seconds:g} s per measurement, best of {args.rounds} interleaved rounds\n")
    from dixenv.compiled import has_numba
    from dixenv.games import game_spec

    loaded: dict[str, Any] = {}
    specs: list[Spec] = []
    for name in args.games:
        try:
            loaded[name] = module, game = load_game(name)
        except Exception as exc:
            print(f"{name}: skipped, its env module does not import ({type(exc).__name__}: {exc})")
            continue
        for n in args.players:
            options = {"num_players": n}
            try:
                game.make_config(**options)
            except ValueError as exc:
                print(f"{name} {n} players: skipped ({exc})")
                continue
            # Default arguments bind this iteration's values into each closure.
            specs.append(((name, n, "engine"), lambda s, g=game, o=options: run_engine(g, o, s, u, seed)))
            specs.append(((name, n, "raw_env"), lambda s, m=module, o=options: run_raw_env(m, o, s, u, seed)))
            specs.append(((name, n, "env"), lambda s, m=module, o=options: run_env(m, o, s, u, seed)))
            if name == "le_dix":  # like for like with OpenSpiel, which has no forced-move skipping
                o2 = {**options, "auto_forced": False}
                specs.append(((name, n, "env(af=0)"), lambda s, m=module, o=o2: run_env(m, o, s, u, seed)))
            if game_spec(name).compiled_state is not None and has_numba():
                o3 = {**options, "engine": "compiled"}
                specs.append(((name, n, "env(compiled)"), lambda s, m=module, o=o3: run_env(m, o, s, u, seed)))
    if not args.no_openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("OpenSpiel oh_hell: skipped, open_spiel is not installed (pip install open_spiel)")
        else:
            for n in args.players:
                if not 3 <= n <= 7:
                    print(f"OpenSpiel oh_hell {n} players: skipped (it takes 3 to 7 players)")
                    continue
                specs.append((("os oh_hell", n, "spiel"), lambda s, n=n: run_spiel(n, s, u, seed)))
                specs.append((("os oh_hell", n, "rl_env"), lambda s, n=n: run_spiel_rl_env(n, s, u, seed)))
    results = measure_all(specs, args.seconds, args.rounds)
    print_table(results)

    by_key = {(r.game, r.players, r.mode): r for r in results}
    ratios = []
    for n in args.players:
        ref = by_key.get(("os oh_hell", n, "rl_env"))
        for mode in ("env", "env(af=0)", "env(compiled)"):
            ours = by_key.get(("le_dix", n, mode))
            if ref and ours:
                ratios.append(f"  {n} players: le_dix {mode} / OpenSpiel rl_environment = {ours.steps_per_s / ref.steps_per_s:.2f}x steps/s")
    if ratios:
        print("\nratio (project target >= 10x):")
        print("\n".join(ratios))

    if not args.no_memory and loaded:
        print("\nmemory of one env() (tracemalloc; held after env() + reset, peak while playing one random game):")
        for name, (module, _) in loaded.items():
            try:
                held, peak = env_peak_memory(module, {"num_players": args.players[0]}, args.seed)
            except Exception as exc:
                print(f"  {name}: failed: {type(exc).__name__}: {exc}")
                continue
            print(f"  {name:<14} {args.players[0]} players: held {held:8.1f} KiB, peak {peak:8.1f} KiB")
    print(f"process max RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB (everything imported, OpenSpiel included)")

    if args.profile:
        if args.profile in loaded:
            profile_env(loaded[args.profile][0], {"num_players": args.players[0]}, args.seconds, args.seed, args.profile_top)
        else:
            print(f"\nprofile of {args.profile} skipped: not loaded")
    run_extra_tables(args, results)
    return 0


def run_extra_tables(args: argparse.Namespace, results: list[Result] | None = None) -> None:
    """The compiled, vector and training tables and profiles, when asked for; then the plot (``--plot``)."""
    results = list(results or [])
    if args.compiled:
        results += run_compiled(args)
    if args.vector or args.profile_vector or args.train or args.profile_train:
        try:
            import sb3_contrib  # noqa: F401
        except ImportError:
            print("\nvector and training tables: skipped, they need the train extra (torch, stable-baselines3, sb3-contrib)")
        else:
            _vector_and_training(args, results)
    if args.plot:
        plot_speed(args.plot, results)


def _vector_and_training(args: argparse.Namespace, results: list[Result]) -> None:
    if args.vector:
        results += run_vector(args)
    if args.profile_vector:
        profile_vector(args)
    if args.train or args.profile_train:
        run_train(args)


if __name__ == "__main__":
    sys.exit(main())
