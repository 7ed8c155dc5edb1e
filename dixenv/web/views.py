"""The table as JSON for the page: what one seat may see, or everything (a spectator).

A seat's view is built from that seat's observation only (``env.unwrapped.layout.unflatten``), as
``dixenv.views`` builds its text, never from the engine's hidden state: another player's hand, the
dealer's face-down discard in le_dix or an unseen rack card in dix de suite cannot reach a person's
page. Seats in a view are absolute (``player_K``), not relative to the viewer. A spectator's view is
the first agent seat's view with every seat's private cards filled in from that seat's own view.

Per game, a view holds ``players`` (one dict per seat of the table) and the game's public parts
(le_dix: trump, trick, last trick; dix de suite: piles, the card in hand; dix: tableau, market,
piles, auction). Cards are short names (le_dix ``"TH"``, dix ``"B3"``, ``"W5"``, ``"**"``, ``"$2"``)
or numbers (dix de suite); the page draws them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np


def _onehot(v: np.ndarray) -> int | None:
    nz = np.flatnonzero(v)
    return int(nz[0]) if len(nz) else None


def _count(value: float, scale: float) -> int:
    return int(round(float(value) * scale))


def agent_seat_numbers(env: Any) -> list[int]:
    return [int(a.rsplit("_", 1)[1]) for a in env.possible_agents]


def seat_view(env: Any, seat: int) -> dict[str, Any]:
    """The table as ``seat`` sees it (from its observation)."""
    u = env.unwrapped
    obs = u.observe(f"player_{seat}")
    p = u.layout.unflatten(obs["observation"])
    builder = BUILDERS.get(u.game.name)
    if builder is None:
        return generic_view(p, seat)
    return builder(env, seat, p)


def spectator_view(env: Any) -> dict[str, Any]:
    """Everything at the table: the first agent seat's view, every seat's private cards filled in."""
    seats = agent_seat_numbers(env)
    view = seat_view(env, seats[0])
    for s in seats[1:]:
        other = seat_view(env, s)
        for key in view.get("private", ()):
            view["players"][s][key] = other["players"][s][key]
    view["viewer"] = None
    return view


def table_view(env: Any, viewer: int | None) -> dict[str, Any]:
    """``seat_view`` for a seat number, ``spectator_view`` for None."""
    return spectator_view(env) if viewer is None else seat_view(env, viewer)


def generic_view(p: dict[str, np.ndarray], seat: int) -> dict[str, Any]:
    """A game without a JSON view: its observation's non-zero pieces."""
    pieces = {name: np.argwhere(v != 0).tolist()[:40] for name, v in p.items() if np.any(v != 0)}
    return {"kind": "generic", "viewer": seat, "players": [], "pieces": pieces, "private": []}


# ---------------------------------------------------------------------------------------------
# le_dix


