"""The compiled batched engine of dix de suite (numba): N games as arrays, stepped by compiled loops.

Why arrays: the reference engine (``state.py``) is one Python object per game; stepping many games
from Python costs microseconds per decision in attribute access and list handling alone. As in
PufferLib's Ocean environments and Pgx, a batch here is plain data — one preallocated int32 array
with a row per game slot — and the deal, the moves, the legal mask and the observation are
compiled loops over it, one slot per iteration of a ``prange``. Games are independent, so the
results do not depend on the number of threads.

The engine plays *exactly* the reference engine's games: a slot whose generator row starts as
``np.random.default_rng(s)`` deals, reshuffles and scores as ``DixDeSuiteState(config,
np.random.default_rng(s))`` does, with the same draws in the same order (``dixenv.compiled.rng``
reproduces NumPy's PCG64 ``Generator`` bit for bit), and its observations equal the reference
observer's ``set_from(state, seat)`` bit for bit (``tests/compiled/test_dix_de_suite_compiled.py``
checks this move by move). The reference engine stays the oracle; a game it deals from a
scenario deck (``reset(options={"deck": ...})``) can be continued here with ``load``.

The state (``DixDeSuiteBatch.state``, shape (N, W), int32) is one row per slot, cut into fields
(N slots, n seats, D cards, C = D − 10·n cards outside the racks; ``DixDeSuiteBatch.field(name)``
returns a field as a shaped view):

=============  ===========  ==========================================================
field          shape        what (the reference field)
=============  ===========  ==========================================================
info           (17,)        the scalars, one column each (``I_*`` below)
rack           (n, 10)      cards in the racks, slot 1 first (``racks``)
known          (n, 10)      the card everybody saw go into a slot, 0 if none (``known``)
slot_turn      (n, 10)      own turn at which a slot was last replaced, -1 dealt
slot_pool      (n, 10)      pool of a hidden slot card, -1 known (``slot_pool``)
card_pool      (D + 1,)     pool of each card, -1 public place (``card_pool``)
discard        (C,)         discard pile, bottom first (top at ``info[I_DISCARD_LEN] - 1``)
draw           (C,)         draw pile, bottom first (top at ``info[I_DRAW_LEN] - 1``)
seat_turns     (n,)         turns played by each seat this round
last_turn      (n,)         kind of each seat's last turn (``NO_TURN`` …)
last_out       (n,)         card each seat put on the discard pile at its last turn
scores         (n,)         game points (``scores_``)
last_points    (n,)         previous round's points (valid when info[I_LAST_WINNER] >= 0)
=============  ===========  ==========================================================

The two piles and the held card share the C cards outside the racks, so fixed-size fields with a
length replace the reference's Python lists. One array rather than one per field: every call of
an uninlined kernel passes each array's descriptor and, outside a parallel loop, counts a
reference to it with atomic operations; with a dozen arrays that cost more than the move itself
(measured in a serial loop). Each slot's
game generator is row ``g`` of an ``(N, 6)`` uint64 array (``DixDeSuiteBatch.rng``), the
``state.rng`` of the reference: later rounds and reshuffles draw from it, and dealing a new game
in a slot without new rows continues it, as an env's next unseeded ``reset()`` does.

Kernels are ``@njit`` functions of one slot ``g`` (``_apply``, ``_observe``, …), and one
``@njit(parallel=True)`` kernel, ``_many``, applies one of them to many slots with ``prange``
(inside it, arrays carry no reference count, so threads share no counter); ``_many_serial`` does
the same on one thread, chosen by the batch's ``parallel`` attribute. numba is imported by
this module only; ``dixenv`` never imports it at import time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from dixenv.compiled import require_numba
from dixenv.compiled.single import APPLY, FORCED, MASK, NEW, OBSERVE, ArrayGameState

require_numba()

import numba  # noqa: E402
from numba import njit, prange  # noqa: E402

from dixenv.compiled.rng import integers, permutation, rng_rows, seed_rows, set_row, shuffle  # noqa: E402
from dixenv.games.dix_de_suite import actions as A  # noqa: E402
from dixenv.games.dix_de_suite.cards import RACK_SIZE  # noqa: E402
from dixenv.games.dix_de_suite.config import DixDeSuiteConfig, make_config  # noqa: E402
from dixenv.games.dix_de_suite.game import SCENARIO_KEYS  # noqa: E402
from dixenv.games.dix_de_suite.observation import make_layout, max_rounds  # noqa: E402
from dixenv.games.dix_de_suite.scoring import POINTS_PER_CARD, RUN_BONUS, WIN_POINTS, max_round_points  # noqa: E402
from dixenv.games.dix_de_suite.state import (  # noqa: E402
    DREW_DISCARDED,
    DREW_SWAPPED,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_SOURCE,
    TOOK_SWAPPED,
    DixDeSuiteState,
    ranking_keys,
    seat_teams,
)

__all__ = ["DixDeSuiteArrayState", "DixDeSuiteBatch", "bench", "play_random"]

# Columns of the info field, at the start of every row (numba freezes module-level ints as constants).
I_DISCARD_LEN = 0
I_DRAW_LEN = 1
I_DRAW_PUBLIC = 2
I_HELD = 3
I_HELD_FROM_DISCARD = 4
I_HELD_PUBLIC = 5
I_PHASE = 6
I_CURRENT = 7
I_DEALER = 8
I_ROUND = 9
I_ROUND_TURNS = 10
I_TOTAL_TURNS = 11  # kept as the reference keeps it; read by nothing (int32 is plenty for a game)
I_TURNOVERS = 12
I_POOL = 13
I_TERMINAL = 14
I_TRUNCATED = 15
I_LAST_WINNER = 16  # -1 before the first round ends (the reference's last_round_points is None)
INFO_WIDTH = 17

R10 = RACK_SIZE
DRAW = A.DRAW
SWAP_BASE = A.SWAP_BASE
DISCARD_ACTION = A.DISCARD
NUM_ACTIONS = A.NUM_ACTIONS
WIN_PTS = WIN_POINTS
CARD_PTS = POINTS_PER_CARD
BONUS_3, BONUS_4, BONUS_5, BONUS_6 = RUN_BONUS[3], RUN_BONUS[4], RUN_BONUS[5], RUN_BONUS[6]

#: The observation's pieces in layout order; ``_rules`` checks them against ``make_layout`` so a
#: change of the reference layout fails loudly here instead of writing misplaced entries.
PIECES = (
    "own_rack", "own_rack_cards", "own_public", "held_card", "phase", "current_player", "dealer",
    "discard_top", "discard_cards", "discard_depth", "draw_pile_size", "draw_pile_public",
    "draw_pile_depth", "unseen", "opp_known", "opp_known_cards", "opp_prefix", "opp_prefix_known",
    "slot_recency", "slot_pool", "card_pool", "last_turn", "last_turn_card", "scores", "round",
    "round_turns", "variants", "last_round_winner", "last_round_points",
)  # fmt: skip
(
    O_OWN_RACK, O_OWN_RACK_CARDS, O_OWN_PUBLIC, O_HELD, O_PHASE, O_CURRENT, O_DEALER,
    O_DISCARD_TOP, O_DISCARD_CARDS, O_DISCARD_DEPTH, O_DRAW_SIZE, O_DRAW_PUBLIC,
    O_DRAW_DEPTH, O_UNSEEN, O_OPP_KNOWN, O_OPP_KNOWN_CARDS, O_OPP_PREFIX, O_OPP_PREFIX_KNOWN,
    O_SLOT_RECENCY, O_SLOT_POOL, O_CARD_POOL, O_LAST_TURN, O_LAST_TURN_CARD, O_SCORES, O_ROUND,
    O_ROUND_TURNS, O_VARIANTS, O_LAST_WINNER, O_LAST_POINTS,
) = range(len(PIECES))  # fmt: skip


def _field_shapes(config: DixDeSuiteConfig) -> dict[str, tuple[int, ...]]:
    """Fields of a state row in order (module docstring): name → shape."""
    n, d = config.num_players, config.deck_size
    cap = d - R10 * n
    return {
        "info": (INFO_WIDTH,),
        "rack": (n, R10),
        "known": (n, R10),
        "slot_turn": (n, R10),
        "slot_pool": (n, R10),
        "card_pool": (d + 1,),
        "discard": (cap,),
        "draw": (cap,),
        "seat_turns": (n,),
        "last_turn": (n,),
        "last_out": (n,),
        "scores": (n,),
        "last_points": (n,),
    }


def _field_offsets(config: DixDeSuiteConfig) -> dict[str, int]:
    """Start of each field in a state row, and the row's ``width``."""
    offsets, start = {}, 0
    for name, shape in _field_shapes(config).items():
        offsets[name] = start
        start += int(np.prod(shape))
    offsets["width"] = start
    return offsets


