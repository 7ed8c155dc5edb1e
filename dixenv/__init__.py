"""dixenv: reinforcement-learning environments for three French card games called "Dix".

Importing ``dixenv`` registers the environments:

* PettingZoo AEC: ``pettingzoo.make("aec", "dixenv/le_dix-v0", num_players=4)``, likewise
  ``dixenv/dix_de_suite-v0`` and ``dixenv/dix-v0``;
* Gymnasium single agent: ``gymnasium.make("dixenv/DixSolo-v0", difficulty=6)``.

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
    if "dixenv/DixSolo-v0" not in gymnasium.registry:
        gymnasium.register("dixenv/DixSolo-v0", entry_point="dixenv.wrappers.solo:DixSoloEnv")


_register()
