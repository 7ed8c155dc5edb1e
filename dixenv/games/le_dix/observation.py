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


#: The per-seat pieces: one row per relative seat, or one entry per relative seat.
_ROW_PIECES = ("bids", "tricks_won", "trick", "last_trick", "played_by", "void",
               "prev_bids", "prev_tricks_won", "prev_played_by", "prev_last_trick")
_SEAT_PIECES = ("dealer", "trick_leader", "last_trick_leader", "scores", "prev_last_trick_leader")
#: The pieces that change at almost every move: written after the gather, straight from the state.
_DIRECT_PIECES = ("hand", "trick", "trick_leader")


@lru_cache(maxsize=64)
def _gathers(config: LeDixConfig) -> tuple[int, int, tuple]:
    """The table of ``LeDixObserver.set_from`` for a config, and how each seat's observation is gathered from it.

    The table is the layout with seats absolute (seat s in row or entry s of each per-seat piece,
    as seat 0 sees them), then the dealer's discard and one 0. Returns its size, the offset of the
    discard, and per observing seat two index arrays: ``observation = table[gather]`` when that
    seat is not the dealer (own_discard gathers the 0) and when it is. The ``_DIRECT_PIECES``
    gather the 0. Shared by the config's observers: read only.
    """
    n = config.num_players
    layout = make_layout(config)
    size = layout.size
    discard_at = size
    zero_at = discard_at + NUM_CARDS
    gathers = []
    for seat in range(n):
        g = np.arange(size, dtype=np.intp)
        for p in layout.pieces:
            start = layout.slices[p.name].start
            if p.name in _DIRECT_PIECES:
                g[layout.slices[p.name]] = zero_at
            elif p.name in _ROW_PIECES or p.name in _SEAT_PIECES:
                width = p.size // n
                for s in range(n):
                    r = (s - seat) % n
                    g[start + r * width : start + (r + 1) * width] = np.arange(start + s * width, start + (s + 1) * width)
        not_dealer, dealer = g, g.copy()
        not_dealer[layout.slices["own_discard"]] = zero_at
        dealer[layout.slices["own_discard"]] = np.arange(discard_at, discard_at + NUM_CARDS)
        not_dealer.flags.writeable = dealer.flags.writeable = False
        gathers.append((not_dealer, dealer))
    return zero_at + 1, discard_at, tuple(gathers)


#: A value no state holds: a new table writes every group at its first update.
_UNSET = object()
_NO_ONES = np.zeros(0, dtype=np.intp)  # a group with no ones (read only)
_NO_ONES.flags.writeable = False


class _Table:
    """What ``LeDixObserver.set_from`` last wrote, seats absolute: a buffer, and per group the state values it holds and its ones.

    Invariant: each group's entries of ``buf`` are exactly what its kept values give (none for
    ``_UNSET``), and the groups write disjoint entries, so a group is rewritten alone by clearing
    its old ones and writing its new ones. Values are kept as copies and compared by value (but the
    immutable ``DealSummary``, by identity), so any state may follow any other.
    """

    __slots__ = ("buf", "w", "gather", "discard_at", "plays_at", "head", "head_ones", "bids", "bid_ones", "last",
                 "won", "last_ones", "played", "by", "voids", "void_ones", "scores", "prev", "prev_ones")

    def __init__(self, layout: Layout, config: LeDixConfig):
        size, self.discard_at, self.gather = _gathers(config)
        self.buf = np.zeros(size, dtype=np.float32)
        self.w = memoryview(self.buf)  # one entry written through it costs half a numpy scalar write
        # The played and played_by pieces, one after the other: one slice clears them.
        self.plays_at = slice(layout.slices["played"].start, layout.slices["played_by"].stop)
        assert layout.slices["played"].stop == layout.slices["played_by"].start
        self.clear()

    def clear(self) -> None:
        """All 0, keeping no values: when another deal or game comes, cheaper than clearing group by group."""
        self.buf.fill(0.0)
        self.head = self.bids = self.last = self.won = self.voids = self.scores = _UNSET
        self.head_ones, self.bid_ones, self.last_ones, self.void_ones = [], [], [], []
        self.played, self.by = [], []  # the plays written: copies of the state's played and played_by
        self.prev, self.prev_ones = None, _NO_ONES  # no previous deal: no ones


