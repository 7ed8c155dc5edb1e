"""Cards of dix de suite (Rack-O): numbers 1..60, of which the player count decides how many are used.

A card is written as its number (``"17"``). Deck options take ints (digit strings are accepted
too, as they are the same notation).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

#: How many cards (1..N) are used for each player count (rule text: 2 → 40, 3 → 50, 4 → 60).
DECK_SIZE_BY_PLAYERS: dict[int, int] = {2: 40, 3: 50, 4: 60}

#: Slots per rack; slot 1 is the front (must hold the lowest card), slot 10 the back.
RACK_SIZE = 10


def deck_size(num_players: int) -> int:
    """Number of cards in play for ``num_players`` (the cards are 1..this)."""
    return DECK_SIZE_BY_PLAYERS[num_players]


def card_to_string(card: int) -> str:
    """A card in the game's notation: its number."""
    return str(card)


def parse_card(value: Any, max_card: int) -> int:
    """A card from an int (or a digit string); ``ValueError`` naming it if it is not 1..max_card."""
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"bad card {value!r} in deck: cards are integers 1..{max_card}")
    if isinstance(value, (int, np.integer)):
        card = int(value)
    elif isinstance(value, str) and value.strip().isdigit():
        card = int(value.strip())
    else:
        raise ValueError(f"bad card {value!r} in deck: cards are integers 1..{max_card}")
    if not 1 <= card <= max_card:
        raise ValueError(f"bad card {value!r} in deck: cards are integers 1..{max_card} with this player count")
    return card


def parse_deck(values: Any, max_card: int, min_len: int) -> list[int]:
    """A stacked deck (top first) as ints: no duplicates, all in 1..max_card, at least ``min_len``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) and not isinstance(values, np.ndarray):
        raise ValueError(f"scenario option 'deck' must be a list of cards (ints), got {values!r}")
    cards = [parse_card(v, max_card) for v in values]
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise ValueError(f"duplicate card {c} in deck")
        seen.add(c)
    if len(cards) < min_len:
        raise ValueError(
            f"deck has {len(cards)} cards; at least {min_len} are needed (10 per player and one to start the discard pile)"
        )
    return cards
