"""The dix (TEN) table as a picture: every seat's collection and tokens, the tableau, the auction, the market.

Everything in dix is public except the order of the draw pile, which is never drawn (only its
size), so every seat's view shows the same table; the viewer's seat comes first and is tagged.
Collections are grids: one row per colour (numbers 1..9, then the colour wilds ``#``), and a row
of number wilds (``W1..W9``, then the star); a small badge counts copies beyond the first.
"""

from __future__ import annotations

from functools import lru_cache
import math

from PIL import Image, ImageDraw

from dixenv.games.dix.cards import (
    COLOUR_OF,
    COLOUR_WILD_BASE,
    CURRENCY_BASE,
    NUM_NUMBER_TYPES,
    NUM_NUMBERS,
    NUM_TYPES,
    NUMBER_WILD_BASE,
    STAR,
    VALUE,
)
from dixenv.games.dix.state import (
    AUCTION,
    BUY,
    BUY_KIND_NAMES,
    CONSOLATION_VALUE,
    DECIDE,
    GAME_OVER,
    LIMIT,
    PAY_BUY,
    PAYMENT,
    DixState,
)
from dixenv.render import canvas as C

WIDTH = 1000
HEADER = 40
SEAT_W, SEAT_H = 478, 128
SIDE_X = 500  # the table's column
SIDE_H = 584
CARD_W, CARD_H = 40, 56
CELL_W, CELL_H = 24, 17  # one card of a collection or market grid
CELL_STEP_X, CELL_STEP_Y = 26, 18
COLOUR_FILL = ((52, 110, 210), (40, 150, 70), (232, 132, 28), (222, 88, 158))  # B, G, O, P
WILD_FILL = (34, 34, 34)
MONEY_FILL = (246, 212, 96)
SILVER = (200, 204, 212)
BAR_OK, BAR_BUST = (110, 220, 120), (230, 70, 60)


def height(num_players: int) -> int:
    """Picture height for a player count (fixed, so every frame of a game has the same size)."""
    return HEADER + max(num_players * (SEAT_H + 6), SIDE_H) + C.CAPTION_HEIGHT


def draw(state: DixState, viewer: int | None, caption: list[str]) -> Image.Image:
    """The table of ``state`` as ``viewer`` may see it (None: the spectator; the same table but the tag)."""
    n = state.num_seats
    h = height(n)
    c = C.Canvas(WIDTH, h)
    over = state.phase == GAME_OVER
    head = "dix   game over" if over else f"dix   turn of {_name(state, state.active)}   {_phase_text(state)}"
    if state.solo:
        head += f"   solo, ALIX at difficulty {state.config.difficulty}"
    c.text((12, 10), head, 18)
    c.text((WIDTH - 12, 12), "spectator view" if viewer is None else f"view of player_{viewer}", 14, C.MUTED, "ra")
    scores = state.scores()
    won = C.winners(state.ranking_keys()) if over else set()
    for k, seat in enumerate(C.seat_order(n, viewer)):
        _draw_seat(c, state, seat, viewer, HEADER + k * (SEAT_H + 6), scores[seat], seat in won)
    y = _draw_tableau(c, state, HEADER)
    y = _draw_in_progress(c, state, y + 8)
    y = _draw_market(c, state, y + 8)
    _draw_piles(c, state, y + 8)
    c.caption(caption)
    return c.image


def _name(state: DixState, seat: int) -> str:
    return "ALIX" if seat == state.alix else f"player_{seat}"


def _phase_text(state: DixState) -> str:
    phase = state.phase
    if phase == DECIDE:
        return "draw or stop"
    if phase == AUCTION:
        return "auction"
    if phase == BUY:
        return f"buy ({BUY_KIND_NAMES[state.buy_kind]})"
    return "payment"


# --- seats --------------------------------------------------------------------------------------


