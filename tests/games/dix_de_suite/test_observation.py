"""What each seat observes: its own rack, public knowledge, and never an opponent's hidden cards."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from dixenv import dix_de_suite_v0
from dixenv.games.dix_de_suite.game import GAME
from dixenv.games.dix_de_suite.observation import known_prefix, make_layout, max_rounds

from .helpers import DESC_2, NEAR_WIN, PREFIX_3, band_player, make, option_id, play, shuffle_hidden

DOCS = Path(__file__).resolve().parents[3] / "docs" / "games" / "dix_de_suite.md"


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
    assert v["round"][0] == pytest.approx(1 / 13) and v["round_turns"][0] == 0


@pytest.mark.parametrize(
    "options",
    [{"num_players": 2}, {"num_players": 3, "reshuffle": True}, {"num_players": 4, "teams": True}, {"num_players": 2, "reshuffle": True}],
)
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
                    other = shuffle_hidden(state, seat, rng)
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


BOUND_OPTIONS = [
    {"num_players": 2, "target_score": 150},
    {"num_players": 3, "reshuffle": True, "target_score": 150},
    {"num_players": 4, "teams": True, "run_bonus": True, "target_score": 100},
    {"num_players": 2, "two_player_run": True, "run_bonus": True, "reshuffle": True, "target_score": 60},
    {"num_players": 4, "reshuffle": True, "max_turns": 150, "target_score": 1},
]


@pytest.mark.parametrize("options", BOUND_OPTIONS, ids=option_id)
def test_observations_stay_within_the_layout_bounds_in_long_random_and_sorting_play(options):
    env = dix_de_suite_v0.raw_env(**options)
    layout = env.unwrapped.layout
    rng = np.random.default_rng(len(options))
    reshuffles = 0
    for game in range(12):
        env.reset(seed=game)
        eps = (0.0, 0.3, 1.0)[game % 3]  # 1.0: uniform random moves
        while True:
            for agent in env.possible_agents:
                obs = env.observe(agent)["observation"]
                assert layout.out_of_bounds(obs) == [], f"out of bounds for {agent}"
            if env.state.current_player() < 0:
                break
            reshuffles = max(reshuffles, env.state.pool)
            env.step(band_player(env.state, rng, eps))
    assert reshuffles >= 1 or not options.get("reshuffle")


def test_scores_bound_is_reached_by_a_seat_just_below_the_target_winning_with_the_top_run_bonus():
    # Seat 1 has 99 of 100 points and goes out with 1..10 in order: 75 + 400 for a run of 10.
    env = make({0: list(range(39, 29, -1)), 1: [1, 2, 3, 4, 5, 6, 7, 8, 9, 40]}, 10, draw=[11], run_bonus=True, target_score=100)
    env.state.scores_ = [0, 99]
    play(env, "take discard", "swap 10")
    assert env.state.is_terminal() and env.scores() == [5, 99 + 475]
    obs = env.observe("player_1")["observation"]
    layout = env.unwrapped.layout
    assert obs[layout.slices["scores"]][0] == pytest.approx(layout.high[layout.slices["scores"]][0])
    assert layout.out_of_bounds(obs) == []


@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 4}, {"num_players": 4, "teams": True}, {"num_players": 3, "target_score": 1}])
def test_no_game_lasts_more_rounds_than_the_round_scale(options):
    # max_rounds: each round adds at least 75 + 5 (n - 1) points in all, and every seat (team) is
    # below the target before the last round; a sorting player spreads wins, to come close.
    config = GAME.make_config(**options)
    rng = np.random.default_rng(1)
    longest = 0
    for game in range(8):
        state = GAME.new_state(config, np.random.default_rng(game), {})
        while state.current_player() >= 0:
            state.apply_action(band_player(state, rng, 0.2))
        longest = max(longest, state.round)
    assert longest <= max_rounds(config)
    assert longest >= max_rounds(config) // 3  # the scale is not absurdly loose


# --- slot history, pools, last turns and the previous round -----------------------------------------


def _swap_racks(racks, seat, a, b):
    """``racks`` with seat's slots a and b (1-based) exchanged."""
    out = {s: list(r) for s, r in racks.items()}
    out[seat][a - 1], out[seat][b - 1] = out[seat][b - 1], out[seat][a - 1]
    return out


