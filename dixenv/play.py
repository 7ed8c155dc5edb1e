"""Play a dixenv game in the terminal against agents.

    python -m dixenv.play le_dix --players 4 --opponents heuristic,random --seat 0
    python -m dixenv.play dix_de_suite --players 3 --option reshuffle=True
    python -m dixenv.play dix --solo --difficulty 6

Before each of your decisions you see everything that happened since your last one, from the
engines' move log (``env.unwrapped.events``, as your seat may see it: hidden cards stay hidden):
every move in order with who made it, those the game made by itself too (a dix turn's first draw,
ALIX's whole turn, automatic payments, moves that were the only legal one, marked "(forced)"), and
the markers of deals, tricks, rounds and scores set apart. Then the table from your seat
(``dixenv.views``: built from your observation, never from the hidden state) and your legal moves
as a numbered list. Answer with the number or the move itself (``play TH``, or just ``TH`` when
only one move ends that way); an illegal move is refused with the engine's reason ("you must
follow clubs (you hold 2C)"); ``help`` shows the list again, ``quit`` stops.

``dixenv`` does not import ``agents`` when imported; the opponents' short names are resolved in
``main`` through ``agents.registry``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Sequence

import numpy as np

from dixenv.views import MoveLog, observation_text

InputFn = Callable[[str], str]
PrintFn = Callable[..., None]

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?", "h", "moves")


class Quit(Exception):
    """The person stopped the game."""


def legal_list(env: Any, obs: dict[str, np.ndarray]) -> list[tuple[int, str]]:
    """The legal moves as (action id, action string), in action-id order."""
    return [(int(a), env.unwrapped.action_to_string(int(a))) for a in np.flatnonzero(obs["action_mask"])]


def format_moves(moves: list[tuple[int, str]], width: int = 96) -> str:
    """The numbered list of legal moves, packed into lines."""
    items = [f"{i}) {text}" for i, (_, text) in enumerate(moves, 1)]
    cell = max(len(s) for s in items) + 2
    per_line = max(1, width // cell)
    lines = ["".join(s.ljust(cell) for s in items[k : k + per_line]).rstrip() for k in range(0, len(items), per_line)]
    return "your moves:\n  " + "\n  ".join(lines)


def parse_move(env: Any, text: str, moves: list[tuple[int, str]]) -> tuple[int | None, str]:
    """The action meant by ``text`` (a list number, an action string, or a unique ending such as ``TH``), or an error message."""
    text = text.strip()
    if not text:
        return None, "type the number of a move or the move itself"
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(moves):
            return moves[k - 1][0], ""
        return None, f"{k} is not in the list; choose a number from 1 to {len(moves)}"
    norm = " ".join(text.lower().split())
    for a, s in moves:
        if s.lower() == norm:
            return a, ""
    a = _action_of(env, text)
    if a is not None:
        return None, _not_legal(env, a)
    endings = [(a, s) for a, s in moves if s.lower().endswith(" " + norm)]
    if len(endings) == 1:
        return endings[0][0], ""
    if len(endings) > 1:
        return None, f"'{text}' is ambiguous: {', '.join(s for _, s in endings)}"
    # An ending of no legal move, such as "5S" when "play 5S" is illegal: say why, if it can only mean one move.
    verbs = dict.fromkeys(s.split(" ", 1)[0] for _, s in moves)  # the legal moves' first words, in order
    meant = {a for a in (_action_of(env, f"{verb} {text}") for verb in verbs) if a is not None}
    if len(meant) == 1:
        return None, _not_legal(env, meant.pop())
    return None, f"'{text}' is not a move here"


def _action_of(env: Any, text: str) -> int | None:
    """The action id named by ``text`` in the game's vocabulary, None if it names none."""
    try:
        return env.unwrapped.string_to_action(text)
    except (ValueError, TypeError):
        return None


def _not_legal(env: Any, action: int) -> str:
    """An illegal action in words: its name and the engine's reason, from what the seat to act knows."""
    u = env.unwrapped
    return f"'{u.action_to_string(action)}' is not legal now: {u.state.why_illegal(action)}"


def ask_move(env: Any, obs: dict[str, np.ndarray], input_fn: InputFn, print_fn: PrintFn) -> int:
    """Show the legal moves and read one until it is legal (``Quit`` on quit or end of input)."""
    moves = legal_list(env, obs)
    print_fn(format_moves(moves))
    while True:
        try:
            text = input_fn("your move> ")
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if text.strip().lower() in QUIT_WORDS:
            raise Quit
        if text.strip().lower() in HELP_WORDS:
            print_fn(format_moves(moves))
            continue
        action, error = parse_move(env, text, moves)
        if action is not None:
            return action
        print_fn(f"{error}. Please try again: a number from 1 to {len(moves)} or a move such as '{moves[0][1]}' "
                 f"('help' lists the moves, 'quit' stops).")


