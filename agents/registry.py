"""Short agent names (``"random"``, ``"heuristic"``, ``"alix:difficulty=6"``) resolved into agents.

This is the one place where the names that users type are turned into ``Agent`` objects. Targets
are ``"module:Class"`` strings imported only when an agent is made, so listing names or importing
this module costs nothing and an agent still being written does not break the others.

Every agent class is built as ``Class(env, seed=seed, **params)``; ``env`` is the environment the
agent will play in (it reads the observation layout from it, never the hidden state).
"""

from __future__ import annotations

import ast
import importlib
from typing import Any, Iterable

from dixenv.agents.base import Agent

#: game -> short name -> "module:Class". Every game has "random".
AGENTS: dict[str, dict[str, str]] = {
    "le_dix": {
        "random": "dixenv.agents.base:RandomAgent",
        "policy": "dixenv.agents.policy:PolicyAgent",
        "ppo": "dixenv.agents.zoo:PPOAgent",
        "heuristic": "dixenv.agents.le_dix_heuristic:LeDixHeuristic",
        "ismcts": "dixenv.agents.search:ISMCTSAgent",
        "pimc": "dixenv.agents.search:PIMCAgent",
    },
    "dix_de_suite": {
        "random": "dixenv.agents.base:RandomAgent",
        "policy": "dixenv.agents.policy:PolicyAgent",
        "ppo": "dixenv.agents.zoo:PPOAgent",
        "heuristic": "dixenv.agents.dix_de_suite_heuristic:DixDeSuiteHeuristic",
        "ismcts": "dixenv.agents.search:ISMCTSAgent",
        "pimc": "dixenv.agents.search:PIMCAgent",
    },
    "dix": {
        "random": "dixenv.agents.base:RandomAgent",
        "policy": "dixenv.agents.policy:PolicyAgent",
        "ppo": "dixenv.agents.zoo:PPOAgent",
        "heuristic": "dixenv.agents.dix_heuristic:DixHeuristic",
        "alix": "dixenv.agents.alix:AlixAgent",
        "ismcts": "dixenv.agents.search:ISMCTSAgent",
        "pimc": "dixenv.agents.search:PIMCAgent",
    },
}

GAMES = tuple(AGENTS)


def resolve_game(game: str) -> str:
    """The canonical game name for ``le_dix``, ``le_dix_v0``, ``dixenv.le_dix_v0`` or ``dixenv/le_dix-v0``."""
    key = str(game).strip().lower().replace("-", "_")
    for prefix in ("dixenv.", "dixenv/"):
        if key.startswith(prefix):
            key = key[len(prefix) :]
    if key.endswith("_v0"):
        key = key[: -len("_v0")]
    if key not in AGENTS:
        raise ValueError(f"unknown game {game!r}; games are {list(GAMES)}")
    return key


def env_module(game: str) -> Any:
    """The public environment module ``dixenv.<game>_v0`` (``ImportError`` with a clear message if missing)."""
    game = resolve_game(game)
    name = f"dixenv.{game}_v0"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            raise ImportError(f"the {game} environment ({name}) is not available in this installation yet") from exc
        raise


def list_agents(game: str) -> list[str]:
    """The short agent names known for a game (whether or not their module is installed yet)."""
    return sorted(AGENTS[resolve_game(game)])


def parse_value(text: str) -> Any:
    """A command-line value as Python: ``6`` -> 6, ``True`` -> True, ``(5,)`` -> (5,), ``oh_hell`` -> 'oh_hell'."""
    text = text.strip()
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text  # a bare word is a string


def parse_key_values(items: Iterable[str], what: str = "option") -> dict[str, Any]:
    """``["k=v", ...]`` -> ``{k: parse_value(v)}``; ``ValueError`` for an item without ``=``."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{what} {item!r} must look like key=value (e.g. scoring=oh_hell, deals=(5,))")
        out[key] = parse_value(value)
    return out


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"alix:difficulty=6,foo=bar"`` into ``("alix", {"difficulty": 6, "foo": "bar"})``.

    A saved policy takes its path first: ``"policy:runs/le_dix/final"`` or
    ``"policy:runs/le_dix/final.npz,deterministic=False"`` (``path=`` may also be written out). Only
    dixenv policy files (``NAME.npz`` + ``NAME.json``: arrays and JSON, no code) load by name; an SB3
    ``.zip`` is refused, since unpickling it could run code (``dixenv.agents.policy.load_sb3_zip_unsafe``).
    """
    name, _, rest = str(spec).partition(":")
    name = name.strip().lower()
    if not name:
        raise ValueError(f"agent spec {spec!r} has no agent name")
    items = [p for p in rest.split(",") if p.strip()] if rest else []
    if name == "policy" and items and "=" not in items[0]:
        items[0] = f"path={items[0].strip()}"
    params = parse_key_values(items, what=f"parameter of agent {name!r}")
    if name == "policy" and "path" in params:
        params["path"] = str(params["path"]) if not isinstance(params["path"], str) else params["path"]
    return name, params


def agent_class(game: str, name: str) -> type:
    """The class behind a short agent name, imported now (``ValueError``/``ImportError`` if unknown/missing)."""
    game = resolve_game(game)
    known = AGENTS[game]
    if name not in known:
        raise ValueError(f"unknown agent {name!r} for {game}; known agents: {sorted(known)}")
    target = known[name]
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise ImportError(
                f"agent {name!r} for {game} lives in {module_name}, which is not available yet "
                f"(no module named {exc.name!r}); known agents: {sorted(known)}"
            ) from exc
        raise
    try:
        return getattr(module, class_name)
    except AttributeError:
        raise ImportError(f"agent {name!r} for {game}: module {module_name} has no class {class_name}") from None


def make_agent(game: str, name: str, env: Any, seed: int | None = None, **params: Any) -> Agent:
    """Build the agent called ``name`` (params may ride along: ``"alix:difficulty=6"``) for ``env``."""
    base, spec_params = parse_agent_spec(name)
    cls = agent_class(game, base)
    return cls(env, seed=seed, **{**spec_params, **params})
