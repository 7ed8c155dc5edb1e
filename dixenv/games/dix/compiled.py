"""The compiled batched dix (TEN) engine (numba): N games as arrays, stepped by compiled loops.

It plays exactly the reference engine's games (``state.py``, ``observation.py``, ``solo.py``,
``payment.py``, which stay the oracle): a slot whose generator row starts as
``np.random.default_rng(s)`` plays the game of ``DixState(config, np.random.default_rng(s))`` —
the same draws in the same order (``integers(num_players)`` for the first player, not drawn in
the solo game, then one ``permutation(len(box))`` for the draw pile; the next game in a slot
continues the row, as an env's unseeded ``reset()``), the same legal actions, the same
observation of every seat bit for bit, the same scores and end. In the solo game the engine plays
ALIX (seat 1) inside the state exactly as the reference does, so the player to act is 0 or -1;
with ``auto_pay`` every payment is made by the engine by the reference rule. Every option is
supported, any ``deck_spec`` included (the draw pile is a row of the config's box size, whatever
it is). Scenario decks (``reset(options={"deck": ..., "first_player": ...})``) stay on the Python
path. ``tests/compiled/test_dix_compiled.py`` checks it step for step against the reference.

Layout (Pgx / PufferLib style, as ``dixenv.games.le_dix.compiled``): a game is one row of an int32
array ``DixBatch.state`` of shape (N, W), and every kernel is a function of (arrays, game index).
For P = num_players and L = the config's box size, a row holds, in order:

* the scalars, one column each (``PHASE`` ... ``DIRTY`` below): phase (``DECIDE``, ``AUCTION``,
  ``PAYMENT``, ``BUY``, ``GAME_OVER``), the seat to act (-1 once over), the active seat, the draw
  pile position (cards drawn so far; the pile is ``L - PILE_POS`` cards), the last-card flag, the
  tableau's total and currency sum, the wild on auction and the market card being paid (-1 none),
  the high bid and bidder, the payment in progress (left, reason, duplicates only), the buy kind,
  whether the bust went over on the total, the final round's step, and the bits of the seats
  whose cached score must be recomputed (cleared at the end of every operation);
* the reference state's public count buffer, in ``state.public_segments`` order (collections
  P x 50, tokens, consolation, number cards, duplicates and cached scores per seat, tableau (55),
  market (36), draw pile counts (55), discard (55)), so the observation's count pieces are the
  reference observer's own gather tables (``observation._count_tables``) shifted by the scalars;
* per seat and colour, the 9-bit mask of numbers held (P x 4);
* the draw pile, top card first (L card type ids; ``PILE_POS`` of them drawn).

``rng`` (N, 6) uint64 holds each slot's PCG64 generator (``dixenv.compiled.rng``). Scores are
the exact wild scorer ``dixenv.games.dix.compiled_scoring.score`` (= ``scoring.score_collection``),
recomputed for the seats whose collection changed before they are read (an observation, the end
of every batched operation), as the reference's lazy ``refresh_scores``; the ``auto_pay`` rule's
"least useful card" calls it too. The scorer is most of the engine's time under random play
(collections rich in wilds); ``ranking_keys`` gives the win ranking's tie-breaks (money, cards).

Per game the kernels are ``@njit(cache=True)`` functions of ``(arrays, g)``; one per-slot body,
``_run_slots``, does what its ``OP_*`` bits ask (new game, apply, forced moves, random opponents,
observe, mask, random play) in a range of a list of slots, and two batched wrappers run it:
``_run_parallel`` (``@njit(parallel=True)``, ``prange`` over slots, one slot a call) and
``_run_serial`` (one thread, one call for the whole list), chosen by the batch's ``parallel``
attribute. Games never share memory and each draws only from its own generator row, so the
results depend neither on the number of threads nor on the wrapper.

Nothing in ``dixenv`` imports this module at import time (numba is the optional ``fast`` extra).
numba's cache does not notice edits to the modules this one calls (``dixenv/compiled/rng.py``,
``compiled_scoring.py``); delete this module's ``__pycache__/*.nbi|*.nbc`` after changing them.
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
from dixenv.games.dix import actions as A  # noqa: E402
from dixenv.games.dix.cards import (  # noqa: E402
    COLOUR_WILD_BASE,
    CURRENCY_BASE,
    KIND,
    NUM_COLLECTABLE,
    NUM_NUMBER_TYPES,
    NUM_NUMBERS,
    NUM_TYPES,
    NUMBER,
    NUMBER_WILD_BASE,
    NUMBERS_BY_VALUE,
    STAR,
    VALUE,
    WILD,
)
from dixenv.games.dix.compiled_scoring import score, score_with  # noqa: E402
from dixenv.games.dix.config import DixConfig, make_config  # noqa: E402
from dixenv.games.dix.observation import BOX_SIZE, _count_tables, make_layout  # noqa: E402
from dixenv.games.dix.solo import ALIX_SEAT, SOLO_MIN_BID  # noqa: E402
from dixenv.games.dix.state import (  # noqa: E402
    AUCTION,
    BUY,
    BUY_BUST,
    BUY_FINAL,
    BUY_TAKE,
    CONSOLATION_VALUE,
    DECIDE,
    GAME_OVER,
    LIMIT,
    PAY_AUCTION,
    PAY_BUY,
    PAYMENT,
    SCENARIO_KEYS,
    START_TOKENS,
    TOKEN_CAP,
    public_segments,
)

__all__ = ["DixArrayState", "DixBatch", "bench", "compile_times", "play_random", "warm_up"]

Arr = np.ndarray  # the kernels' array arguments (numba types them at the first call)

# --- row layout (module constants: numba freezes them into the kernels) ---------------------------
(PHASE, ACTOR, ACTIVE, PILE_POS, LAST_DRAWN, TAB_TOTAL, TAB_CURRENCY, AUCTION_CARD, BUY_CARD, HIGH_BID,
 HIGH_BIDDER, PAY_LEFT, PAY_REASON, PAY_DUP, BUY_KIND, BUST_BY_TOTAL, FINAL_STEP, DIRTY) = range(18)
NUM_INTS = 18

# params: the config as numbers (so one compiled kernel serves every option set) and the row offsets.
(P_N, P_SOLO, P_DIFF, P_BUST_BUY, P_AUTO_PAY, P_L, P_MIN_BID, P_ALIX, P_COLL, P_TOK, P_CONS, P_NUMC, P_DUPS,
 P_SCORE, P_TAB, P_MARKET, P_PILEC, P_DISC, P_MASKS, P_PILE, P_K) = range(21)
NUM_PARAMS = 21

#: The observation's pieces after the count pieces, in layout order; ``offs`` follows this order.
OTHER_PIECES = (
    "tableau_total", "tableau_currency_sum", "draw_pile_size", "draw_pile_fraction", "last_card_drawn", "active",
    "to_act", "phase", "buy_kind", "auction_card", "high_bid", "high_bidder", "still_to_bid", "payment_left",
    "buy_card", "rules",
)
(O_TOTAL, O_CURRENCY, O_PILE_SIZE, O_PILE_FRACTION, O_LAST, O_ACTIVE, O_TO_ACT, O_PHASE, O_BUY_KIND, O_AUCTION,
 O_HIGH_BID, O_HIGH_BIDDER, O_STILL, O_PAY_LEFT, O_BUY_CARD, O_RULES) = range(len(OTHER_PIECES))
COUNT_PIECES = (
    "collection_numbers", "collection_wilds", "tokens", "consolation", "number_cards", "duplicates", "score",
    "tableau_numbers", "tableau_currency", "market", "unseen_numbers", "unseen_wilds", "unseen_currency",
    "discard_numbers", "discard_wilds", "discard_currency",
)

#: Longest legal list: bids 1..99 and pass (payments and buys are fewer).
MAX_LEGAL = 128
SCORE_SCRATCH = 8 + NUM_NUMBERS + 8  #: int64 items ``_refresh_scores`` needs as scratch
NUM_ACTIONS = A.NUM_ACTIONS
_DRAW, _TAKE_NUMBERS, _TAKE_MONEY, _BID_BASE, _MAX_BID, _PASS = (A.DRAW, A.TAKE_NUMBERS, A.TAKE_MONEY, A.BID_BASE,
                                                                 A.MAX_BID, A.PASS)
_BUY_BASE, _SKIP, _PAY_TOKEN, _PAY_CONSOLATION, _PAY_CARD_BASE = (A.BUY_BASE, A.SKIP, A.PAY_TOKEN, A.PAY_CONSOLATION,
                                                                  A.PAY_CARD_BASE)
_DECIDE, _AUCTION, _PAYMENT, _BUY, _GAME_OVER = DECIDE, AUCTION, PAYMENT, BUY, GAME_OVER
_BUY_TAKE, _BUY_BUST, _BUY_FINAL = BUY_TAKE, BUY_BUST, BUY_FINAL
_PAY_BUY, _PAY_AUCTION = PAY_BUY, PAY_AUCTION
_LIMIT, _TOKEN_CAP, _CONSOLATION, _START_TOKENS = LIMIT, TOKEN_CAP, CONSOLATION_VALUE, START_TOKENS
_NUMBERS, _NUM_NUMBERS, _NUM_COLL = NUM_NUMBER_TYPES, NUM_NUMBERS, NUM_COLLECTABLE
_CW, _NW, _STAR, _CURRENCY_BASE, _NUM_TYPES = COLOUR_WILD_BASE, NUMBER_WILD_BASE, STAR, CURRENCY_BASE, NUM_TYPES
_NUMBER_KIND, _WILD_KIND = NUMBER, WILD
_KIND = np.array(KIND, dtype=np.int64)
_VALUE = np.array(VALUE, dtype=np.int64)
_BY_VALUE = np.array(NUMBERS_BY_VALUE, dtype=np.int64)
_BOX_SIZE = float(BOX_SIZE)


# --- per-game kernels ------------------------------------------------------------------------------
# Every kernel works on game ``g`` of ``S`` (``DixBatch.state``) with the config as ``prm``; the
# names follow the reference's methods, which they mirror line for line. The reference calls
# ``_end_turn`` from deep inside a turn (a bust ends the turn, whose next turn's first draw may bust
# again); numba compiles no recursion here, so the functions that end a turn return True instead
# and their callers call ``_end_turn``, a loop.
@njit(cache=True)
def _add_card(S: Arr, prm: Arr, g: int, seat: int, t: int, k: int) -> None:
    at = prm[P_COLL] + seat * _NUM_COLL + t
    before = S[g, at]
    S[g, at] = before + k
    if t < _NUMBERS:
        S[g, prm[P_NUMC] + seat] += k
        S[g, prm[P_DUPS] + seat] += k - 1 if before == 0 else k
        if before:
            return  # a duplicate: the score cannot change
        S[g, prm[P_MASKS] + 4 * seat + t // _NUM_NUMBERS] |= 1 << (t % _NUM_NUMBERS)
    S[g, DIRTY] |= 1 << seat


@njit(cache=True)
def _remove_card(S: Arr, prm: Arr, g: int, seat: int, t: int) -> None:
    at = prm[P_COLL] + seat * _NUM_COLL + t
    S[g, at] -= 1
    S[g, prm[P_NUMC] + seat] -= 1
    if S[g, at]:
        S[g, prm[P_DUPS] + seat] -= 1
    else:
        S[g, prm[P_MASKS] + 4 * seat + t // _NUM_NUMBERS] &= ~(1 << (t % _NUM_NUMBERS))
        S[g, DIRTY] |= 1 << seat


@njit(cache=True)
def _wilds(S: Arr, prm: Arr, g: int, seat: int, colour_wilds: Arr, number_wilds: Arr) -> int:
    """Fill the seat's wild counts for ``score``; return its stars."""
    base = prm[P_COLL] + seat * _NUM_COLL
    for c in range(4):
        colour_wilds[c] = S[g, base + _CW + c]
    for k in range(_NUM_NUMBERS):
        number_wilds[k] = S[g, base + _NW + k]
    return S[g, base + _STAR]


