"""Sessions of the web table: one game (or one replay) each, behind unguessable tokens.

Starlette-free: the HTTP layer (``dixenv.web.app``) turns ``WebError`` into a 4xx answer. Every
public method validates its input and changes nothing when it refuses it.

* A game session is created with the game, its options, a seed and one entry per agent seat:
  ``"person"`` or an agent spec. Specs are parsed against the agent registry (``parse_seat``): only
  registered short names and their literal parameters; never ``module:Class``; a saved policy only
  as ``policy:NAME`` from the configured policy folder (``NAME.npz`` + ``NAME.json``, no pickle).
* Every person seat gets its own token; a game without persons gets one watch token. A token opens
  only its own session (compared with ``secrets.compare_digest``); a seat token acts and sees only
  for its seat (and, once the game is over, as a spectator: everything is public then), a watch
  token sees from any seat or as a spectator and advances the agents.
* ``SessionStore.sweep`` frees finished sessions after ``finished_ttl`` seconds and any session
  unused for ``idle_ttl`` seconds; ``max_sessions`` bounds how many live at once.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dixenv.web.views import agent_seat_numbers, table_view

PERSON = "person"
MAX_SPEC = 200
MAX_OPTIONS = 20
#: What one agent may think per move here: a request must not tie up the server (a person waits on it).
MAX_SEARCH = {"iterations": 2000, "seconds": 5.0, "worlds": 1000}
#: Any other numeric agent parameter is refused beyond this size.
MAX_NUMBER = 10**6
_NAME = re.compile(r"^[a-z][a-z0-9_.-]*$")
_POLICY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
#: Environment options the page may set besides the game's own.
ENV_OPTIONS = ("auto_forced",)


class WebError(Exception):
    """A refused request: HTTP status and a message for the person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def _token() -> str:
    return secrets.token_urlsafe(32)


# ---------------------------------------------------------------------------------------------
# games, options and agents


def games_catalog(policy_dir: Path | None) -> list[dict[str, Any]]:
    """Every registered game: players, default table, options (name, default), agents the page may choose."""
    from dixenv.games import game_names, game_spec

    out = []
    for name in game_names():
        spec = game_spec(name)
        options = [{"name": k, "default": _jsonable(v)} for k, v in game_options(name).items()]
        options.append({"name": "auto_forced", "default": True})
        out.append({
            "name": name,
            "title": spec.title,
            "players": list(spec.players),
            "default_table": _jsonable(dict(spec.default_table)),
            "options": options,
            "agents": agent_choices(name, policy_dir),
        })
    return out


def game_options(game: str) -> dict[str, Any]:
    """A game's options and their defaults: the init fields of its config dataclass (``deck_spec`` aside)."""
    import dataclasses

    from dixenv.games import game_spec

    try:
        config = game_spec(game).game_record().make_config()
    except (TypeError, ValueError):
        return {}
    if not dataclasses.is_dataclass(config):
        return {}
    return {f.name: getattr(config, f.name) for f in dataclasses.fields(config) if f.init and f.name != "deck_spec"}


def _jsonable(v: Any) -> Any:
    from dixenv.replay import jsonable_options

    return jsonable_options({"v": v})["v"]


