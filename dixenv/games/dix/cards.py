"""Card notation and the box of cards for dix (TEN), as data.

Every card belongs to one of 55 *card types*; a type id is an int:

| ids | cards | notation |
|---|---|---|
| 0 … 35 | number cards, colour × 9 + (number − 1), colours blue, green, orange, pink | ``B1`` … ``P9`` |
| 36 … 39 | colour wilds (any number, fixed colour) | ``B#`` ``G#`` ``O#`` ``P#`` |
| 40 … 48 | number wilds (fixed number, any colour) | ``W1`` … ``W9`` |
| 49 | the star wild (any number, any colour) | ``**`` |
| 50 … 54 | currency cards worth 1 … 5 | ``$1`` … ``$5`` |

The box (``DeckSpec``) says how many copies of each type there are and, per copy, the smallest
player count that uses it (the player-count mark printed on the card: unmarked = 2, "3", "4").
``STANDARD_DECK`` is the reconstructed 129-card box of SPEC §1; a user may pass another one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from dixenv.core.options import is_int

COLOURS = "BGOP"
NUM_COLOURS = 4
NUM_NUMBERS = 9
NUM_NUMBER_TYPES = NUM_COLOURS * NUM_NUMBERS  # 36
COLOUR_WILD_BASE = NUM_NUMBER_TYPES  # 36..39
NUMBER_WILD_BASE = COLOUR_WILD_BASE + NUM_COLOURS  # 40..48
STAR = NUMBER_WILD_BASE + NUM_NUMBERS  # 49
NUM_COLLECTABLE = STAR + 1  # 50: what a collection can hold (numbers and wilds)
NUM_WILD_TYPES = NUM_COLLECTABLE - NUM_NUMBER_TYPES  # 14
CURRENCY_BASE = NUM_COLLECTABLE  # 50..54
NUM_CURRENCY_TYPES = 5
NUM_TYPES = CURRENCY_BASE + NUM_CURRENCY_TYPES  # 55

NUMBER, WILD, CURRENCY = 0, 1, 2
MIN_PLAYERS, MAX_PLAYERS = 2, 5


def _name(t: int) -> str:
    if t < NUM_NUMBER_TYPES:
        return f"{COLOURS[t // NUM_NUMBERS]}{t % NUM_NUMBERS + 1}"
    if t < NUMBER_WILD_BASE:
        return f"{COLOURS[t - COLOUR_WILD_BASE]}#"
    if t < STAR:
        return f"W{t - NUMBER_WILD_BASE + 1}"
    if t == STAR:
        return "**"
    return f"${t - CURRENCY_BASE + 1}"


CARD_NAMES: tuple[str, ...] = tuple(_name(t) for t in range(NUM_TYPES))
_IDS = {name: t for t, name in enumerate(CARD_NAMES)}
KIND: tuple[int, ...] = tuple(
    NUMBER if t < NUM_NUMBER_TYPES else WILD if t < CURRENCY_BASE else CURRENCY for t in range(NUM_TYPES)
)
#: Number value of a number card, currency value of a currency card, 0 for wilds.
VALUE: tuple[int, ...] = tuple(
    t % NUM_NUMBERS + 1 if t < NUM_NUMBER_TYPES else t - CURRENCY_BASE + 1 if t >= CURRENCY_BASE else 0
    for t in range(NUM_TYPES)
)
#: Colour index of a number card or colour wild, -1 otherwise.
COLOUR_OF: tuple[int, ...] = tuple(
    t // NUM_NUMBERS if t < NUM_NUMBER_TYPES else t - COLOUR_WILD_BASE if t < NUMBER_WILD_BASE else -1
    for t in range(NUM_TYPES)
)
#: Number cards in payment-preference order: lowest number first, then colour B, G, O, P.
NUMBERS_BY_VALUE: tuple[int, ...] = tuple(c * NUM_NUMBERS + k for k in range(NUM_NUMBERS) for c in range(NUM_COLOURS))


def card_name(t: int) -> str:
    """The notation of a card type id, e.g. 6 -> ``B7``."""
    return CARD_NAMES[t]


def parse_card(text: Any) -> int:
    """The type id of a card notation such as ``B7``, ``G#``, ``W3``, ``**``, ``$2``; ``ValueError`` otherwise."""
    t = _IDS.get(text.strip().upper()) if isinstance(text, str) else None
    if t is None:
        raise ValueError(
            f"unknown dix card {text!r}; cards are B1..P9 (number cards, colours B/G/O/P), "
            "B#..P# (colour wilds), W1..W9 (number wilds), ** (star), $1..$5 (currency)"
        )
    return t