class Rules(NamedTuple):
    """What the kernels need of a config: options, field offsets in a state row, the observation's
    scales. Plain numbers only, so that passing it costs no reference counting (the observation's
    piece offsets and value tables are arrays, ``_piece_offsets`` and ``_value_table``, given to
    the observer alone)."""

    n: int
    d: int
    target: int
    max_turns: int
    reshuffle: bool
    two_player_run: bool
    teams: bool
    run_bonus: bool
    rack: int  # offsets of the fields in a state row
    known: int
    slot_turn: int
    slot_pool: int
    card_pool: int
    discard: int
    draw: int
    seat_turns: int
    last_turn: int
    last_out: int
    scores: int
    last_points: int
    pile_scale: float  # P of the observation's depth pieces
    t_depth: int  # in the value table: k / P from here (k = 0..P)
    t_inv: int  # in the value table: 1 / k from here (k = 0..INV_MAX, entry 0 unused)
    round_scale: float  # 1 / max_rounds, multiplied as the reference observer does
    points_scale: float  # 1 / max_round_points, likewise


def _piece_offsets(config: DixDeSuiteConfig) -> np.ndarray:
    """Start of each piece of PIECES in the observation (int64), checked against the layout."""
    layout = make_layout(config)
    names = tuple(p.name for p in layout.pieces)
    if names != PIECES:
        raise AssertionError(f"the compiled observer expects the pieces {PIECES}, the layout has {names}")
    return np.array([layout.slices[name].start for name in PIECES], dtype=np.int64)


#: Recencies 1 / k up to this k come from the value table, larger ones are divided (rare).
INV_MAX = 256


def _value_table(config: DixDeSuiteConfig) -> np.ndarray:
    """The observation's quotients, computed once as the reference computes them (float64, then
    rounded to float32 on the store): card c / D at c, depth k / P from ``t_depth``, recency 1 / k
    from ``t_inv``. A lookup replaces a float division (a few hundred per observation)."""
    n, d = config.num_players, config.deck_size
    p = float(d - R10 * n + 1)
    cards = [c / d for c in range(d + 1)]
    depths = [k / p for k in range(int(p) + 1)]
    inverses = [0.0] + [1.0 / k for k in range(1, INV_MAX + 1)]
    return np.array(cards + depths + inverses, dtype=np.float32)


def _rules(config: DixDeSuiteConfig) -> Rules:
    n, d = config.num_players, config.deck_size
    fo = _field_offsets(config)
    return Rules(
        n=n,
        d=d,
        target=config.target_score,
        max_turns=config.max_turns,
        reshuffle=bool(config.reshuffle),
        two_player_run=bool(config.two_player_run),
        teams=bool(config.teams),
        run_bonus=bool(config.run_bonus),
        rack=fo["rack"],
        known=fo["known"],
        slot_turn=fo["slot_turn"],
        slot_pool=fo["slot_pool"],
        card_pool=fo["card_pool"],
        discard=fo["discard"],
        draw=fo["draw"],
        seat_turns=fo["seat_turns"],
        last_turn=fo["last_turn"],
        last_out=fo["last_out"],
        scores=fo["scores"],
        last_points=fo["last_points"],
        pile_scale=float(d - R10 * n + 1),
        t_depth=d + 1,
        t_inv=d + 1 + (d - R10 * n + 1) + 1,
        round_scale=1.0 / max_rounds(config),
        points_scale=1.0 / max_round_points(config.run_bonus),
    )


@njit(cache=True)
def _wrap(x: int, n: int) -> int:
    """``x % n`` for 0 <= x < 2n: seat arithmetic without an integer division (tens of cycles
    each, and the observer needs a dozen per call)."""
    return x - n if x >= n else x


# ------------------------------------------------------------------------------- rack rules
# A rack is the 10 entries from S[g, base] (base = R.rack + 10 × seat).
@njit(cache=True)
def _ascending_prefix(S: np.ndarray, g: int, base: int) -> int:
    n = 1
    prev = S[g, base]
    for k in range(1, R10):
        c = S[g, base + k]
        if c < prev:
            break
        prev = c
        n += 1
    return n


@njit(cache=True)
def _longest_run(S: np.ndarray, g: int, base: int) -> int:
    best = 1
    run = 1
    for k in range(1, R10):
        run = run + 1 if S[g, base + k] == S[g, base + k - 1] + 1 else 1
        if run > best:
            best = run
    return best


@njit(cache=True)
def _run_bonus(S: np.ndarray, g: int, base: int) -> int:
    run = _longest_run(S, g, base)
    if run >= 6:
        return BONUS_6
    if run == 5:
        return BONUS_5
    if run == 4:
        return BONUS_4
    if run == 3:
        return BONUS_3
    return 0


@njit(cache=True)
def _wins_round(S: np.ndarray, g: int, base: int, two_player_run: bool) -> bool:
    if _ascending_prefix(S, g, base) != R10:
        return False
    return (not two_player_run) or _longest_run(S, g, base) >= 3


