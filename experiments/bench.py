"""Steps per second of random play for every dixenv game, beside OpenSpiel's ``oh_hell``.

Run ``python -m experiments.bench`` (``--help`` for options). For each game that imports
(``dixenv.<game>_v0`` for the games in ``dixenv.GAMES``), three ways:

* ``engine``   the rules engine alone: ``legal_actions()`` / ``apply_action()``; every action counts
               as a step, forced ones included;
* ``raw_env``  ``raw_env()`` with ``observe()`` (observation + mask) every step; the move is drawn
               from the mask;
* ``env``      ``env()`` (PettingZoo classic wrappers) with ``last()`` every step; the move is drawn
               from the mask. With ``auto_forced=True`` (the default) forced moves are played
               inside the env and are not steps; ``env(af=0)`` is the same with ``auto_forced=False``.

and OpenSpiel's ``oh_hell`` (num_tricks_fixed=10, i.e. one 10-card deal) two ways: ``spiel`` bare
``legal_actions()`` / ``apply_action()`` (chance nodes drawn from ``chance_outcomes()``, not counted
as steps) and ``rl_env``, ``open_spiel.python.rl_environment.Environment`` stepping on
``time_step.observations["legal_actions"][player]`` (it computes every player's information-state
tensor each step). Random choice reads precomputed uniform floats (``legal[int(u * len(legal))]``)
so the rng costs next to nothing; the env modes pay ``np.flatnonzero(mask)`` (~1 µs), as an agent would.

Each measurement runs ``--rounds`` times, interleaved with the others, and keeps its best round, so
the ratios hold up when the machine is shared. Then: the le_dix env() / OpenSpiel rl_environment
ratio (target >= 5x), tracemalloc memory of one env() and the process max RSS; ``--profile le_dix``
adds a cProfile of env() random play.

``--search`` measures instead what the search agents (``agents/search.py``) pay per call, for each
game and ``--players`` count: ``clone()`` and ``sample_hidden(seat to act)`` over 400 positions of
random games, best of ``--rounds`` passes.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
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
    flatnonzero = np.flatnonzero
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
        legal = flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(legal[int(u[steps & mask] * len(legal))]))
        steps += 1
        if not steps & 1023 and time.perf_counter() > deadline:
            return steps, games, time.perf_counter() - start


def run_env(module: Any, options: dict, seconds: float, u: list[float], seed: int) -> tuple[int, int, float]:
    """Random play on ``env()`` (classic wrappers) with ``last()`` every step."""
    env = module.env(**options)
    env.reset(seed=seed)
    flatnonzero = np.flatnonzero
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
        legal = flatnonzero(obs["action_mask"])
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
    """``(dixenv.<name>_v0, GAME)``; raises whatever the import raises."""
    module = importlib.import_module(f"dixenv.{name}_v0")
    game = importlib.import_module(f"dixenv.games.{name}.game").GAME
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


def search_costs(game: Any, options: dict, rounds: int, seed: int, count: int = 400) -> tuple[float, float]:
    """(µs per ``clone()``, µs per ``sample_hidden(seat to act)``), best of ``rounds`` passes over the same positions."""
    states = search_positions(game, options, count, seed)
    rng = np.random.default_rng(seed)
    clone_best = sample_best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for state in states:
            state.clone()
        t1 = time.perf_counter()
        for state in states:
            state.sample_hidden(state.current_player(), rng)
        t2 = time.perf_counter()
        clone_best = min(clone_best, (t1 - t0) / len(states))
        sample_best = min(sample_best, (t2 - t1) / len(states))
    return 1e6 * clone_best, 1e6 * sample_best


def print_search_costs(names: list[str], players: list[int], rounds: int, seed: int) -> None:
    """The ``--search`` table: per game and player count, µs per clone() and per sample_hidden()."""
    print(f"{'game':<14} {'n':>3}  {'clone µs':>9} {'sample_hidden µs':>17}   (per call, over 400 random-game positions, best of {rounds})")
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
            clone_us, sample_us = search_costs(game, {"num_players": n}, rounds, seed)
            print(f"{name:<14} {n:>3}  {clone_us:>9.1f} {sample_us:>17.1f}")


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
    print(f"{'game':<14} {'n':>3}  {'mode':<9} {'steps/s':>11} {'games/s':>9} {'µs/step':>9}")
    for r in results:
        print(f"{r.game:<14} {r.players:>3}  {r.mode:<9} {r.steps_per_s:>11,.0f} {r.games_per_s:>9,.1f} {r.us_per_step:>9.1f}")


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
    parser.add_argument("--no-memory", action="store_true", help="skip the memory measurement")
    parser.add_argument("--profile", metavar="GAME", choices=dixenv.GAMES, help="also print a cProfile of GAME's env() random play")
    parser.add_argument("--profile-top", type=int, default=25, help="lines of the profile to print (default 25)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the envs and the precomputed uniforms")
    parser.add_argument("--search", action="store_true",
                        help="measure only what search pays per call: clone() and sample_hidden() of the seat to act")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be > 0 and --rounds >= 1")

    if args.search:
        print_search_costs(args.games, args.players, args.rounds, args.seed)
        return 0
    u, seed = uniforms(args.seed), args.seed
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}; {args.seconds:g} s per measurement, best of {args.rounds} interleaved rounds\n")
    loaded: dict[str, Any] = {}
    specs: list[Spec] = []
    for name in args.games:
        try:
            loaded[name] = module, game = load_game(name)
        except Exception as exc:
            print(f"{name}: skipped, dixenv.{name}_v0 does not import ({type(exc).__name__}: {exc})")
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
        for mode in ("env", "env(af=0)"):
            ours = by_key.get(("le_dix", n, mode))
            if ref and ours:
                ratios.append(f"  {n} players: le_dix {mode} / OpenSpiel rl_environment = {ours.steps_per_s / ref.steps_per_s:.2f}x steps/s")
    if ratios:
        print("\nratio (project target >= 5x):")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
