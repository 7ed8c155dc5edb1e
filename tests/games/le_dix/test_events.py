"""The move log: every decision, automatic move and marker, in order; hidden cards never in public text."""

from __future__ import annotations

import re

import numpy as np
import pytest

from dixenv.core.events import Event
from dixenv.games.le_dix import state as state_module
from dixenv.games.le_dix.cards import card_name
from dixenv.games.le_dix.config import make_config
from dixenv.games.le_dix.state import LeDixState
from tests.games.le_dix.helpers import make, play

HANDS_3 = {0: ["AS", "2H"], 1: ["KS", "3H"], 2: ["QS", "4D"]}
SCRIPT = ["take trump", "discard 2H", "bid 0", "bid 1", "bid 1", "play KS"]


def _expected(forced: str) -> list[Event]:
    """The whole game of HANDS_3 under SCRIPT; the moves after player_1's lead are the only legal ones."""
    return [
        Event(-1, "deal 1/1 (2 cards), dealer player_0", kind="mark"),
        Event(1, "player_1 is dealt KS 3H", "player_1 is dealt 2 cards", "auto"),
        Event(2, "player_2 is dealt QS 4D", "player_2 is dealt 2 cards", "auto"),
        Event(0, "player_0 is dealt AS 2H", "player_0 is dealt 2 cards", "auto"),
        Event(0, "player_0 turns up 5D, trump suit D", kind="auto"),
        Event(0, "player_0 takes the turned-up 5D"),
        Event(0, "player_0 discards 2H face down", "player_0 discards a card face down"),
        Event(1, "player_1 bids 0"),
        Event(2, "player_2 bids 1"),
        Event(0, "player_0 bids 1"),
        Event(1, "player_1 plays KS"),
        Event(2, "player_2 plays QS", kind=forced),
        Event(0, "player_0 plays AS", kind=forced),
        Event(-1, "trick 1 won by player_0", kind="mark"),
        Event(0, "player_0 plays 5D", kind=forced),
        Event(1, "player_1 plays 3H", kind=forced),
        Event(2, "player_2 plays 4D", kind=forced),
        Event(-1, "trick 2 won by player_0", kind="mark"),
        Event(-1, "deal 1 scores: player_0 bid 1 took 2 +0 (0), player_1 bid 0 took 0 +10 (10), player_2 bid 1 took 0 +0 (0)", kind="mark"),
        Event(-1, "game over: player_0 0, player_1 10, player_2 0; winner player_1", kind="mark"),
    ]


def test_a_stacked_game_logs_every_move_in_order_with_forced_moves_relabelled():
    env = make(3, HANDS_3, "5D", dealer=0, auto_forced=True, record_events=True)
    play(env, *SCRIPT)
    assert all(env.terminations.values())
    assert env.events == _expected("forced")


def test_without_auto_forced_every_move_is_a_decision():
    env = make(3, HANDS_3, "5D", dealer=0, auto_forced=False, record_events=True)
    play(env, *SCRIPT, "play QS", "play AS", "play 5D", "play 3H", "play 4D")
    assert env.events == _expected("move")


def test_the_discard_is_face_down_for_everyone_but_the_dealer():
    env = make(3, HANDS_3, "5D", dealer=0, record_events=True)
    play(env, "take trump", "discard 2H")
    discard = env.events[-1]
    assert discard.text_for(0) == "player_0 discards 2H face down"
    assert discard.text_for(1) == discard.text_for(2) == "player_0 discards a card face down"
    assert discard.text_for(None) == "player_0 discards 2H face down"  # a spectator sees all


def test_the_next_deal_is_marked_and_dealt_after_the_scores():
    env = make(3, HANDS_3, "5D", dealer=0, auto_forced=True, record_events=True, deals=(2, 1))
    play(env, *SCRIPT)
    texts = [e.text for e in env.events]
    start = texts.index("deal 2/2 (1 card), dealer player_1")
    assert texts[start - 1].startswith("deal 1 scores: ")
    dealt = env.events[start + 1 : start + 4]
    assert [e.seat for e in dealt] == [2, 0, 1] and all(e.kind == "auto" for e in dealt)
    assert [e.public for e in dealt] == [f"player_{s} is dealt 1 card" for s in (2, 0, 1)]
    hands = env.state.hands
    assert [e.text for e in dealt] == [f"player_{s} is dealt {card_name(hands[s][0])}" for s in (2, 0, 1)]
    turned = env.events[start + 4]
    assert turned.seat == 1 and turned.text.startswith(f"player_1 turns up {card_name(env.state.trump_card)}")


def test_no_event_is_made_when_nobody_records(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("an event was formatted although events is None")

    monkeypatch.setattr(state_module, "Event", refuse)
    state = LeDixState(make_config(num_players=4, deals=(3, 2)), np.random.default_rng(0), {})
    rng = np.random.default_rng(1)
    while state.current_player() >= 0:
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    assert state.events is None


CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")


def _hidden_from(state: LeDixState, viewer: int) -> set[str]:
    """Cards ``viewer`` cannot see now: other hands, the dealer's discard, the undealt cards."""
    cards = {c for s, hand in enumerate(state.hands) if s != viewer for c in hand} | set(state.undealt)
    if state.dealer_discard is not None and viewer != state.dealer:
        cards.add(state.dealer_discard)
    cards.discard(state.trump_card)  # the turned-up card is public wherever it went
    return {card_name(c) for c in cards}


@pytest.mark.parametrize("options", [{"num_players": 3}, {"num_players": 5, "deals": (6, 3, 1)}])
def test_public_texts_never_name_a_hidden_card(options):
    n = options["num_players"]
    rng = np.random.default_rng(2)
    named = 0
    for game in range(25):
        events: list[Event] = []
        state = LeDixState(make_config(**options), np.random.default_rng(game), {}, events)
        while state.current_player() >= 0:
            before = [_hidden_from(state, v) for v in range(n)]
            legal = state.legal_actions()
            action = legal[rng.integers(len(legal))]
            # A card played becomes public by that very move.
            shown = card_name(action - state._play_base) if action >= state._play_base else None
            start = len(events)
            state.apply_action(action)
            after = [_hidden_from(state, v) for v in range(n)]
            hidden = before  # events of this deal; a new deal's events are checked against the new deal
            for e in events[start:]:
                if e.kind == "mark" and e.text.startswith("deal ") and "dealer" in e.text:
                    hidden = after
                for viewer in range(n):
                    if viewer == e.seat:
                        continue
                    names = set(CARD.findall(e.text_for(viewer)))
                    named += len(names)
                    leak = names & (hidden[viewer] - {shown})
                    assert not leak, f"{e} shows {leak} to player_{viewer}"
    assert named > 1000  # the check saw plenty of card names