def final_text(env: Any, human: str) -> str:
    """Final scores, winners marked (everything is public once the game is over)."""
    u = env.unwrapped
    state = u.state
    scores = u.scores()
    keys = state.ranking_keys()
    seat = int(human.rsplit("_", 1)[1])
    lines = ["─" * 60, "game over" if state.is_terminal() else "game stopped (turn limit reached)", "final scores:"]
    best = max(keys)
    for s, score in enumerate(scores):
        who = "you" if s == seat else ("ALIX" if len(scores) > len(u.possible_agents) and s >= len(u.possible_agents) else f"player_{s}")
        win = "  ← winner" if state.is_terminal() and keys[s] == best else ""
        lines.append(f"  {who:<10} {score:g}{win}")
    return "\n".join(lines)


def play_game(
    env: Any,
    human: str,
    opponents: dict[str, Any],
    input_fn: InputFn = input,
    print_fn: PrintFn = print,
    seed: int | None = None,
) -> list[float] | None:
    """Play one game, ``human`` (an agent name such as ``player_0``) at the keyboard; the final scores, or None if quit.

    Turns on the env's move log (``record_events``) if it is off: the person is shown every event.
    """
    u = env.unwrapped
    seat = int(human.rsplit("_", 1)[1])
    u.record_events = True
    env.reset(seed=seed)
    log = MoveLog(env, seat, you=True)
    try:
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            obs = env.observe(agent)
            if agent == human:
                _show(log, print_fn)
                print_fn(observation_text(env, seat, obs))
                action = ask_move(env, obs, input_fn, print_fn)
            else:
                action = opponents[agent].act(obs)
            env.step(action)
    except Quit:
        print_fn("game abandoned.")
        return None
    _show(log, print_fn)
    print_fn(observation_text(env, seat, env.observe(human)))
    print_fn(final_text(env, human))
    return list(u.scores())


def _show(log: MoveLog, print_fn: PrintFn) -> None:
    """Print the events the person has not seen yet, as one block."""
    lines = log.new_lines()
    if lines:
        print_fn("\n".join(lines))


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    from dixenv.games import game_names

    p = argparse.ArgumentParser(prog="python -m dixenv.play", description="Play a dixenv game in the terminal against agents.")
    p.add_argument("game", help=f"one of {', '.join(game_names())}")
    p.add_argument("--players", type=int, default=None, help="number of players (the num_players option)")
    p.add_argument("--opponents", default=None,
                   help="comma-separated agent names for the other seats, in seat order after yours, the last one "
                        "repeated to fill the table (e.g. heuristic,random or alix:difficulty=6; default: the game's "
                        "heuristic, or random where it is not available)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option, repeatable (e.g. scoring=oh_hell)")
    p.add_argument("--solo", action="store_true", help="dix only: play solo against ALIX (played by the environment)")
    p.add_argument("--difficulty", type=int, default=None, help="dix solo: ALIX's threshold 4..10")
    p.add_argument("--seed", type=int, default=None, help="seed for the deal and the opponents")
    return p


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options of a command line: ``--option KEY=VALUE``, ``--players``, ``--solo``, ``--difficulty``."""
    from dixenv.agents.registry import parse_key_values

    options = parse_key_values(args.option)
    if args.players is not None:
        options["num_players"] = args.players
    if args.solo:
        options["solo"] = True
    if args.difficulty is not None:
        options["difficulty"] = args.difficulty
    return options


def main(argv: Sequence[str] | None = None, input_fn: InputFn = input, print_fn: PrintFn = print) -> int:
    """Run the command line; returns the exit status (0 finished, 1 abandoned, 2 bad arguments)."""
    from dixenv.agents.registry import agent_class, env_module, make_agent, resolve_game

    args = build_parser().parse_args(argv)
    try:
        game = resolve_game(args.game)
        options = game_options(args)
        env = env_module(game).raw_env(**options)  # play_game turns the move log on
        agents = list(env.possible_agents)
        if not 0 <= args.seat < len(agents):
            raise ValueError(f"--seat {args.seat} is out of range; seats are 0..{len(agents) - 1}")
        human = agents[args.seat]
        others = [a for a in agents[args.seat + 1 :] + agents[: args.seat]]  # seat order after yours
        names = [s.strip() for s in (args.opponents or "heuristic").split(",") if s.strip()] or ["random"]
        if args.opponents is None and others:
            try:
                agent_class(game, "heuristic")
            except ImportError:
                print_fn(f"(no {game} heuristic available yet: your opponents play at random)")
                names = ["random"]
        rng = np.random.default_rng(args.seed)
        opponents = {}
        for k, agent in enumerate(others):
            spec = names[min(k, len(names) - 1)]
            opponents[agent] = make_agent(game, spec, env, seed=int(rng.integers(2**31)))
    except (ValueError, ImportError) as exc:
        print_fn(f"error: {exc}")
        return 2
    table = ", ".join(f"{a} {'(you)' if a == human else type(opponents[a]).__name__}" for a in agents)
    print_fn(f"{game}: {table}" + (" — ALIX is played by the game" if options.get("solo") else ""))
    print_fn("Answer with a move's number or the move itself; 'help' lists the moves, 'quit' stops.")
    scores = play_game(env, human, opponents, input_fn, print_fn, seed=args.seed)
    return 0 if scores is not None else 1


if __name__ == "__main__":
    sys.exit(main())