def _differing_pieces(env_a, env_b, agent):
    a, b = view(env_a, agent), view(env_b, agent)
    return [name for name in a if not np.array_equal(a[name], b[name])]


def test_which_slot_a_hidden_draw_replaced_is_observed_even_when_the_rest_is_the_same():
    # Seat 1 puts its hidden draw in slot 3 (game a) or slot 5 (game b); the card that leaves is 28
    # in both (b's rack has 28 in slot 5). Before slot_recency, seat 0 saw the same in both games.
    a = make(DESC_2, 1, draw=[2, 3])
    b = make(_swap_racks(DESC_2, 1, 3, 5), 1, draw=[2, 3])
    play(a, "draw", "swap 3")
    play(b, "draw", "swap 5")
    assert _differing_pieces(a, b, "player_0") == ["slot_recency"]
    assert view(a, "player_0")["slot_recency"][1].tolist() == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]


def test_slot_recency_counts_the_players_own_turns_since_it_replaced_a_slot():
    env = make(DESC_2, 1, draw=[2, 3, 4, 5])
    play(env, "draw", "swap 3", "draw", "discard", "take discard", "swap 7", "draw", "swap 1")
    # seat 1 replaced slot 3 at its first turn and slot 7 at its second; seat 0 slot 1 at its second.
    theirs = view(env, "player_0")["slot_recency"]
    assert np.allclose(theirs[1], [0, 0, 1 / 2, 0, 0, 0, 1, 0, 0, 0])
    assert np.allclose(theirs[0], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    mine = view(env, "player_1")["slot_recency"]  # the same facts from seat 1's side: rows swap
    assert np.allclose(mine[0], theirs[1]) and np.allclose(mine[1], theirs[0])


def test_the_hidden_card_put_in_a_slot_changes_nothing_for_the_others():
    a = make(DESC_2, 1, draw=[2, 3])
    b = make(DESC_2, 1, draw=[3, 2])  # another hidden card on top of the draw pile
    play(a, "draw", "swap 3")
    play(b, "draw", "swap 3")
    assert _differing_pieces(a, b, "player_0") == []
    assert "own_rack" in _differing_pieces(a, b, "player_1")


def _reshuffled(racks=DESC_2, **options):
    """A 2-player game with reshuffle, right after the first turn-over (19 draws discarded)."""
    env = make(racks, 1, draw=list(range(2, 21)), reshuffle=True, **options)
    for _ in range(19):
        play(env, "draw", "discard")
    assert env.state.pool == 1
    return env


def test_after_a_reshuffle_the_cards_of_the_new_draw_pile_are_told_apart_from_cards_in_racks():
    env = _reshuffled()
    v = view(env, "player_0")
    top = cards_of(v["discard_top"])[0]
    pool = v["card_pool"]
    assert cards_of(pool == 1) == [c for c in range(1, 21) if c != top]  # the turned-over discard pile
    assert cards_of(pool == 0.5) == list(range(21, 41))  # the dealt cards (own rack included)
    assert v["unseen"].sum() == 19 + 10  # as before: those places are unseen either way
    assert np.all(v["slot_pool"] == 0.5)  # every slot still holds its dealt card


def test_which_cards_were_shuffled_into_the_draw_pile_is_public():
    # Game b deals 21 to the draw pile and 2 to seat 1's rack: at the turn-over, 21 is in the pile
    # and 2 in a rack. Seat 0 saw both go by, yet before card_pool both cards were just "unseen".
    racks_b = {0: DESC_2[0], 1: [30, 29, 28, 27, 26, 25, 24, 23, 22, 2]}
    a = _reshuffled()
    b = make(racks_b, 1, draw=[21] + list(range(3, 21)), reshuffle=True)
    for _ in range(19):
        play(b, "draw", "discard")
    assert a.state.discard == b.state.discard  # the same card starts the new discard pile
    assert _differing_pieces(a, b, "player_0") == ["card_pool"]


def test_the_order_of_a_reshuffled_draw_pile_stays_hidden():
    env = _reshuffled()
    other = _with_state(env, env.state.clone())
    other.state.draw_pile.reverse()
    assert _differing_pieces(env, other, "player_0") == [] and _differing_pieces(env, other, "player_1") == []


def _with_state(env, state):
    """A second raw env with ``env``'s options, showing ``state``."""
    other = dix_de_suite_v0.raw_env(**dataclasses.asdict(env.config))
    other.reset(seed=0)
    other.state = state
    return other


def test_a_slot_filled_from_the_reshuffled_pile_joins_its_pool():
    env = _reshuffled()
    player = env.agent_selection
    play(env, "draw", "swap 4")
    seat = int(player[-1])
    v = view(env, f"player_{1 - seat}")
    assert v["slot_pool"][1].tolist() == [0.5, 0.5, 0.5, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
    assert v["slot_recency"][1][3] == 1
    out = cards_of(v["discard_top"])[0]
    assert v["card_pool"][out - 1] == 0  # the card that left the slot is seen


def test_a_second_reshuffle_makes_the_first_reshuffled_pool_older():
    env = _reshuffled()
    assert env.agent_selection == "player_0"
    play(env, "draw", "swap 4")  # a pool-1 card into seat 0's slot 4
    for _ in range(18):
        play(env, "draw", "discard")
    assert env.state.pool == 2
    v = view(env, "player_1")
    assert v["slot_pool"][1][3] == pytest.approx(1 / 2)  # pool 1 is one reshuffle old now
    assert v["slot_pool"][1][0] == pytest.approx(1 / 3)  # the dealt cards: two reshuffles old
    pool1 = cards_of(np.isclose(v["card_pool"], 1 / 2))
    assert pool1 == [env.state.racks[0][3]]  # pool 1's only place is that slot: its card is deduced


def test_last_turn_shows_what_each_player_did_and_the_card_it_put_on_the_discard_pile():
    env = make(DESC_2, 1, draw=[2, 3])
    v = view(env, "player_0")
    assert not v["last_turn"].any() and not v["last_turn_card"].any()
    play(env, "draw", "discard")  # seat 1 drew 2 and discarded it
    v = view(env, "player_0")
    assert v["last_turn"][1].tolist() == [1, 0, 0] and v["last_turn_card"][1] == pytest.approx(2 / 40)
    play(env, "take discard", "swap 2")  # seat 0 took 2 and put out 39
    v = view(env, "player_1")
    assert v["last_turn"].tolist() == [[1, 0, 0], [0, 0, 1]]
    assert v["last_turn_card"][1] == pytest.approx(39 / 40)
    play(env, "draw", "swap 9")  # seat 1: 3 into slot 9, 22 out
    v = view(env, "player_0")
    assert v["last_turn"][1].tolist() == [0, 1, 0] and v["last_turn_card"][1] == pytest.approx(22 / 40)


def test_the_previous_rounds_winner_and_points_are_observed_in_the_next_round():
    env = make({0: PREFIX_3, 1: NEAR_WIN}, 4, draw=[30])
    assert not view(env, "player_0")["last_round_winner"].any()
    play(env, "draw", "swap 10")  # seat 1 goes out: 75, seat 0 scores 15
    assert env.state.round == 2
    v = view(env, "player_0")
    assert v["last_round_winner"].tolist() == [0, 1]
    assert np.allclose(v["last_round_points"] * 75, [15, 75])
    assert not v["last_turn"].any() and not v["slot_recency"].any()  # a fresh round


def test_a_different_prefix_of_the_loser_shows_in_the_previous_round_points():
    a = make({0: PREFIX_3, 1: NEAR_WIN}, 4, draw=[30], seed=3)
    b = make({0: [10, 12, 14, 16, 20, 21, 22, 23, 24, 1], 1: NEAR_WIN}, 4, draw=[30], seed=3)  # prefix 9
    play(a, "draw", "swap 10")
    play(b, "draw", "swap 10")
    assert _differing_pieces(a, b, "player_1") == ["scores", "last_round_points"]


def test_docs_hold_the_generated_observation_tables_for_two_and_four_players():
    text = DOCS.read_text(encoding="utf-8")
    for n in (2, 4):
        assert f"<!-- generated: dix_de_suite-observation-n{n} -->" in text
        assert make_layout(GAME.make_config(num_players=n)).markdown_table() in text
