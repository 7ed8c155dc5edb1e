"""What one le_dix seat may know, as a flat float32 vector with a documented layout.

Seats are relative to the observer: index 0 is the observer, 1 the player to their left, and so
on. Hidden: other hands, the dealer's discard (except to the dealer) and the undealt cards.
Public history that a player could remember is encoded, so agents need no memory: bids, tricks
won, who played each card this deal, the suits each seat showed a void in, the current and the
last trick with their leaders, and the previous deal (its trump, bids, tricks won, every card and
who played it, and its final trick). With ``auto_forced=True`` the end of a deal is often played by
the environment; the previous-deal block is where those cards reach every seat.
"""

from __future__ import annotations

from functools import lru_cache
from operator import add

import numpy as np

from dixenv.core.layout import Layout, Piece
from dixenv.games.le_dix.cards import NUM_CARDS, SUIT_OF
from dixenv.games.le_dix.config import LeDixConfig
from dixenv.games.le_dix.state import DealSummary, LeDixState, max_total_points

NUM_PHASES = 4  # trump choice, discard, bidding, playing


def make_layout(config: LeDixConfig) -> Layout:
    """The observation layout for a config (sizes depend on players and the deal schedule)."""
    n, b = config.num_players, config.max_bid + 1
    return Layout(
        [
            Piece("hand", (NUM_CARDS,), "1 for each card in the observer's hand (card id = suit×13 + rank; suits S,H,D,C; ranks 2..A)"),
            Piece("trump_card", (NUM_CARDS,), "one-hot: the card the dealer turned up"),
            Piece("trump_suit", (4,), "one-hot trump suit (S,H,D,C)"),
            Piece("dealer_took_trump", (1,), "1 if the dealer took the turned-up card into hand (public)"),
            Piece("own_discard", (NUM_CARDS,), "one-hot: the card the observer discarded as dealer (hidden from others)"),
            Piece("dealer", (n,), "one-hot relative seat of the dealer (0 = observer)"),
            Piece("phase", (NUM_PHASES,), "one-hot: trump choice, discard, bidding, playing"),
            Piece("bids", (n, b), "per relative seat, one-hot bid 0..max_bid (all 0 = not bid yet)"),
            Piece("tricks_won", (n, b), "per relative seat, one-hot tricks won this deal"),
            Piece("trick", (n, NUM_CARDS), "current trick: per relative seat, the card it played"),
            Piece("trick_leader", (n,), "one-hot relative seat that leads the current trick"),
            Piece("last_trick", (n, NUM_CARDS), "the last complete trick of this deal: per relative seat, its card"),
            Piece("last_trick_leader", (n,), "one-hot relative seat that led the last complete trick (all 0 before the first)"),
            Piece("played", (NUM_CARDS,), "1 for every card played this deal (complete tricks and the current one)"),
            Piece("played_by", (n, NUM_CARDS), "per relative seat, 1 for every card it played this deal"),
            Piece("void", (n, 4), "per relative seat, 1 for each suit (S,H,D,C) it showed it lacks this deal (did not follow it)"),
            # The highest total is an exact bid of the whole hand in every deal (``max_total_points``).
            Piece("scores", (n,), "per relative seat, points so far / 100", high=max_total_points(config) / 100),
            Piece("deal", (len(config.deals),), "one-hot index of the current deal in the schedule"),
            Piece("hand_size", (b,), "one-hot cards dealt per player this deal"),
            # The previous deal: all 0 until the first deal ends.
            Piece("prev_trump_suit", (4,), "previous deal: one-hot trump suit (S,H,D,C)"),
            Piece("prev_bids", (n, b), "previous deal: per relative seat, one-hot bid"),
            Piece("prev_tricks_won", (n, b), "previous deal: per relative seat, one-hot tricks won"),
            Piece("prev_played_by", (n, NUM_CARDS), "previous deal: per relative seat, 1 for every card it played"),
            Piece("prev_last_trick", (n, NUM_CARDS), "previous deal's final trick: per relative seat, its card"),
            Piece("prev_last_trick_leader", (n,), "previous deal: one-hot relative seat that led its final trick"),
        ]
    )


