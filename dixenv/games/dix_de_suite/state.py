"""The dix de suite (Rack-O) rules engine: a pure-Python game state.

One turn is two decisions of the same player: the source (``draw`` / ``take discard``), then the
destination (``swap K`` / ``discard``). Piles are Python lists with the *top at the end*, so
drawing and discarding are ``pop()`` / ``append()``.

Public knowledge is kept here too, because it is part of the rules of what may be seen: which card
sits in which slot of a rack when everybody saw it go there (``known``), and whether the draw
pile's order is public (after an unshuffled turn-over every card of it was seen on the discard
pile, in order).
"""

from __future__ import annotations

import copy
from typing import Sequence

import numpy as np

from dixenv.games.dix_de_suite import actions as A
from dixenv.games.dix_de_suite.cards import RACK_SIZE
from dixenv.games.dix_de_suite.config import DixDeSuiteConfig
from dixenv.games.dix_de_suite.scoring import ascending_prefix, round_points, wins_round

PHASE_SOURCE = 0  # choose draw / take discard
PHASE_PLACE = 1  # choose swap K / discard for the held card
PHASE_OVER = 2  # terminal or truncated

_LEGAL_SOURCE = (A.DRAW, A.TAKE_DISCARD)
_LEGAL_PLACE_DRAWN = tuple(range(A.SWAP_BASE, A.DISCARD + 1))
_LEGAL_PLACE_TAKEN = tuple(range(A.SWAP_BASE, A.DISCARD))


