"""What each seat observes: its own rack, public knowledge, and never an opponent's hidden cards."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dixenv.games.dix_de_suite.game import GAME
from dixenv.games.dix_de_suite.observation import known_prefix, make_layout
from dixenv.games.dix_de_suite.state import PHASE_PLACE

from .helpers import DESC_2, band_player, make, play

DOCS = Path(__file__).resolve().parents[3] / "docs" / "dix_de_suite.md"


def view(env, agent: str) -> dict[str, np.ndarray]:
    """The named pieces of ``agent``'s observation."""
    return make_layout(env.config).unflatten(env.observe(agent)["observation"])


def cards_of(vector: np.ndarray) -> list[int]:
    """The cards (1-based) whose entry is non-zero in a per-card piece."""
    return [int(i) + 1 for i in np.flatnonzero(vector)]


def test_own_rack_is_encoded_by_slot_as_value_and_one_hot():
    env = make(DESC_2, 1, draw=[2])
    v = view(env, "player_0")
    assert np.allclose(v["own_rack"], np.array(DESC_2[0]) / 40)
    assert [cards_of(row) for row in v["own_rack_cards"]] == [[c] for c in DESC_2[0]]


def test_discard_pile_shows_the_top_every_card_and_each_cards_depth():
    env = make(DESC_2, 1, draw=[2, 3])
    play(env, "draw", "discard", "draw", "swap 1")  # discard pile bottom→top: 1, 2, 40
    v = view(env, "player_1")
    assert cards_of(v["discard_top"]) == [40]
    assert cards_of(v["discard_cards"]) == [1, 2, 40]
    depth = v["discard_depth"]
    assert np.isclose(depth[40 - 1], 1 / 21) and np.isclose(depth[2 - 1], 2 / 21) and np.isclose(depth[1 - 1], 3 / 21)
    assert np.isclose(v["draw_pile_size"][0], 17 / 21)


def test_a_card_drawn_from_the_draw_pile_is_seen_only_by_the_drawer():
    env = make(DESC_2, 1, draw=[2])
    play(env, "draw")
    mine, theirs = view(env, "player_1"), view(env, "player_0")
    assert cards_of(mine["held_card"]) == [2] and mine["unseen"][2 - 1] == 0
    assert not theirs["held_card"].any() and theirs["unseen"][2 - 1] == 1
    assert mine["phase"].tolist() == [0, 1, 0] and theirs["phase"].tolist() == [0, 1, 0]


def test_a_card_taken_from_the_discard_pile_is_public_and_known_in_its_slot():
    env = make(DESC_2, 1, draw=[2])
    play(env, "take discard")
    theirs = view(env, "player_0")
    assert cards_of(theirs["held_card"]) == [1] and theirs["phase"].tolist() == [0, 0, 1]
    play(env, "swap 3")
    theirs = view(env, "player_0")
    assert np.isclose(theirs["opp_known"][0, 2], 1 / 40) and theirs["opp_known"][0].sum() == pytest.approx(1 / 40)
    assert cards_of(theirs["opp_known_cards"][0]) == [1]
    assert theirs["unseen"][1 - 1] == 0
    assert cards_of(theirs["discard_cards"]) == [DESC_2[1][2]]  # the replaced card, now public
    mine = view(env, "player_1")
    assert mine["own_public"].tolist() == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]  # the taker knows what the others know
    assert not theirs["own_public"].any()


def test_a_known_card_becomes_unknown_when_its_slot_is_replaced_by_a_draw_pile_card():
    env = make(DESC_2, 1, draw=[2, 3, 4])
    play(env, "take discard", "swap 3", "draw", "discard", "draw", "swap 3")  # seat 1: 1 into slot 3, then 3 over it
    theirs = view(env, "player_0")
    assert not theirs["opp_known"].any() and not theirs["opp_known_cards"].any()
    assert cards_of(theirs["discard_top"]) == [1]  # 1 left the rack face up
    assert theirs["unseen"][3 - 1] == 1  # nobody but seat 1 saw the 3


