"""Playing one le_dix deal and OpenSpiel's ``oh_hell`` side by side: card and action ids, the deal.

Used by the engine cross-check (``tests/games/le_dix/test_openspiel_crosscheck.py``) and by the
lockstep comparison with OpenSpiel's IS-MCTS (``experiments.studies.le_dix_heuristic.le_dix_vs_openspiel``). Needs
``pyspiel`` (the ``dev`` extra).

Mapping between the two (read from ``open_spiel/games/oh_hell/oh_hell.cc``, open_spiel 2.0.2):

* cards: ours ``suit * 13 + rank`` with suits S,H,D,C; OpenSpiel ``rank * 4 + suit`` with suits
  C,D,S,H, written suit first (``"S3"`` is our ``"3S"``); ranks 2..A in both;
* dealing: OpenSpiel deals card j to player ``j % n`` whatever the dealer (the dealer only decides
  who bids and leads first); ours deals card i of the deck to seat ``(dealer + 1 + i) % n``. The
  OpenSpiel chance sequence is rebuilt from our deck so each player gets the same hand; the next
  chance card is the trump card in both;
* our dealer's trump choice has no OpenSpiel counterpart: our dealer must play ``leave trump``;
* actions: our ``bid N`` is OpenSpiel action ``52 + N``, our ``play XY`` its card id;
* scores: ``points_per_trick=0, off_bid_penalty=False`` returns 10 for an exact bid, else 0 —
  our ``scoring="exact10"``; ``points_per_trick=1, off_bid_penalty=True`` returns bid + 10 for an
  exact bid, else −|tricks − bid|, so our ``scoring="oh_hell"`` (10 + bid, else 0) is its max with 0.

OpenSpiel's ``oh_hell`` always applies the hook; our ``hook=True`` gives the same legal moves.
"""

from __future__ import annotations

from typing import Any

from dixenv.games.le_dix import actions as A
from dixenv.games.le_dix.cards import NUM_CARDS, RANK_OF, SUIT_OF

try:
    import pyspiel
except ImportError as exc:  # an optional dependency: say how to get it
    raise ImportError("the oh_hell bridge needs OpenSpiel: pip install -e '.[dev]' (package open_spiel)") from exc

#: OpenSpiel's suit index (C,D,S,H order) of each of our suits (S,H,D,C order).
OS_SUIT_OF_OURS = ("CDSH".index("S"), "CDSH".index("H"), "CDSH".index("D"), "CDSH".index("C"))
OS_BID_BASE = 52  # OpenSpiel bid actions start after its 52 card actions


def to_os_card(card: int) -> int:
    """Our card id -> OpenSpiel's oh_hell card id."""
    return RANK_OF[card] * 4 + OS_SUIT_OF_OURS[SUIT_OF[card]]


OURS_OF_OS_CARD = {to_os_card(c): c for c in range(NUM_CARDS)}


def to_os_action(max_bid: int, action: int) -> int:
    """Our bid/play action id (for a game whose bids run to ``max_bid``) -> OpenSpiel's action id."""
    pb = A.play_base(max_bid)
    if action >= pb:
        return to_os_card(action - pb)
    if not A.BID_BASE <= action < pb:
        raise ValueError(f"no OpenSpiel counterpart for {A.action_to_string(max_bid, action)!r}: only bids and plays map")
    return OS_BID_BASE + action - A.BID_BASE


def from_os_action(max_bid: int, os_action: int) -> int:
    """OpenSpiel's bid/card action id -> our action id (for a game whose bids run to ``max_bid``)."""
    if os_action < OS_BID_BASE:
        return A.play_base(max_bid) + OURS_OF_OS_CARD[os_action]
    return A.BID_BASE + os_action - OS_BID_BASE


_games: dict[tuple, Any] = {}


def os_game(n: int, tricks: int, points_per_trick: int = 0, off_bid_penalty: bool = False) -> Any:
    """A cached ``oh_hell`` game with a fixed number of tricks (default scoring: our ``exact10``)."""
    key = (n, tricks, points_per_trick, off_bid_penalty)
    if key not in _games:
        _games[key] = pyspiel.load_game(
            "oh_hell",
            {"players": n, "num_tricks_fixed": tricks, "points_per_trick": points_per_trick, "off_bid_penalty": off_bid_penalty},
        )
    return _games[key]


def chance_outcomes(n: int, size: int, dealer: int, deck: list[int]) -> list[int]:
    """OpenSpiel's chance actions (tricks, dealer, cards, trump) that deal our ``deck`` the same way."""
    # Card j of OpenSpiel's deal goes to player j % n; that player's (j // n)-th card in our deal
    # is deck[(player - dealer - 1) % n + (j // n) * n].
    cards = [deck[(j % n - dealer - 1) % n + (j // n) * n] for j in range(n * size)]
    cards.append(deck[n * size])  # the turned-up card: trump in both games
    return [size, dealer] + [to_os_card(c) for c in cards]


def deal_os(game: Any, dealer: int, deck: list[int]) -> Any:
    """A new ``oh_hell`` state of ``game`` dealt like our deal of ``deck`` by ``dealer``, ready to bid."""
    n, size = game.num_players(), game.get_parameters()["num_tricks_fixed"]
    state = game.new_initial_state()
    for outcome in chance_outcomes(n, size, dealer, deck):
        if not state.is_chance_node() or outcome not in {a for a, _ in state.chance_outcomes()}:
            raise ValueError(f"OpenSpiel refused chance outcome {outcome} while dealing")
        state.apply_action(outcome)
    return state
