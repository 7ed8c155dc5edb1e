"""Helpers shared by the agent tests: ask an agent for a move, play a whole game with agents."""

from __future__ import annotations


def act(env, agent) -> str:
    """The agent's choice for the seat to act, as an action string (checked legal)."""
    obs = env.observe(env.agent_selection)
    action = agent.act(obs)
    assert obs["action_mask"][action] == 1
    return env.action_to_string(action)


def play_game(env, agents, seed: int, check_legal: bool = True) -> list[int]:
    """Play one game with one agent per seat; return the actions chosen, in order."""
    env.reset(seed=seed)
    chosen = []
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = agents[int(name.split("_")[1])].act(obs)
        if check_legal:
            assert obs["action_mask"][action] == 1, env.action_to_string(action)
        chosen.append(action)
        env.step(action)
    return chosen


def feature_pieces(featurizer, row) -> dict:
    """The feature pieces of one extended row (``dixenv.agents.features``), by name."""
    out, at = {}, featurizer.obs_size
    for name, size in featurizer.features.names:
        out[name] = row[at:at + size]
        at += size
    assert at == len(row)
    return out
