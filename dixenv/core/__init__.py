"""What every dixenv game shares: the engine contract, the AEC adapter, layouts, rewards, options."""

from dixenv.core.game import Game, GameState, Observer
from dixenv.core.layout import Layout, Piece
from dixenv.core.rewards import REWARD_MODES, win_rewards

__all__ = ["Game", "GameState", "Observer", "Layout", "Piece", "REWARD_MODES", "win_rewards"]
