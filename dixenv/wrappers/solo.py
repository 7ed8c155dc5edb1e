"""The solo game of dix against ALIX as a single-agent Gymnasium environment.

``gymnasium.make("dixenv/DixSolo-v0", difficulty=6)``: the learner is ``player_0`` and starts;
the environment plays ALIX (seat 1) by the solo rules. Other keyword options are the dix
options (``reward``, ``auto_forced``, ``auto_pay``, ``bust_buy``, ``render_mode``, …);
``illegal_action`` ("lose", the default: an illegal action ends the episode with reward −1; "raise":
``ValueError``) as for every single-agent id; ``render_viewer`` ("learner", the default, "spectator" or a seat) is whose view ``rgb_array``
pictures show (everything in dix is public but the draw pile's order, so it only tags the seat).
"""

from __future__ import annotations

from typing import Any

from dixenv.wrappers.single_agent import SingleAgentEnv


class DixSoloEnv(SingleAgentEnv):
    """dix, solo against ALIX at a difficulty of 4 (easy) to 10 (very hard)."""

    def __init__(
        self, difficulty: int = 4, illegal_action: str = "lose", render_viewer: int | str = "learner", **options: Any
    ):
        from dixenv import dix_v0

        for implied in ("solo", "num_players"):
            if implied in options:
                raise ValueError(
                    f"option {implied}={options[implied]!r} does not apply to dixenv/DixSolo-v0: it is always the solo game "
                    "(solo=True, 2 seats: you and ALIX); pass difficulty=4..10 and the other dix options"
                )

        super().__init__(
            dix_v0.raw_env(solo=True, difficulty=difficulty, **options), illegal_action=illegal_action, render_viewer=render_viewer
        )
