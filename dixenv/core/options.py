"""Option validation helpers: every bad option fails with a message naming it and what is allowed."""

from __future__ import annotations

from numbers import Integral
from typing import Any, Iterable, Mapping


def check_choice(name: str, value: Any, allowed: Iterable[Any]) -> Any:
    """Return ``value`` if it is one of ``allowed``; else raise ``ValueError`` listing them."""
    allowed = tuple(allowed)
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


def check_known_keys(kind: str, given: Mapping[str, Any], known: Iterable[str]) -> None:
    """Raise ``ValueError`` if ``given`` has a key not in ``known``."""
    known = sorted(known)
    for key in given:
        if key not in known:
            raise ValueError(f"unknown {kind} {key!r}; known {kind}s: {known}")


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
