"""Soak test: many games of every game and configuration, every invariant checked after every move.

    python -m experiments.soak --games 100000 --workers 2            # 100,000 games of each game
    python -m experiments.soak --games 2000 --game le_dix --seed 7
    python -m experiments.soak --replay results/soak_failure_0.json  # replay a failure, move by move
    python -m experiments.soak --tally docs/soak/*.json              # add up runs made with distinct seeds
    python -m experiments.soak --compiled --games 100000 --workers 2 # the compiled engines against the reference
    python -m experiments.soak --compiled-env --games 5000           # env() against env(engine="compiled")

A long record run can be made in parts: runs with distinct ``--seed`` values play distinct games
(every reset seed is derived from the master seed), and ``--tally`` adds up their summaries,
refusing a repeated seed.

Each game's games are spread over its configurations (every player count, every variant, solo at
every difficulty, both ``auto_forced`` settings, both reward modes). Moves are random legal ones;
in dix_de_suite, where random play never sorts a rack, seats mostly play a simple sorting rule
(and, in some games, the real heuristic agent) with random moves mixed in, so rounds end and score.

After every move (every ``raw_env.step``) these are checked:

* the engine's own invariants (``state.check_invariants()``: cards conserved, counts in range, …);
* the acting seat's observation is finite and within the observation space's bounds, and its mask is
  the legal actions (two or more of them when the environment plays forced moves);
* the public/hidden split: the acting seat's observation and legal actions are unchanged on
  ``state.sample_hidden(seat, rng)`` (a world redrawn from what it may know), whose invariants hold;
* every ``FULL_CHECK_EVERY`` moves, at the start and at the end: every seat's observation (bounds,
  all-zero masks for the seats not to act) and a ``state.clone()`` giving the same view;
* rewards: "win" rewards are 0 until the end, then in [-1, 1] and summing to 0; "points" rewards
  add up to each seat's final score.

A failure prints the configuration, the reset seed and the move list, and writes them to a JSON
file that ``--replay`` plays again with the same checks, so any failure can be reproduced exactly.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from dixenv.experiments.progress import progress_bar
from dixenv.experiments.workers import worker_pool



def __getattr__(name: str) -> Any:
    """``GAMES``: the registered games (``dixenv.games.game_names()``), in the soak's order."""
    if name == "GAMES":
        return _games()
    raise AttributeError(f"module 'dixenv.experiments.soak' has no attribute {name!r}")


def _games() -> tuple[str, ...]:
    from dixenv.games import game_names

    # The three library games keep the order their seeds were planned in (recorded soaks replay).
    order = ("le_dix", "dix_de_suite", "dix")
    names = game_names()
    return tuple(g for g in order if g in names) + tuple(g for g in names if g not in order)
#: Every this many moves (and at the start and the end of every game) every seat's observation and
#: a clone are checked too; the acting seat, the engine's invariants and a hidden-world sample are
#: checked after every move.
FULL_CHECK_EVERY = 8


@dataclass(frozen=True)
class Config:
    """One configuration to soak: the game, its options, and how seats choose their moves."""

    game: str
    options: tuple[tuple[str, Any], ...]
    policy: str = "random"  # "random", "heuristic" or a game's soak policy (with random moves mixed in)
    weight: float = 1.0  # share of the game's games (relative to its other configurations)

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.options)

    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.game}[{opts}]" + ("" if self.policy == "random" else f"/{self.policy}")


def _cfg(game: str, policy: str = "random", weight: float = 1.0, **options: Any) -> Config:
    return Config(game, tuple(sorted(options.items())), policy, weight)


def configurations(game: str) -> list[Config]:
    """Every configuration soaked for ``game`` (its spec's ``soak_configs()``)."""
    from dixenv.games import game_spec

    spec = game_spec(game)
    return [_cfg(spec.name, c.policy, c.weight, **c.options) for c in spec.soak_configs()]


