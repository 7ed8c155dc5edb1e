"""A recorded corpus of play: one hash per game of everything the engines, encoders and agents produce.

Speed work on the engines, the observation encoders, the dix scorer and the agents must not change
behaviour at all. This module plays seeded games of every game in many configurations, with random
and heuristic agents, and folds into one SHA-256 digest per game: every observation (bit for bit)
and action mask, of the seat to act or of every seat, every action chosen, every reward and score,
the move log when one is recorded, and every 16 steps an observation and the legal actions of a
``sample_hidden`` world. For dix it also hashes the exact scorer (and the heuristic's greedy one)
on random collections, heavy ones included.

``tests/test_behaviour_corpus.py`` replays a few games per configuration against the digests kept
in ``tests/data/behaviour_corpus.json``. A larger corpus is a command away, recorded with the old
code and checked with the new one::

    python -m tests.behaviour_corpus --games 300 --write /tmp/corpus.json   # before a change
    python -m tests.behaviour_corpus --games 300 --check /tmp/corpus.json   # after it

A change of behaviour on purpose (a new observation piece, a rule fix) changes the digests:
rewrite the kept file with ``python -m tests.behaviour_corpus --games 2 --stable-only --write
tests/data/behaviour_corpus.json`` and say why in the commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dixenv.agents.registry import env_module, make_agent
from dixenv.games.dix.cards import STANDARD_DECK

#: Sample a hidden world (and hash what it shows) every this many steps.
SAMPLE_EVERY = 16


def _wild_box() -> dict[str, Any]:
    """The standard box with extra number wilds and stars: heavy collections for the exact scorer."""
    box = dict(STANDARD_DECK.as_mapping())
    for k in (2, 4, 5, 7):
        box[f"W{k}"] = (2, 2)
    box["**"] = (2, 2, 3)
    return box


@dataclass(frozen=True)
class Config:
    """One configuration: a game, its options, one agent name per seat, and how it is observed."""

    name: str
    game: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    #: False when an agent is being rewritten by someone else (kept out of the committed digests).
    stable: bool = True
    record_events: bool = False
    reset_options: dict[str, Any] = field(default_factory=dict)


H, R, A = "heuristic", "random", "alix"

CONFIGS: tuple[Config, ...] = (
    Config("dix-2p-random", "dix", {}, (R, R), record_events=True),
    Config("dix-3p-random-af0", "dix", {"num_players": 3, "auto_forced": False}, (R, R, R)),
    Config("dix-4p-random-bustbuy", "dix", {"num_players": 4, "bust_buy": True, "reward": "points"}, (R,) * 4),
    Config("dix-5p-random-autopay", "dix", {"num_players": 5, "auto_pay": True}, (R,) * 5),
    Config("dix-solo4-random", "dix", {"solo": True, "difficulty": 4}, (R,)),
    Config("dix-solo6-heuristic-bustbuy", "dix", {"solo": True, "difficulty": 6, "bust_buy": True}, (H,), record_events=True),
    Config("dix-solo10-heuristic", "dix", {"solo": True, "difficulty": 10, "reward": "points"}, (H,)),
    Config("dix-2p-heuristic", "dix", {}, (H, H)),
    Config("dix-3p-heuristic-alix-random", "dix", {"num_players": 3}, (H, A, R)),
    Config("dix-4p-heuristic-autopay", "dix", {"num_players": 4, "auto_pay": True}, (H, H, "alix:buys=True", H)),
    Config("dix-3p-wildbox-random", "dix", {"num_players": 3, "deck_spec": _wild_box()}, (R, R, R)),
    Config("dix-2p-wildbox-heuristic", "dix", {"deck_spec": _wild_box(), "auto_forced": False}, (H, "alix:difficulty=8")),
    Config("dds-2p-random", "dix_de_suite", {"max_turns": 80}, (R, R), record_events=True),
    Config("dds-3p-random-reshuffle", "dix_de_suite", {"num_players": 3, "max_turns": 150, "reshuffle": True}, (R,) * 3),
    Config("dds-4p-random-teams", "dix_de_suite", {"num_players": 4, "max_turns": 100, "teams": True, "reward": "points"}, (R,) * 4),
    Config("dds-2p-random-run-bonus", "dix_de_suite", {"max_turns": 120, "two_player_run": True, "run_bonus": True}, (R, R)),
    Config("dds-2p-heuristic", "dix_de_suite", {"target_score": 300}, (H, H)),
    Config("dds-3p-heuristic-reshuffle", "dix_de_suite", {"num_players": 3, "target_score": 250, "reshuffle": True}, (H, H, R)),
    Config("dds-2p-heuristic-run", "dix_de_suite", {"target_score": 200, "two_player_run": True, "max_turns": 300}, (H, H), record_events=True),
    Config("dds-4p-heuristic-teams-bonus", "dix_de_suite", {"num_players": 4, "target_score": 300, "teams": True, "run_bonus": True, "auto_forced": False}, (H,) * 4),
    Config("ld-3p-random", "le_dix", {"num_players": 3}, (R,) * 3, record_events=True),
    Config("ld-4p-random-hook", "le_dix", {"num_players": 4, "hook": True, "reward": "points"}, (R,) * 4),
    Config("ld-5p-random-ohhell-af0", "le_dix", {"num_players": 5, "scoring": "oh_hell", "auto_forced": False}, (R,) * 5),
    Config("ld-3p-short-random", "le_dix", {"num_players": 3, "deals": (5, 3, 1)}, (R,) * 3),
    Config("ld-3p-heuristic", "le_dix", {"num_players": 3}, (H, H, R), stable=False),
    Config("ld-4p-heuristic-hook", "le_dix", {"num_players": 4, "hook": True, "deals": (7, 4, 1)}, (H,) * 4, stable=False),
)


class _Digest:
    """A SHA-256 fed with arrays, ints, floats and strings, each tagged so that no two feeds collide."""

    def __init__(self) -> None:
        self._h = hashlib.sha256()

    def array(self, a: np.ndarray) -> None:
        self._h.update(b"A" + str(a.dtype).encode() + str(a.shape).encode() + np.ascontiguousarray(a).tobytes())

    def value(self, x: Any) -> None:
        self._h.update(b"V" + repr(x).encode())

    def hexdigest(self) -> str:
        return self._h.hexdigest()[:20]


def play_game(config: Config, game_index: int) -> tuple[str, int]:
    """Play game ``game_index`` of ``config``; return its digest and the number of decisions."""
    module = env_module(config.game)
    env = module.raw_env(record_events=config.record_events, **config.options)
    seed = 1000 * game_index + 7
    env.reset(seed=seed, options=dict(config.reset_options) or None)
    raw = env.unwrapped
    agents = [make_agent(config.game, name, env, seed=seed + seat) for seat, name in enumerate(config.seats)]
    for agent in agents:
        if hasattr(agent, "reset"):
            agent.reset(seed + 100 + game_index)
    sampler = raw.game.make_observer(raw.config)  # its own observer: samples leave the env's caches alone
    observe_all = game_index % 2 == 0  # half the games observe every seat each step, half the seat to act
    digest, steps, logged = _Digest(), 0, 0
    for agent_name in env.agent_iter():
        if raw.terminations[agent_name] or raw.truncations[agent_name]:
            digest.value(("end", agent_name, raw._cumulative_rewards[agent_name]))
            env.step(None)
            continue
        if observe_all:
            for other in env.agents:
                obs = env.observe(other)
                digest.array(obs["observation"])
                digest.array(obs["action_mask"])
        obs = env.observe(agent_name)
        digest.array(obs["observation"])
        digest.array(obs["action_mask"])
        seat = int(agent_name.split("_")[1])
        action = int(agents[seat].act(obs))
        digest.value((seat, action))
        if steps % SAMPLE_EVERY == 0:
            world = raw.state.sample_hidden(seat, np.random.default_rng(seed + steps))
            sampler.set_from(world, seat)
            digest.array(sampler.tensor)
            digest.value(list(world.legal_actions()))
            world.check_invariants()
        env.step(action)
        steps += 1
        digest.value(sorted(raw.rewards.items()))
        digest.value(list(raw.state.scores()))
        if raw.events is not None:
            for event in raw.events[logged:]:
                digest.value((event.seat, event.text, event.public, event.kind))
            logged = len(raw.events)
    digest.value(("final", list(raw.state.scores()), raw.state.is_terminal(), raw.state.is_truncated()))
    return digest.hexdigest(), steps


def scorer_digest(count: int, seed: int = 0) -> str:
    """The exact dix scorer and the heuristic's greedy scorer on ``count`` random collections, hashed."""
    from dixenv.agents.dix_heuristic import greedy_score
    from dixenv.games.dix.scoring import score_collection

    rng = np.random.default_rng(seed)
    digest = _Digest()
    for i in range(count):
        masks = [int(m) for m in rng.integers(0, 512, size=4) & rng.integers(0, 512, size=4)]
        heavy = i % 10 == 0
        colour_wilds = [int(x) for x in rng.integers(0, 3 if heavy else 2, size=4)]
        number_wilds = [int(x) for x in rng.integers(0, 3 if heavy else 2, size=9) * (rng.random(9) < (0.6 if heavy else 0.3))]
        stars = int(rng.integers(0, 4 if heavy else 2))
        digest.value((masks, colour_wilds, number_wilds, stars))
        digest.value(score_collection(masks, colour_wilds, number_wilds, stars))
        digest.value(greedy_score(tuple(masks), tuple(colour_wilds), tuple(number_wilds), stars))
    return digest.hexdigest()


