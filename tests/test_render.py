"""Pictures of the table: render_mode="rgb_array", the viewer option, hidden cards, Stable-Baselines3's make_vec_env."""

from __future__ import annotations

import multiprocessing
import sys

import gymnasium
import numpy as np
import pytest

import dixenv  # noqa: F401  (registers the Gymnasium ids)
from dixenv import dix_de_suite_v0, dix_v0, le_dix_v0
from dixenv.core.events import Event
from dixenv.games.dix.cards import CARD_NAMES as DIX_CARD_NAMES
from tests.games.dix_de_suite.helpers import stacked_deck as rack_deck
from tests.games.le_dix.helpers import stacked_deck as hand_deck

MODULES = {"le_dix": le_dix_v0, "dix_de_suite": dix_de_suite_v0, "dix": dix_v0}
TABLES = [("le_dix", 3), ("le_dix", 5), ("dix_de_suite", 2), ("dix_de_suite", 4), ("dix", 2), ("dix", 5)]
GYMNASIUM_IDS = sorted(i for i in gymnasium.registry if i.startswith("dixenv/"))


def _random_moves(env, moves: int, seed: int = 0) -> None:
    """Play up to ``moves`` uniformly random legal moves on a raw env (fewer if the game ends)."""
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        legal = env.legal_actions()
        if not legal:
            return
        env.step(int(rng.choice(legal)))


def _pictures(make, viewers, options, moves=()):
    """For each viewer, the picture of a raw env made by ``make(viewer)``, reset with ``options``, after ``moves``."""
    out = []
    for viewer in viewers:
        env = make(viewer)
        env.reset(seed=0, options=options)
        for text in moves:
            env.step(env.string_to_action(text))
        out.append(env.render())
    return out


# --- the picture ------------------------------------------------------------------------------


@pytest.mark.parametrize("game,players", TABLES)
def test_rgb_array_is_a_fixed_size_hxwx3_uint8_picture_that_changes_as_the_game_moves(game, players):
    env = MODULES[game].raw_env(num_players=players, render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    assert first.ndim == 3 and first.shape[2] == 3 and first.shape[0] > 200 and first.shape[1] > 200
    env.step(env.legal_actions()[0])
    second = env.render()
    assert second.shape == first.shape
    assert not np.array_equal(first, second)
    _random_moves(env, 60)
    assert env.render().shape == first.shape


@pytest.mark.parametrize(
    "game,options",
    [("le_dix", {"num_players": 3, "deals": (2,)}), ("dix_de_suite", {"max_turns": 6}), ("dix", {"solo": True}), ("dix", {"num_players": 3})],
)
def test_the_last_position_of_a_game_is_drawn(game, options):
    env = MODULES[game].raw_env(render_mode="rgb_array", **options)
    env.reset(seed=2)
    _random_moves(env, 100_000)
    assert env.state.current_player() == -1
    assert env.render().shape[2] == 3


def test_the_wrapped_env_and_the_gymnasium_envs_render_pictures():
    wrapped = le_dix_v0.env(render_mode="rgb_array")
    wrapped.reset(seed=0)
    assert wrapped.render().dtype == np.uint8
    for env_id in GYMNASIUM_IDS:
        env = gymnasium.make(env_id, render_mode="rgb_array")
        env.reset(seed=0)
        picture = env.render()
        assert picture.dtype == np.uint8 and picture.ndim == 3, env_id
        env.close()


def test_rgb_array_does_not_record_the_move_log_unless_asked():
    assert le_dix_v0.raw_env(render_mode="rgb_array").record_events is False
    assert le_dix_v0.raw_env(render_mode="rgb_array", record_events=True).record_events is True
    assert le_dix_v0.raw_env(render_mode="ansi").record_events is True


def test_render_before_reset_says_so():
    with pytest.raises(RuntimeError, match="before reset"):
        le_dix_v0.raw_env(render_mode="rgb_array").render()


# --- the viewer -------------------------------------------------------------------------------


def test_the_aec_default_viewer_is_the_spectator_and_the_gymnasium_default_the_learner():
    assert le_dix_v0.raw_env().render_viewer == "spectator"
    assert gymnasium.make("dixenv/LeDix-v0", learner_seat=2).unwrapped.render_viewer == 2
    assert gymnasium.make("dixenv/DixSolo-v0").unwrapped.render_viewer == 0
    assert gymnasium.make("dixenv/DixDeSuite-v0", render_viewer="spectator").unwrapped.render_viewer == "spectator"


def test_the_gymnasium_picture_is_the_learners_view():
    gym_env = gymnasium.make("dixenv/LeDix-v0", num_players=4, learner_seat=1, render_mode="rgb_array")
    gym_env.reset(seed=3)
    aec = gym_env.unwrapped.aec
    seen = gym_env.render()
    aec.render_viewer = "spectator"
    everything = aec.render()
    aec.render_viewer = 1
    assert np.array_equal(seen, aec.render())
    assert not np.array_equal(seen, everything)


def test_setting_the_viewer_on_the_wrapped_env_reaches_the_raw_env():
    env = le_dix_v0.env(render_viewer=2)
    assert env.render_viewer == 2
    env.render_viewer = "spectator"
    assert env.unwrapped.render_viewer == "spectator"


@pytest.mark.parametrize("viewer", [4, -1, "player_0", "everyone", True, 1.0])
def test_a_bad_viewer_is_refused_naming_the_option_and_the_allowed_values(viewer):
    with pytest.raises(ValueError, match=r"render_viewer=.*seat 0\.\.3.*'spectator'"):
        le_dix_v0.raw_env(num_players=4, render_viewer=viewer)
    env = le_dix_v0.raw_env(num_players=4)
    with pytest.raises(ValueError, match="render_viewer"):
        env.render_viewer = viewer
    assert env.render_viewer == "spectator"  # nothing changed


def test_a_bad_gymnasium_viewer_names_learner_among_the_allowed_values():
    with pytest.raises(ValueError, match="'learner'"):
        gymnasium.make("dixenv/LeDix-v0", render_viewer="nobody")


def test_construction_needs_no_pillow_and_render_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now fails
    env = le_dix_v0.raw_env(render_mode="rgb_array")
    env.reset(seed=0)
    with pytest.raises(ImportError, match=r"dixenv\[render\]"):
        env.render()


# --- a seat's view draws no hidden card -------------------------------------------------------

LE_DIX_HANDS = {
    0: ["AS", "KS", "QS"],
    1: ["2H", "3H", "4H"],
    2: ["5D", "6D", "7D"],
    3: ["8C", "9C", "TC"],
}


def _le_dix_env(viewer):
    return le_dix_v0.raw_env(num_players=4, deals=(3,), render_mode="rgb_array", render_viewer=viewer)


def _le_dix_deck(swap: dict[int, list[str]] | None = None) -> dict:
    hands = {**LE_DIX_HANDS, **(swap or {})}
    return {"deck": hand_deck(hands, "JS", dealer=3, num_players=4), "dealer": 3}


def test_le_dix_seat_view_is_the_same_when_only_other_hands_differ():
    swapped = {1: ["2H", "3H", "5D"], 2: ["4H", "6D", "7D"]}  # 4H and 5D change hands between seats 1 and 2
    a = _pictures(_le_dix_env, [0, 3, None], _le_dix_deck())
    b = _pictures(_le_dix_env, [0, 3, None], _le_dix_deck(swapped))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[2], b[2])  # the spectator sees the hands


