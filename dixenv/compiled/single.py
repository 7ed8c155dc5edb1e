"""The Python face shared by the games' one-game compiled states (``env(engine="compiled")``).

A game's compiled module defines a subclass (``LeDixArrayState``, ``DixDeSuiteArrayState``): one
game as the arrays of its compiled engine, where every move is one compiled call that applies it,
plays the forced moves when asked and writes the observation of the player to act (``obs``) and its
legal mask (``mask``). The subclass gives that call (``_call``), the action names and the
``GameState`` readers of its game (scores, ranking keys, teams, terminal, truncated); this base
gives the rest of what ``dixenv.core.aec.CardGameEnv`` reads, the legality check before any call
(an illegal action changes nothing), and a clear error for what only the Python engine has.
Importing it does not import numba.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The ``ops`` bits of a one-game kernel, in the order it does them. numba freezes them into the
#: kernels that read them: after changing them, delete the games' numba cache (``__pycache__/*.nbi|*.nbc``).
NEW, APPLY, FORCED, OBSERVE, MASK = 1, 2, 4, 8, 16


class ArrayGameState:
    """One game on a compiled engine (module docstring); subclasses set the attributes below."""

    #: The Python engine's reset options (scenario decks), which the compiled engine does not play.
    SCENARIO_KEYS: tuple[str, ...] = ()
    game_name = ""
    num_seats: int
    num_actions: int
    obs: np.ndarray  #: the observation of the player to act, rewritten by every move (zeros once over)
    mask: np.ndarray  #: its legal mask
    rng: np.ndarray  #: the game's generator row ((1, 6) uint64, ``dixenv.compiled.rng``): later deals

    def _call(self, ops: int, action: int = -1, seat: int = -1, obs: np.ndarray | None = None) -> None:
        """One compiled call doing what ``ops`` asks; sets ``_player`` to the seat to act (-1: over)."""
        raise NotImplementedError

    def _action_name(self, action: int) -> str:
        raise NotImplementedError

    def new_game(self, rng: np.random.Generator | None, forced: bool) -> None:
        """Deal a new game: from ``rng``'s state (its draws are not consumed) or, None, where the last game's draws left off.

        The first game from ``default_rng(s)`` is the Python engine's game of ``default_rng(s)``, and
        each later one without a generator is the Python env's next unseeded ``reset()``. The moves
        that are the only legal one are played when ``forced``.
        """
        from dixenv.compiled.rng import rng_rows

        if rng is not None:
            self.rng[:] = rng_rows([rng])
        self._call(NEW | OBSERVE | MASK | (FORCED if forced else 0))

    def play_forced(self) -> None:
        """Play every move that is the only legal one (``dixenv.core.aec.play_forced``)."""
        self._call(FORCED | OBSERVE | MASK)

    def apply_action(self, action: int, forced: bool = False) -> None:
        """Play one action for the seat to act (then the forced moves when ``forced``); ``ValueError``, nothing changed, if it is illegal."""
        if not self.is_legal(action):
            self._raise_illegal(action)
        self._call(APPLY | OBSERVE | MASK | (FORCED if forced else 0), action)

    def is_legal(self, action: int) -> bool:
        """True if ``action`` (an int) is legal for the seat to act."""
        return 0 <= action < self.num_actions and self.mask[action] == 1

    def _raise_illegal(self, action: Any) -> None:
        try:
            name = f"{action} ({self._action_name(int(action))})"
        except (ValueError, TypeError):
            name = repr(action)
        if self.current_player() < 0:
            raise ValueError(f"illegal action {name}: the game is over")
        legal = ", ".join(self._action_name(a) for a in self.legal_actions())
        raise ValueError(f"illegal action {name} for player_{self.current_player()}; legal: {legal}")

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` may know of the game, as a new array (the game observer's ``set_from``)."""
        if type(seat) is not int or not 0 <= seat < self.num_seats:
            raise ValueError(f"seat must be an int in 0..{self.num_seats - 1}, got {seat!r}")
        out = np.empty_like(self.obs)
        self._call(OBSERVE, seat=seat, obs=out)
        return out

    def current_player(self) -> int:
        """Seat to act, -1 once the game is over."""
        return self._player

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for the seat to act."""
        return self.mask.nonzero()[0].tolist()

    def __getattr__(self, name: str) -> Any:
        # Only reached for names the class lacks: the Python engine's state (hands, racks, clone, ...).
        raise AttributeError(
            f"{name!r}: a compiled {self.game_name} game is arrays, not the Python engine's state; search agents, "
            f"rendering, the move log and scenario decks need {self.game_name}_v0.env(engine='python')"
        )