@njit(cache=True)
def _refresh_scores(S: Arr, prm: Arr, g: int, scratch: Arr) -> None:
    """Recompute the cached score of every seat whose collection changed (``refresh_scores``);
    ``scratch``: int64, at least ``SCORE_SCRATCH`` items (allocating per call cost 10% of a solo step)."""
    dirty = S[g, DIRTY]
    if dirty == 0:
        return
    numbers, colour_wilds = scratch[0:4], scratch[4:8]
    w = 8 + _NUM_NUMBERS
    number_wilds, masks, fill = scratch[8:w], scratch[w : w + 4], scratch[w + 4 : w + 8]
    for p in range(prm[P_N]):
        if dirty >> p & 1:
            for c in range(4):
                numbers[c] = S[g, prm[P_MASKS] + 4 * p + c]
            stars = _wilds(S, prm, g, p, colour_wilds, number_wilds)
            S[g, prm[P_SCORE] + p] = score_with(numbers, colour_wilds, number_wilds, stars, masks, fill)
    S[g, DIRTY] = 0


@njit(cache=True)
def _first_duplicate(S: Arr, prm: Arr, g: int, seat: int) -> int:
    """``solo.first_duplicate``: lowest number, then colour B, G, O, P; -1 if none."""
    base = prm[P_COLL] + seat * _NUM_COLL
    for i in range(_NUMBERS):
        t = _BY_VALUE[i]
        if S[g, base + t] > 1:
            return t
    return -1


@njit(cache=True)
def _least_useful(S: Arr, prm: Arr, g: int, seat: int) -> int:
    """``payment.least_useful_card``: the held number card whose loss lowers the score least."""
    base = prm[P_COLL] + seat * _NUM_COLL
    numbers = np.empty(4, np.int64)
    colour_wilds = np.empty(4, np.int64)
    number_wilds = np.empty(_NUM_NUMBERS, np.int64)
    for c in range(4):
        numbers[c] = S[g, prm[P_MASKS] + 4 * seat + c]
    stars = _wilds(S, prm, g, seat, colour_wilds, number_wilds)
    best, best_score = -1, -1
    for i in range(_NUMBERS):
        t = _BY_VALUE[i]
        count = S[g, base + t]
        if count == 0:
            continue
        if count > 1:
            return t
        c, bit = t // _NUM_NUMBERS, np.int64(1) << (t % _NUM_NUMBERS)
        numbers[c] ^= bit
        value = score(numbers, colour_wilds, number_wilds, stars)
        numbers[c] ^= bit
        if value > best_score:
            best, best_score = t, value
    return best


@njit(cache=True)
def _means(S: Arr, prm: Arr, g: int, seat: int) -> int:
    """What ``seat`` can pay for a buy: tokens + 3 x consolation + number cards held."""
    return S[g, prm[P_TOK] + seat] + _CONSOLATION * S[g, prm[P_CONS] + seat] + S[g, prm[P_NUMC] + seat]


@njit(cache=True)
def _bid_means(S: Arr, prm: Arr, g: int, seat: int) -> int:
    """The highest bid ``seat`` may make (solo: only duplicates count among cards)."""
    cards = S[g, prm[P_DUPS] + seat] if prm[P_SOLO] else S[g, prm[P_NUMC] + seat]
    return S[g, prm[P_TOK] + seat] + _CONSOLATION * S[g, prm[P_CONS] + seat] + cards


@njit(cache=True)
def _gain_tokens(S: Arr, prm: Arr, g: int, seat: int, amount: int) -> None:
    at = prm[P_TOK] + seat
    S[g, at] = min(_TOKEN_CAP, S[g, at] + amount)


@njit(cache=True)
def _pay_others(S: Arr, prm: Arr, g: int, amount: int) -> None:
    if amount:
        active = S[g, ACTIVE]
        for q in range(prm[P_N]):
            if q != active:
                _gain_tokens(S, prm, g, q, amount)


