"""Helpers for le_dix scenario tests: stacked decks and driving an env by action strings."""

from __future__ import annotations

from dixenv import le_dix_v0


def stacked_deck(hands: dict[int, list[str]], trump: str, dealer: int, num_players: int) -> list[str]:
    """A deck (top first) that deals ``hands[seat]`` to each seat and turns up ``trump``.

    Cards are dealt one at a time from the dealer's left, so card i goes to seat (dealer+1+i) % n.
    """
    size = len(hands[0])
    order = [(dealer + 1 + i) % num_players for i in range(num_players * size)]
    taken = {seat: 0 for seat in hands}
    deck = []
    for seat in order:
        deck.append(hands[seat][taken[seat]])
        taken[seat] += 1
    return deck + [trump]


def make(num_players: int, hands: dict[int, list[str]], trump: str, dealer: int = 0, **options):
    """A raw le_dix env reset with the given first deal (auto_forced off unless asked)."""
    options.setdefault("auto_forced", False)
    deals = options.pop("deals", (len(hands[0]),))
    env = le_dix_v0.raw_env(num_players=num_players, deals=deals, **options)
    env.reset(seed=0, options={"deck": stacked_deck(hands, trump, dealer, num_players), "dealer": dealer})
    return env


def play(env, *actions: str) -> None:
    """Step the env with each action string in turn."""
    for text in actions:
        env.step(env.string_to_action(text))


def legal_strings(env) -> list[str]:
    """The legal actions of the agent to act, as strings."""
    return [env.action_to_string(a) for a in env.legal_actions()]


def observed(env, agent: str) -> dict:
    """The named pieces of ``agent``'s observation."""
    return env.layout.unflatten(env.observe(agent)["observation"])


def differing_pieces(a: dict, b: dict) -> set[str]:
    """Names of the pieces in which two unflattened observations differ."""
    return {name for name in a if not (a[name] == b[name]).all()}
