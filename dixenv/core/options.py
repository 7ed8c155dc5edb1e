"""Option validation helpers: every bad option fails with a message naming it and what is allowed."""

from __future__ import annotations

from numbers import Integral
from typing import Any, Iterable, Mapping


def check_choice(name: str, value: Any, allowed: Iterable[Any]) -> Any:
    """Return ``value`` if it is one of ``allowed``; else raise ``ValueError`` listing them.

    Types must match (``True`` is not ``1``), but a numpy integer counts as the ``int`` it equals.
    """
    allowed = tuple(allowed)
    if is_int(value):
        value = int(value)
    if not any(value == a and type(value) is type(a) for a in allowed):
        raise ValueError(f"option {name}={value!r} is not allowed; allowed values: {list(allowed)}")
    return value


def check_bool(name: str, value: Any) -> bool:
    """Return ``value`` if it is a bool; else raise ``ValueError``."""
    if not isinstance(value, bool):
        raise ValueError(f"option {name}={value!r} must be True or False")
    return value


def check_int(name: str, value: Any, low: int, high: int) -> int:
    """Return ``value`` if it is an int in ``low..high`` (inclusive); else raise ``ValueError``."""
    if not is_int(value):
        raise ValueError(f"option {name}={value!r} must be an integer from {low} to {high}")
    value = int(value)
    if not low <= value <= high:
        raise ValueError(f"option {name}={value!r} is out of range; allowed: {low} to {high}")
    return value


#: The options of every game's environment, besides the game's own (``dixenv.core.aec.CardGameEnv``).
ENV_OPTIONS = ("reward", "auto_forced", "render_mode", "render_viewer", "record_events")


class UnknownOptionError(ValueError, TypeError):
    """An option that no part of an environment knows.

    A ``ValueError``, as every bad option is; also a ``TypeError`` worded as Python's own for an
    unexpected keyword argument, because tools probe optional keywords and drop them on exactly that
    error (TorchRL's ``GymEnv`` tries ``gymnasium.make(id, frameskip=...)``).
    """


def refuse_unknown_options(game: str, given: Iterable[str], known: Iterable[str]) -> None:
    """Raise ``UnknownOptionError`` naming the first of ``given`` not in ``known``, and every option allowed."""
    unknown = sorted(k for k in given if k not in known)
    if unknown:
        also = f" (unknown options: {unknown})" if len(unknown) > 1 else ""
        raise UnknownOptionError(
            f"{game} got an unexpected keyword argument {unknown[0]!r}{also}; {game}'s options: {', '.join(known)}; "
            f"every env's: {', '.join(ENV_OPTIONS)}"
        )


def is_int(value: Any) -> bool:
    """True for ints and numpy integers; False for bools, floats and everything else."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def warn_unknown_reset_keys(game: str, given: Mapping[str, Any], known: Iterable[str]) -> None:
    """Warn (``UserWarning``) about ``reset(options=...)`` keys the game does not use.

    A warning, not an error, because PettingZoo's own ``api_test`` resets with an arbitrary key
    (``{"options": 1}``) to check that environments accept foreign reset options.
    """
    import warnings

    known = sorted(known)
    for key in given:
        if key not in known:
            warnings.warn(f"{game} ignores unknown reset option {key!r}; known reset options: {known}", stacklevel=4)


def reset_options(options: Any) -> dict[str, Any]:
    """``reset(options=...)`` as a new dict; ``ValueError`` unless it is a mapping or None."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError(
            f"reset options must be a mapping (e.g. {{'deck': [...]}}) or None; got {options!r} ({type(options).__name__})"
        )
    return dict(options)
