"""One seat of a dixenv game as a single-agent Gymnasium environment.

The learner plays one seat; every other seat is played by an opponent policy (an object with
``act(observation_dict) -> int``, e.g. an ``agents`` baseline, a batched policy with
``act_batch(observations, masks)`` (``dixenv.vector.BatchPolicy``, asked here one game at a time),
or a plain callable of the observation dict). Short names such as ``"random"`` or ``"heuristic"`` are resolved lazily by
``agents.registry.make_agent`` — dixenv itself never imports ``agents`` at import time.

Observation: the flat float32 vector. The legal actions are ``action_masks()`` (the sb3-contrib
MaskablePPO convention) and ``info["action_mask"]``. Reward: the learner's reward from the
underlying game (``reward="win"``, ``"points"`` or ``"margin"``), summed over the opponents' moves in
between; what the learner earned before its first decision is paid with its first step, so an
episode pays its full result.
An illegal action, as in PettingZoo classic, ends the episode with reward −1 and
``info["illegal_action"] = True`` (``illegal_action="raise"`` raises ``ValueError`` naming it
and the legal actions instead).

Rendering: the game env's ``render_mode`` ("ansi", "human", "rgb_array"). ``render_viewer``
says whose view an "rgb_array" picture shows: ``"learner"`` (the default: only what the
learner's seat may know, as its observation), ``"spectator"`` (everything, hidden cards
included) or a seat number.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import gymnasium
import numpy as np

from dixenv.core.aec import RENDER_FPS, RENDER_MODES, CardGameEnv, as_action
from dixenv.core.options import check_choice

Policy = Callable[[dict[str, np.ndarray]], int]


class SingleAgentEnv(gymnasium.Env):
    """A Gymnasium view of one seat of a raw dixenv AEC environment."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}

    def __init__(
        self,
        aec_env: CardGameEnv,
        opponents: Sequence[Any] = (),
        learner: str = "player_0",
        illegal_action: str = "lose",
        render_viewer: int | str = "learner",
    ):
        check_choice("illegal_action", illegal_action, ("lose", "raise"))
        self.illegal_action = illegal_action
        self._illegal_raises = illegal_action == "raise"
        if learner not in aec_env.possible_agents:
            raise ValueError(f"learner {learner!r} is not an agent of this game; agents: {aec_env.possible_agents}")
        others = [a for a in aec_env.possible_agents if a != learner]
        if len(opponents) != len(others):
            raise ValueError(
                f"{len(others)} opponent(s) needed for seats {others}, got {len(opponents)}; "
                "pass agents, callables of the observation dict, or names such as 'random'"
            )
        self.aec = aec_env
        self.learner = learner
        #: The opponents as given (names, agents, callables), one per seat of ``opponent_seats``:
        #: ``dixenv.vector`` builds one set of per-game agents from them for each of its games.
        self.opponent_specs = tuple(opponents)
        self.opponent_seats = tuple(aec_env._seat_of[a] for a in others)
        self.render_mode = aec_env.render_mode
        self.render_viewer = render_viewer
        agents = [as_agent(aec_env, p) for p in opponents]
        self._opponents = {a: act_function(agent) for a, agent in zip(others, agents)}
        self._resettable = [agent for agent in agents if hasattr(agent, "reset")]
        self.observation_space = aec_env.observation_space(learner)["observation"]
        self.action_space = aec_env.action_space(learner)
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)
        self._unpaid = 0.0  # the learner's reward from before its first decision, paid with its first step
        self._over = True  # no episode to step: before reset() and after the episode's end

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.aec.reset(seed=seed, options=options)
        if seed is not None:  # opponents' own randomness follows the seed too, for reproducible episodes
            reseed_agents(self._resettable, self.np_random)
        self._play_opponents()
        # What the learner earned before its first decision (the moves the environment and the
        # opponents played) is paid with its first step's reward: over an episode it gets its full result.
        self._unpaid = float(self.aec._cumulative_rewards[self.learner])
        self._over = self.aec.terminations[self.learner] or self.aec.truncations[self.learner]
        obs = self._observe()
        return obs, {"action_mask": self._mask.copy()}

    def step(self, action: int):
        if self._over:
            raise RuntimeError("step() called after the episode ended (the game is over) or before reset(); call reset()")
        action = as_action(action, self.aec._legal_names)
        if not (0 <= action < len(self._mask) and self._mask[action]) and not self._illegal_raises:
            self._over = True
            obs = self._observe()
            return obs, -1.0, True, False, {"action_mask": self._mask.copy(), "illegal_action": True}
        self.aec.step(action)
        reward = self._unpaid + self.aec.rewards[self.learner]
        self._unpaid = 0.0
        more, terminated, truncated = self._play_opponents()
        self._over = terminated or truncated
        obs = self._observe()
        return obs, float(reward + more), terminated, truncated, {"action_mask": self._mask.copy()}

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (for sb3-contrib's MaskablePPO)."""
        return self._mask.astype(bool)

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    @property
    def render_viewer(self) -> int | str:
        """Whose view ``rgb_array`` pictures show: a seat number or ``"spectator"``."""
        return self.aec.render_viewer

    @render_viewer.setter
    def render_viewer(self, viewer: int | str) -> None:
        # "learner" is this wrapper's own name for the learner's seat; the game env checks the rest.
        if isinstance(viewer, str) and viewer == "learner":
            viewer = self.aec._seat_of[self.learner]
        try:
            self.aec.render_viewer = viewer
        except ValueError as err:
            raise ValueError(f"{err}, or 'learner' (the default: the learner's seat)") from None

    def _observe(self) -> np.ndarray:
        obs = self.aec.observe(self.learner)
        self._mask = obs["action_mask"]
        return obs["observation"]

    def _play_opponents(self) -> tuple[float, bool, bool]:
        """Let the opponents move until it is the learner's turn or the game is over."""
        aec, reward = self.aec, 0.0
        while not (aec.terminations[self.learner] or aec.truncations[self.learner]):
            agent = aec.agent_selection
            if agent == self.learner:
                break
            aec.step(self._opponents[agent](aec.observe(agent)))
            reward += aec.rewards[self.learner]
        return reward, aec.terminations[self.learner], aec.truncations[self.learner]


def as_agent(env: CardGameEnv, opponent: Any) -> Any:
    """An opponent given as an agent, a batched policy, a callable or a short name (resolved by ``agents.registry``)."""
    if isinstance(opponent, str):
        from dixenv.agents.registry import make_agent  # lazy: dixenv does not depend on agents

        return make_agent(env.game.name, opponent, env)
    if hasattr(opponent, "act") or hasattr(opponent, "act_batch") or callable(opponent):
        return opponent
    raise ValueError(
        f"opponent {opponent!r} is neither an agent with act(), a batched policy with act_batch(), a callable, nor an agent name"
    )


def reseed_agents(agents: Sequence[Any], np_random: np.random.Generator) -> None:
    """Reseed each agent (``agent.reset(seed=...)``) with a seed drawn in turn from ``np_random``."""
    for agent in agents:
        agent.reset(seed=int(np_random.integers(2**31)))


def act_function(agent: Any) -> Policy:
    """The agent's choice for one game as a callable of the observation dict.

    An agent's own ``act`` if it has one; a batched policy's ``act_batch`` asked with a batch of one
    game; else the agent is that callable itself.
    """
    if hasattr(agent, "act"):
        return agent.act
    if hasattr(agent, "act_batch"):

        def act(observation: dict[str, np.ndarray]) -> int:
            return int(agent.act_batch(observation["observation"][None], observation["action_mask"][None].astype(bool))[0])

        return act
    return agent
