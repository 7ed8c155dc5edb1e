"""Session set-up: the test-only game (tests/toy_game.py) joins the registry, so every test
parametrised over the registered games plays it too, without any library file naming it."""

from tests import toy_game

toy_game.register()
