"""The compiled dix scorer (``dixenv.games.dix.compiled_scoring.score``) equals ``score_collection``.

Checked against the reference (``scoring.score_collection`` / ``_best_total``) on collections dealt
from the real box, on user decks with many wilds and stars, on the hand-worked examples and the
exhaustive-search oracle of ``tests/games/dix/test_scoring.py`` (for each of its two exact
searches, forced), and called from another ``@njit`` function on rows of a 2-D int64 table.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from numba import njit  # noqa: E402

from dixenv.games.dix import scoring  # noqa: E402
from dixenv.games.dix.cards import CARD_NAMES, NUM_COLLECTABLE, STANDARD_DECK  # noqa: E402
from dixenv.games.dix.compiled_scoring import _RUN, score, score_tuple  # noqa: E402
from dixenv.games.dix.scoring import _best_total, parse_collection, score_cards, score_collection  # noqa: E402
from tests.games.dix.test_scoring import (  # noqa: E402
    COLOUR_WILDS,
    NUMBER_CARDS,
    NUMBER_WILDS,
    STAR,
    brute_force_score,
    random_collection,
)

AUTO, ENUMERATION, POSITION_DP = 0, 1, 2


def compiled_cards(cards: list[str], method: int = AUTO) -> int:
    return score_tuple(*parse_collection(cards), method=method)


def as_arrays(args: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    numbers, colour_wilds, number_wilds, stars = args
    return (
        np.asarray(numbers, dtype=np.int64),
        np.asarray(colour_wilds, dtype=np.int64),
        np.asarray(number_wilds, dtype=np.int64),
        int(stars),
    )


# ------------------------------------------------------------------------------------------------
# One source for the rule.


def test_run_table_is_the_reference_table() -> None:
    assert _RUN.shape == (512, 10)
    assert _RUN.tolist() == [list(row) for row in scoring._RUN]


# ------------------------------------------------------------------------------------------------
# Hand-worked examples (those of tests/games/dix/test_scoring.py), every method.

HAND_CHECKED = [
    ([], 0),
    (["B1", "B2", "B3", "B7", "B8", "G5", "O2", "O3", "O4", "O5"], 3 + 1 + 4),
    ([f"G{k}" for k in range(1, 10)], 10),
    (NUMBER_CARDS, 40),
    (["B1", "B1", "B1", "B2", "B2"], 2),
    (["P4"] * 5, 1),
    (["B1", "B2", "B4", "B5", "B#"], 5),
    (["G1", "G2", "G4", "G5", "B#"], 2 + 1),
    (["O7", "O8", "O9", "O#"], 4),
    ([f"P{k}" for k in range(1, 10) if k != 5] + ["P#"], 10),
    (["B1", "B2", "B4", "B5", "W9"], 2 + 1),
    (["B1", "B2", "B4", "B5", "W3"], 5),
    (["B1", "B2", "B3", "B5", "W4"], 5),
    (["B4", "B6", "G1", "G2", "G3", "G4", "G6", "G7", "G8", "G9"], 1 + 4),
    (["B4", "B6", "G1", "G2", "G3", "G4", "G6", "G7", "G8", "G9", "W5"], 1 + 10),
    (["B1", "B3", "G1", "G3", "W2", "W2"], 3 + 3),
    (["B1", "B3", "G1", "G3", "W2"], 3 + 1),
    (["O1", "O2", "O4", "**"], 4),
    (["P6", "P8", "**"], 3),
    (["B1", "B3", "G1", "G2", "G3", "G5", "G6", "G7", "**"], 1 + 7),
    (["**"], 1),
    (["B#", "B#"], 2),
    (["W3", "W4", "W5"], 3),
    (["W3", "W5"], 2),
    (["B1", "B3", "B5", "W2", "**"], 5),
    (["B1", "B3", "G1", "G3", "W2", "**"], 3 + 3),
]


@pytest.mark.parametrize("method", [AUTO, ENUMERATION, POSITION_DP])
def test_hand_checked_examples(method: int) -> None:
    for cards, expected in HAND_CHECKED:
        assert score_cards(cards) == expected, cards  # the reference agrees with the hand value
        assert compiled_cards(cards, method) == expected, (cards, method)


ANY_COUNTS = [
    (([0b1011, 0, 0, 1 << 8], [1, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0, 0], 0), 5 + 1),
    (([0b1011, 0, 0, 1 << 8], [0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0, 0], 0), 4 + 1),
    (([0] * 4, [0] * 4, [0] * 9, 0), 0),
    (([511] * 4, [0] * 4, [0] * 9, 0), 40),
    (([0] * 4, [0] * 4, [0] * 9, 1000), 40),
    (([0] * 4, [20, 0, 0, 0], [0] * 9, 0), 10),
    (([0] * 4, [0] * 4, [4] * 9, 0), 40),
    (([0] * 4, [0] * 4, [3] * 9, 0), 30),
    (([0] * 4, [0] * 4, [3] * 9, 9), 40),
    (([0] * 4, [0] * 4, [3] * 9, 8), 30 + 8),
    (([0] * 4, [0] * 4, [100] * 9, 100), 40),
    (([0] * 4, [9, 9, 9, 8], [0] * 9, 0), 30 + 8),
    (([0] * 4, [9, 9, 9, 8], [0] * 9, 1), 40),
]


@pytest.mark.parametrize("method", [AUTO, ENUMERATION, POSITION_DP])
def test_any_counts(method: int) -> None:
    for args, expected in ANY_COUNTS:
        assert score_collection(*args) == expected, args
        assert score_tuple(*args, method=method) == expected, (args, method)


# ------------------------------------------------------------------------------------------------
# The exhaustive-search oracle of the reference tests, every method.


@pytest.mark.parametrize("kind", ["box", "sparse", "free"])
def test_matches_brute_force_oracle(kind: str) -> None:
    rng = np.random.default_rng([77, ["box", "sparse", "free"].index(kind)])
    for _ in range(120):
        cards = random_collection(rng, kind)
        best = brute_force_score(cards)
        for method in (AUTO, ENUMERATION, POSITION_DP):
            assert compiled_cards(cards, method) == best, (cards, method)


def test_matches_brute_force_with_duplicate_number_wilds() -> None:
    rng = np.random.default_rng(78)
    for _ in range(120):
        numbers = [int(rng.integers(0, 512)) & int(rng.integers(0, 512)) for _ in range(4)]
        number_wilds = [0] * 9
        for k in rng.choice(9, size=int(rng.integers(1, 4)), replace=False):
            number_wilds[int(k)] = int(rng.integers(1, 4))
        colour_wilds = [int(rng.integers(0, 2)) for _ in range(4)]
        stars = int(rng.integers(0, 2))
        cards = [f"{'BGOP'[c]}{k}" for c in range(4) for k in range(1, 10) if numbers[c] >> (k - 1) & 1]
        cards += [f"{'BGOP'[c]}#" for c in range(4) for _ in range(colour_wilds[c])]
        cards += [f"W{k}" for k in range(1, 10) for _ in range(number_wilds[k - 1])]
        cards += [STAR] * stars
        best = brute_force_score(cards)
        for method in (AUTO, ENUMERATION, POSITION_DP):
            assert score_tuple(numbers, colour_wilds, number_wilds, stars, method=method) == best, (cards, method)


# ------------------------------------------------------------------------------------------------
# Collections dealt from the real box (what the engine scores), against the reference.


def box_collectables(num_players: int) -> list[str]:
    counts = STANDARD_DECK.counts(num_players)
    return [CARD_NAMES[t] for t in range(NUM_COLLECTABLE) for _ in range(counts[t])]


def deal_collections(rng: np.random.Generator) -> list[list[str]]:
    """The box's numbers and wilds for 2-5 players split at random among the players (end of a game)."""
    num_players = int(rng.integers(2, 6))
    cards = box_collectables(num_players)
    rng.shuffle(cards)
    # a random share for each player; some cards stay out (market, discard)
    cuts = np.sort(rng.integers(0, len(cards) + 1, size=num_players))
    starts = np.concatenate([[0], cuts[:-1]])
    return [list(cards[a:b]) for a, b in zip(starts, cuts)]


