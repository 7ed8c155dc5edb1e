"""dix options: validated once at construction into a frozen config."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dixenv.core.options import check_bool, check_int, refuse_unknown_options
from dixenv.games.dix.cards import MAX_PLAYERS, MIN_PLAYERS, STANDARD_DECK, DeckSpec

MIN_DIFFICULTY, MAX_DIFFICULTY = 4, 10
DEFAULT_DIFFICULTY = 4  # the rule text's advice: start at 4, then raise it
OPTIONS = ("num_players", "solo", "difficulty", "bust_buy", "auto_pay", "deck_spec")


@dataclass(frozen=True)
class DixConfig:
    """Game options (see ``make_config``) plus the card counts they imply."""

    num_players: int = 2
    solo: bool = False
    difficulty: int = 0  # ALIX's threshold 4..10 in solo, 0 otherwise
    bust_buy: bool = False
    auto_pay: bool = False
    deck_spec: DeckSpec = STANDARD_DECK
    #: Copies of each card type in this game (the box filtered by the player-count marks).
    box: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "box", self.deck_spec.counts(self.num_players))


def make_config(
    num_players: int = 2,
    solo: bool = False,
    difficulty: int | None = None,
    bust_buy: bool = False,
    auto_pay: bool = False,
    deck_spec: DeckSpec | dict | None = None,
    **unknown: Any,
) -> DixConfig:
    """Validate dix options; ``ValueError`` names a bad option and its allowed values."""
    refuse_unknown_options("dix", unknown, OPTIONS)
    num_players = check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
    solo = check_bool("solo", solo)
    if solo:
        if num_players != 2:
            raise ValueError(f"option num_players={num_players} is not allowed with solo=True; solo is 2 seats (you and ALIX)")
        difficulty = check_int("difficulty", DEFAULT_DIFFICULTY if difficulty is None else difficulty, MIN_DIFFICULTY, MAX_DIFFICULTY)
    elif difficulty is not None:
        raise ValueError(f"option difficulty={difficulty!r} only applies with solo=True")
    else:
        difficulty = 0
    bust_buy = check_bool("bust_buy", bust_buy)
    auto_pay = check_bool("auto_pay", auto_pay)
    if deck_spec is None:
        deck_spec = STANDARD_DECK
    elif not isinstance(deck_spec, DeckSpec):
        deck_spec = DeckSpec.from_mapping(deck_spec)
    if deck_spec.size(num_players) == 0:
        raise ValueError(f"option deck_spec has no card for {num_players} players; the draw pile cannot be empty")
    return DixConfig(num_players, solo, difficulty, bust_buy, auto_pay, deck_spec)
