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

from functools import partial
from typing import Any

import gymnasium
import pettingzoo

#: The one source of the version: pyproject.toml reads it from here (``[tool.setuptools.dynamic]``).
__version__ = "0.2.0.dev0"

GAMES = ("dix", "dix_de_suite", "le_dix")

#: The single-agent Gymnasium ids and their entry points.
GYMNASIUM_IDS = {
    "dixenv/DixSolo-v0": "dixenv.wrappers.solo:DixSoloEnv",
    "dixenv/LeDix-v0": "dixenv.wrappers.versus:le_dix",
    "dixenv/DixDeSuite-v0": "dixenv.wrappers.versus:dix_de_suite",
    "dixenv/Dix-v0": "dixenv.wrappers.versus:dix",
}


def _make_vector(env_id: str, num_envs: int = 1, **options: Any) -> Any:
    """``gymnasium.make_vec(env_id, num_envs, **options)``: a ``dixenv.vector.VectorEnv`` (imported only then)."""
    from dixenv.vector import VectorEnv

    return VectorEnv(env_id, num_envs, **options)


def _register() -> None:
    # PettingZoo's registry (``pettingzoo.make``) is new in 1.27; older releases, which other
    # libraries pin (AgileRL needs pettingzoo<1.27), run every env without it.
    if hasattr(pettingzoo, "aec_registry"):
        for game in GAMES:
            env_id = f"dixenv/{game}-v0"
            if env_id not in pettingzoo.aec_registry:
                pettingzoo.register("aec", env_id, entry_point=f"dixenv.{game}_v0:env")
    for env_id, entry_point in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            # gymnasium.make_vec(id, n) builds dixenv.vector.VectorEnv (vectorization_mode="vector_entry_point").
            gymnasium.register(env_id, entry_point=entry_point, vector_entry_point=partial(_make_vector, env_id))


_register()
