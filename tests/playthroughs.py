"""Readable playthroughs: one seeded game per configuration written out move by move, beside the corpus digests.

The behaviour corpus (``tests/behaviour_corpus.py``) says *whether* play changed; a playthrough
says *where*: the table before every decision (everything shown), the seat to act, its legal moves,
the move played, the rewards, and a short hash of the acting seat's observation. Files live in
``tests/data/playthroughs/`` (OpenSpiel keeps the same kind of file in ``playthroughs/*.txt``);
``tests/test_playthroughs.py`` replays them. After a change of behaviour on purpose::

    python -m tests.playthroughs --write      # rewrite every file, then read the diff
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from dixenv.agents.registry import env_module, make_agent

DIR = Path(__file__).resolve().parent / "data" / "playthroughs"

#: name -> (game, options, one agent spec per seat, seed). Short games: a diff must stay readable.
PLAYTHROUGHS: dict[str, tuple[str, dict, tuple[str, ...], int]] = {
    "le_dix-3p-deals321": ("le_dix", {"num_players": 3, "deals": (3, 2, 1)}, ("heuristic", "random", "heuristic"), 1),
    "le_dix-4p-hook-ohhell": ("le_dix", {"num_players": 4, "deals": (2, 3), "hook": True, "scoring": "oh_hell", "reward": "points"},
                              ("random",) * 4, 2),
    "dix_de_suite-2p": ("dix_de_suite", {"num_players": 2, "max_turns": 16}, ("heuristic", "random"), 3),
    "dix_de_suite-4p-teams": ("dix_de_suite", {"num_players": 4, "teams": True, "max_turns": 24}, ("heuristic",) * 4, 4),
    "dix-2p": ("dix", {"num_players": 2}, ("heuristic", "alix"), 5),
    "dix-solo6": ("dix", {"solo": True, "difficulty": 6}, ("heuristic",), 6),
}


def playthrough(name: str) -> str:
    """The playthrough text of one configuration."""
    game, options, seats, seed = PLAYTHROUGHS[name]
    env = env_module(game).env(**options)
    env.reset(seed=seed)
    raw = env.unwrapped
    agents = {a: make_agent(game, spec, env, seed=seed + k) for k, (a, spec) in enumerate(zip(env.possible_agents, seats))}
    lines = [f"# {name}: {game} {options}, seats {list(seats)}, reset seed {seed}",
             "# written by python -m tests.playthroughs --write; checked by tests/test_playthroughs.py", ""]
    step = 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        obs = env.observe(agent)
        legal = [int(a) for a in obs["action_mask"].nonzero()[0]]
        action = int(agents[agent].act(obs))
        digest = hashlib.sha1(obs["observation"].tobytes()).hexdigest()[:12]
        lines += [f"== step {step}: {agent} to act (observation sha1 {digest})", raw.state.render_text(),
                  "legal: " + ", ".join(f"{a} {raw.action_to_string(a)}" for a in legal),
                  f"{agent} plays {action} {raw.action_to_string(action)}"]
        env.step(action)
        rewards = {a: r for a, r in env.rewards.items() if r}
        if rewards:
            lines.append(f"rewards: {rewards}")
        step += 1
    lines += ["== end", raw.state.render_text(), f"scores: {raw.scores()}",
              f"terminal: {raw.state.is_terminal()}, truncated: {raw.state.is_truncated()}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print, write or check the playthroughs."""
    p = argparse.ArgumentParser(prog="python -m tests.playthroughs", description=__doc__.splitlines()[0])
    p.add_argument("--write", action="store_true", help=f"rewrite the files in {DIR}")
    p.add_argument("names", nargs="*", help="configurations (default all)")
    args = p.parse_args(argv)
    for name in args.names or PLAYTHROUGHS:
        text = playthrough(name)
        if args.write:
            DIR.mkdir(parents=True, exist_ok=True)
            (DIR / f"{name}.txt").write_text(text)
            print(f"wrote {DIR / f'{name}.txt'} ({len(text):,} characters)")
        else:
            print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
