"""Tests of dix end-of-game scoring: hand-worked rule examples and an exhaustive-search oracle."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dixenv.games.dix.scoring import _best_total, parse_collection, score_cards, score_collection

COLOURS = "BGOP"
NUMBER_CARDS = [f"{c}{k}" for c in COLOURS for k in range(1, 10)]
COLOUR_WILDS = [f"{c}#" for c in COLOURS]
NUMBER_WILDS = [f"W{k}" for k in range(1, 10)]
STAR = "**"

# The real box without currency (SPEC §1): 1-6 ×3, 7-9 ×1 per colour; 2 colour wilds per colour;
# W1..W9 once; one star.
BOX_NUMBERS = [f"{c}{k}" for c in COLOURS for k in range(1, 10) for _ in range(3 if k <= 6 else 1)]
BOX_WILDS = COLOUR_WILDS * 2 + NUMBER_WILDS + [STAR]


# ------------------------------------------------------------------------------------------------
# Oracles: written independently of the module (no shared tables or code).


def longest_run_value(covered: set[int]) -> int:
    """Value of one colour: longest run of consecutive numbers in ``covered``, 10 for 1-9."""
    best = run = 0
    for k in range(1, 10):
        run = run + 1 if k in covered else 0
        best = max(best, run)
    return 10 if best == 9 else best


def wild_slots(card: str) -> list[tuple[str, int]]:
    """Every (colour, number) slot a wild may stand in."""
    if card == STAR:
        return [(c, k) for c in COLOURS for k in range(1, 10)]
    if card.startswith("W"):
        return [(c, int(card[1])) for c in COLOURS]
    return [(card[0], k) for k in range(1, 10)]


def literal_brute_force_score(cards: list[str]) -> int:
    """Best total over the product of every wild's options (unused or any legal slot); tiny inputs only."""
    base = [(card[0], int(card[1])) for card in cards if card in NUMBER_CARDS]
    options = [[None] + wild_slots(card) for card in cards if card not in NUMBER_CARDS]
    best = 0
    for placement in itertools.product(*options):
        covered = set(base) | {slot for slot in placement if slot is not None}
        best = max(best, sum(longest_run_value({k for (c, k) in covered if c == col}) for col in COLOURS))
    return best


_FILLED_CACHE: dict[tuple[int, int], int] = {}


def best_with_fillers(covered: int, fillers: int) -> int:
    """Best value of one colour holding ``covered`` (bit k-1 = k) plus ``fillers`` any-number cards, placed every way."""
    key = (covered, fillers)
    if key not in _FILLED_CACHE:
        free = [k for k in range(1, 10) if not covered >> (k - 1) & 1]
        held = {k for k in range(1, 10) if covered >> (k - 1) & 1}
        _FILLED_CACHE[key] = max(
            longest_run_value(held | set(extra))
            for size in range(min(fillers, len(free)) + 1)
            for extra in itertools.combinations(free, size)
        )
    return _FILLED_CACHE[key]


def brute_force_score(cards: list[str]) -> int:
    """Best total over every placement of every wild (each: unused, or any legal slot).

    Each wild is tried unused and in every colour it may join (a number wild at its number); the
    colour wilds and stars that joined a colour are then placed at every combination of that
    colour's free numbers (two fillers on one number is the same as one unused). The search runs
    wild by wild over the set of distinct (covered numbers, fillers per colour) configurations, so
    placements that lead to the same configuration are explored once; every placement is reached.
    """
    covered = [0, 0, 0, 0]
    for card in cards:
        if card in NUMBER_CARDS:
            covered[COLOURS.index(card[0])] |= 1 << (int(card[1]) - 1)
    states = {(tuple(covered), (0, 0, 0, 0))}
    for card in cards:
        if card in NUMBER_CARDS:
            continue
        if card.startswith("W"):
            bit = 1 << (int(card[1]) - 1)
            states |= {
                (tuple(m | bit if i == c else m for i, m in enumerate(masks)), fills)
                for masks, fills in states
                for c in range(4)
            }
        else:
            colours = range(4) if card == STAR else [COLOURS.index(card[0])]
            states |= {
                (masks, tuple(f + 1 if i == c else f for i, f in enumerate(fills)))
                for masks, fills in states
                for c in colours
            }
    return max(sum(best_with_fillers(masks[c], fills[c]) for c in range(4)) for masks, fills in states)


# ------------------------------------------------------------------------------------------------
# Hand-worked examples, one per rule.


def test_empty_collection_scores_zero() -> None:
    assert score_cards([]) == 0


