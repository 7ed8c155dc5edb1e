"""The flat dix action table: id <-> string, one Discrete(178) space for every phase.

| ids | string | when |
|---|---|---|
| 0 | ``draw`` | after a draw: draw another card (not once the last card is drawn) |
| 1 | ``take numbers`` | after a draw: stop, take the number cards (then a buy) |
| 2 | ``take money`` | after a draw: stop, take the currency |
| 3 … 101 | ``bid N`` (N = 1 … 99) | auction: bid N (more than the high bid, within your means) |
| 102 | ``pass`` | auction: pass |
| 103 … 138 | ``buy B1`` … ``buy P9`` | buy phase: buy that market card (colour × 9 + number − 1) |
| 139 | ``skip`` | buy phase: end it without buying |
| 140 | ``pay token`` | payment: one money token (worth 1) |
| 141 | ``pay consolation`` | payment: one consolation token (worth 3, change lost) |
| 142 … 177 | ``pay B1`` … ``pay P9`` | payment: one number card of your collection (worth 1) |
"""

from __future__ import annotations

from dixenv.games.dix.cards import KIND, NUM_NUMBER_TYPES, NUMBER, card_name, parse_card

DRAW = 0
TAKE_NUMBERS = 1
TAKE_MONEY = 2
BID_BASE = 2  # "bid N" is BID_BASE + N, N = 1..MAX_BID
MAX_BID = 99  # no real game comes near it: means are at most 10 tokens + 3 × consolation + cards
PASS = BID_BASE + MAX_BID + 1  # 102
BUY_BASE = PASS + 1  # 103..138
SKIP = BUY_BASE + NUM_NUMBER_TYPES  # 139
PAY_TOKEN = SKIP + 1  # 140
PAY_CONSOLATION = PAY_TOKEN + 1  # 141
PAY_CARD_BASE = PAY_CONSOLATION + 1  # 142..177
NUM_ACTIONS = PAY_CARD_BASE + NUM_NUMBER_TYPES  # 178


def bid_action(amount: int) -> int:
    """The id of ``bid amount`` (1..MAX_BID)."""
    return BID_BASE + amount


def action_to_string(action: int) -> str:
    """The name of an action id, e.g. 109 -> ``buy B7``."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is out of range 0..{NUM_ACTIONS - 1}")
    if action == DRAW:
        return "draw"
    if action == TAKE_NUMBERS:
        return "take numbers"
    if action == TAKE_MONEY:
        return "take money"
    if action < PASS:
        return f"bid {action - BID_BASE}"
    if action == PASS:
        return "pass"
    if action < SKIP:
        return f"buy {card_name(action - BUY_BASE)}"
    if action == SKIP:
        return "skip"
    if action == PAY_TOKEN:
        return "pay token"
    if action == PAY_CONSOLATION:
        return "pay consolation"
    return f"pay {card_name(action - PAY_CARD_BASE)}"


_WORDS = {"draw": DRAW, "take numbers": TAKE_NUMBERS, "take money": TAKE_MONEY, "pass": PASS, "skip": SKIP,
          "pay token": PAY_TOKEN, "pay consolation": PAY_CONSOLATION}


def string_to_action(text: str) -> int:
    """The id of an action name such as ``bid 5``, ``buy B7`` or ``pay token``; ``ValueError`` if unknown."""
    words = text.strip().split() if isinstance(text, str) else []
    key = " ".join(words).lower()
    if key in _WORDS:
        return _WORDS[key]
    if len(words) == 2:
        verb, arg = words[0].lower(), words[1]
        if verb == "bid" and arg.isdigit() and 1 <= int(arg) <= MAX_BID:
            return BID_BASE + int(arg)
        if verb in ("buy", "pay"):
            try:
                t = parse_card(arg)
            except ValueError:
                t = -1
            if t >= 0 and KIND[t] == NUMBER:
                return (BUY_BASE if verb == "buy" else PAY_CARD_BASE) + t
    raise ValueError(
        f"unknown dix action {text!r}; actions are 'draw', 'take numbers', 'take money', "
        f"'bid N' (N = 1..{MAX_BID}), 'pass', 'buy B7', 'skip', 'pay token', 'pay consolation', "
        "'pay B7' (B7 any number card B1..P9)"
    )
