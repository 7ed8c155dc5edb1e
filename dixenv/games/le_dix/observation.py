"""What one le_dix seat may know, as a flat float32 vector with a documented layout.

Seats are relative to the observer: index 0 is the observer, 1 the player to their left, and so
on. Hidden: other hands, the dealer's discard (except to the dealer) and the undealt cards.
Public history that a player could remember (bids, tricks won, every card played this deal, the
last complete trick) is encoded, so agents need no memory.
"""

from __future__ import annotations

from dixenv.core.layout import Layout, Piece
from dixenv.games.le_dix.cards import NUM_CARDS
from dixenv.games.le_dix.config import LeDixConfig
from dixenv.games.le_dix.state import LeDixState

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
            Piece("played", (NUM_CARDS,), "1 for every card played this deal (complete tricks and the current one)"),
            Piece("scores", (n,), "per relative seat, points so far / 100"),
            Piece("deal", (len(config.deals),), "one-hot index of the current deal in the schedule"),
            Piece("hand_size", (b,), "one-hot cards dealt per player this deal"),
        ]
    )


class LeDixObserver:
    """Fills a preallocated tensor with what a seat may know (``set_from``)."""

    def __init__(self, config: LeDixConfig):
        self.config = config
        self.layout = make_layout(config)
        self.tensor = self.layout.tensor
        # Flat offsets: writing scalars into the flat tensor is the cheapest numpy access.
        self._off = {p.name: self.layout.slices[p.name].start for p in self.layout.pieces}
        self._b = config.max_bid + 1

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
        ob, ot = off["bids"], off["tricks_won"]
        for s in range(n):
            r = (s - seat) % n
            bid = state.bids[s]
            if bid is not None:
                t[ob + r * b + bid] = 1.0
            t[ot + r * b + state.tricks_won[s]] = 1.0
            t[off["scores"] + r] = state.total_scores[s] / 100.0
        o = off["trick"]
        for s, c in state.trick:
            t[o + ((s - seat) % n) * NUM_CARDS + c] = 1.0
        o = off["last_trick"]
        for s, c in state.last_trick:
            t[o + ((s - seat) % n) * NUM_CARDS + c] = 1.0
        t[off["trick_leader"] + (state.leader - seat) % n] = 1.0
        o = off["played"]
        for c in state.played:
            t[o + c] = 1.0
        t[off["deal"] + min(state.deal_index, len(state.config.deals) - 1)] = 1.0
        t[off["hand_size"] + state.hand_size] = 1.0
