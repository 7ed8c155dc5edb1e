"""``pimc``'s rollouts on the compiled le_dix engine (``pimc:engine=compiled``; the ``fast`` extra, numba).

The Python ``pimc`` (``core.PIMCAgent``) clones each world drawn by ``sample_hidden`` once per root
move and plays the rollout policy move by move on the reference engine. Here a round's worlds lie
in the slots of one ``LeDixBatch``, each copied once per root move (world i's copy for move j is
slot ``i * M + j``), and one compiled call applies every slot's root move and plays its rollout to
the horizon. The values are those of ``_SearchAgent._values`` (``points``, ``margin``, ``win``),
computed over all slots at once.

The worlds: one ``sample_hidden`` world of the decision is loaded (``load_states``) as a template,
and each world of a round is that template with everything the seat cannot see redrawn in compiled
code (``_redraw``: ``sample_hidden``'s law, uniform among the consistent deals; the tests compare
the two), each with a generator row of its own for later deals. With ``worlds=k`` (or
``redraw = False``, the tests' way to compare with the Python engine) every world comes from the
agent's ``world()`` instead and is loaded as it is. Drawing a world in Python costs tens of µs,
more than its rollouts here; redrawn, a world costs about a µs.

What is the same as the Python engine: the pairing (every move on the same worlds, the last world
of an iteration budget playing the first moves only), ``width`` and ``deviate`` (the root moves
are chosen before the search, as in Python), the ``greedy`` rollout (compiled here move for move:
``tests/agents/test_search_compiled.py`` checks it against ``le_dix._le_dix_greedy``), ``horizon``
(``deal``, ``game``), ``depth``, ``value`` and the mean of each move, summed in the same order: on
the same worlds the greedy search finds the Python one's means exactly. What differs: the worlds
are other draws of the same law, a ``random`` rollout draws its moves from generator rows of its
own (drawn from the agent's generator) rather than the agent's stream of floats, and the copies of
one world for the different moves see the same later deals (``horizon=game``).

A time budget (``seconds``) is checked between rounds, not between rollouts: the first round is
one world, then each round at most doubles, sized to take at most half the time left.

le_dix only (its compiled engine), with ``rollout=random`` or ``greedy``; ``core.PIMCAgent`` refuses
the rest with a clear message before this module is imported.

numba's cache does not notice edits to the kernels this module calls (``dixenv/games/le_dix/compiled.py``,
``dixenv/compiled/rng.py``): delete this module's ``__pycache__/*.nbi|*.nbc`` after changing them.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from dixenv.compiled import require_numba

require_numba()

from numba import njit  # noqa: E402

from dixenv.compiled.rng import integers, row_state  # noqa: E402
from dixenv.games.le_dix import actions as A  # noqa: E402
from dixenv.games.le_dix.compiled import (  # noqa: E402
    BID,
    DEAL,
    DEALER,
    DISCARD_CARD,
    HAND,
    MAX_LEGAL,
    P_N,
    P_PLAY_BASE,
    PHASE,
    PLAYED_BY,
    PLAYER,
    SCORE,
    TRICK,
    TRICK_LEN,
    TOOK,
    TRICKS,
    TRUMP,
    VOID,
    LeDixBatch,
    _apply,
    _bit_index,
    _legal,
)
from dixenv.games.le_dix.state import BIDDING, DISCARD, GAME_OVER, PLAYING, TRUMP_CHOICE  # noqa: E402

__all__ = ["CompiledRollouts", "greedy_action", "pimc_search"]

ROLLOUTS = ("random", "greedy")
HORIZONS = ("deal", "game")
#: Most worlds in one round (a round's slots are worlds x root moves; this bounds the batch's memory).
MAX_ROUND_WORLDS = 512

_RANKS = 13
_TAKE, _BID_BASE, _DISCARD_BASE = A.TAKE_TRUMP, A.BID_BASE, A.DISCARD_BASE
_TRUMP_CHOICE, _DISCARD, _BIDDING, _PLAYING, _GAME_OVER = TRUMP_CHOICE, DISCARD, BIDDING, PLAYING, GAME_OVER
_ZERO = np.int64(0)


# --- the greedy rollout policy, compiled ----------------------------------------------------------
# By hand, because numba cannot call the Python policy: ``le_dix._le_dix_greedy`` written for the
# bitmask arrays, keeping its tie-breaks (min / max return the first best card in the sorted legal
# list: the lowest id), so the two choose the same move in every position.
@njit(cache=True)
def _power(card: int, trump: int) -> int:
    return card % _RANKS + (_RANKS if card // _RANKS == trump else 0)


@njit(cache=True)
def _greedy(I: np.ndarray, S: np.ndarray, C: np.ndarray, prm: np.ndarray, g: int, buf: np.ndarray, k: int) -> int:
    """``_le_dix_greedy``'s move in game ``g``, among the ``k`` sorted legal ids in ``buf`` (k >= 2)."""
    phase = I[g, PHASE]
    trump = I[g, TRUMP] // _RANKS
    if phase == _TRUMP_CHOICE:
        return _TAKE
    seat = I[g, PLAYER]
    if phase == _BIDDING:
        est = 0.0  # the same float sums in the same (card) order as the Python policy
        hand = C[g, HAND, seat]
        while hand != _ZERO:
            low = hand & -hand
            c = _bit_index(low)
            hand ^= low
            r = c % _RANKS
            if c // _RANKS == trump:
                est += 1.0 if r >= _RANKS - 4 else 0.4
            elif r == _RANKS - 1:
                est += 0.8
            elif r == _RANKS - 2:
                est += 0.4
        bid = _BID_BASE + int(est + 0.5)
        best, dist = buf[0], abs(buf[0] - bid)
        for j in range(k):
            if buf[j] == bid:
                return bid
            if abs(buf[j] - bid) < dist:
                best, dist = buf[j], abs(buf[j] - bid)
        return best
    if phase != _PLAYING:  # the dealer's discard: the lowest side card
        best, key = buf[0], 1 << 30
        for j in range(k):
            c = buf[j] - _DISCARD_BASE
            kc = (2 * _RANKS if c // _RANKS == trump else 0) + c % _RANKS
            if kc < key:
                best, key = buf[j], kc
        return best
    base = prm[P_PLAY_BASE]
    need = S[g, BID, seat] - S[g, TRICKS, seat]
    n_trick = I[g, TRICK_LEN]
    if n_trick == 0:
        card, key = -1, 0
        for j in range(k):
            c = buf[j] - base
            p = _power(c, trump)
            if card < 0 or (p > key if need > 0 else p < key):
                card, key = c, p
        return base + card
    led = S[g, TRICK, 0] // _RANKS
    best = S[g, TRICK, 0]
    for i in range(1, n_trick):
        c = S[g, TRICK, i]
        if (c // _RANKS == trump and (best // _RANKS != trump or c > best)) or (c // _RANKS == best // _RANKS and c > best):
            best = c
    best_trump = best // _RANKS == trump
    # need > 0: the weakest winning card, else the weakest card; else the strongest losing card, else the strongest.
    card, key, card_any, key_any = -1, 0, -1, 0
    for j in range(k):
        c = buf[j] - base
        p = _power(c, trump)
        wins = (c // _RANKS == trump and (not best_trump or c > best)) or (not best_trump and c // _RANKS == led and c > best)
        if need > 0:
            if card_any < 0 or p < key_any:
                card_any, key_any = c, p
            if wins and (card < 0 or p < key):
                card, key = c, p
        else:
            if card_any < 0 or p > key_any:
                card_any, key_any = c, p
            if not wins and (card < 0 or p > key):
                card, key = c, p
    return base + (card if card >= 0 else card_any)


@njit(cache=True)
def _greedy_in(I: np.ndarray, S: np.ndarray, C: np.ndarray, prm: np.ndarray, g: int) -> int:
    """The compiled greedy move in game ``g`` (for ``greedy_action``, the tests' entry point)."""
    buf = np.empty(MAX_LEGAL, np.int64)
    k = _legal(I, S, C, prm, g, buf)
    return buf[0] if k == 1 else _greedy(I, S, C, prm, g, buf, k)


@njit(cache=True)
def _rollouts(
    I: np.ndarray, S: np.ndarray, C: np.ndarray, prm: np.ndarray, deals: np.ndarray, pts: np.ndarray, rng: np.ndarray,
    moves: np.ndarray, slots: np.ndarray, first: np.ndarray, whole_game: bool, depth: int, greedy: bool, mark: int
) -> None:
    """In each slot: apply ``first[k]`` (none if negative), then the rollout policy (forced moves as
    they come) until the game ends or, unless ``whole_game``, the deal numbered ``mark`` does (negative:
    the slot's deal before the first move); at most ``depth`` moves (negative: no limit).

    One thread: a round's rollouts take less time than drawing its worlds in Python, and on a small
    shared machine numba's threads would compete with the caller (see ``LeDixBatch.parallel``).
    """
    buf = np.empty(MAX_LEGAL, np.int64)
    for k in range(slots.shape[0]):
        g = slots[k]
        deal = I[g, DEAL] if mark < 0 else mark  # the horizon: the root's deal
        if first[k] >= 0:
            _apply(I, S, C, prm, deals, pts, rng, g, first[k])
        _playout(I, S, C, prm, deals, pts, rng, moves, g, whole_game, depth, greedy, deal, buf)


@njit(cache=True)
def _playout(I: np.ndarray, S: np.ndarray, C: np.ndarray, prm: np.ndarray, deals: np.ndarray, pts: np.ndarray,
             rng: np.ndarray, moves: np.ndarray, g: int, whole_game: bool, depth: int, greedy: bool, deal: int,
             buf: np.ndarray) -> None:
    """The rollout policy in game ``g`` (forced moves as they come) until the game ends or, unless
    ``whole_game``, deal number ``deal`` does; at most ``depth`` moves (negative: no limit)."""
    steps = 0
    while I[g, PHASE] != _GAME_OVER and (whole_game or I[g, DEAL] == deal):
        if depth >= 0 and steps >= depth:
            break
        n = _legal(I, S, C, prm, g, buf)
        if n == 1:
            action = buf[0]
        elif greedy:
            action = _greedy(I, S, C, prm, g, buf, n)
        else:
            action = buf[integers(moves, g, n)]
        _apply(I, S, C, prm, deals, pts, rng, g, action)
        steps += 1


# --- worlds, redrawn in compiled code -------------------------------------------------------------
# Why by hand: drawing a world with ``sample_hidden`` (exact counting, Python) costs tens of µs, more
# than a round's compiled rollouts, so with Python worlds the compiled pimc was only ~4.6x the
# Python one (measured). Here a loaded world's hidden part is redrawn in place by rejection, which
# is exactly uniform too: a uniformly random deal of the unseen cards into the places (the other
# hands, then the undealt cards and an unseen discard), kept only if no seat gets a suit it showed
# a void in, is a uniform draw among the consistent deals (conditioning a uniform law on an event).
# Where the turned-up card may be in the dealer's hand (the dealer took it, has not played it and
# may hold it) or was the discard, the layout is drawn first with the weight of its unconstrained
# deals: with h the dealer's hand size, holding it has h times the deals of having discarded it
# (the unseen discard is one of the free cards), so it is drawn with chance h / (h + 1). As
# ``sample_hidden``: the other seats' choices are taken to reveal nothing. The rejection rate has a
# long tail (``sampling.py``: 1% of 4-player decisions accept under 1.8% of deals) but a try costs
# well under a µs here; ``MAX_TRIES`` only stops a state that breaks the rules.
MAX_TRIES = 10_000_000
_ALL_CARDS = np.int64((1 << 52) - 1)


@njit(cache=True)
def _popcount(x: np.int64) -> int:
    k = 0
    while x != _ZERO:
        x &= x - 1
        k += 1
    return k


@njit(cache=True)
def _redraw(I: np.ndarray, S: np.ndarray, C: np.ndarray, prm: np.ndarray, rng: np.ndarray, g: int, seat: int) -> bool:
    """Redraw in place what ``seat`` cannot see of game ``g`` (the other hands, an unseen discard),
    uniformly among the deals consistent with what it knows (``LeDixState.sample_hidden``'s law),
    drawing from ``rng`` row ``g``; False if no deal fits after ``MAX_TRIES`` tries."""
    n = prm[P_N]
    dealer = I[g, DEALER]
    trump = I[g, TRUMP]
    trump_suit = trump // _RANKS
    known = C[g, HAND, seat] | (np.int64(1) << trump)
    for s in range(n):
        known |= C[g, PLAYED_BY, s]
    if seat == dealer and I[g, DISCARD_CARD] >= 0:
        known |= np.int64(1) << I[g, DISCARD_CARD]
    unseen = np.empty(52, np.int64)
    count = 0
    rest = _ALL_CARDS & ~known
    while rest != _ZERO:
        low = rest & -rest
        unseen[count] = _bit_index(low)
        count += 1
        rest ^= low
    sizes = np.empty(n, np.int64)
    for s in range(n):
        sizes[s] = _popcount(C[g, HAND, s])
    # The turned-up card's layouts (``LeDixState._turned_up_layouts``): 0 the dealer cannot hold it
    # unseen (left, seen by ``seat``, or void / no card: it was the discard), 1 in the dealer's
    # hand (discard phase), 2 played (the discard is unseen), 3 either in the hand (discard unseen)
    # or the discard.
    took = I[g, TOOK] == 1
    if not took or seat == dealer:
        kind = 0
    elif I[g, PHASE] == _DISCARD:
        kind = 1
    elif _played(C, g, n, trump):
        kind = 2
    elif (S[g, VOID, dealer] >> trump_suit) & 1 or sizes[dealer] == 0:
        kind = 0
    else:
        kind = 3
    hands = np.empty(n, np.int64)
    for _ in range(MAX_TRIES):
        holds = kind == 1 or (kind == 3 and integers(rng, g, sizes[dealer] + 1) < sizes[dealer])
        pos = 0
        ok = True
        for s in range(n):
            hands[s] = _ZERO
            if s == seat:
                continue
            voids = S[g, VOID, s]
            for _t in range(sizes[s] - (1 if holds and s == dealer else 0)):
                j = pos + integers(rng, g, count - pos)  # a partial Fisher-Yates shuffle of the unseen cards
                c = unseen[j]
                unseen[j] = unseen[pos]
                unseen[pos] = c
                if (voids >> (c // _RANKS)) & 1:
                    ok = False
                    break
                hands[s] |= np.int64(1) << c
                pos += 1
            if not ok:
                break
        if not ok:
            continue
        for s in range(n):
            if s != seat:
                C[g, HAND, s] = hands[s]
        if holds:
            C[g, HAND, dealer] |= np.int64(1) << trump
        if took and seat != dealer and kind != 1:
            if kind == 2 or (kind == 3 and holds):  # an unseen discard: any of the free cards
                I[g, DISCARD_CARD] = unseen[pos + integers(rng, g, count - pos)]
            else:
                I[g, DISCARD_CARD] = trump
        return True
    return False


@njit(cache=True)
def _played(C: np.ndarray, g: int, n: int, card: int) -> bool:
    for s in range(n):
        if (C[g, PLAYED_BY, s] >> card) & 1:
            return True
    return False


@njit(cache=True)
def _redraw_slots(I: np.ndarray, S: np.ndarray, C: np.ndarray, prm: np.ndarray, rng: np.ndarray, slots: np.ndarray,
                  seat: int) -> int:
    """``_redraw`` in each slot; the number of slots where no deal fitted (0 for a state within the rules)."""
    failed = 0
    for k in range(slots.shape[0]):
        if not _redraw(I, S, C, prm, rng, slots[k], seat):
            failed += 1
    return failed


# --- the Python face --------------------------------------------------------------------------------
def _random_rows(rng: np.random.Generator, k: int) -> np.ndarray:
    """``k`` generator rows in random PCG64 states (odd increments), drawn from ``rng``."""
    rows = np.zeros((k, 6), dtype=np.uint64)
    rows[:, :4] = rng.integers(0, 1 << 64, size=(k, 4), dtype=np.uint64, endpoint=False)
    rows[:, 3] |= np.uint64(1)
    return rows


def greedy_action(batch: LeDixBatch, slot: int) -> int:
    """The compiled greedy rollout policy's move in a batch's slot (its only legal move when forced)."""
    return int(_greedy_in(batch.ints, batch.seats, batch.cards, batch._prm, int(slot)))


class BatchRollouts:
    """What a pimc agent's compiled rollouts do in every game: a batch (``Batch``) that grows to the
    largest round seen, the worlds laid out world-major and copied once per root move, random
    rollouts' generator rows, and the points and margin values. A game's subclass says how its
    worlds are redrawn (``_redraw_worlds``), rolled out (``_roll``) and scored (``values``)."""

    Batch: type
    HORIZONS: tuple[str, ...]

    #: The rollouts this game's compiled engine plays (a subclass may add ``policy``).
    ROLLOUTS = ROLLOUTS

    def __init__(self, config: Any, rollout: str, horizon: str, value: str, depth: int | None, policy: Any = None):
        if rollout not in self.ROLLOUTS or horizon not in self.HORIZONS:
            raise ValueError(f"compiled rollouts take rollout in {self.ROLLOUTS} and horizon in {self.HORIZONS}; "
                             f"got rollout={rollout!r}, horizon={horizon!r}")
        if (rollout == "policy") != (policy is not None):
            raise ValueError("rollout='policy' needs its policy agent (and only it takes one)")
        #: rollout='policy': the agent (``act_batch``) whose moves the rollouts play
        self.policy = policy
        self.config = config
        self.greedy = rollout == "greedy"
        self.random = rollout == "random"  # only random rollouts draw generator rows (from the agent's generator)
        self.whole_game = horizon == "game"
        self.value = value
        self.depth = -1 if depth is None else int(depth)
        self.batch: Any = None
        self.template: Any = None
        #: Redraw the worlds in compiled code (``run(None, ...)``); False: every world from the agent's
        #: ``world()`` (``sample_hidden``), as the Python pimc draws them (the tests compare the two so).
        self.redraw = True
        self._moves = np.zeros((0, 6), dtype=np.uint64)

    def _capacity(self, slots: int) -> Any:
        if self.batch is None or self.batch.n < slots:
            size = max(slots, 2 * self.batch.n if self.batch is not None else 64)
            self.batch = self.Batch(self.config, size)
            self._moves = np.zeros((size, 6), dtype=np.uint64)
        return self.batch

    def run(self, worlds: list[Any] | None, moves: list[int], limit: int, rng: np.random.Generator, base: list[float],
            scale: float, seat: int = -1) -> np.ndarray:
        """Values (``limit``, num_players) of the first ``limit`` (world, move) pairs in world-major order
        (pair t: world ``t // M`` after move ``moves[t % M]``), measured from ``base`` scores over ``scale``.

        ``worlds`` None: the worlds are the template's (``set_template``) with what ``seat`` cannot see
        redrawn in compiled code, each with a generator row of its own.
        """
        m = len(moves)
        w = -(-limit // m)
        if worlds is not None and (not 0 < limit <= len(worlds) * m or len(worlds) != w):
            raise ValueError(f"{limit} rollouts need {w} worlds of {m} moves, got {len(worlds)}")
        batch = self._capacity(limit)
        slots = np.arange(limit, dtype=np.int64)
        starts = slots[::m]
        if worlds is not None:
            batch.load_states(starts, worlds)
        else:
            self._redraw_worlds(batch, starts, _random_rows(rng, w), seat)
        copies = slots[slots % m != 0]
        batch.copy_slots(copies - copies % m, copies)
        if self.random:  # the random rollouts' moves
            self._moves[:limit] = _random_rows(rng, limit)
        self._roll(batch, slots, np.asarray(moves, dtype=np.int64)[slots % m], -1)
        return self.values(batch, slots, base, scale)

    def playout(self, state: Any, rng: np.random.Generator, base: list[float], scale: float, mark: int) -> np.ndarray:
        """``ismcts``' playout: the rollout policy from a reference ``state`` (a tree's leaf) to the
        horizon of the root's ``mark`` (its deal), and each seat's value (``_SearchAgent._values``).
        The state is loaded into slot 0 (``load_states``: its generator of later deals too)."""
        batch = self._capacity(1)
        slot = np.zeros(1, dtype=np.int64)
        batch.load_states(slot, [state])
        if self.random:
            self._moves[:1] = _random_rows(rng, 1)
        before = batch.rng[0].copy()
        self._roll(batch, slot, np.full(1, -1, dtype=np.int64), mark)
        if (batch.rng[0] != before).any():
            # The playout dealt later deals: advance the leaf's generator as a Python playout does.
            # It may be the agent's own (``act`` gives each world the agent's generator), whose next
            # draws (worlds, tie-breaks) then follow the Python engine's.
            state.rng.bit_generator.state = row_state(batch.rng, 0)
        return self.values(batch, slot, base, scale)[0]

    def set_template(self, world: Any) -> None:
        """The world whose hidden part ``run(None, ...)`` redraws (any ``sample_hidden`` world of the decision)."""
        if self.template is None:
            self.template = self.Batch(self.config, 1)
        self.template.load_states([0], [world])

    def _redraw_worlds(self, batch: Any, starts: np.ndarray, rows: np.ndarray, seat: int) -> None:
        raise NotImplementedError

    def _roll(self, batch: Any, slots: np.ndarray, first: np.ndarray, mark: int) -> None:
        raise NotImplementedError

    def values(self, batch: Any, slots: np.ndarray, base: list[float], scale: float) -> np.ndarray:
        raise NotImplementedError

    def gains(self, scores: np.ndarray, base: list[float], scale: float) -> np.ndarray:
        """``_SearchAgent._values``' ``points`` or ``margin`` (no teams, no estimate) for rows of scores."""
        gains = (scores - np.asarray(base, dtype=np.float64)) / scale
        if self.value == "points":
            return gains
        n = scores.shape[1]
        total = gains[:, 0].copy()
        for s in range(1, n):  # summed left to right, as Python's sum()
            total += gains[:, s]
        return gains - (total[:, None] - gains) / (n - 1)


def win_by_scores(scores: np.ndarray) -> np.ndarray:
    """``win_rewards`` of one-number keys for rows of scores: (seats beaten - seats that beat it) / (n - 1)."""
    return np.sign(scores[:, :, None] - scores[:, None, :]).sum(axis=2) / (scores.shape[1] - 1)


class CompiledRollouts(BatchRollouts):
    """A le_dix pimc agent's rollouts on a ``LeDixBatch``."""

    Batch = LeDixBatch
    HORIZONS = HORIZONS

    def _redraw_worlds(self, batch: LeDixBatch, starts: np.ndarray, rows: np.ndarray, seat: int) -> None:
        for array, one in zip((batch.ints, batch.seats, batch.cards), (self.template.ints, self.template.seats, self.template.cards)):
            array[starts] = one[0]
        batch.rng[starts] = rows  # each world's later deals, and its redraw
        if _redraw_slots(batch.ints, batch.seats, batch.cards, batch._prm, batch.rng, starts, seat):
            raise ValueError(f"no deal fits what player_{seat} knows: the state breaks the rules")

    def _roll(self, batch: LeDixBatch, slots: np.ndarray, first: np.ndarray, mark: int) -> None:
        _rollouts(batch.ints, batch.seats, batch.cards, batch._prm, batch._deals, batch._pts, batch.rng, self._moves,
                  slots, first, self.whole_game, self.depth, self.greedy, mark)

    def values(self, batch: LeDixBatch, slots: np.ndarray, base: list[float], scale: float) -> np.ndarray:
        """``_SearchAgent._values`` of le_dix (no teams, no estimate) for the rolled-out slots."""
        scores = batch.seats[slots, SCORE, :].astype(np.float64)
        return win_by_scores(scores) if self.value == "win" else self.gains(scores, base, scale)


def pimc_search(agent: Any, seat: int, legal: list[int], world: Callable[[], Any], start: float) -> tuple[int, dict[str, Any]]:
    """``PIMCAgent._search`` on the compiled engine: rounds of worlds, every move on each (module docstring)."""
    rollouts: CompiledRollouts = agent._compiled
    m = len(legal)
    totals = np.zeros(m)
    counts = np.zeros(m, dtype=np.int64)
    done = 0
    # Worlds redrawn in compiled code unless ``worlds=k`` asks for k Python worlds cycled (or a test
    # for the Python worlds): the template is one ``sample_hidden`` world, read only for what the
    # seat knows (the other hands in it are redrawn).
    redraw = rollouts.redraw and not agent.worlds
    if redraw:
        template = world()
        agent._begin(template)
        rollouts.set_template(template)
    per_round = 1 if agent.seconds is not None else min(MAX_ROUND_WORLDS, -(-agent.iterations // m))
    while done == 0 or agent._budget_left(done, start):
        limit = per_round * m
        if agent.iterations is not None:
            limit = min(limit, agent.iterations - done)
        t = time.perf_counter()
        w = -(-limit // m)
        worlds = None if redraw else [world() for _ in range(w)]
        if done == 0 and not redraw:
            agent._begin(worlds[0])
        values = rollouts.run(worlds, legal, limit, agent.rng, agent._base, agent._scale, seat)[:, seat]
        moves = np.arange(limit) % m
        np.add.at(totals, moves, values)  # in order, one at a time: the sums of the Python pimc
        np.add.at(counts, moves, 1)
        done += limit
        if agent.seconds is not None:  # the next round: at most twice this one, at most half the time left
            per_world = (time.perf_counter() - t) / w
            left = agent.seconds - (time.perf_counter() - start)
            per_round = max(1, min(2 * w, MAX_ROUND_WORLDS, int(left / 2 / per_world)))
    means = {a: float(totals[j] / counts[j]) if counts[j] else float("-inf") for j, a in enumerate(legal)}
    action = agent._choose(legal, means)
    return action, {"iterations": done, "visits": {a: int(counts[j]) for j, a in enumerate(legal)}, "means": means}