def _draw_seat(c: C.Canvas, state: DixState, seat: int, viewer: int | None,
               y: int, score: int, winner: bool) -> None:
    """One seat's area: name and roles, the collection grid, score, tokens, consolation tokens, cards held."""
    to_act = state.current_player() == seat
    c.panel((10, y, 10 + SEAT_W, y + SEAT_H), to_act)
    roles = ["you"] if seat == viewer else []
    roles += ["ALIX"] if seat == state.alix else []
    roles += ["active"] if seat == state.active and state.phase != GAME_OVER else []
    roles += ["to act"] if to_act else []
    roles += ["winner"] if winner else []
    c.seat_label(20, y + 6, f"player_{seat}", roles)
    coll = state.collections[seat]
    x0, y0 = 20, y + 30
    c.paste(empty_grid(5, 10), x0, y0)
    for row in range(5):
        for col in range(10):
            t = _grid_type(row, col)
            if coll[t]:
                c.paste(mini_face(t, coll[t]), x0 + col * CELL_STEP_X, y0 + row * CELL_STEP_Y)
    x = 20 + 10 * CELL_STEP_X + 12
    c.text((x, y + 32), f"score {score}", 18, C.TEXT)
    _coins(c, x, y + 60, state.tokens[seat], MONEY_FILL, "")
    _coins(c, x, y + 80, state.consolation[seat], SILVER, str(CONSOLATION_VALUE))
    c.text((x, y + 102), f"tokens {state.tokens[seat]}   consolation {state.consolation[seat]}   "
                            f"cards {state.num_cards[seat]}", 12, C.MUTED)


def _grid_type(row: int, col: int) -> int:
    """The card type in a collection grid: rows B, G, O, P (1..9, then the colour wild), then W1..W9 and the star."""
    if row < 4:
        return row * NUM_NUMBERS + col if col < NUM_NUMBERS else COLOUR_WILD_BASE + row
    return NUMBER_WILD_BASE + col if col < NUM_NUMBERS else STAR


def _coins(c: C.Canvas, x: int, y: int, count: int, fill, label: str) -> None:
    """Up to ten coins in a row (more are written as +k)."""
    for k in range(min(count, 10)):
        cx = x + 8 + k * 17
        c.draw.ellipse((cx - 7, y, cx + 7, y + 14), fill=fill, outline=(90, 80, 40))
        if label:
            c.text((cx, y + 7), label, 10, C.INK_BLACK, "mm")
    if count > 10:
        c.text((x + 10 * 17 + 4, y), f"+{count - 10}", 12, C.TEXT)
    if count == 0:
        c.text((x, y), "-", 12, C.MUTED)


# --- the table ----------------------------------------------------------------------------------


def _draw_tableau(c: C.Canvas, state: DixState, y: int) -> int:
    """The cards drawn this turn, the total and the currency sum against the bust limit; returns the bottom."""
    bottom = y + 150
    c.panel((SIDE_X, y, WIDTH - 10, bottom))
    c.text((SIDE_X + 12, y + 6), f"tableau of {_name(state, state.active)}", 14, C.MUTED)
    cards = [t for t in range(NUM_TYPES) if t < NUM_NUMBER_TYPES or t >= CURRENCY_BASE for _ in range(state.tableau[t])]
    if cards:
        step = min(CARD_W + 4, (WIDTH - 10 - SIDE_X - 24 - CARD_W) / max(1, len(cards) - 1))
        for k, t in enumerate(cards):
            c.paste(face(t), SIDE_X + 12 + k * step, y + 26)
    else:
        c.text((SIDE_X + 12, y + 46), "(empty)", 13, C.MUTED)
    _bar(c, SIDE_X + 12, y + 92, "total", state.tableau_total)
    _bar(c, SIDE_X + 12, y + 118, "currency", state.tableau_currency)
    return bottom


