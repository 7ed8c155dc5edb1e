"""Many games of a dixenv single-agent environment stepped together, for training at speed.

``VectorEnv("dixenv/LeDix-v0", 64, num_players=3, opponents="random")`` plays 64 games of one of
the registered single-agent ids (``vector_ids()``), built from the same options as
``gymnasium.make(env_id, **options)``, as one ``gymnasium.vector.VectorEnv``. It drives the rules
engines directly, below the wrappers: no single-agent wrapper, AEC adapter or PettingZoo wrapper
is paid per game and step, and opponents that can choose for many games at once do.

Semantics are the single env's, slot for slot: slot ``i`` of ``reset(seed=s)`` is
``gymnasium.make(env_id, **options).reset(seed=s + i)`` (Gymnasium's convention), and stepping it
gives the same observations, masks, rewards, terminations, truncations and infos as stepping that
env with the same actions inside a ``gymnasium.vector.SyncVectorEnv`` of the same autoreset mode —
provided each game's opponents are its own: an opponent given by name (``"random"``,
``"heuristic"``) is built once per game, while an agent object is shared by all games (a shared
stateful agent, such as one random generator, sees the games in another order than N separate
envs would).

* Observations are written in place into one preallocated ``(N, obs_size)`` float32 array and the
  masks into one ``(N, num_actions)`` int8 array; ``action_masks()`` is the ``(N, num_actions)``
  bool mask (sb3-contrib's convention), also in ``infos["action_mask"]``. ``copy=True`` (the
  default, as in ``SyncVectorEnv``) returns a copy of the observation array each step.
* Opponents given as a ``BatchPolicy`` (an object with ``act_batch``, e.g. a trained network) are
  asked once per round for all the games waiting on a seat they play; per-game agents
  (``act(observation_dict)``, callables) are asked game by game.
* Autoreset (``metadata["autoreset_mode"]``): ``NEXT_STEP`` (default) resets a finished game on
  the next step, ignoring its action (so its mask row allows every action until then: a policy
  that fills masked logits with −inf stays finite on it, where a single env's last mask is all zeros); ``SAME_STEP`` resets it at once and returns its last
  observation and info in ``infos["final_obs"]`` / ``infos["final_info"]``; ``DISABLED`` leaves it
  to ``reset(options={"reset_mask": mask})``, which every mode accepts.
* Engines: where numba (the ``fast`` extra) is installed and the games allow it (random opponents
  and batched policies; ``dixenv.compiled.vector.supported`` says why not otherwise), the games are
  played by the game's compiled batched engine, which plays exactly the Python engine's games;
  ``engine="python"`` or ``"compiled"`` forces one (``"compiled"`` refuses with the reason when it
  cannot). ``threads=True`` runs the compiled loops on numba's threads (``NUMBA_NUM_THREADS``,
  all cores by default) instead of one: faster on an otherwise idle machine at large N (2 cores:
  1.2x at N = 64, 1.4x at N = 1,024), far slower when other work shares the cores, a learner's
  torch or BLAS threads included (numba's OpenMP threads wait on each other: 40x slower measured
  under load), hence off by default.
* An illegal action ends that game's episode with reward −1 and ``infos["illegal_action"]``
  (``illegal_action="raise"``: ``ValueError`` naming the slot, the action and the legal ones,
  raised before any game moves).

``SB3VecEnv(vector_env)`` adapts any Gymnasium vector env (this one, possibly inside Gymnasium's
vector wrappers such as ``RecordEpisodeStatistics``) to Stable-Baselines3's ``VecEnv``; sb3-contrib's
MaskablePPO finds the masks through it::

    MaskablePPO("MlpPolicy", SB3VecEnv(VectorEnv("dixenv/DixSolo-v0", 64)))

Stable-Baselines3 (and torch) are imported only when ``SB3VecEnv`` is first used.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from dixenv.compiled import has_numba
from dixenv.core.aec import as_action, legal_names, play_forced
from dixenv.core.options import check_bool, is_int, reset_options
from dixenv.core.rewards import score_values, win_rewards
from dixenv.wrappers.single_agent import SingleAgentEnv, act_function, as_agent, reseed_agents


def vector_ids() -> tuple[str, ...]:
    """The registered games' single-agent ids (any id whose env is a ``SingleAgentEnv`` works)."""
    from dixenv.games import game_specs

    return tuple(env_id for spec in game_specs() for env_id in spec.gymnasium_ids)


