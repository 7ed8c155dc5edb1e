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


class LeDixObserver:
    """Fills a preallocated tensor with what a seat may know (``set_from``)."""

    def __init__(self, config: LeDixConfig):
        self.config = config
        self.layout = make_layout(config)
        self.tensor = self.layout.tensor
        # Flat offsets: writing scalars into the flat tensor is the cheapest numpy access for the few
        # ones of each piece (cheaper than gathering indices into a list for ``put``, measured).
        self._off = {p.name: self.layout.slices[p.name].start for p in self.layout.pieces}
        self._b = config.max_bid + 1
        # Per seat, the previous deal whose block was last encoded and that block's flat indices:
        # a DealSummary is immutable, so the indices hold as long as it is the same object.
        self._prev_cache: list[tuple[DealSummary | None, np.ndarray | None]] = [(None, None)] * config.num_players

    def set_from(self, state: LeDixState, seat: int) -> None:
        """Write what ``seat`` may know of ``state`` into ``self.tensor``."""
        t, off, n, b = self.tensor, self._off, state.num_seats, self._b
        t.fill(0.0)
        o = off["hand"]
        for c in state.hands[seat]:
            t[o + c] = 1.0
        t[off["trump_card"] + state.trump_card] = 1.0
        t[off["trump_suit"] + state.trump_suit] = 1.0
        if state.dealer_took:
            t[off["dealer_took_trump"]] = 1.0
        if seat == state.dealer and state.dealer_discard is not None:
            t[off["own_discard"] + state.dealer_discard] = 1.0
        t[off["dealer"] + (state.dealer - seat) % n] = 1.0
        if state.phase < NUM_PHASES:
            t[off["phase"] + state.phase] = 1.0
        ob, ot, osc = off["bids"], off["tricks_won"], off["scores"]
        for s in range(n):
            r = (s - seat) % n
            bid = state.bids[s]
            if bid is not None:
                t[ob + r * b + bid] = 1.0
            t[ot + r * b + state.tricks_won[s]] = 1.0
            t[osc + r] = state.total_scores[s] / 100.0
        o = off["trick"]
        for s, c in state.trick:
            t[o + (s - seat) % n * NUM_CARDS + c] = 1.0
        t[off["trick_leader"] + (state.leader - seat) % n] = 1.0
        last = state.last_trick
        if last:
            o = off["last_trick"]
            for s, c in last:
                t[o + (s - seat) % n * NUM_CARDS + c] = 1.0
            t[off["last_trick_leader"] + (last[0][0] - seat) % n] = 1.0
        o, op = off["played"], off["played_by"]
        for s, c in zip(state.played_by, state.played):
            t[o + c] = 1.0
            t[op + (s - seat) % n * NUM_CARDS + c] = 1.0
        o = off["void"]
        for s, v in enumerate(state.voids):
            if v:
                r = o + (s - seat) % n * 4
                for suit in range(4):
                    if v >> suit & 1:
                        t[r + suit] = 1.0
        t[off["deal"] + min(state.deal_index, len(state.config.deals) - 1)] = 1.0
        t[off["hand_size"] + state.hand_size] = 1.0
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
