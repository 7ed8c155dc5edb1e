"""A shared check for the engines' illegal-action reasons (``why_illegal``)."""

from __future__ import annotations

from typing import Any, Callable

import pytest


def refused_reason(state: Any, action: int, step: Callable[[int], None], snapshot: Callable[[], Any], *parts: str) -> str:
    """``state.why_illegal(action)``, checked to be non-empty and part of the ``ValueError`` that ``step(action)``
    raises with ``parts`` (the action's name, the legal list), leaving ``snapshot()`` as it was."""
    why = state.why_illegal(action)
    assert why
    before = snapshot()
    with pytest.raises(ValueError) as info:
        step(action)
    message = str(info.value)
    assert why in message and all(part in message for part in parts), message
    assert snapshot() == before
    return why
