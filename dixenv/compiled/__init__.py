"""Shared parts of the compiled (numba) batched engines.

The compiled engines play many games in one compiled loop and must play exactly the games of the
Python reference engines. They need the ``fast`` extra (numba): ``pip install 'dixenv[fast]'``.
Importing this package does not import numba; its submodules (such as ``dixenv.compiled.rng``)
do, and are only imported when a compiled engine is used.
"""

from __future__ import annotations

from types import ModuleType

__all__ = ["require_numba"]


def require_numba() -> ModuleType:
    """Import and return numba, or raise an ImportError that names the ``fast`` extra."""
    try:
        import numba
    except ImportError as exc:
        raise ImportError("the compiled engine needs numba: pip install 'dixenv[fast]'") from exc
    return numba