def test_one_point_per_card_in_the_longest_run_of_each_colour() -> None:
    # blue 1-2-3 and 7-8 (longest 3), green 5 (1), orange 2-3-4-5 (4)
    cards = ["B1", "B2", "B3", "B7", "B8", "G5", "O2", "O3", "O4", "O5"]
    assert score_cards(cards) == 3 + 1 + 4


def test_full_one_to_nine_run_scores_ten() -> None:
    assert score_cards([f"G{k}" for k in range(1, 10)]) == 10


def test_four_full_runs_score_forty() -> None:
    assert score_cards(NUMBER_CARDS) == 40


def test_duplicates_count_once() -> None:
    assert score_cards(["B1", "B1", "B1", "B2", "B2"]) == 2
    assert score_cards(["P4"] * 5) == 1


def test_colour_wild_bridges_a_gap_in_its_colour() -> None:
    assert score_cards(["B1", "B2", "B4", "B5", "B#"]) == 5


def test_colour_wild_only_helps_its_own_colour() -> None:
    assert score_cards(["G1", "G2", "G4", "G5", "B#"]) == 2 + 1


def test_colour_wild_extends_a_run_at_its_end() -> None:
    assert score_cards(["O7", "O8", "O9", "O#"]) == 4


def test_colour_wild_completes_a_full_run_with_bonus() -> None:
    assert score_cards([f"P{k}" for k in range(1, 10) if k != 5] + ["P#"]) == 10


def test_number_wild_fills_its_own_number_only() -> None:
    # W9 cannot stand for the missing 3: blue stays 1-2 | 4-5 (W9 makes a 1-card run elsewhere)
    assert score_cards(["B1", "B2", "B4", "B5", "W9"]) == 2 + 1


def test_number_wild_bridges_a_gap_of_its_number() -> None:
    assert score_cards(["B1", "B2", "B4", "B5", "W3"]) == 5  # 1-2-W3-4-5
    assert score_cards(["B1", "B2", "B3", "B5", "W4"]) == 5  # 1-2-3-W4-5


def test_number_wild_chooses_the_colour_where_it_helps_most() -> None:
    # W5 bridges blue 4 | 6 (1 -> 3) or green 1-2-3-4 | 6-7-8-9 (4 -> full 10): it goes to green
    cards = ["B4", "B6", "G1", "G2", "G3", "G4", "G6", "G7", "G8", "G9"]
    assert score_cards(cards) == 1 + 4
    assert score_cards(cards + ["W5"]) == 1 + 10


def test_two_copies_of_a_number_wild_serve_two_colours() -> None:
    cards = ["B1", "B3", "G1", "G3", "W2", "W2"]
    assert score_cards(cards) == 3 + 3
    assert score_cards(cards[:-1]) == 3 + 1


def test_star_fills_a_gap_in_any_colour() -> None:
    assert score_cards(["O1", "O2", "O4", "**"]) == 4
    assert score_cards(["P6", "P8", "**"]) == 3


def test_star_goes_where_it_helps_most() -> None:
    cards = ["B1", "B3", "G1", "G2", "G3", "G5", "G6", "G7"]  # blue gap at 2 (+2), green at 4 (+4)
    assert score_cards(cards + ["**"]) == 1 + 7


def test_wilds_alone_make_a_run() -> None:
    assert score_cards(["**"]) == 1
    assert score_cards(["B#", "B#"]) == 2
    assert score_cards(["W3", "W4", "W5"]) == 3
    assert score_cards(["W3", "W5"]) == 2  # not consecutive: one card in each of two colours


def test_number_wild_and_star_share_one_colour() -> None:
    # W2 and the star both in blue: 1-W2-3-**-5
    assert score_cards(["B1", "B3", "B5", "W2", "**"]) == 5


def test_wilds_are_split_between_colours_to_maximise_the_total() -> None:
    # W2 and the star in blue give 1-W2-3-** (4) + green 1 = 5; split, they give 3 + 3
    cards = ["B1", "B3", "G1", "G3", "W2", "**"]
    assert score_cards(cards) == 3 + 3
    assert score_cards(cards) == brute_force_score(cards) == literal_brute_force_score(cards)


def test_bad_card_string_raises_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match="'X7'"):
        score_cards(["B1", "X7"])
    with pytest.raises(ValueError, match="'B0'"):
        score_cards(["B0"])
    with pytest.raises(ValueError, match="'b1'"):
        score_cards(["b1"])
    with pytest.raises(ValueError, match="W#"):
        score_cards(["W#"])


def test_currency_card_raises_value_error() -> None:
    with pytest.raises(ValueError, match=r"'\$3'.*currency"):
        score_cards(["B1", "$3"])


