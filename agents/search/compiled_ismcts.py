"""``ismcts:engine=compiled`` in le_dix: the whole search on the compiled engine, tree included.

Why by hand: with the tree walked on the reference engine and only the playouts compiled (what
``engine=compiled`` did before, and still does for the options below), an iteration
cost ~130 µs in le_dix against ~160 µs in Python (1.2×, docs/results/search.md): cloning the world,
applying the tree's moves and building the observation that keys each node were most of it. Here
one compiled call runs a round of iterations, each drawing its world, walking and growing the tree,
playing out and backing the values up, with no Python in between.

The algorithm is ``core.ISMCTSAgent._simulate``'s, move for move: the same worlds (redrawn in
compiled code, ``compiled._redraw``: ``sample_hidden``'s law; with ``worlds=k`` the agent's own
Python worlds, cycled as it cycles them), availability counts on every legal move of a node the
walk meets, a uniformly chosen untried move expanded (from the agent's stream of floats,
``_uniform``), UCB among the tried ones, the greedy or random rollout to the horizon, the values of
``_SearchAgent._values`` (``points``, ``margin``) and the same ``ucb`` or ``paired`` root and
final choice. What differs is how a node is named. The Python tree keys a node by the searching
seat's observation; here a node is the sequence of moves from the root (an open-addressing hash
table from (node, move) to the edge's statistics and child), which is the same information set:
within a deal every move after a seat's first decision is public (the dealer's hidden discard comes
before any other seat decides), and the tree ends with the deal. The two differ only where two
orders of play leave the same observation (a transposition, which the Python tree merges); on the
tests' positions they find the same visits, means and node counts
(``tests/agents/test_search_compiled_ismcts.py``).

Used when ``ismcts`` plays le_dix with ``engine=compiled`` and the options the compiled tree
covers: ``horizon=deal``, ``value`` ``points`` or ``margin``, ``opponents=tree``,
``expand=random``, ``root`` ``ucb`` or ``paired``, ``rollout`` ``greedy`` or ``random`` (le_dix's
defaults are all of these). Other options keep the tree on the reference engine with compiled
playouts (``core.ISMCTSAgent._simulate``).

A time budget (``seconds``) is checked between rounds: the first round is one world, then each round
at most doubles, sized to take at most half the time left (as ``compiled.pimc_search``).

numba's cache does not notice edits to the kernels this module calls (``dixenv/games/le_dix/compiled.py``,
``compiled.py``, ``dixenv/compiled/rng.py``): delete this module's ``__pycache__/*.nbi|*.nbc`` after changing them.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable

import numpy as np

from dixenv.compiled import require_numba

require_numba()

from numba import njit  # noqa: E402

from dixenv.agents.search.compiled import _playout, _random_rows, _redraw  # noqa: E402
from dixenv.games.le_dix import actions as A  # noqa: E402
from dixenv.games.le_dix.compiled import DEAL, MAX_LEGAL, P_N, PHASE, PLAYER, SCORE, LeDixBatch, _apply, _legal  # noqa: E402
from dixenv.games.le_dix.state import GAME_OVER  # noqa: E402

__all__ = ["CompiledTree", "covers", "ismcts_search"]

#: The options the compiled tree plays (``covers``); the others keep the reference engine's tree.
HORIZONS = ("deal",)
VALUES = ("points", "margin")
ROOTS = ("ucb", "paired")

_GAME_OVER = GAME_OVER
_EMPTY = np.int64(-1)
#: Edges one iteration can add at most (a deal's moves, each with its legal moves, and a child
#: each): the table grows before an iteration that could fill it past half.
_ITERATION_EDGES = 4096
_FIRST_CAPACITY = 1 << 14
_MAX_PATH = 256
#: Most worlds in one round of a time budget.
MAX_ROUND_WORLDS = 512


def covers(agent: Any) -> bool:
    """True if the compiled tree plays this ``ismcts`` agent's options (the module docstring)."""
    return (agent.game_name == "le_dix" and agent.horizon in HORIZONS and agent.value in VALUES and agent.root in ROOTS
            and agent.opponents == "tree" and agent.expand == "random")


# --- the tree: an open-addressing hash table ------------------------------------------------------
@njit(cache=True)
def _find(keys: np.ndarray, key: np.int64) -> np.int64:
    """The table slot of ``key``: where it is, or the empty slot where it belongs (linear probing)."""
    mask = keys.shape[0] - 1
    h = ((key ^ (key >> 16)) * 0x45D9F3B) & mask
    while keys[h] != key and keys[h] != _EMPTY:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def _edge(keys: np.ndarray, N: np.ndarray, M: np.ndarray, W: np.ndarray, child: np.ndarray, st: np.ndarray,
          key: np.int64) -> np.int64:
    """The slot of edge ``key`` (node * width + move), added with no visits if new."""
    h = _find(keys, key)
    if keys[h] == _EMPTY:
        keys[h] = key
        N[h] = 0
        M[h] = 0
        W[h] = 0.0
        child[h] = -1
        st[0] += 1
    return h


