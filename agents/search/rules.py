"""What the generic search needs to know of a game (``SearchRules``), and named option settings (``Preset``).

A game's knowledge (its rollout policy, horizons, estimates, beliefs, fitted constants and presets)
lives in its own module beside this one (``le_dix.py``, ``dix_de_suite.py``, ``dix.py``), as a
``RULES`` object that the game's spec names (``dixenv/games/<game>/spec.py``, ``search_rules``);
``rules_for(game)`` loads it. A game whose spec names none gets ``GENERIC_RULES``.

A *preset* is a named dict of search options (``ismcts:preset=fast``); the options written after it
override its own (``ismcts:preset=strongest,iterations=30``). Every game has the generic presets
(``GENERIC_PRESETS``: ``defaults``, ``fast``, ``cowling2012``); a game's own preset of the same
name replaces the generic one. ``plain_preset`` says what an agent named without options means:
its game's strongest measured setting that the table accepts (``SearchRules.plain``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np


@dataclass(frozen=True)
class Preset:
    """A named setting of search options, and where it was measured.

    ``options`` are keyword options as an option string gives them (``{"iterations": 64,
    "rollout.secure": 1}``); ``agents`` the search agents it applies to (``ismcts``, ``pimc``);
    ``source`` what it is and the figure behind it; ``refusal(config)`` why a table cannot use it (a
    ``ValueError`` message), or None (no refusal function: every table).
    """

    options: dict[str, Any]
    source: str
    agents: tuple[str, ...] = ("ismcts",)
    refusal: Callable[[Any], str | None] | None = None

    def refuses(self, config: Any) -> str | None:
        """Why a table of ``config`` cannot use this preset, or None."""
        return self.refusal(config) if self.refusal is not None else None


#: The presets of every game (a game's own preset of the same name replaces one of these).
GENERIC_PRESETS: dict[str, Preset] = {
    "defaults": Preset(
        {},
        "the game's own defaults (its SearchRules, 100 iterations): what an option string without a "
        "preset means, as every option string meant before presets",
        agents=("ismcts", "pimc"),
    ),
    "fast": Preset(
        {"iterations": 30},
        "30 simulations per move at the game's defaults (le_dix and dix: the 30-iteration rows of "
        "docs/results/search.md)",
        agents=("ismcts", "pimc"),
    ),
    "cowling2012": Preset(
        {"rollout": "random", "horizon": "game", "value": "win", "c": 0.7, "opponents": "tree",
         "expand": "random", "root": "ucb"},
        "plain SO-ISMCTS as in Cowling, Powley & Whitehouse (2012): uniformly random rollouts to the "
        "end of the game, the game's result as value, UCB1 with c=0.7 at every node, the other seats "
        "choosing in the searching seat's tree (not measured here)",
    ),
}


@dataclass(frozen=True)
class SearchRules:
    """One game's horizons and scales, beyond the ``GameState`` API.

    ``short`` names the horizon shorter than the game (None if there is none); ``mark(state)``
    is a counter that changes when it passes (the deal or round number). ``span(state, horizon)``
    is the most points one seat can gain over the horizon from ``state`` (the ``points`` and
    ``margin`` scale). ``estimates`` name the ways to score a simulation cut short (by ``depth``
    or the ``turn`` horizon), the first the default: ``estimate(agent, state)`` is each seat's
    expected points still to come before the short horizon (none: count what is scored so far,
    and no ``turn`` horizon).
    """

    short: str | None
    default_horizon: str
    default_value: str
    default_rollout: str
    mark: Callable[[Any], int]
    span: Callable[[Any, str], float]
    estimates: dict[str, Callable[[Any, Any], list[float]]] | None = None
    greedy: Callable[[Any, list[int]], int] | None = None
    #: The estimates that give each seat's game result (``win_rewards``' scale), not points to come:
    #: scored with ``value=win`` (their default) at any horizon; each maps the game's config to why
    #: it cannot score it (a ``ValueError`` message), or None.
    win_estimates: dict[str, Callable[[Any], str | None]] | None = None
    #: ``decisions`` option: named tests of a state to act in, the first the default; a decision
    #: that fails the test is the rollout policy's, unsearched (a test of None, or no option:
    #: every decision is searched).
    decisions: dict[str, Callable[[Any], bool] | None] | None = None
    #: ``round_win`` option: ``(round_win, estimate, config)`` to why the game cannot use that way
    #: of turning rack costs into round-win chances (a ``ValueError`` message), or None (none: the
    #: game has no such option).
    round_win_refusal: Callable[[str, str | None, Any], str | None] | None = None
    #: ``belief`` option: named ways to move a ``sample_hidden`` world towards what the other seats'
    #: play reveals, ``refine(world, seat, rng)`` in place; ``uniform`` (no refinement) is always
    #: allowed and the default (none: the game has only ``uniform``).
    beliefs: dict[str, Callable[[Any, int, np.random.Generator], Any]] | None = None
    #: Defaults of the ``ismcts`` tree options (``core``'s docstring); dix overrides them.
    default_c: float = 0.7
    default_opponents: str = "tree"
    default_expand: str = "random"
    default_root: str = "ucb"
    #: The game's own presets (they replace the generic ones of the same name).
    presets: dict[str, Preset] = field(default_factory=dict)
    #: What an agent named without options plays: the first of these presets that exists for the
    #: agent and accepts the table.
    plain: tuple[str, ...] = ("strongest", "defaults")


def _no_mark(state: Any) -> int:
    return 0


def _no_span(state: Any, horizon: str) -> float:
    return 0.0


#: The rules of a game whose spec names none: the whole game as horizon, random rollouts, the
#: game result as value (``win`` needs no points scale).
GENERIC_RULES = SearchRules(None, "game", "win", "random", _no_mark, _no_span)


def rules_for(game: str) -> SearchRules:
    """The search rules of a registered game (its spec's ``search_rules``, else ``GENERIC_RULES``)."""
    from dixenv.games import game_spec

    return game_spec(game).load("search_rules") or GENERIC_RULES


def presets_of(rules: SearchRules, agent: str = "ismcts") -> dict[str, Preset]:
    """The presets an agent (``ismcts``, ``pimc``) has under ``rules``: the generic ones, replaced
    by the game's own of the same name, that apply to it."""
    merged = {**GENERIC_PRESETS, **rules.presets}
    return {name: p for name, p in merged.items() if agent in p.agents}


def presets(game: str, agent: str = "ismcts") -> dict[str, Preset]:
    """The presets of ``agent`` for a registered game (name -> ``Preset``)."""
    return presets_of(rules_for(game), agent)


def preset_options(rules: SearchRules, agent: str, name: Any, config: Any, game: str) -> dict[str, Any]:
    """The options of preset ``name``; ``ValueError`` naming the agent's presets if it has no such
    preset, or saying why if the table refuses it."""
    known = presets_of(rules, agent)
    if not isinstance(name, str) or name not in known:
        raise ValueError(f"unknown search preset {name!r} for {agent} in {game}; presets: {', '.join(known)}")
    refusal = known[name].refuses(config)
    if refusal:
        raise ValueError(f"search preset {name!r} of {game} does not cover this table: {refusal}")
    return dict(known[name].options)


def plain_preset(rules: SearchRules, agent: str, config: Any) -> str:
    """What ``agent`` named without options plays: the first preset of ``rules.plain`` that it has
    and the table accepts (``defaults`` when none does)."""
    known = presets_of(rules, agent)
    for name in rules.plain:
        if name in known and not known[name].refuses(config):
            return name
    return "defaults"
