"""dix de suite (Rack-O) as a PettingZoo AEC environment: ``env(**options)`` and ``raw_env``.

2–4 players sort a rack of 10 cards (1–40 / 1–50 / 1–60) into ascending order; rounds until
someone reaches ``target_score`` (500). Rules, options, observation and action tables:
``docs/games/dix_de_suite.md``.

Options: ``num_players`` (2, 3, 4; default 2), ``target_score`` (500), ``max_turns`` (turns per
round before truncation, 1000), ``reshuffle``, ``two_player_run``, ``teams``, ``run_bonus``
(False), plus the common ``reward`` ("win", "points", "margin"), ``auto_forced``, ``render_mode``
("ansi", "human", "rgb_array"), ``render_viewer`` ("spectator" default, or a seat) and
``record_events`` (keep the move log).
Scenario options for ``reset(options=...)``: ``deck`` (ints, top first) and ``dealer`` (seat).
"""

from __future__ import annotations

from typing import Any

from dixenv.core.aec import CardGameEnv, make_raw_env, wrap
from dixenv.games.dix_de_suite.game import GAME


class raw_env(CardGameEnv):
    """dix de suite, unwrapped (illegal actions raise ``ValueError``)."""

    metadata = {**CardGameEnv.metadata, "name": "dix_de_suite_v0"}
    game = GAME


def env(engine: str = "python", **options: Any) -> Any:
    """dix de suite with the PettingZoo classic wrappers (an illegal action loses the game).

    ``engine="compiled"`` (the ``fast`` extra, numba) plays the same games on the compiled engine:
    no rendering, move log, scenario decks or search agents (``dixenv.compiled.aec``).
    """
    return wrap(make_raw_env(raw_env, engine, options))
