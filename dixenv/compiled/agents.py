"""Agents compiled for the batched engines: what they choose equals the Python agent's choice."""

from __future__ import annotations

import numpy as np

from dixenv.compiled import require_numba

require_numba()

from numba import njit  # noqa: E402

from dixenv.compiled.rng import integers  # noqa: E402


@njit(cache=True)
def random_choices(masks: np.ndarray, rows: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """``out[j]``: a uniformly random legal action of mask ``masks[j]``, drawn from generator row ``rows[j]``.

    The same draw as ``agents.RandomAgent.act``: ``legal[rng.integers(len(legal))]`` over the
    sorted legal actions.
    """
    for j in range(masks.shape[0]):
        count = 0
        for a in range(masks.shape[1]):
            count += masks[j, a] != 0
        pick = integers(rng, rows[j], count)
        for a in range(masks.shape[1]):
            if masks[j, a] != 0:
                if pick == 0:
                    out[j] = a
                    break
                pick -= 1
