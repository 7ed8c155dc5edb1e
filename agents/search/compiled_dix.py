"""``pimc``'s rollouts on the compiled dix engine (``pimc:engine=compiled`` in dix; the ``fast`` extra, numba).

The same scheme as le_dix's (``compiled.py``, whose ``pimc_search`` drives this class too): a
round's worlds lie in the slots of one ``DixBatch``, each copied once per root move (world i's copy
for move j is slot ``i * M + j``), and one compiled call applies every slot's root move and plays
its rollout to the end of the game (dix's only horizon) or ``depth`` moves. The values are those of
``_SearchAgent._values`` (``points``, ``margin``, ``win``) over all slots at once.

The worlds: one ``sample_hidden`` world of the decision is loaded (``DixBatch.load_states``) as a
template, and each world of a round is that template with its draw pile reshuffled in compiled code
(``_reshuffle``: a Fisher-Yates shuffle of the cards not yet drawn, uniform over their orders, which
is ``DixState.sample_hidden``'s law: in dix only the pile's order is hidden, from every seat alike).
A dix game draws nothing after its deal, so a slot's generator row is free: each world's row is
drawn from the agent's generator and shuffles that world's pile. With ``worlds=k`` (or ``redraw =
False``, the tests' way to compare with the Python engine) every world comes from the agent's
``world()`` instead and is loaded as it is.

What is the same as the Python engine: the pairing, ``width`` and ``deviate``, the ``greedy``
rollout (ALIX's rules from every seat, compiled move for move: ``tests/agents/test_search_compiled_dix.py``
checks it against ``dix._dix_greedy``), ``depth``, ``value`` and the mean of each move, summed in the
same order: on the same worlds the greedy search finds the Python one's means exactly. What
differs: the worlds are other draws of the same law, and a ``random`` rollout draws its moves from
generator rows of its own rather than the agent's stream of floats. In solo the engine plays ALIX
inside each move, as the reference does.

``rollout=policy`` (a trained policy's most likely move) is not a compiled kernel: after the root
moves, every slot still playing steps together from Python, one forward pass of the policy over
their observations and one ``DixBatch.step`` (forced moves, observations, masks) per step. On the
same worlds it scores what the Python engine's policy rollouts score (the tests).

numba's cache does not notice edits to the kernels this module calls (``dixenv/games/dix/compiled.py``,
``dixenv/compiled/rng.py``): delete this module's ``__pycache__/*.nbi|*.nbc`` after changing them.
"""

from __future__ import annotations


import numpy as np

from dixenv.compiled import require_numba

require_numba()

from numba import njit  # noqa: E402

from dixenv.agents.search.compiled import BatchRollouts, win_by_scores  # noqa: E402
from dixenv.agents.search.dix import GREEDY_DRAW_BELOW, GREEDY_TOP_BID  # noqa: E402
from dixenv.compiled.rng import integers  # noqa: E402
from dixenv.games.dix import actions as A  # noqa: E402
from dixenv.games.dix.compiled import (  # noqa: E402
    BUY_KIND,
    MAX_LEGAL,
    P_L,
    P_PILE,
    PHASE,
    PILE_POS,
    SCORE_SCRATCH,
    TAB_CURRENCY,
    TAB_TOTAL,
    DixBatch,
    _act,
    _legal,
    _refresh_scores,
)
from dixenv.games.dix.state import AUCTION, BUY, BUY_FINAL, DECIDE, GAME_OVER, LIMIT  # noqa: E402

__all__ = ["DixCompiledRollouts", "greedy_action"]

_DRAW, _TAKE_NUMBERS, _BID_BASE, _PASS, _SKIP = A.DRAW, A.TAKE_NUMBERS, A.BID_BASE, A.PASS, A.SKIP
_DECIDE, _AUCTION, _BUY, _BUY_FINAL, _GAME_OVER, _LIMIT = DECIDE, AUCTION, BUY, BUY_FINAL, GAME_OVER, LIMIT
_DRAW_BELOW, _TOP_BID = GREEDY_DRAW_BELOW, GREEDY_TOP_BID


# --- the greedy rollout policy, compiled ----------------------------------------------------------
# By hand, because numba cannot call the Python policy: ``dix._dix_greedy`` read from the row.
@njit(cache=True)
def _greedy(S: np.ndarray, g: int, buf: np.ndarray, k: int) -> int:
    """``_dix_greedy``'s move in game ``g``, among the ``k`` sorted legal ids in ``buf`` (k >= 2)."""
    phase = S[g, PHASE]
    if phase == _DECIDE:  # ``alix_decision`` at difficulty GREEDY_DRAW_BELOW; DRAW is the lowest id
        if buf[0] == _DRAW and S[g, TAB_TOTAL] < _DRAW_BELOW and S[g, TAB_CURRENCY] <= _LIMIT:
            return _DRAW
        return _TAKE_NUMBERS
    if phase == _AUCTION:  # buf[0] is the lowest bid, or PASS when no bid is affordable
        return buf[0] if buf[0] <= _BID_BASE + _TOP_BID else _PASS
    if phase == _BUY:
        return buf[0] if S[g, BUY_KIND] == _BUY_FINAL else _SKIP
    return buf[0]  # payment


