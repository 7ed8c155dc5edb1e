"""The le_dix rules engine: deals, the dealer's trump pick-up, bidding, tricks and scoring.

Pure Python; the only randomness is the ``numpy.random.Generator`` handed to the state.
One rule, one place: everything about how le_dix is played lives in this module.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

import numpy as np

from dixenv.core.options import check_int, warn_unknown_reset_keys
from dixenv.games.le_dix import actions as A
from dixenv.games.le_dix.cards import NUM_CARDS, SUIT_OF, card_name, parse_card
from dixenv.games.le_dix.config import LeDixConfig

# Phases of a deal.
TRUMP_CHOICE, DISCARD, BIDDING, PLAYING, GAME_OVER = range(5)
PHASE_NAMES = ("trump choice", "discard", "bidding", "playing", "game over")

SCENARIO_KEYS = ("deck", "dealer")


class LeDixState:
    """Full state of a le_dix game (hidden information included; observers decide what a seat sees)."""

    def __init__(
        self,
        config: LeDixConfig,
        rng: np.random.Generator,
        scenario: Mapping[str, Any] | None = None,
        events: list | None = None,
    ):
        scenario = dict(scenario or {})
        self.events = events
        warn_unknown_reset_keys("le_dix", scenario, SCENARIO_KEYS)
        n = config.num_players
        self.config = config
        self.num_seats = n
        self.rng = rng
        self._play_base = A.play_base(config.max_bid)
        self._stacked = _parse_deck(scenario["deck"], n * config.deals[0] + 1) if "deck" in scenario else None
        if "dealer" in scenario:
            self.dealer = check_int("dealer", scenario["dealer"], 0, n - 1)
        else:
            self.dealer = int(rng.integers(n))
        self.total_scores = [0] * n
        self.deal_index = 0
        self._start_deal()

    # --- dealing ------------------------------------------------------------------------------
    def _start_deal(self) -> None:
        n = self.num_seats
        self.hand_size = h = self.config.deals[self.deal_index]
        if self._stacked is not None:
            stacked = set(self._stacked)
            rest = [c for c in range(NUM_CARDS) if c not in stacked]
            order = self._stacked + [rest[i] for i in self.rng.permutation(len(rest))]
            self._stacked = None  # only the first deal is stacked
        else:
            order = self.rng.permutation(NUM_CARDS).tolist()
        # One card at a time, clockwise from the dealer's left.
        self.hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n * h):
            self.hands[(self.dealer + 1 + i) % n].append(order[i])
        for hand in self.hands:
            hand.sort()
        self.trump_card = order[n * h]
        self.trump_suit = SUIT_OF[self.trump_card]
        self.undealt = order[n * h + 1 :]
        self.dealer_took: bool | None = None
        self.dealer_discard: int | None = None
        self.bids: list[int | None] = [None] * n
        self.tricks_won = [0] * n
        self.trick: list[tuple[int, int]] = []  # (seat, card) in play order
        self.last_trick: list[tuple[int, int]] = []
        self.played: list[int] = []  # every card played this deal, in order
        self.leader = (self.dealer + 1) % n
        self.phase = TRUMP_CHOICE
        self.player = self.dealer
        self._legal: list[int] | None = None

    # --- the GameState API ----------------------------------------------------------------------
    def current_player(self) -> int:
        """Seat to act, -1 once the game is over."""
        return -1 if self.phase == GAME_OVER else self.player

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for the seat to act."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        if phase == PLAYING:
            hand = self.hands[self.player]
            if self.trick:
                led = SUIT_OF[self.trick[0][1]]
                follow = [c for c in hand if SUIT_OF[c] == led]
                if follow:
                    hand = follow
            base = self._play_base
            return [base + c for c in hand]
        if phase == BIDDING:
            bids = range(self.hand_size + 1)
            if self.config.hook and self.player == self.dealer:
                forbidden = self.hand_size - sum(b for b in self.bids if b is not None)
                bids = [b for b in bids if b != forbidden]
            return [A.BID_BASE + b for b in bids]
        if phase == TRUMP_CHOICE:
            return [A.TAKE_TRUMP, A.LEAVE_TRUMP]
        if phase == DISCARD:
            return [A.DISCARD_BASE + c for c in self.hands[self.dealer]]
        return []

    def apply_action(self, action: int) -> None:
        """Play one action for the seat to act; ``ValueError`` (state unchanged) if it is illegal."""
        legal = self.legal_actions()
        if action not in legal:
            self._raise_illegal(action, legal)
        self._legal = None
        phase = self.phase
        if phase == PLAYING:
            self._play(action - self._play_base)
        elif phase == BIDDING:
            self._bid(action - A.BID_BASE)
        elif phase == TRUMP_CHOICE:
            self._trump_choice(action == A.TAKE_TRUMP)
        else:
            self._discard(action - A.DISCARD_BASE)

    def _raise_illegal(self, action: Any, legal: list[int]) -> None:
        max_bid = self.config.max_bid
        try:
            name = f"{action} ({A.action_to_string(max_bid, int(action))})"
        except (ValueError, TypeError):
            name = repr(action)
        if self.phase == GAME_OVER:
            raise ValueError(f"illegal action {name}: the game is over")
        names = ", ".join(A.action_to_string(max_bid, a) for a in legal)
        raise ValueError(
            f"illegal action {name} for player_{self.player} in the {PHASE_NAMES[self.phase]} phase; legal: {names}"
        )

    # --- the rules ------------------------------------------------------------------------------
    def _trump_choice(self, take: bool) -> None:
        self.dealer_took = take
        if take:
            self.hands[self.dealer].append(self.trump_card)
            self.hands[self.dealer].sort()
            self.phase = DISCARD
        else:
            self._start_bidding()

    def _discard(self, card: int) -> None:
        self.hands[self.dealer].remove(card)
        self.dealer_discard = card
        self._start_bidding()

    def _start_bidding(self) -> None:
        self.phase = BIDDING
        self.player = (self.dealer + 1) % self.num_seats

    def _bid(self, bid: int) -> None:
        self.bids[self.player] = bid
        if self.player == self.dealer:  # the dealer bids last
            self.phase = PLAYING
            self.player = self.leader
        else:
            self.player = (self.player + 1) % self.num_seats

    def _play(self, card: int) -> None:
        seat = self.player
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.played.append(card)
        if len(self.trick) < self.num_seats:
            self.player = (seat + 1) % self.num_seats
            return
        winner = trick_winner(self.trick, self.trump_suit)
        self.tricks_won[winner] += 1
        self.last_trick = self.trick
        self.trick = []
        self.leader = self.player = winner
        if not self.hands[winner]:
            self._end_deal()

    def _end_deal(self) -> None:
        for seat in range(self.num_seats):
            self.total_scores[seat] += deal_points(self.bids[seat], self.tricks_won[seat], self.config.scoring)
        self.deal_index += 1
        if self.deal_index == len(self.config.deals):
            self.phase = GAME_OVER
            return
        self.dealer = (self.dealer + 1) % self.num_seats
        self._start_deal()

    # --- results --------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """True after the last deal is scored."""
        return self.phase == GAME_OVER

    def is_truncated(self) -> bool:
        """le_dix always ends by its rules."""
        return False

    def scores(self) -> list[int]:
        """Points so far per seat."""
        return self.total_scores

    def ranking_keys(self) -> list[tuple]:
        """Highest total wins; equal totals share."""
        return [(s,) for s in self.total_scores]

    def teams(self) -> None:
        """le_dix is played individually."""
        return None

    def clone(self) -> "LeDixState":
        """An independent copy (its own generator state too); it records no events."""
        events, self.events = self.events, None
        try:
            return copy.deepcopy(self)
        finally:
            self.events = events

    def render_text(self) -> str:
        """The whole table as text: scores, trump, bids, tricks, hands and the trick in progress."""
        n = self.num_seats
        lines = [
            f"le_dix — deal {min(self.deal_index + 1, len(self.config.deals))}/{len(self.config.deals)}, "
            f"{self.hand_size} cards, dealer player_{self.dealer}, phase: {PHASE_NAMES[self.phase]}",
            f"trump: {card_name(self.trump_card)} (suit {'SHDC'[self.trump_suit]})"
            + ("" if self.dealer_took is None else f", dealer {'took' if self.dealer_took else 'left'} it"),
        ]
        for seat in range(n):
            bid = "-" if self.bids[seat] is None else self.bids[seat]
            hand = " ".join(card_name(c) for c in self.hands[seat])
            mark = "*" if seat == self.current_player() else " "
            lines.append(
                f"{mark}player_{seat}: score {self.total_scores[seat]:3d}  bid {bid}  tricks {self.tricks_won[seat]}  hand: {hand}"
            )
        if self.trick:
            lines.append("trick: " + ", ".join(f"player_{s} {card_name(c)}" for s, c in self.trick))
        return "\n".join(lines)


def trick_winner(trick: list[tuple[int, int]], trump_suit: int) -> int:
    """Seat that wins a complete trick: the highest trump, else the highest card of the led suit."""
    led = SUIT_OF[trick[0][1]]
    best_seat, best_card = trick[0]
    best_trump = SUIT_OF[best_card] == trump_suit
    for seat, card in trick[1:]:
        suit = SUIT_OF[card]
        if suit == trump_suit:
            if not best_trump or card > best_card:
                best_seat, best_card, best_trump = seat, card, True
        elif not best_trump and suit == led and card > best_card:
            best_seat, best_card = seat, card
    return best_seat


def deal_points(bid: int, tricks: int, scoring: str) -> int:
    """Points for one deal: exact bid scores 10 ("exact10") or 10 + bid ("oh_hell"), else 0."""
    if bid != tricks:
        return 0
    return 10 if scoring == "exact10" else 10 + bid


def _parse_deck(deck: Any, needed: int) -> list[int]:
    """Validate a stacked deck (card strings, top first): no duplicates, enough to deal and turn up."""
    if isinstance(deck, (str, bytes)) or not hasattr(deck, "__iter__"):
        raise ValueError(f"deck must be a list of card strings such as ['TH', 'AS'], got {deck!r}")
    cards = [parse_card(c) for c in deck]
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise ValueError(f"deck has card {card_name(c)} more than once")
        seen.add(c)
    if len(cards) < needed:
        raise ValueError(f"deck has {len(cards)} cards; the first deal needs at least {needed} (hands plus the turned-up card)")
    return cards
