"""The flat le_dix action table: id <-> string, one Discrete space for every phase.

| ids | string | phase |
|---|---|---|
| 0 | ``take trump`` | dealer takes the turned-up card |
| 1 | ``leave trump`` | dealer leaves it |
| 2 … 53 | ``discard XY`` | dealer's hidden discard after taking the trump card |
| 54 … 54 + max_bid | ``bid N`` | bidding, N = 0 … max_bid (the largest hand size) |
| after the bids, 52 ids | ``play XY`` | playing a card to the trick |
"""

from __future__ import annotations

from dixenv.games.le_dix.cards import NUM_CARDS, card_name, parse_card

TAKE_TRUMP = 0
LEAVE_TRUMP = 1
DISCARD_BASE = 2
BID_BASE = DISCARD_BASE + NUM_CARDS


def play_base(max_bid: int) -> int:
    """First id of the ``play`` actions for a bid range 0..max_bid."""
    return BID_BASE + max_bid + 1


def num_actions(max_bid: int) -> int:
    """Size of the flat action space."""
    return play_base(max_bid) + NUM_CARDS


def action_to_string(max_bid: int, action: int) -> str:
    """The name of an action id, e.g. ``play TH``."""
    if not 0 <= action < num_actions(max_bid):
        raise ValueError(f"action {action} is out of range 0..{num_actions(max_bid) - 1}")
    if action == TAKE_TRUMP:
        return "take trump"
    if action == LEAVE_TRUMP:
        return "leave trump"
    if action < BID_BASE:
        return f"discard {card_name(action - DISCARD_BASE)}"
    pb = play_base(max_bid)
    if action < pb:
        return f"bid {action - BID_BASE}"
    return f"play {card_name(action - pb)}"


def string_to_action(max_bid: int, text: str) -> int:
    """The action id of a name such as ``bid 3`` or ``play TH``; ``ValueError`` if unknown."""
    words = text.strip().split() if isinstance(text, str) else []
    verb = " ".join(words).lower()
    try:
        if verb == "take trump":
            return TAKE_TRUMP
        if verb == "leave trump":
            return LEAVE_TRUMP
        if len(words) == 2 and words[0].lower() == "discard":
            return DISCARD_BASE + parse_card(words[1])
        if len(words) == 2 and words[0].lower() == "play":
            return play_base(max_bid) + parse_card(words[1])
        if len(words) == 2 and words[0].lower() == "bid" and words[1].isdigit() and int(words[1]) <= max_bid:
            return BID_BASE + int(words[1])
        problem = ""
    except ValueError as err:
        problem = f" ({err})"
    raise ValueError(
        f"unknown le_dix action {text!r}{problem}; actions are 'take trump', 'leave trump', 'discard XY', "
        f"'bid N' (N = 0..{max_bid}), 'play XY' (XY a card such as 'TH')"
    )
