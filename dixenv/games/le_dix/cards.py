"""Card notation for le_dix: a standard 52-card deck, card id = suit * 13 + rank.

Ranks 2 < 3 < … < 10 < J < Q < K < A are written ``2``–``9``, ``T``, ``J``, ``Q``, ``K``, ``A``;
suits ``S``, ``H``, ``D``, ``C``; a card is rank then suit, e.g. ``TH`` (ten of hearts).
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "SHDC"
NUM_RANKS = len(RANKS)
NUM_SUITS = len(SUITS)
NUM_CARDS = NUM_RANKS * NUM_SUITS

CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_CARD_IDS = {name: i for i, name in enumerate(CARD_NAMES)}
SUIT_OF: tuple[int, ...] = tuple(c // NUM_RANKS for c in range(NUM_CARDS))
RANK_OF: tuple[int, ...] = tuple(c % NUM_RANKS for c in range(NUM_CARDS))


def card_name(card: int) -> str:
    """The notation of a card id, e.g. 21 -> ``TH``."""
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """The card id of a notation like ``TH``; ``ValueError`` naming the bad text otherwise."""
    card = _CARD_IDS.get(text.strip().upper() if isinstance(text, str) else None)
    if card is None:
        raise ValueError(
            f"unknown card {text!r}; a card is a rank {'/'.join(RANKS)} followed by a suit {'/'.join(SUITS)}, e.g. 'TH'"
        )
    return card
