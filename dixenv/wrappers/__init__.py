"""Adapters beyond the AEC API: single-agent Gymnasium environments."""

from dixenv.wrappers.single_agent import SingleAgentEnv

__all__ = ["SingleAgentEnv"]
