"""A game's PettingZoo AEC environment on its compiled engine: ``<game>_v0.env(engine="compiled")``.

The same environment as ``engine="python"`` (``dixenv.core.aec.CardGameEnv``: agents, rewards in
every reward mode, terminations, forced moves, the classic wrappers' illegal-move rule, spaces),
and seeded alike the same games, observations bit for bit and masks (tests/compiled/
test_single_compiled.py steps both side by side). The game is the compiled engine's arrays
(the spec's ``compiled_state``, a ``dixenv.compiled.single.ArrayGameState``; every built-in game
has one): a move is one compiled call that applies it, plays the forced moves and
writes the observation and mask of the player to act. What reads the Python engine's state is not offered: rendering, the move log
(``record_events``), scenario decks (``reset(options=...)``) and search agents (``env.state`` has no
hands or ``sample_hidden``); each is refused with an error naming ``engine="python"``. ``env.state``
is one object for the env's life, dealt anew by each reset (the Python env makes a new state).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dixenv.compiled import require_numba
from dixenv.core.aec import CardGameEnv
from dixenv.core.events import Event
from dixenv.core.game import GameState
from dixenv.core.options import warn_unknown_reset_keys

PYTHON_ONLY = "use engine='python' (the reference engine) for it"


def compiled_state_class(game: str) -> type:
    """The game's one-game compiled state class; ``ValueError`` naming the games that have one."""
    from dixenv.games import game_specs, load

    have = sorted(spec.name for spec in game_specs() if spec.compiled_state is not None)
    spec = next((spec for spec in game_specs() if spec.name == game), None)
    if spec is None or spec.compiled_state is None:
        raise ValueError(f"engine='compiled' single environments exist for {have}, not {game!r} "
                         "(every game's VectorEnv runs compiled: dixenv.vector.VectorEnv(..., engine='compiled'))")
    require_numba()
    return load(spec.compiled_state)


class CompiledCardGameEnv(CardGameEnv):
    """``raw_cls``'s environment (a game's ``raw_env``) with its game on the compiled engine (module docstring)."""

    def __init__(self, raw_cls: type, render_mode: str | None = None, render_viewer: int | str | None = "spectator",
                 reward: str = "win", auto_forced: bool = True, record_events: bool = False, **options: Any):
        if not (isinstance(raw_cls, type) and issubclass(raw_cls, CardGameEnv)):
            raise TypeError(f"raw_cls must be a game's raw_env class, not {raw_cls!r}")
        self.game = raw_cls.game
        state_class = compiled_state_class(self.game.name)
        if render_mode is not None:
            raise ValueError(f"render_mode={render_mode!r}: engine='compiled' has no Python state to draw; {PYTHON_ONLY}")
        if record_events is not False:
            raise ValueError(f"record_events={record_events!r}: engine='compiled' keeps no move log; {PYTHON_ONLY}")
        self.metadata = {**raw_cls.metadata, "engine": "compiled"}
        super().__init__(None, render_viewer, reward, auto_forced, False, **options)
        # One state for the env's life, dealt anew at each reset: building one costs up to ~1 ms
        # (a one-slot batch's tables), and its generator row carries on to an unseeded reset's game.
        self._arrays = state_class(self.config)

    def _new_state(self, rng: np.random.Generator, scenario: dict[str, Any], events: list[Event] | None) -> GameState:
        state = self._arrays
        played = sorted(set(scenario) & set(state.SCENARIO_KEYS))
        if played:
            raise ValueError(f"reset options {played}: engine='compiled' deals its own games; {PYTHON_ONLY}")
        # Foreign keys warn as on the Python engine (PettingZoo's api_test resets with one).
        warn_unknown_reset_keys(self.game.name, scenario, state.SCENARIO_KEYS)
        # reset() without a seed passes the env's own generator: the state's row deals the next game.
        # Not the forced moves yet: reset plays them after it reads the scores, so that what they score is paid.
        state.new_game(None if rng is self._rng else rng, False)
        return state

    def _play_forced(self) -> None:
        if self.auto_forced:  # after a move apply_action plays them in its own compiled call
            self.state.play_forced()

    def _is_legal(self, action: int) -> bool:
        return self.state.is_legal(action)

    def _step(self, agent: str, action: int) -> None:
        self.state.apply_action(action, self.auto_forced)  # ValueError naming the legal actions, nothing changed
        self._cumulative_rewards[agent] = 0.0
        if self._after_move():
            self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat, state = self._seat_of[agent], self.state
        if state.current_player() == seat:  # written by the last move's call
            return {"observation": state.obs.copy(), "action_mask": state.mask.copy()}
        return {"observation": state.observation(seat), "action_mask": np.zeros(self._num_actions, dtype=np.int8)}