def test_le_dix_seat_view_is_the_same_when_only_the_undealt_cards_differ():
    a = _pictures(_le_dix_env, [0, None], {"deck": hand_deck(LE_DIX_HANDS, "JS", 3, 4) + ["2C"], "dealer": 3})
    b = _pictures(_le_dix_env, [0, None], {"deck": hand_deck(LE_DIX_HANDS, "JS", 3, 4) + ["3C"], "dealer": 3})
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])  # undealt cards are drawn for nobody


def test_le_dix_dealers_discard_is_face_down_to_the_others():
    # The dealer (seat 3) takes the trump and discards 8C; in the other game 8C and 2H changed
    # hands (dealer and seat 1) and the dealer discards 2H: the hands left are the same.
    a = _pictures(_le_dix_env, [0, 1, 3, None], _le_dix_deck(), ["take trump", "discard 8C"])
    swapped = {1: ["8C", "3H", "4H"], 3: ["2H", "9C", "TC"]}
    b = _pictures(_le_dix_env, [0, 1, 3, None], _le_dix_deck(swapped), ["take trump", "discard 2H"])
    assert np.array_equal(a[0], b[0])  # seat 0 sees neither the discard nor seat 1's hand
    assert not np.array_equal(a[1], b[1])  # seat 1 sees its own hand
    assert not np.array_equal(a[2], b[2])  # the dealer sees its discard
    assert not np.array_equal(a[3], b[3])


RACKS = {0: list(range(1, 11)), 1: list(range(11, 21)), 2: list(range(21, 31))}  # 3 players: cards 1..50
DRAW = list(range(32, 51))  # the draw pile, top first (31 starts the discard pile)


def _dds_env(viewer):
    return dix_de_suite_v0.raw_env(num_players=3, render_mode="rgb_array", render_viewer=viewer)


def _dds_deck(racks=None, discard=31, draw=DRAW) -> dict:
    return {"deck": rack_deck({**RACKS, **(racks or {})}, discard, draw, dealer=0), "dealer": 0}


