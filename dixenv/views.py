"""Text for people at the table: views of one player's observation and lines of the move log.

A view (``observation_text(env, seat, obs)``) is built from the decoded observation only
(``env.unwrapped.layout.unflatten``), never from the engine's state, so it cannot show more than
that seat may know: other players' hands, the dealer's discard in le_dix and the order of hidden
piles stay hidden by construction. It shows the public history the observation carries (le_dix:
the last trick and who led it, the voids shown, the previous deal; dix: the discard pile and the
cards still in the draw pile; dix de suite: the discard pile, the known cards and the slot history
of every rack, each player's last turn, the previous round). It falls back to a generic listing of
the observation's non-zero pieces when a game has no view or its layout has changed under it.

``event_lines(events, viewer, you=...)`` writes the move log (``dixenv.core.events``) as lines:
each event as ``viewer`` may see it, markers (deals, tricks, rounds, scores) set apart, and, for
the person at a seat, "you" in place of their seat's name; ``MoveLog`` hands out the lines of the
events not shown yet (the demo and terminal play print them as the game goes).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Callable, Iterable

import numpy as np

from dixenv.core.events import Event

SEP = "─" * 60
MARK_WIDTH = 60


def _seat_name(rel: int, seat: int, n: int, you: str = "you") -> str:
    return you if rel == 0 else f"player_{(seat + rel) % n}"


def _onehot(v: np.ndarray) -> int | None:
    """Index of the 1 in a one-hot vector, None if it is all zero."""
    nz = np.flatnonzero(v)
    return int(nz[0]) if len(nz) else None


def _count(value: float, scale: float) -> int:
    """A count from its scaled observation entry (``value = count / scale``)."""
    return int(round(float(value) * scale))


# ---------------------------------------------------------------------------------------------
# the move log


def event_lines(events: Iterable[Event], viewer: int | None, you: bool = False) -> list[str]:
    """The events as lines for ``viewer`` (None: a spectator); ``you``: name the viewer's seat "you"."""
    return [event_line(e, viewer, you) for e in events]


def event_line(event: Event, viewer: int | None, you: bool = False) -> str:
    """One event as ``viewer`` may see it: a marker as a rule of dashes, a move indented ("(forced)" if it was the only one)."""
    text = event.text_for(viewer)
    if you and viewer is not None:
        text = personal(text, viewer)
    if event.kind == "mark":
        return f"── {text} " + "─" * max(3, MARK_WIDTH - len(text) - 4)
    return f"  {text} (forced)" if event.kind == "forced" else f"  {text}"


class MoveLog:
    """A reader of an env's move log that returns, at each call, the events not returned yet, as lines for one seat."""

    def __init__(self, env: Any, viewer: int | None, you: bool = False):
        self.env, self.viewer, self.you, self.shown = env, viewer, you, 0

    def new_lines(self) -> list[str]:
        """The events since the last call as ``event_lines`` for the viewer (the env must record events)."""
        events = self.env.unwrapped.events
        lines = event_lines(events[self.shown :], self.viewer, self.you)
        self.shown = len(events)
        return lines


#: Third-person forms whose base form is not the word minus its final "s".
_IRREGULAR = {"is": "are", "has": "have"}