def plan(games: dict[str, int], seed: int) -> list[tuple[Config, int]]:
    """(configuration, reset seed) for every game: each game's count spread over its configurations by weight."""
    from dixenv.experiments.tournament import derive_seed

    out: list[tuple[Config, int]] = []
    for g_index, (game, count) in enumerate(games.items()):
        configs = configurations(game)
        weights = np.array([c.weight for c in configs], dtype=float)
        shares = np.floor(count * weights / weights.sum()).astype(int)
        shares[: count - shares.sum()] += 1  # the remainder, one each to the first configurations
        for c_index, (config, k) in enumerate(zip(configs, shares)):
            out += [(config, derive_seed(seed, g_index, c_index, i)) for i in range(k)]
    return out


# --------------------------------------------------------------------------------------------
# moves


class Mover:
    """Chooses the moves of one soak game (harness code: it may read the engine's state)."""

    def __init__(self, config: Config, env: Any, seed: int):
        self.rng = np.random.default_rng(seed)
        self.policy = config.policy
        self.game = config.game
        self.agent = None
        if self.policy == "heuristic":
            from dixenv.agents.registry import make_agent

            self.agent = make_agent(config.game, "heuristic", env, seed=seed)

    def __call__(self, env: Any) -> int:
        legal = env.unwrapped.legal_actions()
        if self.policy == "random" or self.rng.random() < 0.25:
            return int(legal[self.rng.integers(len(legal))])
        if self.agent is not None:
            return int(self.agent.act(env.observe(env.agent_selection)))
        return soak_move(self.game, self.policy, env.unwrapped.state)


def soak_move(game: str, policy: str, state: Any) -> int:
    """The move of a game's soak policy ``policy`` (its spec's ``soak_policies``) in ``state``."""
    from dixenv.games import game_spec, load

    policies = game_spec(game).soak_policies
    if policy not in policies:
        raise ValueError(f"soak policy {policy!r} is not one of {game}'s: random, heuristic, {', '.join(policies) or '(none)'}")
    return int(load(policies[policy])(state))