@dataclass(frozen=True)
class DeckSpec:
    """A box of cards: for each card type id, one player-count mark per copy (2..5).

    A copy marked m is used in games with at least m players (unmarked cards are marked 2).
    Build one with ``DeckSpec.from_mapping({"B1": 3, "B2": (2, 3, 4), ...})``.
    """

    marks: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        ok = isinstance(self.marks, tuple) and len(self.marks) == NUM_TYPES
        ok = ok and all(isinstance(ms, tuple) and all(is_int(m) and MIN_PLAYERS <= m <= MAX_PLAYERS for m in ms) for ms in self.marks)
        if not ok:
            raise ValueError(
                f"DeckSpec.marks must be a tuple of {NUM_TYPES} tuples (one per card type) of player-count marks 2..5; "
                "build one with DeckSpec.from_mapping({'B1': 3, ...})"
            )

    def counts(self, num_players: int) -> tuple[int, ...]:
        """Copies of each type in the game for ``num_players`` players (length ``NUM_TYPES``)."""
        return tuple(sum(1 for m in ms if m <= num_players) for ms in self.marks)

    def size(self, num_players: int) -> int:
        """Number of cards in the game for ``num_players`` players."""
        return sum(self.counts(num_players))

    def as_mapping(self) -> dict[str, tuple[int, ...]]:
        """Card notation -> marks of its copies (types with no copy left out)."""
        return {CARD_NAMES[t]: ms for t, ms in enumerate(self.marks) if ms}

    @classmethod
    def from_mapping(cls, spec: Mapping[str, Any]) -> "DeckSpec":
        """Validate a composition: card -> number of copies (all unmarked) or a sequence of marks 2..5."""
        if not isinstance(spec, Mapping):
            raise ValueError(
                f"option deck_spec={spec!r} must be a DeckSpec or a mapping card -> copies "
                "(an int, or a list of player-count marks 2..5 per copy)"
            )
        marks: list[tuple[int, ...]] = [()] * NUM_TYPES
        for card, value in spec.items():
            try:
                t = parse_card(card)
            except ValueError as err:
                raise ValueError(f"option deck_spec: {err}") from None
            if is_int(value):
                if not 0 <= int(value) <= 99:
                    raise ValueError(f"option deck_spec: {card!r} has {value} copies; allowed 0 to 99")
                ms = (MIN_PLAYERS,) * int(value)
            elif isinstance(value, (list, tuple)):
                for m in value:
                    if not is_int(m) or not MIN_PLAYERS <= m <= MAX_PLAYERS:
                        raise ValueError(
                            f"option deck_spec: {card!r} has mark {m!r}; a mark is the smallest player count using that copy, 2 to 5"
                        )
                ms = tuple(sorted(int(m) for m in value))
            else:
                raise ValueError(f"option deck_spec: {card!r} -> {value!r} must be a number of copies or a list of marks")
            if marks[t]:
                raise ValueError(f"option deck_spec names card {CARD_NAMES[t]} twice")
            marks[t] = ms
        return cls(tuple(marks))


def _standard_marks() -> tuple[tuple[int, ...], ...]:
    marks: list[tuple[int, ...]] = [()] * NUM_TYPES
    for t in range(NUM_NUMBER_TYPES):
        # Numbers 1-6: three copies, the 2nd marked "3" and the 3rd marked "4"; 7-9: one copy.
        marks[t] = (2, 3, 4) if VALUE[t] <= 6 else (2,)
    for c in range(NUM_COLOURS):
        marks[COLOUR_WILD_BASE + c] = (2, 2)
    for k in range(NUM_NUMBERS):
        marks[NUMBER_WILD_BASE + k] = (2,)
    marks[STAR] = (2,)
    for v, copies in zip(range(1, 6), (6, 6, 6, 5, 4)):
        marks[CURRENCY_BASE + v - 1] = (2,) * copies
    return tuple(marks)


#: The reconstructed 129-card box (SPEC §1): 81 cards for 2 players, 105 for 3, 129 for 4-5.
STANDARD_DECK = DeckSpec(_standard_marks())
