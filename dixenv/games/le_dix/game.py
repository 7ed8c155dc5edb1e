"""The le_dix ``Game`` record: how the shared adapters build states and observers."""

from __future__ import annotations

from dixenv.core.game import Game
from dixenv.games.le_dix import actions
from dixenv.games.le_dix.config import LeDixConfig, make_config
from dixenv.games.le_dix.observation import LeDixObserver
from dixenv.games.le_dix.state import LeDixState

# Module-level functions, not lambdas, so that the record and every env holding it pickle.
def _num_actions(config: LeDixConfig) -> int:
    return actions.num_actions(config.max_bid)


def _action_to_string(config: LeDixConfig, action: int) -> str:
    return actions.action_to_string(config.max_bid, action)


def _string_to_action(config: LeDixConfig, text: str) -> int:
    return actions.string_to_action(config.max_bid, text)


GAME = Game(
    name="le_dix",
    make_config=make_config,
    new_state=LeDixState,
    make_observer=LeDixObserver,
    num_actions=_num_actions,
    action_to_string=_action_to_string,
    string_to_action=_string_to_action,
)
