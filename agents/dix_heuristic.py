"""A baseline heuristic for dix (TEN): push its luck by expected value, value cards by what they add to its runs.

It reads only the observation (the documented layout of ``env.unwrapped.layout``) and the action
mask, never the engine's state. Everything in dix is public but the order of the draw pile, and
the observation carries the pile as a multiset, so the odds of the next draw are exact.

One valuation drives every decision: the worth of a collection in points,

    V = exact score (``scoring.score_collection``) + Σ over colours of a *potential* term,

where the potential is what the colour's run may still grow into: for each colour, the longest
run that ``r`` more cards would make (r = 1, 2, 3; only gaps whose card is still in the draw pile
or the market count, colour wilds fill any gap), weighted by ``ρ^r``, with ``ρ`` a per-gap chance
of getting the card that shrinks as the pile runs out (``rho × pile fraction``). Money is worth
``money`` points per token (falling to ``money_end`` as the pile runs out); a consolation token
is three tokens.

* **Draw or stop.** Stopping is worth the best of *take numbers* (V gain of the tableau's numbers,
  duplicates as payment units, ``buy_option`` × the best buy it opens, minus what the others are
  paid, ``give``) and *take money* (the tokens gained, capped at 10, minus ``leak`` × what the
  numbers left in the market are worth to the next player, plus ``market`` × what they are worth
  to us if we buy them back later). Drawing is worth the expectation over the unseen cards of the
  best stop after that card (a bust: the consolation token, the numbers to the market, minus the
  others' payment on a total bust; a wild: the auction leaves the tableau unchanged); the per-card
  change of V is read from the per-colour tables, so the look-ahead costs a few dozen table
  lookups. It draws while that expectation beats stopping by ``draw_margin`` (negative: a draw
  also keeps the option to draw again) and the bust chance is at most ``max_bust``.
* **Auctions.** The wild is worth its V gain (at least ``wild_floor``) plus ``deny`` × what it adds
  to the best rival (split among the n − 1 rivals), converted into a top bid at ``bid_money``
  points per token and capped by what it can pay without giving up useful cards. Bidding last it
  bids one over the high bid; otherwise it bids just over the estimated top bid of the players
  still to bid (their score gain at ``rival_money`` points per token, capped by their means), never
  above its own top. In the solo game it knows ALIX's rules: closing an auction she outbids
  anything within her means (tokens + 3 × consolation + duplicates), so on her turn it bids just
  over her means or, when that is too dear, just under them so that she pays all she has
  (``drain``); on its own turn she has bid already and it bids one over her if the wild is worth it.
* **Buys.** The market card with the best V gain minus its price in money (and, after a bust with
  ``bust_buy``, minus the consolation token given up), if positive; in the final round money is
  worth almost nothing and the potential is zero, so it buys whatever scores. Candidates are
  ranked by the colour tables and the best few scored exactly.
* **Payment.** Duplicates first, then cards whose loss costs (almost) nothing in V, then tokens,
  then consolation tokens (or the cheapest card when a consolation token would waste most of its
  worth), then the card whose loss costs least.

Speed (about 150 µs a decision): the scorer is memoised, per-card changes come from per-colour
tables (``run_profile``), card losses are ranked by colour and only the few candidates are scored
exactly. A collection with ``HEAVY_CONTESTED`` or more contested number wilds (many wilds wanted by
several colours) makes the exact scorer slow (its cost grows about threefold per contested wild),
so such collections are valued by a greedy placement (``greedy_score``, a lower bound) instead;
the heuristic's own collections reach that only when it has won most of the wilds.

Parameters (constructor keywords, see ``DEFAULTS``) were tuned against ALIX agents at 2–4 players
and in self-play; ``SOLO_DEFAULTS`` overrides some of them in the solo game, tuned against the
environment's ALIX at difficulties 4, 6, 8 and 10. A keyword given explicitly wins over both.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from dixenv.agents.base import tuned_params
from dixenv.games.dix import actions as A
from dixenv.games.dix.cards import COLOUR_WILD_BASE, NUM_NUMBERS
from dixenv.games.dix.scoring import score_collection
from dixenv.games.dix.solo import SOLO_MIN_BID

LIMIT = 10  # a tableau total or currency sum above this busts
TOKEN_CAP = 10
CONSOLATION = 3
MAX_GAPS = 3  # the potential looks at runs needing at most this many more cards

#: Multiplier turning each observation piece back into counts (the inverse of its documented scaling).
_INV_SCALE: dict[str, Any] = {
    "collection_numbers": 3.0, "collection_wilds": [2.0] * 4 + [1.0] * 10, "tokens": 10.0, "consolation": 5.0,
    "number_cards": 40.0, "duplicates": 10.0, "score": 40.0, "tableau_numbers": 3.0, "tableau_currency": 3.0,
    "market": 3.0, "unseen_numbers": 3.0, "unseen_wilds": [2.0] * 4 + [1.0] * 10, "unseen_currency": 6.0,
    "tableau_total": 10.0, "tableau_currency_sum": 10.0, "draw_pile_size": 129.0, "high_bid": 10.0,
    "payment_left": 10.0, "rules": [1.0, 1.0, 10.0],
}

_POP = tuple(bin(m).count("1") for m in range(512))
_BITS = 1 << np.arange(NUM_NUMBERS)  # bit k-1 stands for number k in a colour mask
#: Every run interval of one colour as (bit mask, length).
_INTERVALS = tuple(
    (((1 << (j - i + 1)) - 1) << i, j - i + 1) for i in range(NUM_NUMBERS) for j in range(i, NUM_NUMBERS)
)


@lru_cache(maxsize=1 << 18)
def run_profile(held: int, avail: int, fillers: int) -> tuple[int, int, int, int]:
    """Best run value of one colour with r = 0..3 more cards: ``held`` numbers, gaps fillable from ``avail``.

    ``fillers`` (colour wilds) fill any gap; gaps beyond them need a card in ``avail``. Entry 0 is
    the run scored now (the full 1–9 run counts 10).
    """
    best = [0, 0, 0, 0]
    for bits, length in _INTERVALS:
        gaps_mask = bits & ~held
        gaps = _POP[gaps_mask]
        need = gaps - fillers
        if need > 0:
            if need > MAX_GAPS or _POP[gaps_mask & ~avail] > fillers:
                continue
        else:
            need = 0
        value = 10 if length == 9 else length
        for r in range(need, MAX_GAPS + 1):
            if value > best[r]:
                best[r] = value
    return best[0], best[1], best[2], best[3]


def _potential(held: int, avail: int, fillers: int, rho: float) -> float:
    """The expected growth of one colour's run: max over r of ρ^r × (run with r more cards − run now)."""
    p0, p1, p2, p3 = run_profile(held, avail, fillers)
    return max(rho * (p1 - p0), rho * rho * (p2 - p0), rho * rho * rho * (p3 - p0))