def sorting_move(state: Any) -> int:
    """dix_de_suite: put every card in the slot of its tenth of the deck (a rack so filled is ascending).

    With ``two_player_run`` a card that lengthens a run of an ascending rack is taken too, so that
    rounds can end. Harness code: reads the engine's state.
    """
    from dixenv.games.dix_de_suite import actions as A
    from dixenv.games.dix_de_suite.scoring import is_ascending, longest_run
    from dixenv.games.dix_de_suite.state import PHASE_SOURCE

    d = state.config.deck_size
    rack = state.racks[state.current_player()]

    def band(card: int) -> int:
        return min(9, (card - 1) * 10 // d)

    def run_slot(card: int) -> int:
        if not state.config.two_player_run or not is_ascending(rack):
            return -1
        best = longest_run(rack)
        for k in range(10):
            trial = rack[:k] + [card] + rack[k + 1 :]
            if is_ascending(trial) and longest_run(trial) > best:
                return k
        return -1

    if state.phase == PHASE_SOURCE:
        top = state.discard[-1]
        good = band(rack[band(top)]) != band(top) or run_slot(top) >= 0
        return A.TAKE_DISCARD if good else A.DRAW
    k = run_slot(state.held)
    if k >= 0:
        return A.swap_action(k + 1)
    slot = band(state.held)
    if state.held_from_discard or band(rack[slot]) != slot:
        return A.swap_action(slot + 1)
    return A.DISCARD


# --------------------------------------------------------------------------------------------
# checks


class SoakFailure(AssertionError):
    """An invariant broke; ``moves`` is the move list (action ids) that leads there from the reset."""


@dataclass
class Checker:
    """The checks made after every move of one game."""

    env: Any
    rng: np.random.Generator
    totals: dict[str, float] = field(default_factory=dict)
    moves: int = 0

    def start(self) -> None:
        self.totals = dict.fromkeys(self.env.possible_agents, 0.0)
        self.moves = -1  # the position after the reset is checked in full
        self.after_move()

    def after_move(self) -> None:
        env = self.env
        u = env.unwrapped
        u.state.check_invariants()
        to_act = env.agent_selection
        over = not env.agents or env.terminations[to_act] or env.truncations[to_act]
        self.moves += 1
        everyone = over or self.moves % FULL_CHECK_EVERY == 0
        truth = None
        for agent in env.agents:
            acting = agent == to_act and not over
            if not (acting or everyone):
                continue
            obs = env.observe(agent)
            self._check_observation(u, agent, obs, acting)
            if acting:
                truth = obs["observation"]
        for agent in env.agents:
            self.totals[agent] += env.rewards[agent]
        if u.reward_mode == "win" and not over:
            assert all(r == 0 for r in env.rewards.values()), "win rewards before the end"
        if not over:
            seat = u._seat_of[to_act]
            self._check_same_view(u, to_act, truth, u.state.sample_hidden(seat, self.rng), "sample_hidden")
            if everyone:
                self._check_same_view(u, to_act, truth, u.state.clone(), "clone")

    @staticmethod
    def _check_observation(u: Any, agent: str, obs: dict[str, np.ndarray], acting: bool) -> None:
        bad = u.layout.out_of_bounds(obs["observation"])
        assert not bad, f"{agent}'s observation is out of its bounds in {bad}"
        mask = obs["action_mask"]
        assert mask.dtype == np.int8, "masks are int8"
        if acting:
            legal = sorted(u.legal_actions())
            assert sorted(np.flatnonzero(mask).tolist()) == legal, f"{agent}'s mask is not its legal actions"
            assert len(legal) >= (2 if u.auto_forced else 1), f"{agent} was asked to play a forced move"
        else:
            assert not mask.any(), f"{agent} has a non-zero mask but is not to act"

    @staticmethod
    def _check_same_view(u: Any, agent: str, truth: np.ndarray, other: Any, what: str) -> None:
        """``other`` (a sample or a clone) must give ``agent`` the same observation and legal actions."""
        seat = u._seat_of[agent]
        other.check_invariants()
        observer = u._observer
        observer.set_from(other, seat)
        diff = np.flatnonzero(observer.tensor != truth)
        if len(diff):
            layout = u.layout
            pieces = sorted({p.name for p in layout.pieces if ((diff >= layout.slices[p.name].start) & (diff < layout.slices[p.name].stop)).any()})
            raise AssertionError(f"{what}({seat}) changes {agent}'s observation in {pieces}")
        assert list(other.legal_actions()) == list(u.state.legal_actions()), f"{what}({seat}) changes {agent}'s legal actions"

    def finish(self) -> None:
        env = self.env
        u = env.unwrapped
        state = u.state
        assert state.is_terminal() or state.is_truncated(), "the game stopped before its end"
        assert all(env.terminations[a] or env.truncations[a] for a in env.agents), "not every agent is done"
        if u.reward_mode == "win":
            results = [self.totals[a] for a in env.possible_agents]
            assert all(-1 <= r <= 1 for r in results), f"win rewards out of [-1, 1]: {results}"
            if state.is_terminal() and len(results) == state.num_seats:
                assert abs(sum(results)) < 1e-9, f"win rewards do not sum to 0: {results}"
        else:
            scores = u.scores()
            for a in env.possible_agents:
                assert math.isclose(self.totals[a], scores[u._seat_of[a]]), f"{a}'s points rewards do not add up to its score"


def make_env(config: Config) -> Any:
    """The raw env of a configuration."""
    from dixenv.games import game_spec

    return importlib.import_module(game_spec(config.game).env_module).raw_env(**config.kwargs)


def play_one(config: Config, seed: int, env: Any | None = None, moves: list[int] | None = None) -> tuple[int, list[int]]:
    """Play (or, given ``moves``, replay) one game with every check; return (moves played, move list).

    Raises ``SoakFailure`` carrying the move list when a check fails.
    """
    env = env if env is not None else make_env(config)
    env.reset(seed=seed)
    checker = Checker(env, np.random.default_rng(seed + 1))
    mover = None if moves is not None else Mover(config, env, seed + 2)
    played: list[int] = []
    try:
        checker.start()
        while env.agents and not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            if moves is not None:
                if len(played) == len(moves):
                    break
                action = moves[len(played)]
            else:
                action = mover(env)
            played.append(int(action))
            env.step(action)
            checker.after_move()
        if moves is None or not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            checker.finish()  # a replay of a failure found mid-game stops where the failure was
    except Exception as exc:  # any error is a failure to report, with the moves that lead to it
        failure = SoakFailure(f"{type(exc).__name__}: {exc}")
        failure.moves = played
        failure.detail = traceback.format_exc()
        raise failure from exc
    return len(played), played


# --------------------------------------------------------------------------------------------
# the compiled engine against the reference, step for step

#: Env options that are not the game's: the compiled check plays engines, not envs.
ENV_ONLY = ("reward", "auto_forced")


def compare_compiled(config: Config, seeds: list[int]) -> tuple[int, list[dict[str, Any]]]:
    """Play ``seeds``' games on the compiled batch and on the reference engine side by side; (moves, failures).

    Slot i is the reference game of ``seeds[i]`` (its generator row is ``default_rng(seeds[i])``);
    both get the same moves (chosen on the reference state by the configuration's policy, from a
    generator of the slot's own seed, so one slot's game replays alone). After every move: the
    player to act, the mask against the legal actions, the acting seat's observation bit for bit,
    scores and the end; every ``FULL_CHECK_EVERY`` moves and at the end every seat's observation.
    """
    from dixenv.compiled.rng import seed_rows, rng_rows
    from dixenv.compiled.vector import _batch_class
    from dixenv.core.aec import play_forced
    from dixenv.games import game_spec

    module = importlib.import_module(game_spec(config.game).env_module)
    # The heuristic agent reads the AEC env's observations: here its configurations play the game's
    # first state policy (dix_de_suite's sorting moves) instead, as the recorded soaks did.
    policies = list(game_spec(config.game).soak_policies)
    state_policy = config.policy if config.policy in policies or not policies else policies[0]
    options = {k: v for k, v in config.kwargs.items() if k not in ENV_ONLY}
    forced = config.kwargs.get("auto_forced", True)
    env = module.raw_env(**options)
    game, cfg = env.game, env.config
    n = len(seeds)
    batch = _batch_class(config.game)(cfg, n)
    batch.new_games(np.arange(n), seed_rows(seeds))
    generators = [np.random.default_rng(s) for s in seeds]  # each reference game's (dix's state keeps none)
    refs = [game.new_state(cfg, rng, {}, None) for rng in generators]
    movers = [np.random.default_rng(s + 2) for s in seeds]
    played: list[list[int]] = [[] for _ in seeds]
    observer = game.make_observer(cfg)
    if forced:
        batch.play_forced()
        for ref in refs:
            play_forced(ref, None)
    failures: list[dict[str, Any]] = []
    alive = list(range(n))
    moves = 0
    truncated = batch.truncated if hasattr(batch, "truncated") else None

    def check(step: int, every_seat: bool) -> None:
        current, masks, scores, over = batch.current_players(), batch.masks(), batch.scores(), batch.terminal()
        cut = truncated() if truncated is not None else np.zeros(n, dtype=bool)
        # Each seat's view of every slot, written once when first needed; "acting" is the player to act's.
        views: dict[int, np.ndarray] = {}
        acting = batch.observe(np.maximum(current, 0))

        def view(s: int, i: int) -> np.ndarray:
            if current[i] == s:
                return acting[i]
            if s not in views:
                views[s] = batch.observe(np.full(n, s))
            return views[s][i]

        for i in list(alive):
            ref = refs[i]
            seat = ref.current_player()
            seats = range(ref.num_seats) if every_seat or seat < 0 else [seat]
            problems = []
            if current[i] != seat:
                problems.append(f"player to act {current[i]} != {seat}")
            if np.flatnonzero(masks[i]).tolist() != ref.legal_actions():
                problems.append("mask != legal actions")
            if scores[i].tolist() != list(ref.scores()):
                problems.append(f"scores {scores[i].tolist()} != {list(ref.scores())}")
            if bool(over[i]) != ref.is_terminal() or bool(cut[i]) != ref.is_truncated():
                problems.append("end differs")
            for s in seats:
                observer.set_from(ref, s)
                row = view(s, i)
                if not np.array_equal(row, observer.tensor):
                    bad = [p.name for p in observer.layout.pieces
                           if not np.array_equal(row[observer.layout.slices[p.name]], observer.tensor[observer.layout.slices[p.name]])]
                    problems.append(f"seat {s}'s observation differs in {bad}")
            if problems:
                failures.append({"game": config.game, "options": config.kwargs, "policy": config.policy, "seed": seeds[i],
                                 "compiled": True, "moves": played[i], "error": "; ".join(problems)})
                alive.remove(i)

    check(0, True)
    step = 0
    while alive:
        actions = np.full(n, -1, dtype=np.int64)
        for i in list(alive):
            ref = refs[i]
            if ref.current_player() < 0:
                alive.remove(i)
                continue
            legal = ref.legal_actions()
            if config.policy != "random" and movers[i].random() >= 0.25:
                actions[i] = soak_move(config.game, state_policy, ref)
            else:
                actions[i] = legal[movers[i].integers(len(legal))]
            ref.apply_action(int(actions[i]))
            played[i].append(int(actions[i]))
            if forced:
                play_forced(ref, None)
            moves += 1
        if not alive:
            break
        step += 1
        batch.apply(actions)
        if forced:
            batch.play_forced()
        check(step, step % FULL_CHECK_EVERY == 0 or all(refs[i].current_player() < 0 for i in alive))
    for i, rng in enumerate(generators):  # the next game of each generator starts in the same place
        if not any(f["seed"] == seeds[i] for f in failures) and rng_rows([rng])[0].tolist() != batch.rng[i].tolist():
            failures.append({"game": config.game, "options": config.kwargs, "policy": config.policy, "seed": seeds[i],
                             "compiled": True, "moves": played[i], "error": "generator state differs at the end"})
    return moves, failures


def _run_compiled_chunk(chunk: list[tuple[Config, int]]) -> dict[str, Any]:
    """Worker: the chunk's games, grouped by configuration into compiled batches of up to 64 slots.

    The kernels run on one thread: the soak's parallelism is its worker processes, and parallel
    kernels in several processes on the same cores wait on each other's threads (measured: a
    dix_de_suite batch call took 13 ms instead of tens of µs beside a 2-worker soak). The games do
    not depend on the thread count (tests/compiled).
    """
    import numba

    numba.set_num_threads(1)
    games: dict[str, int] = {}
    moves: dict[str, int] = {}
    failures: list[dict[str, Any]] = []
    by_config: dict[Config, list[int]] = {}
    for config, seed in chunk:
        by_config.setdefault(config, []).append(seed)
    for config, seeds in by_config.items():
        for k in range(0, len(seeds), 64):
            part = seeds[k : k + 64]
            n, fails = compare_compiled(config, part)
            games[config.game] = games.get(config.game, 0) + len(part)
            moves[config.game] = moves.get(config.game, 0) + n
            failures += fails
    return {"games": games, "moves": moves, "failures": failures}


def compare_env(config: Config, seed: int, python: Any, compiled: Any) -> tuple[int, list[int], str | None]:
    """One game on ``env()`` and ``env(engine="compiled")`` side by side (both wrapped); (moves, move list, error).

    The same moves in both, chosen on the Python env by the configuration's ``Mover``. After every
    move: the agent to act, ``last()`` (observation bit for bit, mask, reward, termination,
    truncation, info), ``rewards`` and ``_cumulative_rewards``; every ``FULL_CHECK_EVERY`` moves and
    at the end every agent's observation; then the dead agents' steps and the agents left.
    """
    python.reset(seed=seed)
    compiled.reset(seed=seed)
    mover = Mover(config, python, seed + 1)
    played: list[int] = []

    def differ() -> str | None:
        a, b = python.last(), compiled.last()
        if python.agent_selection != compiled.agent_selection:
            return f"agent to act {python.agent_selection} != {compiled.agent_selection}"
        for key in ("observation", "action_mask"):
            if not np.array_equal(a[0][key], b[0][key]):
                return f"{key} of {python.agent_selection} differs"
        if a[1:] != b[1:] or python.rewards != compiled.rewards or python._cumulative_rewards != compiled._cumulative_rewards:
            return f"last() {a[1:]} != {b[1:]} or the rewards differ"
        if len(played) % FULL_CHECK_EVERY == 0 or a[2] or a[3]:
            for agent in python.agents:
                if not np.array_equal(python.observe(agent)["observation"], compiled.observe(agent)["observation"]):
                    return f"observation of {agent} differs"
        return None

    while True:
        error = differ()
        if error:
            return len(played), played, error
        _, _, term, trunc, _ = python.last()
        if term or trunc:
            break
        action = mover(python)
        python.step(action)
        compiled.step(action)
        played.append(action)
    while python.agents:
        python.step(None)
        compiled.step(None)
        if python.agents != compiled.agents:
            return len(played), played, f"agents after the dead steps {python.agents} != {compiled.agents}"
    return len(played), played, None


def _run_env_chunk(chunk: list[tuple[Config, int]]) -> dict[str, Any]:
    """Worker: the chunk's games on the Python and the compiled single env side by side (``compare_env``)."""
    from dixenv.games import game_spec

    envs: dict[Config, tuple[Any, Any]] = {}
    games: dict[str, int] = {}
    moves: dict[str, int] = {}
    failures: list[dict[str, Any]] = []
    for config, seed in chunk:
        if config not in envs:
            module = importlib.import_module(game_spec(config.game).env_module)
            envs[config] = module.env(**config.kwargs), module.env(engine="compiled", **config.kwargs)
        n, played, error = compare_env(config, seed, *envs[config])
        games[config.game] = games.get(config.game, 0) + 1
        moves[config.game] = moves.get(config.game, 0) + n
        if error:
            failures.append({"game": config.game, "options": config.kwargs, "policy": config.policy, "seed": seed,
                             "compiled_env": True, "moves": played, "error": error})
    return {"games": games, "moves": moves, "failures": failures}


# --------------------------------------------------------------------------------------------
# running many games


def _run_chunk(chunk: list[tuple[Config, int]]) -> dict[str, Any]:
    """Worker: play a chunk of games; counts per game and the failures (config, seed, moves, error)."""
    envs: dict[Config, Any] = {}
    games: dict[str, int] = {}
    moves: dict[str, int] = {}
    failures: list[dict[str, Any]] = []
    for config, seed in chunk:
        env = envs.get(config)
        if env is None:
            env = envs[config] = make_env(config)
        games[config.game] = games.get(config.game, 0) + 1
        try:
            n, _ = play_one(config, seed, env)
        except SoakFailure as fail:
            n = len(fail.moves)
            failures.append({"game": config.game, "options": config.kwargs, "policy": config.policy, "seed": seed,
                             "moves": fail.moves, "error": str(fail), "traceback": fail.detail})
        moves[config.game] = moves.get(config.game, 0) + n
    return {"games": games, "moves": moves, "failures": failures}


def run(games: dict[str, int], seed: int = 0, workers: int = 1, progress: bool = True,
        on_failure: Callable[[dict[str, Any]], None] | None = None, compiled: bool = False,
        compiled_env: bool = False) -> dict[str, Any]:
    """Soak ``games`` (game -> number of games); the totals per game, the failures and the time.

    ``compiled``: instead of the checks of one engine, play every game on the compiled engine and
    on the reference side by side (``compare_compiled``); ``compiled_env``: on ``env()`` and
    ``env(engine="compiled")`` side by side (``compare_env``).
    """
    work = _run_env_chunk if compiled_env else _run_compiled_chunk if compiled else _run_chunk
    tasks = plan(games, seed)
    rng = np.random.default_rng(seed)
    tasks = [tasks[i] for i in rng.permutation(len(tasks))]  # mix configurations across chunks
    size = max(1, min(200, math.ceil(len(tasks) / (max(workers, 1) * 20))))
    chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
    totals = {"games": dict.fromkeys(games, 0), "moves": dict.fromkeys(games, 0), "failures": []}
    start = time.perf_counter()
    bar = progress_bar(len(tasks), progress, unit="game", desc="soak", smoothing=0.05)

    def add(part: dict[str, Any]) -> None:
        for key in ("games", "moves"):
            for game, k in part[key].items():
                totals[key][game] += k
        for fail in part["failures"]:
            totals["failures"].append(fail)
            if on_failure is not None:
                on_failure(fail)
        bar.update(sum(part["games"].values()))
        bar.set_postfix(failures=len(totals["failures"]))

    try:
        if workers <= 1:
            for chunk in chunks:
                add(work(chunk))
        else:
            with worker_pool(workers) as pool:
                for part in pool.imap_unordered(work, chunks):
                    add(part)
    finally:
        bar.close()
    totals["seconds"] = time.perf_counter() - start
    return totals


def replay(record: dict[str, Any]) -> str | None:
    """Replay a failure record (its moves from its reset seed) with every check; the error, or None if it passes."""
    policy = record.get("policy", "random")
    config = Config(record["game"], tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in record["options"].items())), policy)
    if record.get("compiled"):  # a compiled-engine mismatch: the slot's game again, alone
        _, fails = compare_compiled(config, [int(record["seed"])])
        return fails[0]["error"] if fails else None
    if record.get("compiled_env"):  # env() against env(engine="compiled"): the same game again (its moves are seeded)
        from dixenv.games import game_spec

        module = importlib.import_module(game_spec(config.game).env_module)
        _, _, error = compare_env(config, int(record["seed"]), module.env(**config.kwargs),
                                  module.env(engine="compiled", **config.kwargs))
        return error
    try:
        play_one(config, int(record["seed"]), moves=[int(a) for a in record["moves"]])
    except SoakFailure as fail:
        return str(fail)
    return None