def test_dix_de_suite_seat_view_is_the_same_when_only_hidden_rack_slots_differ():
    # card 15 moves from seat 1's rack into the draw pile, card 45 the other way
    rack1 = [11, 12, 13, 14, 45, 16, 17, 18, 19, 20]
    draw = [15 if c == 45 else c for c in DRAW]
    a = _pictures(_dds_env, [0, None], _dds_deck())
    b = _pictures(_dds_env, [0, None], _dds_deck({1: rack1}, draw=draw))
    assert np.array_equal(a[0], b[0])
    assert not np.array_equal(a[1], b[1])


def test_dix_de_suite_a_card_drawn_from_the_hidden_pile_is_hidden_from_the_others():
    # Seat 1 (left of the dealer) plays first: it draws the top of the draw pile, 32 or 40.
    other = [40 if c == 32 else 32 if c == 40 else c for c in DRAW]
    a = _pictures(_dds_env, [0, 1, None], _dds_deck(), ["draw"])
    b = _pictures(_dds_env, [0, 1, None], _dds_deck(draw=other), ["draw"])
    assert np.array_equal(a[0], b[0])
    assert not np.array_equal(a[1], b[1])  # the drawer sees its card
    assert not np.array_equal(a[2], b[2])
    # once placed in a slot, nobody else saw which card went there
    a = _pictures(_dds_env, [0, 2], _dds_deck(), ["draw", "swap 3"])
    b = _pictures(_dds_env, [0, 2], _dds_deck(draw=other), ["draw", "swap 3"])
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_dix_de_suite_a_card_taken_from_the_discard_pile_is_shown_in_its_slot():
    # The discard pile is public: which card seat 1 took and where it put it is seen by all.
    other = [31 if c == 45 else c for c in DRAW]
    a = _pictures(_dds_env, [0], _dds_deck(), ["take discard", "swap 3"])
    b = _pictures(_dds_env, [0], _dds_deck(discard=45, draw=other), ["take discard", "swap 3"])
    assert not np.array_equal(a[0], b[0])


def test_dix_seat_and_spectator_views_are_the_same_when_only_the_draw_pile_order_differs():
    env = dix_v0.raw_env(num_players=3)
    env.reset(seed=4)
    top_first = [DIX_CARD_NAMES[t] for t in reversed(env.state.pile)]
    k = next(i for i in range(40, len(top_first)) if top_first[i] != top_first[30])
    other = list(top_first)
    other[30], other[k] = other[k], other[30]  # deep in the pile: not drawn in the first moves

    def make(viewer):
        return dix_v0.raw_env(num_players=3, render_mode="rgb_array", render_viewer=viewer)

    first = _pictures(make, [0, 1, None], {"deck": top_first, "first_player": 0})
    second = _pictures(make, [0, 1, None], {"deck": other, "first_player": 0})
    assert all(np.array_equal(x, y) for x, y in zip(first, second))


def test_the_caption_shows_each_viewer_only_its_part_of_an_event():
    pictures = []
    for hidden in ("7H", "8H"):
        for viewer in (0, 2, None):
            env = le_dix_v0.raw_env(num_players=4, render_mode="rgb_array", render_viewer=viewer, record_events=True)
            env.reset(seed=0)
            env.events.append(Event(2, f"player_2 discards {hidden} face down", "player_2 discards a card face down"))
            pictures.append(env.render())
    zero_a, two_a, spec_a, zero_b, two_b, spec_b = pictures
    assert np.array_equal(zero_a, zero_b)
    assert not np.array_equal(two_a, two_b) and not np.array_equal(spec_a, spec_b)


# --- Stable-Baselines3 --------------------------------------------------------------------------


@pytest.mark.parametrize("vec_env", ["dummy", "subproc"])
def test_make_vec_env_works_on_every_registered_gymnasium_id(vec_env):
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    cls = {"dummy": DummyVecEnv, "subproc": SubprocVecEnv}[vec_env]
    if vec_env == "subproc":
        # Workers fork from the forkserver: with SB3 (and so torch) loaded there once, each worker
        # starts in a moment instead of importing torch again (no effect if the server already runs).
        multiprocessing.set_forkserver_preload(["stable_baselines3.common.vec_env.subproc_vec_env"])
    assert len(GYMNASIUM_IDS) >= 4
    for env_id in GYMNASIUM_IDS:
        # SubprocVecEnv's workers start afresh (forkserver): the "module:" prefix makes Gymnasium
        # import dixenv there, which registers the ids (a script that imports dixenv needs no prefix).
        name = env_id if vec_env == "dummy" else f"dixenv:{env_id}"
        venv = make_vec_env(name, n_envs=2, seed=0, vec_env_cls=cls)  # passes render_mode="rgb_array"
        try:
            obs = venv.reset()
            assert obs.shape == (2, *venv.observation_space.shape), env_id
            masks = np.stack(venv.env_method("action_masks"))
            venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
            pictures = venv.get_images()
            assert len(pictures) == 2 and all(p.dtype == np.uint8 and p.ndim == 3 for p in pictures), env_id
        finally:
            venv.close()
