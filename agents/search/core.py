"""The generic search agents: information-set MCTS (``ismcts``) and determinized rollouts (``pimc``).

This module knows no game: what it needs of one (horizons, spans, rollout policies, estimates,
beliefs, presets) comes from the game's ``SearchRules`` (``rules.py``; each game's in its own
module: ``le_dix.py``, ``dix_de_suite.py``, ``dix.py``).

Both agents search over *worlds*: full game states drawn by the engine's
``state.sample_hidden(seat, rng)``, which redraws everything the seat to act cannot see (other
hands, pile orders, the generator of later deals) uniformly among the states consistent with what
it knows. That call is the only use the agents make of the environment's state; the samplers are
functions of the seat's information alone, so the agents cannot use what their seat may not know
(``tests/agents/test_search.py`` checks it: two states that differ only in hidden facts give the
same move).

``ismcts`` is single-observer information-set MCTS (Cowling, Powley & Whitehouse, 2012): one tree
over the searching seat's information sets, each iteration on a fresh world. A node is keyed by
the seat to act and the searching seat's observation (its information state: dixenv observations
carry the public history a player could remember), so worlds that the searching seat cannot tell
apart share a node, a card it sees drawn leads to a node of its own, and a move it cannot see (the
dealer's face-down discard in le_dix, a card drawn by an opponent) leads to one node whatever it
was. Other seats choose in the same tree from what the searching seat sees (the SO-ISMCTS opponent
model), or with ``opponents=own`` from what they see themselves in the world drawn (their nodes
keyed by their own observation, as OpenSpiel's ``ISMCTSBot`` does), or by the rollout policy
(``opponents=policy``). Children are chosen by UCB1 over the actions legal in the current world, with each
action's *availability* (how often it was legal when its node was visited) in place of the parent's
visits (the subset-armed bandit of the paper). Each iteration adds one edge, then plays a rollout
from there. The move played is the root action with the most visits.

``pimc`` (perfect-information Monte Carlo, "determinized rollouts") samples worlds, plays every
legal move in each followed by a rollout, and plays the move with the best mean value.

Shared options (``ismcts:iterations=300,rollout=heuristic``):

* ``preset`` — a named setting of the options below (``ismcts:preset=fast``; ``rules.py``): the
  generic ``defaults`` (the game's own defaults), ``fast`` and ``cowling2012``, and each game's own
  (``strongest``: its strongest measured setting; dix_de_suite also ``reply``); options written
  with it override its own (``ismcts:preset=strongest,iterations=30``). An agent named without any
  option (plain ``ismcts``) plays its game's ``strongest`` where the table accepts it
  (``SearchRules.plain``); options without a preset apply to the game's defaults, as they always
  did, so every option string keeps its meaning;
* ``iterations`` — simulations per move (rollouts for ``pimc``); ``seconds`` — a time limit per
  move instead (both may be given: the first reached stops the search; a time limit makes the
  moves depend on the machine's speed, so only iterations are reproducible);
* ``rollout`` — ``random`` (uniform legal moves on the bare engine), ``greedy`` (a cheap
  hand-written policy on the bare engine, every game: ``le_dix._le_dix_greedy``,
  ``dix_de_suite._dix_de_suite_greedy``, ``dix._dix_greedy``; the default) or ``heuristic`` (the game's registered heuristic, reading the
  acting seat's observation encoded for it; several times slower per step), with its parameters
  given as ``rollout.NAME=VALUE`` (``rollout=heuristic,rollout.secure=1``), or ``policy`` (a
  trained policy's most likely move: the table's shipped ``ppo``, or ``rollout.path=PATH``; with
  ``deviate``, a search over that policy as blueprint, SPARTA's scheme, and with ``width=k`` over
  its k most likely moves; on the compiled engine in dix, every rollout of a round steps together,
  one forward pass per step);
* ``horizon`` — where a simulation stops: ``game`` (the end of the game) or the end of the current
  ``deal`` (le_dix) / ``round`` (dix_de_suite). le_dix plays 10 deals and dix_de_suite rounds up
  to 500 points: playing them out costs tens of times more per simulation and drowns the current
  deal's effect in the noise of later deals, so these games search to the end of the deal or round
  by default; dix (one pile, about a hundred moves) searches to the end of the game;
  dix_de_suite also has ``turn``: a simulation stops at the searching seat's next decision after
  another seat has moved (the end of the other seats' turns), and is scored by the estimate; and
  ``move``: it stops as soon as another seat is to act (the end of the searching seat's turn);
* ``value`` — what a simulation is worth to each seat: ``win`` (``dixenv.core.rewards.win_rewards``
  on the ranking at the end of the game, in [-1, 1]; needs ``horizon=game`` or an estimate of
  the game's result), ``points`` (points
  gained over the horizon, divided by the most a seat can gain over it) or ``margin`` (the same
  minus the mean of the other seats' — teams: the other team's);
* ``depth`` — at most this many moves per rollout (0: score the position where the tree stops);
  a simulation cut short is scored with the game's estimate of the horizon's points;
* ``estimate`` (dix_de_suite) — that estimate: ``lis`` (default: the longest increasing
  subsequence of each rack, ``dix_de_suite._dix_de_suite_estimate``), ``cost`` (the heuristic's rack
  costs, ``_dix_de_suite_cost_estimate``) or ``reply`` (the same, the seat to act credited with
  the rest of its turn as the heuristic expects it, ``_dix_de_suite_reply_estimate``) or
  ``game`` (2 players: ``reply``'s round-win chances turned into chances of winning the game,
  from the points each outcome leaves, ``_dix_de_suite_game_estimate``; it is scored with
  ``value=win``, the default with it, at any horizon);
* ``round_win`` (dix_de_suite, with ``estimate=reply`` or ``game``) — how rack costs become each
  seat's chance of sorting first: ``softmax`` (default: softmax(-cost / ``COST_TAU``)) or
  ``fitted`` (2 players without ``two_player_run`` or ``run_bonus``: a logistic model in log(1 + cost) with a
  tempo term for the seat to act, fitted to 150,000 decisions of the heuristic's self-play,
  ``_dix_de_suite_sort_chances``);
* ``belief`` — how worlds are drawn: ``uniform`` (default: ``sample_hidden`` as it is, which takes
  the other seats' choices to reveal nothing) or, dix_de_suite, ``progress``: each world is then
  refined so that the other seats' hidden racks are about as sorted as their turns this round
  suggest (``dixenv.agents.dix_de_suite_belief``; uniform worlds put a random rack where the other
  seat, late in a round, holds a nearly sorted one);
* ``decisions`` (dix_de_suite) — ``all`` (default) or ``place``: search only the placements (swap
  or discard), and play the source decision (draw or take) by the rollout policy;
* ``width`` — search only this many root moves (0: all): the rollout policy's move and the others
  of best one-ply value on one world (useful where that value means something: with an estimate;
  ``ismcts`` needs ``root=paired`` or ``halving`` for it);
* ``deviate`` — a threshold δ ≥ 0 (0, the default: off): play the rollout policy's move unless
  another searched move's mean beats its mean by more than δ, in the value's units (``win``: the
  game result in [-1, 1]; ``points``, ``margin``: a share of the horizon's span). Why: a search
  over sampled worlds whose estimate is cruder than the rollout policy's own judgement loses by
  its noisy deviations (dix_de_suite, docs/results/search.md); keeping the policy's move unless the search
  is clearly better is SPARTA's rule (Lerer, Hu, Foerster & Brown, 2020: single-agent search over
  a blueprint, deviating only when the expected gain exceeds a threshold). ``pimc`` and
  ``ismcts`` with ``root=paired``, where every move is played on the same worlds;
* ``c`` — the UCB exploration constant (``ismcts``; 0.7, dix 0); ``worlds`` — how many worlds to
  draw per move and cycle through (0: a fresh one for every iteration; fewer trades diversity for
  speed, as OpenSpiel's ``max_world_samples``);
* ``opponents`` — ``tree`` (default; dix ``policy``), ``own`` or ``policy``: how the other seats
  choose (above);
* ``expand`` (``ismcts``) — ``random`` (default: a node tries its moves in random order, each once
  before UCB chooses) or ``policy`` (dix: the rollout policy's move first, and progressive
  widening: a node visited n times considers 1 + ⌊√(n/4)⌋ of its moves);
* ``root`` (``ismcts``) — ``ucb`` (default: the root is a node like the others, the most visited
  move is played) or ``paired`` (dix: each world drawn is played once from every root move, so
  the moves are compared on the same worlds, as ``pimc`` does, and the best mean is played) or
  ``halving`` (paired worlds, with the budget spent by sequential halving: rounds in which the
  better half of the moves survives; needs ``iterations``);
* ``engine`` — ``python`` (default: simulations on the reference engine) or ``compiled`` (le_dix
  and dix with ``rollout=random`` or ``greedy``; the ``fast`` extra, numba): ``pimc`` redraws its
  worlds and rolls them out together on the compiled batched engine, over ten times the rollouts
  per second; ``ismcts`` in le_dix runs its whole search compiled (``compiled_ismcts.py``: the
  tree keyed by the move sequence the seat sees; ``horizon=deal``, ``value`` points or margin,
  ``opponents=tree``, ``expand=random``, ``root`` ucb or paired: le_dix's defaults); otherwise it
  walks its tree on the reference engine as before and plays each simulation's rollout from the
  leaf on the compiled engine (``agents/search/compiled.py`` and ``compiled_dix.py`` say what
  stays the same);
* ``seed`` — the agent's generator (worlds, tie-breaks, random rollouts): same seed, same
  information, same budget in iterations → the same move.
"""

