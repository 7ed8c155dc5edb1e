"""dixenv: reinforcement-learning environments for three French card games called "Dix".

Importing ``dixenv`` registers the environments:

* PettingZoo AEC: ``pettingzoo.make("aec", "dixenv/le_dix-v0", num_players=4)``, likewise
  ``dixenv/dix_de_suite-v0`` and ``dixenv/dix-v0``;
* Gymnasium single agent: ``gymnasium.make("dixenv/DixSolo-v0", difficulty=6)`` (solo dix
  against ALIX), and one seat of each game against baseline opponents:
  ``dixenv/LeDix-v0``, ``dixenv/DixDeSuite-v0``, ``dixenv/Dix-v0`` (``opponents="heuristic"``).

Entry points are strings, so nothing heavy is imported until an environment is made.
"""

from __future__ import annotations

import gymnasium
import pettingzoo

__version__ = "0.1.0"

GAMES = ("dix", "dix_de_suite", "le_dix")


def _register() -> None:
    for game in GAMES:
        env_id = f"dixenv/{game}-v0"
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=f"dixenv.{game}_v0:env")
    gymnasium_ids = {
        "dixenv/DixSolo-v0": "dixenv.wrappers.solo:DixSoloEnv",
        "dixenv/LeDix-v0": "dixenv.wrappers.versus:le_dix",
        "dixenv/DixDeSuite-v0": "dixenv.wrappers.versus:dix_de_suite",
        "dixenv/Dix-v0": "dixenv.wrappers.versus:dix",
    }
    for env_id, entry_point in gymnasium_ids.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=entry_point)


_register()
