"""Observation layouts as data: named pieces of one flat float32 vector.

A layout is a list of ``Piece(name, shape, doc, low, high)``. It allocates one flat tensor and
exposes a reshaped numpy view per piece, so encoders write into named pieces while the agent sees
one flat vector (the OpenSpiel observer pattern). The same list generates ``observation_layout()``,
the observation space's finite bounds and the documentation tables, so none of them can drift
from the code.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from math import prod

import numpy as np


@dataclass(frozen=True)
class Piece:
    """One named block of the observation: its shape, what its entries mean, and their bounds."""

    name: str
    shape: tuple[int, ...]
    doc: str
    low: float = 0.0
    high: float = 1.0

    def __post_init__(self) -> None:
        if not (np.isfinite(self.low) and np.isfinite(self.high) and self.low <= self.high):
            raise ValueError(f"piece {self.name!r} needs finite bounds low <= high, got {self.low}..{self.high}")

    @property
    def size(self) -> int:
        return prod(self.shape)


class Layout:
    """A flat float32 tensor split into named, reshaped views, with per-entry bounds."""

    def __init__(self, pieces: list[Piece]):
        names = [p.name for p in pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate piece names in layout: {names}")
        self.pieces = list(pieces)
        self.size = sum(p.size for p in pieces)
        self.tensor = np.zeros(self.size, dtype=np.float32)
        self.low = np.empty(self.size, dtype=np.float32)
        self.high = np.empty(self.size, dtype=np.float32)
        self.slices: dict[str, slice] = {}
        start = 0
        for p in pieces:
            s = slice(start, start + p.size)
            self.slices[p.name] = s
            self.low[s] = p.low
            self.high[s] = p.high
            start += p.size
        self._make_views()

    def _make_views(self) -> None:
        """One reshaped view of ``tensor`` per piece (``views``, ``layout[name]``)."""
        self.views: dict[str, np.ndarray] = {p.name: self.tensor[self.slices[p.name]].reshape(p.shape) for p in self.pieces}

    # A copy (``copy.deepcopy``, ``pickle``) copies each view as an array of its own, no longer a
    # view of the copied tensor: keep the tensor and rebuild the views on it.
    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "views"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._make_views()

    def __getitem__(self, name: str) -> np.ndarray:
        return self.views[name]

    def unflatten(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """Split a flat observation into its named pieces (views, reshaped); ``ValueError`` unless its shape is ``(size,)``."""
        shape = np.shape(flat)
        if shape != (self.size,):
            raise ValueError(f"a flat observation of this layout has shape ({self.size},); got shape {shape}")
        return {p.name: flat[self.slices[p.name]].reshape(p.shape) for p in self.pieces}

    def out_of_bounds(self, flat: np.ndarray) -> list[str]:
        """Names of the pieces of ``flat`` with an entry outside its bounds or not finite (empty if none)."""
        bad = ~np.isfinite(flat) | (flat < self.low) | (flat > self.high)
        if not bad.any():
            return []
        return [p.name for p in self.pieces if bad[self.slices[p.name]].any()]

    def fingerprint(self) -> str:
        """A short hash of the pieces (names, shapes, bounds, order): equal layouts, equal hashes."""
        text = ";".join(f"{p.name}:{'x'.join(map(str, p.shape))}:{p.low:g}:{p.high:g}" for p in self.pieces)
        return hashlib.sha1(text.encode()).hexdigest()[:16]

    def markdown_table(self) -> str:
        """The layout as a Markdown table: index range, name, shape, bounds, meaning."""
        rows = ["| indices | name | shape | range | meaning |", "|---|---|---|---|---|"]
        for p in self.pieces:
            s = self.slices[p.name]
            shape = "×".join(str(d) for d in p.shape)
            rows.append(f"| {s.start}–{s.stop - 1} | `{p.name}` | {shape} | {p.low:g}…{p.high:g} | {p.doc} |")
        return "\n".join(rows)
