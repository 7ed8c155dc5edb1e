"""Helpers for dix de suite scenario tests: stacked decks, driving an env by action strings, a simple player."""

from __future__ import annotations

import numpy as np

from dixenv import dix_de_suite_v0
from dixenv.games.dix_de_suite import actions as A
from dixenv.games.dix_de_suite.scoring import is_ascending, longest_run
from dixenv.games.dix_de_suite.state import PHASE_SOURCE, DixDeSuiteState


def stacked_deck(racks: dict[int, list[int]], discard: int, draw: list[int] = (), dealer: int = 0) -> list[int]:
    """A deck (top first) that deals ``racks[seat]`` (slot 1 first) to each seat, then ``discard``, then ``draw``.

    The deal goes one card at a time from the dealer's left, each player filling slot 10 first.
    """
    n = len(racks)
    deck = []
    for slot in range(9, -1, -1):
        for i in range(1, n + 1):
            deck.append(racks[(dealer + i) % n][slot])
    return deck + [discard] + list(draw)


def make(racks: dict[int, list[int]], discard: int, draw: list[int] = (), dealer: int = 0, seed: int = 0, **options):
    """A raw dix de suite env reset with the given first deal (``num_players`` from ``racks``)."""
    env = dix_de_suite_v0.raw_env(num_players=len(racks), **options)
    env.reset(seed=seed, options={"deck": stacked_deck(racks, discard, draw, dealer), "dealer": dealer})
    return env


def option_id(options: dict) -> str:
    """A short test id for a set of options."""
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


def shuffle_hidden(state: DixDeSuiteState, seat: int, rng: np.random.Generator) -> DixDeSuiteState:
    """A copy of ``state`` whose cards hidden from ``seat`` are permuted pool by pool, with another
    generator: a world that differs only in what ``seat`` cannot see (checked to be a legal state)."""
    other = state.clone()
    for cards, places in state.hidden_places(seat):
        for place, card in zip(places, rng.permutation(np.array(cards, dtype=np.int64)).tolist()):
            other.put_card(place, card)
    other.rng = np.random.default_rng(int(rng.integers(2**62)))
    other.check_invariants()
    return other


def play(env, *actions: str) -> None:
    """Step the env with each action string in turn."""
    for text in actions:
        env.step(env.string_to_action(text))


def legal_strings(env) -> list[str]:
    """The legal actions of the agent to act, as strings."""
    return [env.action_to_string(a) for a in env.legal_actions()]


def band_player(state: DixDeSuiteState, rng: np.random.Generator, eps: float = 0.0) -> int:
    """A simple player: every card belongs in the slot of its tenth of the deck; ``eps`` of moves are random.

    A rack whose every slot holds a card of its own tenth is ascending, so this player finishes rounds;
    with ``two_player_run`` it also takes any card that lengthens a run of its sorted rack.
    """
    legal = state.legal_actions()
    if eps and rng.random() < eps:
        return legal[int(rng.integers(len(legal)))]
    d = state.config.deck_size
    rack = state.racks[state.current_player()]

    def band(card: int) -> int:
        return min(9, (card - 1) * 10 // d)

    def run_slot(card: int) -> int:
        """With two_player_run, a slot where ``card`` lengthens the longest run of a sorted rack, or -1."""
        if not state.config.two_player_run or not is_ascending(rack):
            return -1
        best = longest_run(rack)
        for k in range(10):
            trial = rack[:k] + [card] + rack[k + 1 :]
            if is_ascending(trial) and longest_run(trial) > best:
                return k
        return -1

    if state.phase == PHASE_SOURCE:
        top = state.discard[-1]
        good = band(rack[band(top)]) != band(top) or run_slot(top) >= 0
        return A.TAKE_DISCARD if good else A.DRAW
    k = run_slot(state.held)
    if k >= 0:
        return A.swap_action(k + 1)
    slot = band(state.held)
    if state.held_from_discard or band(rack[slot]) != slot:
        return A.swap_action(slot + 1)
    return A.DISCARD


# Racks that are far from ascending (descending), handy when a round must not end.
DESC_2 = {0: [40, 39, 38, 37, 36, 35, 34, 33, 32, 31], 1: [30, 29, 28, 27, 26, 25, 24, 23, 22, 21]}
# Seat 1 (first to play when seat 0 deals) needs only a card above 19 in slot 10.
NEAR_WIN = [3, 5, 7, 9, 11, 13, 15, 17, 19, 2]
PREFIX_3 = [10, 12, 14, 1, 20, 21, 22, 23, 24, 25]  # ascending prefix 3 → 15 points