@pytest.mark.parametrize("chunk", range(4))
def test_matches_reference_on_collections_from_the_box(chunk: int) -> None:
    rng = np.random.default_rng([79, chunk])
    checked = 0
    while checked < 2500:
        for cards in deal_collections(rng):
            args = parse_collection(cards)
            assert score_tuple(*args) == score_collection(*args), cards
            checked += 1


def test_matches_reference_on_typical_end_of_game_collections() -> None:
    # 15-35 number cards, 0-2 number wilds, 0-2 colour wilds, 0-1 star: the engine's hot path
    rng = np.random.default_rng(80)
    numbers = [c for c in box_collectables(4) if c in NUMBER_CARDS]
    for _ in range(5000):
        cards = list(rng.choice(numbers, size=int(rng.integers(15, 36)), replace=False))
        cards += list(rng.choice(NUMBER_WILDS, size=int(rng.integers(0, 3)), replace=False))
        cards += list(rng.choice(COLOUR_WILDS * 2, size=int(rng.integers(0, 3)), replace=False))
        cards += [STAR] * int(rng.integers(0, 2))
        args = parse_collection([str(c) for c in cards])
        assert score_tuple(*args) == score_collection(*args), cards


# Collections rich in contested number wilds (random play hoards them): the branch and bound's
# upper-bound exit, its colour symmetry and its fallback to the position DP.

