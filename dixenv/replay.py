"""Game records: one game as a small JSON document, and its exact replay on the engine.

A record holds what is needed to play a game again move for move, and nothing else::

    {"format": "dixenv-record/1", "game": "le_dix", "options": {"num_players": 4},
     "seed": 12345, "seats": ["heuristic", "random", "person", "ismcts:iterations=50"],
     "moves": [3, 17, 54, ...], "scores": [31.0, 10.0, 0.0, 20.0]}

``seats`` names who sat at each agent seat (``possible_agents`` order: an agent spec, or
``"person"``); ``moves`` are the action ids of the decisions, in the order they were made (moves the
environment played by itself, forced moves with ``auto_forced`` and ALIX's turns in solo dix, are
not in it: the same options and seed make the environment play them again). ``scores`` (every seat of
the table) and ``agent_seeds`` are optional; a replay checks the scores when they are there.

``replay(record)`` resets a fresh environment with the record's options and seed (and the move log
on) and applies the moves; it raises ``ValueError`` when a move is not legal where the record puts it
or the final scores differ (the record does not belong to this engine). ``experiments.evaluate
--record DIR`` and ``experiments.tournament.run_tournament(..., record_dir=DIR)`` write one record per
game; the web table (``python -m dixenv.web``) steps through them forwards and backwards.

Loading a record runs no code: it is JSON, and every field is checked (``check_record``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Iterator, Sequence

FORMAT = "dixenv-record/1"
#: The most moves a record may hold (a guard for records read from elsewhere).
MAX_MOVES = 100_000
#: Environment options a record may carry besides the game's own.
ENV_OPTIONS = ("auto_forced", "reward")


def jsonable_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options as JSON values (tuples as lists; objects with ``to_dict``/dataclasses as dicts)."""
    import dataclasses

    def conv(v: Any) -> Any:
        if isinstance(v, (list, tuple)):
            return [conv(x) for x in v]
        if isinstance(v, dict):
            return {str(k): conv(x) for k, x in v.items()}
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return conv(dataclasses.asdict(v))
        if hasattr(v, "item") and callable(v.item):  # numpy scalars
            return v.item()
        return v

    return {str(k): conv(v) for k, v in options.items()}


def python_options(options: dict[str, Any]) -> dict[str, Any]:
    """JSON options back as the engine takes them: lists become tuples (``deals=(5, 4)``)."""

    def conv(v: Any) -> Any:
        if isinstance(v, list):
            return tuple(conv(x) for x in v)
        if isinstance(v, dict):
            return {k: conv(x) for k, x in v.items()}
        return v

    return {k: conv(v) for k, v in options.items()}


def make_record(
    game: str,
    options: dict[str, Any],
    seed: int | None,
    seats: Sequence[str],
    moves: Sequence[int],
    scores: Sequence[float] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A record (a plain dict, ready for ``json.dumps``)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": str(game),
        "options": jsonable_options(dict(options)),
        "seed": None if seed is None else int(seed),
        "seats": [str(s) for s in seats],
        "moves": [int(a) for a in moves],
    }
    if scores is not None:
        record["scores"] = [float(s) for s in scores]
    record.update(jsonable_options(extra))
    return record


def check_record(record: Any) -> dict[str, Any]:
    """``record`` if it is a well-formed record of a registered game; ``ValueError`` saying what is wrong."""
    from dixenv.games import game_names

    if not isinstance(record, dict):
        raise ValueError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise ValueError(f"a record's format must be {FORMAT!r}, not {record.get('format')!r}")
    game = record.get("game")
    if game not in game_names():
        raise ValueError(f"unknown game {game!r} in the record; known games: {', '.join(game_names())}")
    if not isinstance(record.get("options"), dict):
        raise ValueError("the record's options must be an object")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63):
        raise ValueError(f"the record's seed must be a non-negative integer or null, not {seed!r}")
    seats = record.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ValueError("the record's seats must be a list of strings")
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(a, int) and not isinstance(a, bool) and a >= 0 for a in moves):
        raise ValueError("the record's moves must be a list of non-negative action ids")
    if len(moves) > MAX_MOVES:
        raise ValueError(f"the record has {len(moves)} moves; at most {MAX_MOVES} are read")
    scores = record.get("scores")
    if scores is not None and (
        not isinstance(scores, list) or not all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores)
    ):
        raise ValueError("the record's scores must be a list of numbers")
    return record


def make_env(record: dict[str, Any], record_events: bool = True) -> Any:
    """A fresh raw environment with the record's options (move log on), not reset yet."""
    from dixenv.agents.registry import env_module

    options = python_options(record["options"])
    options.pop("record_events", None)
    options.pop("render_mode", None)
    try:
        return env_module(record["game"]).raw_env(record_events=record_events, **options)
    except TypeError as exc:  # an option no game or env knows
        raise ValueError(f"the record's options do not fit {record['game']}: {exc}") from exc


def step_through(record: dict[str, Any], env: Any | None = None) -> Iterator[Any]:
    """Reset ``env`` (default: a fresh one) as the record says, yield it, then yield it after every move.

    ``ValueError`` when a move is out of the action space or illegal where it is applied, or when
    moves remain after the game is over.
    """
    check_record(record)
    env = env if env is not None else make_env(record)
    env.reset(seed=record["seed"])
    yield env
    u = env.unwrapped
    for k, action in enumerate(record["moves"]):
        agent = env.agent_selection
        if env.terminations.get(agent) or env.truncations.get(agent):
            raise ValueError(f"the record has {len(record['moves']) - k} move(s) after the end of the game")
        legal = u.state.legal_actions()
        if action not in legal:
            try:
                name = u.action_to_string(action)
                reason = u.state.why_illegal(action)
            except Exception:  # out of the action space
                name, reason = str(action), "not an action of this game"
            raise ValueError(f"move {k} of the record ({name}) is not legal there: {reason}")
        env.step(action)
        yield env


def replay(record: dict[str, Any], check_scores: bool = True) -> Any:
    """The environment after every move of ``record`` (move log in ``env.unwrapped.events``).

    With ``check_scores`` and scores in the record, ``ValueError`` when the replay ends on others.
    """
    env = None
    for env in step_through(record):
        pass
    scores = record.get("scores")
    if check_scores and scores is not None:
        got = [float(s) for s in env.unwrapped.scores()]
        if len(got) != len(scores) or any(not math.isclose(a, b, abs_tol=1e-9) for a, b in zip(got, scores)):
            raise ValueError(f"the replay ends on scores {got}, the record says {scores}")
    return env


def save_record(record: dict[str, Any], path: str | Path) -> Path:
    """Write ``record`` as compact JSON (one line), creating the folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, separators=(",", ":")) + "\n")
    return path


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and check a record file."""
    with open(path, encoding="utf-8") as f:
        return check_record(json.load(f))
