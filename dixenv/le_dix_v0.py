"""le_dix: trick-taking with exact bids over ten deals (an Oh Hell family game), 3–5 players.

``env(**options)`` is the PettingZoo classic-wrapped environment, ``raw_env`` the bare one.
Options: ``num_players`` (3–5, default 4), ``deals`` (hand sizes per deal, default 10..1),
``scoring`` ("exact10": +10 for an exact bid, default; "oh_hell": 10 + bid), ``hook`` (the
dealer may not bid so that the bids add up to the hand size; default False), ``reward``
("win" default, "points", "margin"), ``auto_forced`` (default True), ``render_mode`` ("ansi",
"human", "rgb_array"), ``render_viewer`` ("spectator" default, or a seat: whose view the picture
shows), ``record_events`` (keep the move log, ``events``).
Reset options: ``deck`` (card strings, top first, for the first deal) and ``dealer`` (seat).
"""

from __future__ import annotations

from typing import Any

from dixenv.core.aec import CardGameEnv, make_raw_env, wrap
from dixenv.games.le_dix.game import GAME


class raw_env(CardGameEnv):
    """The le_dix AEC environment without wrappers (illegal actions raise ``ValueError``)."""

    metadata = {**CardGameEnv.metadata, "name": "le_dix_v0"}
    game = GAME


def env(engine: str = "python", **options: Any) -> Any:
    """le_dix with PettingZoo's classic wrappers (an illegal action ends the game, offender −1).

    ``engine="compiled"`` (the ``fast`` extra, numba) plays the same games on the compiled engine,
    about twice as fast a step: no rendering, move log, scenario decks or search agents
    (``dixenv.compiled.aec``).
    """
    return wrap(make_raw_env(raw_env, engine, options))
