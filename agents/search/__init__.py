"""Search agents for every dixenv game: information-set MCTS (``ismcts``) and determinized rollouts (``pimc``).

The package splits the generic search from each game's knowledge:

* ``core.py`` — the agents (``ISMCTSAgent``, ``PIMCAgent``): worlds drawn by ``sample_hidden``, the
  tree, the roots, rollouts and values; its docstring describes the algorithms and every option;
* ``rules.py`` — ``SearchRules`` (what the search needs to know of a game), ``Preset`` (a named
  setting of options: ``ismcts:preset=fast``), the generic presets and ``rules_for(game)``;
* ``le_dix.py``, ``dix_de_suite.py``, ``dix.py`` — each game's rollout policy, spans, estimates,
  beliefs, fitted constants, presets and its ``RULES``, which the game's spec names
  (``search_rules="dixenv.agents.search.le_dix:RULES"``).

An agent named without options (plain ``ismcts``) plays its game's strongest measured setting (the
``strongest`` preset where the table accepts it); options without a preset apply to the game's
defaults (the ``defaults`` preset), as they always did.
"""

from __future__ import annotations

from typing import Any

from dixenv.agents.search.core import (
    EXPANSIONS,
    OPPONENTS,
    ROLLOUTS,
    ROOTS,
    ROUND_WINS,
    VALUES,
    ISMCTSAgent,
    PIMCAgent,
)
from dixenv.agents.search.rules import (
    GENERIC_PRESETS,
    GENERIC_RULES,
    Preset,
    SearchRules,
    plain_preset,
    presets,
    presets_of,
    rules_for,
)

__all__ = [
    "EXPANSIONS", "GENERIC_PRESETS", "GENERIC_RULES", "ISMCTSAgent", "OPPONENTS", "PIMCAgent", "Preset", "ROLLOUTS",
    "ROOTS", "ROUND_WINS", "SearchRules", "VALUES", "plain_preset", "presets", "presets_of", "rules_for",
]

#: The names each game's rules had before the split, now in the game's module (imported when read).
_MOVED_RULES = {"LE_DIX_RULES": "le_dix", "DIX_DE_SUITE_RULES": "dix_de_suite", "DIX_RULES": "dix"}


def __getattr__(name: str) -> Any:
    """``LE_DIX_RULES``, ``DIX_DE_SUITE_RULES``, ``DIX_RULES``: each game module's ``RULES`` (lazily)."""
    if name in _MOVED_RULES:
        import importlib

        return importlib.import_module(f"{__name__}.{_MOVED_RULES[name]}").RULES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