class LeDixObserver:
    """Fills a preallocated tensor with what a seat may know (``set_from``).

    ``set_from`` is incremental. It keeps a table of the last state it saw with seats absolute, so
    one table serves every seat (``_Table``); a call rewrites only the groups of pieces whose state
    values changed (a deal's new plays are appended), gathers the seat's observation from the
    table (``_gathers``), then writes the pieces that change at almost every move (the hand and the
    trick) from the state. ``set_from_full`` writes every piece from the state. For states with the
    engine's cards (0..51) and seats (0..n-1) both write the same tensor, bit for bit
    (tests/games/le_dix/test_observation_incremental.py).
    """

    def __init__(self, config: LeDixConfig):
        self.config = config
        self.layout = make_layout(config)
        self.tensor = self.layout.tensor
        self._off, self._b, self._last_deal, self._rows, self._seat_index, self._suits_of = _tables(config)
        self._n = config.num_players
        self._table: _Table | None = None  # made at the first set_from

    # A copy (``copy.deepcopy``, ``pickle``) starts with no table (a memoryview does not pickle,
    # and a shallow copy must not share it): its first ``set_from`` writes everything.
    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_table"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._table = None

    def set_from(self, state: LeDixState, seat: int) -> None:
        """Write what ``seat`` may know of ``state`` into ``self.tensor`` (rewriting only what changed since the last call)."""
        if type(seat) is not int or not 0 <= seat < self._n:
            self.set_from_full(state, seat)  # numpy ints, bools, bad seats: the plain path and its errors
        else:
            self.tensor[:] = self.observation(state, seat)

    def observation(self, state: LeDixState, seat: int) -> np.ndarray:
        """What ``seat`` may know of ``state`` as a new array: ``set_from`` then ``tensor.copy()``, in one pass (``tensor`` may keep its value)."""
        if type(seat) is not int or not 0 <= seat < self._n:
            self.set_from_full(state, seat)
            return self.tensor.copy()
        t = self._table or self._new_table()
        try:
            self._update_groups(t, state)
        except BaseException:
            self._table = None  # a half-updated table no longer matches the values it keeps
            raise
        # mode="clip" skips the bounds checks: every index is in range.
        obs = t.buf.take(t.gather[seat][1 if seat == state.dealer else 0], mode="clip")
        # The _DIRECT_PIECES, gathered as 0: the seat's hand, the current trick and its leader.
        o = self._off["hand"]
        for c in state.hands[seat]:
            obs[o + c] = 1.0
        row = self._rows["trick"][seat]
        for s, c in state.trick:
            obs[row[s] + c] = 1.0
        obs[self._seat_index["trick_leader"][seat][state.leader]] = 1.0
        return obs

    def _new_table(self) -> _Table:
        """A new, all-0 table (it keeps no values yet)."""
        self._table = _Table(self.layout, self.config)
        return self._table

    def _update_groups(self, t: _Table, state: LeDixState) -> None:
        """Bring table ``t`` up to ``state``: each group whose values changed clears its old ones and writes its new."""
        w, rows, at = t.w, self._rows, self._seat_index  # the rows and entries seat 0 sees: absolute
        head = (state.trump_card, state.trump_suit, state.dealer_took, state.dealer_discard, state.dealer,
                state.phase, state.deal_index, state.hand_size)
        if head != t.head:  # changes once a deal and at each change of phase
            if t.head is not _UNSET and (head[0] != t.head[0] or head[6] != t.head[6]):
                t.clear()  # another trump card or deal index: another deal, where most groups change
            t.head_ones = _swap(w, t.head_ones, self._head_ones(t, state))
            t.head = head
        bids = state.bids
        if bids != t.bids:
            t.bid_ones = _swap(w, t.bid_ones, [r + bid for r, bid in zip(rows["bids"][0], bids) if bid is not None])
            t.bids = bids[:]
        last, won = state.last_trick, state.tricks_won
        if last != t.last or won != t.won:  # both change when a trick ends
            row = rows["last_trick"][0]
            ones = [row[s] + c for s, c in last]
            if last:
                ones.append(at["last_trick_leader"][0][last[0][0]])
            ones.extend(map(add, rows["tricks_won"][0], won))
            t.last_ones = _swap(w, t.last_ones, ones)
            t.last, t.won = last[:], won[:]
        played, by = state.played, state.played_by
        if played != t.played or by != t.by:
            o, row, k = self._off["played"], rows["played_by"][0], len(t.played)
            if len(t.by) != k or played[:k] != t.played or by[:k] != t.by:
                # Not the plays written with more after them (another deal or state): clear them all.
                t.buf[t.plays_at] = 0.0
                t.played, t.by, k = [], [], 0
            # The new plays: their cards, and their (seat, card) pairs as ``zip`` pairs them in set_from_full.
            for c in played[k:]:
                w[o + c] = 1.0
            for s, c in zip(by[k:], played[k:]):
                w[row[s] + c] = 1.0
            t.played += played[k:]
            t.by += by[k:]
        voids = state.voids
        if voids != t.voids:
            row, suits_of, ones = rows["void"][0], self._suits_of, []
            for s, bits in enumerate(voids):
                if bits:
                    ones.extend(map(row[s].__add__, suits_of[bits]))
            t.void_ones = _swap(w, t.void_ones, ones)
            t.voids = voids[:]
        scores = state.total_scores
        if scores != t.scores:  # once a deal; written as set_from_full writes them
            t.buf[at["scores"][0]] = [score / 100.0 for score in scores]
            t.scores = scores[:]
        prev = state.prev
        if prev is not t.prev:  # a DealSummary is immutable: the same object, the same ones
            t.buf[t.prev_ones] = 0.0  # some 40 entries: one numpy assignment beats as many single writes
            t.prev_ones = _NO_ONES if prev is None else self._prev_indices(prev, 0)
            t.buf[t.prev_ones] = 1.0
            t.prev = prev

    def _head_ones(self, t: _Table, state: LeDixState) -> list[int]:
        """The table's ones set once a deal or phase: trump, the dealer's take and discard, dealer, phase, deal, hand size."""
        off = self._off
        ones = [off["trump_card"] + state.trump_card, off["trump_suit"] + state.trump_suit,
                self._seat_index["dealer"][0][state.dealer], off["deal"] + min(state.deal_index, self._last_deal),
                off["hand_size"] + state.hand_size]
        if state.dealer_took:
            ones.append(off["dealer_took_trump"])
        if state.dealer_discard is not None:  # gathered into own_discard for the dealer only
            ones.append(t.discard_at + state.dealer_discard)
        if state.phase < NUM_PHASES:
            ones.append(off["phase"] + state.phase)
        return ones

    def set_from_full(self, state: LeDixState, seat: int) -> None:
        """Write what ``seat`` may know of ``state`` into ``self.tensor``, every piece (no seat view is read or changed)."""
        # The indices of every 1 are gathered in one list (``map`` over the cards, row starts
        # precomputed per seat) and written by one fancy assignment; the scores are the only other values.
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
        if state.prev is not None:
            t[self._prev_indices(state.prev, seat)] = 1.0

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


def _swap(w: memoryview, old: list[int], new: list[int]) -> list[int]:
    """Clear a group's old ones, set its new ones to 1; return the new."""
    for i in old:
        w[i] = 0.0
    for i in new:
        w[i] = 1.0
    return new
