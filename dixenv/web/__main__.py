"""Serve the web table: ``python -m dixenv.web [--port 8000] [--policies DIR] [--records DIR]``."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

# How long the server keeps an idle HTTP/1.1 connection open. uvicorn's default (5 s) equals httpx's
# client-side keep-alive expiry, so a client reusing a connection idle for almost 5 s races the
# server closing it: the request lands on a closed socket and fails (httpx.ReadError; seen under
# load in tests/web/test_load.py, uvicorn issue #824). A server must keep idle connections longer
# than its clients do; 75 s is nginx's default keepalive_timeout.
KEEP_ALIVE_S = 75.0


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m dixenv.web",
                                description="A local web table: play, watch and replay dixenv games in the browser.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--policies", default=None, metavar="DIR",
                   help="folder of saved policies (NAME.npz + NAME.json) the seats may use as policy:NAME")
    p.add_argument("--records", default=None, metavar="DIR",
                   help="folder of game records (experiments.evaluate --record DIR) the page lists for replay")
    p.add_argument("--max-sessions", type=int, default=1000, help="most games and replays at once (default 1000)")
    p.add_argument("--idle-timeout", type=float, default=1800.0, help="free a session unused this many seconds (default 1800)")
    p.add_argument("--finished-timeout", type=float, default=600.0,
                   help="free a finished game unused this many seconds (default 600)")
    p.add_argument("--keep-alive", type=positive_seconds, default=KEEP_ALIVE_S, metavar="SECONDS",
                   help=f"close an idle HTTP connection after this many seconds (default {KEEP_ALIVE_S:g}; "
                        "longer than clients keep theirs, so a reused connection is never closed under a request)")
    p.add_argument("--log-level", default="warning", help="uvicorn's log level (default warning)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        import uvicorn

        from dixenv.web.app import create_app
    except ImportError as exc:
        print(f"error: the web table needs the web extra (pip install 'dixenv[web]'): {exc}", file=sys.stderr)
        return 2
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1", args.host]
    app = create_app(args.policies, args.records, args.max_sessions, args.idle_timeout, args.finished_timeout,
                     allowed_hosts=hosts if args.host not in ("0.0.0.0", "::") else ["*"])
    print(f"dixenv web table on http://{args.host if ':' not in args.host else f'[{args.host}]'}:{args.port}/ (Ctrl-C stops)")
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, timeout_keep_alive=args.keep_alive)
    return 0


if __name__ == "__main__":
    sys.exit(main())