# ----------------------------------------------------------------------- deals and rounds
@njit(cache=True)
def _deal_round(S: np.ndarray, R: Rules, rng: np.ndarray, g: int) -> None:
    """The reference's ``_deal(_shuffled_deck())``: one ``permutation(D)`` draw, then the deal."""
    n, d = R.n, R.d
    order = np.empty(d, dtype=np.int64)
    permutation(rng, g, order)  # cards are order + 1, top of the deck first
    S[g, I_ROUND] += 1
    dealer = S[g, I_DEALER]
    pos = 0
    for slot in range(R10 - 1, -1, -1):
        for i in range(1, n + 1):
            S[g, R.rack + R10 * ((dealer + i) % n) + slot] = order[pos] + 1
            pos += 1
    first = order[pos] + 1
    S[g, R.discard] = first
    S[g, I_DISCARD_LEN] = 1
    rest = d - pos - 1
    for j in range(rest):  # draw pile bottom first: the deck's last card is at the bottom
        S[g, R.draw + j] = order[d - 1 - j] + 1
    S[g, I_DRAW_LEN] = rest
    S[g, I_DRAW_PUBLIC] = 0
    for i in range(n * R10):
        S[g, R.known + i] = 0
        S[g, R.slot_pool + i] = 0
        S[g, R.slot_turn + i] = -1
    for s in range(n):
        S[g, R.seat_turns + s] = 0
        S[g, R.last_turn + s] = 0
        S[g, R.last_out + s] = 0
    for c in range(d + 1):
        S[g, R.card_pool + c] = 0
    S[g, R.card_pool] = -1
    S[g, R.card_pool + first] = -1
    S[g, I_POOL] = 0
    S[g, I_CURRENT] = (dealer + 1) % n
    S[g, I_PHASE] = PHASE_SOURCE
    S[g, I_HELD] = 0
    S[g, I_HELD_FROM_DISCARD] = 0
    S[g, I_HELD_PUBLIC] = 0
    S[g, I_ROUND_TURNS] = 0
    S[g, I_TURNOVERS] = 0


@njit(cache=True)
def _new_game(S: np.ndarray, R: Rules, rng: np.ndarray, g: int) -> None:
    """The reference's ``DixDeSuiteState(config, rng)``: ``integers(n)`` for the dealer, then the deal."""
    for s in range(R.n):
        S[g, R.scores + s] = 0
        S[g, R.last_points + s] = 0
    S[g, I_ROUND] = 0
    S[g, I_TOTAL_TURNS] = 0
    S[g, I_LAST_WINNER] = -1
    S[g, I_TERMINAL] = 0
    S[g, I_TRUNCATED] = 0
    S[g, I_DEALER] = integers(rng, g, R.n)
    _deal_round(S, R, rng, g)


@njit(cache=True)
def _turn_over(S: np.ndarray, R: Rules, rng: np.ndarray, g: int) -> None:
    """Empty draw pile: the discard pile becomes the draw pile (shuffled with ``reshuffle``)."""
    size = S[g, I_DISCARD_LEN]
    if R.reshuffle:
        # The reference permutes a copy of the discard list (bottom first): shuffle the same copy.
        pile = np.empty(size, dtype=np.int64)
        for i in range(size):
            pile[i] = S[g, R.discard + i]
        shuffle(rng, g, pile)
        S[g, I_POOL] += 1
        pool = S[g, I_POOL]
        for i in range(size):
            S[g, R.draw + i] = pile[i]
            S[g, R.card_pool + pile[i]] = pool
        S[g, I_DRAW_PUBLIC] = 0
    else:
        # Turned face down unshuffled: the oldest discard (bottom) becomes the top.
        for i in range(size):
            S[g, R.draw + i] = S[g, R.discard + size - 1 - i]
        S[g, I_DRAW_PUBLIC] = 1
    top = S[g, R.draw + size - 1]
    S[g, I_DRAW_LEN] = size - 1
    S[g, R.discard] = top
    S[g, I_DISCARD_LEN] = 1
    S[g, R.card_pool + top] = -1
    S[g, I_TURNOVERS] += 1


@njit(cache=True)
def _end_round(S: np.ndarray, R: Rules, rng: np.ndarray, g: int, winner: int) -> None:
    """Score the round; end the game at the target (teams: a team's total), else deal the next round."""
    n = R.n
    for s in range(n):
        base = R.rack + R10 * s
        if s == winner:
            pts = WIN_PTS + (_run_bonus(S, g, base) if R.run_bonus else 0)
        else:
            pts = CARD_PTS * _ascending_prefix(S, g, base)
        S[g, R.scores + s] += pts
        S[g, R.last_points + s] = pts
    S[g, I_LAST_WINNER] = winner
    sc = R.scores
    best = 0
    if R.teams:
        best = max(S[g, sc] + S[g, sc + 2], S[g, sc + 1] + S[g, sc + 3])
    else:
        for s in range(n):
            best = max(best, S[g, sc + s])
    if best >= R.target:
        S[g, I_TERMINAL] = 1
        S[g, I_PHASE] = PHASE_OVER
        S[g, I_CURRENT] = -1
        return
    S[g, I_DEALER] = (S[g, I_DEALER] + 1) % n
    _deal_round(S, R, rng, g)


# ------------------------------------------------------------------------------- moves
@njit(cache=True)
def _legal_count(S: np.ndarray, g: int) -> int:
    """How many actions are legal; the legal list is always a range (see ``_legal_action``)."""
    phase = S[g, I_PHASE]
    if phase == PHASE_SOURCE:
        return 2
    if phase == PHASE_PLACE:
        return R10 if S[g, I_HELD_FROM_DISCARD] else R10 + 1
    return 0


@njit(cache=True)
def _legal_action(S: np.ndarray, g: int, i: int) -> int:
    """The i-th of the sorted legal actions: draw / take discard, or swap 1..10 (then discard)."""
    return i if S[g, I_PHASE] == PHASE_SOURCE else SWAP_BASE + i


