"""What one dix seat may know, as a flat float32 vector with a documented layout.

Everything in dix is public except the order of the draw pile, so the observation holds the whole
table: every collection, tokens, the tableau, the market, the auction and payment in progress,
the draw pile as a multiset (the cards not seen yet, which every player can work out) and the
discard pile (currency spent, wilds nobody bid on, number cards paid), so an agent needs no
memory: it can compute its bust odds, and the discard cannot be derived from the rest when a
stacked deck leaves cards out of the game. Seats are relative to the observer: index 0 is the
observer, 1 the player to their left, and so on (in the solo game, 1 is ALIX).

Counts are scaled by fixed factors (each piece's doc gives its scaling, the same for every
table, so a count reads the same everywhere). Bounds: each piece's ``high`` is the largest value
the rules let it reach *for this config* (``maxima``: the box, the number of players, the
variants), so a user's box with many copies of a card gets a larger ``high``, never a clipped
value. The count pieces come first and are read from the state's public int buffer with one
numpy gather (see ``state.public_segments``); the rest are a few scalars and one-hot entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dixenv.core.layout import Layout, Piece
from dixenv.games.dix.actions import MAX_BID
from dixenv.games.dix.cards import (
    COLOUR_WILD_BASE,
    CURRENCY_BASE,
    NUM_COLLECTABLE,
    NUM_CURRENCY_TYPES,
    NUM_NUMBER_TYPES,
    NUM_WILD_TYPES,
    VALUE,
)
from dixenv.games.dix.config import DixConfig
from dixenv.games.dix.state import (
    AUCTION,
    BUY,
    CONSOLATION_VALUE,
    GAME_OVER,
    LIMIT,
    PAY_BUY,
    PAYMENT,
    TOKEN_CAP,
    DixState,
    public_segments,
)

_NUM = "colour × number: rows B, G, O, P; columns 1..9"
_WILDS = "B#, G#, O#, P# (/2), W1..W9 (/1), ** (/1)"
_WILD_SCALE = [0.5] * 4 + [1.0] * 10
#: The scale of ``draw_pile_size``: the standard box, whatever the table (a fixed scale, so the
#: heuristic and the views read a pile size the same way at every table).
BOX_SIZE = 129
_NUMBERS = range(NUM_NUMBER_TYPES)
_WILD_TYPES = range(COLOUR_WILD_BASE, CURRENCY_BASE)
_CURRENCIES = range(CURRENCY_BASE, CURRENCY_BASE + NUM_CURRENCY_TYPES)


@dataclass(frozen=True)
class Maxima:
    """The largest value each counted quantity can reach in a game of one config (from the rules)."""

    copies: tuple[int, ...]  # per card type: the copies in the box, a bound for every count of that type
    cards: int  # cards in the box: the longest draw pile (a stacked deck is a part of the box)
    consolation: int  # consolation tokens one seat can hold
    number_cards: int  # number cards one seat can hold
    duplicates: int  # number cards one seat can hold beyond the first copy of each
    tableau_currency: tuple[int, ...]  # per currency type $1..$5: copies in the tableau at a decision
    currency_sum: int  # the tableau's currency sum at a decision
    bid: int  # the highest bid
    payment: int  # the largest amount to pay


def maxima(config: DixConfig) -> Maxima:
    """What the rules let each quantity reach in a game of ``config`` (the observation's bounds).

    * Every count of a card type is at most the copies in the box.
    * Consolation: one token per bust, at most one bust per turn of that seat, and a bust takes at
      least two cards from the pile (a number card is worth at most 9 and a currency card at most
      5, so no single card busts an empty tableau); between two turns of a seat the n − 1 others
      each draw at least one card. B busts take ≥ 2B + (n − 1)(B − 1) cards, so
      B ≤ (cards + n − 1) // (n + 1).
    * Observations are only taken at decisions or at the end. The tableau's currency sum is at
      most 10 there, except in the buy phase of the ``bust_buy`` variant, after a currency bust
      (10 plus the last card drawn, at most the box's largest currency card); the same holds for
      the copies of one currency card, at most 10 // v (+1 with ``bust_buy``). The tableau total
      is at most 10 there (ALIX, whose total may pass 10, takes her numbers at once) and at least
      minus the currency sum.
    * A bid is at most the bidder's means (10 tokens + 3 × consolation + number cards, solo:
      duplicates only) and at most ``MAX_BID``; a payment is a bid or a market card's price.
    """
    n, box = config.num_players, config.box
    cards = sum(box)
    consolation = (cards + n - 1) // (n + 1)
    number_cards = sum(box[t] for t in _NUMBERS)
    duplicates = number_cards - sum(1 for t in _NUMBERS if box[t])
    extra = 1 if config.bust_buy else 0
    present = [t for t in _CURRENCIES if box[t]]
    largest = max((VALUE[t] for t in present), default=0)
    currency_sum = min(sum(box[t] * VALUE[t] for t in present), LIMIT + largest * extra)
    tableau_currency = tuple(min(box[t], LIMIT // VALUE[t] + extra) for t in _CURRENCIES)
    cards_for_bids = duplicates if config.solo else number_cards
    bid = min(MAX_BID, TOKEN_CAP + CONSOLATION_VALUE * consolation + cards_for_bids)
    price = max((VALUE[t] for t in _NUMBERS if box[t]), default=0)
    return Maxima(box, cards, consolation, number_cards, duplicates, tableau_currency, currency_sum, bid, max(bid, price))


def _top(count: int, scale: float) -> float:
    """The bound for counts up to ``count`` at ``scale``, computed as the observer does (float32), so it is exact.

    A count that the box keeps at 0 (no duplicates in the standard 2-player box, no wild in a user's
    box) keeps the range of one card: Gymnasium's ``check_env`` flags an entry whose low equals its high.
    """
    return float(np.float32(max(count, 1) * np.float64(np.float32(scale))))


def _top_of(counts: list[int], scale: list[float] | float) -> float:
    """The largest encoded value of several counts (per-entry scales, or one)."""
    scales = scale if isinstance(scale, list) else [scale] * len(counts)
    return max((_top(c, s) for c, s in zip(counts, scales)), default=0.0)


def _count_pieces(config: DixConfig) -> list[tuple[Piece, str, int, int, bool, list[float] | float]]:
    """The count pieces: (piece, buffer segment, offset in it, length, per relative seat?, scale)."""
    n, m = config.num_players, maxima(config)
    numbers = [m.copies[t] for t in _NUMBERS]
    wilds = [m.copies[t] for t in _WILD_TYPES]
    currency = [m.copies[t] for t in _CURRENCIES]
    top_numbers, top_wilds, top_currency = _top_of(numbers, 1 / 3), _top_of(wilds, _WILD_SCALE), _top_of(currency, 1 / 6)
    return [
        (Piece("collection_numbers", (n, 4, 9), f"per relative seat, number cards held / 3 ({_NUM})", high=top_numbers),
         "collections", 0, NUM_NUMBER_TYPES, True, 1 / 3),
        (Piece("collection_wilds", (n, NUM_WILD_TYPES), f"per relative seat, wilds held: {_WILDS}", high=top_wilds),
         "collections", COLOUR_WILD_BASE, NUM_WILD_TYPES, True, _WILD_SCALE),
        (Piece("tokens", (n,), "per relative seat, money tokens / 10", high=_top(TOKEN_CAP, 0.1)), "tokens", 0, 1, True, 0.1),
        (Piece("consolation", (n,), "per relative seat, consolation tokens / 5 (worth 3 each, no cap; one per bust)",
               high=_top(m.consolation, 0.2)), "consolation", 0, 1, True, 0.2),
        (Piece("number_cards", (n,), "per relative seat, number cards held / 40 (each pays 1 in a buy or a bid)",
               high=_top(m.number_cards, 1 / 40)), "num_cards", 0, 1, True, 1 / 40),
        (Piece("duplicates", (n,), "per relative seat, number cards held beyond the first copy / 10 (solo: only these pay bids)",
               high=_top(m.duplicates, 0.1)), "dups", 0, 1, True, 0.1),
        (Piece("score", (n,), "per relative seat, what its collection scores now / 40 (4 full runs score 40)"),
         "scores", 0, 1, True, 1 / 40),
        (Piece("tableau_numbers", (4, 9), f"number cards in the tableau / 3 ({_NUM})", high=top_numbers),
         "tableau", 0, NUM_NUMBER_TYPES, False, 1 / 3),
        (Piece("tableau_currency", (NUM_CURRENCY_TYPES,), "currency cards $1..$5 in the tableau / 3",
               high=_top_of(list(m.tableau_currency), 1 / 3)), "tableau", CURRENCY_BASE, NUM_CURRENCY_TYPES, False, 1 / 3),
        (Piece("market", (4, 9), f"number cards in the market / 3 ({_NUM})", high=top_numbers),
         "market", 0, NUM_NUMBER_TYPES, False, 1 / 3),
        (Piece("unseen_numbers", (4, 9), f"number cards still in the draw pile / 3 ({_NUM})", high=top_numbers),
         "pile_counts", 0, NUM_NUMBER_TYPES, False, 1 / 3),
        (Piece("unseen_wilds", (NUM_WILD_TYPES,), f"wilds still in the draw pile: {_WILDS}", high=top_wilds),
         "pile_counts", COLOUR_WILD_BASE, NUM_WILD_TYPES, False, _WILD_SCALE),
        (Piece("unseen_currency", (NUM_CURRENCY_TYPES,), "currency cards $1..$5 still in the draw pile / 6", high=top_currency),
         "pile_counts", CURRENCY_BASE, NUM_CURRENCY_TYPES, False, 1 / 6),
        (Piece("discard_numbers", (4, 9), f"number cards in the discard pile (paid in buys and bids) / 3 ({_NUM})",
               high=top_numbers), "discard", 0, NUM_NUMBER_TYPES, False, 1 / 3),
        (Piece("discard_wilds", (NUM_WILD_TYPES,), f"wilds in the discard pile (nobody bid): {_WILDS}", high=top_wilds),
         "discard", COLOUR_WILD_BASE, NUM_WILD_TYPES, False, _WILD_SCALE),
        (Piece("discard_currency", (NUM_CURRENCY_TYPES,), "currency cards $1..$5 in the discard pile (spent) / 6",
               high=top_currency), "discard", CURRENCY_BASE, NUM_CURRENCY_TYPES, False, 1 / 6),
    ]


def _other_pieces(config: DixConfig) -> list[Piece]:
    n, m = config.num_players, maxima(config)
    return [
        Piece("tableau_total", (1,), "tableau total (numbers − currency) / 10; over 10 busts",
              low=-m.currency_sum / 10.0, high=LIMIT / 10.0),
        Piece("tableau_currency_sum", (1,), "sum of the tableau's currency cards / 10; over 10 busts (seen during a bust_buy buy)",
              high=max(m.currency_sum, 1) / 10.0),  # at least one unit: see _top
        Piece("draw_pile_size", (1,), f"cards left in the draw pile / {BOX_SIZE} (the standard box, at every table)",
              high=m.cards / BOX_SIZE),
        Piece("draw_pile_fraction", (1,), "cards left in the draw pile / cards it held at the start of this game (1 → 0)"),
        Piece("last_card_drawn", (1,), "1 once the draw pile is empty: no more draws, the end is under way"),
        Piece("active", (n,), "one-hot relative seat whose turn it is"),
        Piece("to_act", (n,), "one-hot relative seat that must decide now (all 0 once the game is over)"),
        Piece("phase", (4,), "one-hot: draw decision, auction, payment, buy (all 0 once the game is over)"),
        Piece("buy_kind", (3,), "one-hot, during a buy or its payment: after taking numbers, after a bust (bust_buy), final round"),
        Piece("auction_card", (NUM_WILD_TYPES,), "one-hot wild on auction, until it is paid for: B#, G#, O#, P#, W1..W9, **"),
        Piece("high_bid", (1,), "the auction's high bid / 10 (0 if none yet)", high=m.bid / 10.0),
        Piece("high_bidder", (n,), "one-hot relative seat holding the high bid"),
        Piece("still_to_bid", (n,), "1 for each relative seat still to bid in the auction (the one to act included)"),
        Piece("payment_left", (1,), "amount still to pay in the payment in progress / 10", high=m.payment / 10.0),
        Piece("buy_card", (4, 9), f"one-hot market card being paid for ({_NUM})"),
        Piece("rules", (3,), "1 if bust_buy; 1 if solo; ALIX's difficulty / 10 (0 if not solo)"),
    ]


def make_layout(config: DixConfig) -> Layout:
    """The observation layout for a config (sizes depend on the number of players, bounds on the box too)."""
    return Layout([c[0] for c in _count_pieces(config)] + _other_pieces(config))


@lru_cache(maxsize=64)
def _count_tables(config: DixConfig) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """Per observing seat, the buffer index of every count entry (tensor order), and the entries' scales.

    They depend on the config only, so every observer of a config shares them (read-only): a
    vector env holds one observer per game.
    """
    n = config.num_players
    seg = public_segments(n)
    index: list[list[int]] = [[] for _ in range(n)]
    scale: list[float] = []
    for piece, name, start, length, per_seat, s in _count_pieces(config):
        base = seg[name][0] + start
        for seat in range(n):
            if per_seat:
                stride = NUM_COLLECTABLE if name == "collections" else 1
                for k in range(n):
                    index[seat].extend(range(base + stride * ((seat + k) % n), base + stride * ((seat + k) % n) + length))
            else:
                index[seat].extend(range(base, base + length))
        scale.extend(s * (n if per_seat else 1) if isinstance(s, list) else [s] * piece.size)
    tables = [np.asarray(ix, dtype=np.intp) for ix in index] + [np.asarray(scale, dtype=np.float32)]
    for table in tables:
        table.flags.writeable = False
    return tuple(tables[:-1]), tables[-1]


#: What ``DixObserver._attach`` rebuilds (views of the tensor, tables shared by the config's observers).
_ATTACHED = frozenset({"_index", "_scale", "_counts", "_rest"})


class DixObserver:
    """Fills a preallocated tensor with what a seat may know (``set_from``)."""

    def __init__(self, config: DixConfig):
        self.config = config
        self.layout = make_layout(config)
        self.tensor = self.layout.tensor
        self._off = {p.name: self.layout.slices[p.name].start for p in self.layout.pieces}
        self._rules = [float(config.bust_buy), float(config.solo), config.difficulty / 10.0]
        self._attach()

    def _attach(self) -> None:
        """The config's shared count tables, and the count and rest parts of ``tensor`` as views of it."""
        self._index, self._scale = _count_tables(self.config)
        self._counts = self.tensor[: len(self._scale)]
        self._rest = self.tensor[len(self._scale) :]

    # A copy (``copy.deepcopy``, ``pickle``) would copy the views as arrays of their own, detached
    # from the copied tensor (so set_from would never write those parts of it), and the shared
    # tables as private copies: copy the rest, then attach both again.
    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in _ATTACHED}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._attach()

    def set_from(self, state: DixState, seat: int) -> None:
        """Write what ``seat`` may know of ``state`` into ``self.tensor`` (all of it is public but the pile order)."""
        t, off, n = self.tensor, self._off, state.num_seats
        state.refresh_scores()
        counts = np.frombuffer(state._buf, dtype=np.int32)
        np.multiply(counts[self._index[seat]], self._scale, out=self._counts)
        self._rest.fill(0.0)
        t[off["tableau_total"]] = state.tableau_total / 10.0
        t[off["tableau_currency_sum"]] = state.tableau_currency / 10.0
        t[off["draw_pile_size"]] = len(state.pile) / BOX_SIZE
        t[off["draw_pile_fraction"]] = len(state.pile) / state.pile_start if state.pile_start else 0.0
        if state.last_drawn:
            t[off["last_card_drawn"]] = 1.0
        t[off["active"] + (state.active - seat) % n] = 1.0
        phase = state.phase
        if phase != GAME_OVER:
            t[off["to_act"] + (state.actor - seat) % n] = 1.0
            t[off["phase"] + phase] = 1.0
            if phase == BUY or (phase == PAYMENT and state.pay_reason == PAY_BUY):
                t[off["buy_kind"] + state.buy_kind] = 1.0
            if phase == PAYMENT:
                t[off["payment_left"]] = state.pay_left / 10.0
        if state.auction_card >= 0:
            t[off["auction_card"] + state.auction_card - COLOUR_WILD_BASE] = 1.0
            if state.high_bidder >= 0:
                t[off["high_bid"]] = state.high_bid / 10.0
                t[off["high_bidder"] + (state.high_bidder - seat) % n] = 1.0
            if phase == AUCTION:
                # Bidders run from the one to act round to the active player, who bids last.
                o, k, last = off["still_to_bid"], (state.actor - seat) % n, (state.active - seat) % n
                t[o + k] = 1.0
                while k != last:
                    k = (k + 1) % n
                    t[o + k] = 1.0
        if state.buy_card >= 0:
            t[off["buy_card"] + state.buy_card] = 1.0
        o = off["rules"]
        t[o : o + 3] = self._rules
