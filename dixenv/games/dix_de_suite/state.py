"""The dix de suite (Rack-O) rules engine: a pure-Python game state.

One turn is two decisions of the same player: the source (``draw`` / ``take discard``), then the
destination (``swap K`` / ``discard``). Piles are Python lists with the *top at the end*, so
drawing and discarding are ``pop()`` / ``append()``.

Public knowledge is kept here too, because it is part of the rules of what may be seen:

* ``known``: which card sits in which slot of a rack when everybody saw it go there (taken from
  the discard pile, or drawn from a draw pile whose order is public);
* ``draw_public``: whether the draw pile's order is public (after an unshuffled turn-over every
  card of it was seen on the discard pile, in order);
* the slot history: ``slot_turn`` (at which of its own turns a player last replaced each slot),
  ``last_turn`` / ``last_out`` (what each player did at its last turn, and the card it put on the
  discard pile);
* the *pools* of hidden cards. A pool is a set of cards nobody has seen since it was formed,
  together with the set of places that hold them. Pool 0 is formed by the deal (the dealt cards
  and the first draw pile); with ``reshuffle=True`` every turn-over forms a new pool (the
  discard pile that everybody saw, shuffled into the draw pile). A card drawn from the hidden
  draw pile and put into a slot keeps its pool, and the slot joins it; a card that is seen
  again (on the discard pile, in a public pile or slot) leaves its pool. ``card_pool[c]`` is the
  pool of card ``c`` (-1: its place is public), ``slot_pool[s, k]`` the pool of the card in a
  slot (-1: the card is known). The cards of a pool are somewhere among its places, and that is
  all anybody knows of them, which is what ``sample_hidden`` uses. Without ``reshuffle`` there
  is only pool 0 (an unshuffled turn-over makes the draw pile public).
"""

from __future__ import annotations

import copy
from typing import Sequence

import numpy as np

from dixenv.core.events import Event
from dixenv.games.dix_de_suite import actions as A
from dixenv.games.dix_de_suite.cards import RACK_SIZE
from dixenv.games.dix_de_suite.config import DixDeSuiteConfig
from dixenv.games.dix_de_suite.scoring import POINTS_PER_CARD, ascending_prefix, max_round_points, round_points, wins_round

PHASE_SOURCE = 0  # choose draw / take discard
PHASE_PLACE = 1  # choose swap K / discard for the held card
PHASE_OVER = 2  # terminal or truncated

#: What a player did at its last turn of the round (``last_turn``); NO_TURN before its first one.
NO_TURN, DREW_DISCARDED, DREW_SWAPPED, TOOK_SWAPPED = 0, 1, 2, 3

_LEGAL_SOURCE = (A.DRAW, A.TAKE_DISCARD)
_LEGAL_PLACE_DRAWN = tuple(range(A.SWAP_BASE, A.DISCARD + 1))
_LEGAL_PLACE_TAKEN = tuple(range(A.SWAP_BASE, A.DISCARD))


def _name(seat: int) -> str:
    return f"player_{seat}"


def seat_teams(num_seats: int, teams: bool) -> list[int] | None:
    """Team per seat (0 for seats 0+2, 1 for seats 1+3) with ``teams``, else None."""
    return [s % 2 for s in range(num_seats)] if teams else None


