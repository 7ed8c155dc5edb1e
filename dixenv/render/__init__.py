"""Pictures of the table (``render_mode="rgb_array"``), drawn with Pillow, for every game.

``table_image(game, state, viewer)`` draws a game's state as a ``PIL.Image``; ``table_array`` gives
the same picture as an ``HxWx3 uint8`` array (what ``env.render()`` returns). ``viewer`` is a seat
(the picture shows only what that seat may know, as its observation does) or ``None`` for the
spectator, who sees everything. One drawer module per game (its spec's ``renderer``, e.g.
``dixenv.render.le_dix``) shares the
card faces and seat labels of ``dixenv.render.canvas``.

Pillow is an optional dependency (the ``render`` extra): this module imports without it, and the
drawers import it only when a picture is asked for.
"""

from __future__ import annotations

import importlib
from typing import Any, Sequence

import numpy as np

from dixenv.core.options import is_int

#: The ``render_viewer`` value for a picture that shows everything (hidden cards included).
SPECTATOR = "spectator"


def _drawer(game: str) -> Any:
    """The drawer module of ``game`` (its spec's ``renderer``); ``ValueError`` for a game without pictures."""
    from dixenv.games import game_names, game_specs

    drawers = {spec.name: spec.renderer for spec in game_specs() if spec.renderer}
    if game not in drawers:
        raise ValueError(f"unknown game {game!r}; games with pictures: {sorted(drawers)} (registered games: {list(game_names())})")
    return importlib.import_module(drawers[game])


def check_viewer(viewer: Any, num_seats: int) -> int | None:
    """The seat a picture is drawn for, or None for the spectator; ``ValueError`` for anything else.

    ``viewer`` is a seat number ``0..num_seats-1``, ``"spectator"`` or None (also the spectator).
    """
    if viewer is None or (isinstance(viewer, str) and viewer == SPECTATOR):
        return None
    if is_int(viewer) and 0 <= viewer < num_seats:
        return int(viewer)
    raise ValueError(
        f"option render_viewer={viewer!r} is not allowed; allowed values: a seat 0..{num_seats - 1} "
        f"(the picture shows what that seat may know) or {SPECTATOR!r} (everything)"
    )


def require_pillow() -> None:
    """Raise ``ImportError`` naming the ``render`` extra when Pillow is missing."""
    try:
        import PIL  # noqa: F401
    except ImportError as exc:
        raise ImportError(
            "render_mode='rgb_array' draws with Pillow, which is not installed; "
            "install the render extra: pip install 'dixenv[render]' (or pip install 'pillow>=10')"
        ) from exc


def table_image(game: str, state: Any, viewer: int | None = None, caption: Sequence[str] = ()) -> Any:
    """The table of ``state`` (a ``game`` engine state) as a ``PIL.Image`` seen by ``viewer`` (None: spectator).

    ``caption`` lines (e.g. the last moves) are written in a strip at the bottom.
    """
    drawer = _drawer(game)
    require_pillow()
    return drawer.draw(state, viewer, list(caption))


def gif_palette(game: str, first: Any) -> Any:
    """A 256-colour palette picture for a GIF of ``game``: from its first frame and every card face of the game.

    One palette for every frame keeps the colours steady and lets the GIF store only what changed.
    """
    from PIL import Image

    drawer = _drawer(game)
    sheet = drawer.swatch()
    both = Image.new("RGB", (max(first.width, sheet.width), first.height + sheet.height))
    both.paste(first, (0, 0))
    both.paste(sheet, (0, first.height))
    return both.quantize(colors=256, method=Image.Quantize.MEDIANCUT)


def table_array(game: str, state: Any, viewer: int | None = None, caption: Sequence[str] = ()) -> np.ndarray:
    """``table_image`` as an ``HxWx3 uint8`` array (a fresh, writable copy)."""
    return np.array(table_image(game, state, viewer, caption), dtype=np.uint8)
