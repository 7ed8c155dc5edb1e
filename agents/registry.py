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
import re
from typing import Any, Iterable

from dixenv.agents.base import Agent
from dixenv.games import game_names, resolve_game

#: The agents every game has (they read only the observation, the mask and the ``GameState`` API).
GENERIC: dict[str, str] = {
    "random": "dixenv.agents.base:RandomAgent",
    "policy": "dixenv.agents.policy:PolicyAgent",
    "ppo": "dixenv.agents.zoo:PPOAgent",
    "ismcts": "dixenv.agents.search:ISMCTSAgent",
    "pimc": "dixenv.agents.search:PIMCAgent",
}

#: Frozen versions of the heuristics, ``heuristic-vN`` -> "module:Class" per game: ``heuristic``
#: names the latest. When a heuristic's play changes, its old code moves to a frozen module first
#: and its name is added here, so earlier versions stay playable by name (docs/guides/agents.md).
HEURISTIC_VERSIONS: dict[str, dict[str, str]] = {
    "le_dix": {"heuristic-v1": "dixenv.agents.le_dix_heuristic:LeDixHeuristic"},
    "dix_de_suite": {"heuristic-v1": "dixenv.agents.dix_de_suite_heuristic:DixDeSuiteHeuristic"},
    "dix": {"heuristic-v1": "dixenv.agents.dix_heuristic:DixHeuristic"},
}

#: Agents registered with ``register``: game (or ``ALL_GAMES``) -> name -> "module:Class".
_REGISTERED: dict[str, dict[str, str]] = {}
#: ``register(ALL_GAMES, ...)``: the agent plays every game.
ALL_GAMES = "*"
_TARGET = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
_NAME = re.compile(r"^[a-z_][a-z0-9_.-]*$")


def register(game: str, name: str, target: str, replace: bool = False) -> None:
    """Make agent ``name`` of ``game`` (or of every game: ``"*"``) the class ``target`` ("module:Class").

    The class is built as ``Class(env, seed=seed, **params)`` (``dixenv.agents.base.Agent``) and is
    imported only when an agent is made, so registering costs nothing. ``ValueError`` for a name
    that is taken (``replace=True`` replaces it), a malformed name or target, or an unknown game.
    """
    key = ALL_GAMES if game == ALL_GAMES else resolve_game(game)
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"agent name {name!r} must be lower case letters, digits, '_', '-' or '.' (no ':' or ',')")
    if not isinstance(target, str) or not _TARGET.match(target):
        raise ValueError(f"agent target {target!r} must be 'module:Class' (a module path and a class name)")
    games = game_names() if key == ALL_GAMES else (key,)
    taken = [g for g in games if name in _known(g) and not replace]
    if taken:
        raise ValueError(f"agent {name!r} exists already for {taken}; pass replace=True to replace it")
    _REGISTERED.setdefault(key, {})[name] = target


def unregister(game: str, name: str) -> None:
    """Remove an agent added by ``register`` (``KeyError`` if there is none)."""
    key = ALL_GAMES if game == ALL_GAMES else resolve_game(game)
    del _REGISTERED[key][name]


def _known(game: str) -> dict[str, str]:
    """Short name -> "module:Class" for one game: generic agents, the game's own, versions, registered."""
    from dixenv.games import game_spec

    return {**GENERIC, **game_spec(game).agents, **HEURISTIC_VERSIONS.get(game, {}),
            **_REGISTERED.get(ALL_GAMES, {}), **_REGISTERED.get(game, {})}


def __getattr__(name: str) -> Any:
    """``AGENTS`` (game -> name -> "module:Class") and ``GAMES``, computed now from the registries."""
    if name == "AGENTS":
        return {g: _known(g) for g in game_names()}
    if name == "GAMES":
        return game_names()
    raise AttributeError(f"module 'dixenv.agents.registry' has no attribute {name!r}")


def env_module(game: str) -> Any:
    """The public environment module of a game (``ImportError`` with a clear message if missing)."""
    from dixenv.games import game_spec

    spec = game_spec(game)
    name = spec.env_module
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            raise ImportError(f"the {spec.name} environment ({name}) is not available in this installation yet") from exc
        raise


def list_agents(game: str) -> list[str]:
    """The short agent names known for a game (whether or not their module is installed yet)."""
    return sorted(_known(resolve_game(game)))


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


def _is_class_target(head: str, second: str) -> bool:
    """Whether a spec's first two ``:`` parts are ``module:Class`` (not a short name and its parameters).

    A short name is never a module path; the class part must be a capitalised identifier (as class
    names are), so ``policy:final`` stays a policy path.
    """
    if head.strip().lower() in GENERIC or not re.match(r"^[A-Za-z_][\w.]*$", head.strip()):
        return False
    second = second.strip()
    return second.isidentifier() and second[0].isupper()


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"alix:difficulty=6,foo=bar"`` into ``("alix", {"difficulty": 6, "foo": "bar"})``.

    A saved policy takes its path first: ``"policy:runs/le_dix/final"`` or
    ``"policy:runs/le_dix/final.npz,deterministic=False"`` (``path=`` may also be written out). Only
    dixenv policy files (``NAME.npz`` + ``NAME.json``: arrays and JSON, no code) load by name; an SB3
    ``.zip`` is refused, since unpickling it could run code (``dixenv.agents.policy.load_sb3_zip_unsafe``).

    An agent class from anywhere is named ``"module:Class"``, its parameters after a third part:
    ``"mypkg.agents:Greedy:depth=3,temperature=0.5"`` -> ``("mypkg.agents:Greedy", {...})``.
    """
    text = str(spec)
    parts = text.split(":", 2)
    if len(parts) >= 2 and _is_class_target(parts[0], parts[1]):
        name, rest = f"{parts[0].strip()}:{parts[1].strip()}", parts[2] if len(parts) == 3 else ""
    else:
        name, _, rest = text.partition(":")
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
    """The class behind an agent name or ``module:Class``, imported now (``ValueError``/``ImportError`` if unknown/missing)."""
    game = resolve_game(game)
    known = _known(game)
    if name in known:
        target = known[name]
    elif _TARGET.match(name) and _is_class_target(*name.split(":")):
        target = name
    else:
        raise ValueError(f"unknown agent {name!r} for {game}; known agents: {sorted(known)}, or 'module:Class' of any agent class")
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
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        raise ImportError(f"agent {name!r} for {game}: module {module_name} has no class {class_name}")
    return cls


def make_agent(game: str, name: str, env: Any, seed: int | None = None, **params: Any) -> Agent:
    """Build the agent called ``name`` (params may ride along: ``"alix:difficulty=6"``) for ``env``."""
    base, spec_params = parse_agent_spec(name)
    cls = agent_class(game, base)
    return cls(env, seed=seed, **{**spec_params, **params})