def record(games: int, stable_only: bool, names: list[str] | None = None, scorer: int = 2000, verbose: bool = False) -> dict[str, Any]:
    """Digests of ``games`` games per configuration (and of ``scorer`` scored collections)."""
    out: dict[str, Any] = {"games": games, "configs": {}}
    for config in CONFIGS:
        if (stable_only and not config.stable) or (names and config.name not in names):
            continue
        start = time.perf_counter()
        digests, steps = [], 0
        for g in range(games):
            d, s = play_game(config, g)
            digests.append(d)
            steps += s
        out["configs"][config.name] = digests
        if verbose:
            print(f"{config.name}: {games} games, {steps} decisions, {time.perf_counter() - start:.1f} s", file=sys.stderr)
    if scorer:
        out["scorer"] = {"count": scorer, "digest": scorer_digest(scorer)}
    return out


def compare(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """Every difference between two recorded corpora, as readable lines (empty if they agree)."""
    problems = []
    for name, digests in expected["configs"].items():
        got = actual["configs"].get(name)
        if got is None:
            problems.append(f"{name}: not replayed")
            continue
        for g, (want, have) in enumerate(zip(digests, got)):
            if want != have:
                problems.append(f"{name}: game {g} differs ({want} recorded, {have} now)")
    if "scorer" in expected and expected["scorer"] != actual.get("scorer"):
        problems.append(f"scorer: {expected['scorer']} recorded, {actual.get('scorer')} now")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.behaviour_corpus", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per configuration (default 2)")
    parser.add_argument("--configs", nargs="+", help="only these configurations (default all)")
    parser.add_argument("--stable-only", action="store_true", help="leave out agents being rewritten elsewhere")
    parser.add_argument("--scorer", type=int, default=2000, help="random collections to score (default 2000; 0: none)")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="PATH", help="record the corpus into PATH (JSON)")
    group.add_argument("--check", metavar="PATH", help="replay the corpus in PATH and report every difference")
    args = parser.parse_args(argv)
    if args.check:
        with open(args.check) as f:
            expected = json.load(f)
        names = args.configs or list(expected["configs"])
        actual = record(expected["games"], False, names, expected.get("scorer", {}).get("count", 0), verbose=True)
        problems = compare({**expected, "configs": {k: v for k, v in expected["configs"].items() if k in names}}, actual)
        for line in problems:
            print(line)
        total = sum(len(expected["configs"][k]) for k in names)
        print(f"{total} games in {len(names)} configurations: {'all equal' if not problems else f'{len(problems)} differences'}")
        return 1 if problems else 0
    corpus = record(args.games, args.stable_only, args.configs, args.scorer, verbose=True)
    with open(args.write, "w") as f:
        json.dump(corpus, f, indent=1)
        f.write("\n")
    print(f"wrote {sum(len(v) for v in corpus['configs'].values())} game digests to {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
