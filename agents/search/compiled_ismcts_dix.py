"""``ismcts:engine=compiled`` in dix: the whole search on the compiled engine, tree included.

The same scheme as le_dix's (``compiled_ismcts.py``, whose ``ismcts_search`` drives this class
too): one compiled call runs a round of iterations, each reshuffling its world's pile
(``compiled_dix._reshuffle``, ``sample_hidden``'s law; with ``worlds=k`` the agent's own Python
worlds), walking and growing the tree, playing out and backing the values up.

The algorithm is ``core.ISMCTSAgent._simulate``'s, move for move, with dix's defaults and the
other options it covers: the ``paired`` or ``ucb`` root, the other seats in the tree or played by
the rollout policy (``opponents`` ``tree`` or ``policy``), expansion at random or from the rollout
policy's move with progressive widening (``expand`` ``random`` or ``policy``: a node visited n times
considers 1 + ⌊√(n/4)⌋ of its moves), the greedy or random rollout to the game's end or ``depth``
moves, and the values ``points``, ``margin`` and ``win``. A node is named as the Python tree names
it: who acts and the searching seat's observation, here as a 64-bit hash of the compiled
observation row (``dix.compiled._observe``, the Python observer's tensor float for float), kept in a
second open-addressing table that maps the hash to the node's number. Two observations with the
same hash would share a node; at 2^-64 a pair that does not happen in practice. On the same
worlds and floats the two searches find the same visits, means and node counts
(``tests/agents/test_search_compiled_ismcts.py``).

A ``random`` rollout, and a random policy move of the tree's other seats, draw from a generator
row of their own (``moves``) rather than the agent's stream of floats, as ``compiled_dix`` does.

numba's cache does not notice edits to the kernels this module calls (``dixenv/games/dix/compiled.py``,
``compiled_dix.py``, ``compiled_ismcts.py``, ``dixenv/compiled/rng.py``): delete this module's
``__pycache__/*.nbi|*.nbc`` after changing them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dixenv.compiled import require_numba

require_numba()

from numba import njit  # noqa: E402

from dixenv.agents.search.compiled_dix import _greedy, _reshuffle  # noqa: E402
from dixenv.agents.search.compiled_ismcts import (  # noqa: E402
    _EMPTY,
    _ITERATION_EDGES,
    CompiledTree,
    _edge,
    _find,
    _grow,
    _ucb,
    _visit,
    new_table,
)
from dixenv.compiled.rng import integers  # noqa: E402
from dixenv.games.dix.compiled import (  # noqa: E402
    ACTOR,
    MAX_LEGAL,
    NUM_ACTIONS,
    P_N,
    P_SCORE,
    PHASE,
    SCORE_SCRATCH,
    DixBatch,
    _act,
    _legal,
    _observe,
    _refresh_scores,
    _win_results,
)
from dixenv.games.dix.state import GAME_OVER  # noqa: E402

__all__ = ["DixTree", "covers"]

_GAME_OVER = GAME_OVER
VALUES = {"points": 0, "margin": 1, "win": 2}


def covers(agent: Any) -> bool:
    """True if the compiled tree plays this dix ``ismcts`` agent's options (the module docstring)."""
    return (agent.game_name == "dix" and agent.root in ("ucb", "paired") and agent.opponents in ("tree", "policy")
            and agent.rollout in ("random", "greedy"))  # rollout=policy: the Python tree, compiled playouts


# --- nodes: the hash of what the seat observes -> the node's number -------------------------------
@njit(cache=True)
def _obs_hash(row: np.ndarray, player: int) -> np.int64:
    """A 64-bit hash of (the player to act, the observation row's float bits): FNV-1a over the words."""
    h = np.uint64(0xCBF29CE484222325) ^ np.uint64(player + 1)
    prime = np.uint64(0x100000001B3)
    words = row.view(np.uint32)
    for i in range(words.shape[0]):
        h = (h ^ np.uint64(words[i])) * prime
    key = np.int64(h >> np.uint64(1))  # non-negative: -1 marks an empty slot
    return key


@njit(cache=True)
def _node(nkeys: np.ndarray, nids: np.ndarray, st: np.ndarray, key: np.int64) -> np.int64:
    """The node of observation hash ``key``, numbered from 1 if new (0 is the ucb root)."""
    h = _find(nkeys, key)
    if nkeys[h] == _EMPTY:
        nkeys[h] = key
        st[6] += 1
        nids[h] = st[6]
    return nids[h]


