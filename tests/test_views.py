"""Text views of an observation (the public history they show) and the move log as lines ("you" for a seat)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from dixenv import dix_de_suite_v0, dix_v0, le_dix_v0, views
from dixenv.core.events import Event
from tests.games.dix_de_suite.helpers import stacked_deck as dds_deck
from tests.games.le_dix.helpers import stacked_deck as le_dix_deck

# --- the move log ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, seat, said",
    [
        ("player_1 draws B7: tableau total 7", 1, "you draw B7: tableau total 7"),
        ("player_1 passes", 1, "you pass"),
        ("player_2 is dealt 7H 8S", 2, "you are dealt 7H 8S"),
        ("player_0 busts: total 12 is over 10", 0, "you bust: total 12 is over 10"),
        ("player_0 puts 5 in slot 3 and discards 9", 0, "you put 5 in slot 3 and discard 9"),
        ("ALIX gains 3 tokens for the currency on player_0's tableau (now 8)", 0, "ALIX gains 3 tokens for the currency on your tableau (now 8)"),
        ("player_0 draws W1: an auction, player_1 bids first", 1, "player_0 draws W1: an auction, you bid first"),
        ("turn of player_0, 80 cards in the draw pile", 0, "your turn, 80 cards in the draw pile"),
        ("deal 2/10 (9 cards), dealer player_1", 1, "deal 2/10 (9 cards), you deal"),
        ("trick 3 won by player_2", 2, "trick 3 won by you"),
        ("player_2 plays 7H", 1, "player_2 plays 7H"),
    ],
)
def test_personal_names_the_seat_you_and_conjugates_its_verbs(text, seat, said):
    assert views.personal(text, seat) == said


def _random_game_events(module, options: dict, seed: int) -> list[Event]:
    env = module.raw_env(record_events=True, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.agents and not (any(env.terminations.values()) or any(env.truncations.values())):
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(rng.choice(legal)))
    return env.events


@pytest.mark.parametrize(
    "module, options",
    [
        (le_dix_v0, {"num_players": 3, "deals": (3, 2, 1)}),
        (dix_v0, {"num_players": 3}),
        (dix_v0, {"solo": True, "difficulty": 6}),
        (dix_de_suite_v0, {"num_players": 2, "max_turns": 60}),
    ],
)
def test_every_event_of_whole_games_reads_right_for_every_seat(module, options):
    events = _random_game_events(module, options, seed=4)
    for seat in range(module.raw_env(**options).config.num_players):
        for line in views.event_lines(events, seat, you=True):
            assert f"player_{seat}" not in line
            # no third-person verb after "you" (pass, bust: are base forms)
            assert not re.search(r"\byou (?!pass\b)(is|has|[a-z]+s)\b", line), line


def test_markers_are_set_apart_and_forced_moves_marked():
    mark = views.event_line(Event(-1, "trick 1 won by player_0", kind="mark"), None)
    assert mark.startswith("── trick 1 won by player_0 ──") and len(mark) == views.MARK_WIDTH
    assert views.event_line(Event(0, "player_0 plays 2H", kind="forced"), None) == "  player_0 plays 2H (forced)"
    assert views.event_line(Event(0, "player_0 plays 2H"), 0, you=True) == "  you play 2H"


def test_a_seat_sees_the_public_text_of_another_seats_hidden_move():
    event = Event(2, "player_2 discards 7H face down", "player_2 discards a card face down")
    assert views.event_line(event, 1) == "  player_2 discards a card face down"
    assert views.event_line(event, 2, you=True) == "  you discard 7H face down"
    assert views.event_line(event, None) == "  player_2 discards 7H face down"


def test_the_move_log_hands_out_each_event_once():
    env = le_dix_v0.raw_env(num_players=3, record_events=True)
    env.reset(seed=0)
    log = views.MoveLog(env, 0, you=True)
    first = log.new_lines()
    assert first == views.event_lines(env.events, 0, you=True) and log.new_lines() == []
    env.step(env.legal_actions()[0])
    assert log.new_lines() == views.event_lines(env.events[len(first) :], 0, you=True)


# --- the views -------------------------------------------------------------------------------


def _view(env, agent: str) -> str:
    return views.observation_text(env, int(agent[-1]), env.observe(agent))


def test_le_dix_view_shows_the_last_trick_with_its_leader_voids_and_the_previous_deal():
    hands = {0: ["AS", "2H"], 1: ["KS", "3H"], 2: ["QS", "4D"]}  # dealer 0: player_1 leads
    env = le_dix_v0.raw_env(num_players=3, deals=(2, 1), auto_forced=False)
    env.reset(seed=0, options={"deck": le_dix_deck(hands, "5D", 0, 3), "dealer": 0})
    for text in ("leave trump", "bid 1", "bid 0", "bid 1", "play 3H", "play 4D", "play 2H"):
        env.step(env.string_to_action(text))
    text = _view(env, "player_0")  # player_2 trumped the hearts: void in hearts, wins and leads
    assert "last trick (led by player_1, won by player_2): player_1 3H, player_2 4D, you 2H" in text
    assert re.search(r"player_2 +0 +0 +1  H$", text, flags=re.M)  # bid 0, one trick, void in hearts shown
    assert "played this deal: you 2H; player_1 3H; player_2 4D" in text
    for text in ("play QS", "play AS", "play KS"):  # player_2 leads the deal's last trick; AS wins it
        env.step(env.string_to_action(text))
    text = _view(env, "player_1")  # the next deal: the previous one is summed up
    assert "previous deal (trump D): you bid 1 took 0, player_2 bid 0 took 1, player_0 bid 1 took 1" in text
    assert "its final trick (led by player_2, won by player_0): player_2 QS, player_0 AS, you KS" in text


def test_dix_view_shows_the_discard_pile_and_what_is_left_in_the_draw_pile():
    env = dix_v0.raw_env(num_players=3, auto_forced=False)
    env.reset(seed=0, options={"deck": ["$2", "W5", "B3", "G1"], "first_player": 0})
    for text in ("draw", "pass", "pass", "pass", "take money"):  # W5 nobody bids on; $2 spent
        env.step(env.string_to_action(text))
    text = _view(env, "player_1")
    assert "discard pile: W5 $2" in text
    assert "still in the draw pile: 1 number cards, wilds -, currency -" in text


def test_dix_de_suite_view_shows_known_slots_slot_history_and_last_turns():
    racks = {0: [40, 39, 38, 37, 36, 35, 34, 33, 32, 31], 1: [30, 29, 28, 27, 26, 25, 24, 23, 22, 21]}
    env = dix_de_suite_v0.raw_env(num_players=2)
    env.reset(seed=0, options={"deck": dds_deck(racks, 1, [2, 3]), "dealer": 0})
    for text in ("take discard", "swap 3", "draw", "swap 5"):  # player_1 puts 1 in slot 3; player_0 a hidden 2 in slot 5
        env.step(env.string_to_action(text))
    text = _view(env, "player_1")
    lines = text.splitlines()
    opp = lines.index("player_0's rack (? = not seen):")
    assert lines[opp + 1].split() == ["card:"] + ["?"] * 10  # the drawn card went in unseen
    assert lines[opp + 2].split() == ["moved:", "-", "-", "-", "-", "0", "-", "-", "-", "-", "-"]
    assert "last turns: you took the discard and swapped slot 3, out 28; player_0 drew and swapped slot 5, out 36" in text
    assert "discard pile (top first): 36 28" in text
    assert "the others know your slots 3" in text
