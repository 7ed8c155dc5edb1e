"""What every table picture shares: colours, fonts, card faces and backs, seat labels, the caption.

Card faces are drawn once at three times their size and shrunk (smooth edges and text), then
cached, so a frame only pastes them. Fonts are Pillow's own (``ImageFont.load_default``); there
are no asset files.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Sequence

from PIL import Image, ImageDraw, ImageFont

# A few colours, chosen for contrast on the green felt.
FELT = (28, 88, 58)
PANEL = (20, 66, 44)
PANEL_EDGE = (52, 120, 86)
TEXT = (240, 240, 228)
MUTED = (160, 196, 172)
GOLD = (250, 200, 70)  # the seat that must act, coins
CARD = (250, 249, 242)
CARD_EDGE = (70, 70, 70)
BACK = (48, 74, 156)
BACK_LINE = (92, 118, 196)
INK_BLACK = (25, 25, 25)
INK_RED = (200, 30, 40)
EMPTY_SLOT = (40, 104, 72)

#: Role tags of a seat label: text -> (fill, ink).
ROLE_COLOURS = {
    "you": ((235, 235, 235), (20, 20, 20)),
    "to act": (GOLD, (40, 30, 0)),
    "dealer": ((120, 170, 235), (10, 20, 50)),
    "active": ((240, 150, 90), (50, 20, 0)),
    "ALIX": ((210, 120, 220), (40, 0, 50)),
    "winner": ((120, 220, 120), (0, 40, 0)),
}
DEFAULT_ROLE = ((200, 200, 200), (20, 20, 20))

SCALE = 3  # card faces are drawn this much larger, then shrunk
CAPTION_HEIGHT = 40

Painter = Callable[[ImageDraw.ImageDraw, int, int, int], None]  # (draw, width, height, scale)


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's default font at ``size`` pixels (cached)."""
    return ImageFont.load_default(size=size)