WILD_RICH = [
    ([0, 0, 0, 0], [1, 2, 2, 1], [1, 1, 1, 1, 1, 1, 1, 0, 1], 1),
    ([1, 0, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0, 0, 0, 1, 1, 1], 1),
    ([0, 0, 32, 4], [1, 2, 2, 1], [1, 1, 1, 1, 1, 1, 1, 0, 1], 1),
    ([0, 0, 36, 0], [2, 1, 1, 2], [1, 1, 1, 1, 1, 1, 1, 0, 0], 0),  # optimum below the card bound
    ([0, 0, 0, 260], [1, 1, 1, 1], [1, 1, 1, 1, 1, 0, 1, 0, 1], 0),
    ([0, 0, 0, 0], [0, 0, 0, 1], [1, 1, 1, 1, 1, 1, 1, 0, 1], 0),  # one colour takes every wild
    ([0, 0, 0, 0], [2, 2, 2, 2], [1] * 9, 1),
    ([0, 0, 0, 0], [2, 2, 2, 2], [1] * 9, 0),
    ([0, 0, 0, 0], [0, 0, 0, 0], [1] * 9, 2),
    ([3, 3, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1, 1, 1, 1, 1, 1], 0),  # colours alike in pairs
]


def test_matches_reference_on_wild_rich_collections() -> None:
    rng = np.random.default_rng(85)
    cases = list(WILD_RICH)
    while len(cases) < 60:
        numbers = [int(sum(1 << k for k in range(9) if rng.random() < 0.1)) for _ in range(4)]
        colour_wilds = [int(rng.integers(0, 3)) for _ in range(4)]
        number_wilds = [int(rng.random() < 0.8) for _ in range(9)]
        cases.append((numbers, colour_wilds, number_wilds, int(rng.integers(0, 2))))
    for args in cases:
        expected = score_collection(*args)
        for method in (AUTO, ENUMERATION, POSITION_DP):
            assert score_tuple(*args, method=method) == expected, (args, method)


# ------------------------------------------------------------------------------------------------
# User decks: many copies of number wilds, many colour wilds and stars.


