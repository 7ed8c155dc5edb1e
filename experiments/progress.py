"""Progress bars for the experiment tools: tqdm when one is asked for, nothing to install otherwise.

tqdm comes with the ``dev`` and ``train`` extras, not with the environments (numpy, gymnasium and
pettingzoo only). A tool run with its bar off (``--no-progress``, ``progress=False``) therefore
works on a bare ``pip install dixenv``; asking for a bar without tqdm is a clear ImportError.
"""

from __future__ import annotations

from typing import Any


class SilentBar:
    """What the tools call on a bar, doing nothing (the bar is off)."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix(self, *args: Any, **kwargs: Any) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, progress: bool, **kwargs: Any) -> Any:
    """A tqdm bar over ``total`` items if ``progress``, else a ``SilentBar`` (tqdm not imported)."""
    if not progress:
        return SilentBar()
    try:
        from tqdm.auto import tqdm
    except ImportError as exc:
        raise ImportError(
            "progress bars need tqdm, which comes with the dev and train extras "
            "(pip install 'dixenv[train]', or pip install tqdm); or turn the bar off "
            "(--no-progress on the command line, progress=False in Python)"
        ) from exc
    return tqdm(total=total, **kwargs)
