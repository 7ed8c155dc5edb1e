"""Text views of one player's observation, for people playing in the terminal (``dixenv.play``).

A view is built from the decoded observation only (``env.unwrapped.layout.unflatten``), never from
the engine's state, so it cannot show more than that seat may know: other players' hands, the
dealer's discard in le_dix and the order of hidden piles stay hidden by construction.

``observation_text(env, seat, obs)`` picks the game's view and falls back to a generic listing of
the observation's non-zero pieces when a game has no view or its layout has changed under the view.
``public_action_text(game, text)`` rewrites an opponent's action for announcing it to the table
(le_dix: a dealer's discard is face down).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

SEP = "─" * 60


def _seat_name(rel: int, seat: int, n: int, you: str = "you") -> str:
    return you if rel == 0 else f"player_{(seat + rel) % n}"


def _onehot(v: np.ndarray) -> int | None:
    """Index of the 1 in a one-hot vector, None if it is all zero."""
    nz = np.flatnonzero(v)
    return int(nz[0]) if len(nz) else None


# ---------------------------------------------------------------------------------------------
# le_dix


def le_dix_view(env: Any, seat: int, obs: dict[str, np.ndarray]) -> str:
    """Own hand, trump, dealer, bids, tricks, scores, the current and the last trick."""
    from dixenv.games.le_dix.cards import CARD_NAMES, NUM_RANKS, SUITS

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
    lines.append(f"  {'seat':<18} {'score':>5} {'bid':>4} {'tricks':>7}")
    for r in range(n):
        bid = _onehot(p["bids"][r])
        tricks = _onehot(p["tricks_won"][r]) or 0
        mark = " (dealer)" if r == dealer else ""
        lines.append(
            f"  {name(r) + mark:<18} {round(float(p['scores'][r]) * 100):>5} {'-' if bid is None else bid:>4} {tricks:>7}"
        )
    leader = _onehot(p["trick_leader"]) or 0
    played = [(r, _onehot(p["trick"][r])) for r in ((leader + k) % n for k in range(n))]
    played = [(r, c) for r, c in played if c is not None]
    if played:
        lines.append("current trick: " + ", ".join(f"{name(r)} {CARD_NAMES[c]}" for r, c in played))
    elif phase == 3:
        lines.append(f"current trick: {name(leader)} to lead")
    last = [(r, _onehot(p["last_trick"][r])) for r in range(n)]
    last = [(r, c) for r, c in last if c is not None]
    if last:  # its leader is not observed; its winner leads the current trick
        lines.append(f"last trick (won by {name(leader)}): " + ", ".join(f"{name(r)} {CARD_NAMES[c]}" for r, c in last))
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
    """Own rack, the card in hand, the discard pile's top, what is known of the other racks, scores."""
    from dixenv.games.dix_de_suite.observation import max_rounds

    p = env.unwrapped.layout.unflatten(obs["observation"])
    n = p["dealer"].shape[0]
    name = lambda r: _seat_name(r, seat, n)  # noqa: E731
    rounds = max_rounds(env.unwrapped.config)
    rack = [int(np.flatnonzero(row)[0]) + 1 if row.any() else None for row in p["own_rack_cards"]]
    phase = _onehot(p["phase"])
    phases = ("choose: draw or take the discard", "place the drawn card (swap K) or discard it", "place the taken card (swap K)")
    turn = _onehot(p["current_player"])
    lines = [
        SEP,
        f"dix de suite — round {round(float(p['round'][0]) * rounds)}; you are player_{seat}; dealer {name(_onehot(p['dealer']) or 0)}; "
        + (f"to play: {name(turn)}" if turn is not None else "game over"),
        "scores: " + ", ".join(f"{name(r)} {round(float(p['scores'][r]) * env.unwrapped.config.target_score)}" for r in range(n)),
        "your rack (slot 1 = front):",
        "  slot: " + " ".join(f"{k:>3}" for k in range(1, len(rack) + 1)),
        "  card: " + " ".join(f"{'?' if c is None else c:>3}" for c in rack),
    ]
    top = _onehot(p["discard_top"])
    lines.append(f"discard pile top: {top + 1 if top is not None else '(empty)'}; draw pile: "
                 f"{round(float(p['draw_pile_size'][0]) * 21) if p['draw_pile_size'].shape else '?'} card(s)")
    held = _onehot(p["held_card"])
    if held is not None:
        lines.append(f"card in hand: {held + 1}")
    if phase is not None and turn == 0:
        lines.append(f"your move: {phases[phase]}")
    for r in range(1, n):
        known = p["opp_known_cards"][r - 1]
        cards = [str(c + 1) for c in np.flatnonzero(known)]
        if cards:
            lines.append(f"{name(r)}: known cards in rack: {' '.join(cards)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# dix


def dix_view(env: Any, seat: int, obs: dict[str, np.ndarray]) -> str:
    """Collections, tokens and scores of every seat, the tableau, the market, the auction or payment in progress."""
    from dixenv.games.dix.cards import CARD_NAMES, COLOUR_WILD_BASE, NUM_NUMBERS

    p = env.unwrapped.layout.unflatten(obs["observation"])
    n = p["tokens"].shape[0]
    solo = bool(p["rules"][1])
    name = lambda r: ("ALIX" if solo and r != 0 else _seat_name(r, seat, n))  # noqa: E731

    def numbers(grid: np.ndarray, scale: float) -> list[str]:
        cards = []
        for t, v in enumerate(grid.reshape(-1)):
            cards += [CARD_NAMES[t]] * int(round(float(v) * scale))
        return cards

    def wilds(row: np.ndarray, scales: list[float]) -> list[str]:
        cards = []
        for i, v in enumerate(row):
            cards += [CARD_NAMES[COLOUR_WILD_BASE + i]] * int(round(float(v) * scales[i]))
        return cards

    def show(cards: list[str]) -> str:
        return " ".join(cards) if cards else "-"

    wild_scales = [2.0] * 4 + [1.0] * (NUM_NUMBERS + 1)
    phase = _onehot(p["phase"])
    phases = ("draw or stop", "auction", "payment", "buy")
    active = _onehot(p["active"])
    lines = [
        SEP,
        f"dix — you are player_{seat}" + (f" (solo against ALIX, difficulty {round(float(p['rules'][2]) * 10)})" if solo else "")
        + f"; turn of {name(active) if active is not None else '-'}; phase: {phases[phase] if phase is not None else 'game over'}; "
        f"draw pile: {round(float(p['draw_pile_size'][0]) * 129)} card(s)",
    ]
    for r in range(n):
        lines.append(
            f"{name(r)}: score {round(float(p['score'][r]) * 40)}, tokens {round(float(p['tokens'][r]) * 10)}, "
            f"consolation {round(float(p['consolation'][r]) * 5)}; collection: "
            + show(numbers(p["collection_numbers"][r], 3) + wilds(p["collection_wilds"][r], wild_scales))
        )
    currency = [f"${i + 1}" for i, v in enumerate(p["tableau_currency"]) for _ in range(int(round(float(v) * 3)))]
    lines.append(
        f"tableau: {show(numbers(p['tableau_numbers'], 3) + currency)} — total {round(float(p['tableau_total'][0]) * 10)}, "
        f"currency {round(float(p['tableau_currency_sum'][0]) * 10)}"
    )
    lines.append(f"market: {show(numbers(p['market'], 3))}")
    card = _onehot(p["auction_card"])
    if card is not None:
        bidder = _onehot(p["high_bidder"])
        lines.append(
            f"auction for {CARD_NAMES[COLOUR_WILD_BASE + card]}: high bid {round(float(p['high_bid'][0]) * 10)}"
            + (f" by {name(bidder)}" if bidder is not None else " (none yet)")
        )
    if phase == 2:
        lines.append(f"still to pay: {round(float(p['payment_left'][0]) * 10)}")
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


VIEWS: dict[str, Callable[[Any, int, dict[str, np.ndarray]], str]] = {
    "le_dix": le_dix_view,
    "dix_de_suite": dix_de_suite_view,
    "dix": dix_view,
}


def observation_text(env: Any, seat: int, obs: dict[str, np.ndarray]) -> str:
    """The game's text view of ``obs`` (seat ``seat``), or the generic one if the game has none or it fails."""
    view = VIEWS.get(env.unwrapped.game.name)
    if view is not None:
        try:
            return view(env, seat, obs)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError, ImportError):
            pass  # the layout changed under the view: the generic listing is always right
    return generic_view(env, seat, obs)


#: game -> action prefixes whose argument is hidden from the other players
HIDDEN_ACTIONS: dict[str, dict[str, str]] = {"le_dix": {"discard": "discards a card face down"}}


def public_action_text(game: str, text: str) -> str:
    """How another player's action is announced: its string, unless part of it is hidden (le_dix discards)."""
    verb = text.split(" ", 1)[0]
    hidden = HIDDEN_ACTIONS.get(game, {})
    return hidden[verb] if verb in hidden else text
