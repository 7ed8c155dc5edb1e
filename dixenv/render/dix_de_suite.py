"""The dix de suite (Rack-O) table as a picture: every rack as 10 slots, the piles, the held card.

Racks are drawn one row per seat, the viewer's first, slot 1 (the front, lowest) on the left. A
seat's view shows what its observation holds (``games/dix_de_suite/observation.py``): its own
rack; in the other racks only the slots whose card everybody saw go in (``state.known``), the
rest face down; the draw pile's top only when its order is public; the card held by the player to
act only to that player, or when it came face up. A gold dot marks a card the table knows; a
green bar under a rack, its ascending run from slot 1 as far as the viewer can tell.
"""

from __future__ import annotations

import colorsys
from functools import lru_cache

from PIL import Image

from dixenv.games.dix_de_suite.cards import RACK_SIZE
from dixenv.games.dix_de_suite.observation import known_prefix
from dixenv.games.dix_de_suite.scoring import ascending_prefix
from dixenv.games.dix_de_suite.state import PHASE_PLACE, DixDeSuiteState
from dixenv.render import canvas as C

WIDTH = 1000
HEADER = 44
ROW_H = 104
CARD_W, CARD_H = 50, 64
SLOT_STEP = 56
SLOTS_X = 190
SIDE_X = 784  # the piles' column
SIDE_H = 262
FOOTER = 30
RUN = (110, 220, 120)


def height(num_players: int) -> int:
    """Picture height for a player count (fixed, so every frame of a game has the same size)."""
    return HEADER + max(num_players * ROW_H, SIDE_H) + FOOTER + C.CAPTION_HEIGHT


def draw(state: DixDeSuiteState, viewer: int | None, caption: list[str]) -> Image.Image:
    """The table of ``state`` as ``viewer`` may see it (None: the spectator)."""
    n, cfg = state.num_seats, state.config
    h = height(n)
    c = C.Canvas(WIDTH, h)
    over = state.terminal or state.truncated
    head = f"dix de suite   round {state.round}   turn {state.round_turns}/{cfg.max_turns}   target {cfg.target_score}"
    if cfg.teams:
        t = state.team_scores()
        head += f"   teams: 0+2 {t[0]}, 1+3 {t[1]}"
    c.text((12, 12), head, 18)
    c.text((WIDTH - 12, 14), "spectator view" if viewer is None else f"view of player_{viewer}", 14, C.MUTED, "ra")
    won = C.winners(state.ranking_keys()) if state.terminal else set()
    for k, seat in enumerate(C.seat_order(n, viewer)):
        _draw_rack(c, state, seat, viewer, HEADER + k * ROW_H, seat in won)
    _draw_piles(c, state, viewer)
    c.text((12, h - C.CAPTION_HEIGHT - FOOTER + 6), _footer(state, over), 14, C.MUTED)
    c.caption(caption)
    return c.image


def _draw_rack(c: C.Canvas, state: DixDeSuiteState, seat: int, viewer: int | None,
               y: int, winner: bool) -> None:
    """One seat's row: name, roles and score, then its 10 slots (hidden ones face down) and its known run."""
    to_act = state.current == seat
    c.panel((10, y, SIDE_X - 14, y + ROW_H - 8), to_act)
    roles = ["you"] if seat == viewer else []
    roles += ["dealer"] if seat == state.dealer else []
    roles += ["to act"] if to_act else []
    roles += ["winner"] if winner else []
    c.seat_label(20, y + 8, f"player_{seat}", roles[:2])
    if roles[2:]:
        x = 20
        for role in roles[2:]:  # a second line: the label is narrow
            x += c.pill(x, y + 32, role) + 4
    c.text((20, y + 58), f"score {state.scores_[seat]}" + (f"   team {'0+2' if seat % 2 == 0 else '1+3'}" if state.config.teams else ""),
           14, C.MUTED)
    rack, known = state.racks[seat], state.known[seat]
    shown = viewer is None or viewer == seat
    for k in range(RACK_SIZE):
        x = SLOTS_X + k * SLOT_STEP
        c.text((x + CARD_W / 2, y + 4), str(k + 1), 11, C.MUTED, "ma")
        if shown or known[k]:
            c.paste(face(rack[k], state.config.deck_size), x, y + 18)
        else:
            c.paste(C.card_back(CARD_W, CARD_H), x, y + 18)
        if known[k]:
            c.draw.ellipse((x + CARD_W - 11, y + 21, x + CARD_W - 4, y + 28), fill=C.GOLD, outline=(90, 70, 0))
    run = ascending_prefix(rack) if shown else known_prefix(known)
    if run:
        c.draw.rectangle((SLOTS_X, y + 86, SLOTS_X + (run - 1) * SLOT_STEP + CARD_W, y + 89), fill=RUN)


