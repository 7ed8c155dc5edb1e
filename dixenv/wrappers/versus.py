"""Single-agent Gymnasium versions of every game against baseline opponents.

``gymnasium.make("dixenv/LeDix-v0", num_players=4, opponents="heuristic")``: the learner is
``player_0`` (``learner_seat`` moves it); every other seat is played by the named baseline
(``"random"``, ``"heuristic"`` (the default), ``"alix"`` for dix, or a list with one name per opponent).
Other keyword options are the game's. Names are resolved lazily by ``agents.registry``, so the
``agents`` package must be importable (it is installed with dixenv).
"""

from __future__ import annotations

import importlib
from typing import Any, Sequence

from dixenv.wrappers.single_agent import SingleAgentEnv


def make_versus(
    game: str,
    opponents: str | Sequence[Any] | None = None,
    learner_seat: int = 0,
    illegal_action: str = "lose",
    render_viewer: int | str = "learner",
    **options: Any,
) -> SingleAgentEnv:
    """One seat of ``game`` as a Gymnasium env; the other seats played by ``opponents``.

    ``opponents`` defaults to the game's ``heuristic`` (``random`` for a game whose spec names none).
    ``render_viewer`` ("learner", "spectator" or a seat) is whose view ``rgb_array`` pictures show.
    """
    from dixenv.games import game_spec

    spec = game_spec(game)
    if opponents is None:
        opponents = "heuristic" if "heuristic" in spec.agents else "random"
    raw = importlib.import_module(spec.env_module).raw_env(**options)
    learner = f"player_{learner_seat}"
    if learner not in raw.possible_agents:
        raise ValueError(f"learner_seat={learner_seat!r} is not a seat of this game; seats: 0..{len(raw.possible_agents) - 1}")
    if isinstance(opponents, str):
        opponents = [opponents] * (len(raw.possible_agents) - 1)
    elif not isinstance(opponents, (list, tuple)):
        raise ValueError(
            f"opponents={opponents!r} must be an agent name (e.g. 'heuristic', 'random') or a list with one "
            f"name or agent per opponent seat ({len(raw.possible_agents) - 1} here)"
        )
    return SingleAgentEnv(raw, list(opponents), learner=learner, illegal_action=illegal_action, render_viewer=render_viewer)


def le_dix(**kwargs: Any) -> SingleAgentEnv:
    """``dixenv/LeDix-v0``: le_dix for one learner against baseline opponents."""
    return make_versus("le_dix", **kwargs)


def dix_de_suite(**kwargs: Any) -> SingleAgentEnv:
    """``dixenv/DixDeSuite-v0``: dix_de_suite for one learner against baseline opponents."""
    return make_versus("dix_de_suite", **kwargs)


def dix(**kwargs: Any) -> SingleAgentEnv:
    """``dixenv/Dix-v0``: dix for one learner against baseline opponents."""
    return make_versus("dix", **kwargs)