from __future__ import annotations


from __future__ import annotations

import math
import time
from typing import Any, Callable

import numpy as np

from dixenv.agents.search.rules import SearchRules, plain_preset, preset_options, rules_for
from dixenv.core.rewards import win_rewards

ROLLOUTS = ("random", "greedy", "heuristic", "policy")
VALUES = ("win", "points", "margin")
ROUND_WINS = ("softmax", "fitted")  # dix_de_suite: rack costs to chances of sorting first
OPPONENTS = ("tree", "own", "policy")
EXPANSIONS = ("random", "policy")
ROOTS = ("ucb", "paired", "halving")
ENGINES = ("python", "compiled")  # rollouts on the reference engine, or on the compiled one (``compiled.py``)
COMPILED_GAMES = ("le_dix", "dix")
COMPILED_ROLLOUTS = ("random", "greedy", "policy")  # policy: dix only (``compiled_dix.py``)
#: Uniform floats drawn at once for random rollouts and tie-breaks (one generator call per block).
_BLOCK = 4096


# --- the agents -------------------------------------------------------------------------------------


class _SearchAgent:
    """What both search agents share: options, worlds, rollouts and the value of a simulation."""

    name = "search"
    #: Default simulations per move (docs/results/search.md gives what they cost).
    DEFAULT_ITERATIONS = 100

    def __init__(self, env: Any, seed: int | None = None, preset: str | None = None, **options: Any):
        raw = env.unwrapped
        self.env = env
        self.game_name = raw.game.name
        self.rules = rules_for(self.game_name)
        if preset is None:  # no option at all: the game's plain setting; options alone: its defaults
            preset = "defaults" if options else plain_preset(self.rules, self.name, raw.config)
        #: The preset played, and every option in force but the defaults (the preset's, then the given).
        self.preset = preset
        self.options = {**preset_options(self.rules, self.name, preset, raw.config, self.game_name), **options}
        self._configure(seed, **self.options)

    def _configure(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout: str | None = None,
        horizon: str | None = None,
        value: str | None = None,
        depth: int | None = None,
        c: float | None = None,
        worlds: int = 0,
        opponents: str | None = None,
        estimate: str | None = None,
        width: int = 0,
        decisions: str | None = None,
        deviate: float = 0.0,
        round_win: str | None = None,
        belief: str | None = None,
        engine: str | None = None,
        **unknown: Any,
    ) -> None:
        """Check and set the options (the module docstring); the game's defaults fill the ones not given."""
        rollout_params = {k[len("rollout.") :]: unknown.pop(k) for k in [k for k in unknown if k.startswith("rollout.")]}
        if unknown:
            raise ValueError(
                f"unknown search option(s) {', '.join(sorted(unknown))} for {self.name}; options: "
                f"{', '.join(_options(type(self)))}, and rollout.NAME for the heuristic rollout's parameters"
            )
        env = self.env
        raw = env.unwrapped
        rules = self.rules
        self.engine = _choice("engine", "python" if engine is None else engine, ENGINES)
        self.horizon = _choice("horizon", rules.default_horizon if horizon is None else horizon, _horizons(rules))
        win_estimates = rules.win_estimates or {}
        self._win_estimate = estimate in win_estimates
        if self._win_estimate:
            refusal = win_estimates[estimate](raw.config)
            if refusal:
                raise ValueError(refusal)
        default_value = "win" if self._win_estimate else rules.default_value
        self.value = _choice("value", default_value if value is None else value, VALUES)
        if self._win_estimate and self.value != "win":
            raise ValueError(f"search option estimate={estimate!r} gives the game's result: it needs value='win' (got {self.value!r})")
        if self.value == "win" and self.horizon != "game" and not self._win_estimate:
            raise ValueError(f"value='win' needs horizon='game' (a {self.horizon} does not end the game) or an estimate of the game's result; use points or margin")
        self.rollout = _choice("rollout", rules.default_rollout if rollout is None else rollout, ROLLOUTS)
        if iterations is None and seconds is None:
            iterations = self.DEFAULT_ITERATIONS
        self.iterations = None if iterations is None else _count("iterations", iterations, 1)
        self.seconds = None if seconds is None else _positive("seconds", seconds)
        self.depth = None if depth is None else _count("depth", depth, 0)
        estimates = rules.estimates or {}
        if estimate is not None and not estimates:
            raise ValueError(f"search option estimate={estimate!r}: {self.game_name} has no estimates (a simulation cut short counts what is scored)")
        self.estimate = _choice("estimate", estimate, tuple(estimates)) if estimate is not None else next(iter(estimates), None)
        self._estimate = estimates.get(self.estimate) if self.estimate else None
        self.round_win = _choice("round_win", "softmax" if round_win is None else round_win, ROUND_WINS)
        if round_win is not None:
            if rules.round_win_refusal is None:
                raise ValueError(f"search option round_win={round_win!r} turns dix_de_suite rack costs into round-win "
                                 f"chances; got game {self.game_name!r}, which has none")
            refusal = rules.round_win_refusal(self.round_win, self.estimate, raw.config)
            if refusal:
                raise ValueError(refusal)
        beliefs = rules.beliefs or {}
        self.belief = _choice("belief", "uniform" if belief is None else belief, ("uniform", *beliefs))
        self._refine = beliefs.get(self.belief)
        self._turn = self.horizon in ("turn", "move")  # a turn boundary, scored by the estimate
        self._move = self.horizon == "move"
        kinds = rules.decisions or {}
        if decisions is not None and not kinds:
            raise ValueError(f"search option decisions={decisions!r}: {self.game_name} searches every decision (no decisions option)")
        self.decisions = _choice("decisions", decisions, tuple(kinds)) if decisions is not None else next(iter(kinds), None)
        self._decides = kinds.get(self.decisions) if self.decisions else None
        self.width = _count("width", width, 0)
        self.deviate = _positive("deviate", deviate, allow_zero=True)
        self.c = _positive("c", rules.default_c if c is None else c, allow_zero=True)
        self.worlds = _count("worlds", worlds, 0)
        self.opponents = _choice("opponents", rules.default_opponents if opponents is None else opponents, OPPONENTS)
        self._opponents_by_policy = self.opponents == "policy"
        self._opponents_own = self.opponents == "own"
        self._observer = raw.game.make_observer(raw.config)
        self._num_actions = raw.game.num_actions(raw.config)
        self._mask = np.zeros(self._num_actions, dtype=np.int8)
        self._policy = None
        self._greedy = rules.greedy if self.rollout == "greedy" else None
        if self.rollout == "greedy" and self._greedy is None:
            raise ValueError(f"search option rollout='greedy' has no policy for {self.game_name}; use random or heuristic")
        if rollout_params and self.rollout not in ("heuristic", "policy"):
            raise ValueError(
                f"search options {', '.join('rollout.' + k for k in sorted(rollout_params))} set the heuristic "
                f"rollout's parameters, but rollout={self.rollout!r}; use rollout=heuristic (rollout=policy takes rollout.path)"
            )
        if self.rollout == "heuristic":
            from dixenv.agents.registry import make_agent  # lazy: the registry lists this module

            self._policy = make_agent(self.game_name, "heuristic", env, seed=seed, **rollout_params)
        elif self.rollout == "policy":
            self._policy = _rollout_policy(self.game_name, env, rollout_params)
        self._compiled = self._compiled_rollouts() if self.engine == "compiled" else None
        self.last_search: dict[str, Any] = {}
        self.reset(seed)

    def _compiled_rollouts(self) -> Any:
        """``engine=compiled``: the game's rollouts on its compiled batched engine (``compiled.py``,
        ``compiled_dix.py``), or a ``ValueError`` naming what it cannot play."""
        if self.game_name not in COMPILED_GAMES:
            raise ValueError(f"search option engine='compiled' plays {', '.join(COMPILED_GAMES)} only; got game "
                             f"{self.game_name!r}: use engine='python'")
        if self.rollout not in COMPILED_ROLLOUTS:
            raise ValueError(f"search option engine='compiled' rolls out with rollout={' or '.join(COMPILED_ROLLOUTS)}; "
                             f"rollout={self.rollout!r} is Python only: use engine='python'")
        if self.rollout == "policy" and (self.game_name != "dix" or self.depth is not None):
            raise ValueError(f"search option rollout='policy' on engine='compiled' plays dix games to their end (no depth); "
                             f"got game {self.game_name!r}, depth={self.depth!r}: use engine='python'")
        try:  # lazy: numba is the optional ``fast`` extra
            if self.game_name == "dix":
                from dixenv.agents.search.compiled_dix import DixCompiledRollouts as Rollouts
            else:
                from dixenv.agents.search.compiled import CompiledRollouts as Rollouts
        except ImportError as exc:
            raise ValueError(f"search option engine='compiled' needs numba: pip install 'dixenv[fast]' ({exc})") from exc
        return Rollouts(self.env.unwrapped.config, self.rollout, self.horizon, self.value, self.depth, policy=self._policy)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the agent's generator (worlds, tie-breaks, random rollouts)."""
        self.rng = np.random.default_rng(seed)
        self._uniforms: list[float] = []

    # --- the entry point --------------------------------------------------------------------------
    def act(self, observation: dict[str, np.ndarray]) -> int:
        """Search from the seat to act's information and return the chosen legal action."""
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        if len(legal) == 1:
            return legal[0]
        raw = self.env.unwrapped
        seat = int(raw.agent_selection.rsplit("_", 1)[1])
        state = raw.state  # read only to draw worlds: sample_hidden is a function of the seat's information

        def sample() -> Any:
            world = state.sample_hidden(seat, self.rng)
            if self._refine is not None:  # ``belief``: what the other seats' play reveals
                self._refine(world, seat, self.rng)
            if _settable_rng(world):
                # The world's later deals come from the agent's generator: as random as the fresh
                # one sample_hidden seeds, and building a generator costs more than a deal.
                world.rng = self.rng
            return world

        start = time.perf_counter()
        self._seat = seat
        if self._decides is not None:
            first = sample()  # the decision's kind (public) and, if unsearched, the policy's move
            if not self._decides(first):  # ``decisions``: the rollout policy's move, unsearched
                action = self._rollout_action(first, legal)
                self.last_search = {"iterations": 0, "searched": False, "seconds": time.perf_counter() - start}
                return action
        worlds = self._worlds(sample)
        moves = self._root_moves(legal, worlds)
        action, stats = self._search(seat, moves, worlds, start)
        if self.deviate:
            stats["policy_move"] = moves[0]  # the move ``deviate`` keeps unless another is clearly better
        stats["seconds"] = time.perf_counter() - start
        self.last_search = stats
        return action

    def _search(self, seat: int, legal: list[int], world: Callable[[], Any], start: float) -> tuple[int, dict[str, Any]]:
        raise NotImplementedError

    def _worlds(self, sample: Callable[[], Any]) -> Callable[[], Any]:
        """A source of worlds: a fresh sample each call, or (``worlds=k``) clones of k samples in turn."""
        if not self.worlds:
            return sample
        pool: list[Any] = []
        k = self.worlds

        def next_world() -> Any:
            if len(pool) < k:
                pool.append(sample())
                return pool[-1].clone()
            world = pool[next_world.i % k]
            next_world.i += 1
            return world.clone()

        next_world.i = 0
        return next_world

    def _budget_left(self, done: int, start: float) -> bool:
        """True while the iteration and time budgets allow another simulation."""
        if self.iterations is not None and done >= self.iterations:
            return False
        return self.seconds is None or time.perf_counter() - start < self.seconds

    # --- simulations -----------------------------------------------------------------------------
    def _uniform(self) -> float:
        """A uniform float in [0, 1) from the agent's generator (drawn in blocks: a call costs ~1 µs)."""
        if not self._uniforms:
            self._uniforms = self.rng.random(_BLOCK).tolist()
        return self._uniforms.pop()

    def _begin(self, world: Any) -> None:
        """Remember what the values are measured from: the horizon mark, the scores and the scale."""
        self._mark = self.rules.mark(world)
        self._base = [float(s) for s in world.scores()]
        scale_horizon = (self.rules.short or "game") if self._turn else self.horizon
        self._scale = self.rules.span(world, scale_horizon) or 1.0

    def _start(self) -> None:
        """Before each simulation: no other seat has moved yet (the ``turn`` horizon)."""
        self._left = False

    def _ended(self, state: Any) -> bool:
        """True once the game is over or (short horizons) the deal or round has ended."""
        return state.current_player() < 0 or (self.horizon != "game" and self.rules.mark(state) != self._mark)

    def _over(self, state: Any) -> bool:
        """True once the simulation has reached its horizon: the game's, the deal's or round's, or
        (``turn``) the searching seat's next decision after another seat has moved."""
        if self._ended(state):
            return True
        if not self._turn:
            return False
        if state.current_player() != self._seat:
            self._left = True
            return self._move
        return self._left

    def _play_out(self, state: Any) -> bool:
        """Play the rollout policy up to the horizon or ``depth`` moves; False if cut short (by
        ``depth``, or by the ``turn`` horizon before the round's end): the estimate then counts."""
        limit = self.depth
        steps = 0
        while not self._over(state):
            if limit is not None and steps >= limit:
                return False
            legal = state.legal_actions()
            state.apply_action(legal[0] if len(legal) == 1 else self._rollout_action(state, legal))
            steps += 1
        return not self._turn or self._ended(state)

    def _root_moves(self, legal: list[int], world: Callable[[], Any]) -> list[int]:
        """The root moves to search: all legal ones, or (``width=k``) the rollout policy's move and
        the k - 1 others of best one-ply value on one world (the estimate of the position each
        leaves, from the searching seat's side; ``rollout=policy``: the policy's k - 1 next most
        likely moves). With ``width`` or ``deviate`` the rollout policy's move comes first
        (``_choose`` reads it there)."""
        narrow = self.width and len(legal) > self.width
        if not narrow and not self.deviate:
            return legal
        state = world()
        first = self._rollout_action(state, legal)
        others = [a for a in legal if a != first]
        if narrow and self.rollout == "policy":
            logits = self._ask(state, legal, lambda view: self._policy.masked_logits(view["observation"][None, :],
                                                                                      view["action_mask"][None, :])[0])
            others = sorted(others, key=lambda a: (-logits[a], a))[: self.width - 1]
        elif narrow:
            self._begin(state)  # the one-ply values are measured from this world
            ranked = []
            for a in others:
                after = state.clone()
                after.apply_action(a)
                ranked.append((-self._values(after, self._ended(after))[self._seat], a))
            ranked.sort()
            others = [a for _, a in ranked[: self.width - 1]]
        return [first] + others

    def _choose(self, moves: list[int], means: dict[int, float]) -> int:
        """The best mean among moves played on the same worlds (ties: the lowest id); with
        ``deviate``, the rollout policy's move (``moves[0]``) unless the best beats it by more."""
        best = max(moves, key=lambda a: (means[a], -a))
        if self.deviate and means[best] - means[moves[0]] <= self.deviate:
            return moves[0]
        return best

    def _rollout_action(self, state: Any, legal: list[int]) -> int:
        """The rollout policy's move among ``legal`` (two or more)."""
        if self._greedy is not None:
            return self._greedy(state, legal)
        if self._policy is None:
            return legal[int(self._uniform() * len(legal))]
        return self._policy_action(state, legal)

    def _policy_action(self, state: Any, legal: list[int]) -> int:
        """The rollout heuristic's move, from the acting seat's own observation of ``state``."""
        return int(self._ask(state, legal, self._policy.act))

    def _ask(self, state: Any, legal: list[int], question: Callable[[dict[str, np.ndarray]], Any]) -> Any:
        """``question`` (an agent's ``act``, a heuristic's ``turn_cost``) put to the acting seat's own
        observation of ``state`` with ``legal`` as its mask (the agent's observer and mask, reused)."""
        self._observer.set_from(state, state.current_player())
        mask = self._mask
        mask[legal] = 1
        try:
            return question({"observation": self._observer.tensor, "action_mask": mask})
        finally:
            mask[legal] = 0

    def _values(self, state: Any, finished: bool) -> list[float]:
        """What the simulation ending in ``state`` is worth to each seat (``value`` option)."""
        if state.is_truncated():
            return [0.0] * state.num_seats  # nobody wins a game cut short
        teams = state.teams()
        if self.value == "win":
            if state.is_terminal():
                return win_rewards(state.ranking_keys(), teams)
            if self._win_estimate:  # the game's result as the estimate expects it
                return self._estimate(self, state)
            return win_rewards([(v,) for v in self._expected_scores(state, finished)], teams)
        scores = self._expected_scores(state, finished)
        gains = [(s - b) / self._scale for s, b in zip(scores, self._base)]
        if teams is not None:  # a team's gain is its members' sum; every member gets its team's value
            team_gain = {t: 0.0 for t in teams}
            for s, t in enumerate(teams):
                team_gain[t] += gains[s]
            gains = [team_gain[t] for t in teams]
            if self.value == "points":
                return gains
            others = len(team_gain) - 1
            return [g - (sum(team_gain.values()) - g) / others for g in gains]
        if self.value == "points":
            return gains
        n = len(gains)
        total = sum(gains)
        return [g - (total - g) / (n - 1) for g in gains]

    def _expected_scores(self, state: Any, finished: bool) -> list[float]:
        """Scores at the end of the simulation, plus the game's estimate of what is to come if it was cut short."""
        scores = [float(s) for s in state.scores()]
        if finished or self._estimate is None or state.current_player() < 0:
            return scores
        return [s + e for s, e in zip(scores, self._estimate(self, state))]