@njit(cache=True)
def _grow(keys: np.ndarray, N: np.ndarray, M: np.ndarray, W: np.ndarray, child: np.ndarray):
    """The table at twice the capacity, every edge rehashed."""
    cap = 2 * keys.shape[0]
    k2 = np.full(cap, _EMPTY, np.int64)
    N2 = np.zeros(cap, np.int32)
    M2 = np.zeros(cap, np.int32)
    W2 = np.zeros(cap, np.float64)
    c2 = np.full(cap, -1, np.int32)
    for h in range(keys.shape[0]):
        if keys[h] != _EMPTY:
            j = _find(k2, keys[h])
            k2[j] = keys[h]
            N2[j] = N[h]
            M2[j] = M[h]
            W2[j] = W[h]
            c2[j] = child[h]
    return k2, N2, M2, W2, c2


@njit(cache=True)
def _visit(keys: np.ndarray, N: np.ndarray, M: np.ndarray, W: np.ndarray, child: np.ndarray, st: np.ndarray,
           start: np.int64, buf: np.ndarray, k: int, slots: np.ndarray, untried: np.ndarray) -> int:
    """A walk meets a node (its edges' keys from ``start``, node * width): each of the ``k`` legal
    moves in ``buf`` gets its edge (``slots[i]``) and one availability more; the indices of the
    untried ones (no visit yet) go into ``untried``, whose count is returned."""
    n_untried = 0
    for i in range(k):
        e = _edge(keys, N, M, W, child, st, start + buf[i])
        slots[i] = e
        M[e] += 1
        if N[e] == 0:
            untried[n_untried] = i
            n_untried += 1
    return n_untried


@njit(cache=True)
def _ucb(N: np.ndarray, M: np.ndarray, W: np.ndarray, slots: np.ndarray, k: int, c: float) -> int:
    """The index of the best UCB score among the first ``k`` edges of ``slots`` that have visits
    (mean + c √(ln availability / visits); ties: the first, the lowest move id)."""
    best = -np.inf
    chosen = 0
    for i in range(k):
        e = slots[i]
        if N[e] == 0:
            continue  # not yet considered (progressive widening)
        score = W[e] / N[e] + c * math.sqrt(math.log(M[e]) / N[e])
        if score > best:
            best = score
            chosen = i
    return chosen


@njit(cache=True)
def _copy_game(I: np.ndarray, S: np.ndarray, C: np.ndarray, rng: np.ndarray, src: int, dst: int, with_rng: bool) -> None:
    I[dst] = I[src]
    S[dst] = S[src]
    C[dst] = C[src]
    if with_rng:
        rng[dst] = rng[src]


