"""The le_dix ``Game`` record: how the shared adapters build states and observers."""

from __future__ import annotations

from dixenv.core.game import Game
from dixenv.games.le_dix import actions
from dixenv.games.le_dix.config import make_config
from dixenv.games.le_dix.observation import LeDixObserver
from dixenv.games.le_dix.state import LeDixState

GAME = Game(
    name="le_dix",
    make_config=make_config,
    new_state=LeDixState,
    make_observer=LeDixObserver,
    num_actions=lambda config: actions.num_actions(config.max_bid),
    action_to_string=lambda config, a: actions.action_to_string(config.max_bid, a),
    string_to_action=lambda config, s: actions.string_to_action(config.max_bid, s),
)
