"""The games of a ``dixenv.vector.VectorEnv`` played on a game's compiled batched engine.

``VectorEnv(env_id, N, engine="compiled")`` hands its games to a ``CompiledGames``: one batch of N
games as arrays (``dixenv/games/<game>/compiled.py``), stepped by compiled kernels, with the
learner's observations and masks written straight into the vector env's buffers. Semantics are the
Python path's, slot for slot (``tests/compiled/test_vector_compiled.py`` steps both side by side):
the same deals from the same seeds, the same random opponents (each seat's own PCG64 stream,
reseeded from the slot's seed exactly as ``reseed_agents`` reseeds ``RandomAgent``), the same
rewards in every mode, autoreset modes, illegal-action handling and infos.

What the compiled path plays: the games listed in ``BATCHES``, opponents that are all ``"random"``,
no match maker, no rendering, no move log and no scenario decks; ``supported`` says why not
otherwise, and ``VectorEnv`` then keeps its Python path (or refuses ``engine="compiled"``).
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from dixenv.compiled import require_numba
from dixenv.core.rewards import score_values, win_rewards

#: Game -> its compiled batch class ("module:Class"), imported only when a compiled VectorEnv is made.
BATCHES = {
    "le_dix": "dixenv.games.le_dix.compiled:LeDixBatch",
    "dix_de_suite": "dixenv.games.dix_de_suite.compiled:DixDeSuiteBatch",
}


def supported(single: Any, match_maker: Any) -> str:
    """Why the compiled engine cannot play this single env's games ("" when it can)."""
    aec = single.aec
    if aec.game.name not in BATCHES:
        return f"{aec.game.name} has no compiled engine yet (compiled: {sorted(BATCHES)})"
    if any(spec != "random" for spec in single.opponent_specs):
        return f"opponents {list(single.opponent_specs)} play in Python (the compiled engine plays 'random' opponents)"
    if match_maker is not None:
        return "a match_maker seats agents per episode in Python"
    if aec.render_mode is not None or aec.record_events:
        return "rendering and the move log read the Python engine's states"
    return ""


def _batch_class(game: str) -> type:
    require_numba()
    module, _, name = BATCHES[game].partition(":")
    return getattr(importlib.import_module(module), name)