def user_deck_collection(rng: np.random.Generator, big: bool) -> tuple:
    density = rng.random()
    numbers = [int(sum(1 << k for k in range(9) if rng.random() < density * 0.8)) for _ in range(4)]
    top = 5 if big else 3
    colour_wilds = [int(rng.integers(0, top)) if rng.random() < 0.5 else 0 for _ in range(4)]
    number_wilds = [int(rng.integers(0, top)) if rng.random() < 0.6 else 0 for _ in range(9)]
    stars = int(rng.integers(0, 10 if big else 4))
    return numbers, colour_wilds, number_wilds, stars


def test_matches_reference_on_user_decks() -> None:
    rng = np.random.default_rng(81)
    for _ in range(400):
        args = user_deck_collection(rng, big=False)
        expected = score_collection(*args)
        assert score_tuple(*args) == expected, args
        assert score_tuple(*args, method=POSITION_DP) == expected, args


def test_matches_reference_on_big_user_decks() -> None:
    rng = np.random.default_rng(82)
    for _ in range(60):
        args = user_deck_collection(rng, big=True)
        assert score_tuple(*args) == _best_total(*args), args


def test_methods_agree_on_many_big_user_decks() -> None:
    # beyond the reference's speed: the two compiled searches against each other
    rng = np.random.default_rng(83)
    checked = 0
    while checked < 300:
        args = user_deck_collection(rng, big=True)
        auto = score_tuple(*args)
        assert score_tuple(*args, method=POSITION_DP) == auto, args
        # the enumeration only where it is small (it is exponential in the contested wilds)
        masks = list(args[0])
        leaves = 1
        for k, n in enumerate(args[2]):
            lacking = sum(1 for m in masks if not m >> k & 1)
            if 0 < n < lacking:
                leaves *= 6
        if leaves <= 6**5:
            assert score_tuple(*args, method=ENUMERATION) == auto, args
        checked += 1


def test_reference_worst_cases() -> None:
    # all 18 wilds of the real box and no number card; three copies of every number wild, 8 stars
    for args in [([0] * 4, [2] * 4, [1] * 9, 1), ([0] * 4, [0] * 4, [3] * 9, 8), ([0] * 4, [1] * 4, [3] * 9, 8)]:
        assert score_tuple(*args) == score_collection(*args), args


# ------------------------------------------------------------------------------------------------
# Called from compiled code on rows of a 2-D table (as the batched engine does).


@njit(cache=False)
def _score_rows(C: np.ndarray, out: np.ndarray) -> None:
    for g in range(C.shape[0]):
        out[g] = score(C[g, 0:4], C[g, 4:8], C[g, 8:17], C[g, 17])


def test_callable_from_njit_on_table_rows() -> None:
    rng = np.random.default_rng(84)
    rows = []
    for _ in range(300):
        cards = random_collection(rng, ["box", "sparse", "free"][len(rows) % 3])
        numbers, colour_wilds, number_wilds, stars = parse_collection(cards)
        rows.append(list(numbers) + list(colour_wilds) + list(number_wilds) + [stars])
    table = np.array(rows, dtype=np.int64)
    expected = [score_collection(row[0:4], row[4:8], row[8:17], row[17]) for row in rows]
    for C in (table, np.asfortranarray(table)):  # contiguous rows, and strided ones
        before = C.copy()
        out = np.full(len(rows), -1, dtype=np.int64)
        _score_rows(C, out)
        assert out.tolist() == expected
        assert np.array_equal(C, before)  # the inputs are not written


def test_callable_from_python_with_int64_arrays() -> None:
    args = ([0b1011, 0b110, 0, 1 << 8], [1, 0, 0, 0], [0, 1, 1, 0, 0, 0, 0, 0, 0], 1)
    arrays = as_arrays(args)
    assert score(*arrays) == score_collection(*args)
    assert score(arrays[0], arrays[1], arrays[2], np.int64(1)) == score_collection(*args)