def test_non_string_card_raises_value_error() -> None:
    with pytest.raises(ValueError, match="7"):
        score_cards([7])  # type: ignore[list-item]


def test_a_single_string_is_not_a_collection() -> None:
    with pytest.raises(ValueError, match="'B1'"):
        score_cards("B1")


def test_score_collection_accepts_numpy_integers() -> None:
    numbers = np.array([0b111, 0, 0, 0], dtype=np.int64)
    assert score_collection(numbers, np.zeros(4, dtype=np.int8), np.zeros(9, dtype=np.int8), np.int64(1)) == 4


def test_score_collection_takes_masks_and_counts() -> None:
    # blue 1,2,4 + one blue colour wild + W3 -> 1-2-W3-4-B#; pink 9 alone
    numbers = [0b1011, 0, 0, 1 << 8]
    assert score_collection(numbers, [1, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0, 0], 0) == 5 + 1
    assert score_collection(numbers, [0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0, 0], 0) == 4 + 1
    assert score_collection([0] * 4, [0] * 4, [0] * 9, 0) == 0
    assert score_collection([511] * 4, [0] * 4, [0] * 9, 0) == 40


def test_score_collection_accepts_any_counts() -> None:
    assert score_collection([0] * 4, [0] * 4, [0] * 9, 1000) == 40
    assert score_collection([0] * 4, [20, 0, 0, 0], [0] * 9, 0) == 10
    assert score_collection([0] * 4, [0] * 4, [4] * 9, 0) == 40
    assert score_collection([0] * 4, [0] * 4, [3] * 9, 0) == 30
    assert score_collection([0] * 4, [0] * 4, [3] * 9, 9) == 40
    assert score_collection([0] * 4, [0] * 4, [3] * 9, 8) == 30 + 8


@pytest.mark.parametrize(
    "args",
    [
        ([0] * 3, [0] * 4, [0] * 9, 0),
        ([512, 0, 0, 0], [0] * 4, [0] * 9, 0),
        ([0] * 4, [0, -1, 0, 0], [0] * 9, 0),
        ([0] * 4, [0] * 4, [0] * 8, 0),
        ([0] * 4, [0] * 4, [0] * 9, -1),
        ([0] * 4, [0] * 4, [0] * 9, 1.5),
        ([0.5, 0, 0, 0], [0] * 4, [0] * 9, 0),
    ],
)
def test_score_collection_rejects_malformed_arguments(args: tuple) -> None:
    with pytest.raises(ValueError):
        score_collection(*args)


def test_parse_collection_builds_masks_and_counts() -> None:
    numbers, colour_wilds, number_wilds, stars = parse_collection(["B1", "B1", "B9", "P2", "G#", "W7", "W7", "**"])
    assert numbers == (0b100000001, 0, 0, 0b10)
    assert colour_wilds == (0, 1, 0, 0)
    assert number_wilds == (0, 0, 0, 0, 0, 0, 2, 0, 0)
    assert stars == 1


# ------------------------------------------------------------------------------------------------
# Random collections against the oracle.


def random_collection(rng: np.random.Generator, kind: str) -> list[str]:
    """A random collection: ``box`` draws from the real box, ``free`` allows any multiset."""
    if kind == "box":
        n_numbers = int(rng.integers(0, 31))
        n_wilds = int(rng.integers(0, 9))
        numbers = list(rng.choice(BOX_NUMBERS, size=n_numbers, replace=False))
        wilds = list(rng.choice(BOX_WILDS, size=n_wilds, replace=False))
    elif kind == "sparse":  # few number cards, many wilds: where placement matters most
        numbers = list(rng.choice(BOX_NUMBERS, size=int(rng.integers(0, 10)), replace=False))
        wilds = list(rng.choice(BOX_WILDS, size=int(rng.integers(3, 9)), replace=False))
    else:  # "free": user decks, any counts (duplicate number wilds, several stars)
        numbers = list(rng.choice(NUMBER_CARDS, size=int(rng.integers(0, 25)), replace=True))
        pool = COLOUR_WILDS + NUMBER_WILDS * 2 + [STAR]
        wilds = list(rng.choice(pool, size=int(rng.integers(0, 8)), replace=True))
        # more than 2 stars make the oracle slow without testing anything new
        while wilds.count(STAR) > 2:
            wilds.remove(STAR)
    cards = [str(c) for c in numbers + wilds]
    rng.shuffle(cards)
    return cards


