"""The demo: every event of the move log narrated, GIFs with one frame per decision, still pictures, argument errors."""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest
from PIL import Image

from dixenv import demo, le_dix_v0
from dixenv.agents.registry import make_agent
from dixenv.render import table_array
from dixenv.views import event_lines

SHORT_LE_DIX = ["le_dix", "--players", "3", "--option", "deals=(2,)"]
GAME_OVER = re.compile(r"game over after (\d+) decisions \((\d+) events\); scores: \[")


def _run(argv: list[str]) -> tuple[int, list[str]]:
    lines: list[str] = []
    status = demo.main(argv, print_fn=lambda *a: lines.append(" ".join(str(x) for x in a)))
    return status, lines


def _decisions(lines: list[str]) -> int:
    """The number of decisions the demo reports at the end of the game."""
    return int(next(m for line in lines if (m := GAME_OVER.search(line))).group(1))


def _play(game: str, viewer=None, **options) -> tuple[list[str], object]:
    """The printed lines of ``demo.play_game`` and its raw env (after the game)."""
    lines: list[str] = []
    seen: list = []
    demo.play_game(game, seed=1, viewer=viewer, on_move=seen.append, print_fn=lines.append, **options)
    return lines, seen[-1]


def test_the_demo_prints_every_event_in_order_between_the_first_and_the_last_table():
    lines, raw = _play("le_dix", num_players=3, deals=(3, 2))
    narrated = event_lines(raw.events, None)
    assert lines[1 : 1 + len(narrated)] == narrated  # the table first, then every event
    assert lines[-2] == raw.render() and lines[0].startswith("le_dix — deal 1/2")
    assert GAME_OVER.search(lines[-1]).group(2) == str(len(raw.events))


def test_the_le_dix_demo_shows_every_card_played_with_deal_and_trick_markers():
    lines, raw = _play("le_dix", num_players=4, deals=(3, 2))
    plays = [line for line in lines if re.fullmatch(r"  player_\d plays [2-9TJQKA][SHDC]( \(forced\))?", line)]
    assert len(plays) == 4 * (3 + 2)  # the forced plays the environment made too
    assert any(line.endswith("(forced)") for line in plays)
    assert sum(line.startswith("── deal 1/2") or line.startswith("── deal 2/2") for line in lines) == 2
    assert sum(line.startswith("── trick ") for line in lines) == 5
    assert sum(line.startswith("── deal 1 scores:") or line.startswith("── deal 2 scores:") for line in lines) == 2


def test_the_solo_demo_shows_alix_turns_first_draws_and_automatic_payments():
    lines, raw = _play("dix", solo=True, difficulty=6)
    text = "\n".join(lines)
    assert "── turn of ALIX" in text and "  ALIX draws " in text and "  ALIX takes the numbers" in text
    first = lines.index(next(line for line in lines if line.startswith("── turn of player_0")))
    assert lines[first + 1].startswith("  player_0 draws ")  # the draw the game made by itself
    assert all(e.kind != "move" or e.seat == 0 for e in raw.events)  # only the agent decides; ALIX's moves are automatic
    assert any(e.kind == "auto" and e.seat == 1 and " pays " in e.text for e in raw.events)  # her payments are shown


def test_the_default_agents_finish_a_dix_de_suite_game():
    # uniform random players never sort a rack; the heuristics reach the target
    lines, raw = _play("dix_de_suite", target_score=100)
    assert max(raw.scores()) >= 100 and raw.state.is_terminal()
    assert any(line.startswith("── round 1 won by ") for line in lines)
    assert any(line.startswith("── game over: ") for line in lines)


def test_a_seat_view_narrates_only_what_that_seat_may_know():
    lines, raw = _play("le_dix", viewer=1, num_players=3, deals=(3, 2, 1))
    assert event_lines(raw.events, 1) == [line for line in lines if line.startswith("  ") or line.startswith("── ")]
    dealt = [line for line in lines if " is dealt " in line]
    assert all(re.fullmatch(r"  player_\d is dealt \d cards?", line) for line in dealt if not line.startswith("  player_1 "))
    assert any(re.fullmatch(r"  player_1 is dealt( [2-9TJQKA][SHDC])+", line) for line in dealt)
    assert not any(re.match(r"  player_[02] discards [2-9TJQKA][SHDC]", line) for line in lines)
    assert "you are player_1" in lines[0]  # the table from the seat's own view, not the whole table


def test_the_gif_has_one_frame_per_decision_after_the_start(tmp_path):
    path = tmp_path / "game.gif"
    status, lines = _run(SHORT_LE_DIX + ["--gif", str(path), "--fps", "4"])
    assert status == 0
    with Image.open(path) as gif:
        assert gif.n_frames == _decisions(lines) + 1
        assert gif.info["duration"] == 250


def test_a_game_longer_than_max_frames_still_ends_on_its_final_position(tmp_path):
    path = tmp_path / "game.gif"
    status, lines = _run(SHORT_LE_DIX + ["--gif", str(path), "--max-frames", "4"])
    assert status == 0 and _decisions(lines) > 4
    with Image.open(path) as gif:
        assert gif.n_frames == 5
        gif.seek(4)
        last = np.array(gif.convert("RGB"))
    final = _replay(_decisions(lines))
    assert last.shape == final.shape
    assert np.mean(np.abs(last.astype(int) - final.astype(int))) < 3  # the same picture, up to the GIF's palette


def _replay(moves: int) -> np.ndarray:
    """The spectator's picture of SHORT_LE_DIX (seed 0, heuristics) after its first ``moves`` decisions, played here."""
    env = le_dix_v0.env(num_players=3, deals=(2,), record_events=True)
    env.reset(seed=0)
    players = {a: make_agent("le_dix", "heuristic", env, seed=k) for k, a in enumerate(env.possible_agents)}
    for _ in range(moves):
        agent = env.agent_selection
        env.step(players[agent].act(env.observe(agent)))
    caption = [e.text for e in env.unwrapped.events[-2:]]
    return table_array("le_dix", env.unwrapped.state, None, caption)


def test_the_png_is_the_table_after_the_asked_number_of_decisions(tmp_path):
    path = tmp_path / "table.png"
    status, lines = _run(SHORT_LE_DIX + ["--png", str(path), "--at", "3"])
    assert status == 0
    assert np.array_equal(np.array(Image.open(path).convert("RGB")), _replay(3))


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
