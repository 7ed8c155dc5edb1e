"""The PettingZoo AEC adapter shared by every dixenv game.

It knows nothing of any game's rules: it drives a ``GameState`` built by a ``Game`` record
(``dixenv.core.game``) and does the AEC bookkeeping — agents, rewards, terminations,
truncations, infos, spaces, forced moves, illegal-action errors and rendering.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from dixenv.core.events import Event
from dixenv.core.game import Game, GameState
from dixenv.core.layout import Layout
from dixenv.core.options import check_bool, check_choice, is_int, reset_options
from dixenv.core.rewards import REWARD_MODES, score_values, win_rewards

RENDER_MODES = ("ansi", "human", "rgb_array")
RENDER_FPS = 2
#: Caption lines of a picture: the latest events of the move log, when the env records one.
CAPTION_EVENTS = 2
#: Legal lists shorter than this are written into the mask one entry at a time, longer ones by one
#: fancy assignment (its list conversion costs about as much as 20 single writes; measured).
MASK_LOOP_MAX = 20


def as_action(action: Any, legal_names: Any) -> int:
    """``action`` as an int id if it is a Python or numpy integer (or a 0-d integer array).

    Anything else — a float, a string, a bool — raises ``ValueError`` naming the value and the legal
    actions (``legal_names()`` is called only then): an action is never truncated or parsed.
    """
    if is_int(action):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    raise ValueError(f"action {action!r} ({type(action).__name__}) is not an integer action id; legal: {legal_names()}")


def legal_names(game: Game, config: Any, legal: list[int]) -> str:
    """The legal actions as ``"id (name), …"`` for error messages."""
    return ", ".join(f"{a} ({game.action_to_string(config, a)})" for a in legal)


def play_forced(state: GameState, events: list[Event] | None) -> list[int]:
    """Play every move that is the only legal one (the forced-move rule); return the legal actions left.

    The list returned is the current player's legal actions (empty once the game is over), so a
    caller that builds a mask next need not ask the engine again. Forced decisions are marked
    ``kind="forced"`` in ``events`` (when recorded).
    """
    while state.current_player() >= 0:
        legal = state.legal_actions()
        if len(legal) != 1:
            return legal
        before = None if events is None else len(events)
        state.apply_action(legal[0])
        if before is not None and before < len(events) and events[before].kind == "move":
            # the decision itself was the only legal one: the environment played it
            e = events[before]
            events[before] = Event(e.seat, e.text, e.public, "forced")
    return []


class CardGameEnv(AECEnv):
    """PettingZoo AEC environment for one dixenv game (use a game's ``raw_env``, not this directly).

    Options common to every game: ``reward`` ("win": (players beaten − players that beat you)
    / (n − 1) at the end; "points": game points as they are scored; "margin": the change of the
    seat's lead over its best rival, its score minus the best other score, at every move, so a game
    pays its final lead), ``auto_forced`` (True: the
    environment plays every move that is the only legal one, so agents only see real decisions),
    ``render_mode`` ("ansi" returns text, "human" prints it, "rgb_array" returns an ``HxWx3 uint8``
    picture of the table drawn with Pillow, the ``render`` extra), ``render_viewer`` (whose view
    the picture shows: ``"spectator"``, the default, sees everything; a seat number sees only what
    that seat may know; it can be changed later by setting ``env.render_viewer``),
    ``record_events`` (keep the table's move log, ``events``; on with the text render modes; with
    "rgb_array" only when asked, as it costs time in training and the picture is drawn from the
    state; when on, the picture's caption shows the latest events). Other options go to the game.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS, "is_parallelizable": False}
    game: Game  # set by each game's raw_env subclass

    def __init__(
        self,
        render_mode: str | None = None,
        render_viewer: int | str | None = "spectator",
        reward: str = "win",
        auto_forced: bool = True,
        record_events: bool = False,
        **options: Any,
    ):
        super().__init__()
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.reward_mode = check_choice("reward", reward, REWARD_MODES)
        self.auto_forced = check_bool("auto_forced", auto_forced)
        self.record_events = check_bool("record_events", record_events) or render_mode in ("ansi", "human")
        self.events: list[Event] | None = None
        self.config = self.game.make_config(**options)
        self.render_viewer = render_viewer
        self._num_actions = self.game.num_actions(self.config)
        self._observer = self.game.make_observer(self.config)
        # An observer may give a new array in one pass (``observation``) instead of set_from and a copy.
        self._observe_new = getattr(self._observer, "observation", None) is not None
        self.possible_agents = [f"player_{s}" for s in self.game.agent_seats(self.config)]
        self._seat_of = {a: int(a.split("_")[1]) for a in self.possible_agents}
        self._agent_of = {s: a for a, s in self._seat_of.items()}
        layout = self._observer.layout
        obs_box = spaces.Box(layout.low, layout.high, dtype=np.float32)
        mask_box = spaces.Box(0, 1, shape=(self._num_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs_box, "action_mask": mask_box}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state: GameState | None = None

    # --- spaces -------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def layout(self) -> Layout:
        """The observation layout (named pieces with shapes and docs; ``layout.unflatten(obs)``)."""
        return self._observer.layout

    def observation_layout(self) -> dict[str, slice]:
        """Name → slice of the flat observation vector (the documented layout)."""
        return dict(self._observer.layout.slices)

    # --- actions as strings -------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """The action's name in this game's vocabulary (e.g. ``play TH``); ``ValueError`` unless an action id."""
        if not is_int(action) or not 0 <= action < self._num_actions:
            raise ValueError(
                f"action {action!r} ({type(action).__name__}) is not an action id; ids are integers 0..{self._num_actions - 1}"
            )
        return self.game.action_to_string(self.config, int(action))

    def string_to_action(self, text: str) -> int:
        """The action id for a name in this game's vocabulary; ``ValueError`` if unknown."""
        return self.game.string_to_action(self.config, text)

    # --- AEC API ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        scenario = reset_options(options)
        rng = self._rng if seed is None else np.random.default_rng(seed)
        events = [] if self.record_events else None
        state = self._new_state(rng, scenario, events)  # a refused reset changes nothing
        self._rng, self.events, self.state = rng, events, state
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._last_scores = list(self.state.scores())
        self._play_forced()
        self._after_move()
        # What the moves played here scored (forced moves, ALIX's turns) is each agent's from the
        # start: last() reports it at the agent's first observation, so a game pays its full result.
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:  # a plain int is already an action id (as_action costs ~0.5 µs)
            action = as_action(action, self._legal_names)
        self._step(agent, action)

    def _new_state(self, rng: np.random.Generator, scenario: dict[str, Any], events: list[Event] | None) -> GameState:
        """A new game dealt from ``rng`` (the engine's; ``dixenv.compiled.aec`` deals on the compiled one)."""
        return self.game.new_state(self.config, rng, scenario, events)

    def _is_legal(self, action: int) -> bool:
        """True if int ``action`` is legal for the agent to act (the classic wrapper's illegal-move test)."""
        return action in self.state.legal_actions()

    def _step(self, agent: str, action: int) -> None:
        """Play int ``action`` for ``agent``, the live agent to act, then the forced moves; set rewards and the next agent."""
        self.state.apply_action(action)  # raises ValueError naming the legal actions, changing nothing
        self._cumulative_rewards[agent] = 0.0
        if self.auto_forced:
            play_forced(self.state, self.events)
        if self._after_move():
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat, state = self._seat_of[agent], self.state
        if self._observe_new:
            observation = self._observer.observation(state, seat)
        else:
            self._observer.set_from(state, seat)
            observation = self._observer.tensor.copy()
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if state.current_player() == seat:
            legal = state.legal_actions()
            if len(legal) < MASK_LOOP_MAX:  # one numpy scalar write each beats converting a short list
                for a in legal:
                    mask[a] = 1
            else:
                mask[legal] = 1
        return {"observation": observation, "action_mask": mask}

    @property
    def render_viewer(self) -> int | str:
        """Whose view the ``render_mode="rgb_array"`` pictures show: ``"spectator"`` (everything) or a seat number."""
        return "spectator" if self._viewer_seat is None else self._viewer_seat

    @render_viewer.setter
    def render_viewer(self, viewer: int | str | None) -> None:
        from dixenv.render import check_viewer  # imports without Pillow

        self._viewer_seat = check_viewer(viewer, self.config.num_players)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi', 'human' or 'rgb_array'.")
            return None
        if self.state is None:
            raise RuntimeError("render() called before reset(); call reset() first")
        if self.render_mode == "rgb_array":
            from dixenv.render import table_array

            seat = self._viewer_seat
            caption = [e.text_for(seat) for e in self.events[-CAPTION_EVENTS:]] if self.events else []
            return table_array(self.game.name, self.state, seat, caption)
        text = self.state.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # --- helpers ------------------------------------------------------------------------------
    def scores(self) -> list[float]:
        """Each seat's game points so far, seat order (all seats, including ALIX in solo)."""
        return list(self.state.scores())

    def legal_actions(self) -> list[int]:
        """Legal action ids of the agent to act."""
        return self.state.legal_actions()

    def _legal_names(self) -> str:
        return legal_names(self.game, self.config, self.state.legal_actions())

    def _play_forced(self) -> None:
        """Play every move that is the only legal one (the forced-move rule), if ``auto_forced``."""
        if self.auto_forced:
            play_forced(self.state, self.events)

    def _after_move(self) -> bool:
        """Set rewards, terminations/truncations and the next agent from the engine's state.

        False when every reward is 0.0 and so is every cumulative reward (reward="win" before the
        end: nothing is paid before it, and a step sets the actor's to 0.0), so that adding the
        rewards to the cumulative rewards would change nothing.
        """
        state = self.state
        rewards = dict.fromkeys(self.agents, 0.0)
        paid = self.reward_mode != "win"
        if paid:  # "points", "margin": paid as the scores change
            scores, teams = state.scores(), state.teams()
            now = score_values(self.reward_mode, scores, teams)
            before = score_values(self.reward_mode, self._last_scores, teams)
            for a in self.agents:
                s = self._seat_of[a]
                rewards[a] = float(now[s] - before[s])
            self._last_scores = list(scores)
        if state.is_terminal():
            if self.reward_mode == "win":
                result = win_rewards(state.ranking_keys(), state.teams())
                for a in self.agents:
                    rewards[a] = result[self._seat_of[a]]
                paid = True
            self.terminations = dict.fromkeys(self.agents, True)
        elif state.is_truncated():
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent_of[state.current_player()]
        self.rewards = rewards
        return paid

    def _accumulate_rewards(self) -> None:
        """Add ``rewards`` to ``_cumulative_rewards`` (PettingZoo's, with one attribute lookup)."""
        cumulative = self._cumulative_rewards
        for agent, reward in self.rewards.items():
            cumulative[agent] += reward


def _forward(name: str) -> property:
    """Read attribute ``name`` of the raw env directly (after reset), as a property of the wrapper."""

    def get(self: "ClassicWrapper") -> Any:
        if not self._has_reset and name != "_cumulative_rewards":
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    return property(get)


class ClassicWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's three classic wrappers (TerminateIllegal, AssertOutOfBounds, OrderEnforcing) in one layer.

    Same behaviour, about 3x faster per step: PettingZoo's ``BaseWrapper.__getattr__`` resolves
    every ``agent_selection`` / ``terminations`` / … read by a failed lookup at each of the three
    levels (~30 reads a step); here the hot attributes are properties reading the raw env.
    """

    agent_selection = _forward("agent_selection")
    agents = _forward("agents")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")

    def __init__(self, env: "CardGameEnv", illegal_reward: float = -1.0):
        super().__init__(env)
        self._raw = env.unwrapped
        self._illegal_reward = float(illegal_reward)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``, reading the raw env directly (no property per field)."""
        if not self._has_reset:
            return super().last(observe)  # raises as before: agent_selection is read before reset
        raw = self._raw
        agent = raw.agent_selection
        assert agent is not None
        observation = raw.observe(agent) if observe else None
        return observation, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent], raw.infos[agent]

    def step(self, action: Any) -> None:
        raw = self._raw
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        if dead:
            raw._was_dead_step(action)
            return
        # Only integers are actions (a float, string or bool is refused, never truncated); then
        # AssertOutOfBounds, with a fast path for plain ints (Discrete.contains costs ~2 µs).
        if type(action) is not int:
            action = as_action(action, raw._legal_names)
        if not 0 <= action < raw._num_actions:
            assert raw.action_spaces[agent].contains(action), "action is not in action space"
        if not raw._is_legal(action):  # TerminateIllegal: the offender loses
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.agents, 0)
            raw.rewards[agent] = self._illegal_reward
            raw._accumulate_rewards()
            raw._deads_step_first()
        else:
            raw._step(agent, action)  # the checks raw.step would make again are made

    @property
    def render_viewer(self) -> int | str:
        """Whose view ``rgb_array`` pictures show (setting it here sets it on the raw env)."""
        return self._raw.render_viewer

    @render_viewer.setter
    def render_viewer(self, viewer: int | str | None) -> None:
        self._raw.render_viewer = viewer

    def __str__(self) -> str:
        return str(self.env)


#: The engines a game's ``env(engine=...)`` can run on.
ENGINES = ("python", "compiled")


def make_raw_env(raw_cls: type, engine: str, options: dict[str, Any]) -> CardGameEnv:
    """``raw_cls(**options)`` on the ``engine`` asked: "python" (the reference engine, everything) or
    "compiled" (``dixenv.compiled.aec``: the game's compiled engine, the ``fast`` extra)."""
    if check_choice("engine", engine, ENGINES) == "python":
        return raw_cls(**options)
    from dixenv.compiled.aec import CompiledCardGameEnv  # numba is imported only when asked for

    return CompiledCardGameEnv(raw_cls, **options)


def wrap(env: AECEnv) -> AECEnv:
    """PettingZoo classic wrappers: illegal move → offender loses (-1), bounds checks, order checks."""
    return ClassicWrapper(env, illegal_reward=-1)
