"""The trained policies shipped with dixenv, played as the agent ``ppo`` of every game.

Like RLCard's model zoo: small policy files (``weights/NAME.npz`` + ``NAME.json``, the format of
``dixenv.agents.policy``) trained by ``experiments.train`` with the presets of docs/results/training.md.
One game may ship several, one per table it was trained for (for ``dix``: the solo game against ALIX
and the 2-player table). ``ppo`` picks the one whose observation layout is the environment's, so the
same name plays solo and table dix; a table no shipped policy was trained for gets a ``ValueError``
that lists the tables there are.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from dixenv.agents.base import aec_env
from dixenv.agents.policy import PolicyAgent, check_compatible

#: Where the shipped policies live (installed as package data).
WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"


def shipped(game: str | None = None) -> list[dict[str, Any]]:
    """The metadata of every shipped policy (of ``game`` only, if given), each with its ``path``."""
    return [dict(m) for m in _read_folder(WEIGHTS_DIR) if game is None or m.get("game") == game]


@functools.lru_cache(maxsize=4)
def _read_folder(folder: Path) -> tuple[dict[str, Any], ...]:
    """Every policy's metadata in ``folder``, read once per process (a tournament builds a ppo agent per game)."""
    return tuple({**json.loads(meta.read_text()), "path": str(meta.with_suffix(""))} for meta in sorted(folder.glob("*.json")))


def describe(metadata: dict[str, Any]) -> str:
    """``dixenv/DixSolo-v0 {'difficulty': 6}``: what a shipped policy was trained on."""
    return f"{metadata.get('env_id')} {metadata.get('options')}"


class PPOAgent(PolicyAgent):
    """The shipped policy trained for this environment's table (deterministic by default, or sampled)."""

    name = "ppo"

    def __init__(self, env: Any = None, seed: int | None = None, deterministic: bool = True):
        if env is None:
            raise ValueError("the ppo agent picks its policy from the environment's table: give it the env")
        aec = aec_env(env)
        candidates = shipped(aec.game.name)
        for metadata in candidates:
            try:
                check_compatible(metadata, env, metadata["path"])
            except ValueError:
                continue
            super().__init__(env, seed=seed, path=metadata["path"], deterministic=deterministic)
            self.trained_on = describe(metadata)
            return
        tables = "; ".join(describe(m) for m in candidates) or "none"
        table = f"{len(aec.possible_agents)} player(s)" + (", solo" if getattr(aec.config, "solo", False) else "")
        raise ValueError(
            f"no shipped ppo policy for {aec.game.name} at this table ({table}); ppo ships policies for: {tables}. "
            "Train one with `python -m experiments.train` and play it as policy:PATH."
        )
