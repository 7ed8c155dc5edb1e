"""The dix ``Game`` record: how the shared adapters build states and observers."""

from __future__ import annotations

from dixenv.core.game import Game
from dixenv.games.dix import actions
from dixenv.games.dix.config import make_config
from dixenv.games.dix.observation import DixObserver
from dixenv.games.dix.solo import ALIX_SEAT
from dixenv.games.dix.state import DixState

GAME = Game(
    name="dix",
    make_config=make_config,
    new_state=DixState,
    make_observer=DixObserver,
    num_actions=lambda config: actions.NUM_ACTIONS,
    action_to_string=lambda config, a: actions.action_to_string(a),
    string_to_action=lambda config, s: actions.string_to_action(s),
    # In the solo game the environment plays ALIX: the only agent is player_0.
    agent_seats=lambda config: [s for s in range(config.num_players) if not (config.solo and s == ALIX_SEAT)],
)