@njit(cache=True)
def _numbers_to_collection(S: Arr, prm: Arr, g: int, seat: int) -> None:
    tab = prm[P_TAB]
    for t in range(_NUMBERS):
        k = S[g, tab + t]
        if k:
            _add_card(S, prm, g, seat, t, k)
            S[g, tab + t] = 0
    S[g, TAB_TOTAL] = -S[g, TAB_CURRENCY]


@njit(cache=True)
def _numbers_to_market(S: Arr, prm: Arr, g: int) -> None:
    tab, market = prm[P_TAB], prm[P_MARKET]
    for t in range(_NUMBERS):
        k = S[g, tab + t]
        if k:
            S[g, market + t] += k
            S[g, tab + t] = 0
    S[g, TAB_TOTAL] = -S[g, TAB_CURRENCY]


@njit(cache=True)
def _discard_currency(S: Arr, prm: Arr, g: int) -> None:
    tab, disc = prm[P_TAB], prm[P_DISC]
    for t in range(_CURRENCY_BASE, _NUM_TYPES):
        S[g, disc + t] += S[g, tab + t]
        S[g, tab + t] = 0
    S[g, TAB_TOTAL] = 0
    S[g, TAB_CURRENCY] = 0


@njit(cache=True)
def _start_buy(S: Arr, g: int, seat: int, kind: int) -> None:
    S[g, PHASE] = _BUY
    S[g, ACTOR] = seat
    S[g, BUY_KIND] = kind


@njit(cache=True)
def _next_final_buy(S: Arr, prm: Arr, g: int) -> None:
    """Final round: one buy each from the active player's left, the active player last; then the end."""
    n = prm[P_N]
    S[g, FINAL_STEP] += 1
    if S[g, FINAL_STEP] > n:
        S[g, PHASE] = _GAME_OVER
        S[g, ACTOR] = -1
        return
    _start_buy(S, g, (S[g, ACTIVE] + S[g, FINAL_STEP]) % n, _BUY_FINAL)


@njit(cache=True)
def _finish_bust(S: Arr, prm: Arr, g: int) -> None:
    """The end of a bust (the caller ends the turn)."""
    if S[g, BUST_BY_TOTAL]:
        _pay_others(S, prm, g, S[g, TAB_CURRENCY])
    _discard_currency(S, prm, g)


@njit(cache=True)
def _bust(S: Arr, prm: Arr, g: int) -> bool:
    """The active seat busts; True when the turn is over (the caller ends it)."""
    p = S[g, ACTIVE]
    total_bust = S[g, TAB_TOTAL] > _LIMIT
    if p == prm[P_ALIX]:
        # ALIX keeps her numbers and gains her token; a currency bust pays nobody.
        _numbers_to_collection(S, prm, g, p)
        S[g, prm[P_CONS] + p] += 1
        _discard_currency(S, prm, g)
        return True
    S[g, BUST_BY_TOTAL] = 1 if total_bust else 0
    _numbers_to_market(S, prm, g)
    if prm[P_BUST_BUY]:
        _start_buy(S, g, p, _BUY_BUST)
        return False
    S[g, prm[P_CONS] + p] += 1
    _finish_bust(S, prm, g)
    return True


@njit(cache=True)
def _start_auction(S: Arr, prm: Arr, g: int, wild: int) -> None:
    S[g, AUCTION_CARD] = wild
    S[g, HIGH_BID] = 0
    S[g, HIGH_BIDDER] = -1
    S[g, PHASE] = _AUCTION
    S[g, ACTOR] = (S[g, ACTIVE] + 1) % prm[P_N]  # from the active player's left


@njit(cache=True)
def _draw(S: Arr, prm: Arr, g: int) -> bool:
    """Draw the top card for the active seat; True when it busts and the turn is over."""
    pos = S[g, PILE_POS]
    t = S[g, prm[P_PILE] + pos]
    S[g, PILE_POS] = pos + 1
    S[g, prm[P_PILEC] + t] -= 1
    if pos + 1 == prm[P_L]:
        S[g, LAST_DRAWN] = 1
    kind = _KIND[t]
    if kind == _WILD_KIND:
        _start_auction(S, prm, g, t)
        return False
    S[g, prm[P_TAB] + t] += 1
    if kind == _NUMBER_KIND:
        S[g, TAB_TOTAL] += _VALUE[t]
    else:
        S[g, TAB_TOTAL] -= _VALUE[t]
        S[g, TAB_CURRENCY] += _VALUE[t]
    if S[g, TAB_CURRENCY] > _LIMIT or (S[g, TAB_TOTAL] > _LIMIT and S[g, ACTIVE] != prm[P_ALIX]):
        return _bust(S, prm, g)  # ALIX busts only on currency (solo rules)
    S[g, PHASE] = _DECIDE
    S[g, ACTOR] = S[g, ACTIVE]
    return False


@njit(cache=True)
def _end_turn(S: Arr, prm: Arr, g: int) -> None:
    """The turn is over: the next seat's turn (its first draw, by the engine), or the final round."""
    n = prm[P_N]
    while True:
        if S[g, LAST_DRAWN]:
            S[g, FINAL_STEP] = 0
            _next_final_buy(S, prm, g)
            return
        S[g, ACTIVE] = (S[g, ACTIVE] + 1) % n
        if not _draw(S, prm, g):
            return


@njit(cache=True)
def _end_buy(S: Arr, prm: Arr, g: int, bought: bool) -> None:
    kind = S[g, BUY_KIND]
    if kind == _BUY_TAKE:
        _end_turn(S, prm, g)
    elif kind == _BUY_BUST:
        if not bought:
            S[g, prm[P_CONS] + S[g, ACTIVE]] += 1  # the variant: a buy instead of the token
        _finish_bust(S, prm, g)
        _end_turn(S, prm, g)
    else:
        _next_final_buy(S, prm, g)


@njit(cache=True)
def _pay(S: Arr, prm: Arr, g: int, action: int) -> bool:
    """Hand over one item; True once the amount is covered (the game then moves on)."""
    p = S[g, ACTOR]
    if action == _PAY_TOKEN:
        S[g, prm[P_TOK] + p] -= 1
        S[g, PAY_LEFT] -= 1
    elif action == _PAY_CONSOLATION:
        S[g, prm[P_CONS] + p] -= 1
        S[g, PAY_LEFT] -= _CONSOLATION  # spent whole: change is lost
    else:
        t = action - _PAY_CARD_BASE
        _remove_card(S, prm, g, p, t)
        S[g, prm[P_DISC] + t] += 1
        S[g, PAY_LEFT] -= 1
    if S[g, PAY_LEFT] > 0:
        return False
    S[g, PAY_LEFT] = 0
    if S[g, PAY_REASON] == _PAY_BUY:
        t = S[g, BUY_CARD]
        S[g, BUY_CARD] = -1
        S[g, prm[P_MARKET] + t] -= 1
        _add_card(S, prm, g, p, t, 1)
        _end_buy(S, prm, g, True)
    else:
        t = S[g, AUCTION_CARD]
        S[g, AUCTION_CARD] = -1
        _add_card(S, prm, g, p, t, 1)
        S[g, PHASE] = _DECIDE  # the active player's turn resumes
        S[g, ACTOR] = S[g, ACTIVE]
    return True


@njit(cache=True)
def _alix_payment(S: Arr, prm: Arr, g: int, seat: int) -> int:
    """``solo.alix_payment``: a token, else a duplicate, else a consolation token (-1: nothing)."""
    if S[g, prm[P_TOK] + seat] > 0:
        return _PAY_TOKEN
    t = _first_duplicate(S, prm, g, seat)
    if t >= 0:
        return _PAY_CARD_BASE + t
    if S[g, prm[P_CONS] + seat] > 0:
        return _PAY_CONSOLATION
    return -1