def _colour_value(held: int, avail: int, fillers: int, rho: float) -> float:
    """One colour's run now plus its potential (number wilds and the star left out)."""
    p0, p1, p2, p3 = run_profile(held, avail, fillers)
    return p0 + max(rho * (p1 - p0), rho * rho * (p2 - p0), rho * rho * rho * (p3 - p0))


def _build_run_table() -> tuple[tuple[int, ...], ...]:
    """``_RUN[mask][f]``: the best run of one colour holding ``mask`` with ``f`` colour wilds (full run 10)."""
    table = []
    for mask in range(512):
        longest = [0] * 10  # longest interval with exactly g gaps
        for bits, length in _INTERVALS:
            g = _POP[bits & ~mask]
            if length > longest[g]:
                longest[g] = length
        row, best = [], 0
        for f in range(10):
            best = max(best, longest[f])
            row.append(10 if best == 9 else best)
        table.append(tuple(row))
    return tuple(table)


_RUN = _build_run_table()

#: A collection is *heavy* when this many number wilds (or more) are contested (fewer copies than
#: colours lacking the number): the exact scorer's cost grows about threefold per contested wild,
#: so heavy collections are valued by the greedy placement below instead.
HEAVY_CONTESTED = 4


def contested_wilds(masks: list[int], number_wilds: list[int]) -> int:
    """How many numbers have a number wild wanted by more colours than it has copies."""
    count = 0
    for k in range(9):
        copies = number_wilds[k]
        if copies:
            bit = 1 << k
            lacking = (not masks[0] & bit) + (not masks[1] & bit) + (not masks[2] & bit) + (not masks[3] & bit)
            if copies < lacking:
                count += 1
    return count


