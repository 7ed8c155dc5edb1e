"""Why an action is illegal in dix de suite: each kind of illegality has its own reason, in the ValueError too."""

from __future__ import annotations

import pytest

from dixenv.games.dix_de_suite import actions as A
from tests.games.illegal import refused_reason

from .helpers import DESC_2, legal_strings, make, play


def _refused(env, text: str) -> str:
    """The reason for ``text``, checked to be in the ValueError of ``env.step`` that changes nothing."""
    snapshot = lambda: (env.state.render_text(), legal_strings(env))  # noqa: E731
    return refused_reason(env.state, env.string_to_action(text), env.step, snapshot, f"'{text}'", "legal actions: [")


def test_a_legal_action_has_no_reason():
    env = make(DESC_2, 1, draw=[2])
    assert [env.state.why_illegal(a) for a in env.legal_actions()] == ["", ""]


def test_a_card_taken_from_the_discard_pile_cannot_be_discarded():
    env = make(DESC_2, 1, draw=[2])
    play(env, "take discard")
    assert _refused(env, "discard") == "1 comes from the discard pile: it must go into your rack (swap K)"


def test_placing_before_taking_a_card_is_the_wrong_phase():
    env = make(DESC_2, 1, draw=[2])
    assert _refused(env, "swap 3") == "first take a card: draw, or take the discard pile's top card"
    assert _refused(env, "discard") == "first take a card: draw, or take the discard pile's top card"


@pytest.mark.parametrize("source, where", [("draw", "swap K, or discard it"), ("take discard", "swap K")])
def test_taking_a_second_card_is_the_wrong_phase(source, where):
    env = make(DESC_2, 1, draw=[2])
    play(env, source)
    held = env.state.held
    assert _refused(env, "draw") == f"you already hold {held}: place it ({where})"
    assert _refused(env, "take discard") == f"you already hold {held}: place it ({where})"


def test_the_game_over_and_out_of_range():
    env = make(DESC_2, 1, draw=[2], max_turns=1)
    assert env.state.why_illegal(A.NUM_ACTIONS) == f"there is no action {A.NUM_ACTIONS} (actions are 0..{A.NUM_ACTIONS - 1})"
    play(env, "draw", "discard")
    assert env.state.is_truncated() and env.state.why_illegal(A.DRAW) == "the game was cut short: a round reached max_turns=1"