def test_a_known_card_stays_known_when_replaced_by_another_discard_pile_card():
    env = make(DESC_2, 1, draw=[2, 3])
    play(env, "take discard", "swap 3", "draw", "discard", "take discard", "swap 3")  # 2 replaces 1 in slot 3
    theirs = view(env, "player_0")
    assert cards_of(theirs["opp_known_cards"][0]) == [2]
    assert np.isclose(theirs["opp_known"][0, 2], 2 / 40)


@pytest.mark.parametrize(
    "known, prefix",
    [
        ([0] * 10, 0),
        ([5, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0),  # slot 2 unseen: the prefix could be longer than 1
        ([5, 3, 0, 0, 0, 0, 0, 0, 0, 0], 1),
        ([5, 9, 12, 2, 0, 0, 0, 0, 0, 0], 3),
        ([5, 9, 12, 0, 1, 0, 0, 0, 0, 0], 0),
        ([0, 3, 1, 0, 0, 0, 0, 0, 0, 0], 0),  # slot 1 unseen
        (list(range(1, 11)), 10),
    ],
)
def test_opponent_prefix_is_known_only_when_all_its_slots_and_the_break_are_known(known, prefix):
    assert known_prefix(known) == prefix


def test_opponent_prefix_appears_in_the_observation_once_known():
    env = make(DESC_2, 1, draw=[2, 3])
    play(env, "take discard", "swap 1", "draw", "discard", "take discard", "swap 2")
    theirs = view(env, "player_0")  # seat 1: slot 1 = 1, slot 2 = 2, slot 3 unseen
    assert theirs["opp_prefix_known"][0] == 0 and theirs["opp_prefix"][0] == 0
    env = make(DESC_2, 1, draw=[2, 3])
    env.state.known[1][:2] = [30, 29]  # as if both were seen going there
    theirs = view(env, "player_0")
    assert theirs["opp_prefix_known"][0] == 1 and np.isclose(theirs["opp_prefix"][0], 0.1)


def test_after_an_unshuffled_turn_over_the_draw_pile_order_is_public():
    env = make(DESC_2, 1, draw=list(range(2, 21)))
    for _ in range(19):
        play(env, "draw", "discard")
    v = view(env, "player_0")
    assert v["draw_pile_public"][0] == 1
    depth = v["draw_pile_depth"]
    assert np.isclose(depth[2 - 1], 1 / 21) and np.isclose(depth[20 - 1], 19 / 21)
    assert cards_of(v["unseen"]) == list(range(21, 31))  # only the opponent's rack is hidden now
    play(env, "draw")  # seat 0 draws the 2, a public card
    assert cards_of(view(env, "player_1")["held_card"]) == [2]
    play(env, "swap 5")
    theirs = view(env, "player_1")
    assert np.isclose(theirs["opp_known"][0, 4], 2 / 40)


def test_after_a_reshuffled_turn_over_the_draw_pile_order_is_hidden():
    env = make(DESC_2, 1, draw=list(range(2, 21)), reshuffle=True)
    for _ in range(19):
        play(env, "draw", "discard")
    v = view(env, "player_0")
    assert v["draw_pile_public"][0] == 0 and not v["draw_pile_depth"].any()
    assert v["unseen"].sum() == 19 + 10  # the draw pile and the opponent's rack
    assert v["variants"].tolist() == [1, 0, 0, 0]


def test_seats_scores_and_dealer_are_relative_to_the_observer():
    env = make({0: DESC_2[0], 1: DESC_2[1], 2: [50, 49, 48, 47, 46, 45, 44, 43, 42, 41]}, 1, draw=[2], dealer=2)
    env.state.scores_ = [100, 200, 300]
    for seat in range(3):
        v = view(env, f"player_{seat}")
        assert np.allclose(v["scores"] * 500, [[100, 200, 300][(seat + r) % 3] for r in range(3)])
        assert v["dealer"].tolist() == [1.0 if (seat + r) % 3 == 2 else 0.0 for r in range(3)]
        assert v["current_player"].tolist() == [1.0 if (seat + r) % 3 == 0 else 0.0 for r in range(3)]


def test_unseen_cards_at_the_start_are_all_but_own_rack_and_discard():
    env = make(DESC_2, 1, draw=[2])
    v = view(env, "player_0")
    assert v["unseen"].sum() == 40 - 10 - 1
    assert v["round"][0] == pytest.approx(1 / 20) and v["round_turns"][0] == 0


def _hidden_slots(state, seat):
    """Every place whose card ``seat`` may not know: (kind, index) pairs."""
    n = state.num_seats
    places = []
    for s in range(n):
        if s != seat:
            places += [("rack", s, k) for k in range(10) if not state.known[s][k]]
    if not state.draw_public:
        places += [("draw", i) for i in range(len(state.draw_pile))]
    if state.phase == PHASE_PLACE and state.current != seat and not state.held_public:
        places.append(("held",))
    return places


def _get(state, place):
    if place[0] == "rack":
        return state.racks[place[1]][place[2]]
    if place[0] == "draw":
        return state.draw_pile[place[1]]
    return state.held


def _put(state, place, card):
    if place[0] == "rack":
        state.racks[place[1]][place[2]] = card
    elif place[0] == "draw":
        state.draw_pile[place[1]] = card
    else:
        state.held = card


@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 3, "reshuffle": True}, {"num_players": 4, "teams": True}])
def test_hidden_cards_never_change_what_a_seat_observes(options):
    config = GAME.make_config(**options)
    observer = GAME.make_observer(config)
    rng = np.random.default_rng(5)
    checked = 0
    for game in range(6):
        state = GAME.new_state(config, np.random.default_rng(game), {})
        step = 0
        while state.current_player() >= 0 and step < 400:
            if step % 7 == 0:
                for seat in range(config.num_players):
                    observer.set_from(state, seat)
                    before = observer.tensor.copy()
                    places = _hidden_slots(state, seat)
                    other = state.clone()
                    cards = [_get(other, p) for p in places]
                    for p, c in zip(places, rng.permutation(np.array(cards, dtype=np.int64)).tolist()):
                        _put(other, p, c)
                    observer.set_from(other, seat)
                    assert np.array_equal(before, observer.tensor), f"hidden cards leaked to seat {seat}"
                    # Sanity check that the test can fail: the observer's own rack does show.
                    other.racks[seat][0], other.racks[seat][1] = other.racks[seat][1], other.racks[seat][0]
                    observer.set_from(other, seat)
                    assert not np.array_equal(before, observer.tensor)
                    checked += 1
            state.apply_action(band_player(state, rng, eps=0.4))
            step += 1
    assert checked > 50


def test_observation_values_stay_within_zero_and_one_during_play():
    config = GAME.make_config(num_players=3, max_turns=200)
    observer = GAME.make_observer(config)
    layout = observer.layout
    rng = np.random.default_rng(2)
    state = GAME.new_state(config, rng, {})
    while state.current_player() >= 0:
        observer.set_from(state, state.current_player())
        t = observer.tensor
        assert t.dtype == np.float32 and t.min() >= 0.0
        assert t[layout.slices["scores"]].max() <= 2.0 and np.delete(t, np.r_[layout.slices["scores"]]).max() <= 1.0
        state.apply_action(band_player(state, rng, eps=0.3))


def test_docs_hold_the_generated_observation_tables_for_two_and_four_players():
    text = DOCS.read_text(encoding="utf-8")
    for n in (2, 4):
        assert f"<!-- generated: dix_de_suite-observation-n{n} -->" in text
        assert make_layout(GAME.make_config(num_players=n)).markdown_table() in text