@lru_cache(maxsize=1 << 14)
def greedy_score(masks: tuple, colour_wilds: tuple, number_wilds: tuple, stars: int) -> int:
    """A fast lower bound of the score: wilds placed one at a time where they add most, then improved by moves.

    Used only for heavy collections (see ``HEAVY_CONTESTED``), where exact placement is slow.
    """
    m = list(masks)
    f = [min(9, a) for a in colour_wilds]
    copies = list(number_wilds)
    for k in range(9):  # uncontested number wilds go to every colour lacking them
        if copies[k]:
            bit = 1 << k
            lacking = [c for c in range(4) if not m[c] & bit]
            if copies[k] >= len(lacking):
                for c in lacking:
                    m[c] |= bit
                copies[k] = 0
    placed: list[tuple[int, int]] = []  # (number, colour) of each contested wild placed
    while True:
        best, bk, bc = 0, -1, -1
        for k in range(9):
            if copies[k]:
                bit = 1 << k
                for c in range(4):
                    if not m[c] & bit:
                        g = _RUN[m[c] | bit][f[c]] - _RUN[m[c]][f[c]]
                        if g > best:
                            best, bk, bc = g, k, c
        sc = -1
        if stars:
            for c in range(4):
                if f[c] < 9:
                    g = _RUN[m[c]][f[c] + 1] - _RUN[m[c]][f[c]]
                    if g > best:
                        best, bk, sc = g, -1, c
        if best <= 0:
            break
        if sc >= 0:
            f[sc] += 1
            stars -= 1
        else:
            m[bc] |= 1 << bk
            copies[bk] -= 1
            placed.append((bk, bc))
    # Moves: a placed wild goes to another colour if that gains more than it loses.
    improved = True
    while improved:
        improved = False
        for i, (k, c) in enumerate(placed):
            bit = 1 << k
            loss = _RUN[m[c]][f[c]] - _RUN[m[c] ^ bit][f[c]]
            for d in range(4):
                if d != c and not m[d] & bit and _RUN[m[d] | bit][f[d]] - _RUN[m[d]][f[d]] > loss:
                    m[c] ^= bit
                    m[d] |= bit
                    placed[i] = (k, d)
                    improved = True
                    break
    return sum(_RUN[m[c]][f[c]] for c in range(4))


