"""The web table's command line (``python -m dixenv.web``): defaults and refused values."""

from __future__ import annotations

import pytest

from dixenv.web.__main__ import KEEP_ALIVE_S, build_parser


def test_defaults():
    args = build_parser().parse_args([])
    assert (args.host, args.port, args.keep_alive) == ("127.0.0.1", 8000, KEEP_ALIVE_S)
    assert KEEP_ALIVE_S > 5  # longer than httpx's (5 s) and uvicorn's own default


def test_keep_alive_takes_seconds():
    assert build_parser().parse_args(["--keep-alive", "12.5"]).keep_alive == 12.5


@pytest.mark.parametrize("bad", ["0", "-3", "nan", "inf", "ten"])
def test_keep_alive_refuses_what_is_not_a_positive_number(bad, capsys):
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["--keep-alive", bad])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--keep-alive" in err and f"expected a number of seconds > 0, got {bad!r}" in err
