"""Pictures of the table, one renderer per game behind :class:`PictureRenderer`.

A game with a picture renderer registers it here under its engine key; a game
without one simply gets no picture, and its text panels carry the table alone.
The text always stays: screen readers and the terminal need it.
"""

from __future__ import annotations

import importlib
from typing import Any

from bot.render.pictures.cards import card_png
from bot.render.pictures.renderer import PictureRenderer
from engines.core import CardText

PICTURES: dict[str, PictureRenderer] = {}


def load_per_game(modules: dict[str, str], attribute: str) -> dict[str, Any]:
    """``attribute`` of each game's module, by game key; a module that does not
    exist is skipped (a game may come without one), any other import error raised."""
    found: dict[str, Any] = {}
    for key, module in modules.items():
        try:
            found[key] = getattr(importlib.import_module(module), attribute)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
    return found


def pictures_for(game: str) -> PictureRenderer | None:
    return PICTURES.get(game)


def card_face_png(game: str, card: CardText) -> bytes | None:
    """One card's face as PNG bytes (``/card``), or None for a game without pictures."""
    renderer = pictures_for(game)
    return None if renderer is None else card_png(renderer.card(card))


PICTURES.update(
    load_per_game(
        {
            "spheres-of-life": "bot.render.pictures.spheres_of_life",
            "scales-of-influence": "bot.render.pictures.scales_of_influence",
            "time-masters": "bot.render.pictures.time_masters",
            "once-upon-a-time-life": "bot.render.pictures.once_upon_a_time_life",
            "phase": "bot.render.pictures.phase",
        },
        "PICTURES",
    )
)

__all__ = ["PICTURES", "PictureRenderer", "card_face_png", "pictures_for"]