class CompiledGames:
    """The N games of ``venv`` as one compiled batch (see the module docstring)."""

    def __init__(self, venv: Any, single: Any):
        from dixenv.compiled.rng import rng_rows

        aec, n = single.aec, venv.num_envs
        self.venv = venv
        self.batch = _batch_class(aec.game.name)(aec.config, n)
        self.learner = aec._seat_of[single.learner]
        self.opponent_seats = np.asarray(single.opponent_seats, dtype=np.int64)
        k = len(self.opponent_seats)
        # Row g * k + j: the generator of slot g's j-th opponent (a RandomAgent's, unseeded until a seeded reset).
        self.opponent_rng = rng_rows([np.random.default_rng() for _ in range(n * k)])
        self._row_of_seat = np.full(aec.config.num_players, -1, dtype=np.int64)
        self._row_of_seat[self.opponent_seats] = np.arange(k)
        self.teams = aec.game.new_state(aec.config, np.random.default_rng(0), {}, None).teams()
        self.reward_mode = aec.reward_mode
        self.auto_forced = aec.auto_forced
        self.last_scores = np.zeros((n, aec.config.num_players), dtype=np.float64)
        self._seats = np.full(n, self.learner, dtype=np.int64)

    # --- what VectorEnv calls ----------------------------------------------------------------
    def deal(self, slots: list[int], seeds: list[int | None]) -> None:
        """Start new games in ``slots`` (reseeding a slot's generators where its seed is given), up to the learner's turn."""
        from dixenv.compiled.rng import seed_rows

        k = len(self.opponent_seats)
        for i in slots:
            seed = seeds[i]
            if seed is None:
                continue
            self.batch.rng[i] = seed_rows([seed])[0]
            # The single env's np_random (gymnasium's seeding: default_rng(seed)) draws each
            # opponent's seed in seat order, as reseed_agents does.
            np_random = np.random.default_rng(seed)
            for j in range(k):
                self.opponent_rng[i * k + j] = seed_rows([int(np_random.integers(2**31))])[0]
        self._start(slots)

    def step(self, actions: np.ndarray, legal: np.ndarray) -> tuple:
        """``VectorEnv.step`` on the compiled engine, once ``VectorEnv`` has checked ``actions`` (``legal``:
        per game, legal or waiting to restart); the same rewards; autoreset and infos by ``VectorEnv``."""
        venv, n = self.venv, self.venv.num_envs
        ended = venv._ended
        restarted = np.flatnonzero(ended)
        moved = np.flatnonzero(legal & ~ended)
        illegal = np.flatnonzero(~legal)
        if restarted.size:  # NEXT_STEP autoreset: this step starts the next game, its action is ignored
            self._new_games(restarted)
        if hasattr(self.batch, "versus_step"):  # the move, forced moves, opponents and observations in one call
            moves = np.full(n, -1, dtype=np.int64)
            moves[moved] = actions[moved]
            self._versus_step(moves)
        else:
            if moved.size:
                self.batch.apply_slots(moved, actions[moved])
                if self.auto_forced:
                    self.batch.play_forced(moved)
            self._run_opponents(np.concatenate([restarted, moved]))
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        self._outcomes(moved, rewards, terminated, truncated)
        rewards[illegal] = -1.0
        terminated[illegal] = True
        if not hasattr(self.batch, "versus_step"):
            self._observe()
        illegal_mask = np.zeros(n, dtype=bool)
        illegal_mask[illegal] = True
        return venv._finish_step(rewards, terminated, truncated, illegal_mask)

    # --- one step's parts --------------------------------------------------------------------
    def _new_games(self, slots: np.ndarray) -> None:
        self.batch.new_games(slots)
        self.last_scores[slots] = self.batch.scores()[slots]  # before any move: what the moves below score is paid too
        if self.auto_forced:
            self.batch.play_forced(slots)

    def _start(self, slots: Any) -> None:
        slots = np.asarray(slots, dtype=np.int64)
        self._new_games(slots)
        if hasattr(self.batch, "versus_step"):  # every other slot waits for the learner (or is over): no move
            self._versus_step(np.full(self.venv.num_envs, -1, dtype=np.int64))
            return
        self._run_opponents(slots)
        self._observe()

    def _versus_step(self, moves: np.ndarray) -> None:
        """The batch's fused step: ``moves`` (-1: none), forced moves, random opponents, observations, masks."""
        self.batch.versus_step(moves, self.learner, self._row_of_seat, self.opponent_rng, self.auto_forced,
                               self.venv._obs, self.venv._masks)

    def _run_opponents(self, slots: np.ndarray) -> None:
        """Let the random opponents move in ``slots`` until the learner's turn or the game's end."""
        from dixenv.compiled.agents import random_choices

        batch, k = self.batch, len(self.opponent_seats)
        while slots.size:
            current = batch.current_players()[slots]
            waiting = (current >= 0) & (current != self.learner)
            slots = slots[waiting]
            if not slots.size:
                return
            rows = slots * k + self._row_of_seat[current[waiting]]
            actions = np.empty(slots.size, dtype=np.int64)
            random_choices(batch.masks()[slots], rows, self.opponent_rng, actions)
            batch.apply_slots(slots, actions)
            if self.auto_forced:
                batch.play_forced(slots)

    def _outcomes(self, slots: np.ndarray, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray) -> None:
        """The learner's reward since it was last paid, and whether its game ended, for ``slots``."""
        if not slots.size:
            return
        batch, seat, mode = self.batch, self.learner, self.reward_mode
        scores = batch.scores()
        over = batch.terminal()
        cut = batch.truncated() if hasattr(batch, "truncated") else np.zeros(batch.n, dtype=bool)
        for g in slots.tolist():
            now = scores[g].tolist()
            if mode != "win":
                before = self.last_scores[g].tolist()
                rewards[g] = score_values(mode, now, self.teams)[seat] - score_values(mode, before, self.teams)[seat]
                self.last_scores[g] = now
            if over[g]:
                if mode == "win":
                    rewards[g] = win_rewards(_ranking_keys(now, self.teams), self.teams)[seat]
                terminated[g] = True
            else:
                truncated[g] = bool(cut[g])

    def _observe(self) -> None:
        """Write every game's learner observation and mask (zeros when it is not the learner's turn)."""
        venv, batch = self.venv, self.batch
        batch.observe(self._seats, out=venv._obs)
        batch.masks(out=venv._masks)
        venv._masks[batch.current_players() != self.learner] = 0


def _ranking_keys(scores: list, teams: list[int] | None) -> list[tuple]:
    """Who beat whom, from points: each seat's own, or with teams its team's total (the engines' ``ranking_keys``)."""
    if teams is None:
        return [(s,) for s in scores]
    totals = {t: sum(s for s, u in zip(scores, teams) if u == t) for t in set(teams)}
    return [(totals[t],) for t in teams]
