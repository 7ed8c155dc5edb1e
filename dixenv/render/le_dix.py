"""The le_dix table as a picture: seats around the table, hands, trump, bids, tricks, the current trick.

The viewer sits at the bottom, the player to their left at their left, and so on clockwise. A
seat's view shows what its observation holds (``games/le_dix/observation.py``): its own hand face
up, the other hands face down, the dealer's discard face down except to the dealer; the undealt
cards are never drawn. The spectator sees every hand and the discard.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from dixenv.games.le_dix.cards import NUM_CARDS, RANK_OF, RANKS, SUIT_OF
from dixenv.games.le_dix.state import GAME_OVER, PHASE_NAMES, LeDixState
from dixenv.render import canvas as C

WIDTH, HEIGHT = 1000, 690
CARD_W, CARD_H = 36, 50
PANEL_W, PANEL_H = 316, 104
TABLE_TOP, TABLE_BOTTOM = 40, HEIGHT - C.CAPTION_HEIGHT - 8
CENTRE_X, CENTRE_Y = WIDTH / 2, (TABLE_TOP + TABLE_BOTTOM) / 2
SUIT_INK = (C.INK_BLACK, C.INK_RED, C.INK_RED, C.INK_BLACK)  # S, H, D, C


def draw(state: LeDixState, viewer: int | None, caption: list[str]) -> Image.Image:
    """The table of ``state`` as ``viewer`` may see it (None: the spectator)."""
    c = C.Canvas(WIDTH, HEIGHT)
    n = state.num_seats
    over = state.phase == GAME_OVER
    deals = len(state.config.deals)
    head = f"le_dix   deal {min(state.deal_index + 1, deals)}/{deals}   {C.count(state.hand_size, 'card')} each   "
    head += "game over" if over else PHASE_NAMES[state.phase]
    bids = [b for b in state.bids if b is not None]
    if bids and not over:
        head += f"   bids total {sum(bids)} for {C.count(state.hand_size, 'trick')}"
    c.text((12, 10), head, 18)
    c.text((WIDTH - 12, 12), "spectator view" if viewer is None else f"view of player_{viewer}", 14, C.MUTED, "ra")
    won = C.winners(state.ranking_keys()) if over else set()
    centres = _seat_centres(n)
    for r, seat in enumerate(C.seat_order(n, viewer)):
        cx, cy = centres[r]
        _draw_seat(c, state, seat, viewer, cx, cy, seat in won)
        played = [card for s, card in state.trick if s == seat]
        if played:
            tx, ty = _toward_centre(cx, cy, 0.42)
            c.paste(face(played[0]), tx - CARD_W / 2, ty - CARD_H / 2)
    _draw_trump(c, state, viewer)
    _draw_last_trick(c, state, viewer)
    c.caption(caption)
    return c.image


def _seat_centres(n: int) -> list[tuple[float, float]]:
    """Centre of each relative seat's area on an ellipse: 0 at the bottom, then clockwise."""
    rx, ry = WIDTH / 2 - PANEL_W / 2 - 10, (TABLE_BOTTOM - TABLE_TOP - PANEL_H) / 2
    out = []
    for r in range(n):
        angle = math.pi / 2 + 2 * math.pi * r / n  # y grows downwards: increasing angle runs bottom → left → top
        out.append((CENTRE_X + rx * math.cos(angle), CENTRE_Y + ry * math.sin(angle)))
    return out


def _toward_centre(x: float, y: float, share: float) -> tuple[float, float]:
    """The point ``share`` of the way from the table's centre to (x, y)."""
    return CENTRE_X + share * (x - CENTRE_X), CENTRE_Y + share * (y - CENTRE_Y)


def _draw_seat(c: C.Canvas, state: LeDixState, seat: int, viewer: int | None,
               cx: float, cy: float, winner: bool) -> None:
    """One seat's area: name and roles, score, bid and tricks, the hand (face down if hidden from the viewer)."""
    x0, y0 = int(cx - PANEL_W / 2), int(cy - PANEL_H / 2)
    to_act = state.current_player() == seat
    c.panel((x0, y0, x0 + PANEL_W, y0 + PANEL_H), to_act)
    roles = ["you"] if seat == viewer else []
    roles += ["dealer"] if seat == state.dealer else []
    roles += ["to act"] if to_act else []
    roles += ["winner"] if winner else []
    c.seat_label(x0 + 10, y0 + 6, f"player_{seat}", roles)
    bid = state.bids[seat]
    c.text((x0 + 10, y0 + 28),
           f"score {state.total_scores[seat]}    bid {'-' if bid is None else bid}    tricks {state.tricks_won[seat]}", 14, C.MUTED)
    hand = state.hands[seat]
    shown = viewer is None or viewer == seat
    # Spread the cards out when few, overlap them when many (11 fill the panel's width).
    step = min(CARD_W + 4, (PANEL_W - 20 - CARD_W) / max(1, len(hand) - 1))
    x, y = x0 + 10, y0 + PANEL_H - CARD_H - 6
    for card in _display_order(hand):
        c.paste(face(card) if shown else C.card_back(CARD_W, CARD_H), x, y)
        x += step