class ISMCTSAgent(_SearchAgent):
    """Single-observer information-set MCTS over ``sample_hidden`` worlds (see the module docstring)."""

    name = "ismcts"

    def _configure(self, seed: int | None = None, expand: str | None = None, root: str | None = None, **options: Any) -> None:
        super()._configure(seed, **options)
        self.expand = _choice("expand", self.rules.default_expand if expand is None else expand, EXPANSIONS)
        self._expand_by_policy = self.expand == "policy"
        self.root = _choice("root", self.rules.default_root if root is None else root, ROOTS)
        self._paired_root = self.root == "paired"
        self._halving_root = self.root == "halving"
        if self.width and self.root == "ucb":
            raise ValueError(f"search option width={self.width} needs root='paired' or root='halving' (a ucb root chooses among every legal move)")
        if self.deviate and not self._paired_root:
            raise ValueError(f"search option deviate={self.deviate} needs root='paired' (it compares means over the same worlds; got root={self.root!r})")
        if self._halving_root and self.iterations is None:
            raise ValueError("search option root='halving' splits a budget of iterations over its rounds; give iterations (seconds may be added as a limit)")
        self._compiled_tree = None
        if self.engine == "compiled":  # the whole search compiled where it covers the options; else the tree stays in Python
            if self.game_name == "le_dix":
                from dixenv.agents.search import compiled_ismcts as tree  # lazy: numba is the optional ``fast`` extra

                if tree.covers(self):
                    self._compiled_tree = tree.CompiledTree(self.env.unwrapped.config)
            else:
                from dixenv.agents.search import compiled_ismcts_dix as tree

                if tree.covers(self):
                    self._compiled_tree = tree.DixTree(self.env.unwrapped.config)

    def _search(self, seat: int, legal: list[int], world: Callable[[], Any], start: float) -> tuple[int, dict[str, Any]]:
        if self._compiled_tree is not None:
            from dixenv.agents.search.compiled_ismcts import ismcts_search

            return ismcts_search(self, seat, legal, world, start)
        root: dict[int, list] = {}
        table: dict[tuple, dict[int, list]] = {}
        if self._halving_root:
            return self._halving(seat, legal, world, start, root, table)
        done = 0
        while done == 0 or self._budget_left(done, start):
            state = world()
            if done == 0:
                self._begin(state)
            if not self._paired_root:
                self._simulate(state, root, table, seat)
                done += 1
                continue
            for a in legal:  # every root move on the same world: their comparison is paired
                if done and not self._budget_left(done, start):
                    break
                self._simulate(state.clone(), root, table, seat, first=a)
                done += 1
        visits, means = _root_stats(root, legal)
        if self._paired_root:  # the visits are equal (give or take one): the best mean (``_choose``)
            action = self._choose(legal, means)
        else:  # the most visited action; ties go to the better mean, then to the lowest id
            action = max(legal, key=lambda a: (visits[a], means[a], -a))
        return action, {"iterations": done, "nodes": len(table) + 1, "visits": visits, "means": means}

    def _halving(
        self, seat: int, legal: list[int], world: Callable[[], Any], start: float, root: dict[int, list], table: dict[tuple, dict[int, list]]
    ) -> tuple[int, dict[str, Any]]:
        """Sequential halving at the root (Karnin, Koren & Somekh, 2013), on paired worlds.

        Why: with ``root=paired`` every legal move gets the same share of the budget, so a bid
        among ten or a payment among twelve is decided on a tenth of the worlds a two-way choice
        gets, while most of those moves are plainly worse. Here the budget is split into
        ⌈log2 k⌉ rounds for k moves; in each round every surviving move is played on the same new
        worlds (about budget / (rounds × survivors) each, at least one), then the better half by
        mean over all its worlds so far survives. The last survivor, or the best mean among the
        survivors when the budget runs out, is played. Every survivor has been played on every
        world drawn, so the comparison stays paired. Measured in dix (docs/results/search.md): its simple
        regret is no lower than the paired root's at the same budget, so dix keeps ``paired``.
        """
        survivors = list(legal)
        rounds = max(1, math.ceil(math.log2(len(legal))))
        done = 0
        out_of_budget = False
        for _ in range(rounds):
            per_move = max(1, self.iterations // (rounds * len(survivors)))
            for _ in range(per_move):
                state = world()
                if done == 0:
                    self._begin(state)
                for a in survivors:
                    if done and not self._budget_left(done, start):
                        out_of_budget = True
                        break
                    self._simulate(state.clone(), root, table, seat, first=a)
                    done += 1
                if out_of_budget:
                    break
            means = _root_stats(root, survivors)[1]
            survivors.sort(key=lambda a: (means[a], -a), reverse=True)
            if out_of_budget:
                break
            survivors = survivors[: max(1, math.ceil(len(survivors) / 2))]
            if len(survivors) == 1:
                break
        visits, means = _root_stats(root, legal)
        return survivors[0], {"iterations": done, "nodes": len(table) + 1, "visits": visits, "means": means}

    def _simulate(
        self, state: Any, root: dict[int, list], table: dict[tuple, dict[int, list]], seat: int, first: int | None = None
    ) -> None:
        """One iteration: descend the tree by UCB (from the root move ``first`` if given), add one
        edge, play out, back the values up."""
        self._start()
        path: list[tuple[list, int]] = []  # (edge statistics [visits, value sum, availability], acting seat)
        node: dict[int, list] | None = root
        c = self.c
        if first is not None:
            edge = root.setdefault(first, [0, 0.0, 0])
            edge[2] += 1
            path.append((edge, seat))
            state.apply_action(first)
            node = None
        while not self._over(state):
            legal = state.legal_actions()
            if len(legal) == 1:  # forced: no decision, no node (the environment plays these too)
                state.apply_action(legal[0])
                node = None
                continue
            player = state.current_player()
            if player != seat and self._opponents_by_policy:
                state.apply_action(self._rollout_action(state, legal))
                node = None
                continue
            if node is None:
                node = table.setdefault(self._key(state, player if self._opponents_own else seat), {})
            untried = []
            for a in legal:
                edge = node.get(a)
                if edge is None:
                    edge = node[a] = [0, 0.0, 0]
                edge[2] += 1
                if edge[0] == 0:
                    untried.append(a)
            if untried and self._expand_by_policy:
                # Progressive widening: the rollout policy's move first; a node visited n times
                # considers 1 + floor(sqrt(n / 4)) of its moves, the others joining at random.
                visits = sum(node[a][0] for a in legal)
                if len(legal) - len(untried) >= 1 + math.isqrt(visits // 4):
                    untried = []  # wide enough for now: choose among the tried moves
                else:
                    policy_move = self._rollout_action(state, legal)
                    if policy_move in untried:
                        untried = [policy_move]
            if untried:
                action = untried[int(self._uniform() * len(untried))]
                path.append((node[action], player))
                state.apply_action(action)
                break
            best, action = -math.inf, legal[0]
            for a in legal:
                n, w, m = node[a]
                if n == 0:
                    continue  # not yet considered (progressive widening)
                score = w / n + c * math.sqrt(math.log(m) / n)
                if score > best:
                    best, action = score, a
            path.append((node[action], player))
            state.apply_action(action)
            node = None
        if self._compiled is not None:  # the playout and its values on the compiled engine
            values = self._compiled.playout(state, self.rng, self._base, self._scale, self._mark).tolist()
        else:
            finished = self._play_out(state)
            values = self._values(state, finished)
        for edge, player in path:
            edge[0] += 1
            edge[1] += values[player]

    def _key(self, state: Any, seat: int) -> tuple:
        """The node of ``state``: who acts, and everything ``seat`` observes (the searching seat's
        view; with ``opponents=own``, the acting seat's own view of the world)."""
        self._observer.set_from(state, seat)
        return state.current_player(), self._observer.tensor.tobytes()


class PIMCAgent(_SearchAgent):
    """Determinized rollouts: each sampled world plays every legal move and a rollout after it."""

    name = "pimc"

    def _search(self, seat: int, legal: list[int], world: Callable[[], Any], start: float) -> tuple[int, dict[str, Any]]:
        if self._compiled is not None:
            from dixenv.agents.search.compiled import pimc_search

            return pimc_search(self, seat, legal, world, start)
        totals = {a: 0.0 for a in legal}
        counts = {a: 0 for a in legal}
        done = 0
        while done == 0 or self._budget_left(done, start):
            sample = world()
            if done == 0:
                self._begin(sample)
            for a in legal:  # every move on the same world: the comparison between moves is paired
                if done and not self._budget_left(done, start):
                    break
                state = sample.clone()
                self._start()
                state.apply_action(a)
                finished = self._play_out(state)
                totals[a] += self._values(state, finished)[seat]
                counts[a] += 1
                done += 1
        means = {a: totals[a] / counts[a] if counts[a] else float("-inf") for a in legal}
        action = self._choose(legal, means)
        return action, {"iterations": done, "visits": counts, "means": means}


# --- option checks ----------------------------------------------------------------------------------


def _options(cls: type) -> list[str]:
    """The option names an agent class takes: its ``_configure`` keywords (seed aside), then ``preset``."""
    import inspect

    names: list[str] = []
    for klass in cls.__mro__:
        init = klass.__dict__.get("_configure")
        if init is None:
            continue
        for p in inspect.signature(init).parameters.values():
            if p.kind is p.POSITIONAL_OR_KEYWORD or p.kind is p.KEYWORD_ONLY:
                if p.name not in ("self", "env", "seed") and p.name not in names:
                    names.append(p.name)
    return names + ["preset"]


def _root_stats(root: dict[int, list], moves: list[int]) -> tuple[dict[int, int], dict[int, float]]:
    """Each root move's visits and mean value (-inf for a move not yet played)."""
    visits = {a: root[a][0] if a in root else 0 for a in moves}
    means = {a: root[a][1] / root[a][0] if a in root and root[a][0] else float("-inf") for a in moves}
    return visits, means


def _settable_rng(state: Any) -> bool:
    """True if the state's generator of later deals is a settable ``rng`` property (le_dix, dix_de_suite)."""
    prop = getattr(type(state), "rng", None)
    return isinstance(prop, property) and prop.fset is not None


def _horizons(rules: SearchRules) -> tuple[str, ...]:
    turn = ("turn", "move") if rules.estimates else ()  # scored by an estimate
    return (*turn, "game") if rules.short is None else (rules.short, *turn, "game")


def _rollout_policy(game: str, env: Any, params: dict[str, Any]) -> Any:
    """``rollout=policy``'s player: the saved policy ``rollout.path=PATH``, else the table's shipped ``ppo``
    (``dixenv.agents.policy.PolicyAgent``, its most likely move)."""
    from dixenv.agents.registry import make_agent  # lazy: the registry lists this module

    extra = sorted(set(params) - {"path"})
    if extra:
        raise ValueError(f"search option rollout='policy' takes rollout.path=PATH (a saved policy; default: the table's "
                         f"shipped ppo), got {', '.join('rollout.' + k for k in extra)}")
    if "path" in params:
        return make_agent(game, "policy", env, path=params["path"])
    return make_agent(game, "ppo", env)


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"search option {name}={value!r}; allowed: {', '.join(allowed)}")
    return value


def _count(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"search option {name}={value!r}; allowed: an integer >= {low}")
    return int(value)


def _positive(name: str, value: Any, allow_zero: bool = False) -> float:
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"search option {name}={value!r}; allowed: a number {'>= 0' if allow_zero else '> 0'}")
    return float(value)