@njit(cache=True)
def _greedy_in(S: np.ndarray, prm: np.ndarray, g: int) -> int:
    """The compiled greedy move in game ``g`` (for ``greedy_action``, the tests' entry point)."""
    buf = np.empty(MAX_LEGAL, np.int64)
    k = _legal(S, prm, g, buf)
    return buf[0] if k == 1 else _greedy(S, g, buf, k)


@njit(cache=True)
def _rollouts(S: np.ndarray, prm: np.ndarray, moves: np.ndarray, slots: np.ndarray, first: np.ndarray, depth: int,
              greedy: bool) -> None:
    """In each slot: apply ``first[k]`` (none if negative), then the rollout policy (forced moves as
    they come) until the game ends; at most ``depth`` moves (negative: no limit). The cached scores
    are refreshed at the end. One thread, as le_dix's (``compiled._rollouts``)."""
    buf = np.empty(MAX_LEGAL, np.int64)
    scratch = np.empty(SCORE_SCRATCH, np.int64)
    for k in range(slots.shape[0]):
        g = slots[k]
        if first[k] >= 0:
            _act(S, prm, g, first[k])
        steps = 0
        while S[g, PHASE] != _GAME_OVER:
            if depth >= 0 and steps >= depth:
                break
            n = _legal(S, prm, g, buf)
            if n == 1:
                action = buf[0]
            elif greedy:
                action = _greedy(S, g, buf, n)
            else:
                action = buf[integers(moves, g, n)]
            _act(S, prm, g, action)
            steps += 1
        _refresh_scores(S, prm, g, scratch)


@njit(cache=True)
def _reshuffle(S: np.ndarray, prm: np.ndarray, rng: np.ndarray, slots: np.ndarray) -> None:
    """Shuffle the cards not yet drawn in each slot's pile (Fisher-Yates, drawing from its ``rng`` row)."""
    pile, L = prm[P_PILE], prm[P_L]
    for k in range(slots.shape[0]):
        g = slots[k]
        pos = S[g, PILE_POS]
        for i in range(pos, L - 1):
            j = i + integers(rng, g, L - i)
            t = S[g, pile + i]
            S[g, pile + i] = S[g, pile + j]
            S[g, pile + j] = t


# --- the Python face --------------------------------------------------------------------------------
def greedy_action(batch: DixBatch, slot: int) -> int:
    """The compiled greedy rollout policy's move in a batch's slot (its only legal move when forced)."""
    return int(_greedy_in(batch.state, batch._prm, int(slot)))


class DixCompiledRollouts(BatchRollouts):
    """A dix pimc agent's rollouts on a ``DixBatch`` (``compiled.BatchRollouts``, driven by ``pimc_search``)."""

    Batch = DixBatch
    HORIZONS = ("game",)
    ROLLOUTS = ("random", "greedy", "policy")

    def _redraw_worlds(self, batch: DixBatch, starts: np.ndarray, rows: np.ndarray, seat: int) -> None:
        batch.state[starts] = self.template.state[0]
        batch.rng[starts] = rows  # a dix game draws nothing after its deal: the row only shuffles the pile
        _reshuffle(batch.state, batch._prm, batch.rng, starts)

    def _roll(self, batch: DixBatch, slots: np.ndarray, first: np.ndarray, mark: int) -> None:
        if self.policy is None:
            _rollouts(batch.state, batch._prm, self._moves, slots, first, self.depth, self.greedy)
            return
        # rollout='policy': the root moves in compiled code, then every slot's game steps together,
        # one forward pass over the slots still playing per step (``DixBatch.step``: forced moves,
        # observations and masks in one compiled pass), to the end of the game.
        none = np.full(len(slots), -1, dtype=np.int64)
        _rollouts(batch.state, batch._prm, self._moves, slots, first, 0, True)  # depth 0: the root moves only
        actions = np.full(batch.n, -1, dtype=np.int64)
        obs, masks = batch.step(actions, -1)  # forced moves first
        while True:
            live = slots[batch.state[slots, PHASE] != _GAME_OVER]
            if not live.size:
                break
            actions[:] = -1
            actions[live] = self.policy.act_batch(obs[live], masks[live])
            batch.step(actions, -1, obs, masks)
        _rollouts(batch.state, batch._prm, self._moves, slots, none, 0, True)  # refresh the cached scores

    def values(self, batch: DixBatch, slots: np.ndarray, base: list[float], scale: float) -> np.ndarray:
        """``_SearchAgent._values`` of dix (no teams, no estimate) for the rolled-out slots."""
        scores = batch.field("scores")[slots].astype(np.float64)  # the slots' cached scores (refreshed by ``_rollouts``)
        if self.value != "win":
            return self.gains(scores, base, scale)
        # Ended games: win_rewards of the ranking keys (tie-breaks on money, then cards); a game cut
        # short by ``depth``: of the scores alone, as ``_values`` ranks ``(score,)`` tuples.
        out = win_by_scores(scores)
        over = slots[batch.state[slots, PHASE] == _GAME_OVER]
        if over.size:
            out[over] = batch.win_results(over)  # slots are 0..limit-1: a slot is its row
        return out