@njit(cache=True)
def _auto_pay_item(S: Arr, prm: Arr, g: int, seat: int, duplicates_only: bool) -> int:
    """``payment.auto_pay_item``: duplicates, tokens, consolation, the least useful card (-1: nothing)."""
    t = _first_duplicate(S, prm, g, seat)
    if t >= 0:
        return _PAY_CARD_BASE + t
    if S[g, prm[P_TOK] + seat] > 0:
        return _PAY_TOKEN
    if S[g, prm[P_CONS] + seat] > 0:
        return _PAY_CONSOLATION
    if not duplicates_only:
        t = _least_useful(S, prm, g, seat)
        if t >= 0:
            return _PAY_CARD_BASE + t
    return -1


@njit(cache=True)
def _start_payment(S: Arr, prm: Arr, g: int, seat: int, amount: int, reason: int, duplicates_only: bool) -> None:
    S[g, PHASE] = _PAYMENT
    S[g, ACTOR] = seat
    S[g, PAY_LEFT] = amount
    S[g, PAY_REASON] = reason
    S[g, PAY_DUP] = 1 if duplicates_only else 0
    # ALIX and the auto_pay rule pay by themselves, item by item (-1 cannot happen: bids are
    # within means; it stops the loop rather than spin on a broken state).
    if seat == prm[P_ALIX]:
        while True:
            item = _alix_payment(S, prm, g, seat)
            if item < 0 or _pay(S, prm, g, item):
                return
    elif prm[P_AUTO_PAY]:
        while True:
            item = _auto_pay_item(S, prm, g, seat, duplicates_only)
            if item < 0 or _pay(S, prm, g, item):
                return


@njit(cache=True)
def _bid(S: Arr, prm: Arr, g: int, amount: int) -> None:
    actor = S[g, ACTOR]
    if amount:
        S[g, HIGH_BID] = amount
        S[g, HIGH_BIDDER] = actor
    if actor != S[g, ACTIVE]:
        S[g, ACTOR] = (actor + 1) % prm[P_N]
        return
    # The active player bid last: the auction is over.
    if S[g, HIGH_BIDDER] >= 0:
        _start_payment(S, prm, g, S[g, HIGH_BIDDER], S[g, HIGH_BID], _PAY_AUCTION, prm[P_SOLO] != 0)
    else:
        S[g, prm[P_DISC] + S[g, AUCTION_CARD]] += 1
        S[g, AUCTION_CARD] = -1
        S[g, PHASE] = _DECIDE
        S[g, ACTOR] = S[g, ACTIVE]


@njit(cache=True)
def _take_numbers(S: Arr, prm: Arr, g: int) -> None:
    p = S[g, ACTIVE]
    _numbers_to_collection(S, prm, g, p)
    _pay_others(S, prm, g, S[g, TAB_CURRENCY])
    _discard_currency(S, prm, g)
    _start_buy(S, g, p, _BUY_TAKE)


@njit(cache=True)
def _take_money(S: Arr, prm: Arr, g: int) -> None:
    _gain_tokens(S, prm, g, S[g, ACTIVE], S[g, TAB_CURRENCY])
    _numbers_to_market(S, prm, g)
    _discard_currency(S, prm, g)
    _end_turn(S, prm, g)


@njit(cache=True)
def _apply(S: Arr, prm: Arr, g: int, action: int) -> None:
    """One legal action of the seat to act (``DixState._apply``)."""
    phase = S[g, PHASE]
    if phase == _DECIDE:
        if action == _DRAW:
            if _draw(S, prm, g):
                _end_turn(S, prm, g)
        elif action == _TAKE_NUMBERS:
            _take_numbers(S, prm, g)
        else:
            _take_money(S, prm, g)
    elif phase == _AUCTION:
        _bid(S, prm, g, 0 if action == _PASS else action - _BID_BASE)
    elif phase == _PAYMENT:
        _pay(S, prm, g, action)
    elif phase == _BUY:
        if action == _SKIP:
            _end_buy(S, prm, g, False)
        else:
            t = action - _BUY_BASE
            S[g, BUY_CARD] = t  # stays in the market until paid
            _start_payment(S, prm, g, S[g, ACTOR], _VALUE[t], _PAY_BUY, False)


@njit(cache=True)
def _alix_action(S: Arr, prm: Arr, g: int) -> int:
    """``DixState.alix_action`` (``solo.alix_decision``, ``solo.alix_bid``; ALIX never buys); -1: none."""
    phase = S[g, PHASE]
    if phase == _DECIDE:
        can_draw = S[g, PILE_POS] < prm[P_L]
        if can_draw and S[g, TAB_TOTAL] < prm[P_DIFF] and S[g, TAB_CURRENCY] <= _LIMIT:
            return _DRAW
        return _TAKE_NUMBERS
    if phase == _AUCTION:
        high = S[g, HIGH_BID]
        min_bid = prm[P_MIN_BID]
        own = _bid_means(S, prm, g, prm[P_ALIX])
        if S[g, ACTOR] == S[g, ACTIVE]:  # ALIX closes the auction
            want = max(high + 1, min_bid)
        else:
            rival = _bid_means(S, prm, g, 1 - prm[P_ALIX])
            want = min(max(max(rival, min_bid), high + 1), own)
        amount = 0 if (want < min_bid or want <= high or want > own) else want
        if amount > _MAX_BID:
            amount = _MAX_BID if high < _MAX_BID else 0
        return _PASS if amount == 0 else _BID_BASE + amount
    if phase == _BUY:
        return _SKIP
    return -1  # payments are automatic


@njit(cache=True)
def _play_alix(S: Arr, prm: Arr, g: int) -> None:
    """In solo, ALIX's moves while she is to act (``DixState._play_alix``); nothing otherwise."""
    if prm[P_SOLO]:
        alix = prm[P_ALIX]
        while S[g, ACTOR] == alix and S[g, PHASE] != _GAME_OVER:
            a = _alix_action(S, prm, g)
            if a < 0:
                break
            _apply(S, prm, g, a)


@njit(cache=True)
def _act(S: Arr, prm: Arr, g: int, action: int) -> None:
    """``DixState.apply_action`` for a legal action: the move, then ALIX's moves in solo.

    The cached scores are refreshed later, where they are read (``_refresh_scores`` before an
    observation and at the end of every batched operation), as the reference refreshes them
    lazily: several collection changes between two reads cost one score each.
    """
    _apply(S, prm, g, action)
    _play_alix(S, prm, g)


@njit(cache=True)
def _new_game(S: Arr, prm: Arr, deck: Arr, rng: Arr, g: int) -> None:
    """A new game in slot ``g``: the first player drawn (not in solo), the pile shuffled, the first draw."""
    n = prm[P_N]
    first = 0 if prm[P_SOLO] else integers(rng, g, n)
    L = prm[P_L]
    order = np.empty(L, np.int64)
    permutation(rng, g, order)
    S[g, :] = 0
    pile, pilec = prm[P_PILE], prm[P_PILEC]
    for i in range(L):
        t = deck[order[i]]
        S[g, pile + i] = t
        S[g, pilec + t] += 1
    for p in range(n):
        S[g, prm[P_TOK] + p] = _START_TOKENS
    S[g, AUCTION_CARD] = -1
    S[g, BUY_CARD] = -1
    S[g, HIGH_BIDDER] = -1
    S[g, PAY_REASON] = _PAY_BUY
    S[g, BUY_KIND] = _BUY_TAKE
    S[g, ACTIVE] = first
    S[g, PHASE] = _DECIDE
    S[g, ACTOR] = first
    if _draw(S, prm, g):  # the first draw is no choice
        _end_turn(S, prm, g)
    _play_alix(S, prm, g)


