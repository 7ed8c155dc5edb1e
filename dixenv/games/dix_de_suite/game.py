"""The dix de suite ``Game`` record: options, new states (with scenario options), observer, actions."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from dixenv.core.game import Game
from dixenv.core.options import check_int, warn_unknown_reset_keys
from dixenv.games.dix_de_suite import actions as A
from dixenv.games.dix_de_suite.cards import RACK_SIZE, parse_deck
from dixenv.games.dix_de_suite.config import DixDeSuiteConfig, make_config
from dixenv.games.dix_de_suite.observation import make_observer
from dixenv.games.dix_de_suite.state import DixDeSuiteState

SCENARIO_KEYS = ("deck", "dealer")


def new_state(
    config: DixDeSuiteConfig, rng: np.random.Generator, scenario: Mapping[str, Any], events: list | None = None
) -> DixDeSuiteState:
    """A new game; ``scenario`` may stack the first deal (``deck``, top first) and fix the first ``dealer``.

    Unknown keys only warn (the core's rule: PettingZoo's api_test resets with a foreign key).
    """
    warn_unknown_reset_keys("dix_de_suite", scenario, SCENARIO_KEYS)
    n = config.num_players
    deck = scenario.get("deck")
    if deck is not None:
        deck = parse_deck(deck, config.deck_size, n * RACK_SIZE + 1)
    dealer = scenario.get("dealer")
    if dealer is not None:
        dealer = check_int("dealer", dealer, 0, n - 1)
    return DixDeSuiteState(config, rng, deck=deck, dealer=dealer, events=events)


# Module-level functions, not lambdas, so that the record and every env holding it pickle.
def _num_actions(config: DixDeSuiteConfig) -> int:
    return A.NUM_ACTIONS


def _action_to_string(config: DixDeSuiteConfig, action: int) -> str:
    return A.action_to_string(action)


def _string_to_action(config: DixDeSuiteConfig, text: str) -> int:
    return A.string_to_action(text)


GAME = Game(
    name="dix_de_suite",
    make_config=make_config,
    new_state=new_state,
    make_observer=make_observer,
    num_actions=_num_actions,
    action_to_string=_action_to_string,
    string_to_action=_string_to_action,
)