@njit(cache=True)
def _grow_nodes(nkeys: np.ndarray, nids: np.ndarray):
    cap = 2 * nkeys.shape[0]
    k2 = np.full(cap, _EMPTY, np.int64)
    i2 = np.zeros(cap, np.int64)
    for h in range(nkeys.shape[0]):
        if nkeys[h] != _EMPTY:
            j = _find(k2, nkeys[h])
            k2[j] = nkeys[h]
            i2[j] = nids[h]
    return k2, i2


@njit(cache=True)
def _isqrt(x: int) -> int:
    r = int(math.sqrt(x))
    while r * r > x:
        r -= 1
    while (r + 1) * (r + 1) <= x:
        r += 1
    return r


@njit(cache=True)
def _policy_move(S: np.ndarray, g: int, buf: np.ndarray, k: int, greedy: bool, moves: np.ndarray) -> int:
    """The rollout policy's move among the ``k`` legal ids in ``buf`` (k >= 2)."""
    if greedy:
        return _greedy(S, g, buf, k)
    return buf[integers(moves, g, k)]


# --- the search -------------------------------------------------------------------------------------
@njit(cache=True)
def _iterations(
    S: np.ndarray, prm: np.ndarray, idx: np.ndarray, scl: np.ndarray, offs: np.ndarray, rules: np.ndarray,
    rng: np.ndarray, moves: np.ndarray, sources: np.ndarray, redraw: bool, world: int, work: int, seat: int,
    first: np.ndarray, sims: int, unif: np.ndarray, keys: np.ndarray, N: np.ndarray, M: np.ndarray, W: np.ndarray,
    child: np.ndarray, nkeys: np.ndarray, nids: np.ndarray, st: np.ndarray, c: float, depth: int, greedy: bool,
    value: int, by_policy: bool, widen: bool, base: np.ndarray, scale: float, row: np.ndarray,
):
    """``sims`` iterations of ``ISMCTSAgent._simulate`` in dix (the module docstring); returns the edge
    table and the node table (grown if they had to be). ``st`` as in ``compiled_ismcts._iterations``."""
    n = prm[P_N]
    buf = np.empty(MAX_LEGAL, np.int64)
    untried = np.empty(MAX_LEGAL, np.int64)
    slots = np.empty(MAX_LEGAL, np.int64)
    path = np.empty(4096, np.int64)  # the keys of the walk's edges (the table may grow during a walk)
    actor = np.empty(4096, np.int64)
    vals = np.empty(n, np.float64)
    scratch = np.empty(SCORE_SCRATCH, np.int64)
    one = np.full(1, world, np.int64)
    last = np.zeros(1, np.int64)
    ranked = np.empty((1, n), np.float64)
    m_root = first.shape[0]
    width = NUM_ACTIONS
    for _ in range(sims):
        if 2 * (st[0] + _ITERATION_EDGES) > keys.shape[0]:
            keys, N, M, W, child = _grow(keys, N, M, W, child)
        if 2 * (st[6] + 512) > nkeys.shape[0]:
            nkeys, nids = _grow_nodes(nkeys, nids)
        j = st[4]
        if m_root == 0 or j == 0:  # a new world: the pile reshuffled (a dix game draws nothing else)
            S[world] = S[sources[st[3] % sources.shape[0]]]
            st[3] += 1
            if redraw:
                _reshuffle(S, prm, rng, one)
        S[work] = S[world]
        g = work
        node = np.int64(0)
        have_node = m_root == 0  # a ucb root is node 0; below it each decision is keyed anew
        steps = 0
        if m_root > 0:
            a = first[j]
            st[4] = (j + 1) % m_root
            e = _edge(keys, N, M, W, child, st, a)
            M[e] += 1
            path[0] = a
            actor[0] = seat
            steps = 1
            _act(S, prm, g, a)
        while S[g, PHASE] != _GAME_OVER and steps < path.shape[0]:
            k = _legal(S, prm, g, buf)
            if k == 1:  # forced: no decision, no node
                _act(S, prm, g, buf[0])
                have_node = False
                continue
            player = S[g, ACTOR]
            if player != seat and by_policy:
                _act(S, prm, g, _policy_move(S, g, buf, k, greedy, moves))
                have_node = False
                continue
            if not have_node:
                _refresh_scores(S, prm, g, scratch)
                _observe(S, prm, idx, scl, offs, rules, g, seat, row)
                node = _node(nkeys, nids, st, _obs_hash(row, player))
                have_node = True
            if 2 * (st[0] + k) > keys.shape[0]:
                keys, N, M, W, child = _grow(keys, N, M, W, child)
            n_untried = _visit(keys, N, M, W, child, st, node * width, buf, k, slots, untried)
            if n_untried > 0 and widen:
                # Progressive widening: the rollout policy's move first; a node visited v times
                # considers 1 + isqrt(v / 4) of its moves, the others joining at random.
                visits = 0
                for i in range(k):
                    visits += N[slots[i]]
                if k - n_untried >= 1 + _isqrt(visits // 4):
                    n_untried = 0  # wide enough for now: choose among the tried moves
                else:
                    pm = _policy_move(S, g, buf, k, greedy, moves)
                    for t in range(n_untried):
                        if buf[untried[t]] == pm:
                            untried[0] = untried[t]
                            n_untried = 1
                            break
            if n_untried > 0:  # expand one untried move, then play out
                i = untried[int(unif[st[2]] * n_untried)]
                st[2] += 1
                path[steps] = node * width + buf[i]
                actor[steps] = player
                steps += 1
                _act(S, prm, g, buf[i])
                break
            chosen = _ucb(N, M, W, slots, k, c)
            path[steps] = node * width + buf[chosen]
            actor[steps] = player
            steps += 1
            _act(S, prm, g, buf[chosen])
            have_node = False
        # the playout: the rollout policy to the game's end (or ``depth`` moves)
        played = 0
        while S[g, PHASE] != _GAME_OVER:
            if depth >= 0 and played >= depth:
                break
            k = _legal(S, prm, g, buf)
            _act(S, prm, g, buf[0] if k == 1 else _policy_move(S, g, buf, k, greedy, moves))
            played += 1
        # the values (``_SearchAgent._values``)
        _refresh_scores(S, prm, g, scratch)
        if value == 2 and S[g, PHASE] == _GAME_OVER:  # the ranking's result, tie-breaks included
            last[0] = g
            _win_results(S, prm, last, ranked)
            for s in range(n):
                vals[s] = ranked[0, s]
        elif value == 2:  # cut short by ``depth``: the scores alone rank the seats
            for s in range(n):
                net = 0
                for o in range(n):
                    if o != s and S[g, prm[P_SCORE] + s] != S[g, prm[P_SCORE] + o]:
                        net += 1 if S[g, prm[P_SCORE] + s] > S[g, prm[P_SCORE] + o] else -1
                vals[s] = net / (n - 1)
        else:
            total = 0.0
            for s in range(n):
                vals[s] = (np.float64(S[g, prm[P_SCORE] + s]) - base[s]) / scale
                total += vals[s]
            if value == 1:
                for s in range(n):
                    vals[s] = vals[s] - (total - vals[s]) / (n - 1)
        for i in range(steps):
            e = _find(keys, path[i])
            N[e] += 1
            W[e] += vals[actor[i]]
    return keys, N, M, W, child, nkeys, nids


# --- the Python face --------------------------------------------------------------------------------
class DixTree(CompiledTree):
    """A dix ``ismcts`` agent's compiled search (``compiled_ismcts.CompiledTree``, driven by ``ismcts_search``)."""

    Batch = DixBatch

    def __init__(self, config: Any):
        super().__init__(config)
        self._row = np.zeros(0, dtype=np.float32)  # the observation a node is keyed by

    @staticmethod
    def _width(config: Any) -> int:
        return NUM_ACTIONS

    def capacity(self, sources: int) -> Any:
        batch = super().capacity(sources)
        if self._row.size != batch.obs_size:
            self._row = np.zeros(batch.obs_size, dtype=np.float32)
        return batch

    def new_tables(self) -> tuple[np.ndarray, ...]:
        edges = new_table()
        return (*edges, np.full(edges[0].size, _EMPTY, np.int64), np.zeros(edges[0].size, np.int64))

    def iterate(self, agent: Any, tables: tuple, st: np.ndarray, sources: np.ndarray, redraw: bool, seat: int,
                first: np.ndarray, sims: int, unif: np.ndarray, base: np.ndarray, depth: int) -> tuple:
        b = self.batch
        n = len(sources)
        return _iterations(
            b.state, b._prm, b._idx, b._scl, b._offs, b._rules, b.rng, self._moves, sources, redraw, n, n + 1, seat,
            first, sims, unif, *tables, st, agent.c, depth, agent.rollout == "greedy", VALUES[agent.value],
            agent.opponents == "policy", agent.expand == "policy", base, agent._scale, self._row,
        )