@njit(cache=True)
def _legal(S: Arr, prm: Arr, g: int, buf: Arr) -> int:
    """Write the sorted legal action ids of the seat to act into ``buf``; return how many (0 if over)."""
    phase = S[g, PHASE]
    p = S[g, ACTOR]
    k = 0
    if phase == _DECIDE:
        if S[g, PILE_POS] < prm[P_L]:
            buf[k] = _DRAW
            k += 1
        buf[k] = _TAKE_NUMBERS
        buf[k + 1] = _TAKE_MONEY
        k += 2
    elif phase == _AUCTION:
        low = max(S[g, HIGH_BID] + 1, prm[P_MIN_BID])
        high = min(_bid_means(S, prm, g, p), _MAX_BID)
        for b in range(low, high + 1):
            buf[k] = _BID_BASE + b
            k += 1
        buf[k] = _PASS
        k += 1
    elif phase == _PAYMENT:
        if S[g, prm[P_TOK] + p]:
            buf[k] = _PAY_TOKEN
            k += 1
        if S[g, prm[P_CONS] + p]:
            buf[k] = _PAY_CONSOLATION
            k += 1
        base = prm[P_COLL] + p * _NUM_COLL
        least = 2 if S[g, PAY_DUP] else 1
        for t in range(_NUMBERS):
            if S[g, base + t] >= least:
                buf[k] = _PAY_CARD_BASE + t
                k += 1
    elif phase == _BUY:
        means = _means(S, prm, g, p)
        base = prm[P_COLL] + p * _NUM_COLL
        market = prm[P_MARKET]
        for t in range(_NUMBERS):
            if S[g, market + t] and S[g, base + t] == 0 and _VALUE[t] <= means:
                buf[k] = _BUY_BASE + t
                k += 1
        buf[k] = _SKIP
        k += 1
    return k


@njit(cache=True)
def _play_forced(S: Arr, prm: Arr, g: int, buf: Arr) -> int:
    """Play every move that is the only legal one; return the legal count left in ``buf`` (0: over)."""
    while True:
        k = _legal(S, prm, g, buf)
        if k != 1:
            return k
        _act(S, prm, g, buf[0])


@njit(cache=True)
def _observe(S: Arr, prm: Arr, idx: Arr, scl: Arr, offs: Arr, rules: Arr, g: int, seat: int, row: Arr) -> None:
    """Write what ``seat`` may know of game ``g`` into ``row``, as ``DixObserver.set_from``."""
    n = prm[P_N]
    K = prm[P_K]
    # The count pieces: numpy multiplies the int32 counts by the float32 scales in float64, then
    # rounds to the float32 tensor; ``scl`` holds the scales as float64 already.
    for j in range(K):
        row[j] = np.float32(S[g, idx[seat, j]] * scl[j])
    row[K:] = 0.0
    row[offs[O_TOTAL]] = np.float32(S[g, TAB_TOTAL] / 10.0)
    row[offs[O_CURRENCY]] = np.float32(S[g, TAB_CURRENCY] / 10.0)
    left = prm[P_L] - S[g, PILE_POS]
    row[offs[O_PILE_SIZE]] = np.float32(left / _BOX_SIZE)
    row[offs[O_PILE_FRACTION]] = np.float32(left / prm[P_L])
    if S[g, LAST_DRAWN]:
        row[offs[O_LAST]] = 1.0
    active = S[g, ACTIVE]
    row[offs[O_ACTIVE] + (active - seat) % n] = 1.0
    phase = S[g, PHASE]
    actor = S[g, ACTOR]
    if phase != _GAME_OVER:
        row[offs[O_TO_ACT] + (actor - seat) % n] = 1.0
        row[offs[O_PHASE] + phase] = 1.0
        if phase == _BUY or (phase == _PAYMENT and S[g, PAY_REASON] == _PAY_BUY):
            row[offs[O_BUY_KIND] + S[g, BUY_KIND]] = 1.0
        if phase == _PAYMENT:
            row[offs[O_PAY_LEFT]] = np.float32(S[g, PAY_LEFT] / 10.0)
    wild = S[g, AUCTION_CARD]
    if wild >= 0:
        row[offs[O_AUCTION] + wild - _CW] = 1.0
        bidder = S[g, HIGH_BIDDER]
        if bidder >= 0:
            row[offs[O_HIGH_BID]] = np.float32(S[g, HIGH_BID] / 10.0)
            row[offs[O_HIGH_BIDDER] + (bidder - seat) % n] = 1.0
        if phase == _AUCTION:
            # Bidders run from the one to act round to the active player, who bids last.
            o, k, last = offs[O_STILL], (actor - seat) % n, (active - seat) % n
            row[o + k] = 1.0
            while k != last:
                k = (k + 1) % n
                row[o + k] = 1.0
    if S[g, BUY_CARD] >= 0:
        row[offs[O_BUY_CARD] + S[g, BUY_CARD]] = 1.0
    o = offs[O_RULES]
    for i in range(3):
        row[o + i] = rules[i]


@njit(cache=True)
def _write_mask(buf: Arr, k: int, mask_row: Arr) -> None:
    mask_row[:] = 0
    for j in range(k):
        mask_row[buf[j]] = 1


# --- the batched wrappers --------------------------------------------------------------------------
# One entry point whose ``ops`` bits say what to do per slot, in this order (as le_dix's: one pass
# doing several steps launches the threads once, and one compiled body keeps the cold compile short).
OP_NEW = NEW  #: a new game (first player, shuffle, first draw, ALIX's moves in solo)
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
    S: Arr, prm: Arr, deck: Arr, idx: Arr, scl: Arr, offs: Arr, rules: Arr, rng: Arr, g: int, buf: Arr,
    rng_moves: Arr, steps: int, obs: Arr, masks: Arr, finished: Arr, scratch: Arr
) -> None:
    """``steps`` random decisions in slot ``g``, a new game whenever one ends (``play_random``)."""
    k = _legal(S, prm, g, buf)
    for _ in range(steps):
        if k == 0:  # a slot that was over (or never dealt) starts a game
            _new_game(S, prm, deck, rng, g)
            k = _play_forced(S, prm, g, buf)
        # RandomAgent: legal[rng.integers(len(legal))] over the sorted legal ids
        _act(S, prm, g, buf[integers(rng_moves, g, k)])
        k = _play_forced(S, prm, g, buf)
        if k == 0:
            finished[g] += 1
            _new_game(S, prm, deck, rng, g)
            k = _play_forced(S, prm, g, buf)
        _refresh_scores(S, prm, g, scratch)
        _observe(S, prm, idx, scl, offs, rules, g, S[g, ACTOR], obs[g])
        _write_mask(buf, k, masks[g])


@njit(cache=True)
def _random_opponents(S: Arr, prm: Arr, g: int, buf: Arr, seat_rows: Arr, rng_moves: Arr, forced: bool) -> None:
    """Random opponents move in game ``g`` until the learner's turn (its ``seat_rows`` entry is -1) or
    the end; seat s draws from row ``g * k + seat_rows[s]`` of ``rng_moves`` (k opponents) as
    ``RandomAgent`` draws, and the forced moves after each move are played when ``forced``."""
    k_opp = 0
    for s in range(seat_rows.shape[0]):
        k_opp += seat_rows[s] >= 0
    while True:
        k = _legal(S, prm, g, buf)
        if k == 0:
            return
        row = seat_rows[S[g, ACTOR]]
        if row < 0:
            return
        _act(S, prm, g, buf[integers(rng_moves, g * k_opp + row, k)])
        if forced:
            _play_forced(S, prm, g, buf)


