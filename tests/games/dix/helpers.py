"""Helpers for dix tests: stacked games driven by action strings, and the invariants of a state."""

from __future__ import annotations

from collections import Counter

import numpy as np

from dixenv.dix_v0 import score_cards
from dixenv.games.dix import actions as A
from dixenv.games.dix.cards import CARD_NAMES, NUM_NUMBER_TYPES, NUM_TYPES, parse_card
from dixenv.games.dix.game import GAME
from dixenv.games.dix.state import DixState


#: Option sets that cover the rules' branches (player counts, variants, solo, a box with many copies).
OPTION_SETS = [
    {"num_players": 2},
    {"num_players": 4, "bust_buy": True},
    {"num_players": 3, "auto_pay": True},
    {"solo": True, "difficulty": 6},
    {"num_players": 3, "deck_spec": {"B1": 4, "B2": 3, "G5": 2, "W3": 2, "**": 1, "$1": 6, "$4": 3}},
]


def options_id(options: dict) -> str:
    """A short test id for an option set."""
    return ",".join(f"{k}={v}" if k != "deck_spec" else k for k, v in options.items())


def new_state(deck: list[str], first_player: int = 0, **options) -> DixState:
    """An engine state with the draw pile ``deck`` (top first)."""
    config = GAME.make_config(**options)
    scenario = {"deck": deck}
    if first_player is not None:
        scenario["first_player"] = first_player
    return GAME.new_state(config, np.random.default_rng(0), scenario)


def play(state: DixState, *actions: str) -> None:
    """Apply each action string in turn."""
    for text in actions:
        state.apply_action(A.string_to_action(text))


def legal(state: DixState) -> list[str]:
    """The legal actions of the seat to act, as strings."""
    return [A.action_to_string(a) for a in state.legal_actions()]


def cards(counts) -> list[str]:
    """A count list (per card type) as a sorted list of card strings, one per copy."""
    return [CARD_NAMES[t] for t, c in enumerate(counts) for _ in range(c)]


def tableau(state: DixState) -> list[str]:
    """The tableau as card strings."""
    return cards(state.tableau)


def collection(state: DixState, seat: int) -> list[str]:
    """A seat's collection as card strings."""
    return cards(state.collections[seat])


def market(state: DixState) -> list[str]:
    """The market as card strings."""
    return cards(state.market)


def place_counts(state: DixState) -> list[int]:
    """Copies of each card type over every place: pile, tableau, market, collections, discard, auction."""
    total = [a + b for a, b in zip(state.tableau, state.discard)]
    for t in state.pile:
        total[t] += 1
    for coll in state.collections:
        for t, c in enumerate(coll):
            total[t] += c
    for t, c in enumerate(state.market):
        total[t] += c
    if state.auction_card >= 0:
        total[state.auction_card] += 1
    return total


def check_invariants(state: DixState, expected_counts: list[int]) -> None:
    """The engine's own ``check_invariants``, then the same facts recomputed naively here.

    Every card in exactly one place, tokens within bounds, derived data and scores consistent.
    """
    state.check_invariants()
    assert place_counts(state) == list(expected_counts)
    in_pile = Counter(state.pile)
    assert list(state.pile_counts) == [in_pile[t] for t in range(NUM_TYPES)]
    assert not any(state.tableau[NUM_NUMBER_TYPES:50]), "no wild in the tableau"
    scores = state.scores()
    for p in range(state.num_seats):
        numbers = list(state.collections[p])[:NUM_NUMBER_TYPES]
        assert 0 <= state.tokens[p] <= 10
        assert state.consolation[p] >= 0
        assert state.num_cards[p] == sum(numbers)
        assert state.dups[p] == sum(c - 1 for c in numbers if c > 1)
        assert scores[p] == score_cards(collection(state, p))
    if state.buy_card >= 0:
        assert state.market[state.buy_card] > 0, "the card being paid for is still in the market"


def deck_counts(deck: list[str]) -> list[int]:
    """Copies of each type in a deck of card strings."""
    counts = [0] * NUM_TYPES
    for c in deck:
        counts[parse_card(c)] += 1
    return counts


def random_policy(seed: int):
    """A chooser of uniformly random legal actions: ``choose(state) -> action``."""
    rng = np.random.default_rng(seed)

    def choose(state: DixState) -> int:
        legal = state.legal_actions()
        return legal[rng.integers(len(legal))]

    return choose


def heuristic_policy(**options):
    """The dix heuristic playing the seat to act of an engine state (fed its observation and mask)."""
    from dixenv import dix_v0
    from dixenv.agents.registry import make_agent
    from dixenv.games.dix.observation import DixObserver

    agent = make_agent("dix", "heuristic", dix_v0.raw_env(**options), seed=0)
    observer = DixObserver(GAME.make_config(**options))

    def choose(state: DixState) -> int:
        observer.set_from(state, state.current_player())
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        mask[state.legal_actions()] = 1
        return agent.act({"observation": observer.tensor.copy(), "action_mask": mask})

    return choose
