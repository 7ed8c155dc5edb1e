"""The games of a ``dixenv.vector.VectorEnv`` played on a game's compiled batched engine.

``VectorEnv(env_id, N, engine="compiled")`` hands its games to a ``CompiledGames``: one batch of N
games as arrays (``dixenv/games/<game>/compiled.py``), stepped by compiled kernels, with the
learner's observations and masks written straight into the vector env's buffers. Semantics are the
Python path's, slot for slot (``tests/compiled/test_vector_compiled.py`` steps both side by side):
the same deals from the same seeds, the same random opponents (each seat's own PCG64 stream,
reseeded from the slot's seed exactly as ``reseed_agents`` reseeds ``RandomAgent``), the same
rewards in every mode, autoreset modes, illegal-action handling and infos.

What the compiled path plays: the games whose spec names a compiled engine (``compiled_games()``), opponents that are ``"random"`` or
batched policies (``act_batch``: trained networks, snapshots), no match maker, no rendering, no move
log and no scenario decks; ``supported`` says why not otherwise, and ``VectorEnv`` then keeps its
Python path (or refuses ``engine="compiled"``). With random opponents only, a step is one compiled
call (``versus_step``); a batched policy is asked round by round for every game waiting on it, in
the same groups and order as the Python path, so a policy that draws random numbers plays the same
games on either engine. The batch runs its loops on one thread unless ``VectorEnv(...,
threads=True)`` asks for numba's threads (see ``CompiledGames.__init__`` for why).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dixenv.compiled import require_numba
from dixenv.core.rewards import win_rewards


def compiled_games() -> dict[str, Any]:
    """Game -> its compiled batch class (its spec's ``compiled``: "module:Class", imported only when used)."""
    from dixenv.games import game_specs

    return {spec.name: spec.compiled for spec in game_specs() if spec.compiled is not None}


def supported(single: Any, match_maker: Any, batched: dict[int, Any] | None = None) -> str:
    """Why the compiled engine cannot play this single env's games ("" when it can).

    ``batched``: the opponents' seats that a batched policy plays (``dixenv.vector._opponents``).
    """
    aec, batched = single.aec, batched or {}
    if aec.game.name not in compiled_games():
        return f"{aec.game.name} has no compiled engine yet (compiled: {sorted(compiled_games())})"
    others = [spec for seat, spec in zip(single.opponent_seats, single.opponent_specs)
              if seat not in batched and not (isinstance(spec, str) and spec == "random")]
    if others:
        return (f"opponents {others} play in Python (the compiled engine plays 'random' opponents and "
                "batched policies, objects with act_batch)")
    if match_maker is not None:
        return "a match_maker seats agents per episode in Python"
    if aec.render_mode is not None or aec.record_events:
        return "rendering and the move log read the Python engine's states"
    return ""


def _batch_class(game: str) -> type:
    require_numba()
    from dixenv.games import load

    return load(compiled_games()[game])


class CompiledGames:
    """The N games of ``venv`` as one compiled batch (see the module docstring)."""

    def __init__(self, venv: Any, single: Any, batched: dict[int, Any] | None = None, threads: bool = False):
        from dixenv.compiled.rng import rng_rows

        aec, n = single.aec, venv.num_envs
        #: seat -> the batched policy that plays it (the other opponents are random).
        self.policies = dict(batched or {})
        self.venv = venv
        self.batch = _batch_class(aec.game.name)(aec.config, n)
        # One thread unless asked: numba's OpenMP threads wait on each other whenever anything else
        # runs on the cores, a policy's BLAS or torch threads included (measured on 2 cores: LeDix-v0,
        # N = 64, 3 seats of a numpy policy: 702 learner steps/s on threads, 17,995 on one; random
        # opponents under load: 4,435 on threads, 190,536 on one; idle: 1.16x faster on threads).
        self.batch.parallel = bool(threads)
        self.learner = aec._seat_of[single.learner]
        self.opponent_seats = np.asarray(single.opponent_seats, dtype=np.int64)
        k = len(self.opponent_seats)
        # Row g * k + j: the generator of slot g's j-th opponent (a RandomAgent's, unseeded until a seeded reset).
        self.opponent_rng = rng_rows([np.random.default_rng() for _ in range(n * k)])
        self._row_of_seat = np.full(aec.config.num_players, -1, dtype=np.int64)
        self._row_of_seat[self.opponent_seats] = np.arange(k)
        self._random_seat = np.zeros(aec.config.num_players, dtype=bool)  # opponents' seats that play at random
        self._random_seat[[s for s in self.opponent_seats.tolist() if s not in self.policies]] = True
        self.teams = aec.game.new_state(aec.config, np.random.default_rng(0), {}, None).teams()
        seats = range(aec.config.num_players)
        #: The learner's rivals for the margin reward (``dixenv.core.rewards.margins``): other seats, or other teams'.
        self._rivals = np.array([o != self.learner and (self.teams is None or self.teams[o] != self.teams[self.learner])
                                 for o in seats], dtype=bool)
        self.reward_mode = aec.reward_mode
        self.auto_forced = aec.auto_forced
        self.last_scores = np.zeros((n, aec.config.num_players), dtype=np.float64)
        self._deal_scores = np.zeros(n * aec.config.num_players, dtype=np.int64)  # versus_step's, for new games
        self._seats = np.full(n, self.learner, dtype=np.int64)
        self._no_slots = np.zeros(0, dtype=np.int64)
        self._all_slots = np.arange(n, dtype=np.int64)

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
            for j, seat in enumerate(self.opponent_seats.tolist()):
                policy = self.policies.get(seat)
                if policy is None:
                    self.opponent_rng[i * k + j] = seed_rows([int(np_random.integers(2**31))])[0]
                elif hasattr(policy, "reset"):  # reseed_agents reseeds every opponent that has reset
                    policy.reset(seed=int(np_random.integers(2**31)))
        self._start(slots)

    def step(self, actions: np.ndarray, legal: np.ndarray) -> tuple:
        """``VectorEnv.step`` on the compiled engine, once ``VectorEnv`` has checked ``actions`` (``legal``:
        per game, legal or waiting to restart); the same rewards; autoreset and infos by ``VectorEnv``."""
        venv, n = self.venv, self.venv.num_envs
        ended = venv._ended
        # Every slot is in one of restarted (ended: its action is unused), moved, illegal. The usual
        # step has no illegal action, often no ended game: skip what is then empty (3 us a flatnonzero).
        if not legal.all():
            illegal, restarted, moved = np.flatnonzero(~legal), np.flatnonzero(ended), np.flatnonzero(legal & ~ended)
        elif ended.any():
            illegal, restarted, moved = self._no_slots, np.flatnonzero(ended), np.flatnonzero(~ended)
        else:
            illegal, restarted, moved = self._no_slots, self._no_slots, self._all_slots
        if self._fused:  # new games, the moves, forced moves, opponents and observations in one call
            moves = actions.astype(np.int64)  # a copy
            moves[illegal] = -1
            moves[restarted] = self.batch.NEW_GAME  # NEXT_STEP autoreset: this step starts the next game
            self._versus_step(moves)
            # the scores at the deal (score rewards only): what the moves after it score is paid too
            if restarted.size and self.reward_mode != "win":
                self.last_scores[restarted] = self._deal_scores.reshape(n, -1)[restarted]
        else:
            if restarted.size:  # NEXT_STEP autoreset: this step starts the next game, its action is ignored
                self._new_games(restarted)
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
        if not self._fused:
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
        if self._fused:  # every other slot waits for the learner (or is over): no move
            self._versus_step(np.full(self.venv.num_envs, -1, dtype=np.int64))
            return
        self._run_opponents(slots)
        self._observe()

    def _versus_step(self, moves: np.ndarray) -> None:
        """The batch's fused step: ``moves`` (-1: none), forced moves, random opponents, observations, masks."""
        self.batch.versus_step(moves, self.learner, self._row_of_seat, self.opponent_rng, self.auto_forced,
                               self.venv._obs, self.venv._masks, self._deal_scores)

    @property
    def _fused(self) -> bool:
        """Whether a step is the batch's one compiled call (its ``versus_step``, random opponents only)."""
        return not self.policies and hasattr(self.batch, "versus_step")

    def _run_opponents(self, slots: np.ndarray) -> None:
        """Let the opponents move in ``slots`` until the learner's turn or the game's end.

        As ``VectorEnv._run_opponents`` on the Python engine: random opponents move until a batched
        policy's turn, then each policy is asked once for all the games waiting on it (grouped in
        slot order), and the games it moved go round again (group after group).
        """
        batch = self.batch
        while slots.size:
            slots = self._random_moves(slots)
            if not slots.size:
                return
            to_act = batch.current_players()
            current = to_act[slots]
            # every slot as its player to act sees it (seat 0 where over: unused), one compiled pass each
            obs, masks = batch.observe(np.maximum(to_act, 0)), batch.masks().astype(bool)
            groups: dict[int, tuple[Any, list[int]]] = {}
            for i, seat in zip(slots.tolist(), current.tolist()):
                policy = self.policies[seat]
                groups.setdefault(id(policy), (policy, []))[1].append(i)
            for policy, group in groups.values():
                rows = np.asarray(group, dtype=np.int64)
                actions = _policy_actions(policy, obs[rows], masks[rows], rows)
                batch.apply_slots(rows, actions)
                if self.auto_forced:
                    batch.play_forced(rows)
            slots = np.concatenate([np.asarray(g, dtype=np.int64) for _, g in groups.values()])

    def _random_moves(self, slots: np.ndarray) -> np.ndarray:
        """Random opponents move in ``slots`` until another seat's turn; the slots where a policy is to act,
        in the order of ``slots`` (each slot draws from its own rows, so moving them together changes nothing)."""
        batch, k = self.batch, len(self.opponent_seats)
        policy_turn = np.zeros(batch.n, dtype=bool)
        moving = slots
        while moving.size:
            current = batch.current_players()[moving]
            waiting = (current >= 0) & (current != self.learner)
            moving, current = moving[waiting], current[waiting]
            random = self._random_seat[current]
            policy_turn[moving[~random]] = True
            moving, current = moving[random], current[random]
            if moving.size:
                self._random_round(moving, current, k)
        return slots[policy_turn[slots]]

    def _random_round(self, slots: np.ndarray, current: np.ndarray, k: int) -> None:
        """One random move in each of ``slots`` (seat ``current[i]`` to act in ``slots[i]``)."""
        from dixenv.compiled.agents import random_choices

        batch = self.batch
        rows = slots * k + self._row_of_seat[current]
        actions = np.empty(slots.size, dtype=np.int64)
        random_choices(batch.masks()[slots], rows, self.opponent_rng, actions)
        batch.apply_slots(slots, actions)
        if self.auto_forced:
            batch.play_forced(slots)

    def _outcomes(self, slots: np.ndarray, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray) -> None:
        """The learner's reward since it was last paid, and whether its game ended, for ``slots``.

        Array arithmetic over the slots (a Python loop over them cost a third of a step at N = 64);
        only the games that ended are visited one by one, for the win ranking.
        """
        if not slots.size:
            return
        batch, mode = self.batch, self.reward_mode
        over = batch.terminal()[slots]
        if mode != "win":
            now = batch.scores()[slots].astype(np.float64)
            rewards[slots] = self._value(now) - self._value(self.last_scores[slots])
            self.last_scores[slots] = now
        ended = slots[over]
        terminated[ended] = True
        if hasattr(batch, "truncated"):
            going = slots[~over]
            truncated[going] = batch.truncated()[going]
        if mode == "win" and ended.size:
            rewards[ended] = game_results(batch, ended, self.teams)[:, self.learner]

    def _value(self, scores: np.ndarray) -> np.ndarray:
        """The learner's ``score_values`` (``"points"`` or ``"margin"``) in each row of ``scores`` (games x seats)."""
        seat = self.learner
        if self.reward_mode == "points":
            return scores[:, seat]
        rivals = self._rivals
        if not rivals.any():  # one seat alone has no rival and a lead of 0
            return np.zeros(len(scores))
        return scores[:, seat] - scores[:, rivals].max(axis=1)

    def _observe(self) -> None:
        """Write every game's learner observation and mask (zeros when it is not the learner's turn)."""
        venv, batch = self.venv, self.batch
        batch.observe(self._seats, out=venv._obs)
        batch.masks(out=venv._masks)
        venv._masks[batch.current_players() != self.learner] = 0


def _policy_actions(policy: Any, observations: np.ndarray, masks: np.ndarray, slots: np.ndarray) -> np.ndarray:
    """A batched policy's actions for the games ``slots`` (checked: the compiled engine applies only legal moves)."""
    from dixenv.vector import batch_actions

    actions = batch_actions(policy, observations, masks)
    ok = (actions >= 0) & (actions < masks.shape[1])
    ok[ok] = masks[np.flatnonzero(ok), actions[ok]]
    if not ok.all():
        j = int(np.flatnonzero(~ok)[0])
        raise ValueError(f"{policy!r}.act_batch chose action {int(actions[j])} in game {int(slots[j])}, which is not "
                         f"legal there; legal actions: {np.flatnonzero(masks[j]).tolist()}")
    return actions.astype(np.int64)


def game_results(batch: Any, slots: np.ndarray, teams: list[int] | None) -> np.ndarray:
    """``win_rewards`` per seat of each game of ``slots`` that ended (float64, games x seats): ranked by
    the batch's keys where the game has tie-breaks (dix, compiled: ``DixBatch.win_results``), else by
    points (with teams, the team's total).

    A Python loop over the games: about 3 µs a game, where numpy on the one or two games that end
    in a step costs about 25 µs (measured; the vector env pays it in its step).
    """
    if hasattr(batch, "win_results") and teams is None:  # dix: compiled, the tie-breaks included
        return batch.win_results(slots)  # no Python lists: in solo a game ends in most steps
    keys = batch.ranking_keys(slots=slots).tolist() if hasattr(batch, "ranking_keys") else None
    scores = batch.scores()[slots].tolist() if keys is None else None
    return np.array([win_rewards([tuple(k) for k in keys[j]] if keys is not None else _ranking_keys(scores[j], teams),
                                 teams) for j in range(len(slots))], dtype=np.float64)


def _ranking_keys(scores: list, teams: list[int] | None) -> list[tuple]:
    """Who beat whom, from points: each seat's own, or with teams its team's total (the engines' ``ranking_keys``)."""
    if teams is None:
        return [(s,) for s in scores]
    totals = {t: sum(s for s, u in zip(scores, teams) if u == t) for t in set(teams)}
    return [(totals[t],) for t in teams]
