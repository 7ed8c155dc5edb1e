"""What one seat may know in dix de suite, as a flat float32 vector with a documented layout.

Seats are relative to the observer (0 = the observer, 1 = their left, …). ``D`` is the number of
cards in play (40/50/60), card ``c`` is index ``c - 1`` of every per-card piece, and
``P = D - 10 × players + 1`` (= 21 for every player count; the 20 cards outside the racks, plus one)
scales pile sizes and depths into [0, 1).

Public knowledge encoded so that an agent needs no memory: every card of the discard pile and its
depth; the cards everybody saw go into a rack and their slot (``known`` in the engine); after an
unshuffled turn-over, the whole order of the draw pile (it is the old discard pile, turned over).
"""

from __future__ import annotations

import numpy as np

from dixenv.core.layout import Layout, Piece
from dixenv.games.dix_de_suite.cards import RACK_SIZE
from dixenv.games.dix_de_suite.config import DixDeSuiteConfig
from dixenv.games.dix_de_suite.state import PHASE_PLACE, PHASE_SOURCE, DixDeSuiteState

#: Rounds are counted up to this in the ``round`` piece (a game to 500 takes about 7–15 rounds).
ROUND_CAP = 20


def make_layout(config: DixDeSuiteConfig) -> Layout:
    """The observation layout for a config (its pieces are the documentation)."""
    n, d = config.num_players, config.deck_size
    p = d - RACK_SIZE * n + 1
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
                "1 for every card whose place the observer cannot know: in an opponent's rack at a slot nobody "
                "saw, in a hidden-order draw pile, or held unseen by the player to act",
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
                "ascending-prefix length / 10 where it is known (slots 1..L known and ascending, and L = 10 or "
                "slot L+1 known and lower than slot L); else 0",
            ),
            Piece("opp_prefix_known", (n - 1,), "1 where opp_prefix is known"),
            Piece("scores", (n,), "points of each relative seat / target_score (with teams: still per seat)"),
            Piece("round", (1,), f"round number (1, 2, …) capped at {ROUND_CAP}, / {ROUND_CAP}"),
            Piece("round_turns", (1,), "turns played in this round (all players) / max_turns"),
            Piece("variants", (4,), "options in force: [reshuffle, two_player_run, teams, run_bonus]"),
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
        self._unseen = self.layout["unseen"]
        start = self.layout.slices["unseen"].start
        if start == 0:  # the shifted view below needs an entry before the piece
            raise RuntimeError("the unseen piece must not be the first of the layout")
        self._unseen_by_card = self.tensor[start - 1 : start + d]  # card c -> entry c
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
        self._rack_idx = [off["own_rack"] + k for k in range(RACK_SIZE)]
        # Indices of the scalars written last, in the order their values are appended.
        self._tail_idx = [off["scores"] + r for r in range(n)] + [off["round"], off["round_turns"]]
        self._tail_idx += [off["variants"] + i for i in range(4)]
        self._scale = [c / d for c in range(d + 1)]  # card -> card / D
        # depths[L][i]: value of the i-th card (bottom first) of a pile of L cards: (depth + 1) / P.
        pile_max = d - RACK_SIZE * n + 1
        self._depths = [[(size - i) / self._p for i in range(size)] for size in range(pile_max + 1)]

    def set_from(self, state: DixDeSuiteState, seat: int) -> None:
        """Fill ``tensor`` in place with what ``seat`` may know of ``state``."""
        # Hot path: collect flat indices (to 0, to 1, to a value) in Python lists and write them
        # with three fancy assignments; at these sizes numpy calls and comprehensions (a call
        # each before Python 3.12) cost more than plain appends.
        t = self.tensor
        t.fill(0.0)
        self._unseen.fill(1.0)
        n = self._n
        scale = self._scale
        idx = self._rack_idx[:]
        vals: list[float] = []
        ones: list[int] = []
        rack = state.racks[seat]
        # Cards the observer can place, concatenated whole (fast) and written into the unseen
        # piece through a view shifted by one so that card c is entry c. Zeros (unknown slots of
        # a known row) land on the entry before the piece, which is written after this one.
        seen = rack[:]
        o_rack_cards, d = self._o_rack_cards, self._d
        for k, c in enumerate(rack):
            vals.append(scale[c])
            ones.append(o_rack_cards + k * d + c)
        o_public = self._o_public
        for k, c in enumerate(state.known[seat]):
            if c:
                ones.append(o_public + k)

        cur = state.current
        if cur >= 0:
            phase = state.phase
            if phase == PHASE_SOURCE:
                ones.append(self._o_phase)
            elif phase == PHASE_PLACE:
                ones.append(self._o_phase + (2 if state.held_from_discard else 1))
                if cur == seat or state.held_public:
                    ones.append(self._o_held + state.held)
                    seen.append(state.held)
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
            seen += discard

        pile = state.draw_pile
        idx.append(self._o_dsize)
        vals.append(len(pile) / self._p)
        if state.draw_public:
            ones.append(self._o_dpub)
            o_depth = self._o_pdepth
            for c in pile:
                idx.append(o_depth + c)
            vals += self._depths[len(pile)]
            seen += pile

        known = state.known
        for r in range(1, n):
            row = known[(seat + r) % n]
            if not any(row):
                continue
            seen += row
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

        target = state.config.target_score
        scores = state.scores_
        idx += self._tail_idx
        for r in range(n):
            vals.append(scores[(seat + r) % n] / target)
        vals.append(min(state.round, ROUND_CAP) / ROUND_CAP)
        vals.append(state.round_turns / state.config.max_turns)
        vals += self._variants

        fromiter, intp = np.fromiter, np.intp
        self._unseen_by_card[fromiter(seen, intp, len(seen))] = 0.0
        t[fromiter(ones, intp, len(ones))] = 1.0
        t[fromiter(idx, intp, len(idx))] = vals


def make_observer(config: DixDeSuiteConfig) -> DixDeSuiteObserver:
    """A new observer (with its own tensor) for a config."""
    return DixDeSuiteObserver(config)
