"""Load: 200 games at once over loopback against ``python -m dixenv.web`` (a server process of its own).

Each game is started with a person's seat and two random agents, played to its end through the API
(the person's first legal move each time), its record fetched and its session deleted. Two rounds of
200 concurrent games: after the first (which warms caches and the allocator) the server's resident
memory is measured, and again after the second: it must not grow by more than a few megabytes. No
request may fail. The figures (requests/s, latency p50/p99, memory) are printed and written to
``$DIXENV_WEB_ARTIFACTS/web_load.json`` when that is set.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx is not installed")

ROOT = Path(__file__).resolve().parents[2]
GAMES = 200
ROUND_SECONDS = 240
MAX_GROWTH_MB = 20.0
OPTIONS = {"num_players": 3, "deals": [3, 2]}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


@pytest.fixture(scope="module")
def server():
    if not Path("/proc/self/status").exists():
        pytest.skip("the memory figures read /proc (Linux)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "dixenv.web", "--port", str(port), "--max-sessions", str(2 * GAMES)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(base + "/api", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the server did not start: {proc.stdout.read().decode() if proc.stdout else ''}")
        time.sleep(0.1)
    yield proc, base
    proc.terminate()
    proc.wait(10)


async def one_game(client: httpx.AsyncClient, seed: int, latencies: list[float], errors: list[str]) -> None:
    async def req(method: str, url: str, **kw):
        t0 = time.perf_counter()
        r = await client.request(method, url, **kw)
        latencies.append(time.perf_counter() - t0)
        if r.status_code >= 400:
            errors.append(f"{method} {url}: {r.status_code} {r.text[:200]}")
        return r

    r = await req("POST", "/api/games", json={"game": "le_dix", "options": OPTIONS, "seats": ["person", "random", "random"], "seed": seed})
    info = r.json()
    gid, headers = info["id"], {"Authorization": f"Bearer {info['token']}"}
    view = info["view"]
    while not view["over"]:
        r = await req("POST", f"/api/games/{gid}/moves", json={"action": view["moves"][0]["action"], "since": view["events_total"]},
                      headers=headers)
        if r.status_code != 200:
            return
        view = r.json()
    await req("GET", f"/api/games/{gid}", headers=headers)
    await req("GET", f"/api/games/{gid}/record", headers=headers)
    await req("DELETE", f"/api/games/{gid}", headers=headers)


async def one_round(base: str, first_seed: int) -> dict[str, float]:
    latencies: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=GAMES, max_keepalive_connections=GAMES)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        t0 = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(one_game(client, first_seed + k, latencies, errors) for k in range(GAMES))),
                               ROUND_SECONDS)
        seconds = time.perf_counter() - t0
    assert not errors, errors[:5]
    lat = sorted(latencies)
    return {"games": GAMES, "requests": len(lat), "seconds": round(seconds, 2), "requests_per_s": round(len(lat) / seconds, 1),
            "p50_ms": round(1000 * lat[len(lat) // 2], 1), "p99_ms": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 1)}


def http_get(sock: socket.socket, path: str) -> bytes:
    """One GET on an open connection; returns the response's status line (b"" when the server closed it)."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return b""
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += sock.recv(65536)
    return head.split(b"\r\n")[0]


def test_server_keeps_an_idle_connection_longer_than_httpx_does(server):
    # The server must not close a connection a client still counts as reusable: uvicorn's 5 s default
    # equals httpx's expiry, and under load a request sent at the edge failed with httpx.ReadError.
    _, base = server
    client_expiry = httpx.Limits().keepalive_expiry
    assert client_expiry is not None
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        assert http_get(sock, "/api") == b"HTTP/1.1 200 OK"
        time.sleep(client_expiry + 1)
        assert http_get(sock, "/api") == b"HTTP/1.1 200 OK"  # the same connection, still open


def test_200_concurrent_games_without_errors_or_memory_growth(server):
    proc, base = server
    start_mb = rss_mb(proc.pid)
    first = asyncio.run(one_round(base, 0))
    after_first = rss_mb(proc.pid)
    second = asyncio.run(one_round(base, 10_000))
    after_second = rss_mb(proc.pid)
    figures = {"round1": first, "round2": second, "rss_mb": {"start": round(start_mb, 1), "after_round1": round(after_first, 1),
                                                               "after_round2": round(after_second, 1)}}
    print("\nweb load:", json.dumps(figures))
    folder = os.environ.get("DIXENV_WEB_ARTIFACTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / "web_load.json").write_text(json.dumps(figures, indent=2) + "\n")
    # every session was deleted: a game id from the first round is gone
    assert httpx.get(base + "/api/games/nope", headers={"Authorization": "Bearer x"}).status_code == 404
    assert after_second - after_first < MAX_GROWTH_MB, figures