def describe(fail: dict[str, Any]) -> str:
    """A failure as text: what broke, and the configuration, seed and moves that reproduce it."""
    return (
        f"FAILURE in {fail['game']} {fail['options']} (policy {fail['policy']}), reset seed {fail['seed']}, "
        f"after {len(fail['moves'])} moves:\n  {fail['error']}\n  moves: {fail['moves']}"
    )


def tally(paths: list[str]) -> str:
    """The games, moves, failures and time of several runs' summaries, added up, as a table.

    Raises ``ValueError`` if two summaries share a master seed (they would count the same games twice).
    """
    runs = [(path, json.loads(Path(path).read_text())) for path in paths]
    seen: dict[int, str] = {}
    for path, run_ in runs:
        seed = int(run_["seed"])
        if seed in seen:
            raise ValueError(f"--tally: {path} and {seen[seed]} both have seed {seed}; a game would be counted twice")
        seen[seed] = path
    games: dict[str, int] = {}
    moves: dict[str, int] = {}
    for _, run_ in runs:
        for game, k in run_["games"].items():
            games[game] = games.get(game, 0) + k
            moves[game] = moves.get(game, 0) + run_["moves"][game]
    lines = [f"{'game':<14}{'games':>10}{'moves':>14}"]
    lines += [f"{game:<14}{games[game]:>10,}{moves[game]:>14,}" for game in games]
    failures = sum(int(r["failures"]) for _, r in runs)
    seconds = sum(float(r["seconds"]) for _, r in runs)
    commits = sorted({r.get("commit") or "unknown" for _, r in runs})
    lines.append(f"failures: {failures}; {len(runs)} run(s), seeds {', '.join(str(s) for s in sorted(seen))}; "
                 f"{seconds:.0f} s in all; commit(s) {', '.join(commits)}")
    return "\n".join(lines)