@njit(cache=True)
def _apply(S: np.ndarray, R: Rules, rng: np.ndarray, g: int, action: int) -> None:
    """``DixDeSuiteState.apply_action`` for a legal action (legality is the caller's: the mask)."""
    if S[g, I_PHASE] == PHASE_SOURCE:
        if action == DRAW:
            top = S[g, I_DRAW_LEN] - 1
            S[g, I_HELD] = S[g, R.draw + top]
            S[g, I_DRAW_LEN] = top
            S[g, I_HELD_FROM_DISCARD] = 0
            S[g, I_HELD_PUBLIC] = S[g, I_DRAW_PUBLIC]
        else:
            top = S[g, I_DISCARD_LEN] - 1
            S[g, I_HELD] = S[g, R.discard + top]
            S[g, I_DISCARD_LEN] = top
            S[g, I_HELD_FROM_DISCARD] = 1
            S[g, I_HELD_PUBLIC] = 1
        S[g, I_PHASE] = PHASE_PLACE
        return
    seat = S[g, I_CURRENT]
    turn = S[g, R.seat_turns + seat]
    held = S[g, I_HELD]
    if action == DISCARD_ACTION:
        out = held
        S[g, R.last_turn + seat] = DREW_DISCARDED
    else:
        k = R10 * seat + action - SWAP_BASE
        out = S[g, R.rack + k]
        S[g, R.rack + k] = held
        # A card that came face up is public in its slot; else the slot joins the newest pool.
        if S[g, I_HELD_PUBLIC]:
            S[g, R.known + k] = held
            S[g, R.slot_pool + k] = -1
        else:
            S[g, R.known + k] = 0
            S[g, R.slot_pool + k] = S[g, I_POOL]
        S[g, R.slot_turn + k] = turn
        S[g, R.last_turn + seat] = TOOK_SWAPPED if S[g, I_HELD_FROM_DISCARD] else DREW_SWAPPED
    size = S[g, I_DISCARD_LEN]
    S[g, R.discard + size] = out
    S[g, I_DISCARD_LEN] = size + 1
    S[g, R.card_pool + out] = -1
    S[g, R.last_out + seat] = out
    S[g, R.seat_turns + seat] = turn + 1
    S[g, I_HELD] = 0
    S[g, I_HELD_FROM_DISCARD] = 0
    S[g, I_HELD_PUBLIC] = 0
    S[g, I_ROUND_TURNS] += 1
    S[g, I_TOTAL_TURNS] += 1
    if _wins_round(S, g, R.rack + R10 * seat, R.two_player_run):
        _end_round(S, R, rng, g, seat)
        return
    if S[g, I_DRAW_LEN] == 0:
        _turn_over(S, R, rng, g)
    if S[g, I_ROUND_TURNS] >= R.max_turns:
        S[g, I_TRUNCATED] = 1
        S[g, I_PHASE] = PHASE_OVER
        S[g, I_CURRENT] = -1
        return
    S[g, I_CURRENT] = _wrap(seat + 1, R.n)
    S[g, I_PHASE] = PHASE_SOURCE


@njit(cache=True)
def _play_forced(S: np.ndarray, R: Rules, rng: np.ndarray, g: int) -> None:
    """``dixenv.core.aec.play_forced``: play the only legal action while there is exactly one."""
    # No position of this game has a single legal action today (2, 10 or 11); the loop keeps the
    # engine faithful to the forced-move rule should the rules ever make one.
    while S[g, I_CURRENT] >= 0 and _legal_count(S, g) == 1:
        _apply(S, R, rng, g, _legal_action(S, g, 0))


@njit(cache=True)
def _mask(S: np.ndarray, g: int, masks: np.ndarray) -> None:
    for a in range(NUM_ACTIONS):
        masks[g, a] = 0
    for i in range(_legal_count(S, g)):
        masks[g, _legal_action(S, g, i)] = 1


# ------------------------------------------------------------------------------- observation
@njit(cache=True)
def _known_prefix(S: np.ndarray, g: int, base: int) -> int:
    """``observation.known_prefix`` of the known row at ``base``: the prefix the public slots prove, else 0."""
    prev = S[g, base]
    if prev == 0:
        return 0
    for i in range(1, R10):
        c = S[g, base + i]
        if c == 0:
            return 0
        if c < prev:
            return i
        prev = c
    return R10


@njit(cache=True)
def _inverse(tab: np.ndarray, R: Rules, k: int) -> float:
    """1 / k (k >= 1) as the reference computes it, from the value table while it reaches."""
    return tab[R.t_inv + k] if k <= INV_MAX else 1.0 / k


@njit(cache=True)
def _observe(S: np.ndarray, R: Rules, off: np.ndarray, tab: np.ndarray, g: int, seat: int, obs: np.ndarray) -> None:
    """``DixDeSuiteObserver.set_from(state, seat)`` into row ``g`` of ``obs`` (float32).

    ``off``: the pieces' starts; ``tab``: the value table. Every value is computed in float64
    exactly as the reference computes it (the same divisions, and a multiplication by the same
    reciprocal where the reference multiplies) and rounded to float32 on the store, as numpy
    rounds the reference's Python floats, or looked up already rounded: bit-for-bit equality.
    """
    n, d = R.n, R.d
    t_depth = R.t_depth
    o = obs[g]
    for i in range(o.shape[0]):
        o[i] = 0.0
    # own rack and which of its cards are public
    own = R.rack + R10 * seat
    own_known = R.known + R10 * seat
    o_rack, o_cards, o_pub = off[O_OWN_RACK], off[O_OWN_RACK_CARDS] - 1, off[O_OWN_PUBLIC]
    for k in range(R10):
        c = S[g, own + k]
        o[o_rack + k] = tab[c]
        o[o_cards + k * d + c] = 1.0
        if S[g, own_known + k] != 0:
            o[o_pub + k] = 1.0
    # phase, held card, player to act
    mine_held = 0  # the held card when the observer sees it (then it is not unseen either)
    cur = S[g, I_CURRENT]
    if cur >= 0:
        phase = S[g, I_PHASE]
        if phase == PHASE_SOURCE:
            o[off[O_PHASE]] = 1.0
        elif phase == PHASE_PLACE:
            o[off[O_PHASE] + (2 if S[g, I_HELD_FROM_DISCARD] else 1)] = 1.0
            if cur == seat or S[g, I_HELD_PUBLIC]:
                mine_held = S[g, I_HELD]
                o[off[O_HELD] - 1 + mine_held] = 1.0
        o[off[O_CURRENT] + _wrap(cur - seat + n, n)] = 1.0
    o[off[O_DEALER] + _wrap(S[g, I_DEALER] - seat + n, n)] = 1.0
    # discard pile: every card and its depth (top = 1 / P)
    size = S[g, I_DISCARD_LEN]
    if size > 0:
        o[off[O_DISCARD_TOP] - 1 + S[g, R.discard + size - 1]] = 1.0
        o_dc, o_dd = off[O_DISCARD_CARDS] - 1, off[O_DISCARD_DEPTH] - 1
        for i in range(size):
            c = S[g, R.discard + i]
            o[o_dc + c] = 1.0
            o[o_dd + c] = tab[t_depth + size - i]
    # draw pile: its size, and its order when public
    size = S[g, I_DRAW_LEN]
    o[off[O_DRAW_SIZE]] = tab[t_depth + size]
    if S[g, I_DRAW_PUBLIC]:
        o[off[O_DRAW_PUBLIC]] = 1.0
        o_pd = off[O_DRAW_DEPTH] - 1
        for i in range(size):
            o[o_pd + S[g, R.draw + i]] = tab[t_depth + size - i]
    # opponents' public slots and the prefix they prove
    for r in range(1, n):
        row = R.known + R10 * _wrap(seat + r, n)
        seen = False
        for k in range(R10):
            if S[g, row + k] != 0:
                seen = True
        if not seen:
            continue
        base = off[O_OPP_KNOWN] + (r - 1) * R10
        cbase = off[O_OPP_KNOWN_CARDS] - 1 + (r - 1) * d
        for k in range(R10):
            c = S[g, row + k]
            if c != 0:
                o[base + k] = tab[c]
                o[cbase + c] = 1.0
        pre = _known_prefix(S, g, row)
        if pre:
            o[off[O_OPP_PREFIX] + r - 1] = pre / np.float64(R10)
            o[off[O_OPP_PREFIX_KNOWN] + r - 1] = 1.0
    # each seat's last turn, and the slot history as recency
    o_lt, o_lc, o_rec = off[O_LAST_TURN] - 1, off[O_LAST_TURN_CARD], off[O_SLOT_RECENCY]
    for r in range(n):
        s = _wrap(seat + r, n)
        kind = S[g, R.last_turn + s]
        if kind:
            o[o_lt + 3 * r + kind] = 1.0
            o[o_lc + r] = tab[S[g, R.last_out + s]]
        played = S[g, R.seat_turns + s]
        if played:
            for k in range(R10):
                turn = S[g, R.slot_turn + R10 * s + k]
                if turn >= 0:
                    o[o_rec + r * R10 + k] = _inverse(tab, R, played - turn)
    # previous round
    winner = S[g, I_LAST_WINNER]
    if winner >= 0:
        o[off[O_LAST_WINNER] + _wrap(winner - seat + n, n)] = 1.0
        for r in range(n):
            o[off[O_LAST_POINTS] + r] = S[g, R.last_points + _wrap(seat + r, n)] * R.points_scale
    # scores, round, turns, variants
    target = np.float64(R.target)
    for r in range(n):
        o[off[O_SCORES] + r] = S[g, R.scores + _wrap(seat + r, n)] / target
    o[off[O_ROUND]] = S[g, I_ROUND] * R.round_scale
    o[off[O_ROUND_TURNS]] = S[g, I_ROUND_TURNS] / np.float64(R.max_turns)
    o_var = off[O_VARIANTS]
    o[o_var] = 1.0 if R.reshuffle else 0.0
    o[o_var + 1] = 1.0 if R.two_player_run else 0.0
    o[o_var + 2] = 1.0 if R.teams else 0.0
    o[o_var + 3] = 1.0 if R.run_bonus else 0.0
    # pools: recency 1 / (1 + newest - pool), 0 for a public place;
    # unseen = in any pool, but for the observer's own cards
    newest = S[g, I_POOL]
    o_sp = off[O_SLOT_POOL]
    for r in range(n):
        row = R.slot_pool + R10 * _wrap(seat + r, n)
        for k in range(R10):
            pool = S[g, row + k]
            if pool >= 0:
                o[o_sp + r * R10 + k] = _inverse(tab, R, 1 + newest - pool)
    o_cp, o_un = off[O_CARD_POOL] - 1, off[O_UNSEEN] - 1
    for c in range(1, d + 1):
        pool = S[g, R.card_pool + c]
        if pool >= 0:
            o[o_cp + c] = _inverse(tab, R, 1 + newest - pool)
            o[o_un + c] = 1.0
    for k in range(R10):
        o[o_un + S[g, own + k]] = 0.0
    if mine_held:
        o[o_un + mine_held] = 0.0


