"""A test-only game registered from the tests alone: proof that a game needs no library file edited.

"High card": cards 1..9 are shuffled, each seat is dealt one hidden card, and each seat in turn,
twice around the table, keeps its card or swaps it for the top of the deck (the old card is
discarded face up). The highest card wins; a tie shares the place. 2–3 players.

Everything the library needs is below: rules (``ToyState``), an observer on a ``Layout``, the
``Game`` record, PettingZoo's ``raw_env`` / ``env``, and the ``GameSpec`` that ``register()`` adds
(tests/conftest.py calls it, so every test parametrised over the registry plays this game too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from dixenv.core.aec import CardGameEnv, wrap
from dixenv.core.game import Game
from dixenv.core.layout import Layout, Piece
from dixenv.core.options import check_choice, refuse_unknown_options, warn_unknown_reset_keys
from dixenv.games import GameSpec, SoakConfig, game_names, register_game

CARDS, KEEP, SWAP = 9, 0, 1
ACTIONS = ("keep", "swap")


@dataclass(frozen=True)
class ToyConfig:
    num_players: int = 2


def make_config(**options: Any) -> ToyConfig:
    refuse_unknown_options("toy", options, ("num_players",))
    return ToyConfig(check_choice("num_players", options.get("num_players", 2), (2, 3)))


class ToyState:
    def __init__(self, config: ToyConfig, rng: np.random.Generator, events: list | None = None):
        self.config, self.num_seats, self.events = config, config.num_players, events
        deck = [int(c) for c in rng.permutation(np.arange(1, CARDS + 1))]
        self.hands, self.deck, self.discards, self.turn = deck[: self.num_seats], deck[self.num_seats :], [], 0

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.turn % self.num_seats

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [KEEP, SWAP]

    def why_illegal(self, action: int) -> str:
        if self.is_terminal():
            return "the game is over"
        return "" if action in (KEEP, SWAP) else f"action {action!r} is not keep (0) or swap (1)"

    def apply_action(self, action: int) -> None:
        why = self.why_illegal(action)
        if why:
            raise ValueError(f"illegal action {action!r}: {why}; legal: {self.legal_actions()}")
        seat = self.current_player()
        if action == SWAP:
            self.discards.append(self.hands[seat])
            self.hands[seat] = self.deck.pop(0)
        if self.events is not None:
            from dixenv.core.events import Event

            self.events.append(Event(seat, ACTIONS[action], True, "move"))
        self.turn += 1

    def is_terminal(self) -> bool:
        return self.turn >= 2 * self.num_seats

    def is_truncated(self) -> bool:
        return False

    def scores(self) -> list[float]:
        return [float(c) if self.is_terminal() else 0.0 for c in self.hands]

    def ranking_keys(self) -> list[tuple]:
        return [(c,) for c in self.hands]

    def teams(self) -> None:
        return None

    def clone(self) -> "ToyState":
        other = object.__new__(ToyState)
        other.__dict__.update(self.__dict__, hands=list(self.hands), deck=list(self.deck), discards=list(self.discards), events=None)
        return other

    def render_text(self) -> str:
        return f"hands {self.hands}, discards {self.discards}, turn {self.turn}"

    def sample_hidden(self, seat: int, rng: np.random.Generator) -> "ToyState":
        world = self.clone()
        unseen = sorted(set(range(1, CARDS + 1)) - {self.hands[seat], *self.discards})
        unseen = [int(c) for c in rng.permutation(unseen)]
        for s in range(self.num_seats):
            if s != seat:
                world.hands[s] = unseen.pop()
        world.deck = unseen
        return world

    def check_invariants(self) -> None:
        cards = sorted(self.hands + self.deck + self.discards)
        assert cards == list(range(1, CARDS + 1)), f"cards not conserved: {cards}"


class ToyObserver:
    def __init__(self, config: ToyConfig):
        self.layout = Layout([
            Piece("my_card", (CARDS,), "my card, one-hot (1..9)"),
            Piece("discarded", (CARDS,), "cards discarded face up"),
            Piece("turn", (2 * config.num_players + 1,), "turns played, one-hot"),
        ])
        self.tensor = self.layout.tensor

    def set_from(self, state: ToyState, seat: int) -> None:
        self.tensor[:] = 0
        self.layout["my_card"][state.hands[seat] - 1] = 1
        for c in state.discards:
            self.layout["discarded"][c - 1] = 1
        self.layout["turn"][state.turn] = 1


def new_state(config: ToyConfig, rng: np.random.Generator, scenario: Mapping[str, Any], events: list | None = None) -> ToyState:
    warn_unknown_reset_keys("toy", scenario, ())
    return ToyState(config, rng, events)


def _num_actions(config: ToyConfig) -> int:
    return 2


def _action_to_string(config: ToyConfig, action: int) -> str:
    return ACTIONS[action]


def _string_to_action(config: ToyConfig, text: str) -> int:
    if text not in ACTIONS:
        raise ValueError(f"unknown action {text!r}; actions: {list(ACTIONS)}")
    return ACTIONS.index(text)


GAME = Game("toy", make_config, new_state, ToyObserver, _num_actions, _action_to_string, _string_to_action)


class raw_env(CardGameEnv):
    metadata = {**CardGameEnv.metadata, "name": "toy_v0"}
    game = GAME


def env(**options: Any) -> Any:
    return wrap(raw_env(**options))


SPEC = GameSpec(
    name="toy", title="high card (a test-only game)", game=GAME, env_module=__name__, players=(2, 3),
    default_table={"num_players": 2}, aec_id="dixenv_tests/toy-v0", versus_id="dixenv_tests/Toy-v0",
    soak=(SoakConfig({"num_players": 2}), SoakConfig({"num_players": 3})),
)


def register() -> None:
    """Add the toy game to the registry (once)."""
    if "toy" not in game_names():
        register_game(SPEC)