def le_dix_view(env: Any, seat: int, p: dict[str, np.ndarray]) -> dict[str, Any]:
    from dixenv.games.le_dix.cards import CARD_NAMES, NUM_RANKS, SUITS

    n = p["dealer"].shape[0]
    absolute = lambda r: (seat + r) % n  # noqa: E731
    phase = _onehot(p["phase"])
    size = _onehot(p["hand_size"]) or 0
    dealer = _onehot(p["dealer"])

    def trick(rows: np.ndarray, leader: int | None) -> list[dict[str, Any]]:
        if leader is None:
            return []
        out = []
        for k in range(n):
            r = (leader + k) % n
            c = _onehot(rows[r])
            if c is not None:
                out.append({"seat": absolute(r), "card": CARD_NAMES[c]})
        return out

    hand = [CARD_NAMES[c] for c in sorted(np.flatnonzero(p["hand"]), key=lambda c: (c // NUM_RANKS, -(c % NUM_RANKS)))]
    players: list[dict[str, Any]] = [None] * n  # type: ignore[list-item]
    # Every hand size is public: the cards dealt this deal, less the cards the seat played, and for
    # the dealer who took the turned-up card one more until the face-down discard (phase "discard").
    took_pending = phase == 1
    for r in range(n):
        played = int(p["played_by"][r].sum())
        held = size - played + (1 if took_pending and r == dealer else 0)
        players[absolute(r)] = {
            "seat": absolute(r),
            "score": round(float(p["scores"][r]) * 100),
            "bid": _onehot(p["bids"][r]),
            "tricks": _onehot(p["tricks_won"][r]) or 0,
            "voids": [SUITS[s] for s in np.flatnonzero(p["void"][r])],
            "dealer": r == dealer,
            "hand": hand if r == 0 else None,
            "hand_count": len(hand) if r == 0 else held,
            "discard": CARD_NAMES[_onehot(p["own_discard"])] if r == 0 and p["own_discard"].any() else None,
        }
    trump = _onehot(p["trump_card"])
    trump_suit = _onehot(p["trump_suit"])
    leader = _onehot(p["trick_leader"])
    return {
        "kind": "le_dix",
        "viewer": seat,
        "phase": ("trump choice", "discard", "bidding", "playing")[phase] if phase is not None else "game over",
        "deal": (_onehot(p["deal"]) or 0) + 1,
        "deals": len(env.unwrapped.config.deals),
        "hand_size": size,
        "trump_card": CARD_NAMES[trump] if trump is not None else None,
        "trump_suit": SUITS[trump_suit] if trump_suit is not None else None,
        "dealer_took_trump": bool(p["dealer_took_trump"][0]),
        "trick": trick(p["trick"], leader),
        "trick_leader": absolute(leader) if leader is not None else None,
        "last_trick": trick(p["last_trick"], _onehot(p["last_trick_leader"])),
        "players": players,
        "private": ["hand", "hand_count", "discard"],
    }


# ---------------------------------------------------------------------------------------------
# dix de suite


def dix_de_suite_view(env: Any, seat: int, p: dict[str, np.ndarray]) -> dict[str, Any]:
    from dixenv.games.dix_de_suite.cards import RACK_SIZE
    from dixenv.games.dix_de_suite.observation import max_rounds

    config = env.unwrapped.config
    n, d = p["dealer"].shape[0], p["discard_top"].shape[0]
    pile_scale = d - RACK_SIZE * n + 1
    absolute = lambda r: (seat + r) % n  # noqa: E731
    phase = _onehot(p["phase"])
    turn = _onehot(p["current_player"])

    def pile_order(depths: np.ndarray) -> list[int]:
        cards = np.flatnonzero(depths)
        return [int(c) + 1 for c in cards[np.argsort(depths[cards], kind="stable")]]

    rack = [int(np.flatnonzero(r)[0]) + 1 if r.any() else None for r in p["own_rack_cards"]]
    players: list[dict[str, Any]] = [None] * n  # type: ignore[list-item]
    for r in range(n):
        if r == 0:
            cards = rack
            public = [bool(v) for v in p["own_public"]]
        else:
            cards = [_count(v, d) or None for v in p["opp_known"][r - 1]]
            public = [c is not None for c in cards]
        players[absolute(r)] = {
            "seat": absolute(r),
            "score": _count(p["scores"][r], config.target_score),
            "dealer": _onehot(p["dealer"]) == r,
            "rack": cards,
            "public": public,
        }
    held = _onehot(p["held_card"])
    draw_public = bool(p["draw_pile_public"][0])
    return {
        "kind": "dix_de_suite",
        "viewer": seat,
        "phase": ("choose: draw or take the discard", "place the drawn card or discard it", "place the taken card")[phase]
        if phase is not None else "game over",
        "round": round(float(p["round"][0]) * max_rounds(config)),
        "round_turns": _count(p["round_turns"][0], config.max_turns),
        "target": config.target_score,
        "to_play": absolute(turn) if turn is not None else None,
        "discard": pile_order(p["discard_depth"]),
        "draw_pile": _count(p["draw_pile_size"][0], pile_scale),
        "draw_order": pile_order(p["draw_pile_depth"]) if draw_public else None,
        "held": held + 1 if held is not None else None,
        "held_by": absolute(turn) if held is not None and turn is not None else None,
        "players": players,
        "private": ["rack", "public"],
    }


# ---------------------------------------------------------------------------------------------
# dix


def dix_view(env: Any, seat: int, p: dict[str, np.ndarray]) -> dict[str, Any]:
    from dixenv.games.dix.cards import CARD_NAMES, COLOUR_WILD_BASE, CURRENCY_BASE, NUM_NUMBERS
    from dixenv.games.dix.observation import BOX_SIZE

    n = p["tokens"].shape[0]
    solo = bool(p["rules"][1])
    absolute = lambda r: (seat + r) % n  # noqa: E731
    wild_scales = [2.0] * 4 + [1.0] * (NUM_NUMBERS + 1)

    def numbers(grid: np.ndarray) -> list[str]:
        return [CARD_NAMES[t] for t, v in enumerate(grid.reshape(-1)) for _ in range(_count(v, 3))]

    def wilds(row: np.ndarray) -> list[str]:
        return [CARD_NAMES[COLOUR_WILD_BASE + i] for i, v in enumerate(row) for _ in range(_count(v, wild_scales[i]))]

    def currency(row: np.ndarray, scale: float) -> list[str]:
        return [CARD_NAMES[CURRENCY_BASE + i] for i, v in enumerate(row) for _ in range(_count(v, scale))]

    phase = _onehot(p["phase"])
    active = _onehot(p["active"])
    players: list[dict[str, Any]] = [None] * n  # type: ignore[list-item]
    for r in range(n):
        players[absolute(r)] = {
            "seat": absolute(r),
            "alix": solo and absolute(r) != 0,
            "score": _count(p["score"][r], 40),
            "tokens": _count(p["tokens"][r], 10),
            "consolation": _count(p["consolation"][r], 5),
            "collection": numbers(p["collection_numbers"][r]) + wilds(p["collection_wilds"][r]),
        }
    card = _onehot(p["auction_card"])
    bidder = _onehot(p["high_bidder"])
    buy = _onehot(p["buy_card"].reshape(-1))
    unseen = numbers(p["unseen_numbers"]) + wilds(p["unseen_wilds"]) + currency(p["unseen_currency"], 6)
    return {
        "kind": "dix",
        "viewer": seat,
        "solo": solo,
        "difficulty": round(float(p["rules"][2]) * 10) if solo else None,
        "phase": ("draw or stop", "auction", "payment", "buy")[phase] if phase is not None else "game over",
        "active": absolute(active) if active is not None else None,
        "draw_pile": _count(p["draw_pile_size"][0], BOX_SIZE),
        "last_card_drawn": bool(p["last_card_drawn"][0]),
        "tableau": numbers(p["tableau_numbers"]) + currency(p["tableau_currency"], 3),
        "tableau_total": _count(p["tableau_total"][0], 10),
        "tableau_currency": _count(p["tableau_currency_sum"][0], 10),
        "market": numbers(p["market"]),
        "discard": numbers(p["discard_numbers"]) + wilds(p["discard_wilds"]) + currency(p["discard_currency"], 6),
        "unseen": dict(Counter(unseen)),
        "auction": None if card is None else {
            "card": CARD_NAMES[COLOUR_WILD_BASE + card],
            "high_bid": _count(p["high_bid"][0], 10),
            "high_bidder": absolute(bidder) if bidder is not None else None,
            "still_to_bid": [absolute(int(r)) for r in np.flatnonzero(p["still_to_bid"])],
        },
        "payment_left": _count(p["payment_left"][0], 10) if phase == 2 else None,
        "buying": CARD_NAMES[buy] if buy is not None else None,
        "players": players,
        "private": [],
    }


BUILDERS = {"le_dix": le_dix_view, "dix_de_suite": dix_de_suite_view, "dix": dix_view}
