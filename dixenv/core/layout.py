"""Observation layouts as data: named pieces of one flat float32 vector.

A layout is a list of ``Piece(name, shape, doc)``. It allocates one flat tensor and exposes a
reshaped numpy view per piece, so encoders write into named pieces while the agent sees one flat
vector (the OpenSpiel observer pattern). The same list generates ``observation_layout()`` and the
README tables, so the documentation cannot drift from the code.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np


@dataclass(frozen=True)
class Piece:
    """One named block of the observation: its shape and what its entries mean."""

    name: str
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        return prod(self.shape)


class Layout:
    """A flat float32 tensor split into named, reshaped views."""

    def __init__(self, pieces: list[Piece]):
        names = [p.name for p in pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate piece names in layout: {names}")
        self.pieces = list(pieces)
        self.size = sum(p.size for p in pieces)
        self.tensor = np.zeros(self.size, dtype=np.float32)
        self.slices: dict[str, slice] = {}
        self.views: dict[str, np.ndarray] = {}
        start = 0
        for p in pieces:
            self.slices[p.name] = slice(start, start + p.size)
            self.views[p.name] = self.tensor[start : start + p.size].reshape(p.shape)
            start += p.size

    def __getitem__(self, name: str) -> np.ndarray:
        return self.views[name]

    def unflatten(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """Split a flat observation into its named pieces (views, reshaped)."""
        return {p.name: flat[self.slices[p.name]].reshape(p.shape) for p in self.pieces}

    def markdown_table(self) -> str:
        """The layout as a Markdown table: index range, name, shape, meaning."""
        rows = ["| indices | name | shape | meaning |", "|---|---|---|---|"]
        for p in self.pieces:
            s = self.slices[p.name]
            shape = "×".join(str(d) for d in p.shape)
            rows.append(f"| {s.start}–{s.stop - 1} | `{p.name}` | {shape} | {p.doc} |")
        return "\n".join(rows)