@njit(cache=True)
def _run_slots(
    ops: int, S: Arr, prm: Arr, deck: Arr, idx: Arr, scl: Arr, offs: Arr, rules: Arr, rng: Arr, slots: Arr,
    actions: Arr, seats: Arr, obs: Arr, masks: Arr, rng_moves: Arr, steps: int, finished: Arr, seat_rows: Arr,
    lo: int, hi: int
) -> None:
    """What ``ops`` asks, in the games of ``slots[lo:hi]`` (the body of both batched wrappers below).

    The loop over slots is inside: outside a parallel loop each call of a kernel counts a reference
    to each of its arrays with atomic operations, which cost 0.2 us a slot when this was one call
    per slot (DixSolo, 64 slots: 12 us of a 110 us step spent on calls that did nothing).
    """
    buf = np.empty(MAX_LEGAL, np.int64)
    scratch = np.empty(SCORE_SCRATCH, np.int64)
    for k in range(lo, hi):
        g = slots[k]
        if ops & OP_RANDOM:
            _random_decisions(S, prm, deck, idx, scl, offs, rules, rng, g, buf, rng_moves, steps, obs, masks, finished,
                              scratch)
            continue
        if ops & OP_NEW:
            _new_game(S, prm, deck, rng, g)
        if ops & OP_APPLY and actions[k] == NEW_GAME:
            _new_game(S, prm, deck, rng, g)
            _refresh_scores(S, prm, g, scratch)
            n = prm[P_N]
            for p in range(n):
                finished[g * n + p] = S[g, prm[P_SCORE] + p]
        if ops & OP_APPLY and actions[k] >= 0 and S[g, PHASE] != _GAME_OVER:
            _act(S, prm, g, actions[k])
        if ops & OP_FORCED:
            _play_forced(S, prm, g, buf)
        if ops & OP_OPPONENTS:
            _random_opponents(S, prm, g, buf, seat_rows, rng_moves, (ops & OP_FORCED) != 0)
        _refresh_scores(S, prm, g, scratch)  # the cached scores are read by the observation and by ``scores``
        if ops & OP_OBSERVE:
            seat = seats[g]
            if seat < 0:
                seat = S[g, ACTOR]  # -1 once over
            if seat < 0:
                obs[g, :] = 0.0
            else:
                _observe(S, prm, idx, scl, offs, rules, g, seat, obs[g])
        if ops & OP_MASK:
            actor = S[g, ACTOR]
            if ops & OP_OPPONENTS and actor >= 0 and seat_rows[actor] >= 0:
                masks[g, :] = 0
            else:
                _write_mask(buf, _legal(S, prm, g, buf), masks[g])


# Two wrappers over the same body: threads over slots (``prange``; inside it arrays carry no
# reference count), and one thread. The serial one is for small calls between a Python policy's
# batches: numba's OpenMP threads and a policy's BLAS or torch threads spin-wait against each other
# on a small machine.
@njit(parallel=True, cache=True)
def _run_parallel(
    ops: int, S: Arr, prm: Arr, deck: Arr, idx: Arr, scl: Arr, offs: Arr, rules: Arr, rng: Arr, slots: Arr,
    actions: Arr, seats: Arr, obs: Arr, masks: Arr, rng_moves: Arr, steps: int, finished: Arr, seat_rows: Arr
) -> None:
    for k in prange(slots.shape[0]):
        _run_slots(ops, S, prm, deck, idx, scl, offs, rules, rng, slots, actions, seats, obs, masks, rng_moves, steps,
                   finished, seat_rows, k, k + 1)


@njit(cache=True)
def _run_serial(
    ops: int, S: Arr, prm: Arr, deck: Arr, idx: Arr, scl: Arr, offs: Arr, rules: Arr, rng: Arr, slots: Arr,
    actions: Arr, seats: Arr, obs: Arr, masks: Arr, rng_moves: Arr, steps: int, finished: Arr, seat_rows: Arr
) -> None:
    _run_slots(ops, S, prm, deck, idx, scl, offs, rules, rng, slots, actions, seats, obs, masks, rng_moves, steps,
               finished, seat_rows, 0, slots.shape[0])


# --- the Python face ------------------------------------------------------------------------------
def _tables(config: DixConfig) -> dict[str, Any]:
    """The config as kernel inputs: params, the box as a sorted card list, the observation tables.

    The observation's count pieces are the reference observer's own gather tables and scales
    (``observation._count_tables``); the layout is checked piece by piece against the one this
    module was written for, so a changed reference observation fails here instead of drifting.
    """
    n = config.num_players
    layout = make_layout(config)
    names = [p.name for p in layout.pieces]
    if names != list(COUNT_PIECES) + list(OTHER_PIECES):
        raise RuntimeError(f"the dix observation layout changed; update dixenv/games/dix/compiled.py ({names})")
    index, scale = _count_tables(config)
    K = len(scale)
    if layout.slices[OTHER_PIECES[0]].start != K:
        raise RuntimeError("the dix observation's count pieces moved; update dixenv/games/dix/compiled.py")
    seg = public_segments(n)
    buf_size = sum(size for _, size in seg.values())
    L = sum(config.box)
    prm = np.zeros(NUM_PARAMS, dtype=np.int64)
    prm[P_N], prm[P_SOLO], prm[P_DIFF] = n, int(config.solo), config.difficulty
    prm[P_BUST_BUY], prm[P_AUTO_PAY], prm[P_L] = int(config.bust_buy), int(config.auto_pay), L
    prm[P_MIN_BID] = SOLO_MIN_BID if config.solo else 1
    prm[P_ALIX] = ALIX_SEAT if config.solo else -1
    for p_col, name in ((P_COLL, "collections"), (P_TOK, "tokens"), (P_CONS, "consolation"), (P_NUMC, "num_cards"),
                        (P_DUPS, "dups"), (P_SCORE, "scores"), (P_TAB, "tableau"), (P_MARKET, "market"),
                        (P_PILEC, "pile_counts"), (P_DISC, "discard")):
        prm[p_col] = NUM_INTS + seg[name][0]
    prm[P_MASKS] = NUM_INTS + buf_size
    prm[P_PILE] = prm[P_MASKS] + 4 * n
    prm[P_K] = K
    width = int(prm[P_PILE]) + L
    deck = np.array([t for t in range(NUM_TYPES) for _ in range(config.box[t])], dtype=np.int64)
    idx = np.ascontiguousarray(np.stack([np.asarray(ix, dtype=np.int64) for ix in index]) + NUM_INTS)
    scl = np.asarray(scale, dtype=np.float32).astype(np.float64)
    offs = np.array([layout.slices[name].start for name in OTHER_PIECES], dtype=np.int64)
    rules = np.array([float(config.bust_buy), float(config.solo), config.difficulty / 10.0], dtype=np.float32)
    return dict(prm=prm, deck=deck, idx=idx, scl=scl, offs=offs, rules=rules, width=width, obs_size=layout.size)



@njit(cache=True)
def _win_results(state: np.ndarray, prm: np.ndarray, rows: np.ndarray, out: np.ndarray) -> None:
    """``core.rewards.win_rewards`` of ``DixBatch.ranking_keys`` for the games ``rows`` (``DixBatch.win_results``)."""
    p = out.shape[1]
    keys = np.empty((p, 3), np.int64)
    for k in range(rows.shape[0]):
        g = rows[k]
        for s in range(p):
            keys[s, 0] = state[g, prm[P_SCORE] + s]
            keys[s, 1] = state[g, prm[P_TOK] + s] + _CONSOLATION * np.int64(state[g, prm[P_CONS] + s])
            held = np.int64(0)
            for t in range(_NUM_COLL):
                held += state[g, prm[P_COLL] + s * _NUM_COLL + t]
            keys[s, 2] = -held
        for s in range(p):
            net = 0
            for o in range(p):
                if o == s:
                    continue
                for j in range(3):  # tuples compared left to right, as Python compares them
                    if keys[s, j] != keys[o, j]:
                        net += 1 if keys[s, j] > keys[o, j] else -1
                        break
            out[k, s] = net / (p - 1) if p > 1 else 0.0


