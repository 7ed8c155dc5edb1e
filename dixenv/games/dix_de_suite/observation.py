"""What one seat may know in dix de suite, as a flat float32 vector with a documented layout.

Seats are relative to the observer (0 = the observer, 1 = their left, …). ``D`` is the number of
cards in play (40/50/60), card ``c`` is index ``c - 1`` of every per-card piece, and
``P = D - 10 × players + 1`` (= 21 for every player count; the 20 cards outside the racks, plus one)
scales pile sizes and depths into [0, 1).

Public knowledge encoded so that an agent needs no memory: every card of the discard pile and its
depth; the cards everybody saw go into a rack and their slot (``known`` in the engine); after an
unshuffled turn-over, the whole order of the draw pile (it is the old discard pile, turned over);
the slot history of every rack (when each slot was last replaced, even by a card nobody saw);
each player's last turn; the pools of hidden cards (which cards may be in which places, see
``dixenv.games.dix_de_suite.state``); and the previous round's result.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from dixenv.core.layout import Layout, Piece
from dixenv.games.dix_de_suite.cards import RACK_SIZE
from dixenv.games.dix_de_suite.config import DixDeSuiteConfig
from dixenv.games.dix_de_suite.scoring import POINTS_PER_CARD, WIN_POINTS, max_round_points
from dixenv.games.dix_de_suite.state import PHASE_PLACE, PHASE_SOURCE, DixDeSuiteState


def max_rounds(config: DixDeSuiteConfig) -> int:
    """The most rounds a game can last, from the scoring rules (the scale of the ``round`` piece).

    Every round gives its winner 75 points and every other seat at least 5, so the points of all
    seats together grow by at least 75 + 5 × (n − 1) per round; before the last round every seat
    (with ``teams``: each of the two teams) is still below the target. Hence at most
    ⌊total below the target / points per round⌋ rounds come before the last one.
    """
    n, target = config.num_players, config.target_score
    per_round = WIN_POINTS + POINTS_PER_CARD * (n - 1)
    sides = 2 if config.teams else n
    return sides * (target - 1) // per_round + 1


def make_layout(config: DixDeSuiteConfig) -> Layout:
    """The observation layout for a config (its pieces are the documentation)."""
    n, d = config.num_players, config.deck_size
    p = d - RACK_SIZE * n + 1
    top = max_round_points(config.run_bonus)
    target = config.target_score
    rounds = max_rounds(config)
    return Layout(
        [
            Piece("own_rack", (RACK_SIZE,), f"own card in slot 1..10, as card / {d}"),
            Piece("own_rack_cards", (RACK_SIZE, d), "own rack one-hot: [slot, card − 1] = 1"),
            Piece("own_public", (RACK_SIZE,), "1 for each own slot whose card the opponents know (it came face up)"),
            Piece(
                "held_card",
                (d,),
                "one-hot of the card the player to act holds between its two decisions, when the observer may "
                "know it (its own card, a card taken from the discard pile, a card from a public-order draw pile)",
            ),
            Piece(
                "phase",
                (3,),
                "one-hot: [0] choosing draw / take discard, [1] placing a draw-pile card (swap K or discard), "
                "[2] placing a discard-pile card (swap K only); all 0 when the game is over",
            ),
            Piece("current_player", (n,), "one-hot relative seat of the player to act (0 = observer); 0 when over"),
            Piece("dealer", (n,), "one-hot relative seat of this round's dealer (the player at its left starts)"),
            Piece("discard_top", (d,), "one-hot of the top card of the discard pile"),
            Piece("discard_cards", (d,), "1 for every card in the discard pile"),
            Piece("discard_depth", (d,), f"for cards in the discard pile: (depth + 1) / {p}, top card = 1/{p}; else 0"),
            Piece("draw_pile_size", (1,), f"cards in the draw pile / {p}"),
            Piece(
                "draw_pile_public",
                (1,),
                "1 when the draw pile's order is public (it is the discard pile turned over without shuffling)",
            ),
            Piece(
                "draw_pile_depth",
                (d,),
                f"when the order is public: for each card in the draw pile (depth + 1) / {p}, top = 1/{p}; else 0",
            ),
            Piece(
                "unseen",
                (d,),
                "1 for every card the observer has not seen where it is now: in an opponent's rack at a slot "
                "nobody saw, in a hidden-order draw pile, or held unseen by the player to act (the cards with "
                "card_pool > 0 outside the observer's own rack and hand)",
            ),
            Piece(
                "opp_known",
                (n - 1, RACK_SIZE),
                f"row r = relative seat r + 1; the card publicly known to be in slot 1..10, as card / {d}; 0 unknown",
            ),
            Piece("opp_known_cards", (n - 1, d), "row r = relative seat r + 1; 1 for each card publicly known in that rack"),
            Piece(
                "opp_prefix",
                (n - 1,),
                "ascending-prefix length / 10 where it is known from the slots seen (slots 1..L known and "
                "ascending, and L = 10 or slot L+1 known and lower than slot L); else 0",
            ),
            Piece("opp_prefix_known", (n - 1,), "1 where opp_prefix is known"),
            Piece(
                "slot_recency",
                (n, RACK_SIZE),
                "row = relative seat (0 = observer): for each slot that seat has replaced this round, "
                "1 / (1 + its own turns played since), so 1 = at its last turn, 1/2 the turn before, …; "
                "0 = still the dealt card",
            ),
            Piece(
                "slot_pool",
                (n, RACK_SIZE),
                "row = relative seat (0 = observer): for each slot whose card nobody saw go in (dealt, or "
                "drawn from a hidden draw pile), the recency of the pool it belongs to, as in card_pool; "
                "0 = its card is publicly known",
            ),
            Piece(
                "card_pool",
                (d,),
                "for each card nobody has seen since its pool was formed (dealt, first draw pile, or, with "
                "reshuffle, shuffled back into the draw pile): 1 / (1 + reshuffles since), so 1 = the newest "
                "pool, the one a hidden draw pile holds; a pool's cards fill exactly its places (slots with "
                "that slot_pool value, and for the newest, the hidden draw pile and a card drawn unseen); "
                "0 = the card's place is public",
            ),
            Piece(
                "last_turn",
                (n, 3),
                "row = relative seat: one-hot of its last turn this round: [0] drew and discarded, [1] drew "
                "and swapped (the slot has slot_recency 1), [2] took the discard and swapped; 0 = none yet",
            ),
            Piece("last_turn_card", (n,), f"row = relative seat: the card it put on the discard pile at its last turn, / {d}; 0 = none yet"),
            Piece(
                "scores",
                (n,),
                f"points of each relative seat / target_score (with teams: still per seat); up to "
                f"(target − 1 + {top}) / target at the end (a seat below the target wins the last round)",
                high=(target - 1 + top) / target,
            ),
            Piece("round", (1,), f"round number (1, 2, …) / {rounds}, the most rounds a game can last (max_rounds)"),
            Piece("round_turns", (1,), "turns played in this round (all players) / max_turns"),
            Piece("variants", (4,), "options in force: [reshuffle, two_player_run, teams, run_bonus]"),
            Piece("last_round_winner", (n,), "one-hot relative seat of the previous round's winner; 0 in the first round"),
            Piece(
                "last_round_points",
                (n,),
                f"points each relative seat scored in the previous round / {top} (the most a round pays); 0 in the first round",
            ),
        ]
    )


def known_prefix(known: list[int]) -> int:
    """Ascending-prefix length of a rack from its public slots (0 = unknown), or 0 when not known exactly."""
    prev = known[0]
    if not prev:
        return 0
    for i in range(1, RACK_SIZE):
        c = known[i]
        if not c:
            return 0  # slots 1..i are ascending but slot i+1 is unseen: the prefix could be longer
        if c < prev:
            return i
        prev = c
    return RACK_SIZE


@lru_cache(maxsize=16)
def _depth_values(pile_max: int) -> tuple[tuple[float, ...], ...]:
    """``[L][i]``: the value of the i-th card (bottom first) of a pile of L cards, (depth + 1) / P.

    ``P = pile_max`` (the scale of the depth pieces); shared by every observer of that scale.
    """
    p = float(pile_max)
    return tuple(tuple((size - i) / p for i in range(size)) for size in range(pile_max + 1))


#: What ``DixDeSuiteObserver._attach`` rebuilds (views of the tensor, shared tables, a cache).
_ATTACHED = frozenset({"_unseen", "_card_pool", "_slot_pool", "_depths", "_tables"})


class DixDeSuiteObserver:
    """Fills one preallocated float32 tensor with what a seat may know (``set_from``)."""

    def __init__(self, config: DixDeSuiteConfig):
        self.config = config
        self.layout = make_layout(config)
        self.tensor = self.layout.tensor
        n, d = config.num_players, config.deck_size
        self._n, self._d = n, d
        self._p = float(d - RACK_SIZE * n + 1)
        off = {name: s.start for name, s in self.layout.slices.items()}
        self._rows = [np.array([(seat + r) % n for r in range(n)]) for seat in range(n)]  # relative seat order
        self._variants = [
            float(config.reshuffle),
            float(config.two_player_run),
            float(config.teams),
            float(config.run_bonus),
        ]
        # Flat offsets as plain ints for the hot loop. Per-card pieces are stored minus one, so
        # that offset + card is the card's entry (card c is entry c - 1 of its piece).
        self._o_rack_cards = off["own_rack_cards"] - 1  # slot k, card c: + k * D + c
        self._o_public = off["own_public"]
        self._o_held = off["held_card"] - 1
        self._o_phase = off["phase"]
        self._o_cur = off["current_player"]
        self._o_dealer = off["dealer"]
        self._o_dtop = off["discard_top"] - 1
        self._o_dcards = off["discard_cards"] - 1
        self._o_ddepth = off["discard_depth"] - 1
        self._o_dsize = off["draw_pile_size"]
        self._o_dpub = off["draw_pile_public"]
        self._o_pdepth = off["draw_pile_depth"] - 1
        self._o_oknown = off["opp_known"]
        self._o_ocards = off["opp_known_cards"] - 1
        self._o_oprefix = off["opp_prefix"]
        self._o_oprefix_known = off["opp_prefix_known"]
        self._o_recency = off["slot_recency"]
        self._o_unseen = off["unseen"] - 1
        self._o_last_turn = off["last_turn"] - 1  # + 3 * row + kind (kinds are 1..3)
        self._o_last_card = off["last_turn_card"]
        self._o_last_winner = off["last_round_winner"]
        self._o_last_points = off["last_round_points"]
        self._rack_idx = [off["own_rack"] + k for k in range(RACK_SIZE)]
        # Indices of the scalars written last, in the order their values are appended.
        self._tail_idx = [off["scores"] + r for r in range(n)] + [off["round"], off["round_turns"]]
        self._tail_idx += [off["variants"] + i for i in range(4)]
        self._scale = [c / d for c in range(d + 1)]  # card -> card / D
        self._round_scale = 1.0 / max_rounds(config)
        self._points_scale = 1.0 / max_round_points(config.run_bonus)
        self._attach()

    def _attach(self) -> None:
        """The pool pieces as views of ``tensor`` (written whole by ``_set_pools``), the depth values
        shared by every observer of the config, and an empty cache of pool tables."""
        t, sl = self.tensor, self.layout.slices
        self._unseen = t[sl["unseen"]]
        self._card_pool = t[sl["card_pool"]]
        self._slot_pool = t[sl["slot_pool"]].reshape(self._n, RACK_SIZE)
        self._depths = _depth_values(self._d - RACK_SIZE * self._n + 1)
        self._tables: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    # A copy (``copy.deepcopy``, ``pickle``) would copy the views as arrays of their own, detached
    # from the copied tensor (so set_from would never write the pools into it): copy the rest, then
    # attach the views again (and the shared depths; the pool tables are a cache, rebuilt on use).
    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in _ATTACHED}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._attach()

    def set_from(self, state: DixDeSuiteState, seat: int) -> None:
        """Fill ``tensor`` in place with what ``seat`` may know of ``state``."""
        # Hot path: collect flat indices (to 1, to a value) in Python lists and write them with
        # two fancy assignments; at these sizes numpy calls and comprehensions (a call each
        # before Python 3.12) cost more than plain appends. The per-card and per-slot pools are
        # whole blocks, written by table lookups from the engine's arrays (``_set_pools``).
        t = self.tensor
        t.fill(0.0)
        n = self._n
        scale = self._scale
        idx = self._rack_idx[:]
        vals: list[float] = []
        ones: list[int] = []
        rack = state.racks[seat]
        o_rack_cards, d = self._o_rack_cards, self._d
        for k, c in enumerate(rack):
            vals.append(scale[c])
            ones.append(o_rack_cards + k * d + c)
        o_public = self._o_public
        for k, c in enumerate(state.known[seat]):
            if c:
                ones.append(o_public + k)

        mine = rack[:]  # the publicly hidden cards the observer sees: its rack and its own held card
        cur = state.current
        if cur >= 0:
            phase = state.phase
            if phase == PHASE_SOURCE:
                ones.append(self._o_phase)
            elif phase == PHASE_PLACE:
                ones.append(self._o_phase + (2 if state.held_from_discard else 1))
                if cur == seat or state.held_public:
                    ones.append(self._o_held + state.held)
                    mine.append(state.held)
            ones.append(self._o_cur + (cur - seat) % n)
        ones.append(self._o_dealer + (state.dealer - seat) % n)

        discard = state.discard
        if discard:
            ones.append(self._o_dtop + discard[-1])
            o_cards, o_depth = self._o_dcards, self._o_ddepth
            for c in discard:
                ones.append(o_cards + c)
                idx.append(o_depth + c)
            vals += self._depths[len(discard)]

        pile = state.draw_pile
        idx.append(self._o_dsize)
        vals.append(len(pile) / self._p)
        if state.draw_public:
            ones.append(self._o_dpub)
            o_depth = self._o_pdepth
            for c in pile:
                idx.append(o_depth + c)
            vals += self._depths[len(pile)]

        known = state.known
        for r in range(1, n):
            row = known[(seat + r) % n]
            if not any(row):
                continue
            base = self._o_oknown + (r - 1) * RACK_SIZE
            cbase = self._o_ocards + (r - 1) * d
            k = 0
            for c in row:
                if c:
                    idx.append(base + k)
                    vals.append(scale[c])
                    ones.append(cbase + c)
                k += 1
            pre = known_prefix(row)
            if pre:
                idx.append(self._o_oprefix + r - 1)
                vals.append(pre / RACK_SIZE)
                ones.append(self._o_oprefix_known + r - 1)

        last_turn, last_out = state.last_turn, state.last_out
        for r in range(n):
            s = (seat + r) % n
            if last_turn[s]:
                ones.append(self._o_last_turn + 3 * r + last_turn[s])
                idx.append(self._o_last_card + r)
                vals.append(scale[last_out[s]])
        slot_turn, seat_turns = state.slot_turn, state.seat_turns
        for r in range(n):
            s = (seat + r) % n
            played = seat_turns[s]
            if played:
                k = self._o_recency + r * RACK_SIZE
                for turn in slot_turn[s]:
                    if turn >= 0:
                        # replaced at its own turn `turn` (0-based) of `played`: played - 1 - turn turns ago
                        idx.append(k)
                        vals.append(1.0 / (played - turn))
                    k += 1
        if state.last_round_points is not None:
            ones.append(self._o_last_winner + (state.last_round_winner - seat) % n)
            points = state.last_round_points
            for r in range(n):
                idx.append(self._o_last_points + r)
                vals.append(points[(seat + r) % n] * self._points_scale)

        target = state.config.target_score
        scores = state.scores_
        idx += self._tail_idx
        for r in range(n):
            vals.append(scores[(seat + r) % n] / target)
        vals.append(state.round * self._round_scale)
        vals.append(state.round_turns / state.config.max_turns)
        vals += self._variants

        self._set_pools(state, seat)
        o_unseen = self._o_unseen
        idx += [o_unseen + c for c in mine]  # the observer's own cards are not unseen
        vals += [0.0] * len(mine)
        fromiter, intp = np.fromiter, np.intp
        t[fromiter(ones, intp, len(ones))] = 1.0
        t[fromiter(idx, intp, len(idx))] = vals

    def _pool_tables(self, newest: int) -> tuple[np.ndarray, np.ndarray]:
        """Lookup tables by pool code (g = 0..newest, and -1 at the end for a public place): the
        pool's recency 1 / (1 + newest - g) (0 for -1), and 1 for any pool (0 for -1)."""
        tables = self._tables.get(newest)
        if tables is None:
            if len(self._tables) >= 64:  # a table is O(pools): keep the memory bounded in very long rounds
                self._tables.clear()
            recency = [1.0 / (1 + newest - g) for g in range(newest + 1)]
            tables = np.array(recency + [0.0], dtype=np.float32), np.array([1.0] * (newest + 1) + [0.0], dtype=np.float32)
            self._tables[newest] = tables
        return tables

    def _set_pools(self, state: DixDeSuiteState, seat: int) -> None:
        """The per-slot pools (rows relative to ``seat``), the per-card pools, and ``unseen`` from them."""
        # Whole blocks, one table lookup each on the engine's numpy arrays: measured faster than
        # Python loops or elementwise arithmetic.
        recency, hidden = self._pool_tables(state.pool)
        recency.take(state.slot_pool.take(self._rows[seat], axis=0), out=self._slot_pool)
        codes = state.card_pool[1:]
        recency.take(codes, out=self._card_pool)
        hidden.take(codes, out=self._unseen)  # set_from clears the observer's own cards


def make_observer(config: DixDeSuiteConfig) -> DixDeSuiteObserver:
    """A new observer (with its own tensor) for a config."""
    return DixDeSuiteObserver(config)