@runtime_checkable
class BatchPolicy(Protocol):
    """A policy that chooses for many games at once, e.g. a trained network.

    Optionally ``reset(seed)`` reseeds its own randomness; it is called on a seeded reset like any
    opponent's. An object with both ``act`` and ``act_batch`` is asked in batches by ``VectorEnv``
    and one game at a time by the single-agent envs.
    """

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One legal action id per game: ``observations`` ``(k, obs_size)`` float32 and ``masks``
        ``(k, num_actions)`` bool in, a ``(k,)`` integer array out.

        The arrays are the vector env's scratch buffers, overwritten after the call: copy what you keep.
        """


#: ``match_maker(slot, generator) -> (learner seat, opponents in seat order)``, asked at the start of
#: every episode of every game (self-play pools, seat rotation). The generator is the game's own,
#: seeded by ``reset(seed=...)``, so matches are reproducible. Opponents are agents (``act``) or
#: batched policies (``act_batch``; games waiting on the same policy object are batched together).
MatchMaker = Any


class VectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of a dixenv single-agent id stepped together (see the module docstring).

    ``options`` are the id's options, as for ``gymnasium.make`` (``difficulty``, ``num_players``,
    ``opponents``, ``learner_seat``, ``reward``, ``illegal_action``, game options, …).
    ``match_maker`` (see ``MatchMaker``) replaces the fixed learner seat and opponents per episode.
    """

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        *,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        match_maker: MatchMaker | None = None,
        engine: str | None = None,
        threads: bool = False,
        **options: Any,
    ):
        if not is_int(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r} must be an integer >= 1")
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        self.copy = check_bool("copy", copy)
        self.env_id = env_id = _plain_id(env_id)
        single = _single_env(env_id, options)
        aec = single.aec
        self._raw = aec
        self._game, self._config = aec.game, aec.config
        self._auto_forced, self._reward_mode = aec.auto_forced, aec.reward_mode
        self._seats = [aec._seat_of[single.learner]] * int(num_envs)  # the learner's seat in each game
        self._raises = single.illegal_action == "raise"
        self._num_actions = num_actions = single.action_space.n
        n = self.num_envs = int(num_envs)

        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.render_mode = single.render_mode
        self.metadata = {**single.metadata, "autoreset_mode": self.autoreset_mode}

        self._acts, batched, self._resettable = _opponents(single, n)
        self._batched = [dict(batched) for _ in range(n)]  # per game: seat -> batched policy
        self._match_maker = match_maker
        if match_maker is not None and not callable(match_maker):
            raise ValueError(f"match_maker={match_maker!r} must be a callable (slot, generator) -> (learner seat, opponents)")
        self._seats_of_game = [aec._seat_of[a] for a in aec.possible_agents]  # the agent seats (not ALIX's)
        # One observer per game: an observer may keep caches about the game it encodes (le_dix keeps
        # the previous deal's indices per seat), which one observer shared by all games would defeat.
        self._observers = [aec._observer, *(self._game.make_observer(self._config) for _ in range(n - 1))]
        self._states: list[Any] = [None] * n
        self._events: list[list | None] = [None] * n
        self._rngs = [np.random.default_rng() for _ in range(n)]  # each game's engine generator, as the AEC's
        self._np_randoms: list[np.random.Generator | None] = [None] * n  # each game's Env.np_random (opponent seeds)
        self._legal: list[list[int]] = [[] for _ in range(n)]  # the player to act's legal actions, per game
        self._last_scores: list[list[float]] = [[] for _ in range(n)]  # every seat's points when the learner was last paid
        self._ended = np.zeros(n, dtype=bool)  # episode over: reset on the next step (NEXT_STEP) or by reset_mask
        size = self.single_observation_space.shape[0]
        self._obs = np.zeros((n, size), dtype=np.float32)
        self._masks = np.zeros((n, num_actions), dtype=np.int8)
        self._mask_rows = np.arange(n, dtype=np.int64) * num_actions  # row starts in the flat masks (_check_legal)
        # What a BatchPolicy is shown (allocated only when one plays).
        rows = n if (batched or match_maker is not None) else 0
        self._batch_obs = np.zeros((rows, size), dtype=np.float32)
        self._batch_masks = np.zeros((rows, num_actions), dtype=bool)
        self.engine = _engine(engine, single, match_maker, batched)
        threads = check_bool("threads", threads)
        if threads and self.engine != "compiled":
            raise ValueError("option threads=True applies to the compiled engine; these games play on the Python engine "
                             f"({_why_python(engine, single, match_maker, batched)})")
        self._compiled = None
        if self.engine == "compiled":
            from dixenv.compiled.vector import CompiledGames

            self._compiled = CompiledGames(self, single, batched, threads)

    # --- Gymnasium vector API -----------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        """Start new games: all, or those of ``options["reset_mask"]``; slot ``i`` gets seed ``seed + i``."""
        seeds = self._slot_seeds(seed)
        scenario = reset_options(options)
        reset_mask = scenario.pop("reset_mask", None)
        slots = list(range(self.num_envs)) if reset_mask is None else self._masked_slots(reset_mask)
        if self._compiled is not None:
            if scenario:
                raise ValueError(
                    f"reset options {sorted(scenario)} (scenario decks, seats) are played by the Python engine: "
                    "make the VectorEnv with engine='python'"
                )
            self._compiled.deal(slots, seeds)
        else:
            for i in slots:
                self._start(i, seeds[i], scenario)
            self._after_start(slots)
        self._ended[slots] = False
        if reset_mask is None:
            infos = {"action_mask": self._masks.copy(), "_action_mask": np.ones(self.num_envs, dtype=bool)}
        else:
            infos = {"action_mask": np.where(reset_mask[:, None], self._masks, 0).astype(np.int8), "_action_mask": reset_mask.copy()}
        return self._observations(), infos

    def step(self, actions: Any):
        """Play one learner action per game (then every opponent until the learner's turn); autoreset as configured."""
        actions = self._check_actions(actions)
        n = self.num_envs
        ended = self._ended
        if self.autoreset_mode is AutoresetMode.DISABLED and ended.any():
            raise RuntimeError(
                f"step() called on games whose episode ended (slots {np.flatnonzero(ended).tolist()}); with "
                "autoreset_mode DISABLED reset them first: reset(options={'reset_mask': mask})"
            )
        legal = self._check_legal(actions)
        if self._compiled is not None:
            return self._compiled.step(actions, legal)
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        restarted, moved, illegal = [], [], []
        for i, action in enumerate(actions.tolist()):
            if ended[i]:  # NEXT_STEP autoreset: this step starts the next game, its action is ignored
                self._start(i, None, {})
                restarted.append(i)
            elif legal[i]:
                state = self._states[i]
                state.apply_action(action)
                self._legal[i] = self._advance(state, self._events[i])
                moved.append(i)
            else:
                illegal.append(i)
        self._run_opponents(restarted + moved)
        for i in moved:
            rewards[i], terminated[i], truncated[i] = self._outcome(i)
        rewards[illegal] = -1.0
        terminated[illegal] = True
        for i in restarted + moved + illegal:
            self._observe_learner(i)
        illegal_mask = np.zeros(n, dtype=bool)
        illegal_mask[illegal] = True
        return self._finish_step(rewards, terminated, truncated, illegal_mask)

    def _finish_step(self, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray, illegal_mask: np.ndarray) -> tuple:
        """A step's autoreset (as configured) and infos, on either engine; the step's five outputs."""
        n = self.num_envs
        done = terminated | truncated
        infos: dict[str, Any] = {}
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            if done.any():
                infos.update(self._restart_now(done, illegal_mask))
        else:
            if illegal_mask.any():
                infos["illegal_action"], infos["_illegal_action"] = illegal_mask, illegal_mask.copy()
            self._ended = done
            if self.autoreset_mode is AutoresetMode.NEXT_STEP:
                # The next action of a finished game is ignored (it starts a new game): its mask row
                # allows every action, so a policy that fills masked logits with -inf stays finite.
                self._masks[done] = 1
        infos["action_mask"], infos["_action_mask"] = self._masks.copy(), np.ones(n, dtype=bool)
        return self._observations(), rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The ``(num_envs, num_actions)`` bool mask of each game's legal learner actions (a new array)."""
        return self._masks.astype(bool)

    def render(self) -> tuple[Any, ...] | None:
        """Each game rendered as a single env renders it (``ansi`` text, ``rgb_array`` picture, ``human`` printed)."""
        if self.render_mode is None:
            return self._raw.render()  # warns, returns None
        # The template AEC env draws each game in turn: one renderer, the single env's own.
        raw = self._raw
        try:
            frames = []
            for state, events in zip(self._states, self._events):
                raw.state, raw.events = state, events
                frames.append(raw.render())
        finally:
            raw.state, raw.events = None, None
        return tuple(frames)

    def __repr__(self) -> str:
        return f"VectorEnv({self.env_id}, num_envs={self.num_envs})"

    # --- what agents and tools read -----------------------------------------------------------
    @property
    def raw_env(self) -> Any:
        """A raw AEC env of the same game and options, for its layout, action names and config (its own state is unused)."""
        return self._raw

    @property
    def layout(self) -> Any:
        """The observation layout (named pieces; ``layout.unflatten(row)``)."""
        return self._raw.layout

    # --- one game's life ----------------------------------------------------------------------
    def _start(self, i: int, seed: int | None, scenario: dict[str, Any]) -> None:
        """Deal game ``i`` (reseeding its generators and opponents when ``seed`` is given), as a single env's reset."""
        rng = self._rngs[i] if seed is None else np.random.default_rng(seed)
        events = [] if self._raw.record_events else None
        state = self._game.new_state(self._config, rng, dict(scenario), events)  # a refused deal changes nothing
        self._rngs[i], self._events[i], self._states[i] = rng, events, state
        if seed is not None:
            self._np_randoms[i] = seeding.np_random(seed)[0]
        self._last_scores[i] = list(state.scores())  # before any move: what the moves below score is paid too
        self._legal[i] = self._advance(state, events)
        if seed is not None:
            reseed_agents(self._resettable[i], self._np_randoms[i])
        if self._match_maker is not None:
            self._set_match(i)

    def _after_start(self, slots: list[int]) -> None:
        """Play the opponents of freshly dealt games up to the learner's first turn; observe."""
        self._run_opponents(slots)
        for i in slots:
            self._observe_learner(i)

    def _set_match(self, i: int) -> None:
        """Ask the match maker who sits where in game ``i``'s new episode: the learner's seat and each opponent."""
        rng = self._np_randoms[i]
        if rng is None:
            rng = self._np_randoms[i] = np.random.default_rng()
        learner, opponents = self._match_maker(i, rng)
        seats = [s for s in self._seats_of_game if s != learner]
        if learner not in self._seats_of_game or len(opponents) != len(seats):
            raise ValueError(
                f"match maker gave learner seat {learner!r} and {len(opponents)} opponents; seats are "
                f"{self._seats_of_game}, so one learner seat and {len(self._seats_of_game) - 1} opponents"
            )
        self._seats[i] = learner
        acts, batched = {}, {}
        for seat, opponent in zip(seats, opponents):
            if hasattr(opponent, "act_batch"):
                batched[seat] = opponent
            else:
                acts[seat] = act_function(opponent)
        self._acts[i], self._batched[i] = acts, batched

    def _advance(self, state: Any, events: list | None) -> list[int]:
        """Play forced moves if ``auto_forced``; the legal actions of the player to act."""
        return play_forced(state, events) if self._auto_forced else state.legal_actions()

    def _outcome(self, i: int) -> tuple[float, bool, bool]:
        """Game ``i``'s learner reward since it was last paid, and whether it ended (terminated, truncated).

        The first payment of an episode includes what was scored before the learner's first decision.
        """
        state, seat = self._states[i], self._seats[i]
        reward = 0.0
        if self._reward_mode != "win":
            # Game points are integers, so one difference equals the single env's sum of per-move ones.
            scores, teams, mode = list(state.scores()), state.teams(), self._reward_mode
            reward = score_values(mode, scores, teams)[seat] - score_values(mode, self._last_scores[i], teams)[seat]
            self._last_scores[i] = scores
        if state.is_terminal():
            if self._reward_mode == "win":
                reward = win_rewards(state.ranking_keys(), state.teams())[seat]
            return reward, True, False
        return reward, False, state.is_truncated()

    def _observe_learner(self, i: int) -> None:
        """Write game ``i``'s learner observation and mask into row ``i``."""
        state, observer = self._states[i], self._observers[i]
        seat = self._seats[i]
        observer.set_from(state, seat)
        self._obs[i] = observer.tensor
        _fill_mask(self._masks[i], self._legal[i] if state.current_player() == seat else ())

    def _restart_now(self, done: np.ndarray, illegal_mask: np.ndarray) -> dict[str, Any]:
        """SAME_STEP autoreset: keep the finished games' last observation and info, deal new games."""
        slots = np.flatnonzero(done).tolist()
        final_obs = np.full(self.num_envs, None, dtype=object)
        final_masks = np.zeros_like(self._masks)
        for i in slots:
            final_obs[i] = self._obs[i].copy()
            final_masks[i] = self._masks[i]
        final_info: dict[str, Any] = {"action_mask": final_masks, "_action_mask": done.copy()}
        if illegal_mask.any():
            final_info["illegal_action"], final_info["_illegal_action"] = illegal_mask, illegal_mask.copy()
        if self._compiled is not None:
            self._compiled.deal(slots, [None] * self.num_envs)
        else:
            for i in slots:
                self._start(i, None, {})
            self._after_start(slots)
        return {"final_obs": final_obs, "_final_obs": done.copy(), "final_info": final_info, "_final_info": done.copy()}

    # --- opponents ----------------------------------------------------------------------------
    def _run_opponents(self, slots: list[int]) -> None:
        """Let the opponents move in ``slots`` until the learner's turn or the game's end.

        Per-game agents move game by game; the games that wait on a batched policy are gathered
        and the policy is asked once for all of them, round after round.
        """
        while slots:
            waiting: dict[int, tuple[Any, list[int]]] = {}
            for i in slots:
                state, acts, batched, learner = self._states[i], self._acts[i], self._batched[i], self._seats[i]
                while True:
                    seat = state.current_player()
                    if seat < 0 or seat == learner:
                        break
                    policy = batched.get(seat)
                    if policy is not None:
                        waiting.setdefault(id(policy), (policy, []))[1].append(i)
                        break
                    action = acts[seat](self._opponent_view(i, seat))
                    if type(action) is not int:
                        action = as_action(action, lambda: legal_names(self._game, self._config, self._legal[i]))
                    state.apply_action(action)
                    self._legal[i] = self._advance(state, self._events[i])
            slots = []
            for policy, group in waiting.values():
                for i, action in zip(group, self._ask_batch(policy, group)):
                    state = self._states[i]
                    state.apply_action(action)
                    self._legal[i] = self._advance(state, self._events[i])
                slots.extend(group)

    def _opponent_view(self, i: int, seat: int) -> dict[str, np.ndarray]:
        """The observation dict of ``seat`` in game ``i``, as the AEC's ``observe`` gives it (fresh arrays)."""
        observer = self._observers[i]
        observer.set_from(self._states[i], seat)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        _fill_mask(mask, self._legal[i])
        return {"observation": observer.tensor.copy(), "action_mask": mask}

    def _ask_batch(self, policy: BatchPolicy, group: list[int]) -> list[int]:
        """A batched policy's actions for the games of ``group`` (each waiting on a seat it plays)."""
        k = len(group)
        obs, masks = self._batch_obs[:k], self._batch_masks[:k]
        for j, i in enumerate(group):
            state, observer = self._states[i], self._observers[i]
            observer.set_from(state, state.current_player())
            obs[j] = observer.tensor
            _fill_mask(masks[j], self._legal[i])
        return batch_actions(policy, obs, masks).tolist()

    # --- input checks -------------------------------------------------------------------------
    def _check_actions(self, actions: Any) -> np.ndarray:
        """``actions`` as a ``(num_envs,)`` integer array; ``ValueError`` otherwise (nothing is cast)."""
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,) or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integer action ids, one per game (shape ({self.num_envs},)); "
                f"got a {arr.dtype} array of shape {arr.shape}"
            )
        return arr

    def _check_legal(self, actions: np.ndarray) -> np.ndarray:
        """Per game, whether its action is legal (games waiting to restart count as legal: their action is unused).

        With ``illegal_action="raise"`` an illegal action raises ``ValueError`` here, before any game moves.
        """
        in_range = (actions >= 0) & (actions < self._num_actions)
        # one flat gather: row i's entry sits at i * num_actions + action (out-of-range actions read entry 0)
        flat = self._masks.reshape(-1)[self._mask_rows + np.where(in_range, actions, 0)]
        legal = in_range & (flat == 1)
        legal |= self._ended
        if self._raises and not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise ValueError(
                f"game {i}: illegal action {int(actions[i])}; legal: "
                f"{legal_names(self._game, self._config, np.flatnonzero(self._masks[i]).tolist())}"
            )
        return legal

    def _slot_seeds(self, seed: Any) -> list[int | None]:
        """One seed per game: ``seed + i`` for an int, the list itself, or all None."""
        n = self.num_envs
        if seed is None:
            return [None] * n
        if is_int(seed):
            return [int(seed) + i for i in range(n)]
        if isinstance(seed, (list, tuple)) and len(seed) == n and all(s is None or is_int(s) for s in seed):
            return [None if s is None else int(s) for s in seed]
        raise ValueError(f"seed={seed!r} must be None, an integer, or a list of {n} integers or None (one per game)")

    def _masked_slots(self, reset_mask: Any) -> list[int]:
        """The games a ``reset_mask`` selects; ``ValueError`` unless it is a ``(num_envs,)`` bool array with a True."""
        n = self.num_envs
        if not isinstance(reset_mask, np.ndarray) or reset_mask.shape != (n,) or reset_mask.dtype != np.bool_:
            raise ValueError(f"options['reset_mask'] must be a numpy bool array of shape ({n},), got {reset_mask!r}")
        if not reset_mask.any():
            raise ValueError("options['reset_mask'] selects no game; set at least one entry True")
        return np.flatnonzero(reset_mask).tolist()

    def _observations(self) -> np.ndarray:
        return self._obs.copy() if self.copy else self._obs