class DixBatch:
    """N dix games as arrays (see the module docstring), stepped by compiled kernels.

    Slot ``g``'s game is dealt from row ``g`` of ``rng`` (its own PCG64 generator). Deal games with
    ``new_games`` before anything else (fresh slots are over). Actions are not checked: the caller
    takes them from ``masks``. Slot lists must not repeat a slot. In the solo game seat 1 is ALIX,
    played by the engine: the player to act is 0 or -1, and ``scores`` includes ALIX's.
    """

    NEW_GAME = NEW_GAME  #: the action that deals a new game (``versus_step``)

    def __init__(self, config: DixConfig, n: int):
        if not isinstance(config, DixConfig):
            raise TypeError(f"config must be a DixConfig (dix.config.make_config), not {type(config).__name__}")
        if int(n) < 1:
            raise ValueError(f"a batch needs at least one slot, got n={n!r}")
        self.config = config
        self.n = n = int(n)
        self.num_players = self.num_seats = config.num_players
        tables = _tables(config)
        self._prm, self._deck, self._idx = tables["prm"], tables["deck"], tables["idx"]
        self._scl, self._offs, self._rules = tables["scl"], tables["offs"], tables["rules"]
        self.obs_size = tables["obs_size"]
        self.num_actions = NUM_ACTIONS
        self.state = np.zeros((n, tables["width"]), dtype=np.int32)
        self.state[:, PHASE] = GAME_OVER
        self.state[:, ACTOR] = -1
        self.state[:, AUCTION_CARD] = -1
        self.state[:, BUY_CARD] = -1
        self.state[:, HIGH_BIDDER] = -1
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
        """State bytes per game slot (the state row and the generator row; not the caller's buffers)."""
        return (self.state.nbytes + self.rng.nbytes) // self.n

    def field(self, name: str) -> np.ndarray:
        """A public count segment of every slot (``state.public_segments`` names, or "masks", "pile") as a view."""
        n = self.num_players
        if name == "masks":
            start, size = int(self._prm[P_MASKS]), 4 * n
        elif name == "pile":
            start, size = int(self._prm[P_PILE]), int(self._prm[P_L])
        else:
            seg = public_segments(n)
            if name not in seg:
                raise ValueError(f"unknown field {name!r}; fields: {sorted(seg)}, 'masks', 'pile'")
            start, size = NUM_INTS + seg[name][0], seg[name][1]
        return self.state[:, start : start + size]

    def _slots(self, slots: Any, repeats: bool = False) -> np.ndarray:
        """``slots`` as int64 indices, checked in range and (unless ``repeats``: read-only uses) not repeated."""
        slots = np.ascontiguousarray(slots, dtype=np.int64).reshape(-1)
        if slots.size and (slots.min() < 0 or slots.max() >= self.n):
            raise ValueError(f"slots must be in 0..{self.n - 1}")
        # A repeated slot would be stepped by two threads at once: results would depend on timing.
        if not repeats and slots.size > 1 and np.bincount(slots, minlength=self.n).max() > 1:  # cheaper than np.unique
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
        run(int(ops), self.state, self._prm, self._deck, self._idx, self._scl, self._offs, self._rules,
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
        """Deal a new game in each of ``slots`` (None: every slot).

        ``rng`` None continues each slot's own generator (an env's ``reset()`` without a seed);
        else its rows are copied in first: row g for slot g when it has N rows (``seed_rows(range(s,
        s + N))`` makes slot i the reference game seeded s + i), or row i for ``slots[i]``. Forced
        moves are not played: call ``play_forced`` as an env's reset does. (The engine's own moves,
        the first draw and ALIX's in solo, are played, as in ``DixState.__init__``.)
        """
        slots = self.all_slots if slots is None else self._slots(slots)
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
        """Write reference ``DixState``s into slots: ``states[i]`` into ``slots[i]``.

        The slot then plays on exactly as the state would (the same legal actions, observations,
        scores and end). A dix state draws nothing after its deal (the pile is shuffled once), so
        the slots' generator rows are left as they are. ``sample_hidden`` worlds load like any state:
        this is how ``pimc:engine=compiled`` rolls out its dix worlds. Plain Python, not compiled:
        the public counts are one ``array('i')`` buffer laid out as this row's (``public_segments``),
        copied whole. ``ValueError`` for a state of another config, or a scenario pile shorter than
        the box (the row's pile fraction counts the box).
        """
        slots = self._slots(slots)
        states = list(states)
        if len(states) != slots.size:
            raise ValueError(f"{len(states)} states for {slots.size} slots")
        if not states:
            return
        L, n = int(self._prm[P_L]), self.num_players
        masks, pile = int(self._prm[P_MASKS]), int(self._prm[P_PILE])
        rows = np.zeros((len(states), self.state.shape[1]), dtype=np.int32)
        for i, state in enumerate(states):
            self._check_state(i, state, L)
            row = rows[i]
            drawn = L - len(state.pile)
            row[:NUM_INTS] = (
                state.phase, state.actor, state.active, drawn, state.last_drawn, state.tableau_total,
                state.tableau_currency, state.auction_card, state.buy_card, state.high_bid, state.high_bidder,
                state.pay_left, state.pay_reason, state.pay_duplicates_only, state.buy_kind, state.bust_by_total,
                state.final_step, sum(1 << p for p in range(n) if state._score_dirty[p]),
            )
            row[NUM_INTS:masks] = np.frombuffer(state._buf, dtype=np.int32)
            row[masks : masks + 4 * n] = np.asarray(state.masks, dtype=np.int32).reshape(-1)
            row[pile + drawn : pile + L] = state.pile[::-1]  # top card first; the drawn cards' places stay 0
        self.state[slots] = rows

    def _check_state(self, i: int, state: Any, L: int) -> None:
        """``ValueError`` unless ``state`` is a dix state of this batch's config (``load_states``)."""
        from dixenv.games.dix.state import DixState

        if not isinstance(state, DixState):
            raise ValueError(f"states[{i}] is a {type(state).__name__}, not a DixState (dixenv.games.dix.state)")
        if state.config != self.config:
            raise ValueError(f"states[{i}] has config {state.config}; this batch plays {self.config}")
        if state.pile_start != L:
            raise ValueError(f"states[{i}]'s pile began with {state.pile_start} cards, not the box's {L} (a scenario "
                             "deck): the compiled engine plays whole boxes only")

    def copy_slots(self, src: Any, dst: Any) -> None:
        """Copy slot ``src[i]``'s game (its generator row too) into slot ``dst[i]``; ``src`` may be one
        slot for every ``dst`` (one loaded world rolled out many times). ``dst`` must not repeat."""
        copy_rows((self.state, self.rng), self.n, src, self._slots(dst))

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
        into ``masks``, zeros where it is not the learner's turn. (In solo, ALIX is the engine's: her
        seat never acts, so its entry is unused; -1 there means no opponent row.)
        """
        seat_rows = np.ascontiguousarray(seat_rows, dtype=np.int64)
        k = sum(row >= 0 for row in seat_rows.tolist())  # a handful of seats: cheaper than numpy
        if seat_rows.shape != (self.num_players,) or seat_rows[learner] != -1:
            raise ValueError(f"seat_rows must give each of the {self.num_players} seats its opponent row, "
                             "-1 for the learner")
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
        """(N, obs_size) float32: slot g as seat ``seats[g]`` sees it (``DixObserver.set_from``).

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
        np.copyto(out, np.where(self.state[:, PHASE] == GAME_OVER, -1, self.state[:, ACTOR]))
        return out

    def scores(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N, num_players) what each seat's collection scores now (seat order, ALIX included in solo;
        int64 unless ``out`` says otherwise)."""
        out = np.empty((self.n, self.num_players), dtype=np.int64) if out is None else out
        start = int(self._prm[P_SCORE])
        np.copyto(out, self.state[:, start : start + self.num_players], casting="unsafe")
        return out

    def ranking_keys(self, out: np.ndarray | None = None, *, slots: Any = None) -> np.ndarray:
        """(N, num_players, 3) int64: per seat (score, money, -cards held), as ``DixState.ranking_keys``;
        with ``slots``, (len(slots), num_players, 3) for those slots only.

        The win ranking compares these tuples (money = tokens + 3 x consolation, then fewest number
        cards and wilds); equal keys share the win. A vector env's "win" reward needs them: scores
        alone miss the tie-breaks.
        """
        p, prm = self.num_players, self._prm
        rows = self.all_slots if slots is None else self._slots(slots)
        S = self.state[rows]
        n = len(rows)
        out = np.empty((n, p, 3), dtype=np.int64) if out is None else out
        tok, cons, coll, start = int(prm[P_TOK]), int(prm[P_CONS]), int(prm[P_COLL]), int(prm[P_SCORE])
        out[:, :, 0] = S[:, start : start + p]
        out[:, :, 1] = S[:, tok : tok + p] + CONSOLATION_VALUE * S[:, cons : cons + p].astype(np.int64)
        out[:, :, 2] = -S[:, coll : coll + p * NUM_COLLECTABLE].reshape(n, p, NUM_COLLECTABLE).sum(axis=2)
        return out

    def win_results(self, slots: Any) -> np.ndarray:
        """(len(slots), num_players) float64: ``win_rewards(ranking_keys)`` of each game of ``slots``
        (seats beaten minus seats that beat it, over n - 1, by the keys of ``ranking_keys``).

        Compiled because a vector env pays it in its step for every game that ends there: the numpy
        keys and the Python ranking cost about 25 µs a step in solo dix at N = 64, this about 2 µs.
        """
        rows = self._slots(slots, repeats=True)  # read only: a repeated game is ranked twice
        out = np.empty((rows.size, self.num_players), dtype=np.float64)
        _win_results(self.state, self._prm, rows, out)
        return out

    def terminal(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N,) bool, True where the game is over."""
        out = np.empty(self.n, dtype=bool) if out is None else out
        np.equal(self.state[:, PHASE], GAME_OVER, out=out)
        return out