def _bar(c: C.Canvas, x: int, y: int, label: str, value: int) -> None:
    """``value`` as a bar on a 0..15 scale with the bust limit (over 10) marked."""
    scale, w = 15, 300
    c.text((x, y + 1), f"{label} {value}", 13, C.TEXT)
    bx = x + 100
    c.draw.rectangle((bx, y, bx + w, y + 16), fill=C.EMPTY_SLOT)
    filled = max(0, min(value, scale)) * w / scale
    if filled:
        c.draw.rectangle((bx, y, bx + filled, y + 16), fill=BAR_BUST if value > LIMIT else BAR_OK)
    limit_x = bx + LIMIT * w / scale
    c.draw.line((limit_x, y - 3, limit_x, y + 19), fill=BAR_BUST, width=2)
    c.text((bx + w + 8, y + 2), f"bust > {LIMIT}", 12, C.MUTED)


def _draw_in_progress(c: C.Canvas, state: DixState, y: int) -> int:
    """The auction, buy or payment under way (or the draw decision); returns the bottom."""
    bottom = y + 104
    c.panel((SIDE_X, y, WIDTH - 10, bottom), state.phase in (AUCTION, PAYMENT, BUY))
    x = SIDE_X + 12
    phase = state.phase
    lines: list[str] = []
    card = -1
    if state.auction_card >= 0:
        card = state.auction_card
        high = f"{state.high_bid} by {_name(state, state.high_bidder)}" if state.high_bidder >= 0 else "none yet"
        lines.append(f"auction for this wild: high bid {high}")
        if phase == AUCTION:
            lines.append("still to bid: " + ", ".join(_name(state, s) for s in _still_to_bid(state)))
        elif phase == PAYMENT:
            lines.append(f"{_name(state, state.actor)} pays the bid: {state.pay_left} left to pay")
    elif phase == PAYMENT and state.pay_reason == PAY_BUY:
        card = state.buy_card
        lines.append(f"{_name(state, state.actor)} buys this card ({BUY_KIND_NAMES[state.buy_kind]})")
        lines.append(f"{state.pay_left} left to pay")
    elif phase == BUY:
        lines.append(f"{_name(state, state.actor)} may buy one market card ({BUY_KIND_NAMES[state.buy_kind]})")
        lines.append(f"means: {state.means(state.actor)}")
    elif phase == DECIDE:
        lines.append(f"{_name(state, state.actor)}: draw again, take the numbers or take the money")
    else:
        lines.append("game over: " + ", ".join(f"{_name(state, s)} {v}" for s, v in enumerate(state.scores())))
    if card >= 0:
        c.paste(face(card), x, y + 12)
        x += CARD_W + 14
    for k, line in enumerate(lines):
        c.text((x, y + 14 + 22 * k), line, 14, C.TEXT)
    return bottom


def _still_to_bid(state: DixState) -> list[int]:
    """Bidders still to bid, from the one to act round to the active player (who bids last)."""
    out, s = [state.actor], state.actor
    while s != state.active:
        s = (s + 1) % state.num_seats
        out.append(s)
    return out


def _draw_market(c: C.Canvas, state: DixState, y: int) -> int:
    """The market as a grid (rows B, G, O, P; numbers 1..9), copies counted; returns the bottom."""
    bottom = y + 104
    c.panel((SIDE_X, y, WIDTH - 10, bottom))
    c.text((SIDE_X + 12, y + 6), f"market ({C.count(sum(state.market), 'card')})", 14, C.MUTED)
    c.paste(empty_grid(4, NUM_NUMBERS), SIDE_X + 12, y + 26)
    for t in range(NUM_NUMBER_TYPES):
        if state.market[t]:
            row, col = divmod(t, NUM_NUMBERS)
            c.paste(mini_face(t, state.market[t]), SIDE_X + 12 + col * CELL_STEP_X, y + 26 + row * CELL_STEP_Y)
    return bottom


def _draw_piles(c: C.Canvas, state: DixState, y: int) -> None:
    """The draw pile (face down: its order is the one hidden thing) and the discard pile."""
    c.panel((SIDE_X, y, WIDTH - 10, y + 90))
    pile = state.pile
    c.paste(C.card_back(CARD_W, CARD_H) if pile else C.empty_slot(CARD_W, CARD_H), SIDE_X + 12, y + 17)
    c.text((SIDE_X + 64, y + 20), f"draw pile: {len(pile)} of {state.pile_start} cards left", 14, C.TEXT)
    if state.last_drawn:
        c.text((SIDE_X + 64, y + 42), "last card drawn: final buys", 14, C.GOLD)
    c.text((SIDE_X + 64, y + 64), f"discard pile: {C.count(sum(state.discard), 'card')}", 13, C.MUTED)