def _git(args: list[str], where: Path) -> str | None:
    import subprocess

    try:
        out = subprocess.run(["git", *args], cwd=where, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def _commit() -> str | None:
    """The git commit of the code that runs (recorded in a run's summary): ``abc1234``, with
    ``+dirty`` if tracked files differ from it; if the engines (``dixenv``), the agents and this
    tool come from different checkouts (an editable install of one checkout used from another),
    each one's, named. None outside git."""
    import dixenv
    import dixenv.agents

    where = {"dixenv": Path(dixenv.__file__).parent, "dixenv.agents": Path(dixenv.agents.__file__).parent,
             "experiments": Path(__file__).parent}
    checkouts: dict[str, list[str]] = {}  # top folder -> the parts that come from it
    for name, folder in where.items():
        top = _git(["rev-parse", "--show-toplevel"], folder)
        if top is None:
            return None
        checkouts.setdefault(top, []).append(name)
    commits: dict[str, str] = {}
    for top in checkouts:
        commit = _git(["rev-parse", "--short", "HEAD"], Path(top))
        if commit is None:
            return None
        commits[top] = commit + ("+dirty" if _git(["status", "--porcelain", "--untracked-files=no"], Path(top)) else "")
    if len(checkouts) == 1:
        return next(iter(commits.values()))
    return "; ".join(f"{commits[top]} ({top}): {', '.join(names)}" for top, names in checkouts.items())


def main(argv: list[str] | None = None) -> int:
    """Run the command line; exit status 0 when every game passed, 1 on any failure."""
    p = argparse.ArgumentParser(prog="python -m experiments.soak", description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000, help="games of each game (default 1000; the record run of 100,000: see README)")
    p.add_argument("--game", action="append", choices=_games(), help="soak only this game (repeatable; default every registered game)")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--out", default="results/soak", help="folder for failure records and the summary (default results/soak)")
    p.add_argument("--replay", metavar="FILE", help="replay one failure record (JSON) and report whether it still fails")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--compiled", action="store_true",
                   help="play every game on the compiled engine and the reference side by side (games with a compiled engine)")
    p.add_argument("--compiled-env", action="store_true",
                   help="play every game on env() and env(engine='compiled') side by side (games with a compiled single env)")
    p.add_argument("--tally", nargs="+", metavar="SUMMARY", help="add up the summary.json files of runs made with distinct seeds")
    args = p.parse_args(argv)
    if args.tally:
        try:
            print(tally(args.tally))
        except (ValueError, KeyError, OSError, json.JSONDecodeError) as exc:
            p.error(str(exc))
        return 0
    if args.replay:
        record = json.loads(Path(args.replay).read_text())
        error = replay(record)
        print(describe({**record, "error": error}) if error else f"replayed {len(record['moves'])} moves: every check passed")
        return 1 if error else 0
    if args.games < 1:
        p.error(f"--games must be at least 1, got {args.games}")
    out = Path(args.out)
    games = {g: args.games for g in (args.game or _games())}
    if args.compiled:
        from dixenv.compiled.vector import compiled_games

        BATCHES = compiled_games()

        skipped = [g for g in games if g not in BATCHES]
        if skipped:
            print(f"--compiled: {skipped} have no compiled engine yet; soaking {[g for g in games if g in BATCHES]}", file=sys.stderr)
        games = {g: k for g, k in games.items() if g in BATCHES}
    if args.compiled_env:
        from dixenv.games import game_spec

        skipped = [g for g in games if game_spec(g).compiled_state is None]
        if skipped:
            print(f"--compiled-env: {skipped} have no compiled single env yet; soaking {[g for g in games if g not in skipped]}",
                  file=sys.stderr)
        games = {g: k for g, k in games.items() if g not in skipped}
    written: list[Path] = []

    def report(fail: dict[str, Any]) -> None:
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"failure_{len(written)}.json"
        path.write_text(json.dumps(fail, indent=1, default=str))
        written.append(path)
        print(f"\n{describe(fail)}\n  written to {path}; replay: python -m experiments.soak --replay {path}", file=sys.stderr)

    commit = _commit()  # before the run: the code it plays
    if commit is not None and " " in commit:
        print(f"warning: the code comes from different checkouts: {commit}", file=sys.stderr)
    totals = run(games, args.seed, args.workers, progress=not args.no_progress, on_failure=report, compiled=args.compiled,
                 compiled_env=args.compiled_env)
    lines = [f"{'game':<14}{'games':>10}{'moves':>14}  configurations"]
    for game in games:
        lines.append(f"{game:<14}{totals['games'][game]:>10,}{totals['moves'][game]:>14,}  {len(configurations(game))}")
    lines.append(f"failures: {len(totals['failures'])}; {totals['seconds']:.0f} s with {args.workers} worker(s), seed {args.seed}")
    print("\n".join(lines))
    out.mkdir(parents=True, exist_ok=True)
    summary = {k: v for k, v in totals.items() if k != "failures"} | {"failures": len(totals["failures"]), "workers": args.workers,
                                                                       "seed": args.seed, "games_per_game": args.games,
                                                                       "compiled_against_reference": args.compiled,
                                                                       "compiled_env_against_env": args.compiled_env,
                                                                       "commit": commit}
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return 1 if totals["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
