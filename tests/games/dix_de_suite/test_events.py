"""The move log: every decision, automatic move and marker, in order, with hidden cards kept out of public texts."""

from __future__ import annotations

import re

import numpy as np
import pytest

from dixenv import dix_de_suite_v0
from dixenv.core.events import Event
from dixenv.games.dix_de_suite import state as state_module

from .helpers import DESC_2, NEAR_WIN, PREFIX_3, band_player, make, play

DEAL_2 = [
    Event(-1, "round 1: dealer player_0, player_1 starts", None, "mark"),
    Event(1, "player_1 is dealt 30 29 28 27 26 25 24 23 22 21", "player_1 is dealt 10 cards", "auto"),
    Event(0, "player_0 is dealt 40 39 38 37 36 35 34 33 32 31", "player_0 is dealt 10 cards", "auto"),
]


def test_a_stacked_game_logs_the_deal_each_decision_and_what_the_others_see():
    env = make(DESC_2, 1, draw=[2, 3, 4], record_events=True)
    play(env, "draw", "swap 3", "take discard", "swap 1", "draw", "discard")
    assert env.unwrapped.events == DEAL_2 + [
        Event(-1, "1 starts the discard pile", None, "auto"),
        Event(1, "player_1 draws 2", "player_1 draws a card", "move"),
        Event(1, "player_1 puts 2 in slot 3 and discards 28", "player_1 puts a card in slot 3 and discards 28", "move"),
        Event(0, "player_0 takes 28 from the discard pile", None, "move"),
        Event(0, "player_0 puts 28 in slot 1 and discards 40", None, "move"),
        Event(1, "player_1 draws 3", "player_1 draws a card", "move"),
        Event(1, "player_1 discards 3", None, "move"),
    ]
    assert env.unwrapped.events[4].text_for(0) == "player_1 draws a card"
    assert env.unwrapped.events[4].text_for(1) == "player_1 draws 2"


def test_a_turn_over_is_an_automatic_move_after_the_turn_that_emptied_the_draw_pile():
    env = make(DESC_2, 1, draw=list(range(2, 21)), record_events=True)
    for _ in range(19):
        play(env, "draw", "discard")
    events = env.unwrapped.events
    assert events[-2] == Event(1, "player_1 discards 20", None, "move")
    assert events[-1] == Event(-1, "the discard pile is turned over as the draw pile (19 cards, order public); 1 starts the discard pile", None, "auto")
    play(env, "draw")
    assert env.unwrapped.events[-1] == Event(0, "player_0 draws 2", None, "move")  # a public draw pile: nothing hidden


def test_a_reshuffle_is_logged_with_a_hidden_order():
    env = make(DESC_2, 1, draw=list(range(2, 21)), reshuffle=True, record_events=True)
    for _ in range(19):
        play(env, "draw", "discard")
    top = env.state.discard[-1]
    assert env.unwrapped.events[-1] == Event(
        -1, f"the discard pile is shuffled into the draw pile (19 cards, order hidden); {top} starts the discard pile", None, "auto"
    )


def test_the_end_of_a_round_logs_the_winner_the_scores_and_the_next_deal():
    env = make({0: PREFIX_3, 1: NEAR_WIN}, 4, draw=[30], record_events=True)
    play(env, "draw", "swap 10")
    events = env.unwrapped.events
    decision = next(i for i, e in enumerate(events) if e.text == "player_1 puts 30 in slot 10 and discards 2")
    after = events[decision + 1 :]
    assert after[:3] == [
        Event(-1, "round 1 won by player_1 (dix de suite)", None, "mark"),
        Event(-1, "round 1 scores: player_0 +15 = 15, player_1 +75 = 75", None, "mark"),
        Event(-1, "round 2: dealer player_1, player_0 starts", None, "mark"),
    ]
    assert [e.kind for e in after[3:]] == ["auto", "auto", "auto"]  # two racks dealt, the first discard
    assert after[3].seat == 0 and after[3].public == "player_0 is dealt 10 cards"