def _base_form(verb: str) -> str:
    """The form of a third-person verb that goes with "you": draws → draw, passes → pass, is → are."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    return verb[:-2] if verb.endswith("sses") else verb[:-1]


def personal(text: str, seat: int) -> str:
    """``text`` as said to the player at ``seat``: "player_1 draws B7" → "you draw B7", "player_1's" → "your".

    The engines word every event with a seat's name as the subject of a verb in the present tense
    (``tests/test_play.py`` checks every event of whole games); a lowercase word ending in "s" right
    after the name is that verb, and so is one after "and" in a sentence that "you" begins.
    """
    name = f"player_{seat}"
    if name not in text:
        return text
    text = text.replace(f"turn of {name}", "your turn").replace(f"dealer {name}", "you deal")
    text = text.replace(f"{name}'s", "your")

    def you_verb(m: re.Match) -> str:
        return "you " + _base_form(m.group(1)) if m.group(1) else "you"

    text = re.sub(rf"\b{name}\b(?: ([a-z]+s)\b)?", you_verb, text)
    if text.startswith("you "):
        text = re.sub(r"\band ([a-z]+s)\b", lambda m: "and " + _base_form(m.group(1)), text)
    return text


# ---------------------------------------------------------------------------------------------
# le_dix


def le_dix_view(env: Any, seat: int, obs: dict[str, np.ndarray]) -> str:
    """Own hand, trump, dealer, bids, tricks, voids, scores, the current and the last trick, the previous deal."""
    from dixenv.games.le_dix.cards import CARD_NAMES, NUM_RANKS, SUITS
    from dixenv.games.le_dix.state import trick_winner

    p = env.unwrapped.layout.unflatten(obs["observation"])
    n = p["dealer"].shape[0]
    deals = p["deal"].shape[0]
    deal = (_onehot(p["deal"]) or 0) + 1
    size = _onehot(p["hand_size"]) or 0
    dealer = _onehot(p["dealer"])
    phase = _onehot(p["phase"])
    phases = ("trump choice", "discard", "bidding", "playing")
    name = lambda r: _seat_name(r, seat, n)  # noqa: E731
    trump = _onehot(p["trump_card"])
    trump_suit = _onehot(p["trump_suit"])

    def in_order(trick: np.ndarray, leader: int) -> list[tuple[int, int]]:
        """(relative seat, card) of a trick in play order from its leader."""
        cards = [(r, _onehot(trick[r])) for r in ((leader + k) % n for k in range(n))]
        return [(r, c) for r, c in cards if c is not None]

    def trick_text(cards: list[tuple[int, int]]) -> str:
        return ", ".join(f"{name(r)} {CARD_NAMES[c]}" for r, c in cards)

    def cards_text(row: np.ndarray) -> str:
        return " ".join(CARD_NAMES[c] for c in np.flatnonzero(row)) or "-"

    lines = [
        SEP,
        f"le_dix — deal {deal}/{deals}, {size} card(s) each; you are player_{seat}; "
        f"phase: {phases[phase] if phase is not None else 'game over'}",
        f"trump card: {CARD_NAMES[trump] if trump is not None else '?'} (trump suit {SUITS[trump_suit] if trump_suit is not None else '?'})"
        + ("; the dealer took it" if p["dealer_took_trump"][0] else ""),
    ]
    discard = _onehot(p["own_discard"])
    if discard is not None:
        lines.append(f"your face-down discard: {CARD_NAMES[discard]}")
    lines.append(f"  {'seat':<18} {'score':>5} {'bid':>4} {'tricks':>7}  voids shown")
    for r in range(n):
        bid = _onehot(p["bids"][r])
        tricks = _onehot(p["tricks_won"][r]) or 0
        mark = " (dealer)" if r == dealer else ""
        voids = " ".join(SUITS[s] for s in np.flatnonzero(p["void"][r]))
        lines.append(
            f"  {name(r) + mark:<18} {round(float(p['scores'][r]) * 100):>5} {'-' if bid is None else bid:>4} {tricks:>7}  {voids}".rstrip()
        )
    leader = _onehot(p["trick_leader"]) or 0
    played = in_order(p["trick"], leader)
    if played:
        lines.append(f"current trick (led by {name(leader)}): {trick_text(played)}")
    elif phase == 3:
        lines.append(f"current trick: {name(leader)} to lead")
    last_leader = _onehot(p["last_trick_leader"])
    if last_leader is not None:  # its winner leads the current trick
        last = in_order(p["last_trick"], last_leader)
        lines.append(f"last trick (led by {name(last_leader)}, won by {name(leader)}): {trick_text(last)}")
    if p["played_by"].any():
        lines.append("played this deal: " + "; ".join(f"{name(r)} {cards_text(p['played_by'][r])}" for r in range(n)))
    prev_leader = _onehot(p["prev_last_trick_leader"])
    if prev_leader is not None:
        prev_suit = _onehot(p["prev_trump_suit"])
        results = ", ".join(
            f"{name(r)} bid {_onehot(p['prev_bids'][r])} took {_onehot(p['prev_tricks_won'][r])}" for r in range(n)
        )
        final = in_order(p["prev_last_trick"], prev_leader)
        winner = trick_winner([(r, c) for r, c in final], prev_suit)
        lines.append(f"previous deal (trump {SUITS[prev_suit]}): {results}")
        lines.append(f"  its final trick (led by {name(prev_leader)}, won by {name(winner)}): {trick_text(final)}")
    hand = np.flatnonzero(p["hand"])
    by_suit = []
    for s, suit in enumerate(SUITS):
        cards = [CARD_NAMES[c] for c in reversed(hand) if c // NUM_RANKS == s]
        if cards:
            by_suit.append(f"{suit}: {' '.join(cards)}")
    lines.append("your hand: " + ("   ".join(by_suit) if by_suit else "(empty)"))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# dix_de_suite


def dix_de_suite_view(env: Any, seat: int, obs: dict[str, np.ndarray]) -> str:
    """Own rack, the card in hand, the piles, what is known of every rack and its slot history, last turns, scores."""
    from dixenv.games.dix_de_suite.cards import RACK_SIZE
    from dixenv.games.dix_de_suite.observation import max_rounds
    from dixenv.games.dix_de_suite.scoring import max_round_points

    config = env.unwrapped.config
    p = env.unwrapped.layout.unflatten(obs["observation"])
    n, d = p["dealer"].shape[0], p["discard_top"].shape[0]
    pile_scale = d - RACK_SIZE * n + 1  # the P of the layout: sizes and depths are / P
    name = lambda r: _seat_name(r, seat, n)  # noqa: E731
    rounds = max_rounds(config)
    phase = _onehot(p["phase"])
    phases = ("choose: draw or take the discard", "place the drawn card (swap K) or discard it", "place the taken card (swap K)")
    turn = _onehot(p["current_player"])

    def row(label: str, cells: list[str]) -> str:
        return f"  {label:<6}" + " ".join(f"{c:>3}" for c in cells)

    def moved(r: int) -> list[str]:
        """Per slot of relative seat r: its own turns since it replaced that slot (0: at its last turn), "-": dealt."""
        return ["-" if v == 0 else str(round(1 / float(v)) - 1) for v in p["slot_recency"][r]]

    def pile_order(depths: np.ndarray) -> list[int]:
        """The cards of a pile, top first, from their depth entries ((depth + 1) / P)."""
        cards = np.flatnonzero(depths)
        return [int(c) + 1 for c in cards[np.argsort(depths[cards], kind="stable")]]

    rack = [int(np.flatnonzero(r)[0]) + 1 if r.any() else None for r in p["own_rack_cards"]]
    lines = [
        SEP,
        f"dix de suite — round {round(float(p['round'][0]) * rounds)}, turn {_count(p['round_turns'][0], config.max_turns)} "
        f"of the round; you are player_{seat}; dealer: {name(_onehot(p['dealer']) or 0)}; "
        + (f"to play: {name(turn)}" if turn is not None else "game over"),
        "scores: " + ", ".join(f"{name(r)} {_count(p['scores'][r], config.target_score)}" for r in range(n)),
        "your rack (slot 1 = front; moved: your turns since you replaced the slot, - = dealt):",
        row("slot:", [str(k) for k in range(1, RACK_SIZE + 1)]),
        row("card:", ["?" if c is None else str(c) for c in rack]),
        row("moved:", moved(0)),
    ]
    public = [str(k + 1) for k in np.flatnonzero(p["own_public"])]
    if public:
        lines.append(f"  the others know your slots {' '.join(public)}")
    discard = pile_order(p["discard_depth"])
    lines.append("discard pile (top first): " + (" ".join(map(str, discard)) or "(empty)"))
    size = _count(p["draw_pile_size"][0], pile_scale)
    if p["draw_pile_public"][0]:
        lines.append(f"draw pile: {size} card(s), order public (top first): {' '.join(map(str, pile_order(p['draw_pile_depth'])))}")
    else:
        lines.append(f"draw pile: {size} card(s), order hidden")
    held = _onehot(p["held_card"])
    if held is not None:
        lines.append(f"card in hand: {held + 1}")
    if phase is not None and turn == 0:
        lines.append(f"your move: {phases[phase]}")
    for r in range(1, n):
        known = [_count(v, d) for v in p["opp_known"][r - 1]]
        lines.append(f"{name(r)}'s rack (? = not seen):")
        lines.append(row("card:", [str(c) if c else "?" for c in known]))
        lines.append(row("moved:", moved(r)))
    kinds = ("drew and discarded", "drew and swapped slot {slot}", "took the discard and swapped slot {slot}")
    last = []
    for r in range(n):
        kind = _onehot(p["last_turn"][r])
        if kind is not None:
            slot = next((k + 1 for k, v in enumerate(p["slot_recency"][r]) if v == 1.0), "?")
            out = _count(p["last_turn_card"][r], d)
            last.append(f"{name(r)} {kinds[kind].format(slot=slot)}, out {out}")
    if last:
        lines.append("last turns: " + "; ".join(last))
    unseen = [str(c + 1) for c in np.flatnonzero(p["unseen"])]
    lines.append(f"cards you have not seen where they are ({len(unseen)}): {' '.join(unseen) or '-'}")
    winner = _onehot(p["last_round_winner"])
    if winner is not None:
        top = max_round_points(config.run_bonus)
        points = ", ".join(f"{name(r)} +{_count(p['last_round_points'][r], top)}" for r in range(n))
        lines.append(f"previous round won by {name(winner)}: {points}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# dix


def dix_view(env: Any, seat: int, obs: dict[str, np.ndarray]) -> str:
    """Collections, tokens and scores, the tableau, market, discard pile and draw pile, the auction or payment in progress."""
    from dixenv.games.dix.cards import CARD_NAMES, COLOUR_WILD_BASE, CURRENCY_BASE, NUM_NUMBERS
    from dixenv.games.dix.observation import BOX_SIZE

    p = env.unwrapped.layout.unflatten(obs["observation"])
    n = p["tokens"].shape[0]
    solo = bool(p["rules"][1])
    name = lambda r: ("ALIX" if solo and r != 0 else _seat_name(r, seat, n))  # noqa: E731

    def numbers(grid: np.ndarray) -> list[str]:
        """Number cards from a colour × number grid of counts / 3."""
        return [CARD_NAMES[t] for t, v in enumerate(grid.reshape(-1)) for _ in range(_count(v, 3))]

    wild_scales = [2.0] * 4 + [1.0] * (NUM_NUMBERS + 1)

    def wilds(row: np.ndarray) -> list[str]:
        return [CARD_NAMES[COLOUR_WILD_BASE + i] for i, v in enumerate(row) for _ in range(_count(v, wild_scales[i]))]

    def currency(row: np.ndarray, scale: float) -> list[str]:
        return [CARD_NAMES[CURRENCY_BASE + i] for i, v in enumerate(row) for _ in range(_count(v, scale))]

    def show(cards: list[str]) -> str:
        return " ".join(cards) if cards else "-"

    phase = _onehot(p["phase"])
    phases = ("draw or stop", "auction", "payment", "buy")
    active = _onehot(p["active"])
    lines = [
        SEP,
        f"dix — you are player_{seat}" + (f" (solo against ALIX, difficulty {round(float(p['rules'][2]) * 10)})" if solo else "")
        + f"; turn of {name(active) if active is not None else '-'}; phase: {phases[phase] if phase is not None else 'game over'}; "
        f"draw pile: {_count(p['draw_pile_size'][0], BOX_SIZE)} card(s)" + ("; the last card is drawn" if p["last_card_drawn"][0] else ""),
    ]
    for r in range(n):
        lines.append(
            f"{name(r)}: score {_count(p['score'][r], 40)}, tokens {_count(p['tokens'][r], 10)}, "
            f"consolation {_count(p['consolation'][r], 5)}; collection: "
            + show(numbers(p["collection_numbers"][r]) + wilds(p["collection_wilds"][r]))
        )
    lines.append(
        f"tableau: {show(numbers(p['tableau_numbers']) + currency(p['tableau_currency'], 3))} — "
        f"total {_count(p['tableau_total'][0], 10)}, currency {_count(p['tableau_currency_sum'][0], 10)}"
    )
    lines.append(f"market: {show(numbers(p['market']))}")
    lines.append("discard pile: " + show(numbers(p["discard_numbers"]) + wilds(p["discard_wilds"]) + currency(p["discard_currency"], 6)))
    def counted(cards: list[str]) -> str:
        """Cards with their copies counted, ``$1×5 $2×6 W3`` (a long pile stays one short line)."""
        return " ".join(c if k == 1 else f"{c}×{k}" for c, k in Counter(cards).items()) or "-"

    lines.append(f"still in the draw pile: {len(numbers(p['unseen_numbers']))} number cards, "
                 f"wilds {counted(wilds(p['unseen_wilds']))}, currency {counted(currency(p['unseen_currency'], 6))}")
    card = _onehot(p["auction_card"])
    if card is not None:
        bidder = _onehot(p["high_bidder"])
        waiting = [name(r) for r in np.flatnonzero(p["still_to_bid"])]
        lines.append(
            f"auction for {CARD_NAMES[COLOUR_WILD_BASE + card]}: high bid {_count(p['high_bid'][0], 10)}"
            + (f" by {name(bidder)}" if bidder is not None else " (none yet)")
            + (f"; still to bid: {', '.join(waiting)}" if waiting else "")
        )
    if phase == 2:
        lines.append(f"still to pay: {_count(p['payment_left'][0], 10)}")
    buy = _onehot(p["buy_card"].reshape(-1))
    if buy is not None:
        lines.append(f"buying: {CARD_NAMES[buy]}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# generic fallback


def generic_view(env: Any, seat: int, obs: dict[str, np.ndarray], limit: int = 40) -> str:
    """Every non-zero piece of the observation: name, then index=value pairs (a fallback view)."""
    layout = env.unwrapped.layout
    p = layout.unflatten(obs["observation"])
    lines = [SEP, f"{env.unwrapped.game.name} — you are player_{seat}; your observation (non-zero entries):"]
    for piece in layout.pieces:
        values = p[piece.name]
        idx = np.argwhere(values != 0)
        if len(idx) == 0:
            continue
        items = []
        for i in idx[:limit]:
            key = ",".join(str(int(k)) for k in i)
            v = float(values[tuple(i)])
            items.append(f"[{key}]" if v == 1.0 else f"[{key}]={v:.3g}")
        more = f" … (+{len(idx) - limit})" if len(idx) > limit else ""
        lines.append(f"  {piece.name}: {' '.join(items)}{more}")
    return "\n".join(lines)


def game_view(game: str) -> Callable[[Any, int, dict[str, np.ndarray]], str] | None:
    """The text view of a registered game (its spec's ``view``), or None."""
    from dixenv.games import game_names, game_spec

    return game_spec(game).load("view") if game in game_names() else None


def observation_text(env: Any, seat: int, obs: dict[str, np.ndarray]) -> str:
    """The game's text view of ``obs`` (seat ``seat``), or the generic one if the game has none or it fails."""
    view = game_view(env.unwrapped.game.name)
    if view is not None:
        try:
            return view(env, seat, obs)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError, ImportError):
            pass  # the layout changed under the view: the generic listing is always right
    return generic_view(env, seat, obs)