def policy_names(game: str, policy_dir: Path | None) -> list[str]:
    """Names of the saved policies of ``game`` in the policy folder (``NAME.json`` beside ``NAME.npz``)."""
    import json

    if policy_dir is None or not policy_dir.is_dir():
        return []
    names = []
    for meta in sorted(policy_dir.glob("*.json")):
        if not _POLICY_NAME.match(meta.stem) or not meta.with_suffix(".npz").is_file():
            continue
        try:
            info = json.loads(meta.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(info, dict) and info.get("game") in (None, game):
            names.append(meta.stem)
    return names


def agent_choices(game: str, policy_dir: Path | None) -> list[str]:
    """The agent specs the page offers for ``game``: registered short names, and ``policy:NAME``."""
    from dixenv.agents.registry import list_agents

    names = [a for a in list_agents(game) if a != "policy"]
    return names + [f"policy:{n}" for n in policy_names(game, policy_dir)]


def parse_seat(game: str, spec: Any, policy_dir: Path | None) -> tuple[str, dict[str, Any]]:
    """A seat entry as (short agent name, parameters), or ``(PERSON, {})``; ``WebError`` 400 otherwise."""
    from dixenv.agents.registry import list_agents, parse_key_values

    if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC:
        raise WebError(400, f"a seat is 'person' or an agent spec (a string of at most {MAX_SPEC} characters), not {spec!r}")
    spec = spec.strip()
    if spec.lower() == PERSON:
        return PERSON, {}
    name, _, rest = spec.partition(":")
    name = name.strip().lower()
    known = list_agents(game)
    if not _NAME.match(name) or name not in known:
        raise WebError(400, f"unknown agent {spec!r} for {game}; choose one of: {', '.join(agent_choices(game, policy_dir))} "
                            "(agent classes by module path are not accepted here)")
    items = [x for x in rest.split(",") if x.strip()] if rest else []
    if name == "policy":
        if not items or "=" in items[0]:
            raise WebError(400, "a saved policy is named 'policy:NAME', NAME from the server's policy folder")
        stem = items.pop(0).strip()
        if policy_dir is None:
            raise WebError(400, "this server has no policy folder (start it with --policies DIR)")
        if not _POLICY_NAME.match(stem) or stem not in policy_names(game, policy_dir):
            raise WebError(400, f"no policy {stem!r} for {game} in the server's policy folder; "
                                f"known: {', '.join(policy_names(game, policy_dir)) or 'none'}")
    try:
        params = parse_key_values(items, what=f"parameter of agent {name!r}")
    except ValueError as exc:
        raise WebError(400, str(exc)) from None
    for key, value in params.items():
        if not key.isidentifier() or key.startswith("_") or key in ("path", "env", "seed"):
            raise WebError(400, f"agent parameter {key!r} is not accepted here")
        limit = MAX_SEARCH.get(key, MAX_NUMBER)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not abs(value) <= limit:
            raise WebError(400, f"agent parameter {key}={value!r} is too large here; at most {limit:g}")
    if name == "policy":
        params["path"] = str(policy_dir / stem)  # type: ignore[operator]
    return name, params


def check_options(game: str, options: Any) -> dict[str, Any]:
    """The game options of a request, validated by the game (``make_config``) and the env; ``WebError`` 400."""
    from dixenv.games import game_spec
    from dixenv.replay import python_options

    if options is None:
        options = {}
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise WebError(400, "options must be a JSON object of option names and values")
    options = python_options(options)
    make_config = game_spec(game).game_record().make_config
    allowed = set(game_options(game))
    unknown = [k for k in options if k not in allowed and k not in ENV_OPTIONS]
    if unknown:
        raise WebError(400, f"unknown option(s) {', '.join(map(repr, unknown))} for {game}; options: {', '.join(sorted(allowed | set(ENV_OPTIONS)))}")
    for key in ENV_OPTIONS:
        if key in options and not isinstance(options[key], bool):
            raise WebError(400, f"option {key} must be true or false")
    try:
        make_config(**{k: v for k, v in options.items() if k not in ENV_OPTIONS})
    except (ValueError, TypeError) as exc:
        raise WebError(400, str(exc)) from None
    return options


# ---------------------------------------------------------------------------------------------
# sessions


@dataclass
class Session:
    """What every session has: an id, tokens (token -> seat, None for a watch token), a clock and a lock."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[str]
    env: Any
    tokens: dict[str, int | None]
    created: float = field(default_factory=time.monotonic)
    last_used: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    kind: str = "game"

    def token_seat(self, token: str | None) -> int | None:
        """The seat of ``token`` (None: a watch token); ``WebError`` 403 when it does not open this session."""
        if token:
            for t, seat in self.tokens.items():
                if secrets.compare_digest(t, token):
                    return seat
        raise WebError(403, "this token does not open this game")

    @property
    def over(self) -> bool:
        env = self.env
        agent = env.agent_selection
        return bool(env.terminations.get(agent) or env.truncations.get(agent)) or env.unwrapped.state.is_terminal()

    def viewer_for(self, token_seat: int | None, viewer: Any) -> int | None:
        """The seat to draw the table for (None: spectator), as the token allows."""
        if viewer in (None, ""):
            return token_seat
        if viewer == "spectator":
            wanted = None
        else:
            try:
                wanted = int(viewer)
            except (TypeError, ValueError):
                raise WebError(400, f"viewer must be a seat number or 'spectator', not {viewer!r}") from None
            if wanted not in agent_seat_numbers(self.env):
                raise WebError(400, f"viewer {wanted} is not a seat of this table (seats: {agent_seat_numbers(self.env)})")
        if token_seat is not None and wanted != token_seat:
            if wanted is None and self.over:
                return None  # the game is over: everything is public, a seat may look as a spectator
            raise WebError(403, f"your token sees the table from seat {token_seat} only"
                                + (" until the game is over (then as a spectator too)" if wanted is None else ""))
        return wanted

    def seat_name(self, seat: int) -> str:
        if seat >= len(self.env.possible_agents):
            return "ALIX"
        return f"player_{seat}"

    def summary(self) -> dict[str, Any] | None:
        """Scores, winners and the game's figures per seat (le_dix: bids made), once the game is over."""
        if not self.over:
            return None
        u = self.env.unwrapped
        state = u.state
        scores = [float(s) for s in u.scores()]
        keys = state.ranking_keys()
        finished = state.is_terminal()
        best = max(keys)
        winners = [s for s, k in enumerate(keys) if k == best] if finished else []
        out = {"scores": scores, "winners": winners, "finished": finished,
               "names": [self.seat_name(s) for s in range(len(scores))]}
        out.update(self.figures())
        return out

    def figures(self) -> dict[str, Any]:
        return {}


def _events(env: Any, viewer: int | None, start: int, end: int | None = None) -> list[dict[str, Any]]:
    events = env.unwrapped.events or []
    return [{"i": i, "seat": e.seat, "kind": e.kind, "text": e.text_for(viewer)}
            for i, e in enumerate(events[start:end], start)]


class GameSession(Session):
    """A game being played or watched."""

    def __init__(self, *, agents: dict[str, Any], persons: set[int], **kw: Any):
        super().__init__(**kw)
        self.agents, self.persons = agents, persons
        self.moves: list[int] = []
        from dixenv.experiments.game_stats import make_hook

        self.hook = make_hook(self.game)
        self.hook.start(self.env)

    def figures(self) -> dict[str, Any]:
        try:
            figures = self.hook.seat_figures(self.env)
        except Exception:  # figures are extras; a game without them still has its summary
            return {}
        out: dict[str, Any] = {"figures": figures}
        if self.game == "le_dix":
            out["bids_made"] = [f.get("bids_made") for f in figures]
        return out

    def current_seat(self) -> int | None:
        return None if self.over else int(self.env.agent_selection.rsplit("_", 1)[1])

    def _step(self, action: int) -> None:
        seat = self.current_seat()
        self.env.step(int(action))
        self.moves.append(int(action))
        self.hook.after_step(self.env, seat, self.env.unwrapped.action_to_string(int(action)))

    def advance(self, max_steps: int) -> int:
        """Let agents play until a person is to play, the game ends or ``max_steps`` moves are made."""
        done = 0
        while done < max_steps and not self.over:
            seat = self.current_seat()
            if seat in self.persons:
                break
            agent = self.env.agent_selection
            action = self.agents[agent].act(self.env.observe(agent))
            self._step(action)
            done += 1
        return done

    def parse_action(self, body: dict[str, Any]) -> int:
        u = self.env.unwrapped
        if "action" in body:
            a = body["action"]
            if not isinstance(a, int) or isinstance(a, bool):
                raise WebError(400, "action must be an action id (an integer)")
            if not 0 <= a < u.action_space(self.env.possible_agents[0]).n:
                raise WebError(400, f"action {a} is out of the action space (0..{u.action_space(self.env.possible_agents[0]).n - 1})")
            return a
        if "move" in body:
            text = body["move"]
            if not isinstance(text, str) or len(text) > 100:
                raise WebError(400, "move must be a move's text, such as 'play TH'")
            try:
                return int(u.string_to_action(text))
            except (ValueError, TypeError, KeyError):
                raise WebError(400, f"'{text}' is not a move of {self.game}") from None
        raise WebError(400, "send {\"action\": id} or {\"move\": \"text\"}")

    def play(self, token_seat: int | None, body: dict[str, Any]) -> int:
        """A person's move: checked (their token, their turn, legal), applied, then the agents play on."""
        if token_seat is None:
            raise WebError(403, "a watch token cannot make moves; agents play every seat of this game")
        action = self.parse_action(body)
        if self.over:
            raise WebError(409, "the game is over")
        seat = self.current_seat()
        if seat != token_seat:
            raise WebError(409, f"it is not your turn: {self.seat_name(seat)} is to play")  # type: ignore[arg-type]
        state = self.env.unwrapped.state
        if action not in state.legal_actions():
            name = self.env.unwrapped.action_to_string(action)
            raise WebError(422, f"'{name}' is not legal now: {state.why_illegal(action)}")
        self._step(action)
        return action

    def moves_for(self, viewer: int | None, table: dict[str, Any] | None = None) -> dict[str, Any]:
        """The legal moves of ``viewer`` when it is their turn (and which cards they concern)."""
        seat = self.current_seat()
        if viewer is None or seat != viewer or viewer not in self.persons:
            return {"moves": [], "cards": {}}
        return legal_moves(self.env, table)

    def view(self, viewer: int | None, since: int = 0) -> dict[str, Any]:
        env = self.env
        events = env.unwrapped.events or []
        since = max(0, min(int(since), len(events)))
        table = table_view(env, viewer)
        return {
            "id": self.id,
            "kind": "game",
            "game": self.game,
            "options": _jsonable(self.options),
            "seed": self.seed,
            "seats": self.seats,
            "persons": sorted(self.persons),
            "viewer": viewer,
            "to_play": self.current_seat(),
            "over": self.over,
            "table": table,
            **self.moves_for(viewer, table),
            "events": _events(env, viewer, since),
            "events_total": len(events),
            "moves_made": len(self.moves),
            "summary": self.summary(),
        }

    def record(self) -> dict[str, Any]:
        from dixenv.replay import make_record

        scores = [float(s) for s in self.env.unwrapped.scores()] if self.over else None
        return make_record(self.game, self.options, self.seed, self.seats, self.moves, scores)


def _leaves(x: Any, out: set[str]) -> set[str]:
    """Every number and string inside a view, as text (which card tokens the page can show)."""
    if isinstance(x, dict):
        for v in x.values():
            _leaves(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _leaves(v, out)
    elif isinstance(x, (str, int)) and not isinstance(x, bool):
        out.add(str(x))
    return out


def legal_moves(env: Any, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """Legal moves as [{action, text}], and per card token (the last word of a move: ``TH``, ``3``)
    what clicking it does: its legal moves, or the move it would be and the engine's reason why not.
    With ``table`` (the seat's view), only tokens the view shows get a reason (and rack slots)."""
    u = env.unwrapped
    state = u.state
    legal = [int(a) for a in state.legal_actions()]
    moves = [{"action": a, "text": u.action_to_string(a)} for a in legal]
    verbs = {m["text"].split(" ", 1)[0] for m in moves}
    by_token = _token_index(u)
    cards: dict[str, Any] = {}
    legal_set = set(legal)
    shown = _leaves(table, set()) | {str(k) for k in range(1, 11)} if table is not None else None
    for token, actions in by_token.items():
        ok = [a for a in actions if a in legal_set]
        if shown is not None and not ok and token not in shown:
            continue
        if ok:
            cards[token] = {"legal": True, "actions": ok}
            continue
        tries = [a for a in actions if u.action_to_string(a).split(" ", 1)[0] in verbs]
        if tries:
            a = tries[0]
            cards[token] = {"legal": False, "action": a, "text": u.action_to_string(a), "reason": state.why_illegal(a)}
    return {"moves": moves, "cards": cards}


_TOKEN_INDEX: dict[tuple[str, int], dict[str, list[int]]] = {}


def _token_index(u: Any) -> dict[str, list[int]]:
    """Actions of two words or more by their last word (``play TH`` -> ``TH``), per game and action count."""
    n = u.action_space(u.possible_agents[0]).n
    key = (u.game.name, n)
    index = _TOKEN_INDEX.get(key)
    if index is None:
        index = {}
        for a in range(n):
            words = u.action_to_string(a).split(" ")
            if len(words) >= 2 and words[-1] not in ("trump", "discard", "numbers", "money", "consolation"):
                index.setdefault(words[-1], []).append(a)
        _TOKEN_INDEX[key] = index
    return index


class ReplaySession(Session):
    """A game record stepped through forwards and backwards (every viewer allowed)."""

    def __init__(self, *, record: dict[str, Any], **kw: Any):
        super().__init__(kind="replay", **kw)
        self.record = record
        self.position = 0
        self.length = len(record["moves"])
        self._marks: list[int] = []  # events count after each position

    @property
    def over(self) -> bool:
        return self.position == self.length and super().over

    def goto(self, position: int) -> None:
        """Replay the record to ``position`` moves (forward from here, or from the start)."""
        from dixenv.replay import make_env

        if not 0 <= position <= self.length:
            raise WebError(400, f"position must be from 0 to {self.length}")
        if position < self.position:
            self.env = make_env(self.record)
            self.env.reset(seed=self.record["seed"])
            self.position = 0
        u = self.env.unwrapped
        while self.position < position:
            action = self.record["moves"][self.position]
            if action not in u.state.legal_actions():
                raise WebError(422, f"move {self.position} of the record is not legal on this engine")
            self.env.step(action)
            self.position += 1

    def view(self, viewer: int | None, since: int = 0) -> dict[str, Any]:
        env = self.env
        events = env.unwrapped.events or []
        agent = env.agent_selection
        over = bool(env.terminations.get(agent) or env.truncations.get(agent))
        return {
            "id": self.id,
            "kind": "replay",
            "game": self.game,
            "options": _jsonable(self.options),
            "seed": self.seed,
            "seats": self.seats,
            "viewer": viewer,
            "position": self.position,
            "length": self.length,
            "next_move": env.unwrapped.action_to_string(self.record["moves"][self.position]) if self.position < self.length else None,
            "to_play": None if over else int(agent.rsplit("_", 1)[1]),
            "over": over,
            "table": table_view(env, viewer),
            "moves": [],
            "cards": {},
            "events": _events(env, viewer, 0),
            "events_total": len(events),
            "summary": self.summary() if over else None,
        }

    def viewer_for(self, token_seat: int | None, viewer: Any) -> int | None:
        return super().viewer_for(None, viewer)


class SessionStore:
    """The live sessions, their limits and their sweeping."""

    def __init__(self, policy_dir: str | Path | None = None, records_dir: str | Path | None = None,
                 max_sessions: int = 1000, idle_ttl: float = 1800.0, finished_ttl: float = 600.0,
                 max_agent_steps: int = 5000):
        self.policy_dir = Path(policy_dir).resolve() if policy_dir else None
        self.records_dir = Path(records_dir).resolve() if records_dir else None
        self.max_sessions, self.idle_ttl, self.finished_ttl = int(max_sessions), float(idle_ttl), float(finished_ttl)
        self.max_agent_steps = int(max_agent_steps)
        self.sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._seeds = np.random.default_rng()

    def __len__(self) -> int:
        return len(self.sessions)

    def _add(self, session: Session) -> None:
        with self._lock:
            self.sweep()
            if len(self.sessions) >= self.max_sessions:
                raise WebError(503, f"the server holds {self.max_sessions} games already; try again later")
            self.sessions[session.id] = session

    def get(self, session_id: str, token: str | None, kind: str) -> tuple[Session, int | None]:
        """The session and its token's seat; 404 for no such session, 403 for a token of another one."""
        session = self.sessions.get(session_id) if isinstance(session_id, str) else None
        if session is None or session.kind != kind:
            raise WebError(404, f"no {kind} {session_id!r} here (finished and idle sessions are freed after a while)")
        seat = session.token_seat(token)
        session.last_used = time.monotonic()
        return session, seat

    def remove(self, session_id: str) -> None:
        with self._lock:
            self.sessions.pop(session_id, None)

    def sweep(self, now: float | None = None) -> int:
        """Free finished sessions unused for ``finished_ttl`` and any unused for ``idle_ttl``; how many went."""
        now = time.monotonic() if now is None else now
        gone = [sid for sid, s in list(self.sessions.items())
                if now - s.last_used > self.idle_ttl or (s.kind == "game" and now - s.last_used > self.finished_ttl and s.over)]
        for sid in gone:
            self.sessions.pop(sid, None)
        return len(gone)

    # -- creating -------------------------------------------------------------------------------
    def create_game(self, body: Any) -> tuple[GameSession, dict[str, Any]]:
        """A new game from a request body: ``{"game", "options", "seats", "seed"}``."""
        from dixenv.agents.registry import env_module, make_agent
        from dixenv.games import game_names

        if not isinstance(body, dict):
            raise WebError(400, "the body must be a JSON object: {\"game\": ..., \"options\": {...}, \"seats\": [...]}")
        unknown = set(body) - {"game", "options", "seats", "seed"}
        if unknown:
            raise WebError(400, f"unknown field(s) {sorted(unknown)}; fields: game, options, seats, seed")
        game = body.get("game")
        if game not in game_names():
            raise WebError(400, f"unknown game {game!r}; games: {', '.join(game_names())}")
        options = check_options(game, body.get("options"))
        seed = body.get("seed")
        if seed is None:
            seed = int(self._seeds.integers(2**31))
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise WebError(400, "seed must be a non-negative integer")
        try:
            env = env_module(game).raw_env(record_events=True, **options)
        except (ValueError, TypeError) as exc:
            raise WebError(400, str(exc)) from None
        names = list(env.possible_agents)
        seats = body.get("seats")
        if seats is None:
            seats = [PERSON] + ["heuristic"] * (len(names) - 1)
        if not isinstance(seats, list) or len(seats) != len(names):
            raise WebError(400, f"seats must list {len(names)} entries (one per seat: 'person' or an agent), got {seats!r}")
        parsed = [parse_seat(game, s, self.policy_dir) for s in seats]
        rng = np.random.default_rng(seed)
        agents, persons = {}, set()
        for name, (agent, params), spec in zip(names, parsed, seats):
            seat = int(name.rsplit("_", 1)[1])
            if agent == PERSON:
                persons.add(seat)
                continue
            try:
                agents[name] = make_agent(game, agent, env, seed=int(rng.integers(2**31)), **params)
            except (ValueError, TypeError, ImportError, OSError) as exc:
                raise WebError(400, f"agent {spec!r}: {exc}") from None
        tokens: dict[str, int | None] = {_token(): s for s in sorted(persons)} or {_token(): None}
        env.reset(seed=seed)
        session = GameSession(id=secrets.token_urlsafe(12), game=game, options=options, seed=seed,
                              seats=[s.strip() for s in seats], env=env, tokens=tokens, agents=agents, persons=persons)
        if persons:
            session.advance(self.max_agent_steps)  # agents before the first person
        self._add(session)
        return session, {"id": session.id, "tokens": {str(s): t for t, s in tokens.items() if s is not None},
                         "token": next(iter(tokens)), "persons": sorted(persons)}

    def open_replay(self, body: Any) -> tuple[ReplaySession, dict[str, Any]]:
        """A replay session from ``{"record": {...}}`` or ``{"name": NAME}`` (a record of the records folder)."""
        from dixenv.replay import check_record, load_record, make_env

        if not isinstance(body, dict) or not ({"record", "name"} & set(body)):
            raise WebError(400, "send {\"record\": {...}} (a game record) or {\"name\": NAME} (from the server's records folder)")
        if "name" in body:
            name = body["name"]
            if self.records_dir is None:
                raise WebError(400, "this server has no records folder (start it with --records DIR)")
            if not isinstance(name, str) or name not in record_names(self.records_dir):
                raise WebError(404, f"no record {name!r} in the server's records folder")
            try:
                record = load_record(self.records_dir / f"{name}.json")
            except (OSError, ValueError) as exc:
                raise WebError(400, f"record {name!r}: {exc}") from None
        else:
            try:
                record = check_record(body["record"])
            except ValueError as exc:
                raise WebError(400, str(exc)) from None
        try:
            options = check_options(record["game"], record["options"])
            env = make_env({**record, "options": options})
            env.reset(seed=record["seed"])
        except (ValueError, TypeError) as exc:
            raise WebError(400, f"the record cannot be replayed: {exc}") from None
        session = ReplaySession(id=secrets.token_urlsafe(12), game=record["game"], options=options, seed=record["seed"],
                                seats=list(record["seats"]), env=env, tokens={_token(): None}, record=record)
        if len(session.seats) != len(env.possible_agents):
            raise WebError(400, f"the record names {len(session.seats)} seats, the table has {len(env.possible_agents)}")
        self._add(session)
        return session, {"id": session.id, "token": next(iter(session.tokens)), "length": session.length}


def record_names(records_dir: Path | None) -> list[str]:
    """The records of the records folder (``NAME.json``), names only."""
    if records_dir is None or not records_dir.is_dir():
        return []
    return sorted(p.stem for p in records_dir.glob("*.json") if _POLICY_NAME.match(p.stem))