def _draw_piles(c: C.Canvas, state: DixDeSuiteState, viewer: int | None) -> None:
    """The draw pile (its top face up only when public to the viewer), the discard pile's top, the held card."""
    x0, y0, deck = SIDE_X, HEADER, state.config.deck_size
    c.panel((x0, y0, WIDTH - 10, y0 + 124))
    c.text((x0 + 12, y0 + 6), "draw pile", 13, C.MUTED)
    c.text((x0 + 112, y0 + 6), "discard", 13, C.MUTED)
    pile = state.draw_pile
    if not pile:
        c.paste(C.empty_slot(CARD_W, CARD_H), x0 + 12, y0 + 26)
    elif viewer is None or state.draw_public:
        c.paste(face(pile[-1], deck), x0 + 12, y0 + 26)
    else:
        c.paste(C.card_back(CARD_W, CARD_H), x0 + 12, y0 + 26)
    c.text((x0 + 12, y0 + 94), C.count(len(pile), "card") + (", open" if state.draw_public else ""), 12, C.TEXT)
    if state.discard:
        c.paste(face(state.discard[-1], deck), x0 + 112, y0 + 26)
    else:
        c.paste(C.empty_slot(CARD_W, CARD_H), x0 + 112, y0 + 26)
    c.text((x0 + 112, y0 + 94), C.count(len(state.discard), "card"), 12, C.TEXT)

    y1 = y0 + 134
    holding = state.current >= 0 and state.phase == PHASE_PLACE
    c.panel((x0, y1, WIDTH - 10, y1 + 124), holding)
    if not holding:
        c.text((x0 + 12, y1 + 6), "no card in hand", 13, C.MUTED)
        return
    c.text((x0 + 12, y1 + 6), f"player_{state.current} holds", 13, C.GOLD)
    seen = viewer is None or viewer == state.current or state.held_public
    c.paste(face(state.held, deck) if seen else C.card_back(CARD_W, CARD_H), x0 + 12, y1 + 26)
    source = "from the discard pile:\nswap a slot" if state.held_from_discard else "from the draw pile:\nswap a slot\nor discard"
    for k, line in enumerate(source.split("\n")):
        c.text((x0 + 74, y1 + 30 + 18 * k), line, 13)


def _footer(state: DixDeSuiteState, over: bool) -> str:
    """The end of the game, or the last round's result."""
    if state.truncated:
        return f"stopped: {state.config.max_turns} turns in this round without a winner"
    out = "game over.   " if over else ""
    if state.last_round_points is not None:
        points = ", ".join(f"player_{s} +{p}" for s, p in enumerate(state.last_round_points))
        out += f"last round won by player_{state.last_round_winner}: {points}"
    return out


@lru_cache(maxsize=None)
def face(card: int, deck_size: int) -> Image.Image:
    """A card face: its number on a colour running from blue (low) to red (high) (cached)."""
    hue = 0.66 * (1 - (card - 1) / max(1, deck_size - 1))
    fill = tuple(int(255 * v) for v in colorsys.hsv_to_rgb(hue, 0.32, 0.98))
    return C.label_face(str(card), CARD_W, CARD_H, C.INK_BLACK, fill, size=24)


def swatch() -> Image.Image:
    """Every card face (of the 60-card deck), the back and an empty place on one picture (``canvas.swatch``)."""
    cards = [face(card, 60) for card in range(1, 61)]
    return C.swatch(cards + [C.card_back(CARD_W, CARD_H), C.empty_slot(CARD_W, CARD_H)])