# ------------------------------------------------------------------------- batched kernel
@njit(cache=True)
def _settle(S: np.ndarray, R: Rules, rng: np.ndarray, g: int) -> None:
    """Forced moves, and a new game (an env's next unseeded reset) if the game is over."""
    _play_forced(S, R, rng, g)
    if S[g, I_CURRENT] < 0:
        _new_game(S, R, rng, g)
        _play_forced(S, R, rng, g)


@njit(cache=True)
def _play_random(
    S: np.ndarray,
    R: Rules,
    off: np.ndarray,
    tab: np.ndarray,
    rng: np.ndarray,
    rng_moves: np.ndarray,
    g: int,
    steps: int,
    obs: np.ndarray,
    masks: np.ndarray,
) -> None:
    """``steps`` random decisions in slot ``g``, each followed by the observation and mask writes."""
    if S[g, I_CURRENT] < 0:
        _settle(S, R, rng, g)
    for _ in range(steps):
        # RandomAgent: legal[rng.integers(len(legal))] over the sorted legal list
        i = integers(rng_moves, g, _legal_count(S, g))
        _apply(S, R, rng, g, _legal_action(S, g, i))
        _settle(S, R, rng, g)
        _observe(S, R, off, tab, g, S[g, I_CURRENT], obs)
        _mask(S, g, masks)


# What ``_many`` does to each slot it is given.
OP_NEW = 0  # deal a new game
OP_APPLY = 1  # apply actions[j] (negative: none; skipped if the game is over)
OP_FORCED = 2  # play forced moves
OP_MASK = 3  # write the legal mask into masks[g]
OP_OBSERVE = 4  # write the observation of seat seats[j] into obs[g] (-1: the player to act; zeros once over)
OP_RANDOM = 5  # play_random: `steps` random decisions from rng_moves, new games when over


@njit(cache=True)
def _one(
    op: int,
    S: np.ndarray,
    R: Rules,
    off: np.ndarray,
    tab: np.ndarray,
    rng: np.ndarray,
    slots: np.ndarray,
    actions: np.ndarray,
    seats: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    rng_moves: np.ndarray,
    steps: int,
    j: int,
) -> None:
    """One operation (``OP_*``) on slot ``slots[j]``: the body of ``_many`` and ``_many_serial``."""
    g = slots[j]
    if op == OP_NEW:
        _new_game(S, R, rng, g)
    elif op == OP_APPLY:
        if actions[j] >= 0 and S[g, I_CURRENT] >= 0:
            _apply(S, R, rng, g, actions[j])
    elif op == OP_FORCED:
        _play_forced(S, R, rng, g)
    elif op == OP_MASK:
        _mask(S, g, masks)
    elif op == OP_OBSERVE:
        seat = seats[j]
        if seat < 0:
            seat = S[g, I_CURRENT]  # -1 once the game is over or cut short
        if seat < 0:
            obs[g, :] = 0.0
        else:
            _observe(S, R, off, tab, g, seat, obs)
    elif op == OP_RANDOM:
        _play_random(S, R, off, tab, rng, rng_moves, g, steps, obs, masks)


@njit(parallel=True, cache=True)
def _many(
    op: int,
    S: np.ndarray,
    R: Rules,
    off: np.ndarray,
    tab: np.ndarray,
    rng: np.ndarray,
    slots: np.ndarray,
    actions: np.ndarray,
    seats: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    rng_moves: np.ndarray,
    steps: int,
) -> None:
    """One operation (``OP_*``) on every slot of ``slots``, in parallel over slots.

    One parallel kernel for every batched operation, rather than one each: compiling a
    ``parallel=True`` function costs several seconds apiece, the dispatch on ``op`` costs nothing
    next to a game step, and arguments an operation does not use are small placeholders.
    Slots are distinct and each is touched by one iteration only, so results do not depend on
    the thread count. ``OP_RANDOM`` runs its step loop inside each slot's iteration: the same
    games as stepping all slots together, without a barrier between threads at every step.
    """
    for j in prange(slots.shape[0]):
        _one(op, S, R, off, tab, rng, slots, actions, seats, obs, masks, rng_moves, steps, j)


