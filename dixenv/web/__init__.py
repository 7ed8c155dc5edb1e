"""A local web table: play, watch and replay dixenv games in the browser (the ``web`` extra).

    pip install "dixenv[web]"
    python -m dixenv.web            # or dixenv-web; then open http://127.0.0.1:8000

Importing ``dixenv.web`` imports nothing heavy: Starlette and uvicorn are imported by
``dixenv.web.app`` and ``dixenv.web.__main__`` only. docs/guides/web.md describes the page and the
JSON API.
"""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    """``dixenv.web.app.create_app`` (imports Starlette now)."""
    from dixenv.web.app import create_app as make

    return make(*args, **kwargs)


def main(argv: Any = None) -> int:
    """``python -m dixenv.web`` / ``dixenv-web``."""
    from dixenv.web.__main__ import main as run

    return run(argv)