#: Up to this many legal actions a mask is set by a loop of scalar stores: numpy's fancy assignment
#: first converts the Python list to an array, which costs more than the loop for short lists.
_MASK_LOOP_MAX = 32


def batch_actions(policy: BatchPolicy, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``policy.act_batch(observations, masks)``, checked: one integer action id per game (``ValueError`` otherwise)."""
    k = len(masks)
    actions = np.asarray(policy.act_batch(observations, masks))
    if actions.shape != (k,) or not np.issubdtype(actions.dtype, np.integer):
        raise ValueError(
            f"{policy!r}.act_batch returned a {actions.dtype} array of shape {actions.shape}; "
            f"it must return ({k},) integer action ids, one per game"
        )
    return actions


def _fill_mask(row: np.ndarray, legal: Sequence[int]) -> None:
    """Set ``row`` (a mask) to 1 at the ``legal`` actions and 0 elsewhere, in place."""
    row.fill(0)
    if len(legal) <= _MASK_LOOP_MAX:
        for a in legal:
            row[a] = 1
    else:
        row[legal] = 1


ENGINES = ("compiled", "python")


def _engine(engine: str | None, single: SingleAgentEnv, match_maker: Any, batched: dict[int, Any]) -> str:
    """The engine that plays the games: ``engine`` if given (checked), else compiled where it can."""
    from dixenv.compiled.vector import supported

    if engine is not None and engine not in ENGINES:
        raise ValueError(f"option engine={engine!r} is not allowed; allowed values: {list(ENGINES)} or None (compiled where it can)")
    why_not = supported(single, match_maker, batched)
    if engine == "compiled":
        if why_not:
            raise ValueError(f"engine='compiled' cannot play these games: {why_not}; use engine='python'")
        from dixenv.compiled import require_numba

        require_numba()
        return "compiled"
    if engine is None and not why_not and has_numba():
        return "compiled"
    return "python"


def _why_python(engine: str | None, single: SingleAgentEnv, match_maker: Any, batched: dict[int, Any]) -> str:
    """Why ``_engine`` chose the Python engine, in words."""
    from dixenv.compiled.vector import supported

    if engine == "python":
        return "engine='python' was asked"
    return supported(single, match_maker, batched) or "numba is not installed: pip install 'dixenv[fast]'"


def _autoreset_mode(mode: Any) -> AutoresetMode:
    """An ``AutoresetMode`` from the enum or its value (``"NextStep"``, ``"SameStep"``, ``"Disabled"``)."""
    if isinstance(mode, AutoresetMode):
        return mode
    try:
        return AutoresetMode(mode)
    except ValueError:
        allowed = [m.value for m in AutoresetMode]
        raise ValueError(f"option autoreset_mode={mode!r} is not allowed; allowed values: {allowed} or gymnasium.vector.AutoresetMode") from None


def _plain_id(env_id: Any) -> str:
    """``env_id`` without a ``"module:"`` prefix (``"dixenv:dixenv/DixSolo-v0"``, as ``gymnasium.make`` takes it)."""
    if not isinstance(env_id, str):
        raise ValueError(f"env_id={env_id!r} must be a string; dixenv's single-agent ids: {list(vector_ids())}")
    module, _, plain = env_id.rpartition(":")
    if module:
        import importlib

        try:
            importlib.import_module(module)  # registers the ids, as gymnasium.make does with that spelling
        except ImportError as err:
            raise ValueError(f"env_id={env_id!r}: module {module!r} cannot be imported ({err})") from None
    return plain


def _single_env(env_id: str, options: dict[str, Any]) -> SingleAgentEnv:
    """One env of ``env_id`` built by Gymnasium from ``options`` (so they are checked as ``gymnasium.make`` checks them)."""
    if env_id not in gymnasium.registry:
        import dixenv  # noqa: F401  (registers the ids; a no-op once imported)
    if env_id not in gymnasium.registry:
        raise ValueError(f"unknown env id {env_id!r}; dixenv's single-agent ids: {list(vector_ids())}")
    no_limit = ValueError("max_episode_steps is not supported by dixenv.vector (dix_de_suite has its own max_turns option)")
    if "max_episode_steps" in options:
        raise no_limit
    env = gymnasium.make(env_id, disable_env_checker=True, **options)
    if not isinstance(env.unwrapped, SingleAgentEnv):
        raise ValueError(f"{env_id!r} is not a dixenv single-agent env; ids: {list(vector_ids())}")
    if env.spec is not None and env.spec.max_episode_steps is not None:
        raise no_limit
    return env.unwrapped


def _opponents(single: SingleAgentEnv, n: int) -> tuple[list[dict[int, Any]], dict[int, Any], list[list[Any]]]:
    """Each game's opponents: (per game, seat -> act of its per-game agents), seat -> shared batched policy,
    (per game, the agents to reseed on a seeded reset, in seat order, as the single env reseeds them).

    A name gives every game its own agent, unless the agent it names is batched (then one is shared);
    an agent object or callable is shared by all games.
    """
    acts: list[dict[int, Any]] = [{} for _ in range(n)]
    agents: list[list[Any]] = [[] for _ in range(n)]
    batched: dict[int, Any] = {}
    for seat, spec in zip(single.opponent_seats, single.opponent_specs):
        first = as_agent(single.aec, spec)
        if hasattr(first, "act_batch"):
            batched[seat] = first
            for i in range(n):
                agents[i].append(first)
            continue
        for i in range(n):
            agent = as_agent(single.aec, spec) if i and isinstance(spec, str) else first
            agents[i].append(agent)
            acts[i][seat] = act_function(agent)
    resettable = [[a for a in slot if hasattr(a, "reset")] for slot in agents]
    return acts, batched, resettable


# --- Stable-Baselines3 -----------------------------------------------------------------------------


def __getattr__(name: str) -> Any:
    """``SB3VecEnv`` is built on first use, so that importing ``dixenv.vector`` does not load SB3 and torch;
    ``VECTOR_IDS`` is ``vector_ids()`` now (games registered later included)."""
    if name == "VECTOR_IDS":
        return vector_ids()
    if name == "SB3VecEnv":
        cls = _sb3_vec_env_class()
        globals()["SB3VecEnv"] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _sb3_vec_env_class() -> type:
    """Define ``SB3VecEnv`` on Stable-Baselines3's ``VecEnv`` (imported here: SB3 is an optional dependency)."""
    try:
        from stable_baselines3.common.vec_env import VecEnv
    except ImportError as exc:  # the train extra is optional
        raise ImportError("SB3VecEnv needs stable-baselines3: pip install torch==2.13.0 && pip install -e '.[train]'") from exc
    from gymnasium.vector import VectorWrapper
    from gymnasium.wrappers.vector import DictInfoToList

    class SB3VecEnv(VecEnv):
        """A Gymnasium vector env as a Stable-Baselines3 ``VecEnv`` (MaskablePPO finds ``action_masks``).

        SB3's conventions: a finished game is reset in the same step, its last observation in
        ``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]`` set; infos are one
        dict per game (Gymnasium's ``DictInfoToList``, so wrappers' keys such as
        ``RecordEpisodeStatistics``'s ``"episode"`` reach SB3's logger). Works in every autoreset mode:
        SAME_STEP reads ``final_obs``/``final_info``; otherwise finished games are reset at once with
        ``reset(options={"reset_mask": done})``. ``env_method(name)`` calls the vector env's method once
        and hands out one entry per game; ``get_attr(name)`` repeats the vector env's attribute.
        Observations are returned as a new array each step (SB3 keeps the previous one).
        """

        def __init__(self, venv: gymnasium.vector.VectorEnv):
            mode = venv.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
            self.venv = venv
            self._same_step = mode is AutoresetMode.SAME_STEP
            self._lists = DictInfoToList(venv)
            self._actions: np.ndarray | None = None
            super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

        def reset(self) -> np.ndarray:
            seed = None if all(s is None for s in self._seeds) else list(self._seeds)
            first = self._options[0]
            if any(o != first for o in self._options):
                raise ValueError("SB3VecEnv: every game must get the same reset options (one vector reset)")
            obs, infos = self._lists.reset(seed=seed, options=dict(first) or None)
            self.reset_infos = infos
            self._reset_seeds()
            self._reset_options()
            return np.array(obs)

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = actions

        def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
            obs, rewards, terminated, truncated, infos = self._lists.step(self._actions)
            obs = np.array(obs)  # ours: the vector env may reuse its buffer, and a reset below rewrites rows
            done = terminated | truncated
            finished = np.flatnonzero(done).tolist()
            if self._same_step:
                for i in finished:
                    info = infos[i]
                    last_obs, last_info = info.pop("final_obs"), info.pop("final_info")
                    self.reset_infos[i] = dict(info)
                    infos[i] = {**info, **last_info, "terminal_observation": last_obs}
            elif finished:
                obs_after, reset_infos = self._lists.reset(options={"reset_mask": done})
                for i in finished:
                    infos[i]["terminal_observation"] = obs[i].copy()
                    self.reset_infos[i] = reset_infos[i]
                obs[finished] = obs_after[finished]
            for i, info in enumerate(infos):
                info["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            return obs, rewards.astype(np.float32), done, infos

        def close(self) -> None:
            self.venv.close()

        def _owner(self, name: str) -> Any:
            """The vector env (outermost first, through Gymnasium's vector wrappers) that has ``name``."""
            env = self.venv
            while not hasattr(env, name):
                if not isinstance(env, VectorWrapper):
                    raise AttributeError(f"{self.venv!r} has no attribute {name!r}")
                env = env.env
            return env

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            value = getattr(self._owner(attr_name), attr_name)
            return [value for _ in self._get_indices(indices)]

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            if len(list(self._get_indices(indices))) != self.num_envs:
                raise ValueError("SB3VecEnv.set_attr sets an attribute of the whole vector env; pass indices=None")
            setattr(self._owner(attr_name), attr_name, value)

        def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
            result = getattr(self._owner(method_name), method_name)(*method_args, **method_kwargs)
            return [result[i] for i in self._get_indices(indices)]

        def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
            return [False for _ in self._get_indices(indices)]  # the games are not Gymnasium envs at all

        def get_images(self) -> Sequence[np.ndarray | None]:
            if self.render_mode != "rgb_array":
                gymnasium.logger.warn(f"render mode {self.render_mode!r}: get_images needs rgb_array")
                return [None for _ in range(self.num_envs)]
            return list(self.venv.render())

    SB3VecEnv.__module__ = __name__
    SB3VecEnv.__qualname__ = "SB3VecEnv"
    return SB3VecEnv
