"""Options of dix de suite as an immutable, validated config (``make_config``)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from dixenv.core.options import check_bool, check_choice, check_int, refuse_unknown_options
from dixenv.games.dix_de_suite.cards import deck_size

PLAYER_COUNTS = (2, 3, 4)
#: Default turn limit per round (turns of all players together; see docs/games/dix_de_suite.md for
#: how it was sized).
DEFAULT_MAX_TURNS = 1000
MAX_TARGET_SCORE = 1_000_000
MAX_MAX_TURNS = 10_000_000


@dataclass(frozen=True)
class DixDeSuiteConfig:
    """Game options (validated by ``make_config``); see the options table in docs/games/dix_de_suite.md."""

    num_players: int = 2
    target_score: int = 500
    max_turns: int = DEFAULT_MAX_TURNS
    reshuffle: bool = False
    two_player_run: bool = False
    teams: bool = False
    run_bonus: bool = False

    @property
    def deck_size(self) -> int:
        """Cards 1..deck_size are in play (40, 50 or 60)."""
        return deck_size(self.num_players)


OPTION_NAMES = tuple(f.name for f in fields(DixDeSuiteConfig))


def make_config(**options: Any) -> DixDeSuiteConfig:
    """Validate game options; ``ValueError`` names a bad option and its allowed values."""
    refuse_unknown_options("dix_de_suite", options, OPTION_NAMES)
    merged = {f.name: f.default for f in fields(DixDeSuiteConfig)}
    merged.update(options)
    n = check_choice("num_players", merged["num_players"], PLAYER_COUNTS)
    target = check_int("target_score", merged["target_score"], 1, MAX_TARGET_SCORE)
    max_turns = check_int("max_turns", merged["max_turns"], 1, MAX_MAX_TURNS)
    flags = {name: check_bool(name, merged[name]) for name in ("reshuffle", "two_player_run", "teams", "run_bonus")}
    if flags["teams"] and n != 4:
        raise ValueError(f"option teams=True needs num_players=4 (seats 0+2 against 1+3); got num_players={n}")
    if flags["two_player_run"] and n != 2:
        raise ValueError(f"option two_player_run=True is a 2-player variant; needs num_players=2, got num_players={n}")
    return DixDeSuiteConfig(num_players=n, target_score=target, max_turns=max_turns, **flags)