class Canvas:
    """A felt-green RGB picture with the drawing operations the table drawers share.

    ``draw`` is Pillow's ``ImageDraw`` for the plain shapes (lines, ellipses, rectangles).
    """

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.image = Image.new("RGB", (width, height), FELT)
        self.draw = ImageDraw.Draw(self.image)

    def text(self, xy: tuple[float, float], s: str, size: int = 14, fill=TEXT, anchor: str = "la") -> None:
        """Write ``s`` at ``xy`` (``anchor`` as in Pillow: "la" left-ascender, "mm" centred, …).

        Rendering a string with FreeType costs far more than pasting it, and most strings come
        back frame after frame, so each (string, size, colour, anchor) is rendered once.
        """
        if s:
            label, left, top = _text_image(s, size, fill, anchor)
            self.image.paste(label, (int(xy[0]) + left, int(xy[1]) + top), label)

    def paste(self, card: Image.Image, x: float, y: float) -> None:
        """Paste an RGBA card (or any RGBA picture) with its top-left corner at (x, y)."""
        self.image.paste(card, (int(x), int(y)), card)

    def panel(self, box: tuple[int, int, int, int], highlight: bool = False) -> None:
        """A seat's (or a pile's) area: a darker rounded box, outlined in gold when it must act."""
        self.draw.rounded_rectangle(box, radius=8, fill=PANEL, outline=GOLD if highlight else PANEL_EDGE, width=3 if highlight else 1)

    def pill(self, x: int, y: int, label: str, size: int = 12) -> int:
        """A role tag (``ROLE_COLOURS``) at (x, y); returns its width."""
        fill, ink = ROLE_COLOURS.get(label, DEFAULT_ROLE)
        w = text_width(label, size) + 10
        self.draw.rounded_rectangle((x, y, x + w, y + size + 6), radius=(size + 6) // 2, fill=fill)
        self.text((x + w / 2, y + (size + 6) / 2), label, size, ink, "mm")
        return w

    def seat_label(self, x: int, y: int, name: str, roles: Sequence[str], size: int = 16) -> int:
        """A seat's name followed by its role tags, from (x, y); returns the x where it ends."""
        self.text((x, y), name, size, GOLD if "to act" in roles else TEXT)
        x += text_width(name, size) + 8
        for role in roles:
            x += self.pill(x, y + 1, role) + 4
        return x

    def caption(self, lines: Sequence[str]) -> None:
        """The bottom strip (``CAPTION_HEIGHT`` tall): the last two lines given (e.g. the latest moves)."""
        top = self.height - CAPTION_HEIGHT
        self.draw.rectangle((0, top, self.width, self.height), fill=PANEL)
        for k, line in enumerate(list(lines)[-2:]):
            self.text((12, top + 4 + 17 * k), line, 14, TEXT)


@lru_cache(maxsize=4096)
def _text_image(s: str, size: int, fill, anchor: str) -> tuple[Image.Image, int, int]:
    """``s`` rendered on a transparent picture, with its offset from the anchor point."""
    left, top, right, bottom = font(size).getbbox(s, anchor=anchor)
    label = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(label).text((-left, -top), s, font=font(size), fill=fill, anchor=anchor)
    return label, left, top


def text_width(s: str, size: int = 14) -> int:
    """Width in pixels of ``s`` at ``size``."""
    return int(font(size).getlength(s))


def card_image(width: int, height: int, fill, paint: Painter | None = None, edge=CARD_EDGE) -> Image.Image:
    """An RGBA card of ``width`` × ``height``: a rounded rectangle, then ``paint`` at ``SCALE`` times the size."""
    s = SCALE
    big = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius=max(3, width // 8) * s, fill=fill, outline=edge, width=s)
    if paint is not None:
        paint(d, width * s, height * s, s)
    return big.resize((width, height), Image.LANCZOS)


@lru_cache(maxsize=None)
def label_face(label: str, width: int, height: int, ink=INK_BLACK, fill=CARD, size: int = 0, corner: str = "") -> Image.Image:
    """A card face with ``label`` large in the middle (and ``corner`` small at the top left), cached."""
    size = size or max(10, height // 3)

    def paint(d: ImageDraw.ImageDraw, w: int, h: int, s: int) -> None:
        d.text((w / 2, h / 2), label, font=font(size * s), fill=ink, anchor="mm")
        if corner:
            d.text((4 * s, 3 * s), corner, font=font(max(8, height // 6) * s), fill=ink, anchor="la")

    return card_image(width, height, fill, paint)


@lru_cache(maxsize=None)
def card_back(width: int, height: int) -> Image.Image:
    """The back of a card (a face-down card), cached."""

    def paint(d: ImageDraw.ImageDraw, w: int, h: int, s: int) -> None:
        m, step, r = 4 * s, 6 * s, s
        d.rounded_rectangle((m, m, w - m, h - m), radius=3 * s, outline=BACK_LINE, width=s)
        for y in range(m + step, h - m - r, step):  # a lattice of dots inside the frame
            for x in range(m + step // (1 + (y // step) % 2), w - m - r, step):
                d.ellipse((x - r, y - r, x + r, y + r), fill=BACK_LINE)

    return card_image(width, height, BACK, paint, edge=(20, 30, 70))


@lru_cache(maxsize=None)
def empty_slot(width: int, height: int) -> Image.Image:
    """An empty place for a card (a faint outline), cached."""
    return card_image(width, height, EMPTY_SLOT, edge=PANEL_EDGE)


def swatch(cards: Sequence[Image.Image]) -> Image.Image:
    """Every card face and role tag of a game on one felt picture (to choose a GIF's colours from)."""
    per_row = 20
    w = max(card.width for card in cards) + 2
    h = max(card.height for card in cards) + 2
    rows = (len(cards) + per_row - 1) // per_row
    c = Canvas(per_row * w, rows * h + 60)
    for k, card in enumerate(cards):
        c.paste(card, (k % per_row) * w, (k // per_row) * h)
    x = 4
    for role in ROLE_COLOURS:
        x += c.pill(x, rows * h + 4, role) + 4
    c.panel((4, rows * h + 28, 60, rows * h + 56), highlight=True)
    return c.image


def count(k: int, noun: str) -> str:
    """``k`` and ``noun``, plural unless one: "1 card", "3 cards"."""
    return f"{k} {noun}" if k == 1 else f"{k} {noun}s"


def seat_order(num_seats: int, viewer: int | None) -> list[int]:
    """Seats in drawing order: the viewer's first, then the others clockwise (spectator: seat 0 first)."""
    first = 0 if viewer is None else viewer
    return [(first + k) % num_seats for k in range(num_seats)]


def winners(ranking_keys: Sequence[tuple]) -> set[int]:
    """Seats with the best ranking key (the winners once a game is over)."""
    best = max(ranking_keys)
    return {s for s, k in enumerate(ranking_keys) if k == best}
