"""The flat action table of dix de suite: ids and their names (``draw``, ``take discard``, ``swap K``, ``discard``).

A turn is two decisions: first the source (``draw`` the top of the draw pile or ``take discard``),
then where the card goes (``swap K`` puts it in slot K, the replaced card goes onto the discard
pile; ``discard`` throws a draw-pile card away, never a discard-pile card).
"""

from __future__ import annotations

from dixenv.games.dix_de_suite.cards import RACK_SIZE

DRAW = 0
TAKE_DISCARD = 1
SWAP_BASE = 2  # swap K is SWAP_BASE + K - 1
DISCARD = SWAP_BASE + RACK_SIZE  # 12
NUM_ACTIONS = DISCARD + 1  # 13

ACTION_NAMES: tuple[str, ...] = ("draw", "take discard", *(f"swap {k}" for k in range(1, RACK_SIZE + 1)), "discard")
_ACTION_IDS: dict[str, int] = {name: i for i, name in enumerate(ACTION_NAMES)}


def swap_action(slot: int) -> int:
    """Action id of ``swap K`` for slot K (1..10)."""
    if not 1 <= slot <= RACK_SIZE:
        raise ValueError(f"slot {slot} out of range 1..{RACK_SIZE}")
    return SWAP_BASE + slot - 1


def action_to_string(action: int) -> str:
    """Name of an action id; ``ValueError`` if out of range."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} out of range 0..{NUM_ACTIONS - 1}")
    return ACTION_NAMES[action]


def string_to_action(text: str) -> int:
    """Action id of a name (spaces and case are normalised); ``ValueError`` listing the names if unknown."""
    key = " ".join(str(text).lower().split())
    try:
        return _ACTION_IDS[key]
    except KeyError:
        raise ValueError(f"unknown action {text!r}; actions: {list(ACTION_NAMES)}") from None
