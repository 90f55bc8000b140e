"""Presentation of engine views as platform-neutral panels.

A renderer turns a game's :class:`~engines.core.View` into a :class:`Panel`:
plain text with ``<seat:N>`` references left in place. The Discord layer turns
a panel into an embed (after swapping in display names); the terminal table
prints it. Renderers never see raw state, only views, so they cannot leak what
a view hides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pydantic import BaseModel, Field

from engines.core import Result, Seat, View

# Discord's embed limits, in characters (the Discord layer cuts to them again
# after display names replace the seat references).
TITLE_MAX, DESCRIPTION_MAX, NAME_MAX, FIELD_MAX, FOOTER_MAX, MAX_FIELDS = 256, 4096, 256, 1024, 2048, 25


def fit(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters; a cut ends in "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class PanelField(BaseModel):
    name: str
    value: str
    inline: bool = True


class Panel(BaseModel):
    """An embed-shaped block of text. Limits (checked by the Discord layer):
    title ≤ 256, description ≤ 4096, ≤ 25 fields of name ≤ 256 / value ≤ 1024."""

    title: str = ""
    description: str = ""
    fields: list[PanelField] = Field(default_factory=list)
    footer: str = ""

    def add(self, name: str, value: str, inline: bool = True) -> Panel:
        self.fields.append(PanelField(name=name, value=value or "—", inline=inline))
        return self


MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def place_mark(number: int) -> str:
    """A place in every game's results alike: a medal for the first three, then "4th"."""
    if number in MEDALS:
        return MEDALS[number]
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def add_ranking(
    panel: Panel,
    result: Result,
    entry: Callable[[Seat], str],
    joiner: str = ", ",
    place: Callable[[int], str] = place_mark,
) -> Panel:
    """One field per place, best first: the seats tied there, each as ``entry`` writes it."""
    for number, seats in enumerate(result.ranking[:MAX_FIELDS], start=1):
        panel.add(place(number), fit(joiner.join(entry(s) for s in seats), FIELD_MAX), inline=False)
    return panel


def add_lines(panel: Panel, name: str, lines: list[str], limit: int = FIELD_MAX, joiner: str = "\n") -> Panel:
    """``lines`` as one field, or as several ("name", "name (continued)") when they
    pass a field's ``limit``: a list a player needs is split between items, never
    cut. ``joiner`` sets the items apart (a line each, or ", " for a run of names)."""
    chunk: list[str] = []
    for line in [fit(line, limit) for line in lines] or ["—"]:
        if chunk and len(joiner.join([*chunk, line])) > limit:
            panel.add(name, joiner.join(chunk), inline=False)
            name, chunk = f"{name.split(' (continued)')[0]} (continued)", []
        chunk.append(line)
    return panel.add(name, joiner.join(chunk), inline=False)


class Renderer(Protocol):
    def table(self, view: View) -> Panel:
        """The public table message's game part (``view.viewer`` is None)."""
        ...

    def hand(self, view: View) -> Panel:
        """A seat's private "My hand" panel."""
        ...

    def result(self, result: Result, view: View) -> Panel:
        """The end-of-game panel (``view`` is the public view of the final state)."""
        ...
