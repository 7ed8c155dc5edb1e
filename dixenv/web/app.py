"""The web table's HTTP layer (Starlette): the page, its static files and the JSON API under ``/api``.

``create_app(...)`` builds the application; ``python -m dixenv.web`` serves it with uvicorn. The API
(docs/guides/web.md has it in full):

==========  ===============================  ====================================================
GET         /api                             this list, as JSON
GET         /api/catalog                     games, their options and the agents each seat may be
POST        /api/games                       start a game: {"game", "options", "seats", "seed"}
GET         /api/games/{id}                  the table (?viewer=SEAT|spectator&since=EVENT)
POST        /api/games/{id}/moves            a person's move: {"action": id} or {"move": "play TH"}
POST        /api/games/{id}/advance          agents-only games: {"steps": n} agent moves
GET         /api/games/{id}/record           the game record so far (dixenv.replay)
DELETE      /api/games/{id}                  end the session
GET         /api/records                     the records of the server's records folder
POST        /api/replays                     open a record: {"record": {...}} or {"name": NAME}
GET         /api/replays/{id}                the table at a position (?pos=K&viewer=...)
DELETE      /api/replays/{id}                end the session
==========  ===============================  ====================================================

Every request on a session carries its token: ``Authorization: Bearer TOKEN``. Refusals are JSON
``{"error": message}`` with a 4xx status and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from dixenv.web.sessions import SessionStore, WebError, games_catalog, record_names

STATIC = Path(__file__).parent / "static"
MAX_BODY = 2_000_000  # bytes: a record of a long game is far below
MAX_ADVANCE = 1000
API = [
    ("GET", "/api", "this list"),
    ("GET", "/api/catalog", "games, their options and the agents each seat may be"),
    ("POST", "/api/games", "start a game: {game, options, seats: ['person' | agent spec per seat], seed}"),
    ("GET", "/api/games/{id}", "the table: ?viewer=SEAT|spectator&since=EVENT"),
    ("POST", "/api/games/{id}/moves", "a person's move: {action: id} or {move: 'play TH'}; then the agents play on"),
    ("POST", "/api/games/{id}/advance", "agents-only games: {steps: n} agent moves (watch mode)"),
    ("GET", "/api/games/{id}/record", "the game record so far"),
    ("DELETE", "/api/games/{id}", "end the session"),
    ("GET", "/api/records", "the names of the records in the server's records folder"),
    ("POST", "/api/replays", "open a record: {record: {...}} or {name: NAME}"),
    ("GET", "/api/replays/{id}", "the table at a position: ?pos=K&viewer=SEAT|spectator"),
    ("DELETE", "/api/replays/{id}", "end the session"),
]
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)


def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.headers.get("x-dixenv-token")


async def _body(request: Request) -> Any:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise WebError(413, f"the body is over {MAX_BODY} bytes")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise WebError(413, f"the body is over {MAX_BODY} bytes")
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise WebError(400, f"the body is not valid JSON: {exc}") from None


def _int_param(request: Request, name: str, default: int) -> int:
    value = request.query_params.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise WebError(400, f"{name} must be an integer, not {value!r}") from None


def create_app(
    policy_dir: str | Path | None = None,
    records_dir: str | Path | None = None,
    max_sessions: int = 1000,
    idle_ttl: float = 1800.0,
    finished_ttl: float = 600.0,
    sweep_every: float = 10.0,
    allowed_hosts: list[str] | None = None,
) -> Starlette:
    """The web table. ``policy_dir``: where ``policy:NAME`` agents load from; ``records_dir``: records
    the page lists; sessions are freed ``finished_ttl`` seconds after their game ends and
    ``idle_ttl`` seconds after their last request (checked every ``sweep_every`` seconds)."""
    store = SessionStore(policy_dir, records_dir, max_sessions, idle_ttl, finished_ttl)

    def endpoint(fn: Callable[..., Any]) -> Callable[[Request], Any]:
        async def handler(request: Request) -> Response:
            try:
                return await fn(request)
            except WebError as exc:
                return _error(exc.status, exc.message)
        return handler

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def api(request: Request) -> Response:
        return _json({"endpoints": [{"method": m, "path": p, "what": w} for m, p, w in API],
                      "auth": "Authorization: Bearer TOKEN (from POST /api/games or POST /api/replays)"})

    async def catalog(request: Request) -> Response:
        data = await run_in_threadpool(games_catalog, store.policy_dir)
        return _json({"games": data, "records": store.records_dir is not None})

    async def create_game(request: Request) -> Response:
        body = await _body(request)
        session, info = await run_in_threadpool(store.create_game, body)
        return _json({**info, "view": await _view(session, info["persons"][0] if info["persons"] else None, 0)}, 201)

    async def _view(session: Any, viewer: int | None, since: int) -> dict[str, Any]:
        def work() -> dict[str, Any]:
            with session.lock:
                return session.view(viewer, since)
        return await run_in_threadpool(work)

    def _session(request: Request, kind: str) -> tuple[Any, int | None]:
        return store.get(request.path_params["id"], _token(request), kind)

    async def get_game(request: Request) -> Response:
        session, seat = _session(request, "game")
        viewer = session.viewer_for(seat, request.query_params.get("viewer"))
        return _json(await _view(session, viewer, _int_param(request, "since", 0)))

    async def move(request: Request) -> Response:
        session, seat = _session(request, "game")
        body = await _body(request)
        if not isinstance(body, dict):
            raise WebError(400, "the body must be a JSON object: {\"action\": id} or {\"move\": \"text\"}")
        since = body.get("since", 0) if isinstance(body.get("since", 0), int) else 0

        def work() -> dict[str, Any]:
            with session.lock:
                session.play(seat, body)
                session.advance(store.max_agent_steps)
                return session.view(seat, since)
        return _json(await run_in_threadpool(work))

    async def advance(request: Request) -> Response:
        session, seat = _session(request, "game")
        body = await _body(request)
        if not isinstance(body, dict):
            raise WebError(400, "the body must be a JSON object: {\"steps\": n}")
        steps = body.get("steps", 1)
        if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= MAX_ADVANCE:
            raise WebError(400, f"steps must be an integer from 1 to {MAX_ADVANCE}")
        if seat is not None:
            raise WebError(403, "only a watch token advances the agents (a person's moves do it in play)")
        viewer = session.viewer_for(seat, body.get("viewer", request.query_params.get("viewer")))
        since = body.get("since", 0) if isinstance(body.get("since", 0), int) else 0

        def work() -> dict[str, Any]:
            with session.lock:
                if session.over:
                    raise WebError(409, "the game is over")
                session.advance(steps)
                return session.view(viewer, since)
        return _json(await run_in_threadpool(work))

    async def game_record(request: Request) -> Response:
        session, _ = _session(request, "game")

        def work() -> dict[str, Any]:
            with session.lock:
                return session.record()
        return _json(await run_in_threadpool(work))

    async def delete(request: Request) -> Response:
        kind = "replay" if request.url.path.startswith("/api/replays") else "game"
        session, _ = _session(request, kind)
        store.remove(session.id)
        return _json({"deleted": session.id})

    async def records(request: Request) -> Response:
        return _json({"records": record_names(store.records_dir)})

    async def open_replay(request: Request) -> Response:
        body = await _body(request)
        session, info = await run_in_threadpool(store.open_replay, body)
        return _json({**info, "view": await _view(session, None, 0)}, 201)

    async def get_replay(request: Request) -> Response:
        session, seat = _session(request, "replay")
        viewer = session.viewer_for(seat, request.query_params.get("viewer"))
        pos = _int_param(request, "pos", session.position)

        def work() -> dict[str, Any]:
            with session.lock:
                session.goto(pos)
                return session.view(viewer)
        return _json(await run_in_threadpool(work))

    async def not_found(request: Request) -> Response:
        return _error(404, f"no endpoint {request.method} {request.url.path}; GET /api lists them")

    routes = [
        Route("/", index),
        Route("/api", endpoint(api)),
        Route("/api/catalog", endpoint(catalog)),
        Route("/api/games", endpoint(create_game), methods=["POST"]),
        Route("/api/games/{id}", endpoint(get_game), methods=["GET"]),
        Route("/api/games/{id}", endpoint(delete), methods=["DELETE"]),
        Route("/api/games/{id}/moves", endpoint(move), methods=["POST"]),
        Route("/api/games/{id}/advance", endpoint(advance), methods=["POST"]),
        Route("/api/games/{id}/record", endpoint(game_record), methods=["GET"]),
        Route("/api/records", endpoint(records)),
        Route("/api/replays", endpoint(open_replay), methods=["POST"]),
        Route("/api/replays/{id}", endpoint(get_replay), methods=["GET"]),
        Route("/api/replays/{id}", endpoint(delete), methods=["DELETE"]),
        Route("/api/{rest:path}", not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):  # type: ignore[no-untyped-def]
        async def sweeper() -> None:
            while True:
                await asyncio.sleep(sweep_every)
                store.sweep()
        task = asyncio.create_task(sweeper())
        try:
            yield
        finally:
            task.cancel()

    hosts = allowed_hosts or ["127.0.0.1", "localhost", "[::1]", "::1", "testserver"]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])
    app.state.store = store
    return app
