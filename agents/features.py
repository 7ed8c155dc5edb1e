"""Card features: quantities a policy needs that a small network finds hard to compute from one-hots.

A feature set is a fixed function of the observation alone (no agent, no engine state, no memory
between calls), computed for a whole batch of observations with a few numpy operations, and
appended after the observation among a policy's inputs. A policy trained with one says so in its
metadata (``"features": "cards"``) and ``PolicyAgent`` adds the same features before every forward
pass, so it still plays from its observation at full speed on either engine.

Why: a le_dix clone of the heuristic 95% accurate per decision won 0.122 [0.101, 0.147] of
4-player games when it played the cards (heuristic bids) but 0.234 [0.206, 0.264] when it only bid
(heuristic play; 800 games each, seed 9101, ``experiments/studies/le_dix_heuristic/phase_swap.py``):
its card play is what loses, and card play turns on
interactions of one-hots that a 256-unit MLP learns slowly (is this card a trump, does it beat the
trick's winning card, is it the highest card of its suit still out, how many tricks does a seat
still need). Here they are computed exactly, card by card, at the card's own index, so the play
head can read them almost linearly. With them a clone's card play won 0.171 there, and after 3M PPO
steps against the heuristics 0.305; the whole policy 0.320 on 1,000 unseen deals (docs/results/training.md).
Cost: about 5 µs a row in batches of 256, 0.1 ms for one observation (numpy's per-call overhead). This is the expert-feature set-up of applied card-game RL
(e.g. DouZero's and Suphx's hand-built planes); no library computes these for our layouts.

Feature sets (``FEATURES``): le_dix ``cards`` and ``cards_bid`` (below) and dix_de_suite ``rack``
(``agents/dix_de_suite_features.py``: the heuristic's chain-and-gap costs of each placement).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from dixenv.agents.base import aec_env
from dixenv.agents.dix_de_suite_features import DixDeSuiteRackFeatures
from dixenv.agents.le_dix_heuristic import LeDixHeuristic

NUM_CARDS, NUM_RANKS = 52, 13


class LeDixCardFeatures:
    """le_dix, per card of the observer's hand and per seat (relative seats, as in the observation).

    Appended, in this order (``names`` lists the pieces and their sizes):

    * ``is_trump`` (52): 1 for a hand card of the trump suit;
    * ``beats_trick`` (52): 1 for a hand card that would be winning the current trick if played now
      (every hand card when the trick is empty);
    * ``master`` (52): 1 for a hand card that no unseen card of its suit outranks (unseen: not in the
      hand, not played, not the observer's discard, not a turned-up card the dealer chose to leave);
    * ``higher_unseen`` (52): for a hand card, the unseen cards of its suit that outrank it, / 12;
    * ``need`` (n, b + 1): per seat that has bid, one-hot of its bid minus its tricks won, -1 (bust)
      ... max_bid at positions 0 ... b;
    * ``spare`` (b + 2): the observer's cards left in hand minus the tricks it still needs, one-hot
      of -1 (cannot make it) ... max_bid; all 0 before its bid;
    * ``winning_seat`` (n): one-hot seat whose card is winning the current trick (0 when empty);
    * ``led_suit`` (4): one-hot suit led to the current trick;
    * ``to_play_after`` (n): one-hot count of seats still to play to this trick after the observer.
    """

    #: The definition's version, saved in a policy's metadata (``features_version``) and checked on
    #: load: raise it whenever any piece above changes its meaning, order or size.
    version = 1

    def __init__(self, layout: Any, config: Any = None):
        s = layout.slices
        self._s = s
        self.n = layout["dealer"].shape[0]
        self.b = layout["hand_size"].shape[0]  # max_bid + 1
        self.names = [("is_trump", 52), ("beats_trick", 52), ("master", 52), ("higher_unseen", 52),
                      ("need", self.n * (self.b + 1)), ("spare", self.b + 2), ("winning_seat", self.n),
                      ("led_suit", 4), ("to_play_after", self.n)]
        self.size = sum(size for _, size in self.names)
        suit = np.arange(NUM_CARDS) // NUM_RANKS
        self._suit_onehot = np.eye(4, dtype=np.float32)[suit]  # (52, 4)
        self._rank = (np.arange(NUM_CARDS) % NUM_RANKS).astype(np.float32)

    def _piece(self, obs: np.ndarray, name: str, shape: tuple[int, ...]) -> np.ndarray:
        return obs[:, self._s[name]].reshape((len(obs), *shape))

    def compute(self, obs: np.ndarray) -> np.ndarray:
        """The features of a batch: ``(k, obs_size)`` -> ``(k, size)`` float32."""
        k, n, b = len(obs), self.n, self.b
        hand = self._piece(obs, "hand", (52,))
        played = self._piece(obs, "played", (52,))
        trump_suit = self._piece(obs, "trump_suit", (4,))
        trump_card = self._piece(obs, "trump_card", (52,))
        took = self._piece(obs, "dealer_took_trump", (1,))
        discard = self._piece(obs, "own_discard", (52,))
        trick = self._piece(obs, "trick", (n, 52))
        leader = self._piece(obs, "trick_leader", (n,))
        bids = self._piece(obs, "bids", (n, b))
        won = self._piece(obs, "tricks_won", (n, b))

        is_trump_card = trump_suit @ self._suit_onehot.T  # (k, 52): 1 for every card of the trump suit
        is_trump = hand * is_trump_card

        # The current trick: led suit, each card's strength (trump 13 + rank, led suit rank, else -1).
        led_card = np.einsum("kn,knc->kc", leader, trick)
        led_suit = led_card @ self._suit_onehot  # (k, 4), all 0 before the lead
        is_led = led_suit @ self._suit_onehot.T  # (k, 52)
        strength = np.where(is_trump_card > 0, 13.0 + self._rank, np.where(is_led > 0, self._rank, -1.0))
        in_trick = trick.sum(axis=1)  # (k, 52)
        seat_strength = np.where(trick > 0, strength[:, None, :], -2.0).max(axis=2)  # (k, n); -2: no card yet
        best = seat_strength.max(axis=1)  # (k,)
        empty = best < -1.5
        beats = hand * ((strength > best[:, None]) | empty[:, None])
        winning_seat = np.where(empty[:, None], 0.0, seat_strength == best[:, None]).astype(np.float32)
        after = (n - 1 - in_trick.sum(axis=1)).astype(int)
        to_play_after = np.eye(n, dtype=np.float32)[np.clip(after, 0, n - 1)]

        # Unseen cards: everything the observer has not seen leave play or sit in its own hand.
        phase = self._piece(obs, "phase", (4,))
        left_on_table = trump_card * (1.0 - took) * (1.0 - phase[:, :1])  # left: not taken, the choice made
        unseen = 1.0 - np.clip(hand + played + discard + left_on_table, 0.0, 1.0)
        u = unseen.reshape(k, 4, NUM_RANKS)
        higher = (np.cumsum(u[:, :, ::-1], axis=2)[:, :, ::-1] - u).reshape(k, 52)  # unseen of the suit above each rank
        master = hand * (higher == 0)
        higher_unseen = hand * higher / 12.0

        # Bids: need = bid - tricks won per seat that has bid; spare = cards left - own need.
        has_bid = bids.sum(axis=2) > 0  # (k, n)
        need_value = bids.argmax(axis=2) - won.argmax(axis=2)  # (k, n)
        need = np.zeros((k, n, b + 1), dtype=np.float32)
        rows, seats = np.nonzero(has_bid)
        need[rows, seats, np.clip(need_value[rows, seats], -1, b - 1) + 1] = 1.0
        spare = np.zeros((k, b + 2), dtype=np.float32)
        mine = np.flatnonzero(has_bid[:, 0])
        spare_value = hand.sum(axis=1).astype(int) - need_value[:, 0]
        spare[mine, np.clip(spare_value[mine], -1, b) + 1] = 1.0

        parts = [is_trump, beats, master, higher_unseen, need.reshape(k, -1), spare, winning_seat, led_suit, to_play_after]
        return np.concatenate([p.astype(np.float32, copy=False) for p in parts], axis=1)


class LeDixBidFeatures(LeDixCardFeatures):
    """le_dix ``cards_bid``: the ``cards`` features, then the heuristic's bidding model's evaluation.

    Why: with ``cards`` the policy's card play after PPO beat the heuristic's (0.305 when the
    heuristic bid for it, one seat against three heuristics), but its own bids lagged (0.275 when it
    bid and the heuristic played; ``phase_swap``, docs/results/training.md): its bid must come from
    a per-card trick model over the unseen cards, the bids said and the opponents' record, which
    the heuristic has, calibrated on self-play, and a network learns slowly from one-hots.

    Appended after ``cards``, at the discard and bidding decisions only (0 everywhere else):

    * ``trick_chance`` (52): per hand card, its chance of taking a trick this deal
      (``LeDixHeuristic.hand_trick_chances``: hypergeometric over the unseen cards, then a logistic
      calibration; a one-card hand exactly);
    * ``expected_tricks`` (1): their sum / max_bid.

    This is the heuristic's evaluation, not its move: its bid is the legal bid nearest
    ``sum - 0.25`` (a one-card hand: nearest the chance) and its discard the card of least chance,
    which a network can read off these numbers, as the dix_de_suite ``rack`` policy can read the
    heuristic's placement off its gains. Unlike the other features it runs Python per row (the
    model is a few dozen scalar formulas per card): about 0.35 ms a discard or bidding row, a
    quarter of a 4-player game's decisions, so 0.09 ms a row on average (``cards``: 5 µs).
    """

    version = 1

    def __init__(self, layout: Any, config: Any = None):
        super().__init__(layout, config)
        # The heuristic reads only ``env.unwrapped.layout`` from its env; features are built from the layout.
        self._model = LeDixHeuristic(SimpleNamespace(unwrapped=SimpleNamespace(layout=layout)))
        self._max_bid = self.b - 1
        self.names = self.names + [("trick_chance", 52), ("expected_tricks", 1)]
        self.size = sum(size for _, size in self.names)

    def compute(self, obs: np.ndarray) -> np.ndarray:
        cards = super().compute(obs)
        extra = np.zeros((len(obs), 53), dtype=np.float32)
        phase = self._piece(obs, "phase", (4,))
        for row in np.flatnonzero(phase[:, 1] + phase[:, 2] > 0):  # discard or bid
            hand, chances = self._model.hand_trick_chances(obs[row])
            extra[row, hand] = chances
            extra[row, 52] = sum(chances) / self._max_bid
        return np.concatenate([cards, extra], axis=1)


#: Feature sets by game: name -> class built from the observation layout and the game's config.
FEATURES: dict[str, dict[str, Any]] = {"le_dix": {"cards": LeDixCardFeatures, "cards_bid": LeDixBidFeatures},
                                       "dix_de_suite": {"rack": DixDeSuiteRackFeatures}}


def check_features(game: str, name: Any) -> str:
    """``name`` if ``game`` has that feature set, else ``ValueError`` naming the allowed ones."""
    known = FEATURES.get(game, {})
    if name not in known:
        allowed = ", ".join(sorted(known)) or "none for this game"
        raise ValueError(f"features {name!r} are not a feature set of {game}; allowed: {allowed}")
    return name


class Featurizer:
    """Appends a game's named feature set to batches of its observations."""

    def __init__(self, env: Any, name: str):
        aec = aec_env(env)
        self.name = check_features(aec.game.name, name)
        self.obs_size = int(aec.unwrapped.layout.size)
        self.features = FEATURES[aec.game.name][name](aec.unwrapped.layout, aec.unwrapped.config)
        self.size = self.features.size
        self.version = self.features.version

    def check_policy(self, metadata: dict[str, Any], where: str) -> None:
        """``ValueError`` unless a policy's ``features_size`` and ``features_version`` are this feature set's.

        A policy trained on other definitions of the same features would read numbers that mean
        something else and play badly without any error; policies saved before the versions were
        recorded (2026-12-07) are refused too, with the way to vouch for them.
        """
        if metadata.get("features_size") != self.size:
            raise ValueError(f"{where} takes {metadata.get('features_size')} inputs of the {self.name!r} features; "
                             f"this env's are {self.size}")
        version = metadata.get("features_version")
        if version is None:
            raise ValueError(f"{where} has no features_version: it was saved before the {self.name!r} features were "
                             f"versioned, and today's are version {self.version}. Train it again, or, if it was trained "
                             f"on exactly today's definitions, add \"features_version\": {self.version} to its JSON file")
        if version != self.version:
            raise ValueError(f"{where} was trained on version {version!r} of the {self.name!r} features; this dixenv "
                             f"computes version {self.version}: train it again with this version")

    def extend_batch(self, observations: np.ndarray) -> np.ndarray:
        """Rows ``(k, obs_size)`` -> ``(k, obs_size + size)``."""
        observations = np.asarray(observations, dtype=np.float32)
        if observations.ndim != 2 or observations.shape[1] != self.obs_size:
            raise ValueError(f"features {self.name!r} take observations of shape (k, {self.obs_size}); got {observations.shape}")
        return np.concatenate([observations, self.features.compute(observations)], axis=1)