# --- one game (``dix_v0.env(engine="compiled")``) ------------------------------------------------
@njit(cache=True)
def _single(ops: int, S: Arr, prm: Arr, deck: Arr, idx: Arr, scl: Arr, offs: Arr, rules: Arr, rng: Arr, action: int,
            seat: int, obs: Arr, mask: Arr) -> int:
    """What ``ops`` asks in game 0, as ``_run_slots`` does per slot, with the observation and mask as
    1-d rows and no argument it does not use (numba's dispatch costs about 0.15 us an array).
    Returns the seat to act, -1 once the game is over (``DixArrayState``)."""
    buf = np.empty(MAX_LEGAL, np.int64)
    scratch = np.empty(SCORE_SCRATCH, np.int64)
    if ops & OP_NEW:
        _new_game(S, prm, deck, rng, 0)
    if ops & OP_APPLY:
        _act(S, prm, 0, action)
    if ops & OP_FORCED:
        _play_forced(S, prm, 0, buf)
    _refresh_scores(S, prm, 0, scratch)  # the cached scores are read by the observation and by ``scores``
    if ops & OP_OBSERVE:
        if seat < 0:
            seat = S[0, ACTOR]  # -1 once over
        if seat < 0:
            obs[:] = 0.0
        else:
            _observe(S, prm, idx, scl, offs, rules, 0, seat, obs)
    if ops & OP_MASK:
        _write_mask(buf, _legal(S, prm, 0, buf), mask)
    return -1 if S[0, PHASE] == _GAME_OVER else S[0, ACTOR]


class DixArrayState(ArrayGameState):
    """One dix game on the compiled kernels (``dixenv.compiled.single``), the state of
    ``dix_v0.env(engine="compiled")``: a one-slot ``DixBatch``'s state and generator rows, every move
    one call of ``_single`` (ALIX's moves in solo inside it, as ``DixState.apply_action`` plays them).
    Seeded alike, it plays the game of ``DixState`` (tests/compiled/test_single_compiled.py)."""

    SCENARIO_KEYS = SCENARIO_KEYS
    game_name = "dix"

    def __init__(self, config: DixConfig):
        self._batch = batch = DixBatch(config, 1)  # its arrays, tables and readers (scores, ranking keys)
        self.config, self.num_seats, self.num_actions = config, config.num_players, NUM_ACTIONS
        self.state, self.rng = batch.state, batch.rng
        self._tables = (batch._prm, batch._deck, batch._idx, batch._scl, batch._offs, batch._rules)
        self.obs = np.zeros(batch.obs_size, dtype=np.float32)
        self.mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._player = -1

    def _call(self, ops: int, action: int = -1, seat: int = -1, obs: np.ndarray | None = None) -> None:
        prm, deck, idx, scl, offs, rules = self._tables
        self._player = _single(ops, self.state, prm, deck, idx, scl, offs, rules, self.rng, action, seat,
                               self.obs if obs is None else obs, self.mask)

    def _action_name(self, action: int) -> str:
        return A.action_to_string(action)

    def is_terminal(self) -> bool:
        """True once the game is over (the draw pile ran out and the last buys are made)."""
        return self._player < 0

    def is_truncated(self) -> bool:
        """dix always ends by its rules (the draw pile runs out)."""
        return False

    def scores(self) -> list[int]:
        """What each seat's collection scores now (seat order, ALIX included in solo)."""
        return self._batch.scores()[0].tolist()

    def ranking_keys(self) -> list[tuple]:
        """Score, then money, then fewest cards (number cards and wilds); equal keys share the win."""
        return [tuple(key) for key in self._batch.ranking_keys()[0].tolist()]

    def teams(self) -> None:
        """dix is played individually."""
        return None


def play_random(
    batch: DixBatch,
    rng_game: np.ndarray | None,
    rng_moves: np.ndarray,
    steps: int,
    obs: np.ndarray | None = None,
    masks: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``steps`` random decisions in every slot, in one compiled call; return (obs, masks, games finished).

    Per step and slot: a uniformly random legal action, ``legal[integers(rng_moves, g, len(legal))]``
    as ``agents.RandomAgent`` draws it; the forced moves after it; a new game from ``rng_game``'s row
    when the game ended (the next game of that row, an env's unseeded ``reset()``); then the
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
    batch = DixBatch(make_config(num_players=2, solo=True, auto_pay=True, bust_buy=True), 2)
    batch.new_games(batch.all_slots, seed_rows([0, 1]))
    batch.play_forced()
    mask = batch.masks()
    batch.observe(-1)
    batch.apply(mask.argmax(axis=1))
    batch.apply_slots([0], [-1])
    batch.step([-1, -1])
    batch.versus_step([-1, -1], 0, np.array([-1, -1]), np.zeros((0, 6), dtype=np.uint64), True,
                      np.empty((2, batch.obs_size), dtype=np.float32), np.empty((2, batch.num_actions), dtype=np.int8))
    play_random(batch, None, seed_rows([2, 3]), 3)
    batch.parallel = False  # the one-thread wrapper too
    batch.step([-1, -1])
    play_random(batch, None, seed_rows([2, 3]), 3)
    return time.perf_counter() - start


def _reference_random(seconds: float, num_players: int = 2, seed: int = 0) -> float:
    """The Python reference engine, random play with observation and mask per decision: decisions/s."""
    from dixenv.core.aec import play_forced
    from dixenv.games.dix.observation import DixObserver
    from dixenv.games.dix.state import DixState

    config = make_config(num_players=num_players)
    observer, rng = DixObserver(config), np.random.default_rng(seed)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = DixState(config, rng)
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


def bench(n_values: Sequence[int] = (64, 1024, 4096), seconds: float = 2.0, num_players: int = 2,
          **options: Any) -> dict[str, Any]:
    """Decisions/s of ``play_random`` (observation and mask every decision) per batch size, all threads,
    beside the Python reference engine; returns and prints the figures (``options``: more config options)."""
    import numba

    from dixenv.compiled.rng import seed_rows

    results: dict[str, Any] = {"threads": numba.get_num_threads(), "warm_up_s": warm_up()}
    config = make_config(num_players=num_players, **options)
    for n in n_values:
        batch = DixBatch(config, n)
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
    results["reference_python"] = _reference_random(seconds, num_players)
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

    code = "from dixenv.games.dix.compiled import warm_up; print(warm_up())"
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
