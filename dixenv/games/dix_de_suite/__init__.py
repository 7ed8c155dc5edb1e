"""dix de suite (Rack-O): sort a rack of 10 cards into ascending order. Rules engine and observer."""

from dixenv.games.dix_de_suite.game import GAME

__all__ = ["GAME"]
