"""The engines, encoders, scorer and agents still play the recorded corpus bit for bit.

The digests in ``tests/data/behaviour_corpus.json`` were recorded before the speed work on the
engines, the observation encoders, the dix scorer and the heuristics (``tests/behaviour_corpus.py``
says what each digest covers and how to record a larger corpus). A change of behaviour on purpose
rewrites that file (the command is in the module docstring of ``tests/behaviour_corpus.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.behaviour_corpus import CONFIGS, play_game, scorer_digest

CORPUS = json.loads((Path(__file__).parent / "data" / "behaviour_corpus.json").read_text())
RECORDED = [c for c in CONFIGS if c.name in CORPUS["configs"]]


def test_corpus_covers_every_stable_configuration() -> None:
    assert {c.name for c in CONFIGS if c.stable} == set(CORPUS["configs"])


@pytest.mark.parametrize("config", RECORDED, ids=lambda c: c.name)
def test_games_replay_the_recorded_observations_actions_and_scores(config) -> None:
    for game, want in enumerate(CORPUS["configs"][config.name]):
        digest, steps = play_game(config, game)
        assert steps > 0
        assert digest == want, f"{config.name} game {game}: play differs from the recorded corpus"


def test_scorers_replay_the_recorded_scores_of_random_collections() -> None:
    assert scorer_digest(CORPUS["scorer"]["count"]) == CORPUS["scorer"]["digest"]