@pytest.mark.parametrize("kind", ["box", "sparse", "free"])
@pytest.mark.parametrize("chunk", range(4))
def test_score_cards_matches_brute_force_on_random_collections(kind: str, chunk: int) -> None:
    rng = np.random.default_rng([2024, ["box", "sparse", "free"].index(kind), chunk])
    for i in range(150):
        cards = random_collection(rng, kind)
        best = brute_force_score(cards)
        assert score_cards(cards) == best, cards
        # both exact algorithms, whichever score_cards picked (the position DP on a sample: slower)
        assert _best_total(*parse_collection(cards), method="colour") == best, cards
        if i % 3 == 0:
            assert _best_total(*parse_collection(cards), method="position") == best, cards


def test_score_collection_matches_brute_force_with_duplicate_number_wilds() -> None:
    # Several copies of the same number wild, contested by several colours.
    rng = np.random.default_rng(7)
    for _ in range(200):
        numbers = [int(rng.integers(0, 512)) & int(rng.integers(0, 512)) for _ in range(4)]
        number_wilds = [0] * 9
        for k in rng.choice(9, size=int(rng.integers(1, 4)), replace=False):
            number_wilds[int(k)] = int(rng.integers(1, 4))
        colour_wilds = [int(rng.integers(0, 2)) for _ in range(4)]
        stars = int(rng.integers(0, 2))
        cards = [f"{COLOURS[c]}{k}" for c in range(4) for k in range(1, 10) if numbers[c] >> (k - 1) & 1]
        cards += [f"{COLOURS[c]}#" for c in range(4) for _ in range(colour_wilds[c])]
        cards += [f"W{k}" for k in range(1, 10) for _ in range(number_wilds[k - 1])]
        cards += [STAR] * stars
        best = brute_force_score(cards)
        assert score_collection(numbers, colour_wilds, number_wilds, stars) == best, cards
        for method in ("colour", "position"):
            assert _best_total(numbers, colour_wilds, number_wilds, stars, method=method) == best, cards


def test_brute_force_oracle_agrees_with_the_literal_product_of_placements() -> None:
    # the oracle merges placements that cover the same slots; check it against the plain product
    rng = np.random.default_rng(11)
    checked = 0
    while checked < 120:
        cards = random_collection(rng, "box")
        wilds = [c for c in cards if c not in NUMBER_CARDS]
        if not 1 <= len(wilds) <= 3 or (STAR in wilds and len(wilds) > 2):
            continue
        assert literal_brute_force_score(cards) == brute_force_score(cards), cards
        checked += 1


# ------------------------------------------------------------------------------------------------
# Properties.

card_strategy = st.sampled_from(NUMBER_CARDS + COLOUR_WILDS + NUMBER_WILDS + [STAR])


@settings(max_examples=300, deadline=None)
@given(st.lists(card_strategy, max_size=14))
def test_score_cards_matches_brute_force_property(cards: list[str]) -> None:
    if sum(c == STAR for c in cards) > 2:  # keep the oracle fast
        cards = [c for c in cards if c != STAR] + [STAR, STAR]
    assert score_cards(cards) == brute_force_score(cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(card_strategy, max_size=30), card_strategy)
def test_adding_a_card_never_lowers_the_score(cards: list[str], extra: str) -> None:
    assert score_cards(cards + [extra]) >= score_cards(cards)


@settings(max_examples=200, deadline=None)
@given(st.lists(card_strategy, max_size=30), st.permutations(range(4)))
def test_score_is_unchanged_by_renaming_colours(cards: list[str], perm: list[int]) -> None:
    rename = {COLOURS[i]: COLOURS[perm[i]] for i in range(4)}
    renamed = [rename[c[0]] + c[1] if c[0] in rename else c for c in cards]
    assert score_cards(renamed) == score_cards(cards)


@settings(max_examples=200, deadline=None)
@given(st.lists(card_strategy, max_size=30))
def test_score_is_bounded_by_cards_held_and_forty(cards: list[str]) -> None:
    distinct_numbers = len({c for c in cards if c in NUMBER_CARDS})
    wilds = sum(c not in NUMBER_CARDS for c in cards)
    score = score_cards(cards)
    assert 0 <= score <= min(40, distinct_numbers + wilds + 4)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(NUMBER_CARDS), max_size=30),
    st.lists(st.sampled_from(COLOUR_WILDS + NUMBER_WILDS * 3 + [STAR]), min_size=4, max_size=16),
)
def test_colour_and_position_algorithms_agree_on_large_collections(numbers: list[str], wilds: list[str]) -> None:
    # beyond the brute force's reach: many wilds, copies of number wilds, several stars
    args = parse_collection(numbers + wilds)
    assert _best_total(*args, method="colour") == _best_total(*args, method="position")