@njit(cache=True)
def _many_serial(
    op: int,
    S: np.ndarray,
    R: Rules,
    off: np.ndarray,
    tab: np.ndarray,
    rng: np.ndarray,
    slots: np.ndarray,
    actions: np.ndarray,
    seats: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    rng_moves: np.ndarray,
    steps: int,
) -> None:
    """``_many`` on one thread: for small calls between a Python policy's batches, where numba's OpenMP
    threads and the policy's BLAS or torch threads would spin-wait against each other (measured on 2
    cores: 1.4 ms a call instead of microseconds, and the policy's matmul 20x slower)."""
    for j in range(slots.shape[0]):
        _one(op, S, R, off, tab, rng, slots, actions, seats, obs, masks, rng_moves, steps, j)


# ------------------------------------------------------------------------------- the batch
def _checked(a: np.ndarray, shape: tuple, dtype: type, name: str) -> np.ndarray:
    """``a`` if a kernel may write it in place as it is (shape, dtype, C order, writeable), else ValueError."""
    if (
        not isinstance(a, np.ndarray)
        or a.shape != shape
        or a.dtype != dtype
        or not a.flags.c_contiguous
        or not a.flags.writeable
    ):
        raise ValueError(f"{name} must be a writeable C-contiguous {np.dtype(dtype).name} array of shape {shape}")
    return a


def _ints(values: Sequence[int] | np.ndarray | int, shape: tuple[int, ...] | None = None) -> np.ndarray:
    """A fresh writeable int64 array (read-only or strided arrays would each compile the kernel anew)."""
    a = np.asarray(values)
    if a.dtype.kind not in "iu" and a.size:
        raise ValueError(f"expected integers, got {a.dtype} values")
    return np.array(a.reshape(-1) if shape is None else np.broadcast_to(a, shape), dtype=np.int64, order="C")


