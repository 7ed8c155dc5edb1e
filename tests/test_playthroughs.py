"""The recorded playthroughs (tests/data/playthroughs/*.txt) replay line for line.

A failure shows the first line that differs; ``python -m tests.playthroughs --write`` rewrites the
files after a change of behaviour on purpose, and ``git diff`` then shows where play changed.
"""

from __future__ import annotations

import pytest

from tests.playthroughs import DIR, PLAYTHROUGHS, playthrough


def test_every_configuration_has_its_file():
    assert {p.stem for p in DIR.glob("*.txt")} == set(PLAYTHROUGHS)


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_the_game_replays_its_playthrough(name):
    want = (DIR / f"{name}.txt").read_text().splitlines()
    got = playthrough(name).splitlines()
    for k, (a, b) in enumerate(zip(want, got)):
        assert a == b, f"{name}.txt line {k + 1} differs:\n recorded: {a}\n now:      {b}"
    assert len(want) == len(got), f"{name}: {len(want)} lines recorded, {len(got)} now"