# --- the search -------------------------------------------------------------------------------------
@njit(cache=True)
def _iterations(
    I: np.ndarray, S: np.ndarray, C: np.ndarray, prm: np.ndarray, deals: np.ndarray, pts: np.ndarray, rng: np.ndarray,
    moves: np.ndarray, sources: np.ndarray, redraw: bool, world: int, work: int, seat: int, first: np.ndarray, sims: int,
    unif: np.ndarray, keys: np.ndarray, N: np.ndarray, M: np.ndarray, W: np.ndarray, child: np.ndarray, st: np.ndarray,
    width: int, c: float, depth: int, greedy: bool, margin: bool, base: np.ndarray, scale: float, mark: int,
):
    """``sims`` iterations of ``ISMCTSAgent._simulate`` (the module docstring); returns the table (grown
    if it had to be). ``st``: [edges, nodes, floats of ``unif`` used, worlds drawn, paired root move next, failed
    redraws, nodes met at a decision]. ``first`` empty: a ``ucb`` root; else the ``paired`` root's moves, each played once on
    every world. Each world is slot ``sources[worlds drawn % len]`` copied to slot ``world`` (with what
    ``seat`` cannot see redrawn if ``redraw``), then copied to slot ``work`` for each iteration on it."""
    n = prm[P_N]
    buf = np.empty(MAX_LEGAL, np.int64)
    untried = np.empty(MAX_LEGAL, np.int64)
    slots = np.empty(MAX_LEGAL, np.int64)
    path = np.empty(_MAX_PATH, np.int64)
    actor = np.empty(_MAX_PATH, np.int64)
    vals = np.empty(n, np.float64)
    m_root = first.shape[0]
    decision = width - 1  # the key that marks a node as met at a decision (``nodes``)
    for _ in range(sims):
        if 2 * (st[0] + _ITERATION_EDGES) > keys.shape[0]:
            keys, N, M, W, child = _grow(keys, N, M, W, child)
        j = st[4]
        if m_root == 0 or j == 0:  # a new world
            _copy_game(I, S, C, rng, sources[st[3] % sources.shape[0]], world, not redraw)
            st[3] += 1
            if redraw and not _redraw(I, S, C, prm, rng, world, seat):
                st[5] += 1
                return keys, N, M, W, child
        _copy_game(I, S, C, rng, world, work, True)
        g = work
        node = np.int64(0)
        steps = 0
        if m_root > 0:
            a = first[j]
            st[4] = (j + 1) % m_root
            e = _edge(keys, N, M, W, child, st, node * width + a)
            M[e] += 1
            path[0] = e
            actor[0] = seat
            steps = 1
            if child[e] < 0:
                st[1] += 1
                child[e] = st[1]
            node = child[e]
            _apply(I, S, C, prm, deals, pts, rng, g, a)
        while I[g, PHASE] != _GAME_OVER and I[g, DEAL] == mark:
            k = _legal(I, S, C, prm, g, buf)
            player = I[g, PLAYER]
            if k == 1:  # forced: no decision, but the move is part of the sequence the seat sees
                a = buf[0]
            else:
                if node != 0:  # a node of the Python tree's table (its root is apart)
                    before = st[0]
                    _edge(keys, N, M, W, child, st, node * width + decision)
                    st[6] += st[0] - before
                n_untried = _visit(keys, N, M, W, child, st, node * width, buf, k, slots, untried)
                if n_untried > 0:  # expand one untried move, then play out
                    i = untried[int(unif[st[2]] * n_untried)]
                    st[2] += 1
                    a = buf[i]
                    path[steps] = slots[i]
                    actor[steps] = player
                    steps += 1
                    _apply(I, S, C, prm, deals, pts, rng, g, a)
                    break
                chosen = _ucb(N, M, W, slots, k, c)
                a = buf[chosen]
                path[steps] = slots[chosen]
                actor[steps] = player
                steps += 1
            e = _edge(keys, N, M, W, child, st, node * width + a)
            if child[e] < 0:
                st[1] += 1
                child[e] = st[1]
            node = child[e]
            _apply(I, S, C, prm, deals, pts, rng, g, a)
        _playout(I, S, C, prm, deals, pts, rng, moves, g, False, depth, greedy, mark, buf)  # to the deal's end
        # the values (``_SearchAgent._values``: points, or margin over the other seats)
        total = 0.0
        for s in range(n):
            vals[s] = (np.float64(S[g, SCORE, s]) - base[s]) / scale
            total += vals[s]
        if margin:
            for s in range(n):
                vals[s] = vals[s] - (total - vals[s]) / (n - 1)
        for i in range(steps):
            N[path[i]] += 1
            W[path[i]] += vals[actor[i]]
    return keys, N, M, W, child


# --- the Python face --------------------------------------------------------------------------------
def new_table(capacity: int = 0) -> tuple[np.ndarray, ...]:
    """An empty edge table (keys, visits, availabilities, value sums, children)."""
    capacity = capacity or _FIRST_CAPACITY
    return (np.full(capacity, _EMPTY, np.int64), np.zeros(capacity, np.int32), np.zeros(capacity, np.int32),
            np.zeros(capacity, np.float64), np.full(capacity, -1, np.int32))


