"""dixenv: reinforcement-learning environments for three French card games called "Dix".

Importing ``dixenv`` registers the environments:

* PettingZoo AEC: ``pettingzoo.make("aec", "dixenv/le_dix-v0", num_players=4)``, likewise
  ``dixenv/dix_de_suite-v0`` and ``dixenv/dix-v0``;
* Gymnasium single agent: ``gymnasium.make("dixenv/DixSolo-v0", difficulty=6)`` (solo dix
  against ALIX), and one seat of each game against baseline opponents:
  ``dixenv/LeDix-v0``, ``dixenv/DixDeSuite-v0``, ``dixenv/Dix-v0`` (``opponents="heuristic"``).

Entry points are strings, so nothing heavy is imported until an environment is made. The games
and their ids come from one registry, ``dixenv.games`` (``register_game`` adds a game).
"""

from __future__ import annotations

from typing import Any


#: The one source of the version: pyproject.toml reads it from here (``[tool.setuptools.dynamic]``).
__version__ = "0.2.0.dev0"


def __getattr__(name: str) -> Any:
    """``dixenv.GAMES``: the registered games' names (``dixenv.games.game_names()``), games added later included."""
    if name == "GAMES":
        from dixenv.games import game_names

        return game_names()
    raise AttributeError(f"module 'dixenv' has no attribute {name!r}")


import dixenv.games  # noqa: E402,F401  (the registry: registers every game's PettingZoo and Gymnasium ids)
