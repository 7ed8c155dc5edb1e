"""The registry of games: one ``GameSpec`` per game, and every list of games in the library derives from it.

A game package declares, in its ``spec.py``, everything the rest of the library needs to know about
it (its ``Game`` record, player counts and default table, Gymnasium ids, renderer, text view, search
rules, OpenSpiel export, soak configurations, statistics, game-specific agents, compiled engine).
Everything is named by ``"module:attribute"`` strings (or given as objects), imported only when it
is used, so importing the registry costs nothing and a game's optional parts (pictures, OpenSpiel,
numba) stay optional.

``register_game(spec)`` adds a game from anywhere (a test, a user's package): it gets the
PettingZoo and Gymnasium ids, the vector env, the agents that need no game knowledge (random,
search, saved policies), the soak and the shared conformance suite. docs/adding_a_game.md is the
checklist. The three games of the library register themselves below.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Mapping

#: The library's own games (their packages ``dixenv.games.<name>`` each hold a ``spec.py``).
BUILTIN = ("dix", "dix_de_suite", "le_dix")


@dataclass(frozen=True)
class SoakConfig:
    """One configuration ``experiments.soak`` plays: env options, how seats move, and its share of the games."""

    options: Mapping[str, Any]
    policy: str = "random"  # "random", or a name the game's soak policies know (``GameSpec.soak_policies``)
    weight: float = 1.0


@dataclass(frozen=True)
class GameSpec:
    """What the library needs to know about one game. Strings are ``"module:attribute"``, imported lazily.

    Required: ``name``, ``game`` (the ``dixenv.core.game.Game`` record), ``env_module`` (a module
    with PettingZoo's ``env()`` and ``raw_env``), ``players`` (the player counts) and
    ``default_table`` (the options of the table that benchmarks, search statistics and the docs use
    by default). Everything else is optional: a game without it simply lacks that feature.
    """

    name: str
    title: str
    game: Any
    env_module: str
    players: tuple[int, ...]
    default_table: Mapping[str, Any]
    #: PettingZoo id (``pettingzoo.make("aec", id)``); default ``dixenv/<name>-v0``.
    aec_id: str = ""
    #: The Gymnasium id of one seat against baseline opponents (``dixenv.wrappers.versus``); "" for none.
    versus_id: str = ""
    #: Its entry point ("module:function" taking the options); default ``make_versus`` of this game.
    versus_entry: Any = None
    #: Other single-agent Gymnasium ids of the game: id -> entry point (e.g. solo dix against ALIX).
    other_gymnasium_ids: Mapping[str, str] = field(default_factory=dict)
    #: The game's own agents, short name -> "module:Class" (random, search and policies are every game's).
    agents: Mapping[str, str] = field(default_factory=dict)
    #: A module with ``draw(state, viewer, caption)`` and ``swatch()`` (``render_mode="rgb_array"``).
    renderer: str | None = None
    #: ``view(env, seat, obs) -> str``, the observation in words (``dixenv.views``).
    view: Any = None
    #: The search agents' knowledge of the game (``dixenv.agents.search.SearchRules``); None: generic.
    search_rules: Any = None
    #: The OpenSpiel export (``dixenv.openspiel.Export``).
    openspiel: Any = None
    #: The compiled batched engine's class (numba; ``dixenv.compiled.vector``).
    compiled: Any = None
    #: One game on the compiled engine as a ``GameState`` (numba; ``env(engine="compiled")``, ``dixenv.compiled.aec``).
    compiled_state: Any = None
    #: ``experiments.game_stats`` hook class (figures per game beyond the result).
    stats: Any = None
    #: The configurations ``experiments.soak`` plays (none: the default table with random moves).
    soak: tuple[SoakConfig, ...] = ()
    #: Soak move policies beyond "random": name -> ``policy(env, rng) -> action`` ("module:function").
    soak_policies: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.aec_id:
            object.__setattr__(self, "aec_id", f"dixenv/{self.name}-v0")

    @property
    def gymnasium_ids(self) -> dict[str, str]:
        """Every single-agent Gymnasium id of the game -> its entry point."""
        ids = dict(self.other_gymnasium_ids)
        if self.versus_id:
            ids[self.versus_id] = self.versus_entry or partial(_versus, self.name)
        return ids

    def load(self, what: str) -> Any:
        """The object behind field ``what`` (imported now), or None when the game has none."""
        return load(getattr(self, what))

    def game_record(self) -> Any:
        """The ``Game`` record."""
        return load(self.game)

    def env_module_(self) -> Any:
        """The environment module (``env()``, ``raw_env``)."""
        return importlib.import_module(self.env_module)

    def soak_configs(self) -> tuple[SoakConfig, ...]:
        """The soak's configurations (the default table with random moves when the spec lists none)."""
        return self.soak or (SoakConfig(dict(self.default_table)),)


_SPECS: dict[str, GameSpec] = {}


def load(target: Any) -> Any:
    """``"module:attribute"`` imported (dots after the colon walk attributes); any other object as is."""
    if not isinstance(target, str):
        return target
    module_name, sep, attribute = target.partition(":")
    obj = importlib.import_module(module_name)
    for part in attribute.split(".") if sep else ():
        obj = getattr(obj, part)
    return obj


def register_game(spec: GameSpec, replace: bool = False) -> GameSpec:
    """Add ``spec`` to the registry and register its PettingZoo and Gymnasium ids.

    ``ValueError`` if a game of that name is registered already (``replace=True`` replaces it).
    """
    if not isinstance(spec, GameSpec):
        raise TypeError(f"register_game takes a GameSpec, got {type(spec).__name__}")
    if not spec.name.isidentifier():
        raise ValueError(f"game name {spec.name!r} must be a Python identifier (it names modules and options)")
    if spec.name in _SPECS and not replace:
        raise ValueError(f"game {spec.name!r} is registered already; pass replace=True to replace it")
    if not spec.players or any(not isinstance(n, int) or n < 1 for n in spec.players):
        raise ValueError(f"game {spec.name!r}: players={spec.players!r} must list the player counts (positive ints)")
    taken = {i: s.name for s in _SPECS.values() if s.name != spec.name for i in (s.aec_id, *s.gymnasium_ids)}
    clash = [i for i in (spec.aec_id, *spec.gymnasium_ids) if i in taken]
    if clash:
        raise ValueError(f"game {spec.name!r}: ids {clash} belong to game {taken[clash[0]]!r}")
    _SPECS[spec.name] = spec
    _register_ids(spec, replace)
    return spec


def unregister_game(name: str) -> None:
    """Remove a registered game and its ids (for tests and notebooks that add a game for a while)."""
    spec = _SPECS.pop(game_spec(name).name)
    import gymnasium
    import pettingzoo

    for env_id in spec.gymnasium_ids:
        gymnasium.registry.pop(env_id, None)
    if hasattr(pettingzoo, "aec_registry"):
        pettingzoo.aec_registry.pop(spec.aec_id, None)


def _register_ids(spec: GameSpec, replace: bool) -> None:
    import gymnasium
    import pettingzoo

    # PettingZoo's registry (``pettingzoo.make``) is new in 1.27; older releases, which other
    # libraries pin (AgileRL needs pettingzoo<1.27), run every env without it.
    if hasattr(pettingzoo, "aec_registry") and (replace or spec.aec_id not in pettingzoo.aec_registry):
        pettingzoo.aec_registry.pop(spec.aec_id, None)
        pettingzoo.register("aec", spec.aec_id, entry_point=f"{spec.env_module}:env")
    for env_id, entry_point in spec.gymnasium_ids.items():
        if replace:
            gymnasium.registry.pop(env_id, None)
        if env_id not in gymnasium.registry:
            # gymnasium.make_vec(id, n) builds dixenv.vector.VectorEnv (vectorization_mode="vector_entry_point").
            gymnasium.register(env_id, entry_point=entry_point, vector_entry_point=partial(_make_vector, env_id))


def _versus(game: str, **options: Any) -> Any:
    """The versus entry point of a game that names none: ``dixenv.wrappers.versus.make_versus(game, ...)``."""
    from dixenv.wrappers.versus import make_versus

    return make_versus(game, **options)


def _make_vector(env_id: str, num_envs: int = 1, **options: Any) -> Any:
    """``gymnasium.make_vec(env_id, num_envs, **options)``: a ``dixenv.vector.VectorEnv`` (imported only then)."""
    from dixenv.vector import VectorEnv

    return VectorEnv(env_id, num_envs, **options)


def game_names() -> tuple[str, ...]:
    """The registered games' names, sorted."""
    return tuple(sorted(_SPECS))


def game_specs() -> tuple[GameSpec, ...]:
    """Every registered game's spec, sorted by name."""
    return tuple(_SPECS[n] for n in game_names())


def resolve_game(game: Any) -> str:
    """The registered name for ``le_dix``, ``le_dix_v0``, ``dixenv.le_dix_v0`` or ``dixenv/le_dix-v0``."""
    key = str(game).strip().lower().replace("-", "_")
    for prefix in ("dixenv.", "dixenv/"):
        if key.startswith(prefix):
            key = key[len(prefix) :]
    if key.endswith("_v0"):
        key = key[: -len("_v0")]
    if key not in _SPECS:
        raise ValueError(f"unknown game {game!r}; games are {list(game_names())}")
    return key


def game_spec(game: Any) -> GameSpec:
    """The spec of a registered game (any spelling ``resolve_game`` takes)."""
    return _SPECS[resolve_game(game)]


def spec_of_gymnasium_id(env_id: str) -> GameSpec | None:
    """The game behind a registered single-agent Gymnasium id, or None."""
    for spec in _SPECS.values():
        if env_id in spec.gymnasium_ids:
            return spec
    return None


def _register_builtins() -> None:
    for name in BUILTIN:
        register_game(importlib.import_module(f"dixenv.games.{name}.spec").SPEC)


_register_builtins()
