"""The le_dix rules engine: deals, the dealer's trump pick-up, bidding, tricks and scoring.

Pure Python; the only randomness is the ``numpy.random.Generator`` handed to the state.
One rule, one place: everything about how le_dix is played lives in this module. The state also
records what the table remembers (who played each card, the voids each seat showed, a summary of
the previous deal), writes the move log when asked (``events``), and supports search: ``clone``,
``sample_hidden`` (the hidden cards redrawn, see ``dixenv.games.le_dix.sampling``) and
``check_invariants``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from dixenv.core.events import Event
from dixenv.core.options import check_int, is_int, warn_unknown_reset_keys
from dixenv.games.le_dix import actions as A
from dixenv.games.le_dix.cards import NUM_CARDS, SUIT_OF, SUITS, card_name, parse_card
from dixenv.games.le_dix.config import LeDixConfig
from dixenv.games.le_dix.sampling import ALL_SUITS, Filling, draw_below

# Phases of a deal.
TRUMP_CHOICE, DISCARD, BIDDING, PLAYING, GAME_OVER = range(5)
PHASE_NAMES = ("trump choice", "discard", "bidding", "playing", "game over")

SCENARIO_KEYS = ("deck", "dealer")


@dataclass(frozen=True)
class DealSummary:
    """What the whole table knows of a finished deal: its trump, bids, tricks won and every card played.

    Immutable, so clones and samples share it. ``plays`` lists ``(seat, card)`` in play order; its
    last ``num_seats`` entries are the final trick, led by the first of them.
    """

    hand_size: int
    trump_card: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    plays: tuple[tuple[int, int], ...]

    def final_trick(self) -> tuple[tuple[int, int], ...]:
        """The deal's last trick, ``(seat, card)`` in play order."""
        return self.plays[-len(self.bids) :]


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
        self._rng: np.random.Generator | None = rng
        self._rng_source: dict | int | None = None  # what a lazily made generator starts from (see ``rng``)
        self._play_base = A.play_base(config.max_bid)
        self._stacked = _parse_deck(scenario["deck"], n * config.deals[0] + 1) if "deck" in scenario else None
        if "dealer" in scenario:
            self.dealer = check_int("dealer", scenario["dealer"], 0, n - 1)
        else:
            self.dealer = int(rng.integers(n))
        self.total_scores = [0] * n
        self.deal_index = 0
        self.prev: DealSummary | None = None  # the last finished deal, None before the first ends
        self._start_deal()

    @property
    def rng(self) -> np.random.Generator:
        """The generator that shuffles the later deals.

        Clones and samples make theirs on first use, from a saved bit-generator state (a clone: the
        same future as the original) or a seed (a sample): building a generator costs more than
        the rest of a clone, and most clones used by search never reach another deal.
        """
        if self._rng is None:
            self._rng = _generator_from(self._rng_source)
            self._rng_source = None
        return self._rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng, self._rng_source = value, None

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
        self.last_trick: list[tuple[int, int]] = []  # the last complete trick, led by its first entry
        self.played: list[int] = []  # every card played this deal, in order
        self.played_by: list[int] = []  # the seat that played each card of ``played``
        self.voids = [0] * n  # per seat, bit s set once it showed it holds no card of suit s this deal
        self.leader = (self.dealer + 1) % n
        self.phase = TRUMP_CHOICE
        self.player = self.dealer
        self._legal: list[int] | None = None
        if self.events is not None:
            self._log_deal()

    def _log_deal(self) -> None:
        """The deal's marker, each hand dealt (hidden from the others) and the turned-up card."""
        n, h, log = self.num_seats, self.hand_size, self.events.append
        log(Event(-1, f"deal {self.deal_index + 1}/{len(self.config.deals)} ({_cards(h)}), dealer player_{self.dealer}", kind="mark"))
        for k in range(n):
            seat = (self.dealer + 1 + k) % n
            cards = " ".join(card_name(c) for c in self.hands[seat])
            log(Event(seat, f"player_{seat} is dealt {cards}", f"player_{seat} is dealt {_cards(h)}", "auto"))
        turned = f"player_{self.dealer} turns up {card_name(self.trump_card)}, trump suit {SUITS[self.trump_suit]}"
        log(Event(self.dealer, turned, kind="auto"))

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
        if self.events is not None:
            self._log_decision(action)
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
        why = self.why_illegal(action) if is_int(action) else "an action is an integer id"
        raise ValueError(
            f"illegal action {name} for player_{self.player} in the {PHASE_NAMES[self.phase]} phase: {why}; legal: {names}"
        )

    def why_illegal(self, action: int) -> str:
        """Why ``action`` is illegal for the seat to act, in words for that seat ("" if it is legal).

        Reads only what that seat knows (its hand, its own discard, the public table), so the reason
        can be shown to the person at that seat.
        """
        action = int(action)
        max_bid, phase, hand = self.config.max_bid, self.phase, self.hands[self.player]
        if not 0 <= action < A.num_actions(max_bid):
            return f"there is no action {action} (actions are 0..{A.num_actions(max_bid) - 1})"
        if phase == GAME_OVER:
            return "the game is over"
        if action in self.legal_actions():
            return ""
        kind = _action_kind(action, self._play_base)
        if kind != _PHASE_ACTION[phase]:
            return _PHASE_WANTS[phase].format(card=card_name(self.trump_card), size=self.hand_size)
        if kind == "discard":
            return f"you do not hold {card_name(action - A.DISCARD_BASE)}"
        if kind == "bid":
            bid = action - A.BID_BASE
            if bid > self.hand_size:
                return f"you cannot bid {bid} in a deal of {_cards(self.hand_size)} (bid 0..{self.hand_size})"
            return (f"the hook rule: the dealer may not bid {bid}, which would make the bids add up to the "
                    f"{self.hand_size} tricks of the deal")
        card = action - self._play_base
        if card not in hand:
            if card == self.dealer_discard and self.player == self.dealer:
                return f"you discarded {card_name(card)} face down"
            return f"you do not hold {card_name(card)}"
        led = SUIT_OF[self.trick[0][1]]
        follow = " ".join(card_name(c) for c in hand if SUIT_OF[c] == led)
        return f"you must follow {SUIT_WORDS[led]} (you hold {follow})"

    def _log_decision(self, action: int) -> None:
        """The decision about to be played, in the action vocabulary's words (a discard is face down)."""
        who = f"player_{self.player}"
        public = None
        if self.phase == PLAYING:
            text = f"{who} plays {card_name(action - self._play_base)}"
        elif self.phase == BIDDING:
            text = f"{who} bids {action - A.BID_BASE}"
        elif self.phase == TRUMP_CHOICE:
            verb = "takes" if action == A.TAKE_TRUMP else "leaves"
            text = f"{who} {verb} the turned-up {card_name(self.trump_card)}"
        else:
            text = f"{who} discards {card_name(action - A.DISCARD_BASE)} face down"
            public = f"{who} discards a card face down"
        self.events.append(Event(self.player, text, public))

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
        seat, trick = self.player, self.trick
        self.hands[seat].remove(card)
        if trick:
            led = SUIT_OF[trick[0][1]]
            if SUIT_OF[card] != led:  # not following shows the seat holds none of the led suit
                self.voids[seat] |= 1 << led
        trick.append((seat, card))
        self.played.append(card)
        self.played_by.append(seat)
        if len(trick) < self.num_seats:
            self.player = (seat + 1) % self.num_seats
            return
        winner = trick_winner(self.trick, self.trump_suit)
        self.tricks_won[winner] += 1
        self.last_trick = self.trick
        self.trick = []
        self.leader = self.player = winner
        if self.events is not None:
            self.events.append(Event(-1, f"trick {sum(self.tricks_won)} won by player_{winner}", kind="mark"))
        if not self.hands[winner]:
            self._end_deal()

    def _end_deal(self) -> None:
        n = self.num_seats
        points = [deal_points(self.bids[s], self.tricks_won[s], self.config.scoring) for s in range(n)]
        for seat in range(n):
            self.total_scores[seat] += points[seat]
        self.prev = DealSummary(
            self.hand_size, self.trump_card, tuple(self.bids), tuple(self.tricks_won), tuple(zip(self.played_by, self.played))
        )
        if self.events is not None:
            self._log_scores(points)
        self.deal_index += 1
        if self.deal_index == len(self.config.deals):
            self.phase = GAME_OVER
            if self.events is not None:
                self._log_game_over()
            return
        self.dealer = (self.dealer + 1) % n
        self._start_deal()

    def _log_scores(self, points: list[int]) -> None:
        """The deal's scoring: per seat its bid, tricks, points and new total."""
        parts = (
            f"player_{s} bid {self.bids[s]} took {self.tricks_won[s]} +{points[s]} ({self.total_scores[s]})"
            for s in range(self.num_seats)
        )
        self.events.append(Event(-1, f"deal {self.deal_index + 1} scores: " + ", ".join(parts), kind="mark"))

    def _log_game_over(self) -> None:
        """The final totals and the winner(s)."""
        best = max(self.total_scores)
        winners = ", ".join(f"player_{s}" for s, t in enumerate(self.total_scores) if t == best)
        totals = ", ".join(f"player_{s} {t}" for s, t in enumerate(self.total_scores))
        self.events.append(Event(-1, f"game over: {totals}; winner {winners}", kind="mark"))

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
        """An independent copy (its own generator state too); it records no events.

        Explicit copies of the mutable lists (``copy.deepcopy`` is much slower); the config, the
        ``DealSummary`` and the ints are immutable and shared; the generator is copied lazily (``rng``).
        """
        new = object.__new__(LeDixState)
        new.__dict__.update(self.__dict__)
        new.events = None
        if self._rng is not None:  # else share the saved source: nobody changes it
            new._rng, new._rng_source = None, self._rng.bit_generator.state
        new.total_scores = list(self.total_scores)
        new.hands = [list(h) for h in self.hands]
        new.undealt = list(self.undealt)
        new.bids = list(self.bids)
        new.tricks_won = list(self.tricks_won)
        new.trick = list(self.trick)
        new.last_trick = list(self.last_trick)
        new.played = list(self.played)
        new.played_by = list(self.played_by)
        new.voids = list(self.voids)
        if self._legal is not None:
            new._legal = list(self._legal)
        return new

    # --- search support -----------------------------------------------------------------------
    def sample_hidden(self, seat: int, rng: np.random.Generator) -> "LeDixState":
        """A copy where everything hidden from ``seat`` is redrawn, uniformly among consistent worlds.

        Hidden from ``seat``: the other hands, the dealer's face-down discard (unless ``seat`` is
        the dealer), the undealt cards and the generator that deals later deals (a fresh one seeded
        from ``rng``). A world is consistent when every hand has its size, no seat holds a suit it
        showed a void in, and the turned-up card, if the dealer took it and it is not played yet,
        is in the dealer's hand or is the discard. Every consistent world (other hands, discard,
        undealt set) is equally likely: the chance of a uniformly random deal and a uniformly
        random discard given the public facts, ignoring what the players' choices (bids, which
        card of several) might tell. Exact counting, no rejection (``dixenv.games.le_dix.sampling``).
        """
        if not is_int(seat) or not 0 <= seat < self.num_seats:
            raise ValueError(f"seat {seat!r} is not at the table; seats are 0..{self.num_seats - 1}")
        new = self.clone()
        new._rng, new._rng_source = None, int(rng.integers(1 << 63))  # the future deals are hidden too
        new._legal = None
        dealer, trump = self.dealer, self.trump_card
        known = set(self.hands[seat]) | set(self.played)
        known.add(trump)
        if seat == dealer and self.dealer_discard is not None:
            known.add(self.dealer_discard)
        unseen = [c for c in range(NUM_CARDS) if c not in known]  # canonical order: card ids
        others = [s for s in range(self.num_seats) if s != seat]
        options = []  # (number of worlds, the dealer holds the turned-up card, the discard is unseen, filling)
        for holds, discard_unseen in self._turned_up_layouts(seat):
            places = [(len(self.hands[s]) - (holds and s == dealer), ALL_SUITS & ~self.voids[s]) for s in others]
            free = len(self.undealt) + discard_unseen
            places.append((free, ALL_SUITS))  # the undealt cards, and the discard when it is unseen
            # A filling with an unseen discard is ``free`` worlds: any of the free cards may be the discard.
            filling = Filling(unseen, places)
            worlds = filling.count() * (free if discard_unseen else 1)
            options.append((worlds, holds, discard_unseen, filling))
        total = sum(o[0] for o in options)
        if total == 0:
            raise ValueError(f"no deal fits what player_{seat} knows: the state breaks the rules (see check_invariants)")
        pick = draw_below(total, rng)
        for worlds, holds, discard_unseen, filling in options:
            if pick < worlds:
                break
            pick -= worlds
        filled = filling.sample(rng)
        for s, cards in zip(others, filled):
            new.hands[s] = sorted(cards + [trump]) if holds and s == dealer else cards
        rest = filled[-1]
        if discard_unseen:
            new.dealer_discard = rest.pop(draw_below(len(rest), rng))
        elif self.dealer_discard is not None and seat != dealer:
            new.dealer_discard = trump  # the layout where the turned-up card was the discard
        new.undealt = rest
        return new

    def _turned_up_layouts(self, seat: int) -> list[tuple[bool, bool]]:
        """Where the turned-up card may be, for ``seat``: (in the dealer's hand, the discard is another, unseen card).

        Only a dealer who took the card and has not played it leaves a choice: it is in the hand or
        it was the discard, unless the dealer showed a void in trumps or has no card left.
        """
        dealer = self.dealer
        if not self.dealer_took or seat == dealer:
            return [(False, False)]  # left on the table, or seen by the dealer: nothing to guess
        if self.phase == DISCARD:
            return [(True, False)]
        if self.trump_card in self.played:
            return [(False, True)]
        if self.voids[dealer] >> self.trump_suit & 1 or not self.hands[dealer]:
            return [(False, False)]
        return [(True, True), (False, False)]

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` naming the broken invariant (cards, tricks, voids, bids, scores, turn)."""
        n, h, phase, dealer = self.num_seats, self.hand_size, self.phase, self.dealer
        places = [c for hand in self.hands for c in hand] + self.played + self.undealt
        if not self.dealer_took:
            places.append(self.trump_card)
        elif self.dealer_discard is not None:
            places.append(self.dealer_discard)
        assert sorted(places) == list(range(NUM_CARDS)), "every card must be in exactly one place"
        assert len(self.undealt) == NUM_CARDS - n * h - 1, "undealt count: the deck minus the hands and the turn-up"
        assert self.trump_suit == SUIT_OF[self.trump_card], "the trump suit is the turned-up card's suit"
        assert all(hand == sorted(hand) for hand in self.hands), "hands are kept sorted"
        # The plays: complete tricks round the table from their leader, then the current trick.
        assert len(self.played) == len(self.played_by), "every played card has its player"
        plays = list(zip(self.played_by, self.played))
        done = len(plays) // n
        assert plays[done * n :] == self.trick, "the current trick ends the plays"
        won, voids, leader = [0] * n, [0] * n, (dealer + 1) % n
        for k in range(done):
            trick = plays[k * n : (k + 1) * n]
            assert [s for s, _ in trick] == [(leader + i) % n for i in range(n)], f"trick {k + 1} goes round from its leader"
            leader = trick_winner(trick, self.trump_suit)
            won[leader] += 1
        assert won == self.tricks_won, "tricks won match the winners of the tricks played"
        assert self.last_trick == (plays[(done - 1) * n : done * n] if done else []), "the last trick is the last complete one"
        assert self.leader == leader, "the last trick's winner (else the dealer's left) leads"
        for k in range(0, len(plays), n):
            led = SUIT_OF[plays[k][1]]
            for s, c in plays[k + 1 : k + n]:
                if SUIT_OF[c] != led:
                    voids[s] |= 1 << led
        assert voids == self.voids, "voids are the suits a seat did not follow"
        for seat in range(n):
            assert all(not voids[seat] >> SUIT_OF[c] & 1 for c in self.hands[seat]), f"player_{seat} holds a suit it showed void in"
        # Bids and scores.
        assert all(b is None or 0 <= b <= h for b in self.bids), "bids in 0..hand size"
        most = max_total_points(self.config)
        assert all(0 <= s <= most for s in self.total_scores), f"scores in 0..{most}"
        if self.config.scoring == "exact10":
            assert all(s % 10 == 0 for s in self.total_scores), "exact10 scores are multiples of 10"
        if phase == GAME_OVER:
            assert self.deal_index == len(self.config.deals), "the game ends after the last deal"
            assert not any(self.hands) and None not in self.bids, "the last deal was played out"
            return
        # Phase, turn and hand sizes.
        assert 0 <= self.deal_index < len(self.config.deals) and h == self.config.deals[self.deal_index], "deal schedule"
        assert (self.dealer_took is None) == (phase == TRUMP_CHOICE), "the trump choice is made once, first"
        assert (phase == DISCARD) == (self.dealer_took is True and self.dealer_discard is None), "one discard after a take"
        for seat in range(n):
            size = h - self.played_by.count(seat) + (phase == DISCARD and seat == dealer)
            assert len(self.hands[seat]) == size, f"player_{seat} holds {len(self.hands[seat])} cards, not {size}"
        if phase in (TRUMP_CHOICE, DISCARD):
            assert self.player == dealer and self.bids == [None] * n, "the dealer acts before any bid"
        elif phase == BIDDING:
            order = [(dealer + 1 + k) % n for k in range(n)]
            k = order.index(self.player)
            bid = [self.bids[s] is not None for s in order]
            assert bid == [True] * k + [False] * (n - k), "bids go round from the dealer's left"
        else:
            assert None not in self.bids, "everyone bid before play"
            assert self.player == (self.leader + len(self.trick)) % n, "play goes round from the leader"
        if self._legal is not None:
            assert self._legal == self._compute_legal(), "cached legal actions are current"

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


#: Suits in words, for the reasons of ``why_illegal`` (S, H, D, C).
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
#: Per phase: the kind of action it takes, and what it wants when another kind is tried.
_PHASE_ACTION = ("trump", "discard", "bid", "play")
_PHASE_WANTS = (
    "you are the dealer: first take or leave the turned-up {card}",
    "you took the turned-up card: discard one card face down first",
    "it is time to bid: bid 0..{size}",
    "the bidding is over: play a card",
)


def _action_kind(action: int, play_base: int) -> str:
    """Which phase an action id belongs to: "trump", "discard", "bid" or "play"."""
    if action < A.DISCARD_BASE:
        return "trump"
    if action < A.BID_BASE:
        return "discard"
    return "bid" if action < play_base else "play"


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


def max_total_points(config: LeDixConfig) -> int:
    """The most points a seat can reach: an exact bid of the whole hand in every deal."""
    return sum(deal_points(h, h, config.scoring) for h in config.deals)


def deal_points(bid: int, tricks: int, scoring: str) -> int:
    """Points for one deal: exact bid scores 10 ("exact10") or 10 + bid ("oh_hell"), else 0."""
    if bid != tricks:
        return 0
    return 10 if scoring == "exact10" else 10 + bid


def _generator_from(source: dict | int) -> np.random.Generator:
    """A generator from a seed, or from a saved ``bit_generator.state`` (same kind, same future)."""
    if isinstance(source, int):
        return np.random.default_rng(source)
    bit_generator = getattr(np.random, source["bit_generator"])()
    bit_generator.state = source
    return np.random.Generator(bit_generator)


def _cards(k: int) -> str:
    """``k`` cards in words: "1 card", "7 cards"."""
    return f"{k} card" if k == 1 else f"{k} cards"


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
