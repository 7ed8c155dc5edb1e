"""The dix (TEN) rules engine: draws, busts, rewards, the market, auctions, payments, the end.

Pure Python; the only randomness is the ``numpy.random.Generator`` handed to the state (the
shuffle and the first player). The game is a small state machine; ``phase`` and ``actor`` say
who must decide what:

* ``DECIDE``  — the active player, after a draw: ``draw`` / ``take numbers`` / ``take money``;
* ``AUCTION`` — a bidder, for the wild just drawn: ``bid N`` / ``pass``;
* ``PAYMENT`` — the buyer or the auction winner, one item at a time: ``pay …``;
* ``BUY``     — a buyer (after taking numbers, after a bust with ``bust_buy``, or in the final
  round): ``buy X`` / ``skip``.

The first draw of a turn is made by the engine. In the solo game (``config.solo``) the engine
also plays ALIX (seat 1) with the functions of ``solo.py``, so ``current_player()`` is 0 or -1.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from itertools import compress
from typing import Any, Mapping, Sequence

import numpy as np

from dixenv.core.events import Event
from dixenv.core.options import check_int, is_int, warn_unknown_reset_keys
from dixenv.games.dix import actions as A
from dixenv.games.dix.cards import (
    CARD_NAMES,
    COLOUR_WILD_BASE,
    CURRENCY_BASE,
    KIND,
    NUM_COLLECTABLE,
    NUM_NUMBER_TYPES,
    NUM_NUMBERS,
    NUM_TYPES,
    NUMBER,
    NUMBER_WILD_BASE,
    STAR,
    VALUE,
    WILD,
    card_name,
    parse_card,
)
from dixenv.games.dix.config import DixConfig
from dixenv.games.dix.payment import auto_pay_item
from dixenv.games.dix.scoring import score_collection
from dixenv.games.dix.solo import ALIX_SEAT, SOLO_MIN_BID, alix_bid, alix_decision, alix_payment

DECIDE, AUCTION, PAYMENT, BUY, GAME_OVER = range(5)
PHASE_NAMES = ("draw decision", "auction", "payment", "buy", "game over")
# Why a buy phase happens: after taking numbers, after a bust (variant bust_buy), the final round.
BUY_TAKE, BUY_BUST, BUY_FINAL = range(3)
BUY_KIND_NAMES = ("after taking numbers", "after a bust", "final round")
# What a payment is for.
PAY_BUY, PAY_AUCTION = range(2)

START_TOKENS = 5
TOKEN_CAP = 10
LIMIT = 10  # tableau total or currency sum above this busts
CONSOLATION_VALUE = 3
SCENARIO_KEYS = ("deck", "first_player")
_NUMBERS = range(NUM_NUMBER_TYPES)
_CURRENCY = range(CURRENCY_BASE, NUM_TYPES)
#: How the move log words each payment item (number cards: "pays B7").
_PAY_WORDS = {A.PAY_TOKEN: "pays a token", A.PAY_CONSOLATION: "pays a consolation token (worth 3)"}


def public_segments(num_players: int) -> dict[str, tuple[int, int]]:
    """Where each public count list lives in a state's int buffer: name -> (start, length).

    The public counts share one ``array('i')`` buffer (each list is a ``memoryview`` slice of it)
    so that the observer can read them all with one numpy gather instead of many list copies.
    """
    n = num_players
    sizes = [("collections", n * NUM_COLLECTABLE), ("tokens", n), ("consolation", n), ("num_cards", n),
             ("dups", n), ("scores", n), ("tableau", NUM_TYPES), ("market", NUM_NUMBER_TYPES), ("pile_counts", NUM_TYPES),
             ("discard", NUM_TYPES)]
    out, start = {}, 0
    for name, size in sizes:
        out[name] = (start, size)
        start += size
    return out


class DixState:
    """Full state of a dix game (the only hidden thing is the order of the draw pile).

    The generator is used at set-up only (the shuffle and the first player): the whole future of a
    game is the order of its draw pile, and ALIX is deterministic, so the state keeps no generator
    (a clone has none to copy; ``sample_hidden`` redraws the pile order).
    """

    def __init__(
        self,
        config: DixConfig,
        rng: np.random.Generator,
        scenario: Mapping[str, Any] | None = None,
        events: list | None = None,
    ):
        scenario = dict(scenario or {})
        self.events = events
        warn_unknown_reset_keys("dix", scenario, SCENARIO_KEYS)
        n = config.num_players
        self.config = config
        self.num_seats = n
        self.solo = config.solo
        self.alix = ALIX_SEAT if config.solo else -1
        self.min_bid = SOLO_MIN_BID if config.solo else 1

        # Every scenario key is checked before the generator is drawn from: a refused reset changes nothing.
        stacked = parse_deck(scenario["deck"], config.box, n) if "deck" in scenario else None
        if "first_player" in scenario:
            first = check_int("first_player", scenario["first_player"], 0, n - 1)
            if self.solo and first != 0:
                raise ValueError(f"first_player={first} is not allowed in the solo game: the player (seat 0) always starts")
        else:
            first = 0 if self.solo else int(rng.integers(n))
        if stacked is not None:
            top_first = stacked
        else:
            cards = [t for t in range(NUM_TYPES) for _ in range(config.box[t])]
            top_first = [cards[i] for i in rng.permutation(len(cards))]

        # Card places; every card is in exactly one of them (see tests/games/dix/helpers.py).
        # The public counts are views of one int buffer (``public_segments``): collections[p]
        # (counts per type 0..49), tableau (per type; numbers and currency only), market (per
        # number type), pile_counts (the draw pile as a multiset, public knowledge), discard (per
        # type: currency spent, wilds nobody bid on, number cards paid), and per seat tokens,
        # consolation, num_cards, dups (copies beyond the first) and scores (cached).
        self._buf = array("i", bytes(4 * sum(size for _, size in public_segments(n).values())))
        self._make_views()
        self.pile: list[int] = top_first[::-1]  # top card last, so a draw is pop()
        self.pile_start = len(self.pile)  # public: how many cards this game's pile began with
        for t in top_first:
            self.pile_counts[t] += 1
        #: The cards of this game per type (the box, or the stacked deck): what ``check_invariants`` counts
        #: (read-only, shared by clones).
        self.game_cards = np.array(self.pile_counts, dtype=np.int64)
        self.game_cards.flags.writeable = False
        # The wild on auction (-1 if none) and the market card being paid for (-1 if none).
        self.auction_card = -1
        self.buy_card = -1
        for p in range(n):
            self.tokens[p] = START_TOKENS
        self.masks = [[0, 0, 0, 0] for _ in range(n)]  # per seat and colour, numbers held (bit k-1 = k)
        self._score_dirty = [False] * n

        self.tableau_total = 0
        self.tableau_currency = 0
        self.last_drawn = False  # the last card is drawn: no more draws
        self.active = first
        self.phase = DECIDE
        self.actor = first
        self.high_bid = 0
        self.high_bidder = -1
        self.pay_left = 0
        self.pay_reason = PAY_BUY
        self.pay_duplicates_only = False
        self.buy_kind = BUY_TAKE
        self.bust_by_total = False
        self.final_step = 0
        self._legal: list[int] | None = None

        if events is not None:
            self._log_start()
        self._start_turn(first)
        if self.solo:
            self._play_alix()

    def _make_views(self) -> None:
        view = memoryview(self._buf)
        seg = public_segments(self.num_seats)
        for name, (start, size) in seg.items():
            setattr(self, name if name != "scores" else "_score", view[start : start + size])
        start = seg["collections"][0]
        self.collections = [view[start + p * NUM_COLLECTABLE : start + (p + 1) * NUM_COLLECTABLE] for p in range(self.num_seats)]

    def __getstate__(self) -> dict:
        # memoryviews cannot be pickled or deep-copied: keep the buffer, rebuild the views.
        state = {k: v for k, v in self.__dict__.items() if not isinstance(v, memoryview) and k != "collections"}
        state["_legal"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._make_views()

    # --- the GameState API ----------------------------------------------------------------------
    def current_player(self) -> int:
        """Seat to act, -1 once the game is over."""
        return -1 if self.phase == GAME_OVER else self.actor

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for the seat to act."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[int]:
        phase, p = self.phase, self.actor
        if phase == DECIDE:
            return [A.DRAW, A.TAKE_NUMBERS, A.TAKE_MONEY] if self.pile else [A.TAKE_NUMBERS, A.TAKE_MONEY]
        if phase == AUCTION:
            low = max(self.high_bid + 1, self.min_bid)
            high = min(self.bid_means(p), A.MAX_BID)
            return list(range(A.BID_BASE + low, A.BID_BASE + high + 1)) + [A.PASS]
        if phase == PAYMENT:
            out = []
            if self.tokens[p]:
                out.append(A.PAY_TOKEN)
            if self.consolation[p]:
                out.append(A.PAY_CONSOLATION)
            coll, masks = self.collections[p], self.masks[p]
            base = A.PAY_CARD_BASE
            for c in range(4):  # only the number cards held, from the colour masks
                m = masks[c]
                while m:
                    low = m & -m
                    t = c * NUM_NUMBERS + low.bit_length() - 1
                    if not self.pay_duplicates_only or coll[t] > 1:
                        out.append(base + t)
                    m ^= low
            return out
        if phase == BUY:
            means, coll = self.means(p), self.collections[p]
            # ``compress`` picks the market's card types in C (the market holds few of the 36)
            out = [A.BUY_BASE + t for t in compress(_NUMBERS, self.market) if not coll[t] and VALUE[t] <= means]
            out.append(A.SKIP)
            return out
        return []

    def apply_action(self, action: int) -> None:
        """Play one action for the seat to act; ``ValueError`` (state unchanged) if it is illegal or no integer."""
        legal = self.legal_actions()
        if action not in legal or (type(action) is not int and not is_int(action)):  # 1.0 or True are no ids
            self._raise_illegal(action, legal)
        self._apply(int(action), "move")
        if self.solo:
            self._play_alix()

    def _apply(self, action: int, kind: str) -> None:
        """Play a legal action; ``kind`` labels its event: "move" (an agent's decision) or "auto" (ALIX's)."""
        self._legal = None
        phase = self.phase
        if phase == DECIDE:
            if action == A.DRAW:
                self._draw(kind)
            elif action == A.TAKE_NUMBERS:
                self._take_numbers(kind)
            else:
                self._take_money(kind)
        elif phase == AUCTION:
            self._bid(0 if action == A.PASS else action - A.BID_BASE, kind)
        elif phase == PAYMENT:
            self._pay(action, kind)
        elif action == A.SKIP:
            if self.events is not None:
                self._say(self.actor, f"{self._name(self.actor)} skips the buy", kind)
            self._end_buy(bought=False)
        else:
            self._buy(action - A.BUY_BASE, kind)

    def _raise_illegal(self, action: Any, legal: list[int]) -> None:
        if not is_int(action):
            names = ", ".join(f"{a} ({A.action_to_string(a)})" for a in legal)
            raise ValueError(f"action {action!r} ({type(action).__name__}) is not an integer action id; legal: {names}")
        try:
            name = f"{action} ({A.action_to_string(int(action))})"
        except ValueError:
            name = repr(action)
        if self.phase == GAME_OVER:
            raise ValueError(f"illegal action {name}: the game is over")
        names = ", ".join(A.action_to_string(a) for a in legal)
        raise ValueError(f"illegal action {name} for player_{self.actor} in the {PHASE_NAMES[self.phase]} phase: "
                         f"{self.why_illegal(int(action))}; legal: {names}")

    def why_illegal(self, action: int) -> str:
        """Why ``action`` is illegal for the seat to act, in words for that seat ("" if it is legal).

        Everything it reads is public (dix hides only the order of the draw pile), so the reason
        can be shown to the person at that seat.
        """
        action = int(action)
        if not 0 <= action < A.NUM_ACTIONS:
            return f"there is no action {action} (actions are 0..{A.NUM_ACTIONS - 1})"
        phase = self.phase
        if phase == GAME_OVER:
            return "the game is over"
        if action in self.legal_actions():
            return ""
        kind = _action_kind(action)
        if kind != _PHASE_ACTION[phase]:
            return self._phase_wants()
        if phase == DECIDE:  # only ``draw`` can be illegal here
            return "the draw pile is empty: take the numbers or the money"
        if phase == AUCTION:
            return self._why_bid(action - A.BID_BASE)
        if phase == PAYMENT:
            return self._why_pay(action)
        return self._why_buy(action - A.BUY_BASE)

    def _phase_wants(self) -> str:
        """What the current phase asks of the seat to act (for an action of another phase)."""
        phase = self.phase
        if phase == DECIDE:
            return "you may " + ("draw, take numbers or take money" if self.pile else "take numbers or take money")
        if phase == AUCTION:
            low = max(self.high_bid + 1, self.min_bid)
            return f"an auction for {CARD_NAMES[self.auction_card]} is open: bid {low} or more, or pass"
        if phase == PAYMENT:
            what = CARD_NAMES[self.buy_card if self.pay_reason == PAY_BUY else self.auction_card]
            return f"you still owe {self.pay_left} for {what}: pay a token, a consolation token or a number card"
        return "you may buy a market card or skip"

    def _why_bid(self, amount: int) -> str:
        p = self.actor
        if amount <= self.high_bid:
            return f"a bid must beat the high bid of {self.high_bid} by {self._name(self.high_bidder)}"
        if amount < self.min_bid:
            return f"in the solo game a bid is at least {self.min_bid}"
        cards = (f"{self.dups[p]} duplicates (in the solo game only duplicates pay a bid)" if self.solo
                 else f"{self.num_cards[p]} number cards")
        return (f"bid {amount} is above your means of {self.bid_means(p)} ({_tokens(self.tokens[p])}, "
                f"{self.consolation[p]} consolation × {CONSOLATION_VALUE}, {cards})")

    def _why_pay(self, action: int) -> str:
        p = self.actor
        if action == A.PAY_TOKEN:
            return "you have no money tokens"
        if action == A.PAY_CONSOLATION:
            return "you have no consolation tokens"
        t = action - A.PAY_CARD_BASE
        if not self.collections[p][t]:
            return f"you do not hold {CARD_NAMES[t]}"
        return f"in the solo game only duplicates pay a bid, and you hold one {CARD_NAMES[t]}"

    def _why_buy(self, t: int) -> str:
        p = self.actor
        if not self.market[t]:
            return f"{CARD_NAMES[t]} is not in the market"
        if self.collections[p][t]:
            return f"you already hold {CARD_NAMES[t]}"
        return f"you cannot afford {CARD_NAMES[t]}: {self.means(p)} of {VALUE[t]}"

    # --- means ----------------------------------------------------------------------------------
    def means(self, seat: int) -> int:
        """What ``seat`` can pay for a buy: tokens + 3 × consolation + number cards held."""
        return self.tokens[seat] + CONSOLATION_VALUE * self.consolation[seat] + self.num_cards[seat]

    def bid_means(self, seat: int) -> int:
        """The highest bid ``seat`` may make (in the solo game only duplicates count among cards)."""
        cards = self.dups[seat] if self.solo else self.num_cards[seat]
        return self.tokens[seat] + CONSOLATION_VALUE * self.consolation[seat] + cards

    # --- collections ----------------------------------------------------------------------------
    def _add_card(self, seat: int, t: int, k: int = 1) -> None:
        coll = self.collections[seat]
        before = coll[t]
        coll[t] = before + k
        if t < NUM_NUMBER_TYPES:
            self.num_cards[seat] += k
            self.dups[seat] += k - 1 if before == 0 else k
            if before:
                return  # a duplicate: the score cannot change
            self.masks[seat][t // NUM_NUMBERS] |= 1 << (t % NUM_NUMBERS)
        self._score_dirty[seat] = True

    def _remove_card(self, seat: int, t: int) -> None:
        coll = self.collections[seat]
        coll[t] -= 1
        self.num_cards[seat] -= 1
        if coll[t]:
            self.dups[seat] -= 1
        else:
            self.masks[seat][t // NUM_NUMBERS] &= ~(1 << (t % NUM_NUMBERS))
            self._score_dirty[seat] = True

    def _gain_tokens(self, seat: int, amount: int) -> None:
        """``seat`` gains ``amount`` money tokens from the tableau's currency; the excess over 10 is lost."""
        before = self.tokens[seat]
        self.tokens[seat] = min(TOKEN_CAP, before + amount)
        if self.events is not None and amount:
            source = "from the tableau's currency" if seat == self.active else \
                f"for the currency on {self._name(self.active)}'s tableau"
            lost = before + amount - self.tokens[seat]
            over = f", {lost} lost over the cap of {TOKEN_CAP}" if lost else ""
            self._say(seat, f"{self._name(seat)} gains {_tokens(amount)} {source} (now {self.tokens[seat]}{over})")

    def _gain_consolation(self, seat: int) -> None:
        self.consolation[seat] += 1
        if self.events is not None:
            self._say(seat, f"{self._name(seat)} gains a consolation token for the bust (now {self.consolation[seat]})")

    # --- the move log ---------------------------------------------------------------------------
    # Everything in dix is face up but the draw pile, and no event names a card before it is
    # drawn, so every event is public as it stands (``public`` is None). Callers test
    # ``self.events is not None`` first, so nothing is formatted when nobody records.
    def _say(self, seat: int, text: str, kind: str = "auto") -> None:
        self.events.append(Event(seat, text, None, kind))

    def _mark(self, text: str) -> None:
        self.events.append(Event(-1, text, None, "mark"))

    def _log_start(self) -> None:
        who = f"solo against ALIX (difficulty {self.config.difficulty})" if self.solo else f"{self.num_seats} players"
        variants = [name for name, on in (("bust_buy", self.config.bust_buy), ("auto_pay", self.config.auto_pay)) if on]
        extra = f", variants {', '.join(variants)}" if variants else ""
        self._mark(f"dix, {who}{extra}: {_cards(self.pile_start)} in the draw pile, {START_TOKENS} tokens each; "
                   f"{self._name(self.actor)} starts")

    def _log_game_over(self) -> None:
        keys = self.ranking_keys()
        best = max(keys)
        winners = [self._name(p) for p in range(self.num_seats) if keys[p] == best]
        lines = ", ".join(
            f"{self._name(p)} {keys[p][0]} points (money {keys[p][1]}, {_cards(-keys[p][2])})" for p in range(self.num_seats)
        )
        result = f"{winners[0]} wins" if len(winners) == 1 else f"shared win: {', '.join(winners)}"
        self._mark(f"game over: {lines}; {result}")

    # --- a turn ---------------------------------------------------------------------------------
    def _start_turn(self, seat: int) -> None:
        self.active = seat
        if self.events is not None:
            self._mark(f"turn of {self._name(seat)}, {_cards(len(self.pile))} in the draw pile")
        self._draw("auto")  # the first draw is no choice

    def _draw(self, kind: str) -> None:
        t = self.pile.pop()
        self.pile_counts[t] -= 1
        if not self.pile:
            self.last_drawn = True
        card = KIND[t]
        if card == WILD:
            if self.events is not None:
                left = (self.active + 1) % self.num_seats
                self._say(self.active, f"{self._name(self.active)} draws {CARD_NAMES[t]}: an auction, "
                          f"{self._name(left)} bids first", kind)
                self._log_last_card()
            self._start_auction(t)
            return
        self.tableau[t] += 1
        if card == NUMBER:
            self.tableau_total += VALUE[t]
        else:
            self.tableau_total -= VALUE[t]
            self.tableau_currency += VALUE[t]
        if self.events is not None:
            currency = f", currency {self.tableau_currency}" if self.tableau_currency else ""
            self._say(self.active, f"{self._name(self.active)} draws {CARD_NAMES[t]}: tableau total "
                      f"{self.tableau_total}{currency}", kind)
            self._log_last_card()
        if self.tableau_currency > LIMIT or (self.tableau_total > LIMIT and self.active != self.alix):
            self._bust()  # ALIX busts only on currency (solo rules)
        else:
            self._decide()

    def _log_last_card(self) -> None:
        if self.last_drawn:
            self._mark("the draw pile is empty: this turn ends without another draw, then a final buy round")

    def _decide(self) -> None:
        self.phase = DECIDE
        self.actor = self.active

    def _numbers_to_collection(self, seat: int) -> None:
        tab = self.tableau
        for t in range(NUM_NUMBER_TYPES):
            if tab[t]:
                self._add_card(seat, t, tab[t])
                tab[t] = 0
        self.tableau_total = -self.tableau_currency

    def _numbers_to_market(self) -> None:
        if self.events is not None and (numbers := card_list(self.tableau, _NUMBERS)):
            self._say(-1, f"to the market: {numbers}")
        tab, market = self.tableau, self.market
        for t in range(NUM_NUMBER_TYPES):
            if tab[t]:
                market[t] += tab[t]
                tab[t] = 0
        self.tableau_total = -self.tableau_currency

    def _discard_currency(self) -> None:
        if self.events is not None and (currency := card_list(self.tableau, _CURRENCY)):
            self._say(-1, f"to the discard pile: {currency}")
        tab, discard = self.tableau, self.discard
        for t in _CURRENCY:
            discard[t] += tab[t]
            tab[t] = 0
        self.tableau_total = 0
        self.tableau_currency = 0

    def _pay_others(self, amount: int) -> None:
        if amount:
            for q in range(self.num_seats):
                if q != self.active:
                    self._gain_tokens(q, amount)

    def _take_numbers(self, kind: str) -> None:
        p = self.active
        if self.events is not None:
            self._say(p, f"{self._name(p)} takes the numbers: {card_list(self.tableau, _NUMBERS) or 'none'}", kind)
        self._numbers_to_collection(p)
        self._pay_others(self.tableau_currency)
        self._discard_currency()
        self._start_buy(p, BUY_TAKE)

    def _take_money(self, kind: str) -> None:
        p = self.active
        if self.events is not None:
            self._say(p, f"{self._name(p)} takes the money: {card_list(self.tableau, _CURRENCY) or 'none'}", kind)
        self._gain_tokens(p, self.tableau_currency)
        self._numbers_to_market()
        self._discard_currency()
        self._end_turn()

    def _bust(self) -> None:
        p = self.active
        total_bust = self.tableau_total > LIMIT
        if self.events is not None:
            why = f"total {self.tableau_total}" if total_bust else f"currency {self.tableau_currency}"
            self._say(p, f"{self._name(p)} busts: {why} is over {LIMIT}")
        if p == self.alix:
            # ALIX keeps her numbers and gains her token; a currency bust pays nobody.
            if self.events is not None:
                self._say(p, f"ALIX still takes the numbers (solo rule): {card_list(self.tableau, _NUMBERS) or 'none'}")
            self._numbers_to_collection(p)
            self._gain_consolation(p)
            self._discard_currency()
            self._end_turn()
            return
        # Bust resolution order: numbers to the market; the token (or a buy, variant);
        # others paid only if the total went over 10; currency discarded.
        self.bust_by_total = total_bust
        self._numbers_to_market()
        if self.config.bust_buy:
            self._start_buy(p, BUY_BUST)
            return
        self._gain_consolation(p)
        self._finish_bust()

    def _finish_bust(self) -> None:
        if self.bust_by_total:
            self._pay_others(self.tableau_currency)
        self._discard_currency()
        self._end_turn()

    def _end_turn(self) -> None:
        if self.last_drawn:
            self.final_step = 0
            if self.events is not None:
                first, last = (self.active + 1) % self.num_seats, self.active
                self._mark(f"final round: one buy each, from {self._name(first)} to {self._name(last)}")
            self._next_final_buy()
        else:
            self._start_turn((self.active + 1) % self.num_seats)

    def _next_final_buy(self) -> None:
        # Final round: one buy each from the active player's left, the active player last.
        self.final_step += 1
        if self.final_step > self.num_seats:
            self.phase = GAME_OVER
            self.actor = -1
            if self.events is not None:
                self._log_game_over()
            return
        self._start_buy((self.active + self.final_step) % self.num_seats, BUY_FINAL)

    # --- buying ---------------------------------------------------------------------------------
    def _start_buy(self, seat: int, kind: int) -> None:
        self.phase = BUY
        self.actor = seat
        self.buy_kind = kind

    def _buy(self, t: int, kind: str) -> None:
        if self.events is not None:
            self._say(self.actor, f"{self._name(self.actor)} buys {CARD_NAMES[t]} for {VALUE[t]}", kind)
        self.buy_card = t  # stays in the market until paid
        self._start_payment(self.actor, VALUE[t], PAY_BUY, duplicates_only=False)

    def _end_buy(self, bought: bool) -> None:
        kind = self.buy_kind
        if kind == BUY_TAKE:
            self._end_turn()
        elif kind == BUY_BUST:
            if not bought:
                self._gain_consolation(self.active)  # the variant: a buy instead of the token
            self._finish_bust()
        else:
            self._next_final_buy()

    # --- auctions -------------------------------------------------------------------------------
    def _start_auction(self, wild: int) -> None:
        self.auction_card = wild
        self.high_bid = 0
        self.high_bidder = -1
        self.phase = AUCTION
        self.actor = (self.active + 1) % self.num_seats  # from the active player's left

    def _bid(self, amount: int, kind: str) -> None:
        if self.events is not None:
            name = self._name(self.actor)
            self._say(self.actor, f"{name} bids {amount}" if amount else f"{name} passes", kind)
        if amount:
            self.high_bid = amount
            self.high_bidder = self.actor
        if self.actor != self.active:
            self.actor = (self.actor + 1) % self.num_seats
            return
        # The active player bid last: the auction is over.
        if self.high_bidder >= 0:
            if self.events is not None:
                winner = self.high_bidder
                self._say(winner, f"{self._name(winner)} wins {CARD_NAMES[self.auction_card]} for {self.high_bid}")
            self._start_payment(self.high_bidder, self.high_bid, PAY_AUCTION, duplicates_only=self.solo)
        else:
            if self.events is not None:
                self._say(-1, f"nobody bids: {CARD_NAMES[self.auction_card]} goes to the discard pile")
            self.discard[self.auction_card] += 1
            self.auction_card = -1
            self._decide()

    # --- payment --------------------------------------------------------------------------------
    def _start_payment(self, seat: int, amount: int, reason: int, duplicates_only: bool) -> None:
        self.phase = PAYMENT
        self.actor = seat
        self.pay_left = amount
        self.pay_reason = reason
        self.pay_duplicates_only = duplicates_only
        # ALIX and the auto_pay rule pay by themselves, item by item ("auto" events).
        if seat == self.alix:
            while not self._pay(alix_payment(self.tokens[seat], self.consolation[seat], self.collections[seat]), "auto"):
                pass
        elif self.config.auto_pay:
            while not self._pay(
                auto_pay_item(self.tokens[seat], self.consolation[seat], self.collections[seat], duplicates_only), "auto"
            ):
                pass

    def _pay(self, action: int, kind: str) -> bool:
        """Hand over one item; True once the amount is covered (the game then moves on)."""
        self._legal = None
        p = self.actor
        if action == A.PAY_TOKEN:
            self.tokens[p] -= 1
            self.pay_left -= 1
        elif action == A.PAY_CONSOLATION:
            self.consolation[p] -= 1
            self.pay_left -= CONSOLATION_VALUE  # spent whole: change is lost
        else:
            t = action - A.PAY_CARD_BASE
            self._remove_card(p, t)
            self.discard[t] += 1
            self.pay_left -= 1
        if self.events is not None:
            self._log_payment(p, action, kind)
        if self.pay_left > 0:
            return False
        self.pay_left = 0
        if self.pay_reason == PAY_BUY:
            t, self.buy_card = self.buy_card, -1
            self.market[t] -= 1
            self._add_card(p, t)
            if self.events is not None:
                self._say(p, f"{self._name(p)} takes {CARD_NAMES[t]} from the market")
            self._end_buy(bought=True)
        else:
            t, self.auction_card = self.auction_card, -1
            self._add_card(p, t)
            if self.events is not None:
                self._say(p, f"{self._name(p)} takes {CARD_NAMES[t]}")
            self._decide()  # the active player's turn resumes
        return True

    def _log_payment(self, seat: int, action: int, kind: str) -> None:
        item = _PAY_WORDS.get(action) or f"pays {CARD_NAMES[action - A.PAY_CARD_BASE]}"
        if self.pay_left > 0:
            rest = f"{self.pay_left} to go"
        elif self.pay_left < 0:
            rest = f"paid, {-self.pay_left} of change lost"  # a consolation token is spent whole
        else:
            rest = "paid"
        self._say(seat, f"{self._name(seat)} {item}: {rest}", kind)

    # --- ALIX -----------------------------------------------------------------------------------
    def _play_alix(self) -> None:
        """Play ALIX's decisions (solo) until the player must act or the game is over."""
        while self.actor == ALIX_SEAT and self.phase != GAME_OVER:
            self._apply(self.alix_action(), "auto")

    def alix_action(self) -> int:
        """ALIX's action in the current position (solo rules; ALIX is seat 1)."""
        phase = self.phase
        if phase == DECIDE:
            return alix_decision(self.tableau_total, self.tableau_currency, self.config.difficulty, bool(self.pile))
        if phase == AUCTION:
            last = self.actor == self.active
            amount = alix_bid(self.high_bid, self.bid_means(ALIX_SEAT), self.bid_means(1 - ALIX_SEAT), last, self.min_bid)
            if amount > A.MAX_BID:
                amount = A.MAX_BID if self.high_bid < A.MAX_BID else 0
            return A.PASS if amount == 0 else A.bid_action(amount)
        if phase == BUY:
            return A.SKIP  # ALIX never buys
        raise AssertionError(f"ALIX has no decision in the {PHASE_NAMES[phase]} phase")  # payments are automatic

    # --- results --------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """True once the final buy round is over."""
        return self.phase == GAME_OVER

    def is_truncated(self) -> bool:
        """dix always ends by its rules (the draw pile runs out)."""
        return False

    def scores(self) -> list[int]:
        """What each seat's collection scores now (seat order, ALIX included in solo)."""
        self.refresh_scores()
        return self._score.tolist()

    def refresh_scores(self) -> None:
        """Recompute the cached score of every collection that changed since the last call."""
        dirty = self._score_dirty
        for p in range(self.num_seats):
            if dirty[p]:
                coll = self.collections[p]
                self._score[p] = score_collection(
                    self.masks[p], coll[COLOUR_WILD_BASE:NUMBER_WILD_BASE], coll[NUMBER_WILD_BASE:STAR], coll[STAR]
                )
                dirty[p] = False

    def money(self, seat: int) -> int:
        """Tokens + 3 × consolation tokens (the first tie-break)."""
        return self.tokens[seat] + CONSOLATION_VALUE * self.consolation[seat]

    def ranking_keys(self) -> list[tuple]:
        """Score, then money, then fewest cards (number cards and wilds); equal keys share the win."""
        scores = self.scores()
        return [(scores[p], self.money(p), -sum(self.collections[p])) for p in range(self.num_seats)]

    def teams(self) -> None:
        """dix is played individually."""
        return None

    def clone(self) -> "DixState":
        """An independent copy (lists and the count buffer copied, nothing deep-copied); it records no events."""
        new = object.__new__(DixState)
        new.__dict__.update(self.__dict__)  # config, game_cards and the ints are immutable: shared
        new._buf = array("i", self._buf)
        new._make_views()
        new.pile = list(self.pile)
        new._score_dirty = list(self._score_dirty)
        new.masks = [list(m) for m in self.masks]
        new.events = None
        new._legal = None
        return new

    def sample_hidden(self, seat: int, rng: np.random.Generator) -> "DixState":
        """A copy of this state with the draw pile in a random order: all that ``seat`` cannot see.

        In dix only the order of the draw pile is hidden (from every seat alike); everything else is
        on the table, ALIX is deterministic and the state keeps no generator for later, so nothing
        else is redrawn. The cards of the pile are public (``pile_counts``): they are laid out by card
        id, a canonical order, and shuffled by ``rng.permutation``, so the sample depends only on what
        ``seat`` knows. Distribution: exactly uniform over the distinct orders of the remaining cards,
        which is the true posterior of a shuffled box given everything seen so far (a stacked
        ``deck`` is treated as if it had been shuffled).
        """
        if not is_int(seat) or not 0 <= seat < self.num_seats:
            raise ValueError(f"seat {seat!r} is not a seat of this game; seats are 0 to {self.num_seats - 1}")
        new = self.clone()
        cards = np.repeat(_TYPE_IDS, np.frombuffer(self._buf, dtype=np.int32)[_segment_slices(self.num_seats)["pile_counts"]])
        new.pile = rng.permutation(cards).tolist()
        return new

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` naming the broken invariant: cards, counts, tokens, scores, phase and actor.

        O(state), with numpy over the count buffer (a soak run calls it after every move); messages are
        only formatted when a check fails.
        """
        n = self.num_seats
        counts = np.frombuffer(self._buf, dtype=np.int32)
        seg = _segment_slices(n)
        colls = counts[seg["collections"]].reshape(n, NUM_COLLECTABLE)
        self._check_cards(counts, seg, colls)
        self._check_seats(counts, seg, colls)
        tab = counts[seg["tableau"]]
        currency = int(tab[CURRENCY_BASE:] @ _VALUES[CURRENCY_BASE:])
        numbers = int(tab[:NUM_NUMBER_TYPES] @ _VALUES[:NUM_NUMBER_TYPES])
        if tab[NUM_NUMBER_TYPES:CURRENCY_BASE].any():
            raise AssertionError("a wild is in the tableau")
        if self.tableau_currency != currency:
            raise AssertionError(f"tableau currency sum {self.tableau_currency} != {currency} on the table")
        if self.tableau_total != numbers - currency:
            raise AssertionError(f"tableau total {self.tableau_total} != numbers {numbers} - currency {currency}")
        if self.last_drawn != (not self.pile):
            raise AssertionError(f"last_drawn={self.last_drawn} with {len(self.pile)} cards in the pile")
        if not 0 <= self.active < n:
            raise AssertionError(f"active seat {self.active} out of 0..{n - 1}")
        self._check_phase()

    def _check_cards(self, counts: np.ndarray, seg: dict[str, slice], colls: np.ndarray) -> None:
        """Every card of the game in exactly one place; the pile's public counts match the pile."""
        in_pile = np.bincount(np.asarray(self.pile, dtype=np.intp), minlength=NUM_TYPES)
        if not (counts[seg["pile_counts"]] == in_pile).all():
            raise AssertionError("pile_counts do not match the draw pile")
        if not len(self.pile) <= self.pile_start == self.game_cards.sum():
            raise AssertionError(f"{len(self.pile)} cards in the pile, pile_start {self.pile_start}")
        placed = in_pile + counts[seg["tableau"]] + counts[seg["discard"]]
        placed[:NUM_NUMBER_TYPES] += counts[seg["market"]]
        placed[:NUM_COLLECTABLE] += colls.sum(axis=0)
        if self.auction_card >= 0:
            placed[self.auction_card] += 1
        if not (placed == self.game_cards).all():
            wrong = np.flatnonzero(placed != self.game_cards)
            raise AssertionError(", ".join(
                f"{CARD_NAMES[t]}: {placed[t]} copies on the table, the game has {self.game_cards[t]}" for t in wrong))

    def _check_seats(self, counts: np.ndarray, seg: dict[str, slice], colls: np.ndarray) -> None:
        """Tokens in range; each seat's derived counts, colour masks and cached score consistent."""
        numbers = colls[:, :NUM_NUMBER_TYPES]
        tokens, consolation = counts[seg["tokens"]], counts[seg["consolation"]]
        if tokens.min() < 0 or tokens.max() > TOKEN_CAP:
            raise AssertionError(f"tokens {tokens.tolist()}; allowed 0..{TOKEN_CAP}")
        if consolation.min() < 0:
            raise AssertionError(f"consolation tokens {consolation.tolist()}")
        held_numbers = numbers.sum(axis=1)
        if not (counts[seg["num_cards"]] == held_numbers).all():
            raise AssertionError("num_cards do not match the collections")
        # copies beyond the first = cards held - kinds held
        kinds = numbers.astype(bool)
        if not (counts[seg["dups"]] == held_numbers - kinds.sum(axis=1)).all():
            raise AssertionError("dups do not match the collections")
        held = (kinds.reshape(-1, 4, NUM_NUMBERS) @ _BITS).tolist()
        if held != self.masks:
            raise AssertionError(f"colour masks {self.masks} != the numbers held {held}")
        for p in range(self.num_seats):
            if not self._score_dirty[p]:
                coll = self.collections[p]
                score = score_collection(self.masks[p], coll[COLOUR_WILD_BASE:NUMBER_WILD_BASE], coll[NUMBER_WILD_BASE:STAR], coll[STAR])
                if self._score[p] != score:
                    raise AssertionError(f"{self._name(p)}: cached score {self._score[p]} != {score}")

    def _check_phase(self) -> None:
        """The phase, the seat to act and the auction, payment and buy records agree."""
        n, phase, actor = self.num_seats, self.phase, self.actor
        if phase == GAME_OVER:
            if actor != -1 or self.pile or any(self.tableau) or self.auction_card != -1 or self.buy_card != -1:
                raise AssertionError("the game is over, but a seat is to act or the table is not cleared")
            return
        if phase not in (DECIDE, AUCTION, PAYMENT, BUY):
            raise AssertionError(f"unknown phase {phase}")
        where = f"in the {PHASE_NAMES[phase]} phase"
        if not 0 <= actor < n or actor == self.alix:
            raise AssertionError(f"seat {actor} to act {where} (ALIX's decisions are played at once)")
        within = self.tableau_currency <= LIMIT and self.tableau_total <= LIMIT
        if phase == DECIDE:
            if actor != self.active or not within or self.auction_card != -1 or self.buy_card != -1:
                raise AssertionError("a draw decision off turn, over the limits or with an auction or a buy open")
        elif phase == AUCTION:
            if not (COLOUR_WILD_BASE <= self.auction_card < CURRENCY_BASE) or not within or self.buy_card != -1:
                raise AssertionError(f"auction card {self.auction_card}, buy card {self.buy_card} {where}")
            if not 0 <= self.high_bid <= A.MAX_BID or (self.high_bidder == -1) != (self.high_bid == 0):
                raise AssertionError(f"high bid {self.high_bid} by seat {self.high_bidder}")
        elif phase == PAYMENT:
            if self.pay_left <= 0:
                raise AssertionError(f"a payment with {self.pay_left} left to pay")
            if self.pay_reason == PAY_BUY:
                t = self.buy_card
                if t < 0 or not self.market[t] or self.auction_card != -1 or self.pay_left > VALUE[t]:
                    raise AssertionError(f"paying {self.pay_left} for market card {t}, auction card {self.auction_card}")
            elif self.auction_card < 0 or actor != self.high_bidder or self.pay_left > self.high_bid:
                raise AssertionError(f"seat {actor} pays {self.pay_left} for a wild bid {self.high_bid} by seat {self.high_bidder}")
        else:
            if self.auction_card != -1 or self.buy_card != -1:
                raise AssertionError("a buy phase with an auction or a buy open")
            if self.buy_kind == BUY_FINAL:
                if not self.last_drawn or not 1 <= self.final_step <= n or actor != (self.active + self.final_step) % n:
                    raise AssertionError(f"final buy of seat {actor} at step {self.final_step}")
            elif actor != self.active or (self.buy_kind == BUY_BUST and not self.config.bust_buy):
                raise AssertionError(f"a buy {BUY_KIND_NAMES[self.buy_kind]} for seat {actor} off turn or without bust_buy")

    def render_text(self) -> str:
        """The whole table as text: players, tableau, market, auction or payment, the pile."""
        n = self.num_seats
        scores = self.scores()
        head = f"dix — {PHASE_NAMES[self.phase]}"
        if self.phase == BUY:
            head += f" ({BUY_KIND_NAMES[self.buy_kind]})"
        head += f"; turn of {self._name(self.active)}; draw pile {len(self.pile)}" + (" (last card drawn)" if self.last_drawn else "")
        lines = [head]
        for p in range(n):
            mark = "*" if p == self.current_player() else " "
            lines.append(
                f"{mark}{self._name(p)}: score {scores[p]:2d}  tokens {self.tokens[p]:2d}  consolation {self.consolation[p]}"
                f"  collection: {format_counts(self.collections[p]) or '-'}"
            )
        lines.append(
            f"tableau (total {self.tableau_total}, currency {self.tableau_currency}): {format_counts(self.tableau) or '-'}"
        )
        lines.append(f"market: {format_counts(self.market) or '-'}")
        if self.auction_card >= 0:
            bid = f"{self.high_bid} by {self._name(self.high_bidder)}" if self.high_bidder >= 0 else "none"
            lines.append(f"auction: {card_name(self.auction_card)}, high bid {bid}")
        if self.phase == PAYMENT:
            what = card_name(self.buy_card if self.pay_reason == PAY_BUY else self.auction_card)
            lines.append(f"payment: {self._name(self.actor)} owes {self.pay_left} for {what}")
        return "\n".join(lines)

    def _name(self, seat: int) -> str:
        return "ALIX" if seat == self.alix else f"player_{seat}"


@lru_cache(maxsize=None)
def _segment_slices(num_players: int) -> dict[str, slice]:
    """``public_segments`` as slices of the count buffer (cached: read-only)."""
    return {name: slice(start, start + size) for name, (start, size) in public_segments(num_players).items()}


_TYPE_IDS = np.arange(NUM_TYPES)
_VALUES = np.asarray(VALUE)
_BITS = 1 << np.arange(NUM_NUMBERS)  # bit k-1 stands for number k in a colour mask


#: Per phase, the kind of action it takes (``_action_kind``).
_PHASE_ACTION = ("decide", "auction", "pay", "buy")


def _action_kind(action: int) -> str:
    """Which phase an action id belongs to: "decide", "auction", "buy" or "pay"."""
    if action <= A.TAKE_MONEY:
        return "decide"
    if action <= A.PASS:
        return "auction"
    return "buy" if action <= A.SKIP else "pay"


def card_list(counts: Sequence[int], types: range) -> str:
    """The cards of ``types`` in a count list, one name per copy: ``B3 B3 G5`` (empty if none)."""
    return " ".join(CARD_NAMES[t] for t in types for _ in range(counts[t]))


def _tokens(amount: int) -> str:
    return "1 token" if amount == 1 else f"{amount} tokens"


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def format_counts(counts: Sequence[int]) -> str:
    """Cards of a count list as text, e.g. ``B1 B3x2 W7 $2``."""
    out = []
    for t, c in enumerate(counts):
        if c:
            out.append(CARD_NAMES[t] if c == 1 else f"{CARD_NAMES[t]}x{c}")
    return " ".join(out)


def parse_deck(deck: Any, box: tuple[int, ...], num_players: int) -> list[int]:
    """Validate a stacked draw pile (card strings, top first): known cards, no more copies than the game has."""
    if isinstance(deck, (str, bytes)) or not hasattr(deck, "__iter__"):
        raise ValueError(f"deck must be a list of card strings such as ['B7', '$2', 'W3'], got {deck!r}")
    cards = [parse_card(c) for c in deck]
    if not cards:
        raise ValueError("deck is empty; the draw pile needs at least one card")
    counts = [0] * NUM_TYPES
    for t in cards:
        counts[t] += 1
        if counts[t] > box[t]:
            raise ValueError(
                f"deck has card {CARD_NAMES[t]} {counts[t]} times; a {num_players}-player game has only {box[t]}"
            )
    return cards