class DixDeSuiteState:
    """A game of dix de suite in progress (several rounds up to the target score)."""

    def __init__(
        self,
        config: DixDeSuiteConfig,
        rng: np.random.Generator,
        deck: Sequence[int] | None = None,
        dealer: int | None = None,
        events: list | None = None,
    ):
        """Start a game: ``deck`` (top first) stacks the first deal, ``dealer`` fixes the first dealer.

        ``deck`` must already be validated (``cards.parse_deck``); unlisted cards follow in seeded order.
        """
        self.config = config
        self.rng = rng
        self.events = events
        self.num_seats = config.num_players
        self.scores_: list[int] = [0] * self.num_seats
        self.round = 0
        self.total_turns = 0
        self.last_round_points: list[int] | None = None
        self.last_round_winner = -1
        self.terminal = False
        self.truncated = False
        n = self.num_seats
        self.dealer = int(rng.integers(n)) if dealer is None else dealer
        if deck is None:
            order = self._shuffled_deck()
        else:
            listed = set(deck)
            rest = [c for c in range(1, config.deck_size + 1) if c not in listed]
            order = list(deck) + [int(c) for c in rng.permutation(np.array(rest, dtype=np.int64))]
        self._deal(order)

    # --- dealing and rounds --------------------------------------------------------------------
    def _shuffled_deck(self) -> list[int]:
        return (self.rng.permutation(self.config.deck_size) + 1).tolist()

    def _deal(self, order: list[int]) -> None:
        """Deal a round from ``order`` (top first): one card at a time from the dealer's left, slot 10 → 1."""
        n = self.num_seats
        self.round += 1
        self.racks: list[list[int]] = [[0] * RACK_SIZE for _ in range(n)]
        pos = 0
        for slot in range(RACK_SIZE - 1, -1, -1):
            for i in range(1, n + 1):
                self.racks[(self.dealer + i) % n][slot] = order[pos]
                pos += 1
        self.discard: list[int] = [order[pos]]
        self.draw_pile: list[int] = order[pos + 1 :][::-1]
        self.draw_public = False  # the order of the draw pile is public knowledge
        self.known: list[list[int]] = [[0] * RACK_SIZE for _ in range(n)]  # 0 = not public
        self.current = (self.dealer + 1) % n
        self.phase = PHASE_SOURCE
        self.held = 0
        self.held_from_discard = False
        self.held_public = False
        self.round_turns = 0
        self.turnovers = 0
        self._legal = _LEGAL_SOURCE

    def _turn_over(self) -> None:
        """Empty draw pile: the discard pile turned face down becomes the draw pile; its top starts a new discard."""
        pile = self.discard
        if self.config.reshuffle:
            self.draw_pile = [int(c) for c in self.rng.permutation(np.array(pile, dtype=np.int64))]
            self.draw_public = False
        else:
            # Turning the pile over puts its oldest card (bottom) on top: with top-at-end lists the
            # new draw pile is the old discard list reversed.
            self.draw_pile = pile[::-1]
            self.draw_public = True
        self.discard = [self.draw_pile.pop()]
        self.turnovers += 1

    def _end_round(self, winner: int) -> None:
        """Score the round; end the game if someone (or a team) reached the target, else deal again."""
        points = round_points(self.racks, winner, self.config.run_bonus)
        for s, p in enumerate(points):
            self.scores_[s] += p
        self.last_round_points = points
        self.last_round_winner = winner
        if max(k[0] for k in self.ranking_keys()) >= self.config.target_score:
            self.terminal = True
            self.phase = PHASE_OVER
            self.current = -1
            self._legal = ()
            return
        self.dealer = (self.dealer + 1) % self.num_seats
        self._deal(self._shuffled_deck())

    # --- GameState API -------------------------------------------------------------------------
    def current_player(self) -> int:
        """Seat to act, or -1 when the game is over (terminal or truncated)."""
        return self.current

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids (empty when the game is over)."""
        return list(self._legal)

    def apply_action(self, action: int) -> None:
        """Play one decision; ``ValueError`` naming the action and the legal ones if illegal (state unchanged)."""
        if type(action) is not int:
            # numpy ints are fine; anything else (floats, strings) is a caller's mistake, not an id.
            if not isinstance(action, np.integer):
                raise ValueError(f"action must be an int id, got {action!r}; legal actions: {self._legal_names()}")
            action = int(action)
        if action not in self._legal:
            name = A.ACTION_NAMES[action] if 0 <= action < A.NUM_ACTIONS else "out of range"
            raise ValueError(f"illegal action {action} ({name!r}); legal actions: {self._legal_names()}")
        if self.phase == PHASE_SOURCE:
            if action == A.DRAW:
                self.held = self.draw_pile.pop()
                self.held_from_discard = False
                self.held_public = self.draw_public
                self._legal = _LEGAL_PLACE_DRAWN
            else:
                self.held = self.discard.pop()
                self.held_from_discard = True
                self.held_public = True
                self._legal = _LEGAL_PLACE_TAKEN
            self.phase = PHASE_PLACE
            return
        seat = self.current
        if action == A.DISCARD:
            self.discard.append(self.held)
        else:
            slot = action - A.SWAP_BASE
            rack = self.racks[seat]
            self.discard.append(rack[slot])
            rack[slot] = self.held
            # Everybody sees the slot; the card is public if it came face up (discard, public draw pile).
            self.known[seat][slot] = self.held if self.held_public else 0
        self.held = 0
        self.held_from_discard = False
        self.held_public = False
        self.round_turns += 1
        self.total_turns += 1
        if wins_round(self.racks[seat], self.config.two_player_run):
            self._end_round(seat)
            return
        if not self.draw_pile:
            self._turn_over()
        if self.round_turns >= self.config.max_turns:
            self.truncated = True
            self.phase = PHASE_OVER
            self.current = -1
            self._legal = ()
            return
        self.current = (seat + 1) % self.num_seats
        self.phase = PHASE_SOURCE
        self._legal = _LEGAL_SOURCE

    def is_terminal(self) -> bool:
        """True once a round ended with someone (or a team) at the target score or more."""
        return self.terminal

    def is_truncated(self) -> bool:
        """True once a round reached ``max_turns`` turns without a winner (the episode is cut short)."""
        return self.truncated

    def scores(self) -> list[int]:
        """Game points per seat so far (with teams too: each seat's own points)."""
        return list(self.scores_)

    def team_scores(self) -> list[int]:
        """With ``teams``: points of team 0 (seats 0+2) and team 1 (seats 1+3)."""
        return [self.scores_[0] + self.scores_[2], self.scores_[1] + self.scores_[3]]

    def ranking_keys(self) -> list[tuple]:
        """Per seat ``(points,)``; with ``teams``, the team's total for each member."""
        if self.config.teams:
            t = self.team_scores()
            return [(t[s % 2],) for s in range(self.num_seats)]
        return [(p,) for p in self.scores_]

    def teams(self) -> list[int] | None:
        """Team per seat (0 for seats 0+2, 1 for seats 1+3) with ``teams``, else None."""
        return [s % 2 for s in range(self.num_seats)] if self.config.teams else None

    def clone(self) -> "DixDeSuiteState":
        """An independent copy (rng included, so the copy deals the same later rounds)."""
        other = copy.copy(self)
        other.events = None
        other.rng = copy.deepcopy(self.rng)
        other.scores_ = list(self.scores_)
        other.racks = [list(r) for r in self.racks]
        other.known = [list(k) for k in self.known]
        other.discard = list(self.discard)
        other.draw_pile = list(self.draw_pile)
        if self.last_round_points is not None:
            other.last_round_points = list(self.last_round_points)
        return other

    # --- helpers -------------------------------------------------------------------------------
    def _legal_names(self) -> str:
        return "[" + ", ".join(f"{a} ({A.ACTION_NAMES[a]})" for a in self._legal) + "]"

    def all_cards(self) -> list[int]:
        """Every card on the table (racks, held card, discard pile, draw pile), for invariant checks."""
        cards = [c for r in self.racks for c in r] + self.discard + self.draw_pile
        if self.held:
            cards.append(self.held)
        return cards

    def render_text(self) -> str:
        """The table as text, everything shown (hidden cards too)."""
        n = self.num_seats
        cfg = self.config
        head = f"Round {self.round}, dealer player_{self.dealer}, turn {self.round_turns}/{cfg.max_turns} of this round"
        lines = [head]
        score_txt = ", ".join(f"player_{s} {self.scores_[s]}" for s in range(n))
        if cfg.teams:
            t = self.team_scores()
            score_txt += f"; teams 0+2 {t[0]}, 1+3 {t[1]}"
        lines.append(f"Scores (target {cfg.target_score}): {score_txt}")
        for s in range(n):
            rack = " ".join(f"{c:2d}" for c in self.racks[s])
            known = " ".join(f"{c:2d}" if c else " ." for c in self.known[s])
            mark = "*" if s == self.current else " "
            lines.append(f"{mark}player_{s}: [{rack}]  prefix {ascending_prefix(self.racks[s])}  public [{known}]")
        lines.append("Discard pile (top first): " + " ".join(str(c) for c in reversed(self.discard)))
        order = "public" if self.draw_public else "hidden"
        top = f", top {self.draw_pile[-1]}" if self.draw_pile else ""
        lines.append(f"Draw pile: {len(self.draw_pile)} cards{top} (order {order})")
        if self.terminal:
            lines.append("Game over.")
        elif self.truncated:
            lines.append(f"Truncated: {cfg.max_turns} turns in this round without a winner.")
        elif self.phase == PHASE_PLACE:
            src = "discard pile" if self.held_from_discard else "draw pile"
            lines.append(f"player_{self.current} holds {self.held} (from the {src}): swap a slot" + ("" if self.held_from_discard else " or discard"))
        else:
            lines.append(f"player_{self.current} to draw or take the discard")
        if self.last_round_points is not None:
            pts = ", ".join(f"player_{s} +{p}" for s, p in enumerate(self.last_round_points))
            lines.append(f"Last round won by player_{self.last_round_winner}: {pts}")
        return "\n".join(lines)