def ranking_keys(scores: list[int], teams: bool) -> list[tuple]:
    """Per seat ``(points,)`` of ``scores``; with ``teams``, the team's total for each member
    (``DixDeSuiteState.ranking_keys``; the compiled engine's state ranks with it too)."""
    if teams:
        return [(scores[s % 2] + scores[s % 2 + 2],) for s in range(len(scores))]
    return [(p,) for p in scores]


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

    # --- the generator of later shuffles ------------------------------------------------------
    @property
    def rng(self) -> np.random.Generator:
        """The generator of the reshuffles and later deals (a clone builds its copy on first use)."""
        if self._rng is None:
            # Building a bit generator costs more than the rest of a clone, and many clones used
            # by search never shuffle: a clone keeps only the state to continue from.
            kind, rng_state = self._rng_snapshot
            bit_generator = kind()
            bit_generator.state = rng_state
            self._rng = np.random.Generator(bit_generator)
        return self._rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng = value
        self._rng_snapshot = None

    def _rng_copy_source(self) -> tuple:
        """What a clone needs to continue this state's generator independently."""
        if self._rng is None:
            return self._rng_snapshot
        bit_generator = self._rng.bit_generator
        return type(bit_generator), bit_generator.state

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
        # Every card is in pool 0 (dealt or in the draw pile) but the first discard.
        self.pool = 0
        # numpy arrays, unlike the rest of the state: the observer turns them into whole blocks
        # by table lookups, and converting Python lists at every observation cost several times
        # as much as the lookups (measured).
        self.card_pool = np.zeros(self.config.deck_size + 1, dtype=np.int32)
        self.card_pool[0] = -1  # index 0 is no card
        self.card_pool[order[pos]] = -1
        self.slot_pool = np.zeros((n, RACK_SIZE), dtype=np.int32)
        self.slot_turn: list[list[int]] = [[-1] * RACK_SIZE for _ in range(n)]  # -1: the dealt card
        self.seat_turns: list[int] = [0] * n
        self.last_turn: list[int] = [NO_TURN] * n
        self.last_out: list[int] = [0] * n
        self.current = (self.dealer + 1) % n
        self.phase = PHASE_SOURCE
        self.held = 0
        self.held_from_discard = False
        self.held_public = False
        self.round_turns = 0
        self.turnovers = 0
        self._legal = _LEGAL_SOURCE
        if self.events is not None:
            self._log_deal()

    def _turn_over(self) -> None:
        """Empty draw pile: the discard pile turned face down becomes the draw pile; its top starts a new discard."""
        pile = self.discard
        if self.config.reshuffle:
            self.draw_pile = [int(c) for c in self.rng.permutation(np.array(pile, dtype=np.int64))]
            self.draw_public = False
            # Everybody saw these cards on the discard pile: they form a new pool of hidden cards.
            self.pool += 1
            self.card_pool[self.draw_pile] = self.pool
        else:
            # Turning the pile over puts its oldest card (bottom) on top: with top-at-end lists the
            # new draw pile is the old discard list reversed.
            self.draw_pile = pile[::-1]
            self.draw_public = True
        top = self.draw_pile.pop()
        self.discard = [top]
        self.card_pool[top] = -1
        self.turnovers += 1
        if self.events is not None:
            how = "shuffled into" if self.config.reshuffle else "turned over as"
            order = "hidden" if self.config.reshuffle else "public"
            size = len(self.draw_pile)
            self._log(-1, f"the discard pile is {how} the draw pile ({size} cards, order {order}); {top} starts the discard pile", kind="auto")

    def _end_round(self, winner: int) -> None:
        """Score the round; end the game if someone (or a team) reached the target, else deal again."""
        points = round_points(self.racks, winner, self.config.run_bonus)
        for s, p in enumerate(points):
            self.scores_[s] += p
        self.last_round_points = points
        self.last_round_winner = winner
        if self.events is not None:
            self._log_round_end(winner, points)
        if max(k[0] for k in self.ranking_keys()) >= self.config.target_score:
            self.terminal = True
            self.phase = PHASE_OVER
            self.current = -1
            self._legal = ()
            if self.events is not None:
                self._log_game_end()
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
            who = f" for {_name(self.current)}" if self.current >= 0 else ""
            raise ValueError(f"illegal action {action} ({name!r}){who}: {self.why_illegal(action)}; "
                             f"legal actions: {self._legal_names()}")
        if self.events is not None:
            self._log_decision(action)  # first, before anything it triggers
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
        turn = self.seat_turns[seat]
        if action == A.DISCARD:
            out = self.held
            self.last_turn[seat] = DREW_DISCARDED
        else:
            slot = action - A.SWAP_BASE
            rack = self.racks[seat]
            out = rack[slot]
            rack[slot] = self.held
            # Everybody sees the slot; the card is public if it came face up (discard, public draw
            # pile), else the slot joins the newest pool, the one the hidden draw pile belongs to.
            if self.held_public:
                self.known[seat][slot] = self.held
                self.slot_pool[seat, slot] = -1
            else:
                self.known[seat][slot] = 0
                self.slot_pool[seat, slot] = self.pool
            self.slot_turn[seat][slot] = turn
            self.last_turn[seat] = TOOK_SWAPPED if self.held_from_discard else DREW_SWAPPED
        self.discard.append(out)
        self.card_pool[out] = -1  # face up on the discard pile: seen by everybody
        self.last_out[seat] = out
        self.seat_turns[seat] = turn + 1
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
            if self.events is not None:
                self._log(-1, f"round {self.round} cut short after {self.round_turns} turns", kind="mark")
            return
        self.current = (seat + 1) % self.num_seats
        self.phase = PHASE_SOURCE
        self._legal = _LEGAL_SOURCE

    def why_illegal(self, action: int) -> str:
        """Why ``action`` is illegal for the seat to act, in words for that seat ("" if it is legal).

        Reads only what that seat knows (the phase, where its held card came from, and the card
        itself, which the seat to act always sees), so the reason can be shown to the person there.
        """
        action = int(action)
        if not 0 <= action < A.NUM_ACTIONS:
            return f"there is no action {action} (actions are 0..{A.NUM_ACTIONS - 1})"
        if self.phase == PHASE_OVER:
            return "the game is over" if self.terminal else f"the game was cut short: a round reached max_turns={self.config.max_turns}"
        if action in self._legal:
            return ""
        if self.phase == PHASE_SOURCE:
            return "first take a card: draw, or take the discard pile's top card"
        if action == A.DISCARD:  # only a discard-pile card cannot be discarded
            return f"{self.held} comes from the discard pile: it must go into your rack (swap K)"
        where = "swap K" if self.held_from_discard else "swap K, or discard it"
        return f"you already hold {self.held}: place it ({where})"

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
        return ranking_keys(self.scores_, self.config.teams)

    def teams(self) -> list[int] | None:
        """Team per seat (0 for seats 0+2, 1 for seats 1+3) with ``teams``, else None."""
        return seat_teams(self.num_seats, self.config.teams)

    def clone(self) -> "DixDeSuiteState":
        """An independent copy that records no events (rng included, so it deals the same later rounds)."""
        other = copy.copy(self)  # shallow: every mutable field is copied below
        other.events = None
        other._rng, other._rng_snapshot = None, self._rng_copy_source()
        other.scores_ = list(self.scores_)
        other.racks = [list(r) for r in self.racks]
        other.known = [list(k) for k in self.known]
        other.discard = list(self.discard)
        other.draw_pile = list(self.draw_pile)
        other.card_pool = self.card_pool.copy()
        other.slot_pool = self.slot_pool.copy()
        other.slot_turn = [list(t) for t in self.slot_turn]
        other.seat_turns = list(self.seat_turns)
        other.last_turn = list(self.last_turn)
        other.last_out = list(self.last_out)
        if self.last_round_points is not None:
            other.last_round_points = list(self.last_round_points)
        return other

    # --- search support ------------------------------------------------------------------------
    def hidden_places(self, seat: int) -> list[tuple[list[int], list[tuple]]]:
        """Per pool (oldest first): the cards of the pool that ``seat`` has not seen, and the places
        hiding them from ``seat``, both in a canonical order that depends on ``seat``'s information only.

        A place is ``("rack", s, k)`` (seat ``s``'s slot index ``k``), ``("draw", i)`` (index ``i``
        of the draw pile, bottom first) or ``("held",)`` (the card the player to act drew unseen).
        Each list of cards is as long as its list of places.
        """
        if type(seat) is not int and not isinstance(seat, np.integer) or not 0 <= seat < self.num_seats:
            raise ValueError(f"seat must be an int 0..{self.num_seats - 1}, got {seat!r}")
        own = set(self.racks[seat])
        own_held = self.phase == PHASE_PLACE and self.current == seat
        if own_held:
            own.add(self.held)
        groups: list[tuple[list[int], list[tuple]]] = [([], []) for _ in range(self.pool + 1)]
        for c, g in enumerate(self.card_pool.tolist()):
            if g >= 0 and c not in own:
                groups[g][0].append(c)
        for s, row in enumerate(self.slot_pool.tolist()):
            if s == seat:
                continue
            for k, g in enumerate(row):
                if g >= 0:
                    groups[g][1].append(("rack", s, k))
        newest = groups[self.pool][1]
        if not self.draw_public:
            newest += [("draw", i) for i in range(len(self.draw_pile))]
        if self.phase == PHASE_PLACE and not own_held and not self.held_public:
            newest.append(("held",))
        return groups

    def put_card(self, place: tuple, card: int) -> None:
        """Put ``card`` at a place named as in ``hidden_places`` (to build another world; no rule is checked)."""
        if place[0] == "rack":
            self.racks[place[1]][place[2]] = card
        elif place[0] == "draw":
            self.draw_pile[place[1]] = card
        else:
            self.held = card

    def sample_hidden(self, seat: int, rng: np.random.Generator) -> "DixDeSuiteState":
        """A full state drawn uniformly among those consistent with everything ``seat`` knows.

        Within each pool (module docstring), the cards ``seat`` has not seen are dealt to the places
        that hide them from ``seat`` by a uniform random permutation, independently per pool; the
        generator for later shuffles and rounds is a fresh one seeded from ``rng``. This is exactly
        uniform over the worlds consistent with the public history and ``seat``'s own cards: the
        deal and every reshuffle are uniform permutations, and the public history (cards seen,
        slots replaced) says of each pool's hidden cards only that they fill its places, so every
        assignment of them is equally likely. (It ignores what the players' choices may reveal of
        their cards, which would need a model of their play.)
        """
        other = self.clone()
        for cards, places in self.hidden_places(seat):
            if len(cards) != len(places):
                raise AssertionError(f"a pool has {len(cards)} hidden cards for {len(places)} places")
            for place, i in zip(places, rng.permutation(len(cards)).tolist()):
                other.put_card(place, cards[i])
        other.rng = np.random.default_rng(int(rng.integers(2**63)))
        return other

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` naming the first broken invariant (cards, knowledge, pools, turn, scores)."""
        n, cfg = self.num_seats, self.config
        d = cfg.deck_size
        cards = self.all_cards()
        if sorted(cards) != list(range(1, d + 1)):
            raise AssertionError(f"cards not each in exactly one place: {len(cards)} cards, deck 1..{d}")
        if len(self.racks) != n or any(len(r) != RACK_SIZE for r in self.racks):
            raise AssertionError("every rack must have 10 slots")
        card_pool, slot_pool = self.card_pool.tolist(), self.slot_pool.tolist()
        if len(card_pool) != d + 1 or card_pool[0] != -1 or len(slot_pool) != n:
            raise AssertionError("card_pool needs one entry per card (and -1 at index 0), slot_pool one row per seat")
        public = set(self.discard)
        if self.draw_public:
            public.update(self.draw_pile)
        if self.held and self.held_public:
            public.add(self.held)
        for s in range(n):
            for k in range(RACK_SIZE):
                card, known, pool = self.racks[s][k], self.known[s][k], slot_pool[s][k]
                if known not in (0, card):
                    raise AssertionError(f"player_{s} slot {k + 1}: known card {known} but holds {card}")
                if (known != 0) != (pool == -1):
                    raise AssertionError(f"player_{s} slot {k + 1}: known {known} disagrees with pool {pool}")
                if known:
                    public.add(card)
                elif card_pool[card] != pool:
                    raise AssertionError(f"player_{s} slot {k + 1}: card {card} in pool {card_pool[card]}, slot in pool {pool}")
                if not -1 <= self.slot_turn[s][k] < self.seat_turns[s]:
                    raise AssertionError(f"player_{s} slot {k + 1}: replaced at own turn {self.slot_turn[s][k]} of {self.seat_turns[s]}")
        for c in range(1, d + 1):
            g = card_pool[c]
            if (g == -1) != (c in public):
                raise AssertionError(f"card {c}: pool {g} but its place is {'public' if c in public else 'hidden'}")
            if not -1 <= g <= self.pool:
                raise AssertionError(f"card {c}: pool {g} outside -1..{self.pool}")
        hidden_draws = list(self.draw_pile) if not self.draw_public else []
        if self.held and not self.held_public:
            hidden_draws.append(self.held)
        if any(card_pool[c] != self.pool for c in hidden_draws):
            raise AssertionError("a hidden draw-pile card is not in the newest pool")
        if not cfg.reshuffle and self.pool != 0:
            raise AssertionError(f"pool {self.pool} without reshuffle")
        if self.pool > self.turnovers:
            raise AssertionError(f"{self.pool} pools after {self.turnovers} turn-overs")
        if sum(self.seat_turns) != self.round_turns or not 0 <= self.round_turns <= cfg.max_turns:
            raise AssertionError(f"turns per seat {self.seat_turns} do not add up to {self.round_turns} (max {cfg.max_turns})")
        for s in range(n):
            played = self.seat_turns[s] > 0
            if played != (self.last_turn[s] != NO_TURN) or played != (0 < self.last_out[s] <= d):
                raise AssertionError(f"player_{s}: last turn {self.last_turn[s]}, card {self.last_out[s]} after {self.seat_turns[s]} turns")
        self._check_turn()
        self._check_scores()

    def _check_turn(self) -> None:
        over = self.terminal or self.truncated
        if self.terminal and self.truncated:
            raise AssertionError("terminal and truncated at once")
        if over != (self.phase == PHASE_OVER) or over != (self.current == -1) or over != (self._legal == ()):
            raise AssertionError(f"game over {over} but phase {self.phase}, current {self.current}, legal {self._legal}")
        if not 0 <= self.dealer < self.num_seats:
            raise AssertionError(f"dealer {self.dealer} out of range")
        if self.phase == PHASE_SOURCE:
            if self.held or not self.draw_pile or not self.discard or self._legal != _LEGAL_SOURCE:
                raise AssertionError("a turn must start with no card held and both piles non-empty")
        elif self.phase == PHASE_PLACE:
            expected = _LEGAL_PLACE_TAKEN if self.held_from_discard else _LEGAL_PLACE_DRAWN
            if not self.held or self._legal != expected or (self.held_from_discard and not self.held_public):
                raise AssertionError("placing a card needs a held card and the matching legal actions")
        if not over and self.current != (self.dealer + 1 + self.round_turns) % self.num_seats:
            raise AssertionError(f"player_{self.current} to act after {self.round_turns} turns from dealer {self.dealer}")

    def _check_scores(self) -> None:
        completed = self.round if self.terminal else self.round - 1
        top = max_round_points(self.config.run_bonus)
        for s, p in enumerate(self.scores_):
            if p % POINTS_PER_CARD or not POINTS_PER_CARD * completed <= p <= top * completed:
                raise AssertionError(f"player_{s} has {p} points after {completed} rounds")
        best = max(k[0] for k in self.ranking_keys())
        if self.terminal != (best >= self.config.target_score):
            raise AssertionError(f"terminal {self.terminal} but the best score is {best} (target {self.config.target_score})")
        if (self.last_round_points is None) != (completed == 0):
            raise AssertionError("last round's points missing or present before any round ended")

    # --- the move log --------------------------------------------------------------------------
    def _log(self, seat: int, text: str, public: str | None = None, kind: str = "move") -> None:
        self.events.append(Event(seat, text, public, kind))

    def _log_deal(self) -> None:
        n = self.num_seats
        starter = (self.dealer + 1) % n
        self._log(-1, f"round {self.round}: dealer {_name(self.dealer)}, {_name(starter)} starts", kind="mark")
        for i in range(1, n + 1):
            s = (self.dealer + i) % n
            cards = " ".join(str(c) for c in self.racks[s])
            self._log(s, f"{_name(s)} is dealt {cards}", f"{_name(s)} is dealt {RACK_SIZE} cards", kind="auto")
        self._log(-1, f"{self.discard[-1]} starts the discard pile", kind="auto")

    def _log_decision(self, action: int) -> None:
        """The decision about to be played, in words (called before the state changes)."""
        who = _name(self.current)
        if action == A.DRAW:
            card = self.draw_pile[-1]
            self._log(self.current, f"{who} draws {card}", None if self.draw_public else f"{who} draws a card")
        elif action == A.TAKE_DISCARD:
            self._log(self.current, f"{who} takes {self.discard[-1]} from the discard pile")
        elif action == A.DISCARD:
            self._log(self.current, f"{who} discards {self.held}")
        else:
            slot = action - A.SWAP_BASE
            out = self.racks[self.current][slot]
            text = f"{who} puts {self.held} in slot {slot + 1} and discards {out}"
            public = None if self.held_public else f"{who} puts a card in slot {slot + 1} and discards {out}"
            self._log(self.current, text, public)

    def _log_round_end(self, winner: int, points: list[int]) -> None:
        self._log(-1, f"round {self.round} won by {_name(winner)} (dix de suite)", kind="mark")
        scores = ", ".join(f"{_name(s)} +{p} = {self.scores_[s]}" for s, p in enumerate(points))
        self._log(-1, f"round {self.round} scores: {scores}", kind="mark")

    def _log_game_end(self) -> None:
        keys = [k[0] for k in self.ranking_keys()]
        winners = [_name(s) for s in range(self.num_seats) if keys[s] == max(keys)]
        alone = 2 if self.config.teams else 1  # a team wins as two seats
        verb = ("wins" if alone == 1 else "win") if len(winners) == alone else "share the win"
        self._log(-1, f"game over: {' and '.join(winners)} {verb} with {max(keys)} points", kind="mark")

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