class DixDeSuiteBatch:
    """N games of one config: ``state`` ((N, W) int32, module docstring) and their game generators
    (``rng``, (N, 6) uint64).

    Slots start empty (over); ``new_games`` deals. Actions are flat ids as in the reference
    (``dixenv.games.dix_de_suite.actions``); legality is the caller's (read ``masks`` first).
    """

    def __init__(self, config: DixDeSuiteConfig, n: int):
        if n < 1:
            raise ValueError(f"a batch needs at least 1 slot, got n={n}")
        self.config = config
        self.n = int(n)
        self.rules = _rules(config)
        self._piece_off = _piece_offsets(config)
        self._values = _value_table(config)
        self._shapes = _field_shapes(config)
        self._offsets = _field_offsets(config)
        self.state = np.zeros((self.n, self._offsets["width"]), dtype=np.int32)
        info = self.field("info")
        info[:, I_PHASE] = PHASE_OVER  # no game yet: every slot reads as over until new_games
        info[:, I_CURRENT] = -1
        info[:, I_LAST_WINNER] = -1
        self.rng = np.zeros((self.n, 6), dtype=np.uint64)
        self.obs_size = make_layout(config).size
        self.num_actions = NUM_ACTIONS
        self.num_seats = config.num_players
        self._all = np.arange(self.n, dtype=np.int64)
        #: Threads over slots (True) or one thread (False: when a Python policy runs between calls).
        self.parallel = True
        # placeholders for the arguments of _many that an operation does not read
        self._no_int = np.zeros(0, dtype=np.int64)
        self._no_obs = np.zeros((0, 0), dtype=np.float32)
        self._no_masks = np.zeros((0, 0), dtype=np.int8)

    def field(self, name: str) -> np.ndarray:
        """A field of every slot's state as a writeable view, shaped (N, *field shape)."""
        start = self._offsets[name]
        shape = self._shapes[name]
        return self.state[:, start : start + int(np.prod(shape))].reshape((self.n, *shape))

    def _run(
        self,
        op: int,
        slots: np.ndarray,
        actions: np.ndarray | None = None,
        seats: np.ndarray | None = None,
        obs: np.ndarray | None = None,
        masks: np.ndarray | None = None,
        rng: np.ndarray | None = None,
        rng_moves: np.ndarray | None = None,
        steps: int = 0,
    ) -> None:
        (_many if self.parallel else _many_serial)(
            op,
            self.state,
            self.rules,
            self._piece_off,
            self._values,
            self.rng if rng is None else rng,
            slots,
            self._no_int if actions is None else actions,
            self._no_int if seats is None else seats,
            self._no_obs if obs is None else obs,
            self._no_masks if masks is None else masks,
            self.rng if rng_moves is None else rng_moves,
            steps,
        )

    def _slots(self, slots: Sequence[int] | np.ndarray | None) -> np.ndarray:
        if slots is None:
            return self._all
        out = _ints(slots)
        if out.size and (out.min() < 0 or out.max() >= self.n):
            raise ValueError(f"slots must be in 0..{self.n - 1}")
        if out.size > 1 and np.bincount(out, minlength=self.n).max() > 1:  # two iterations on one game would race
            raise ValueError("slots must be distinct")
        return out

    def new_games(self, slots: Sequence[int] | np.ndarray | None = None, rng: np.ndarray | None = None) -> None:
        """Deal new games in ``slots`` (all if None). With ``rng`` ((N, 6) generator rows), slot g
        first takes row g of it; without, it continues its own generator (an unseeded reset)."""
        idx = self._slots(slots)
        if rng is not None and rng is not self.rng:
            rng = np.asarray(rng, dtype=np.uint64)
            if rng.shape != (self.n, 6):
                raise ValueError(f"rng must have shape ({self.n}, 6), got {rng.shape}")
            self.rng[idx] = rng[idx]
        self._run(OP_NEW, idx)

    def seed(self, seed: int) -> None:
        """New games with slot i seeded ``seed + i`` (the reference env ``reset(seed=seed + i)``)."""
        self.new_games(None, seed_rows([seed + i for i in range(self.n)]))

    def load(self, g: int, state: DixDeSuiteState) -> None:
        """Copy a reference state, its generator included, into slot ``g``: the slot continues it exactly.

        This is how a game the compiled engine does not deal (a scenario deck, a world drawn by
        ``sample_hidden``) is played on: deal it in Python, then load it.
        """
        if state.config != self.config:
            raise ValueError(f"state of config {state.config} loaded into a batch of config {self.config}")
        f = self.field
        f("rack")[g] = state.racks
        f("known")[g] = state.known
        f("slot_turn")[g] = state.slot_turn
        f("slot_pool")[g] = state.slot_pool
        f("card_pool")[g] = state.card_pool
        f("discard")[g] = 0
        f("discard")[g, : len(state.discard)] = state.discard
        f("draw")[g] = 0
        f("draw")[g, : len(state.draw_pile)] = state.draw_pile
        f("seat_turns")[g] = state.seat_turns
        f("last_turn")[g] = state.last_turn
        f("last_out")[g] = state.last_out
        f("scores")[g] = state.scores_
        f("last_points")[g] = 0 if state.last_round_points is None else state.last_round_points
        info = f("info")[g]
        info[I_DISCARD_LEN] = len(state.discard)
        info[I_DRAW_LEN] = len(state.draw_pile)
        info[I_DRAW_PUBLIC] = state.draw_public
        info[I_HELD] = state.held
        info[I_HELD_FROM_DISCARD] = state.held_from_discard
        info[I_HELD_PUBLIC] = state.held_public
        info[I_PHASE] = state.phase
        info[I_CURRENT] = state.current
        info[I_DEALER] = state.dealer
        info[I_ROUND] = state.round
        info[I_ROUND_TURNS] = state.round_turns
        info[I_TOTAL_TURNS] = state.total_turns
        info[I_TURNOVERS] = state.turnovers
        info[I_POOL] = state.pool
        info[I_TERMINAL] = state.terminal
        info[I_TRUNCATED] = state.truncated
        info[I_LAST_WINNER] = -1 if state.last_round_points is None else state.last_round_winner
        set_row(self.rng, g, state.rng)

    def apply(self, actions: Sequence[int] | np.ndarray) -> None:
        """One legal action per slot (a negative action, or a slot whose game is over, is skipped)."""
        self.apply_slots(self._all, actions)

    def apply_slots(self, slots: Sequence[int] | np.ndarray, actions: Sequence[int] | np.ndarray) -> None:
        """``actions[j]`` in slot ``slots[j]`` (legal, as the mask says; negative: none)."""
        idx = self._slots(slots)
        acts = _ints(actions)
        if acts.shape != idx.shape:
            raise ValueError(f"{idx.size} slots but {acts.size} actions")
        self._run(OP_APPLY, idx, actions=acts)

    def play_forced(self, slots: Sequence[int] | np.ndarray | None = None) -> None:
        """Play every move that is the only legal one (``auto_forced=True``)."""
        self._run(OP_FORCED, self._slots(slots))

    def masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N, 13) int8 legal mask of the player to act; zeros where the game is over."""
        if out is None:
            out = np.empty((self.n, NUM_ACTIONS), dtype=np.int8)
        self._run(OP_MASK, self._all, masks=_checked(out, (self.n, NUM_ACTIONS), np.int8, "out"))
        return out

    def current_players(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N,) seat to act, -1 where the game is over."""
        # Column copies (here and below): numpy does them as well as a kernel would.
        if out is None:
            out = np.empty(self.n, dtype=np.int64)
        out[:] = self.state[:, I_CURRENT]
        return out

    def observe(self, seats: Sequence[int] | np.ndarray | int, out: np.ndarray | None = None) -> np.ndarray:
        """(N, obs_size) float32: slot g's observation of seat ``seats[g]`` (an int: that seat everywhere).

        -1 means the player to act, as in the le_dix and dix batches (a zero row where no one is to act:
        the game is over or cut short)."""
        seat_arr = _ints(seats, (self.n,))
        if seat_arr.size and (seat_arr.min() < -1 or seat_arr.max() >= self.num_seats):
            raise ValueError(f"seats must be -1 (the player to act) or 0..{self.num_seats - 1}")
        if out is None:
            out = np.empty((self.n, self.obs_size), dtype=np.float32)
        out = _checked(out, (self.n, self.obs_size), np.float32, "out")
        self._run(OP_OBSERVE, self._all, seats=seat_arr, obs=out)
        return out

    def scores(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N, num_players) game points per seat."""
        if out is None:
            out = np.empty((self.n, self.num_seats), dtype=np.int64)
        out[:] = self.field("scores")
        return out

    def terminal(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N,) bool: the game ended at the target score."""
        if out is None:
            out = np.empty(self.n, dtype=np.bool_)
        out[:] = self.state[:, I_TERMINAL] != 0
        return out

    def truncated(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N,) bool: a round reached ``max_turns``."""
        if out is None:
            out = np.empty(self.n, dtype=np.bool_)
        out[:] = self.state[:, I_TRUNCATED] != 0
        return out

    @property
    def bytes_per_slot(self) -> int:
        """Bytes of state (the state row and the generator row) per game slot, observation buffers excluded."""
        return (self.state.nbytes + self.rng.nbytes) // self.n


# ------------------------------------------------------------------------------- one game
@njit(cache=True)
def _single(ops: int, S: np.ndarray, R: Rules, off: np.ndarray, tab: np.ndarray, rng: np.ndarray, action: int, seat: int,
            obs: np.ndarray, masks: np.ndarray) -> int:
    """What the ``ops`` bits (``dixenv.compiled.single``) ask in slot 0, in one call: a new game, a move,
    the forced moves, the observation of ``seat`` (-1: the player to act; zeros once over) and the
    mask. Returns the seat to act, -1 once the game is over (``DixDeSuiteArrayState``)."""
    if ops & NEW:
        _new_game(S, R, rng, 0)
    if ops & APPLY:
        _apply(S, R, rng, 0, action)
    if ops & FORCED:
        _play_forced(S, R, rng, 0)
    if ops & OBSERVE:
        if seat < 0:
            seat = S[0, I_CURRENT]
        if seat < 0:
            obs[0, :] = 0.0
        else:
            _observe(S, R, off, tab, 0, seat, obs)
    if ops & MASK:
        _mask(S, 0, masks)
    return S[0, I_CURRENT]


class DixDeSuiteArrayState(ArrayGameState):
    """One dix de suite game on the compiled kernels (``dixenv.compiled.single``), the state of
    ``dix_de_suite_v0.env(engine="compiled")``: a one-slot batch's state row and generator row, and
    every move one call of ``_single``. Seeded alike, it plays the game of ``DixDeSuiteState``
    (tests/compiled/test_single_compiled.py compares every step)."""

    SCENARIO_KEYS = SCENARIO_KEYS
    game_name = "dix_de_suite"

    def __init__(self, config: DixDeSuiteConfig):
        if not isinstance(config, DixDeSuiteConfig):
            raise TypeError(f"config must be a DixDeSuiteConfig (dix_de_suite.config.make_config), not {type(config).__name__}")
        batch = DixDeSuiteBatch(config, 1)  # its arrays, rules and tables; its methods are not used
        self.config, self.rules, self.num_seats = config, batch.rules, config.num_players
        self._piece_off, self._values, self._scores_at = batch._piece_off, batch._values, batch._offsets["scores"]
        self.state, self.rng = batch.state, rng_rows([np.random.default_rng()])  # unseeded until a seeded reset
        self.num_actions = NUM_ACTIONS
        self._obs = np.zeros((1, batch.obs_size), dtype=np.float32)  # the kernels write rows of 2-d arrays
        self._masks = np.zeros((1, NUM_ACTIONS), dtype=np.int8)
        self.obs, self.mask = self._obs[0], self._masks[0]
        self._player = -1

    def _call(self, ops: int, action: int = -1, seat: int = -1, obs: np.ndarray | None = None) -> None:
        self._player = _single(ops, self.state, self.rules, self._piece_off, self._values, self.rng, action, seat,
                               self._obs if obs is None else obs.reshape(1, -1), self._masks)

    def _action_name(self, action: int) -> str:
        return A.action_to_string(action)

    def is_terminal(self) -> bool:
        """True once a round ended with someone (or a team) at the target score or more."""
        return bool(self.state[0, I_TERMINAL])

    def is_truncated(self) -> bool:
        """True once a round reached ``max_turns`` turns without a winner."""
        return bool(self.state[0, I_TRUNCATED])

    def scores(self) -> list[int]:
        """Game points per seat so far (with teams too: each seat's own points)."""
        return self.state[0, self._scores_at : self._scores_at + self.num_seats].tolist()

    def ranking_keys(self) -> list[tuple]:
        """Per seat ``(points,)``; with ``teams``, the team's total for each member."""
        return ranking_keys(self.scores(), self.config.teams)

    def teams(self) -> list[int] | None:
        """Team per seat (0 for seats 0+2, 1 for seats 1+3) with ``teams``, else None."""
        return seat_teams(self.num_seats, self.config.teams)


def play_random(
    batch: DixDeSuiteBatch,
    rng_game: np.ndarray | None,
    rng_moves: np.ndarray,
    steps: int,
    obs: np.ndarray | None = None,
    masks: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Play ``steps`` uniformly random decisions in every slot (``N × steps`` decisions).

    Each decision: ``legal[integers(rng_moves, g, len(legal))]`` (``RandomAgent``), applied, forced
    moves played, a new game dealt from ``rng_game`` (default ``batch.rng``, the slots' game
    generators) when one ends, then the observation of the player to act and the mask written
    into ``obs`` / ``masks`` (allocated if None; returned). Slots with no game yet are dealt first.
    """
    rng_game = batch.rng if rng_game is None else rng_game
    if obs is None:
        obs = np.zeros((batch.n, batch.obs_size), dtype=np.float32)
    if masks is None:
        masks = np.zeros((batch.n, NUM_ACTIONS), dtype=np.int8)
    obs = _checked(obs, (batch.n, batch.obs_size), np.float32, "obs")
    masks = _checked(masks, (batch.n, NUM_ACTIONS), np.int8, "masks")
    rng_moves = _checked(rng_moves, (batch.n, 6), np.uint64, "rng_moves")
    rng_game = _checked(rng_game, (batch.n, 6), np.uint64, "rng_game")
    batch._run(OP_RANDOM, batch._all, obs=obs, masks=masks, rng=rng_game, rng_moves=rng_moves, steps=int(steps))
    return obs, masks


def warm_up() -> float:
    """Compile (or load from numba's cache) every kernel on a tiny batch; return the seconds it took."""
    start = time.perf_counter()
    batch = DixDeSuiteBatch(make_config(num_players=2), 2)
    batch.new_games(batch._all, seed_rows([0, 1]))
    batch.play_forced()
    batch.apply(batch.masks().argmax(axis=1))
    batch.apply_slots([0], [-1])
    batch.observe(0)
    play_random(batch, None, seed_rows([2, 3]), 3)
    batch.parallel = False  # the one-thread wrapper too
    batch.observe(0)
    play_random(batch, None, seed_rows([2, 3]), 3)
    return time.perf_counter() - start


def _rate(call: Callable[[], object], per_call: int, seconds: float) -> float:
    """Decisions per second of ``call()`` (``per_call`` decisions each), timed for ``seconds``."""
    decisions, elapsed = 0, 0.0
    while elapsed < seconds:
        t0 = time.perf_counter()
        call()
        elapsed += time.perf_counter() - t0
        decisions += per_call
    return decisions / elapsed


def bench(n_values: Sequence[int] = (64, 1024, 4096), seconds: float = 2.0, num_players: int = 2) -> list[dict]:
    """Decisions per second of ``play_random`` (observation and mask written every decision).

    One line per N: slots seeded 0..N−1, moves from seeds 10**6 + g, on ``numba.get_num_threads()``
    threads, about ``seconds`` for each of two ways of stepping: ``slot_major``, one call that
    plays many steps in each slot (the engine alone), and ``step_major``, one call per step of
    all N slots, as a vector env steps between two policy calls (Python dispatch and thread
    wake-up included). Returns the figures as dicts.
    """
    config = make_config(num_players=num_players)
    results = []
    for n in n_values:
        batch = DixDeSuiteBatch(config, n)
        batch.seed(0)
        moves = seed_rows([10**6 + g for g in range(n)])
        obs = np.zeros((n, batch.obs_size), dtype=np.float32)
        masks = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        play_random(batch, None, moves, 8, obs, masks)  # compile / warm caches
        steps = 16
        while True:  # size a call to ~0.1 s so timer and dispatch costs vanish
            t0 = time.perf_counter()
            play_random(batch, None, moves, steps, obs, masks)
            if time.perf_counter() - t0 >= 0.1 or steps >= 1 << 24:
                break
            steps *= 2
        row = {
            "n": n,
            "threads": numba.get_num_threads(),
            "slot_major_per_s": _rate(lambda: play_random(batch, None, moves, steps, obs, masks), n * steps, seconds),
            "step_major_per_s": _rate(lambda: play_random(batch, None, moves, 1, obs, masks), n, seconds),
            "state_bytes_per_slot": batch.bytes_per_slot,
            "obs_mask_bytes_per_slot": (obs.nbytes + masks.nbytes) / n,
        }
        results.append(row)
        print(
            f"N={n:6d} threads={row['threads']}: {row['slot_major_per_s'] / 1e6:6.2f} M decisions/s slot-major, "
            f"{row['step_major_per_s'] / 1e6:6.2f} M step-major; {row['state_bytes_per_slot']:.0f} B state "
            f"+ {row['obs_mask_bytes_per_slot']:.0f} B obs+mask per slot",
            flush=True,
        )
    return results


def _compile_time() -> float:
    """Seconds to compile (or load from cache) every kernel: one small batch driven through each."""
    t0 = time.perf_counter()
    batch = DixDeSuiteBatch(make_config(num_players=2), 2)
    batch.seed(0)
    batch.masks()
    batch.observe(0)
    batch.apply(np.array([0, 1]))
    batch.play_forced()
    play_random(batch, None, seed_rows([1, 2]), 1)
    return time.perf_counter() - t0


if __name__ == "__main__":
    import argparse
    import os
    import subprocess
    import sys
    import tempfile

    parser = argparse.ArgumentParser(description="Benchmark the compiled dix de suite engine (play_random).")
    parser.add_argument("--n", type=int, nargs="+", default=[64, 1024, 4096], help="batch sizes")
    parser.add_argument("--seconds", type=float, default=2.0, help="timed seconds per batch size")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--compile", action="store_true", help="also time compilation, cold and from cache")
    parser.add_argument("--_compile_only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    # Run the kernels of the imported module, not of this __main__ copy: numba's cache is keyed
    # by the module the functions and the Rules type belong to.
    from dixenv.games.dix_de_suite import compiled as engine

    if args._compile_only:
        print(f"{engine._compile_time():.3f}")
        sys.exit(0)
    if args.compile:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            cmd = [sys.executable, "-m", "dixenv.games.dix_de_suite.compiled", "--_compile_only"]
            for label in ("cold (empty cache)", "from cache"):
                seconds = float(subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout.split()[-1])
                print(f"compile {label}: {seconds:.2f} s", flush=True)
    engine.bench(args.n, args.seconds, args.players)
