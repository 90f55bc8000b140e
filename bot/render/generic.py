"""The fallback renderer: any view, as labelled fields. Used by games that have
no renderer of their own, and by the runtime's tests."""

from __future__ import annotations

from typing import Any

from bot.render.base import Panel, place_mark
from engines.core import Result, View

_SKIP = {"viewer", "headline"}


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value) if value else "—"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_show(v)}" for k, v in value.items()) or "—"
    return "—" if value is None else str(value)


class GenericRenderer:
    def _fields(self, view: View, panel: Panel) -> Panel:
        for name, value in view.model_dump().items():
            if name not in _SKIP and value is not None:
                panel.add(name.replace("_", " ").capitalize(), _show(value)[:1024])
        return panel

    def table(self, view: View) -> Panel:
        return self._fields(view, Panel(description=view.headline))

    def hand(self, view: View) -> Panel:
        return self._fields(view, Panel(title="Your view", description=view.headline))

    def result(self, result: Result, view: View) -> Panel:
        panel = Panel(title="Game over", description=result.summary)
        for place, seats in enumerate(result.ranking, start=1):
            names = ", ".join(f"<seat:{s}>" for s in seats)
            scores = ", ".join(f"{result.scores[s]:g}" for s in seats if s in result.scores)
            panel.add(place_mark(place), f"{names} ({scores})" if scores else names, inline=False)
        return panel