class CompiledTree:
    """An ``ismcts`` agent's compiled search: a batch whose slots hold the worlds' sources (the
    template, or the ``worlds=k`` pool), the world of the moment and the iteration's copy, and the
    call of the game's kernel. This class is le_dix's; ``compiled_ismcts_dix.DixTree`` is dix's."""

    Batch: type = LeDixBatch

    def __init__(self, config: Any):
        self.config = config
        self.width = self._width(config)
        self.batch: Any = None
        #: Redraw the worlds in compiled code; False: every world from the agent's ``world()``
        #: (``sample_hidden``), as the Python search draws them (the tests compare the two so).
        self.redraw = True
        self._moves = np.zeros((0, 6), dtype=np.uint64)

    @staticmethod
    def _width(config: Any) -> int:
        """Move ids per node in an edge's key (node * width + move)."""
        return A.num_actions(config.max_bid) + 1  # one id more: the mark of a decision node

    def capacity(self, sources: int) -> Any:
        """The batch, with room for ``sources`` worlds, the world of the moment and the iteration's copy."""
        if self.batch is None or self.batch.n < sources + 2:
            self.batch = self.Batch(self.config, sources + 2)
            self._moves = np.zeros((sources + 2, 6), dtype=np.uint64)
        return self.batch

    def new_tables(self) -> tuple[np.ndarray, ...]:
        return new_table()

    def iterate(self, agent: Any, tables: tuple, st: np.ndarray, sources: np.ndarray, redraw: bool, seat: int,
                first: np.ndarray, sims: int, unif: np.ndarray, base: np.ndarray, depth: int) -> tuple:
        """``sims`` iterations in one compiled call; the tables (grown if they had to be)."""
        b = self.batch
        n = len(sources)
        return _iterations(
            b.ints, b.seats, b.cards, b._prm, b._deals, b._pts, b.rng, self._moves, sources, redraw, n, n + 1, seat,
            first, sims, unif, *tables, st, self.width, agent.c, depth, agent.rollout == "greedy",
            agent.value == "margin", base, agent._scale, agent._mark,
        )


def ismcts_search(agent: Any, seat: int, legal: list[int], world: Callable[[], Any], start: float) -> tuple[int, dict[str, Any]]:
    """``ISMCTSAgent._search`` in one compiled call per round (the module docstring)."""
    tree: CompiledTree = agent._compiled_tree
    first = np.asarray(legal if agent._paired_root else [], dtype=np.int64)
    m = max(1, first.size)
    pool = [world()]
    if agent.worlds:  # the agent's Python worlds, in the order its ``_worlds`` cycles them
        pool += [world() for _ in range(agent.worlds - 1)]
    elif not tree.redraw:  # every world from ``world()``
        if agent.iterations is None:
            raise ValueError("the compiled tree draws Python worlds (redraw = False) for a budget of iterations only")
        pool += [world() for _ in range(-(-agent.iterations // m) - 1)]
    # else one template, each world redrawn from it in compiled code
    agent._begin(pool[0])
    batch = tree.capacity(len(pool))
    sources = np.arange(len(pool), dtype=np.int64)
    batch.load_states(sources, pool)
    world_slot, work = len(pool), len(pool) + 1
    redraw = tree.redraw and not agent.worlds
    if redraw:
        batch.rng[world_slot] = _random_rows(agent.rng, 1)[0]  # the redraws' (and later deals') stream
    if agent.rollout == "random":
        tree._moves[work] = _random_rows(agent.rng, 1)[0]
    tables = tree.new_tables()
    st = np.zeros(7, dtype=np.int64)
    base = np.asarray(agent._base, dtype=np.float64)
    depth = -1 if agent.depth is None else agent.depth
    done = 0
    per_round = 1 if agent.seconds is not None else -(-agent.iterations // m)  # in worlds
    while done == 0 or agent._budget_left(done, start):
        sims = per_round * m
        if agent.iterations is not None:
            sims = min(sims, agent.iterations - done)
        t = time.perf_counter()
        # At most one float per iteration (an expansion), taken in the order the Python search takes
        # them. (Drawn before the round's worlds here, after the first world there: the tests give
        # both searches a stream of floats of its own to compare them.)
        unif = np.array([agent._uniform() for _ in range(sims)])
        st[2] = 0  # the floats used, counted in this round's
        tables = tree.iterate(agent, tables, st, sources, redraw, seat, first, sims, unif, base, depth)
        if st[5]:
            raise ValueError(f"no deal fits what player_{seat} knows: the state breaks the rules")
        done += sims
        if agent.seconds is not None:  # the next round: at most twice this one, at most half the time left
            per_world = (time.perf_counter() - t) / max(1, sims // m)
            left = agent.seconds - (time.perf_counter() - start)
            per_round = max(1, min(2 * per_round, MAX_ROUND_WORLDS, int(left / 2 / per_world)))
    keys, N, _, W = tables[:4]
    visits, means = {}, {}
    for a in legal:  # the root's edges: node 0's, keyed by the move alone
        h = _find(keys, np.int64(a))
        n = int(N[h]) if keys[h] == a else 0
        visits[a] = n
        means[a] = float(W[h] / n) if n else float("-inf")
    if agent._paired_root:
        action = agent._choose(legal, means)
    else:  # the most visited action; ties go to the better mean, then to the lowest id
        action = max(legal, key=lambda a: (visits[a], means[a], -a))
    return action, {"iterations": done, "nodes": int(st[6]) + 1, "visits": visits, "means": means}