def test_the_end_of_the_game_and_a_truncation_are_marked():
    env = make({0: PREFIX_3, 1: NEAR_WIN}, 4, draw=[30], target_score=75, record_events=True)
    play(env, "draw", "swap 10")
    assert env.unwrapped.events[-1] == Event(-1, "game over: player_1 wins with 75 points", None, "mark")
    env = make(DESC_2, 1, draw=[2, 3], max_turns=2, record_events=True)
    play(env, "draw", "discard", "draw", "discard")
    assert env.unwrapped.events[-1] == Event(-1, "round 1 cut short after 2 turns", None, "mark")


def test_a_team_win_names_both_members():
    racks = {0: PREFIX_3, 1: NEAR_WIN, 2: list(range(41, 51)), 3: list(range(60, 50, -1))}
    env = make(racks, 4, draw=[30], teams=True, target_score=80, record_events=True)
    play(env, "draw", "swap 10")  # seat 1 goes out: 75 + seat 3's 5 = 80 for team 1+3
    assert env.unwrapped.events[-1] == Event(-1, "game over: player_1 and player_3 win with 80 points", None, "mark")


def test_no_decision_is_ever_forced_so_auto_forced_logs_the_same_moves():
    logs = []
    for auto_forced in (True, False):
        env = dix_de_suite_v0.raw_env(num_players=3, auto_forced=auto_forced, record_events=True, max_turns=60)
        env.reset(seed=5)
        rng = np.random.default_rng(5)
        while env.state.current_player() >= 0:
            env.step(band_player(env.state, rng, 0.3))
        logs.append(env.unwrapped.events)
    assert logs[0] == logs[1]
    assert all(e.kind != "forced" for e in logs[0])


_NOT_CARDS = re.compile(r"player_\d+|slot \d+|round \d+|\d+ cards|[+=] \d+|\+\d+|\d+ points|\d+ turns")


def _public_cards_named(text: str) -> list[int]:
    """The card numbers a log text names (slot numbers, counts and scores left out)."""
    return [int(x) for x in re.findall(r"\d+", _NOT_CARDS.sub("", text))]


@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 3, "reshuffle": True}, {"num_players": 4, "run_bonus": True}])
def test_no_text_shown_to_other_seats_names_a_card_hidden_from_them(options, monkeypatch):
    # Each event is checked once its move is complete: after the step, or, for the moves that end
    # a round or empty the draw pile, just before the cards are dealt again or turned over.
    checked = [0]
    pending = {"state": None, "seen": 0}

    def check(state):
        for e in state.events[pending["seen"] :]:
            for viewer in range(state.num_seats):
                if viewer != e.seat:
                    for card in _public_cards_named(e.text_for(viewer)):
                        assert state.card_pool[card] == -1, f"{e.text_for(viewer)!r} names hidden card {card}"
                        checked[0] += 1
        pending["seen"] = len(state.events)

    def check_first(method):
        def checked(self, *args):
            check(self)
            method(self, *args)

        return checked

    for name in ("_end_round", "_turn_over"):
        monkeypatch.setattr(state_module.DixDeSuiteState, name, check_first(getattr(state_module.DixDeSuiteState, name)))
    env = dix_de_suite_v0.raw_env(**options, target_score=150, max_turns=200, record_events=True)
    rng = np.random.default_rng(11)
    rounds = 0
    for game in range(6):
        env.reset(seed=game)
        pending["seen"] = 0
        while True:
            check(env.state)
            if env.state.current_player() < 0:
                break
            env.step(band_player(env.state, rng, (0.2, 1.0)[game % 2]))
        rounds += env.state.round
    assert checked[0] > 500 and rounds > 6


def test_a_game_without_recording_formats_no_event(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("an event was built while nobody records")

    monkeypatch.setattr(state_module, "Event", refuse)
    env = dix_de_suite_v0.raw_env(num_players=2, reshuffle=True, target_score=100, max_turns=300)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    rounds = 0
    while env.state.current_player() >= 0:
        env.step(band_player(env.state, rng, 0.2))
        rounds = max(rounds, env.state.round)
    assert env.unwrapped.events is None and env.state.events is None and rounds >= 2
    clone = env.state.clone()
    assert clone.events is None
