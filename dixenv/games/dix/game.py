"""The dix ``Game`` record: how the shared adapters build states and observers."""

from __future__ import annotations

from dixenv.core.game import Game
from dixenv.games.dix import actions
from dixenv.games.dix.config import DixConfig, make_config
from dixenv.games.dix.observation import DixObserver
from dixenv.games.dix.solo import ALIX_SEAT
from dixenv.games.dix.state import DixState

# Module-level functions, not lambdas, so that the record and every env holding it pickle.
def _num_actions(config: DixConfig) -> int:
    return actions.NUM_ACTIONS


def _action_to_string(config: DixConfig, action: int) -> str:
    return actions.action_to_string(action)


def _string_to_action(config: DixConfig, text: str) -> int:
    return actions.string_to_action(text)


def _agent_seats(config: DixConfig) -> list[int]:
    """In the solo game the environment plays ALIX: the only agent is player_0."""
    return [s for s in range(config.num_players) if not (config.solo and s == ALIX_SEAT)]


GAME = Game(
    name="dix",
    make_config=make_config,
    new_state=DixState,
    make_observer=DixObserver,
    num_actions=_num_actions,
    action_to_string=_action_to_string,
    string_to_action=_string_to_action,
    agent_seats=_agent_seats,
)