def extended_vec_env(venv: Any, extra: int, extend: Any, extend_terminal: Any) -> Any:
    """A Stable-Baselines3 ``VecEnv`` whose observations carry ``extra`` more inputs in [0, 1] (masks pass through).

    ``extend(observations)`` extends the batch after every reset and step; ``extend_terminal(row)``
    the terminal observation in an info. (SB3's ``VecEnvWrapper`` changes no observation by itself.)
    """
    from gymnasium import spaces
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class ExtendedVecEnv(VecEnvWrapper):
        def __init__(self) -> None:
            space = venv.observation_space
            low = np.concatenate([space.low, np.zeros(extra, dtype=space.dtype)])
            high = np.concatenate([space.high, np.ones(extra, dtype=space.dtype)])
            super().__init__(venv, observation_space=spaces.Box(low, high, dtype=space.dtype))

        def reset(self) -> np.ndarray:
            return extend(self.venv.reset())

        def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
            obs, rewards, dones, infos = self.venv.step_wait()
            for info in infos:
                terminal = info.get("terminal_observation")
                if terminal is not None:
                    info["terminal_observation"] = extend_terminal(terminal)
            return extend(obs), rewards, dones, infos

    return ExtendedVecEnv()


def featured_vec_env(venv: Any, featurizer: Featurizer) -> Any:
    """A Stable-Baselines3 ``VecEnv`` whose observations carry ``featurizer``'s features (every one in [0, 1]),
    the terminal observation in the infos included."""
    return extended_vec_env(venv, featurizer.size, featurizer.extend_batch,
                            lambda row: featurizer.extend_batch(row[None, :])[0])