class DixHeuristic:
    """Expected-value push-your-luck with a run-potential valuation (see the module docstring)."""

    name = "heuristic"

    #: Tunable parameters (constructor keywords); tuned against ALIX agents and in self-play at 2–4 players.
    DEFAULTS: dict[str, float] = {
        "rho": 0.6,  # per-gap chance of getting a missing card, at the start (× pile fraction ** rho_pow)
        "rho_pow": 1.0,  # the pile fraction is raised to this power
        "money": 0.3,  # points per money token early in the game
        "money_end": 0.15,  # ... and when the pile is empty (the final buys)
        "give": 1.0,  # weight of the money the others gain when it takes numbers or busts on the total
        "dup": 0.6,  # a duplicate card's worth in tokens (it pays 1 in a buy)
        "cons_worth": 0.6,  # a consolation token's worth per unit, relative to a token (spent whole)
        "draw_margin": -0.3,  # draw while E[value after a draw] − value of stopping exceeds this
        "max_bust": 0.6,  # never draw with a higher bust chance
        "buy_option": 1.2,  # weight of the best buy that taking numbers opens
        "buy_margin": 0.0,  # buy when the V gain minus the price exceeds this
        "bid_money": 0.2,  # points per token when bidding
        "rival_money": 0.15,  # points per token assumed for rivals' top bids
        "deny": 1.0,  # weight of what a wild adds to the best rival (2 players; / (n − 1) beyond)
        "wild_floor": 0.0,  # a wild is worth at least this many points (× pile fraction) to anyone
        "drain": 1.0,  # solo: bid just under ALIX's means when not bidding to win
        "leak": 0.2,  # taking money: weight of what the numbers left in the market are worth to the next player
        "market": 0.5,  # solo: weight of the numbers we leave in the market (only we buy there)
        "market_multi": 0.1,  # other tables: the same weight (rivals may buy them first)
        "free_loss": 0.0,  # a card whose loss lowers V by at most this pays before tokens
    }

    #: Overrides for the solo game against ALIX (tuned there: her rules are known, the market is ours alone).
    SOLO_DEFAULTS: dict[str, float] = {
        "draw_margin": -0.15,
        "buy_option": 0.8,
        "bid_money": 0.3,
        "cons_worth": 0.9,
        "free_loss": 0.15,
    }

    def __init__(self, env: Any, seed: int | None = None, **params: float):
        self.params = tuned_params("DixHeuristic", self.DEFAULTS, params)
        given = {k: self.params[k] for k in params}
        self.solo_params = {**self.DEFAULTS, **self.SOLO_DEFAULTS, **given}
        self._mode: bool | None = None
        self._use_params(False)
        layout = env.unwrapped.layout
        self._n = layout["tokens"].shape[0]
        self._off = {p.name: layout.slices[p.name].start for p in layout.pieces}
        inv = np.ones(layout.size, dtype=np.float64)
        for p in layout.pieces:
            if p.name in _INV_SCALE:
                s = layout.slices[p.name]
                scale = _INV_SCALE[p.name]
                inv[s] = np.tile(scale, self._n) if isinstance(scale, list) and p.size != len(scale) else scale
        self._inv = inv
        # The number of cards in a full pile (public: the game's box for this table), for the pile fraction.
        try:
            self._box = max(1, int(sum(env.unwrapped.config.box)))
        except AttributeError:
            self._box = 0  # learnt from the first observation instead
        self._loss_cache: dict[tuple, int] = {}  # (collection, card) -> exact score lost without it


    def _use_params(self, solo: bool) -> None:
        """Switch to the parameters of the solo game or of the other tables."""
        if solo != self._mode:
            for key, value in (self.solo_params if solo else self.params).items():
                setattr(self, "p_" + key, value)
            self._mode = solo

    # --- the entry point ------------------------------------------------------------------------
    def act(self, observation: dict[str, np.ndarray]) -> int:
        """A legal action for this observation: draw/stop, bid, pay or buy."""
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask).tolist()
        if len(legal) == 1:
            return legal[0]
        self._decode(observation["observation"])
        first = legal[0]
        if first <= A.TAKE_MONEY:
            action = self._decide(legal)
        elif first <= A.PASS:
            action = self._bid(legal)
        elif first <= A.SKIP:
            action = self._buy(legal)
        else:
            action = self._pay(legal)
        return action if mask[action] else legal[-1]

    # --- decoding -------------------------------------------------------------------------------
    def _decode(self, flat: np.ndarray) -> None:
        """Read the observation into plain Python ints (counts), relative seats, and derived figures."""
        counts = np.rint(flat * self._inv).astype(np.int64)
        v = counts.tolist()
        o, n = self._off, self._n
        self._v = v
        cn = o["collection_numbers"]
        # Per seat and colour, the numbers held as a 9-bit mask (bit k-1 = number k), in one numpy
        # product rather than a 36-card Python loop per use (several uses per decision).
        self._held_masks = ((counts[cn : cn + 36 * n].reshape(n, 4, NUM_NUMBERS) != 0) @ _BITS).tolist()
        self._coll = [v[cn + 36 * s : cn + 36 * (s + 1)] for s in range(n)]
        cw = o["collection_wilds"]
        self._wilds = [v[cw + 14 * s : cw + 14 * (s + 1)] for s in range(n)]
        self._tokens = v[o["tokens"] : o["tokens"] + n]
        self._consol = v[o["consolation"] : o["consolation"] + n]
        self._ncards = v[o["number_cards"] : o["number_cards"] + n]
        self._dups = v[o["duplicates"] : o["duplicates"] + n]
        t = o["tableau_numbers"]
        self._tab = v[t : t + 36]
        m = o["market"]
        self._market = v[m : m + 36]
        u = o["unseen_numbers"]
        self._unseen = v[u : u + 36]
        uw = o["unseen_wilds"]
        self._unseen_wilds = sum(v[uw : uw + 14])
        uc = o["unseen_currency"]
        self._unseen_cur = v[uc : uc + 5]
        self._pile = sum(self._unseen) + self._unseen_wilds + sum(self._unseen_cur)
        if not self._box:
            self._box = max(1, int(round(flat[o["draw_pile_size"]] * 129)))
        self._total = v[o["tableau_total"]]
        self._csum = v[o["tableau_currency_sum"]]
        self._solo = v[o["rules"] + 1] == 1
        self._use_params(self._solo)
        self._bust_buy = v[o["rules"]] == 1
        frac = min(1.0, self._pile / self._box)
        self._rho_now = self._rho_for(frac)
        self._mu = self.p_money_end + (self.p_money - self.p_money_end) * frac
        # Per colour: numbers that may still come (in the pile, the market or the tableau).
        may_come = (counts[u : u + 36] != 0) | (counts[m : m + 36] != 0) | (counts[t : t + 36] != 0)
        self._avail = (may_come.reshape(4, NUM_NUMBERS) @ _BITS).tolist()
        self._heavy = contested_wilds(self._held_masks[0], self._wilds[0][4:13]) >= HEAVY_CONTESTED

    def _rho_for(self, frac: float) -> float:
        """The per-gap chance of getting a missing card with ``frac`` of the pile left."""
        return self.p_rho * frac**self.p_rho_pow if frac > 0 else 0.0

    # --- valuation ------------------------------------------------------------------------------
    def _masks(self, seat: int) -> list[int]:
        """Per colour, the 9-bit mask of the numbers ``seat`` holds (bit k-1 = number k); a new list."""
        return list(self._held_masks[seat])

    @staticmethod
    def _exact(masks: list[int], wilds: list[int], heavy: bool = False) -> int:
        """The collection's score (exact wild placement, memoised by the scorer; greedy if ``heavy``)."""
        if heavy:
            return greedy_score(tuple(masks), tuple(wilds[0:4]), tuple(wilds[4:13]), wilds[13])
        return score_collection(masks, wilds[0:4], wilds[4:13], wilds[13])

    def _bonus(self, masks: list[int], wilds: list[int]) -> float:
        """Σ over colours of the run potential (0 once the pile is empty)."""
        rho = self._rho_now
        if rho <= 0.0:
            return 0.0
        avail = self._avail
        return sum(_potential(masks[c], avail[c], min(9, wilds[c]), rho) for c in range(4))

    def _value(self, masks: list[int], wilds: list[int], potential: bool = True, heavy: bool | None = None) -> float:
        """V of a collection: its score plus, per colour, the potential of its run.

        ``heavy`` (default: whether our own collection is heavy) picks the greedy scorer, so that
        every value compared within one decision comes from the same scorer.
        """
        exact = self._exact(masks, wilds, self._heavy if heavy is None else heavy)
        return exact + self._bonus(masks, wilds) if potential else float(exact)

    def _approx_losses(self, potential: bool = True) -> dict[int, float]:
        """Per number card held once, how much V falls without it, by its colour alone (cheap).

        Number wilds and the star are left out, so this ranks cards; ``_loss`` gives the exact figure.
        """
        coll, wilds, avail = self._coll[0], self._wilds[0], self._avail
        rho = self._rho_now if potential else 0.0
        masks = self._masks(0)
        out = {}
        for c in range(4):
            h = masks[c]
            if not h:
                continue
            f = min(9, wilds[c])
            base = _colour_value(h, avail[c], f, rho)
            for k in range(9):
                x = c * 9 + k
                if coll[x] == 1:
                    out[x] = base - _colour_value(h ^ (1 << k), avail[c], f, rho)
        return out

    def _loss(self, x: int, potential: bool = True) -> float:
        """How much V falls without the single card ``x``: exact score (cached per collection) plus potential."""
        coll, wilds = self._coll[0], self._wilds[0]
        key = (tuple(coll), tuple(wilds), x)
        exact = self._loss_cache.get(key)
        masks = self._masks(0)
        c, bit = x // 9, 1 << (x % 9)
        if exact is None:
            base = self._exact(masks, wilds, self._heavy)
            masks[c] ^= bit
            exact = base - self._exact(masks, wilds, self._heavy)
            masks[c] ^= bit
            if len(self._loss_cache) > 4096:
                self._loss_cache.clear()
            self._loss_cache[key] = exact
        rho = self._rho_now
        if not potential or rho <= 0.0:
            return float(exact)
        f, a = min(9, wilds[c]), self._avail[c]
        return exact + _potential(masks[c], a, f, rho) - _potential(masks[c] ^ bit, a, f, rho)

    def _cheapest_cards(self, count: int, potential: bool = True) -> list[tuple[float, int]]:
        """The ``count`` single cards cheapest to give up, as (exact loss, card), cheapest first.

        Cards are ranked by their colour alone; the first ``count + 1`` are then scored exactly.
        """
        approx = self._approx_losses(potential)
        ranked = sorted(approx, key=lambda x: (approx[x], x % 9, x // 9))[: count + 1]
        exact = sorted(((self._loss(x, potential), x % 9, x // 9, x) for x in ranked))
        return [(loss, x) for loss, _, _, x in exact[:count]]

    def _units(self, seat: int = 0) -> int:
        """What ``seat`` can pay without touching a single card: tokens, consolation, duplicates."""
        return self._tokens[seat] + CONSOLATION * self._consol[seat] + self._dups[seat]

    def _cheap_units(self, need: int) -> int:
        """What we can pay without giving up a card worth keeping (cards looked at only if needed)."""
        units = self._units(0)
        if need <= units:
            return units
        cards = self._cheapest_cards(need - units)
        return units + sum(1 for loss, _ in cards if loss <= self.p_free_loss)

    def _give_cost(self, amount: int) -> float:
        """What paying ``amount`` tokens to every other player costs us, in points."""
        if amount <= 0 or self._n < 2:
            return 0.0
        gained = sum(min(amount, TOKEN_CAP - self._tokens[s]) for s in range(1, self._n))
        return self.p_give * self._mu * gained / (self._n - 1)

    # --- draw or stop ---------------------------------------------------------------------------
    def _decide(self, legal: list[int]) -> int:
        mu, rho, avail = self._mu, self._rho_now, self._avail
        coll, wilds = self._coll[0], self._wilds[0]
        tab, total, csum = self._tab, self._total, self._csum
        masks = self._masks(0)
        held_t = [masks[c] for c in range(4)]
        dup_units = 0
        for x in range(36):
            if tab[x]:
                c, bit = x // 9, 1 << (x % 9)
                dup_units += tab[x] - (0 if held_t[c] & bit else 1)
                held_t[c] |= bit
        v_now = self._value(masks, wilds)
        num_gain = self._value(held_t, wilds) - v_now + self.p_dup * mu * dup_units
        buy_opt = self._buy_option_value(held_t)
        cons_value = self.p_cons_worth * CONSOLATION * mu
        room = TOKEN_CAP - self._tokens[0]
        leak = self.p_leak * self._numbers_worth_to_next() if self.p_leak > 0 and not self._solo else 0.0
        # Numbers left in the market may be bought back later (in the solo game nobody else buys).
        mkt_w = self.p_market if self._solo else self.p_market_multi
        fillers = [min(9, wilds[c]) for c in range(4)]
        own = [_colour_value(masks[c], avail[c], fillers[c], rho) for c in range(4)]

        def market_worth(x: int) -> float:
            c, k = divmod(x, 9)
            if masks[c] >> k & 1:
                return 0.0
            return max(0.0, _colour_value(masks[c] | 1 << k, avail[c], fillers[c], rho) - own[c] - mu * (k + 1))

        tab_worth = mkt_w * sum(market_worth(x) for x in range(36) if tab[x]) if mkt_w > 0 else 0.0

        stop_num = num_gain + buy_opt - self._give_cost(csum)
        stop_money = mu * min(csum, room) - leak + tab_worth
        s_now = max(stop_num, stop_money)
        if A.DRAW not in legal:
            return A.TAKE_NUMBERS if stop_num >= stop_money else A.TAKE_MONEY

        pile = self._pile
        if pile <= 0:
            return A.TAKE_NUMBERS if stop_num >= stop_money else A.TAKE_MONEY
        bust_value = max(cons_value, self._bust_buy_value()) if self._bust_buy else cons_value
        bust_value += tab_worth
        ev = self._unseen_wilds * s_now
        p_bust = 0
        # Number cards: the colour tables give the change of V card by card.
        for c in range(4):
            h, a, f = held_t[c], avail[c], fillers[c]
            base = _colour_value(h, a, f, rho)
            for k in range(9):
                cnt = self._unseen[c * 9 + k]
                if not cnt:
                    continue
                x = c * 9 + k
                extra = mkt_w * market_worth(x) if mkt_w > 0 else 0.0
                if total + k + 1 > LIMIT:
                    p_bust += cnt
                    ev += cnt * (bust_value + extra - self._give_cost(csum))
                    continue
                bit = 1 << k
                delta = self.p_dup * mu if h & bit else _colour_value(h | bit, a, f, rho) - base
                ev += cnt * max(stop_num + delta, stop_money + extra)
        # Currency cards.
        for i in range(5):
            cnt = self._unseen_cur[i]
            if not cnt:
                continue
            new = csum + i + 1
            if new > LIMIT:
                p_bust += cnt
                ev += cnt * bust_value  # a currency bust pays nobody
                continue
            ev += cnt * max(num_gain + buy_opt - self._give_cost(new), mu * min(new, room) - leak + tab_worth)
        ev /= pile
        if p_bust / pile <= self.p_max_bust and ev - s_now > self.p_draw_margin:
            return A.DRAW
        return A.TAKE_NUMBERS if stop_num >= stop_money else A.TAKE_MONEY

    def _buy_option_value(self, held: list[int]) -> float:
        """The best buy that taking the numbers opens (colour tables, so it is cheap), weighted."""
        if self.p_buy_option <= 0:
            return 0.0
        means = self._tokens[0] + CONSOLATION * self._consol[0] + self._ncards[0]
        return self.p_buy_option * self._best_market_gain(held, self._wilds[0], means, self._market)

    def _best_market_gain(self, held: list[int], wilds: list[int], means: int, market: list[int]) -> float:
        """The best V gain minus price among affordable market cards (colour tables), at least 0."""
        rho, avail, mu = self._rho_now, self._avail, self._mu
        best = 0.0
        for x in range(36):
            if not market[x]:
                continue
            c, k = divmod(x, 9)
            bit = 1 << k
            price = k + 1
            if held[c] & bit or price > means:
                continue
            f = min(9, wilds[c])
            gain = _colour_value(held[c] | bit, avail[c], f, rho) - _colour_value(held[c], avail[c], f, rho) - mu * price
            if gain > best:
                best = gain
        return best

    def _bust_buy_value(self) -> float:
        """With ``bust_buy``, the best buy after a bust (the tableau's numbers go to the market first)."""
        coll = self._coll[0]
        held = self._masks(0)
        means = self._tokens[0] + CONSOLATION * self._consol[0] + self._ncards[0]
        market = [m + t for m, t in zip(self._market, self._tab)]  # the tableau's numbers join the market first
        return self._best_market_gain(held, self._wilds[0], means, market)

    def _numbers_worth_to_next(self) -> float:
        """What the tableau's numbers, left in the market, add to the next player's runs (colour tables)."""
        if self._n < 2:
            return 0.0
        coll = self._coll[1]
        held = self._masks(1)
        wilds = self._wilds[1]
        rho, avail = self._rho_now, self._avail
        worth = 0.0
        for x in range(36):
            if self._tab[x]:
                c, k = divmod(x, 9)
                bit = 1 << k
                if held[c] & bit:
                    continue
                f = min(9, wilds[c])
                worth = max(worth, _colour_value(held[c] | bit, avail[c], f, rho) - _colour_value(held[c], avail[c], f, rho))
        return worth

    # --- auctions -------------------------------------------------------------------------------
    def _wild_gain(self, seat: int, wild: int, potential: bool = True) -> float:
        """What the wild (card type id) adds to ``seat``'s collection, in points."""
        masks = self._masks(seat)
        wilds = self._wilds[seat]
        after = list(wilds)
        after[wild - COLOUR_WILD_BASE] += 1
        heavy = contested_wilds(masks, after[4:13]) >= HEAVY_CONTESTED
        return self._value(masks, after, potential, heavy) - self._value(masks, wilds, potential, heavy)

    def _bid(self, legal: list[int]) -> int:
        v, o, n = self._v, self._off, self._n
        wild = -1
        for i in range(14):
            if v[o["auction_card"] + i]:
                wild = COLOUR_WILD_BASE + i
                break
        bids = [a - A.BID_BASE for a in legal if a != A.PASS]
        if wild < 0 or not bids:
            return A.PASS
        low, high = bids[0], bids[-1]
        later = [s for s in range(1, n) if v[o["still_to_bid"] + s]]

        # A wild that adds little now still fills some gap later: its worth is at least wild_floor
        # (scaled by the pile left), for us and for the rivals.
        floor = self.p_wild_floor * min(1.0, self._pile / self._box)
        gain = max(floor, self._wild_gain(0, wild))
        rivals = [max(floor, self._wild_gain(s, wild, potential=False)) for s in range(1, n)]
        if rivals and self.p_deny > 0:
            gain += self.p_deny * max(rivals) / (n - 1)
        my_top = int(gain / self.p_bid_money) if self.p_bid_money > 0 else high
        if my_top > self._units(0):
            my_top = min(my_top, self._cheap_units(my_top))  # no useful card goes for a wild
        my_top = min(my_top, high)

        if self._solo:
            return self._solo_bid(low, high, my_top, later)
        if not later:
            return A.bid_action(low) if low <= my_top else A.PASS
        est = 0
        for s in later:
            means = self._tokens[s] + CONSOLATION * self._consol[s] + self._ncards[s]
            top = min(means, int(rivals[s - 1] / self.p_rival_money)) if self.p_rival_money > 0 else means
            est = max(est, top)
        amount = min(max(low, est + 1), my_top)
        return A.bid_action(amount) if amount >= low else A.PASS

    def _solo_bid(self, low: int, high: int, my_top: int, later: list[int]) -> int:
        """Solo: ALIX outbids anything within her means when she closes; bidding first she bids near ours."""
        if not later:
            # Our turn: ALIX has bid (or passed); one over the high bid wins.
            return A.bid_action(low) if low <= my_top else A.PASS
        # ALIX's turn, she bids last: only a bid above her means wins.
        alix_means = self._units(1)
        win = max(low, alix_means + 1, SOLO_MIN_BID)
        if win <= my_top:
            return A.bid_action(win)
        if self.p_drain > 0:
            push = min(high, alix_means - 1)
            if push >= low:
                return A.bid_action(push)  # she wins anyway, and pays one more than this
        return A.PASS

    # --- buying ---------------------------------------------------------------------------------
    def _buy(self, legal: list[int]) -> int:
        v, o = self._v, self._off
        kind = v[o["buy_kind"] : o["buy_kind"] + 3]
        final = kind[2] == 1
        coll, wilds = self._coll[0], self._wilds[0]
        masks = self._masks(0)
        potential = not final
        mu = 0.01 if final else self._mu  # final round: money only breaks ties
        rho, avail = (0.0 if final else self._rho_now), self._avail
        # Rank the candidates by the colour tables, then score the best few exactly.
        ranked = []
        for a in legal:
            if a == A.SKIP:
                continue
            x = a - A.BUY_BASE
            c, k = divmod(x, 9)
            f = min(9, wilds[c])
            est = _colour_value(masks[c] | 1 << k, avail[c], f, rho) - _colour_value(masks[c], avail[c], f, rho)
            ranked.append((est - mu * (k + 1), -k, a))
        if not ranked:
            return A.SKIP
        ranked.sort(reverse=True)
        threshold = self.p_buy_margin
        if kind[1] == 1:
            threshold += self.p_cons_worth * CONSOLATION * mu  # skipping keeps the consolation token
        base = self._value(masks, wilds, potential)
        units = self._units(0)
        best, best_gain = A.SKIP, threshold
        losses = None
        for _, _, a in ranked[: self.EXACT_BUYS]:
            x = a - A.BUY_BASE
            c, k = divmod(x, 9)
            price = k + 1
            masks[c] |= 1 << k
            gain = self._value(masks, wilds, potential) - base - mu * price
            masks[c] &= ~(1 << k)
            if price > units:
                # Cards must pay part of it: the cheapest ones to lose.
                if losses is None:
                    most = max((a - A.BUY_BASE) % 9 + 1 for _, _, a in ranked[: self.EXACT_BUYS])
                    losses = [loss for loss, _ in self._cheapest_cards(most - units, potential)]
                gain -= sum(max(0.0, loss) for loss in losses[: price - units])
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    #: How many buy candidates (ranked by the colour tables) are scored exactly.
    EXACT_BUYS = 4

    # --- payment --------------------------------------------------------------------------------
    def _pay(self, legal: list[int]) -> int:
        coll = self._coll[0]
        left = self._v[self._off["payment_left"]]
        cards = [a - A.PAY_CARD_BASE for a in legal if a >= A.PAY_CARD_BASE]
        # Duplicates cost nothing: the lowest first.
        dups = [x for x in cards if coll[x] > 1]
        if dups:
            return A.PAY_CARD_BASE + min(dups, key=lambda x: (x % 9, x // 9))
        singles = [x for x in cards if coll[x] == 1]
        cheapest: list[tuple[float, int]] = []
        if singles:
            # Score exactly only cards that look free by their colour, unless a card may be needed anyway.
            approx = self._approx_losses()
            if A.PAY_TOKEN not in legal or min(approx[x] for x in singles) <= self.p_free_loss + 0.5:
                cheapest = [(loss, x) for loss, x in self._cheapest_cards(2) if x in singles]
        if cheapest and cheapest[0][0] <= self.p_free_loss:
            return A.PAY_CARD_BASE + cheapest[0][1]
        if A.PAY_TOKEN in legal:
            return A.PAY_TOKEN
        if A.PAY_CONSOLATION in legal:
            if left < CONSOLATION and len(cheapest) >= left:
                # A consolation token would waste (3 − left) units; cheap cards may cost less.
                card_cost = sum(loss for loss, _ in cheapest[:left])
                if card_cost < (CONSOLATION - left) * self._mu:
                    return A.PAY_CARD_BASE + cheapest[0][1]
            return A.PAY_CONSOLATION
        if cheapest:
            return A.PAY_CARD_BASE + cheapest[0][1]
        return A.PAY_CARD_BASE + singles[0] if singles else legal[0]
