"""dix (TEN) as a PettingZoo AEC environment: ``env(**options)`` (wrapped) and ``raw_env``.

Options: ``num_players`` (2–5, default 2), ``solo`` (play against ALIX, seat 1, played by the
environment), ``difficulty`` (ALIX's threshold 4–10, solo only, default 4), ``bust_buy`` (the
variant: a buy instead of the consolation token on a bust), ``auto_pay`` (payments made by a
fixed rule instead of item by item), ``deck_spec`` (another box of cards), plus the common
``reward`` ("win" default, "points", "margin"), ``auto_forced``, ``render_mode`` ("ansi", "human",
"rgb_array"), ``render_viewer`` ("spectator" default, or a seat) and ``record_events`` (keep the
move log). Reset options: ``deck`` (the draw pile, top first) and
``first_player``. See docs/games/dix.md for the rules, the action table and the observation layout.
"""

from __future__ import annotations

from typing import Any

from dixenv.core.aec import CardGameEnv, make_raw_env, wrap
from dixenv.games.dix.cards import STANDARD_DECK, DeckSpec
from dixenv.games.dix.game import GAME
from dixenv.games.dix.scoring import score_cards

__all__ = ["env", "raw_env", "score_cards", "DeckSpec", "STANDARD_DECK"]


class raw_env(CardGameEnv):
    """dix (TEN) without the PettingZoo wrappers; illegal actions raise ``ValueError``."""

    metadata = {**CardGameEnv.metadata, "name": "dix_v0"}
    game = GAME


def env(engine: str = "python", **options: Any) -> Any:
    """dix (TEN) with the PettingZoo classic wrappers (an illegal move loses and ends the game).

    ``engine="compiled"`` (the ``fast`` extra, numba) plays the same games on the compiled engine
    (ALIX's moves in solo too): no rendering, move log, scenario decks or search agents
    (``dixenv.compiled.aec``).
    """
    return wrap(make_raw_env(raw_env, engine, options))
