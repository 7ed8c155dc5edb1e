"""The table's move log, for people watching: demos, terminal play, GIFs and logs.

When an environment records events (``raw_env(record_events=True)``, or any ``render_mode``), the
engine appends one ``Event`` for everything that happens at the table, in order: every decision,
every move the rules make by themselves (the first draw of a dix turn, ALIX's whole turn, automatic
payments, a dix_de_suite turn-over) and markers for deals, tricks, rounds and scores. The
environment marks the moves it played because they were the only legal one (``kind="forced"``).

An event carries the whole truth (``text``, what a spectator sees) and, where part of it is
hidden from the other seats, what they see instead (``public``): ``text_for(viewer)`` picks the
right one, so a view built from events shows a seat no more than it may know. Recording is off
by default and costs nothing then (engines test ``self.events is not None``); clones used by
search never record.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Event kinds: a decision of an agent; a move made by the rules themselves; the only legal move,
#: played by the environment; a marker (deal, trick, round, scores) that is no move at all.
KINDS = ("move", "auto", "forced", "mark")


@dataclass(frozen=True)
class Event:
    """One thing that happened at the table."""

    seat: int  # who acted, -1 for the table itself (a deal, a trick's end, scoring)
    text: str  # the whole truth, e.g. "player_2 discards 7H face down"
    public: str | None = None  # what the other seats see when part of ``text`` is hidden from them
    kind: str = "move"

    def text_for(self, viewer: int | None) -> str:
        """The event as ``viewer`` may see it (``None``: a spectator, who sees everything)."""
        if self.public is None or viewer is None or viewer == self.seat:
            return self.text
        return self.public