# --- card faces ---------------------------------------------------------------------------------


def _look(t: int) -> tuple[tuple[int, int, int], tuple[int, int, int], str]:
    """Fill, ink and label of a card type: numbers and colour wilds in their colour, number wilds and the star black, money gold."""
    if t < NUM_NUMBER_TYPES:
        return COLOUR_FILL[COLOUR_OF[t]], (255, 255, 255), str(VALUE[t])
    if t < NUMBER_WILD_BASE:
        return COLOUR_FILL[COLOUR_OF[t]], (255, 255, 255), "#"
    if t < STAR:
        return WILD_FILL, (255, 255, 255), str(t - NUMBER_WILD_BASE + 1)
    if t == STAR:
        return WILD_FILL, C.GOLD, ""
    return MONEY_FILL, C.INK_BLACK, f"${VALUE[t]}"


@lru_cache(maxsize=None)
def face(t: int) -> Image.Image:
    """A full-size card face for a card type (cached); wilds say "wild" in the corner."""
    fill, ink, label = _look(t)
    corner = "wild" if COLOUR_WILD_BASE <= t < CURRENCY_BASE else ""
    if t == STAR:
        return C.card_image(CARD_W, CARD_H, fill, lambda dr, w, h, s: _star(dr, w / 2, h * 0.55, w * 0.36, ink))
    return C.label_face(label, CARD_W, CARD_H, ink, fill, size=20, corner=corner)


@lru_cache(maxsize=None)
def mini_face(t: int, count: int) -> Image.Image:
    """A small card of a grid (cached); a badge counts the copies when there are several."""
    fill, ink, label = _look(t)

    def paint(dr: ImageDraw.ImageDraw, w: int, h: int, s: int) -> None:
        if t == STAR:
            _star(dr, w * 0.4, h / 2, h * 0.42, ink)
        else:
            dr.text((w * 0.36, h / 2), label, font=C.font(12 * s), fill=ink, anchor="mm")
        if count > 1:
            r = 4 * s
            dr.ellipse((w - 2 * r - s, s, w - s, 2 * r + s), fill=(255, 255, 255))
            dr.text((w - r - s, r + s), str(count), font=C.font(8 * s), fill=C.INK_BLACK, anchor="mm")

    return C.card_image(CELL_W, CELL_H, fill, paint)


def swatch() -> Image.Image:
    """Every dix card face, large and small, the back and the coins on one picture (``canvas.swatch``)."""
    cards = [face(t) for t in range(NUM_TYPES)] + [mini_face(t, k) for t in range(NUM_TYPES) for k in (1, 2)]
    c = C.Canvas(200, 40)
    _coins(c, 0, 4, 3, MONEY_FILL, "")
    _coins(c, 60, 4, 3, SILVER, str(CONSOLATION_VALUE))
    _bar(c, 0, 22, "", LIMIT + 1)
    coins = c.image.convert("RGBA")
    return C.swatch(cards + [C.card_back(CARD_W, CARD_H), C.empty_slot(CELL_W, CELL_H), coins])


@lru_cache(maxsize=None)
def empty_grid(rows: int, cols: int) -> Image.Image:
    """A grid of empty places for small cards, pasted in one go under the cards held (cached)."""
    grid = Image.new("RGBA", ((cols - 1) * CELL_STEP_X + CELL_W, (rows - 1) * CELL_STEP_Y + CELL_H), (0, 0, 0, 0))
    cell = C.empty_slot(CELL_W, CELL_H)
    for row in range(rows):
        for col in range(cols):
            grid.paste(cell, (col * CELL_STEP_X, row * CELL_STEP_Y))
    return grid


def _star(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill) -> None:
    """A five-pointed star (Pillow's default font has no star glyph)."""
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    d.polygon(points, fill=fill)
