"""The compiled batched le_dix engine (numba): N games as arrays, stepped by compiled loops.

It plays exactly the reference engine's games (``state.py``, ``observation.py``, which stay the
oracle): a slot whose generator row starts as ``np.random.default_rng(s)`` plays the game of
``LeDixState(config, np.random.default_rng(s))`` — the same deals from the same draws in the same
order (``integers(num_players)`` for the first dealer, then one ``permutation(52)`` per deal, and
the next game in a slot continues the row, as an env's unseeded ``reset()``), the same legal
actions, the same observation of every seat bit for bit, the same scores and end. Scenario decks
(``reset(options={"deck": ...})``) stay on the Python path. ``tests/compiled/test_le_dix_compiled.py``
checks it step for step against the reference for every option set.

Layout (Pgx / PufferLib style: state is plain arrays over games, and every kernel is a function
of (arrays, game index), so one compiled loop steps all games with no Python object per game; a
game is a few hundred bytes, copied, compared or pickled as arrays). ``LeDixBatch`` owns, for N
slots and P = num_players:

``ints``  (N, NUM_INTS) int32, one column per scalar of a game:
    ``DEALER``, ``DEAL`` (index in the schedule; ``len(deals)`` once over), ``PHASE`` (trump
    choice, discard, bidding, playing, game over), ``PLAYER`` (seat to act), ``LEADER`` (seat
    that leads the current trick), ``HAND_SIZE``, ``TRUMP`` (turned-up card), ``TOOK`` (-1 not
    decided, 0 left, 1 took), ``DISCARD_CARD`` (the dealer's face-down card, -1 none), ``TRICK_LEN``,
    ``LAST_LEADER`` (leader of the last complete trick, -1 none yet this deal), ``PREV_TRUMP`` and
    ``PREV_LAST_LEADER`` (the previous deal's trump card and final trick's leader; -1 before the
    first deal ends).
``seats`` (N, NUM_SEAT_FIELDS, P) int32, one row of P values per field:
    ``BID`` (-1 not bid yet), ``TRICKS`` (won this deal), ``SCORE`` (points so far), ``VOID``
    (bit s: showed no card of suit s), ``TRICK`` and ``LAST`` (the current / last complete
    trick's cards by play position; position i was played by seat (leader + i) % P), ``PREV_BID``,
    ``PREV_TRICKS``, ``PREV_LAST`` (the previous deal's bids, tricks and final trick).
``cards`` (N, NUM_CARD_FIELDS, P) int64 card sets as bitmasks (bit c = card id c, so iterating
    the bits upwards gives the sorted hand, i.e. the reference's sorted legal list):
    ``HAND``, ``PLAYED_BY`` (cards each seat played this deal; their union is ``played``),
    ``PREV_PLAYED_BY``.
``rng``   (N, 6) uint64, each slot's PCG64 generator (``dixenv.compiled.rng``), which deals that
    slot's later deals and games.

The undealt cards are not kept: nothing observable or legal depends on them. The observation
(``obs_size`` float32) and mask buffers are the caller's, written in place.

Per game the kernels are ``@njit(cache=True)`` functions of ``(arrays, g)``; one per-slot body,
``_run_slots``, does what its ``OP_*`` bits ask (deal, apply, forced moves, observe, mask, random
play) in a range of a list of slots, and two batched wrappers run it: ``_run_parallel``
(``@njit(parallel=True)``, ``prange`` over slots, one slot a call) and ``_run_serial`` (one
thread, one call for the whole list), chosen by the batch's ``parallel`` attribute. Games never
share memory and each draws only from its own generator row, so the results depend neither on the
number of threads nor on the wrapper.

Nothing in ``dixenv`` imports this module at import time (numba is the optional ``fast`` extra).
numba's cache does not notice edits to ``dixenv/compiled/rng.py``; delete this module's
``__pycache__/*.nbi|*.nbc`` after changing it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from dixenv.compiled import copy_rows, require_numba
from dixenv.compiled.single import APPLY, FORCED, MASK, NEW, OBSERVE, ArrayGameState

require_numba()

from numba import njit, prange  # noqa: E402

from dixenv.compiled.rng import integers, permutation, rng_rows  # noqa: E402
from dixenv.games.le_dix import actions as A  # noqa: E402
from dixenv.games.le_dix.cards import NUM_CARDS  # noqa: E402
from dixenv.games.le_dix.config import LeDixConfig, make_config  # noqa: E402
from dixenv.games.le_dix.observation import NUM_PHASES, make_layout  # noqa: E402
from dixenv.games.le_dix.state import (  # noqa: E402
    BIDDING, DISCARD, GAME_OVER, PLAYING, SCENARIO_KEYS, TRUMP_CHOICE, deal_points,
)

__all__ = ["LeDixArrayState", "LeDixBatch", "bench", "play_random", "warm_up"]

Arr = np.ndarray  # the kernels' array arguments (numba types them at the first call)

# --- array columns (module constants: numba freezes them into the kernels) ------------------------
(DEALER, DEAL, PHASE, PLAYER, LEADER, HAND_SIZE, TRUMP, TOOK, DISCARD_CARD, TRICK_LEN, LAST_LEADER, PREV_TRUMP,
 PREV_LAST_LEADER) = range(13)
NUM_INTS = 13
BID, TRICKS, SCORE, VOID, TRICK, LAST, PREV_BID, PREV_TRICKS, PREV_LAST = range(9)
NUM_SEAT_FIELDS = 9
HAND, PLAYED_BY, PREV_PLAYED_BY = range(3)
NUM_CARD_FIELDS = 3

# params: the config as numbers, so one compiled kernel serves every option set.
P_N, P_BIDW, P_NDEALS, P_HOOK, P_PLAY_BASE = range(5)
NUM_PARAMS = 5

#: The reference observation's pieces, in order; the offsets array follows this order.
PIECES = (
    "hand", "trump_card", "trump_suit", "dealer_took_trump", "own_discard", "dealer", "phase", "bids",
    "tricks_won", "trick", "trick_leader", "last_trick", "last_trick_leader", "played", "played_by", "void",
    "scores", "deal", "hand_size", "prev_trump_suit", "prev_bids", "prev_tricks_won", "prev_played_by",
    "prev_last_trick", "prev_last_trick_leader",
)
(O_HAND, O_TRUMP_CARD, O_TRUMP_SUIT, O_TOOK, O_OWN_DISCARD, O_DEALER, O_PHASE, O_BIDS, O_TRICKS_WON, O_TRICK,
 O_TRICK_LEADER, O_LAST_TRICK, O_LAST_TRICK_LEADER, O_PLAYED, O_PLAYED_BY, O_VOID, O_SCORES, O_DEAL, O_HAND_SIZE,
 O_PREV_TRUMP_SUIT, O_PREV_BIDS, O_PREV_TRICKS_WON, O_PREV_PLAYED_BY, O_PREV_LAST_TRICK,
 O_PREV_LAST_TRICK_LEADER) = range(len(PIECES))

_ONE = np.int64(1)
_BIT = [1 << c for c in range(NUM_CARDS)]  # card id -> its bit (a Python int: ``load_states``)
_SUIT_BITS = np.int64((1 << 13) - 1)
_NO_CARDS = np.int64(0)
#: Longest legal list: 52 plays at most, bids and discards fewer (a hand is at most 17 cards).
MAX_LEGAL = 64
_NUM_CARDS = NUM_CARDS
_RANKS = 13
_TAKE, _LEAVE, _DISCARD_BASE, _BID_BASE = A.TAKE_TRUMP, A.LEAVE_TRUMP, A.DISCARD_BASE, A.BID_BASE
_TRUMP_CHOICE, _DISCARD, _BIDDING, _PLAYING, _GAME_OVER = TRUMP_CHOICE, DISCARD, BIDDING, PLAYING, GAME_OVER


# --- per-game kernels ------------------------------------------------------------------------------
# Every kernel works on one game ``g`` of the arrays ``I`` (``LeDixBatch.ints``), ``S`` (``seats``) and
# ``C`` (``cards``), with the config as ``prm`` (params), ``deals`` (the schedule) and ``pts`` (points
# per bid and tricks won), and ``rng`` the generator rows that deal.
# The index of a lone set bit by de Bruijn multiplication: no branch per bit (a halving search
# mispredicts several times per card and cost about 4x as much, measured), and no numba internals.
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_SHIFT58 = np.uint64(58)
_DE_BRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DE_BRUIJN_INDEX[((0x03F79D71B4CB0A89 << _i) & (2**64 - 1)) >> 58] = _i
del _i


@njit(cache=True)
def _bit_index(low: np.int64) -> np.int64:
    """The index of the single set bit of ``low`` (a power of two below 2**63)."""
    return _DE_BRUIJN_INDEX[(np.uint64(low) * _DE_BRUIJN) >> _SHIFT58]


@njit(cache=True)
def _start_deal(I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, rng: Arr, g: int) -> None:
    """Deal ``deals[DEAL]`` cards each from one ``permutation(52)``, as ``LeDixState._start_deal``."""
    n = prm[P_N]
    h = deals[I[g, DEAL]]
    dealer = I[g, DEALER]
    order = np.empty(_NUM_CARDS, np.int64)
    permutation(rng, g, order)
    for s in range(n):
        C[g, HAND, s] = _NO_CARDS
        C[g, PLAYED_BY, s] = _NO_CARDS
        S[g, BID, s] = -1
        S[g, TRICKS, s] = 0
        S[g, VOID, s] = 0
        S[g, TRICK, s] = -1
        S[g, LAST, s] = -1
    # One card at a time from the dealer's left: with bitmask hands the order within a hand is moot.
    for i in range(n * h):
        s = (dealer + 1 + i) % n
        C[g, HAND, s] |= _ONE << order[i]
    I[g, HAND_SIZE] = h
    I[g, TRUMP] = order[n * h]
    I[g, TOOK] = -1
    I[g, DISCARD_CARD] = -1
    I[g, TRICK_LEN] = 0
    I[g, LAST_LEADER] = -1
    I[g, LEADER] = (dealer + 1) % n
    I[g, PHASE] = _TRUMP_CHOICE
    I[g, PLAYER] = dealer


@njit(cache=True)
def _new_game(I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, rng: Arr, g: int) -> None:
    """A new game in slot ``g``: the first dealer drawn, then the first deal (the reference's order)."""
    n = prm[P_N]
    I[g, DEALER] = integers(rng, g, n)
    I[g, DEAL] = 0
    I[g, PREV_TRUMP] = -1
    I[g, PREV_LAST_LEADER] = -1
    for s in range(n):
        S[g, SCORE, s] = 0
        S[g, PREV_BID, s] = -1
        S[g, PREV_TRICKS, s] = -1
        S[g, PREV_LAST, s] = -1
        C[g, PREV_PLAYED_BY, s] = _NO_CARDS
    _start_deal(I, S, C, prm, deals, rng, g)


@njit(cache=True)
def _legal(I: Arr, S: Arr, C: Arr, prm: Arr, g: int, buf: Arr) -> int:
    """Write the sorted legal action ids of the player to act into ``buf``; return how many (0 if over)."""
    phase = I[g, PHASE]
    k = 0
    if phase == _PLAYING:
        hand = C[g, HAND, I[g, PLAYER]]
        if I[g, TRICK_LEN] > 0:
            led = S[g, TRICK, 0] // _RANKS
            follow = hand & (_SUIT_BITS << (_RANKS * led))
            if follow != _NO_CARDS:
                hand = follow
        base = prm[P_PLAY_BASE]
        while hand != _NO_CARDS:
            low = hand & -hand
            buf[k] = base + _bit_index(low)
            k += 1
            hand ^= low
    elif phase == _BIDDING:
        h = I[g, HAND_SIZE]
        forbidden = -1
        if prm[P_HOOK] != 0 and I[g, PLAYER] == I[g, DEALER]:
            total = 0
            for s in range(prm[P_N]):
                if S[g, BID, s] >= 0:
                    total += S[g, BID, s]
            forbidden = h - total
        for b in range(h + 1):
            if b != forbidden:
                buf[k] = _BID_BASE + b
                k += 1
    elif phase == _TRUMP_CHOICE:
        buf[0] = _TAKE
        buf[1] = _LEAVE
        k = 2
    elif phase == _DISCARD:
        hand = C[g, HAND, I[g, DEALER]]
        while hand != _NO_CARDS:
            low = hand & -hand
            buf[k] = _DISCARD_BASE + _bit_index(low)
            k += 1
            hand ^= low
    return k


@njit(cache=True)
def _trick_winner(I: Arr, S: Arr, g: int, n: int) -> int:
    """The seat that wins the complete current trick: highest trump, else highest card of the led suit."""
    trump_suit = I[g, TRUMP] // _RANKS
    best_card = S[g, TRICK, 0]
    led = best_card // _RANKS
    best_pos = 0
    best_trump = best_card // _RANKS == trump_suit
    for i in range(1, n):
        card = S[g, TRICK, i]
        suit = card // _RANKS
        if suit == trump_suit:
            if not best_trump or card > best_card:
                best_pos, best_card, best_trump = i, card, True
        elif not best_trump and suit == led and card > best_card:
            best_pos, best_card = i, card
    return (I[g, LEADER] + best_pos) % n


@njit(cache=True)
def _end_deal(I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, pts: Arr, rng: Arr, g: int) -> None:
    """Score the deal, keep its summary (the previous-deal block) and deal the next, or end the game."""
    n = prm[P_N]
    for s in range(n):
        S[g, SCORE, s] += pts[S[g, BID, s], S[g, TRICKS, s]]
        S[g, PREV_BID, s] = S[g, BID, s]
        S[g, PREV_TRICKS, s] = S[g, TRICKS, s]
        S[g, PREV_LAST, s] = S[g, LAST, s]
        C[g, PREV_PLAYED_BY, s] = C[g, PLAYED_BY, s]
    I[g, PREV_TRUMP] = I[g, TRUMP]
    I[g, PREV_LAST_LEADER] = I[g, LAST_LEADER]
    I[g, DEAL] += 1
    if I[g, DEAL] == prm[P_NDEALS]:
        I[g, PHASE] = _GAME_OVER  # the last deal's table stays, as in the reference
        return
    I[g, DEALER] = (I[g, DEALER] + 1) % n
    _start_deal(I, S, C, prm, deals, rng, g)


@njit(cache=True)
def _play(I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, pts: Arr, rng: Arr, g: int, card: int) -> None:
    n = prm[P_N]
    seat = I[g, PLAYER]
    bit = _ONE << card
    C[g, HAND, seat] &= ~bit
    pos = I[g, TRICK_LEN]
    if pos > 0:
        led = S[g, TRICK, 0] // _RANKS
        if card // _RANKS != led:  # not following shows the seat holds none of the led suit
            S[g, VOID, seat] |= 1 << led
    S[g, TRICK, pos] = card
    C[g, PLAYED_BY, seat] |= bit
    if pos + 1 < n:
        I[g, TRICK_LEN] = pos + 1
        I[g, PLAYER] = (seat + 1) % n
        return
    winner = _trick_winner(I, S, g, n)
    S[g, TRICKS, winner] += 1
    for i in range(n):
        S[g, LAST, i] = S[g, TRICK, i]
        S[g, TRICK, i] = -1
    I[g, LAST_LEADER] = I[g, LEADER]
    I[g, TRICK_LEN] = 0
    I[g, LEADER] = winner
    I[g, PLAYER] = winner
    if C[g, HAND, winner] == _NO_CARDS:
        _end_deal(I, S, C, prm, deals, pts, rng, g)


@njit(cache=True)
def _apply(I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, pts: Arr, rng: Arr, g: int, action: int) -> None:
    """Play one legal action (the caller checked it against the mask) for the player to act."""
    phase = I[g, PHASE]
    n = prm[P_N]
    if phase == _PLAYING:
        _play(I, S, C, prm, deals, pts, rng, g, action - prm[P_PLAY_BASE])
    elif phase == _BIDDING:
        seat = I[g, PLAYER]
        S[g, BID, seat] = action - _BID_BASE
        if seat == I[g, DEALER]:  # the dealer bids last
            I[g, PHASE] = _PLAYING
            I[g, PLAYER] = I[g, LEADER]
        else:
            I[g, PLAYER] = (seat + 1) % n
    elif phase == _TRUMP_CHOICE:
        if action == _TAKE:
            I[g, TOOK] = 1
            C[g, HAND, I[g, DEALER]] |= _ONE << I[g, TRUMP]
            I[g, PHASE] = _DISCARD
        else:
            I[g, TOOK] = 0
            I[g, PHASE] = _BIDDING
            I[g, PLAYER] = (I[g, DEALER] + 1) % n
    elif phase == _DISCARD:
        card = action - _DISCARD_BASE
        C[g, HAND, I[g, DEALER]] &= ~(_ONE << card)
        I[g, DISCARD_CARD] = card
        I[g, PHASE] = _BIDDING
        I[g, PLAYER] = (I[g, DEALER] + 1) % n


@njit(cache=True)
def _play_forced(I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, pts: Arr, rng: Arr, g: int, buf: Arr) -> int:
    """Play every move that is the only legal one; return the legal count left in ``buf`` (0: over)."""
    while True:
        k = _legal(I, S, C, prm, g, buf)
        if k != 1:
            return k
        _apply(I, S, C, prm, deals, pts, rng, g, buf[0])


#: Byte -> its 8 bits as float32 0.0/1.0: a card set's 52 floats are written 8 at a time from it,
#: every float once, instead of zeroing the 6 KB row and then setting one float per card.
_BYTE_BITS = np.array([[(v >> i) & 1 for i in range(8)] for v in range(256)], dtype=np.float32)
_BYTE = np.int64(255)
_NIBBLE = np.int64(15)


@njit(cache=True, inline="always")  # a call per block cost 5x the block itself (measured)
def _put_cards(row: Arr, start: int, cards: np.int64) -> None:
    """``row[start : start + 52]`` = the bitmask ``cards`` as 0.0/1.0 (each card c at ``start + c``)."""
    # Unsigned indices and scalar reads of the table let LLVM write 8 floats at a time: a signed
    # index carries numba's negative-index wraparound, which kept every store scalar, and a row
    # view of the table costs an atomic reference count (measured: 70 against 250-370 ns for a
    # 4-player observation's 23 blocks).
    at = np.uint64(start)
    for byte in range(6):
        v = (cards >> np.int64(8 * byte)) & _BYTE
        for i in range(8):
            row[at + np.uint64(8 * byte + i)] = _BYTE_BITS[v, i]
    v = (cards >> np.int64(48)) & _NIBBLE
    for i in range(4):
        row[at + np.uint64(48 + i)] = _BYTE_BITS[v, i]


@njit(cache=True)
def _zero(row: Arr, offs: Arr, piece: int) -> None:
    """Zero one piece of the row (pieces are contiguous and in ``PIECES`` order)."""
    end = offs[piece + 1] if piece + 1 < offs.shape[0] else row.shape[0]
    row[offs[piece] : end] = 0.0


@njit(cache=True)
def _observe(I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, offs: Arr, g: int, seat: int, row: Arr) -> None:
    """Write what ``seat`` may know of game ``g`` into ``row``, as ``LeDixObserver.set_from``.

    Every float of the row is written: the card blocks from bitmasks (``_put_cards``), the small
    pieces zeroed and then set.
    """
    n = prm[P_N]
    b = prm[P_BIDW]
    for piece in (O_TRUMP_SUIT, O_TOOK, O_DEALER, O_PHASE, O_BIDS, O_TRICKS_WON, O_TRICK_LEADER, O_LAST_TRICK_LEADER,
                  O_VOID, O_SCORES, O_DEAL, O_HAND_SIZE, O_PREV_TRUMP_SUIT, O_PREV_BIDS, O_PREV_TRICKS_WON,
                  O_PREV_LAST_TRICK_LEADER):
        _zero(row, offs, piece)
    _put_cards(row, offs[O_HAND], C[g, HAND, seat])
    trump = I[g, TRUMP]
    _put_cards(row, offs[O_TRUMP_CARD], _ONE << trump)
    row[offs[O_TRUMP_SUIT] + trump // _RANKS] = 1.0
    if I[g, TOOK] == 1:
        row[offs[O_TOOK]] = 1.0
    dealer = I[g, DEALER]
    discard = _NO_CARDS
    if seat == dealer and I[g, DISCARD_CARD] >= 0:
        discard = _ONE << I[g, DISCARD_CARD]
    _put_cards(row, offs[O_OWN_DISCARD], discard)
    row[offs[O_DEALER] + (dealer - seat) % n] = 1.0
    phase = I[g, PHASE]
    if phase < NUM_PHASES:
        row[offs[O_PHASE] + phase] = 1.0
    played = _NO_CARDS
    for s in range(n):
        r = (s - seat) % n
        bid = S[g, BID, s]
        if bid >= 0:
            row[offs[O_BIDS] + r * b + bid] = 1.0
        row[offs[O_TRICKS_WON] + r * b + S[g, TRICKS, s]] = 1.0
        mine = C[g, PLAYED_BY, s]
        played |= mine
        _put_cards(row, offs[O_PLAYED_BY] + r * _NUM_CARDS, mine)
        voids = S[g, VOID, s]
        for suit in range(4):
            if voids >> suit & 1:
                row[offs[O_VOID] + r * 4 + suit] = 1.0
        # Python divides the int by 100.0 in float64 and numpy rounds it to float32: the same here.
        row[offs[O_SCORES] + r] = S[g, SCORE, s] / 100.0
    # Trick blocks: one card (or none) per relative seat; position i was played by seat leader + i.
    leader = I[g, LEADER]
    trick_len = I[g, TRICK_LEN]
    for r in range(n):
        i = (seat + r - leader) % n
        _put_cards(row, offs[O_TRICK] + r * _NUM_CARDS, _ONE << S[g, TRICK, i] if i < trick_len else _NO_CARDS)
    row[offs[O_TRICK_LEADER] + (leader - seat) % n] = 1.0
    last = I[g, LAST_LEADER]
    for r in range(n):
        _put_cards(row, offs[O_LAST_TRICK] + r * _NUM_CARDS,
                   _ONE << S[g, LAST, (seat + r - last) % n] if last >= 0 else _NO_CARDS)
    if last >= 0:
        row[offs[O_LAST_TRICK_LEADER] + (last - seat) % n] = 1.0
    _put_cards(row, offs[O_PLAYED], played)
    row[offs[O_DEAL] + min(I[g, DEAL], prm[P_NDEALS] - 1)] = 1.0
    row[offs[O_HAND_SIZE] + I[g, HAND_SIZE]] = 1.0
    prev = I[g, PREV_TRUMP] >= 0
    last = I[g, PREV_LAST_LEADER]
    for s in range(n):
        r = (s - seat) % n
        _put_cards(row, offs[O_PREV_PLAYED_BY] + r * _NUM_CARDS, C[g, PREV_PLAYED_BY, s] if prev else _NO_CARDS)
        _put_cards(row, offs[O_PREV_LAST_TRICK] + r * _NUM_CARDS,
                   _ONE << S[g, PREV_LAST, (seat + r - last) % n] if prev else _NO_CARDS)
    if prev:
        row[offs[O_PREV_TRUMP_SUIT] + I[g, PREV_TRUMP] // _RANKS] = 1.0
        for s in range(n):
            r = (s - seat) % n
            row[offs[O_PREV_BIDS] + r * b + S[g, PREV_BID, s]] = 1.0
            row[offs[O_PREV_TRICKS_WON] + r * b + S[g, PREV_TRICKS, s]] = 1.0
        row[offs[O_PREV_LAST_TRICK_LEADER] + (last - seat) % n] = 1.0


@njit(cache=True)
def _write_mask(buf: Arr, k: int, mask_row: Arr) -> None:
    mask_row[:] = 0
    for j in range(k):
        mask_row[buf[j]] = 1


# --- the batched wrapper (prange over slots) -------------------------------------------------------
# One parallel entry point whose ``ops`` bits say what to do per slot, in this order. numba compiles
# every parallel function with all the kernels it calls linked in and optimised again, so seven
# separate wrappers cost several times the cold compile of one (measured: 45 s against ~15 s); one
# pass doing several steps also launches the threads once (a vector env's step: apply, forced
# moves, observation and mask in one call).
OP_NEW = NEW  #: deal a new game (first dealer, first deal)
#: With ``OP_APPLY``, an action that deals a new game in its slot (then the other bits go on, as after
#: a move) and writes the new game's scores to ``finished[g * P + p]`` (``versus_step``'s ``deal_scores``).
NEW_GAME = -2
OP_APPLY = APPLY  #: apply ``actions[k]`` (skipped when negative or the game is over)
OP_FORCED = FORCED  #: play the moves that are the only legal one
OP_OBSERVE = OBSERVE  #: the observation of ``seats[g]`` (-1: the player to act; zeros once over) into ``obs[g]``
OP_MASK = MASK  #: the legal mask of the player to act into ``masks[g]``
OP_RANDOM = 32  #: ``steps`` random decisions (``play_random``); the other bits are ignored
#: after the apply and forced moves: random opponents move until the learner's turn or the end
#: (``versus_step``); the mask is then zeros where it is not the learner's turn
OP_OPPONENTS = 64


@njit(cache=True)
def _random_decisions(
    I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, pts: Arr, offs: Arr, rng: Arr, g: int, buf: Arr, rng_moves: Arr,
    steps: int, obs: Arr, masks: Arr, finished: Arr
) -> None:
    """``steps`` random decisions in slot ``g``, a new game whenever one ends (``play_random``)."""
    k = _legal(I, S, C, prm, g, buf)
    for _ in range(steps):
        if k == 0:  # a slot that was over (or never dealt) starts a game
            _new_game(I, S, C, prm, deals, rng, g)
            k = _play_forced(I, S, C, prm, deals, pts, rng, g, buf)
        # RandomAgent: legal[rng.integers(len(legal))] over the sorted legal ids
        _apply(I, S, C, prm, deals, pts, rng, g, buf[integers(rng_moves, g, k)])
        k = _play_forced(I, S, C, prm, deals, pts, rng, g, buf)
        if k == 0:
            finished[g] += 1
            _new_game(I, S, C, prm, deals, rng, g)
            k = _play_forced(I, S, C, prm, deals, pts, rng, g, buf)
        _observe(I, S, C, prm, deals, offs, g, I[g, PLAYER], obs[g])
        _write_mask(buf, k, masks[g])


@njit(cache=True)
def _random_opponents(
    I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, pts: Arr, rng: Arr, g: int, buf: Arr, seat_rows: Arr, rng_moves: Arr,
    forced: bool
) -> None:
    """Random opponents move in game ``g`` until the learner's turn (its ``seat_rows`` entry is -1) or
    the end; seat s draws from row ``g * k + seat_rows[s]`` of ``rng_moves`` (k opponents) as
    ``RandomAgent`` draws, and the forced moves after each move are played when ``forced``."""
    k_opp = 0
    for s in range(seat_rows.shape[0]):
        k_opp += seat_rows[s] >= 0
    while True:
        k = _legal(I, S, C, prm, g, buf)
        if k == 0:
            return
        row = seat_rows[I[g, PLAYER]]
        if row < 0:
            return
        _apply(I, S, C, prm, deals, pts, rng, g, buf[integers(rng_moves, g * k_opp + row, k)])
        if forced:
            _play_forced(I, S, C, prm, deals, pts, rng, g, buf)


@njit(cache=True)
def _run_slots(
    ops: int, I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, pts: Arr, offs: Arr, rng: Arr, slots: Arr,
    actions: Arr, seats: Arr, obs: Arr, masks: Arr, rng_moves: Arr, steps: int, finished: Arr, seat_rows: Arr,
    lo: int, hi: int
) -> None:
    """What ``ops`` asks, in the games of ``slots[lo:hi]`` (the body of both batched wrappers below).

    The loop over slots is inside, as in dix's (``dixenv.games.dix.compiled._run_slots``): outside a
    parallel loop each kernel call counts a reference to each of its arrays with atomic operations.
    """
    buf = np.empty(MAX_LEGAL, np.int64)
    for k in range(lo, hi):
        g = slots[k]
        if ops & OP_RANDOM:
            _random_decisions(I, S, C, prm, deals, pts, offs, rng, g, buf, rng_moves, steps, obs, masks, finished)
            continue
        if ops & OP_NEW:
            _new_game(I, S, C, prm, deals, rng, g)
        if ops & OP_APPLY and actions[k] == NEW_GAME:
            _new_game(I, S, C, prm, deals, rng, g)
            n = prm[P_N]
            for p in range(n):
                finished[g * n + p] = S[g, SCORE, p]
        if ops & OP_APPLY and actions[k] >= 0 and I[g, PHASE] != _GAME_OVER:
            _apply(I, S, C, prm, deals, pts, rng, g, actions[k])
        if ops & OP_FORCED:
            _play_forced(I, S, C, prm, deals, pts, rng, g, buf)
        if ops & OP_OPPONENTS:
            _random_opponents(I, S, C, prm, deals, pts, rng, g, buf, seat_rows, rng_moves, (ops & OP_FORCED) != 0)
        if ops & OP_OBSERVE:
            seat = seats[g]
            if seat < 0:
                seat = -1 if I[g, PHASE] == _GAME_OVER else I[g, PLAYER]
            if seat < 0:
                obs[g, :] = 0.0
            else:
                _observe(I, S, C, prm, deals, offs, g, seat, obs[g])
        if ops & OP_MASK:
            if ops & OP_OPPONENTS and seat_rows[I[g, PLAYER]] >= 0:
                masks[g, :] = 0
            else:
                _write_mask(buf, _legal(I, S, C, prm, g, buf), masks[g])


# Two wrappers over the same body: threads over slots (``prange``), and one thread. The
# serial one is for small calls between a Python policy's batches: numba's OpenMP threads and a
# policy's BLAS or torch threads spin-wait against each other on a small machine (measured on 2
# cores: 1.4 ms a call instead of 17 us, and the policy's matmul 20x slower).
@njit(parallel=True, cache=True)
def _run_parallel(
    ops: int, I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, pts: Arr, offs: Arr, rng: Arr, slots: Arr,
    actions: Arr, seats: Arr, obs: Arr, masks: Arr, rng_moves: Arr, steps: int, finished: Arr, seat_rows: Arr
) -> None:
    for k in prange(slots.shape[0]):
        _run_slots(ops, I, S, C, prm, deals, pts, offs, rng, slots, actions, seats, obs, masks, rng_moves, steps,
                   finished, seat_rows, k, k + 1)


@njit(cache=True)
def _run_serial(
    ops: int, I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, pts: Arr, offs: Arr, rng: Arr, slots: Arr,
    actions: Arr, seats: Arr, obs: Arr, masks: Arr, rng_moves: Arr, steps: int, finished: Arr, seat_rows: Arr
) -> None:
    _run_slots(ops, I, S, C, prm, deals, pts, offs, rng, slots, actions, seats, obs, masks, rng_moves, steps,
               finished, seat_rows, 0, slots.shape[0])


# --- the Python face ------------------------------------------------------------------------------
def _tables(config: LeDixConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The config as kernel inputs: params, the deal schedule, the points table, observation offsets.

    The points table is ``deal_points`` evaluated for every (bid, tricks), so a scoring added to the
    reference is mirrored without a second copy of the rule. The layout is checked piece by piece
    against the one this module was written for: a changed reference observation must fail here,
    not drift silently.
    """
    n, b, nd = config.num_players, config.max_bid + 1, len(config.deals)
    layout = make_layout(config)
    expected = {
        "hand": (NUM_CARDS,), "trump_card": (NUM_CARDS,), "trump_suit": (4,), "dealer_took_trump": (1,),
        "own_discard": (NUM_CARDS,), "dealer": (n,), "phase": (NUM_PHASES,), "bids": (n, b), "tricks_won": (n, b),
        "trick": (n, NUM_CARDS), "trick_leader": (n,), "last_trick": (n, NUM_CARDS), "last_trick_leader": (n,),
        "played": (NUM_CARDS,), "played_by": (n, NUM_CARDS), "void": (n, 4), "scores": (n,), "deal": (nd,),
        "hand_size": (b,), "prev_trump_suit": (4,), "prev_bids": (n, b), "prev_tricks_won": (n, b),
        "prev_played_by": (n, NUM_CARDS), "prev_last_trick": (n, NUM_CARDS), "prev_last_trick_leader": (n,),
    }
    got = [(p.name, tuple(p.shape)) for p in layout.pieces]
    if got != [(name, expected[name]) for name in PIECES]:
        raise RuntimeError(f"the le_dix observation layout changed; update dixenv/games/le_dix/compiled.py ({got})")
    offs = np.array([layout.slices[name].start for name in PIECES], dtype=np.int64)
    prm = np.zeros(NUM_PARAMS, dtype=np.int64)
    prm[P_N], prm[P_BIDW], prm[P_NDEALS] = n, b, nd
    prm[P_HOOK], prm[P_PLAY_BASE] = int(config.hook), A.play_base(config.max_bid)
    deals = np.array(config.deals, dtype=np.int64)
    pts = np.array([[deal_points(bid, won, config.scoring) for won in range(b)] for bid in range(b)], dtype=np.int64)
    return prm, deals, pts, offs, layout.size


class LeDixBatch:
    """N le_dix games as arrays (see the module docstring), stepped by compiled kernels.

    Slot ``g``'s game is dealt from row ``g`` of ``rng`` (its own PCG64 generator). Deal games with
    ``new_games`` before anything else (fresh slots are over). Actions are not checked: the caller
    takes them from ``masks``. Slot lists must not repeat a slot.
    """

    NEW_GAME = NEW_GAME  #: the action that deals a new game (``versus_step``)

    def __init__(self, config: LeDixConfig, n: int):
        if not isinstance(config, LeDixConfig):
            raise TypeError(f"config must be a LeDixConfig (le_dix.config.make_config), not {type(config).__name__}")
        if int(n) < 1:
            raise ValueError(f"a batch needs at least one slot, got n={n!r}")
        self.config = config
        self.n = n = int(n)
        self.num_players = p = config.num_players
        self._prm, self._deals, self._pts, self._offs, self.obs_size = _tables(config)
        self.num_actions = A.num_actions(config.max_bid)
        self.ints = np.zeros((n, NUM_INTS), dtype=np.int32)
        self.seats = np.zeros((n, NUM_SEAT_FIELDS, p), dtype=np.int32)
        self.cards = np.zeros((n, NUM_CARD_FIELDS, p), dtype=np.int64)
        self.ints[:, PHASE] = GAME_OVER
        # Unseeded until ``new_games`` gets rows, as an env's generator before its first seeded reset.
        self.rng = rng_rows([np.random.default_rng() for _ in range(n)])
        self.all_slots = np.arange(n, dtype=np.int64)
        #: Threads over slots (True) or one thread (False: when a Python policy runs between calls).
        self.parallel = True
        self._none_int = np.zeros(0, dtype=np.int64)
        self._none_obs = np.zeros((0, self.obs_size), dtype=np.float32)
        self._none_mask = np.zeros((0, self.num_actions), dtype=np.int8)
        self._none_rng = np.zeros((0, 6), dtype=np.uint64)

    # --- helpers -----------------------------------------------------------------------------
    @property
    def bytes_per_slot(self) -> int:
        """State bytes per game slot (the arrays and the generator row; not the caller's buffers)."""
        return (self.ints.nbytes + self.seats.nbytes + self.cards.nbytes + self.rng.nbytes) // self.n

    def _slots(self, slots: Any) -> np.ndarray:
        slots = np.ascontiguousarray(slots, dtype=np.int64).reshape(-1)
        if slots.size and (slots.min() < 0 or slots.max() >= self.n):
            raise ValueError(f"slots must be in 0..{self.n - 1}")
        # A repeated slot would be stepped by two threads at once: results would depend on timing.
        if slots.size > 1 and np.bincount(slots, minlength=self.n).max() > 1:  # cheaper than np.unique
            raise ValueError("slots must not repeat a slot")
        return slots

    def _out(self, out: np.ndarray | None, width: int, dtype: Any) -> np.ndarray:
        if out is None:
            return np.empty((self.n, width), dtype=dtype)
        if out.shape != (self.n, width) or out.dtype != dtype or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous {np.dtype(dtype).name} array of shape {(self.n, width)}")
        return out

    def _run(self, ops: int, slots: np.ndarray, actions: np.ndarray | None = None, seats: np.ndarray | None = None,
             obs: np.ndarray | None = None, masks: np.ndarray | None = None, rng: np.ndarray | None = None,
             rng_moves: np.ndarray | None = None, steps: int = 0, finished: np.ndarray | None = None,
             seat_rows: np.ndarray | None = None) -> None:
        """One call of the compiled wrapper; what ``ops`` does not use gets a typed placeholder
        (the same dtypes and ranks every time, so one compiled signature serves every call)."""
        run = _run_parallel if self.parallel else _run_serial
        run(int(ops), self.ints, self.seats, self.cards, self._prm, self._deals, self._pts, self._offs,
             self.rng if rng is None else rng, slots,
             self._none_int if actions is None else actions, self._none_int if seats is None else seats,
             self._none_obs if obs is None else obs, self._none_mask if masks is None else masks,
             self._none_rng if rng_moves is None else rng_moves, int(steps),
             self._none_int if finished is None else finished, self._none_int if seat_rows is None else seat_rows)

    def _seats(self, seats: Any) -> np.ndarray:
        seats = np.ascontiguousarray(np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.n,)))
        if seats.min() < -1 or seats.max() >= self.num_players:
            raise ValueError(f"seats must be -1 (the player to act) or 0..{self.num_players - 1}")
        return seats

    def _actions(self, actions: Any, slots: np.ndarray) -> np.ndarray:
        actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
        if actions.shape != slots.shape:
            raise ValueError(f"{actions.size} actions for {slots.size} slots")
        return actions

    # --- game flow ---------------------------------------------------------------------------
    def new_games(self, slots: Any, rng: np.ndarray | None = None) -> None:
        """Deal a new game in each of ``slots``.

        ``rng`` None continues each slot's own generator (an env's ``reset()`` without a seed);
        else its rows are copied in first: row g for slot g when it has N rows (``seed_rows(range(s,
        s + N))`` makes slot i the reference game seeded s + i), or row i for ``slots[i]``. Forced
        moves are not played: call ``play_forced`` as an env's reset does.
        """
        slots = self._slots(slots)
        if rng is not None:
            rng = np.asarray(rng)
            if rng.dtype != np.uint64 or rng.ndim != 2 or rng.shape[1] != self.rng.shape[1]:
                raise ValueError("rng must be an (N, 6) uint64 array of generator rows (dixenv.compiled.rng)")
            if rng.shape[0] == self.n:
                self.rng[slots] = rng[slots]
            elif rng.shape[0] == slots.size:
                self.rng[slots] = rng
            else:
                raise ValueError(f"rng has {rng.shape[0]} rows; it needs one per slot ({self.n}) "
                                 f"or one per slot listed ({slots.size})")
        self._run(OP_NEW, slots)

    def load_states(self, slots: Any, states: Sequence[Any]) -> None:
        """Write reference ``LeDixState``s into slots: ``states[i]`` into ``slots[i]``, its generator of
        later deals (``state.rng``, PCG64) into the slot's ``rng`` row.

        The slot then plays on exactly as the state would (the same masks, observations, scores
        and later deals). ``sample_hidden`` worlds load like any state: this is how a search rolls
        out its worlds on the compiled engine (``dixenv.agents.search.compiled``). Plain Python, not
        compiled: a state is Python lists, and walking them costs about 12 µs a state (measured, 4
        players), a fifth of drawing a ``sample_hidden`` world; the columns are gathered as lists and
        assigned to the arrays once per call. ``ValueError`` for a state of another config.
        """
        slots = self._slots(slots)
        states = list(states)
        if len(states) != slots.size:
            raise ValueError(f"{len(states)} states for {slots.size} slots")
        if not states:
            return
        p = self.num_players
        none = [-1] * p
        ints, seats, cards, gens = [], [], [], []
        for i, state in enumerate(states):
            self._check_state(i, state)
            trick, last, prev = state.trick, state.last_trick, state.prev
            played_by = [0] * p
            for s, c in zip(state.played_by, state.played):
                played_by[s] |= _BIT[c]
            prev_played_by = [0] * p
            if prev is None:
                prev_trump = prev_leader = -1
                prev_bids = prev_tricks = prev_last = none
            else:
                final = prev.final_trick()
                prev_trump, prev_leader = prev.trump_card, final[0][0]
                prev_bids, prev_tricks, prev_last = prev.bids, prev.tricks_won, [c for _, c in final]
                for s, c in prev.plays:
                    prev_played_by[s] |= _BIT[c]
            took = -1 if state.dealer_took is None else int(state.dealer_took)
            discard = -1 if state.dealer_discard is None else state.dealer_discard
            ints.append((
                state.dealer, state.deal_index, state.phase, state.player, state.leader, state.hand_size,
                state.trump_card, took, discard, len(trick), last[0][0] if last else -1, prev_trump, prev_leader,
            ))
            seats.append((
                [-1 if b is None else b for b in state.bids], state.tricks_won, state.total_scores, state.voids,
                [c for _, c in trick] + none[len(trick):], [c for _, c in last] if last else none, prev_bids,
                prev_tricks, prev_last,
            ))
            cards.append(([sum(map(_BIT.__getitem__, hand)) for hand in state.hands], played_by, prev_played_by))
            gens.append(state.rng)
        self.ints[slots] = np.array(ints, dtype=np.int32)
        self.seats[slots] = np.array(seats, dtype=np.int32)
        self.cards[slots] = np.array(cards, dtype=np.int64)
        self.rng[slots] = rng_rows(gens)

    def _check_state(self, i: int, state: Any) -> None:
        """``ValueError`` unless ``state`` is a le_dix state of this batch's config (``load_states``)."""
        from dixenv.games.le_dix.state import LeDixState

        if not isinstance(state, LeDixState):
            raise ValueError(f"states[{i}] is a {type(state).__name__}, not a LeDixState (dixenv.games.le_dix.state)")
        if state.num_seats != self.num_players:
            raise ValueError(f"states[{i}] has {state.num_seats} players; this batch plays {self.num_players}")
        if state.config != self.config:
            raise ValueError(f"states[{i}] has config {state.config}; this batch plays {self.config}")
        if state.phase not in (TRUMP_CHOICE, DISCARD, BIDDING, PLAYING, GAME_OVER):
            raise ValueError(f"states[{i}] has phase {state.phase!r}, not a le_dix phase")

    def copy_slots(self, src: Any, dst: Any) -> None:
        """Copy slot ``src[i]``'s game (its generator row too) into slot ``dst[i]``; ``src`` may be one
        slot for every ``dst`` (one loaded world rolled out many times). ``dst`` must not repeat."""
        copy_rows((self.ints, self.seats, self.cards, self.rng), self.n, src, self._slots(dst))

    def apply(self, actions: Any) -> None:
        """Apply ``actions[g]`` in every slot g (a negative action leaves the slot as it is)."""
        self._run(OP_APPLY, self.all_slots, self._actions(actions, self.all_slots))

    def apply_slots(self, slots: Any, actions: Any) -> None:
        """Apply ``actions[i]`` in slot ``slots[i]``; each must be legal (from ``masks``)."""
        slots = self._slots(slots)
        self._run(OP_APPLY, slots, self._actions(actions, slots))

    def play_forced(self, slots: Any | None = None) -> None:
        """Play every move that is the only legal one (``dixenv.core.aec.play_forced``) in ``slots`` (all: None)."""
        self._run(OP_FORCED, self.all_slots if slots is None else self._slots(slots))

    def step(self, actions: Any, seats: Any = -1, obs: np.ndarray | None = None,
             masks: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``apply``, ``play_forced``, ``observe(seats)`` and ``masks`` in one compiled pass; return (obs, masks)."""
        obs = self._out(obs, self.obs_size, np.float32)
        masks = self._out(masks, self.num_actions, np.int8)
        self._run(OP_APPLY | OP_FORCED | OP_OBSERVE | OP_MASK, self.all_slots, self._actions(actions, self.all_slots),
                  self._seats(seats), obs, masks)
        return obs, masks

    def versus_step(self, actions: Any, learner: int, seat_rows: np.ndarray, opponent_rows: np.ndarray, forced: bool,
                    obs: np.ndarray, masks: np.ndarray, deal_scores: np.ndarray | None = None) -> None:
        """A single-agent env's step in every slot, in one compiled pass (``dixenv.compiled.vector``).

        ``actions[g]`` for the player to act (negative: none; ``NEW_GAME``: deal a new game in the
        slot first, its scores at the deal into ``deal_scores[g * num_players + seat]``, an
        (N * num_players,) int64 array), the forced moves when ``forced``, then random opponents until ``learner``'s turn or the end: seat s of slot g draws from row
        ``g * k + seat_rows[s]`` of ``opponent_rows`` (k opponents; ``seat_rows[learner]`` is -1), as
        ``RandomAgent``. Then every slot's observation as ``learner`` into ``obs`` and the legal mask
        into ``masks``, zeros where it is not the learner's turn.
        """
        seat_rows = np.ascontiguousarray(seat_rows, dtype=np.int64)
        k = int((seat_rows >= 0).sum())
        if seat_rows.shape != (self.num_players,) or seat_rows[learner] != -1:
            raise ValueError(f"seat_rows must give each of the {self.num_players} seats its opponent row, -1 for the learner")
        if opponent_rows.dtype != np.uint64 or opponent_rows.shape != (self.n * k, 6):
            raise ValueError(f"opponent_rows must be a ({self.n * k}, 6) uint64 array of generator rows")
        if deal_scores is None:
            deal_scores = np.zeros(self.n * self.num_players, dtype=np.int64)
        elif deal_scores.dtype != np.int64 or deal_scores.shape != (self.n * self.num_players,) or not deal_scores.flags.c_contiguous:
            raise ValueError(f"deal_scores must be a C-contiguous int64 array of shape ({self.n * self.num_players},)")
        ops = OP_APPLY | OP_OPPONENTS | OP_OBSERVE | OP_MASK | (OP_FORCED if forced else 0)
        self._run(ops, self.all_slots, self._actions(actions, self.all_slots),
                  np.full(self.n, learner, dtype=np.int64), self._out(obs, self.obs_size, np.float32),
                  self._out(masks, self.num_actions, np.int8), rng_moves=opponent_rows, finished=deal_scores,
                  seat_rows=seat_rows)

    # --- views -------------------------------------------------------------------------------
    def masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N, num_actions) int8 legal mask of the player to act (zeros once a game is over)."""
        out = self._out(out, self.num_actions, np.int8)
        self._run(OP_MASK, self.all_slots, masks=out)
        return out

    def observe(self, seats: Any, out: np.ndarray | None = None) -> np.ndarray:
        """(N, obs_size) float32: slot g as seat ``seats[g]`` sees it (``LeDixObserver.set_from``).

        ``seats`` is one seat for every slot or one per slot; -1 means the player to act (a zero
        row once the game is over).
        """
        out = self._out(out, self.obs_size, np.float32)
        self._run(OP_OBSERVE, self.all_slots, seats=self._seats(seats), obs=out)
        return out

    # Column reads: one numpy expression each; a compiled loop would add only compile time.
    def current_players(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N,) int64 seat to act, -1 where the game is over."""
        out = np.empty(self.n, dtype=np.int64) if out is None else out
        np.copyto(out, np.where(self.ints[:, PHASE] == GAME_OVER, -1, self.ints[:, PLAYER]))
        return out

    def scores(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N, num_players) points so far per seat (int64 unless ``out`` says otherwise)."""
        out = np.empty((self.n, self.num_players), dtype=np.int64) if out is None else out
        np.copyto(out, self.seats[:, SCORE, :], casting="unsafe")
        return out

    def terminal(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N,) bool, True where the game is over."""
        out = np.empty(self.n, dtype=bool) if out is None else out
        np.equal(self.ints[:, PHASE], GAME_OVER, out=out)
        return out


# --- one game (``le_dix_v0.env(engine="compiled")``) ---------------------------------------------
@njit(cache=True)
def _one(ops: int, I: Arr, S: Arr, C: Arr, prm: Arr, deals: Arr, pts: Arr, offs: Arr, rng: Arr, action: int, seat: int,
         obs: Arr, mask: Arr) -> int:
    """What ``ops`` asks in game 0, as ``_run_slots`` does per slot, with the observation and mask as
    1-d rows: fewer arguments than the batched wrappers, as a single env calls it once a move and
    numba's dispatch costs about 0.15 us an array (measured: 13 arguments 1.8 us, 18 about 3.5).
    Returns the seat to act, -1 once the game is over."""
    buf = np.empty(MAX_LEGAL, np.int64)
    if ops & OP_NEW:
        _new_game(I, S, C, prm, deals, rng, 0)
    if ops & OP_APPLY:
        _apply(I, S, C, prm, deals, pts, rng, 0, action)
    if ops & OP_FORCED:
        _play_forced(I, S, C, prm, deals, pts, rng, 0, buf)
    if ops & OP_OBSERVE:
        if seat < 0 and I[0, PHASE] != _GAME_OVER:
            seat = I[0, PLAYER]
        if seat < 0:
            obs[:] = 0.0
        else:
            _observe(I, S, C, prm, deals, offs, 0, seat, obs)
    if ops & OP_MASK:
        _write_mask(buf, _legal(I, S, C, prm, 0, buf), mask)
    return -1 if I[0, PHASE] == _GAME_OVER else I[0, PLAYER]


class LeDixArrayState(ArrayGameState):
    """One le_dix game on the compiled kernels (``dixenv.compiled.single``), the state of ``le_dix_v0.env(engine="compiled")``.

    The game is the arrays of a one-slot batch (``ints``, ``seats``, ``cards``, ``rng``; see the
    module docstring); a move is one call of ``_one``. Seeded alike, it plays the game of
    ``LeDixState`` (tests/compiled/test_single_compiled.py compares every step).
    """

    SCENARIO_KEYS = SCENARIO_KEYS
    game_name = "le_dix"

    def __init__(self, config: LeDixConfig):
        batch = LeDixBatch(config, 1)  # its arrays and tables; its methods are not used
        self.config, self.num_seats, self.num_actions = config, config.num_players, batch.num_actions
        self.ints, self.seats, self.cards, self.rng = batch.ints, batch.seats, batch.cards, batch.rng
        self._prm, self._deals, self._pts, self._offs = batch._prm, batch._deals, batch._pts, batch._offs
        self.obs = np.zeros(batch.obs_size, dtype=np.float32)
        self.mask = np.zeros(self.num_actions, dtype=np.int8)
        self._player = -1  # the seat to act (-1: over) as the last call returned it: one Python int to read

    def _call(self, ops: int, action: int = -1, seat: int = -1, obs: np.ndarray | None = None) -> None:
        self._player = _one(ops, self.ints, self.seats, self.cards, self._prm, self._deals, self._pts, self._offs, self.rng,
                            action, seat, self.obs if obs is None else obs, self.mask)

    def _action_name(self, action: int) -> str:
        return A.action_to_string(self.config.max_bid, action)

    def is_terminal(self) -> bool:
        """True after the last deal is scored."""
        return self._player < 0

    def is_truncated(self) -> bool:
        """le_dix always ends by its rules."""
        return False

    def scores(self) -> list[int]:
        """Points so far per seat."""
        return self.seats[0, SCORE].tolist()

    def ranking_keys(self) -> list[tuple]:
        """Highest total wins; equal totals share."""
        return [(s,) for s in self.scores()]

    def teams(self) -> None:
        """le_dix is played individually."""
        return None


def play_random(
    batch: LeDixBatch,
    rng_game: np.ndarray | None,
    rng_moves: np.ndarray,
    steps: int,
    obs: np.ndarray | None = None,
    masks: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``steps`` random decisions in every slot, in one compiled call; return (obs, masks, games finished).

    Per step and slot: a uniformly random legal action, ``legal[integers(rng_moves, g, len(legal))]``
    as ``agents.RandomAgent`` draws it; the forced moves after it; a new game from ``rng_game``'s row
    when the game ended (the next deal of that row, an env's unseeded ``reset()``); then the
    observation of the player to act and its mask. ``rng_game`` None means ``batch.rng``, the rows
    the slots' games are dealt from (pass another array only to deal from other rows).
    """
    rng_game = batch.rng if rng_game is None else rng_game
    obs = batch._out(obs, batch.obs_size, np.float32)
    masks = batch._out(masks, batch.num_actions, np.int8)
    for name, rows in (("rng_game", rng_game), ("rng_moves", rng_moves)):
        if rows.dtype != np.uint64 or rows.shape != (batch.n, 6) or not rows.flags.c_contiguous:
            raise ValueError(f"{name} must be a C-contiguous ({batch.n}, 6) uint64 array of generator rows")
    finished = np.zeros(batch.n, dtype=np.int64)
    batch._run(OP_RANDOM, batch.all_slots, obs=obs, masks=masks, rng=rng_game, rng_moves=rng_moves, steps=steps,
               finished=finished)
    return obs, masks, finished


# --- measurement ----------------------------------------------------------------------------------
def warm_up() -> float:
    """Compile (or load from cache) every kernel on a tiny batch; return the seconds it took."""
    from dixenv.compiled.rng import seed_rows

    start = time.perf_counter()
    batch = LeDixBatch(make_config(num_players=3, deals=(2, 1)), 2)
    batch.new_games(batch.all_slots, seed_rows([0, 1]))
    batch.play_forced()
    mask = batch.masks()
    batch.observe(-1)
    batch.apply(mask.argmax(axis=1))
    batch.apply_slots([0], [-1])
    batch.step([-1, -1])
    play_random(batch, None, seed_rows([2, 3]), 3)
    batch.parallel = False  # the one-thread wrapper too
    batch.step([-1, -1])
    play_random(batch, None, seed_rows([2, 3]), 3)
    return time.perf_counter() - start


def _pyspiel_random(seconds: float, seed: int = 0) -> tuple[float, float]:
    """OpenSpiel ``oh_hell(players=4)`` random play: (player decisions/s, all steps/s incl. chance)."""
    import random

    import pyspiel

    game = pyspiel.load_game("oh_hell(players=4)")
    pick = random.Random(seed)
    decisions = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                u, acc = pick.random(), 0.0
                action = outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if u < acc:
                        action = a
                        break
            else:
                legal = state.legal_actions()
                action = legal[pick.randrange(len(legal))]
                decisions += 1
            state.apply_action(action)
            steps += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, steps / elapsed


def _reference_random(seconds: float, seed: int = 0) -> float:
    """The Python reference engine, random play with observation and mask per decision: decisions/s."""
    from dixenv.core.aec import play_forced
    from dixenv.games.le_dix.observation import LeDixObserver
    from dixenv.games.le_dix.state import LeDixState

    config = make_config(num_players=4)
    observer, rng = LeDixObserver(config), np.random.default_rng(seed)
    mask = np.zeros(A.num_actions(config.max_bid), dtype=np.int8)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = LeDixState(config, rng)
        legal = play_forced(state, None)
        while legal:
            state.apply_action(legal[rng.integers(len(legal))])
            legal = play_forced(state, None)
            decisions += 1
            if legal:
                observer.set_from(state, state.current_player())
                mask[:] = 0
                mask[legal] = 1
    return decisions / (time.perf_counter() - start)


def bench(n_values: Sequence[int] = (64, 1024, 4096), seconds: float = 2.0, num_players: int = 4) -> dict[str, Any]:
    """Decisions/s of ``play_random`` (observation and mask every decision) per batch size, all threads,
    beside OpenSpiel's ``oh_hell`` and the Python reference engine; returns and prints the figures."""
    import numba

    from dixenv.compiled.rng import seed_rows

    results: dict[str, Any] = {"threads": numba.get_num_threads(), "warm_up_s": warm_up()}
    config = make_config(num_players=num_players)
    for n in n_values:
        batch = LeDixBatch(config, n)
        batch.new_games(batch.all_slots, seed_rows(range(n)))
        batch.play_forced()
        moves = seed_rows(range(10**6, 10**6 + n))
        obs = np.empty((n, batch.obs_size), dtype=np.float32)
        masks = np.empty((n, batch.num_actions), dtype=np.int8)
        steps = 1
        while True:  # grow the call until one lasts ~0.1 s, then repeat it for ``seconds``
            t = time.perf_counter()
            play_random(batch, None, moves, steps, obs, masks)
            if time.perf_counter() - t > 0.1 or steps >= 1 << 16:
                break
            steps *= 2
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            play_random(batch, None, moves, steps, obs, masks)
            done += steps * n
        results[f"compiled_n{n}"] = done / (time.perf_counter() - start)
        results["bytes_per_slot"] = batch.bytes_per_slot
        results["buffer_bytes_per_slot"] = obs.nbytes // n + masks.nbytes // n
    try:
        results["pyspiel_decisions"], results["pyspiel_steps"] = _pyspiel_random(seconds)
    except ImportError:
        pass
    results["reference_python"] = _reference_random(seconds)
    for key, value in results.items():
        print(f"{key}: {value:,.3f}" if isinstance(value, float) else f"{key}: {value}")
    return results


def compile_times() -> dict[str, float]:
    """Seconds to compile every kernel cold (an empty numba cache) and to load them from that cache,
    each in a fresh interpreter: ``warm_up()`` alone and the whole process (imports included)."""
    import os
    import subprocess
    import sys
    import tempfile

    code = "from dixenv.games.le_dix.compiled import warm_up; print(warm_up())"
    results = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("cold", "cached"):
            start = time.perf_counter()
            run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            results[f"{label}_process_s"] = time.perf_counter() - start
            results[f"{label}_warm_up_s"] = float(run.stdout.split()[-1])
    for key, value in results.items():
        print(f"{key}: {value:.2f}")
    return results


if __name__ == "__main__":
    bench()
    compile_times()
