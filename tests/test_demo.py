"""The demo: narration, GIFs with one frame per decision, still pictures of a chosen move, argument errors."""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest
from PIL import Image

from dixenv import demo, le_dix_v0
from dixenv.render import table_array

SHORT_LE_DIX = ["le_dix", "--players", "3", "--option", "deals=(2,)"]


def _run(argv: list[str]) -> tuple[int, list[str]]:
    lines: list[str] = []
    status = demo.main(argv, print_fn=lambda *a: lines.append(" ".join(str(x) for x in a)))
    return status, lines


def _decisions(lines: list[str]) -> list[str]:
    return [line for line in lines if re.fullmatch(r"player_\d: .+", line)]


def test_the_demo_narrates_every_decision_and_ends_with_the_scores():
    status, lines = _run(SHORT_LE_DIX)
    assert status == 0
    moves = _decisions(lines)
    assert moves and re.search(rf"game over after {len(moves)} decisions; scores: \[", lines[-1])


def test_the_default_agents_finish_a_dix_de_suite_game():
    # uniform random players never sort a rack; the heuristics reach the target
    scores = demo.play_game("dix_de_suite", seed=1, print_fn=lambda *a: None, target_score=100)
    assert max(scores) >= 100


def test_the_solo_game_is_narrated_for_the_one_agent():
    status, lines = _run(["dix", "--solo", "--difficulty", "6", "--seed", "2"])
    assert status == 0 and _decisions(lines)
    assert all(line.startswith("player_0: ") for line in _decisions(lines))


def test_the_gif_has_one_frame_per_decision_after_the_start(tmp_path):
    path = tmp_path / "game.gif"
    status, lines = _run(SHORT_LE_DIX + ["--gif", str(path), "--fps", "4"])
    assert status == 0
    with Image.open(path) as gif:
        assert gif.n_frames == len(_decisions(lines)) + 1
        assert gif.info["duration"] == 250


def test_a_game_longer_than_max_frames_still_ends_on_its_final_position(tmp_path):
    path = tmp_path / "game.gif"
    status, lines = _run(SHORT_LE_DIX + ["--gif", str(path), "--max-frames", "4"])
    assert status == 0 and len(_decisions(lines)) > 4
    with Image.open(path) as gif:
        assert gif.n_frames == 5
        gif.seek(4)
        last = np.array(gif.convert("RGB"))
    final = _replay(lines, len(_decisions(lines)))
    assert last.shape == final.shape
    assert np.mean(np.abs(last.astype(int) - final.astype(int))) < 3  # the same picture, up to the GIF's palette


def _replay(lines: list[str], moves: int) -> np.ndarray:
    """The spectator's picture of SHORT_LE_DIX (seed 0) after the first ``moves`` narrated decisions."""
    env = le_dix_v0.env(num_players=3, deals=(2,))
    env.reset(seed=0)
    narrated = _decisions(lines)[:moves]
    for line in narrated:
        agent, action = line.split(": ", 1)
        assert env.agent_selection == agent
        env.step(env.unwrapped.string_to_action(action))
    return table_array("le_dix", env.unwrapped.state, None, narrated[-2:])


def test_the_png_is_the_table_after_the_asked_number_of_decisions(tmp_path):
    path = tmp_path / "table.png"
    status, lines = _run(SHORT_LE_DIX + ["--png", str(path), "--at", "3"])
    assert status == 0
    assert np.array_equal(np.array(Image.open(path).convert("RGB")), _replay(lines, 3))


def test_a_seat_view_narrates_other_dealers_discards_face_down():
    env = le_dix_v0.env(num_players=3)
    discard = env.unwrapped.string_to_action("discard TH")
    assert demo.narrate(env, "player_2", discard, viewer=1) == "player_2: discards a card face down"
    assert demo.narrate(env, "player_2", discard, viewer=2) == "player_2: discard TH"
    assert demo.narrate(env, "player_2", discard, viewer=None) == "player_2: discard TH"


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--at", "2"], "--at 2 needs --png"),
        (["--gif", "x.gif", "--fps", "0"], "--fps 0.0 must be above 0"),
        (["--gif", "x.gif", "--max-frames", "0"], "--max-frames 0 must be at least 1"),
        (["--viewer", "7"], "render_viewer=7"),
        (["--agents", "genius"], "unknown agent 'genius'"),
    ],
)
def test_bad_arguments_exit_2_with_a_message_and_write_nothing(tmp_path, monkeypatch, extra, message):
    monkeypatch.chdir(tmp_path)
    status, lines = _run(SHORT_LE_DIX + extra)
    assert status == 2 and message in lines[-1]
    assert not list(tmp_path.iterdir())


def test_a_move_past_the_end_of_the_game_is_an_error(tmp_path):
    status, lines = _run(SHORT_LE_DIX + ["--png", str(tmp_path / "t.png"), "--at", "999"])
    assert status == 2 and "past the end of the game" in lines[-1]
    assert not (tmp_path / "t.png").exists()


def test_pictures_without_pillow_name_the_render_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    status, lines = _run(SHORT_LE_DIX + ["--gif", str(tmp_path / "g.gif")])
    assert status == 2 and "dixenv[render]" in lines[-1]
