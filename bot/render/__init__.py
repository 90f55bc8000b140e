"""Per-game presentation. A game's renderer registers under its engine key;
games without one get the generic renderer.

What a table looks like, as text panels, menus, recaps and pictures, from a
game's view alone: it may import ``engines`` (and PIL), nothing of the table
service, of discord or of the faces that show it."""

from __future__ import annotations

import importlib

from bot.render.base import Panel, PanelField, Renderer
from bot.render.generic import GenericRenderer

RENDERERS: dict[str, Renderer] = {}
_GENERIC = GenericRenderer()


def renderer_for(game: str) -> Renderer:
    return RENDERERS.get(game, _GENERIC)


for _key, _module in (
    ("spheres-of-life", "bot.render.spheres_of_life"),
    ("scales-of-influence", "bot.render.scales_of_influence"),
    ("time-masters", "bot.render.time_masters"),
    ("phase", "bot.render.phase"),
    ("once-upon-a-time-life", "bot.render.once_upon_a_time_life"),
):
    try:
        RENDERERS[_key] = importlib.import_module(_module).RENDERER
    except ModuleNotFoundError as _error:
        if _error.name != _module:
            raise

__all__ = ["RENDERERS", "Panel", "PanelField", "Renderer", "renderer_for"]