@lru_cache(maxsize=64)
def _tables(config: LeDixConfig) -> tuple:
    """The observer's fixed tables for a config, shared by all its observers (read them, never change them).

    Flat offsets per piece, bid width, last deal index, and per observing seat and per seat s the
    flat start of s's row (its relative seat) in each per-seat piece (an entry is then one
    addition: row start + card, bid or suit) or its entry in the per-seat one-hot pieces; and per
    void bit set (0..15) the suits it holds.
    """
    n, b = config.num_players, config.max_bid + 1
    layout = make_layout(config)
    off = {p.name: layout.slices[p.name].start for p in layout.pieces}
    rel = [[(s - seat) % n for s in range(n)] for seat in range(n)]
    rows = {
        name: [[off[name] + r * width for r in rel[seat]] for seat in range(n)]
        for name, width in (("bids", b), ("tricks_won", b), ("trick", NUM_CARDS), ("last_trick", NUM_CARDS),
                            ("played_by", NUM_CARDS), ("void", 4))
    }
    seat_index = {name: [[off[name] + r for r in rel[seat]] for seat in range(n)]
                  for name in ("dealer", "trick_leader", "last_trick_leader", "scores")}
    suits_of = [[suit for suit in range(4) if v >> suit & 1] for v in range(16)]
    return off, b, len(config.deals) - 1, rows, seat_index, suits_of


class LeDixObserver:
    """Fills a preallocated tensor with what a seat may know (``set_from``)."""

    def __init__(self, config: LeDixConfig):
        self.config = config
        self.layout = make_layout(config)
        self.tensor = self.layout.tensor
        self._off, self._b, self._last_deal, self._rows, self._seat_index, self._suits_of = _tables(config)
        # Per seat, the previous deal whose block was last encoded and that block's flat indices:
        # a DealSummary is immutable, so the indices hold as long as it is the same object.
        self._prev_cache: list[tuple[DealSummary | None, np.ndarray | None]] = [(None, None)] * config.num_players

    def set_from(self, state: LeDixState, seat: int) -> None:
        """Write what ``seat`` may know of ``state`` into ``self.tensor``."""
        # Hot path: the flat indices of every 1 are gathered in one list (``map`` over the cards,
        # row starts precomputed per seat) and written by one fancy assignment; per-entry numpy
        # writes cost several times as much (measured). The scores are the only other values.
        t, off, rows, at = self.tensor, self._off, self._rows, self._seat_index
        t.fill(0.0)
        ones = list(map(off["hand"].__add__, state.hands[seat]))
        ones.append(off["trump_card"] + state.trump_card)
        ones.append(off["trump_suit"] + state.trump_suit)
        if state.dealer_took:
            ones.append(off["dealer_took_trump"])
        if seat == state.dealer and state.dealer_discard is not None:
            ones.append(off["own_discard"] + state.dealer_discard)
        ones.append(at["dealer"][seat][state.dealer])
        if state.phase < NUM_PHASES:
            ones.append(off["phase"] + state.phase)
        ones.extend(r + bid for r, bid in zip(rows["bids"][seat], state.bids) if bid is not None)
        ones.extend(map(add, rows["tricks_won"][seat], state.tricks_won))
        row = rows["trick"][seat]
        ones.extend(row[s] + c for s, c in state.trick)
        ones.append(at["trick_leader"][seat][state.leader])
        last = state.last_trick
        if last:
            row = rows["last_trick"][seat]
            ones.extend(row[s] + c for s, c in last)
            ones.append(at["last_trick_leader"][seat][last[0][0]])
        ones.extend(map(off["played"].__add__, state.played))
        ones.extend(map(add, map(rows["played_by"][seat].__getitem__, state.played_by), state.played))
        row, suits_of = rows["void"][seat], self._suits_of
        for s, v in enumerate(state.voids):
            if v:
                ones.extend(map(row[s].__add__, suits_of[v]))
        ones.append(off["deal"] + min(state.deal_index, self._last_deal))
        ones.append(off["hand_size"] + state.hand_size)
        t[np.fromiter(ones, np.intp, len(ones))] = 1.0
        t[at["scores"][seat]] = [score / 100.0 for score in state.total_scores]
        prev = state.prev
        if prev is not None:
            cached, indices = self._prev_cache[seat]
            if cached is not prev:
                indices = self._prev_indices(prev, seat)
                self._prev_cache[seat] = (prev, indices)
            t[indices] = 1.0

    def _prev_indices(self, prev: DealSummary, seat: int) -> np.ndarray:
        """The flat indices of the ones of the previous-deal block, as ``seat`` sees it."""
        off, n, b = self._off, len(prev.bids), self._b
        on = [off["prev_trump_suit"] + SUIT_OF[prev.trump_card]]
        ob, ot = off["prev_bids"], off["prev_tricks_won"]
        for s in range(n):
            r = (s - seat) % n * b
            on += [ob + r + prev.bids[s], ot + r + prev.tricks_won[s]]
        o = off["prev_played_by"]
        on += [o + (s - seat) % n * NUM_CARDS + c for s, c in prev.plays]
        final = prev.final_trick()
        o = off["prev_last_trick"]
        on += [o + (s - seat) % n * NUM_CARDS + c for s, c in final]
        on.append(off["prev_last_trick_leader"] + (final[0][0] - seat) % n)
        return np.array(on, dtype=np.intp)
