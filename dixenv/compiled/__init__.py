"""Shared parts of the compiled (numba) batched engines.

The compiled engines play many games in one compiled loop and must play exactly the games of the
Python reference engines. They need the ``fast`` extra (numba): ``pip install 'dixenv[fast]'``.
Importing this package does not import numba; its submodules (such as ``dixenv.compiled.rng``)
do, and are only imported when a compiled engine is used.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

__all__ = ["copy_rows", "has_numba", "require_numba"]


def has_numba() -> bool:
    """True when numba (the ``fast`` extra) is installed; nothing is imported."""
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def require_numba() -> ModuleType:
    """Import and return numba, or raise an ImportError that names the ``fast`` extra."""
    try:
        import numba
    except ImportError as exc:
        raise ImportError("the compiled engine needs numba: pip install 'dixenv[fast]'") from exc
    return numba


def copy_rows(arrays: tuple[Any, ...], n: int, src: Any, dst: Any) -> None:
    """A batch's ``copy_slots``: row ``src[i]`` of each of ``arrays`` into row ``dst[i]`` (``dst`` already
    checked by the batch); ``src`` may be one slot for every ``dst``. ``ValueError`` for a slot
    outside 0..n-1."""
    import numpy as np

    src = np.ascontiguousarray(np.broadcast_to(np.asarray(src, dtype=np.int64), dst.shape))
    if src.size and (src.min() < 0 or src.max() >= n):
        raise ValueError(f"slots must be in 0..{n - 1}")
    for array in arrays:
        array[dst] = array[src]
