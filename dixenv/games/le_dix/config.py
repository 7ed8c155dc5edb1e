"""le_dix options: validated once at construction into a frozen config."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from dixenv.core.options import check_bool, check_choice, check_int, refuse_unknown_options
from dixenv.games.le_dix.cards import NUM_CARDS

SCORINGS = ("exact10", "oh_hell")
DEFAULT_DEALS = (10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
OPTIONS = ("num_players", "deals", "scoring", "hook")


@dataclass(frozen=True)
class LeDixConfig:
    """Game options: players, the deal schedule, scoring and the hook rule."""

    num_players: int = 4
    deals: tuple[int, ...] = DEFAULT_DEALS
    scoring: str = "exact10"
    hook: bool = False

    @property
    def max_bid(self) -> int:
        """Largest hand size of the schedule, so the largest bid."""
        return max(self.deals)


def make_config(num_players: int = 4, deals: Sequence[int] = DEFAULT_DEALS, scoring: str = "exact10", hook: bool = False, **unknown: Any) -> LeDixConfig:
    """Validate le_dix options; ``ValueError`` names a bad option and its allowed values."""
    refuse_unknown_options("le_dix", unknown, OPTIONS)
    num_players = check_int("num_players", num_players, 3, 5)
    most = (NUM_CARDS - 1) // num_players  # every hand dealt plus one card turned up
    if isinstance(deals, (str, bytes)) or not isinstance(deals, Sequence) or len(deals) == 0:
        raise ValueError(f"option deals={deals!r} must be a non-empty sequence of hand sizes from 1 to {most}")
    deals = tuple(check_int("deals", d, 1, most) for d in deals)
    scoring = check_choice("scoring", scoring, SCORINGS)
    hook = check_bool("hook", hook)
    return LeDixConfig(num_players, deals, scoring, hook)