def _display_order(hand: list[int]) -> list[int]:
    """A hand grouped by suit, alternating colours (S, H, C, D), high cards first within a suit."""
    suit_rank = {0: 0, 1: 1, 3: 2, 2: 3}
    return sorted(hand, key=lambda c: (suit_rank[SUIT_OF[c]], -RANK_OF[c]))


def _draw_trump(c: C.Canvas, state: LeDixState, viewer: int | None) -> None:
    """The turned-up trump card, whether the dealer took it, and the dealer's discard (face down to others)."""
    x0, y0 = 12, TABLE_BOTTOM - 118
    c.panel((x0, y0, x0 + 200, y0 + 118))
    c.text((x0 + 10, y0 + 6), "trump", 14, C.MUTED)
    c.paste(face(state.trump_card), x0 + 10, y0 + 26)
    took = state.dealer_took
    status = "dealer to choose" if took is None else "taken by the dealer" if took else "left by the dealer"
    c.text((x0 + 10, y0 + 84), status, 13, C.TEXT)
    if state.dealer_discard is not None:
        c.text((x0 + 110, y0 + 6), "discard", 14, C.MUTED)
        shown = viewer is None or viewer == state.dealer
        c.paste(face(state.dealer_discard) if shown else C.card_back(CARD_W, CARD_H), x0 + 110, y0 + 26)


def _draw_last_trick(c: C.Canvas, state: LeDixState, viewer: int | None) -> None:
    """The last complete trick of the deal, in seat order from the viewer, with its winner."""
    n = len(state.last_trick)
    if not n:
        return
    title = f"last trick, won by player_{state.leader}"
    w = max(20 + n * (CARD_W + 6), 20 + C.text_width(title, 13))
    x0, y0 = WIDTH - 12 - w, TABLE_BOTTOM - 118
    c.panel((x0, y0, x0 + w, y0 + 118))
    c.text((x0 + 10, y0 + 6), title, 13, C.MUTED)
    by_seat = dict(state.last_trick)
    for k, seat in enumerate(C.seat_order(state.num_seats, viewer)):
        x = x0 + 10 + k * (CARD_W + 6)
        c.paste(face(by_seat[seat]), x, y0 + 26)
        c.text((x + CARD_W / 2, y0 + 84), f"p{seat}", 12, C.GOLD if seat == state.leader else C.MUTED, "ma")


@lru_cache(maxsize=None)
def face(card: int) -> Image.Image:
    """A card face: rank at the top left, a large suit in the middle (cached)."""
    rank, suit = RANKS[RANK_OF[card]], SUIT_OF[card]
    ink = SUIT_INK[suit]
    label = "10" if rank == "T" else rank

    def paint(dr: ImageDraw.ImageDraw, w: int, h: int, s: int) -> None:
        dr.text((4 * s, 2 * s), label, font=C.font(14 * s), fill=ink, anchor="la")
        suit_shape(dr, w * 0.55, h * 0.62, w * 0.27, suit, ink)

    return C.card_image(CARD_W, CARD_H, C.CARD, paint)


def swatch() -> Image.Image:
    """Every le_dix card face and the back on one picture (``canvas.swatch``)."""
    return C.swatch([face(card) for card in range(NUM_CARDS)] + [C.card_back(CARD_W, CARD_H)])


def suit_shape(d: ImageDraw.ImageDraw, x: float, y: float, r: float, suit: int, fill) -> None:
    """A suit symbol of half-size ``r`` centred on (x, y): spade, heart, diamond, club (suits S, H, D, C).

    Drawn from circles and polygons because Pillow's default font has no suit glyphs.
    """
    def disc(px: float, py: float, pr: float) -> None:
        d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=fill)

    if suit == 2:  # diamond
        d.polygon([(x, y - r), (x + 0.75 * r, y), (x, y + r), (x - 0.75 * r, y)], fill=fill)
    elif suit == 1:  # heart: two lobes over a point
        disc(x - r / 2, y - r / 3, r / 2)
        disc(x + r / 2, y - r / 3, r / 2)
        d.polygon([(x - r, y - r / 4), (x + r, y - r / 4), (x, y + r)], fill=fill)
    elif suit == 0:  # spade: an upside-down heart on a stem
        disc(x - r / 2, y + r / 5, r / 2)
        disc(x + r / 2, y + r / 5, r / 2)
        d.polygon([(x - r, y + r / 8), (x + r, y + r / 8), (x, y - r)], fill=fill)
        d.polygon([(x, y), (x - r / 3, y + r), (x + r / 3, y + r)], fill=fill)
    else:  # club: three leaves on a stem
        disc(x, y - r / 2, r * 0.42)
        disc(x - r / 2, y + r / 8, r * 0.42)
        disc(x + r / 2, y + r / 8, r * 0.42)
        d.polygon([(x, y - r / 6), (x - r / 3, y + r), (x + r / 3, y + r)], fill=fill)
