"""The contract between a game's rules engine and the shared adapters.

A game plugs into dixenv with two pieces:

* a ``GameState`` — the pure-Python rules engine (no Gymnasium, no PettingZoo), and
* a ``Game`` — a small record that says how to build states and observers for a set of options,
  how big the flat action space is, and how actions are written as strings.

The AEC adapter (``dixenv.core.aec``) and the Gymnasium wrappers only talk to these two.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

import numpy as np


class GameState(Protocol):
    """What the adapters need from a rules engine's state (OpenSpiel-style minimal API)."""

    num_seats: int
    #: The table's move log (``dixenv.core.events``): a list the engine appends ``Event``s to, or
    #: None when nobody records (the default; engines then skip all event work).
    events: list | None

    def current_player(self) -> int:
        """Seat that must act now, or -1 when the game is over (terminal or truncated)."""

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for the current player (empty when the game is over)."""

    def apply_action(self, action: int) -> None:
        """Play one action; raise ``ValueError`` naming the action and the legal ones if illegal."""

    def why_illegal(self, action: int) -> str:
        """Why ``action`` is illegal for the seat to act, in words for that seat ("" if it is legal).

        Reads only what that seat may know, so it can be shown to a person playing there; the
        illegal-action ``ValueError`` of ``apply_action`` includes it.
        """

    def is_terminal(self) -> bool:
        """True once the game has ended by its rules."""

    def is_truncated(self) -> bool:
        """True once the game was cut short (e.g. a turn limit); never together with terminal."""

    def scores(self) -> list[float]:
        """Each seat's game points so far, in seat order (the ``reward="points"`` signal)."""

    def ranking_keys(self) -> list[tuple]:
        """Per seat, a tuple compared to decide who beat whom at the end (higher is better)."""

    def teams(self) -> list[int] | None:
        """Team index per seat, or None when every seat plays for itself."""

    def clone(self) -> "GameState":
        """An independent deep copy (for search and tests); a clone records no events."""

    def render_text(self) -> str:
        """The table as text, everything shown (for humans watching)."""

    def sample_hidden(self, seat: int, rng: np.random.Generator) -> "GameState":
        """A full state drawn at random among those consistent with everything ``seat`` knows.

        The sample gives ``seat`` the same observation, bit for bit, and the same legal actions;
        only what ``seat`` cannot see differs (hidden cards, pile orders, and the generator that
        deals later rounds, which is drawn from ``rng``: the future is hidden too). It is a function
        of ``seat``'s information alone: two states that differ only in facts hidden from ``seat``
        give identical samples for identically seeded ``rng``s, so a search agent that only sees
        samples cannot use what its seat may not know. Each game documents its distribution.
        """

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` naming the broken invariant (cards conserved, counts in range, …)."""


class Observer(Protocol):
    """Encodes what one seat may know into a preallocated flat float32 tensor."""

    layout: "Layout"  # noqa: F821  (dixenv.core.layout.Layout)
    tensor: np.ndarray

    def set_from(self, state: GameState, seat: int) -> None:
        """Fill ``tensor`` in place with what ``seat`` may know of ``state``."""


def all_seats(config: Any) -> range:
    """Every seat is an agent (``Game.agent_seats``' default)."""
    return range(config.num_players)


@dataclass(frozen=True)
class Game:
    """Everything the adapters need to know about one game, independent of any option values.

    ``make_config(**options)`` validates game options (raising ``ValueError`` that names the option
    and its allowed values) and returns an immutable config.  ``new_state(config, rng, scenario,
    events)`` starts a game; ``scenario`` holds the ``reset(options=...)`` keys such as ``deck``,
    ``events`` is the list to record the table's moves into (None: no recording).
    """

    name: str
    make_config: Callable[..., Any]
    new_state: Callable[[Any, np.random.Generator, Mapping[str, Any], list | None], GameState]
    make_observer: Callable[[Any], Observer]
    num_actions: Callable[[Any], int]
    action_to_string: Callable[[Any, int], str]
    string_to_action: Callable[[Any, str], int]
    agent_seats: Callable[[Any], Sequence[int]] = all_seats
