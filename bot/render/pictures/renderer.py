"""What every game's picture renderer draws: the table, a hand, one card.
Its own module so the drawing helpers in :mod:`bot.render.pictures.base`
need not import the card faces built on them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image

from bot.render.pictures.cards import CardArt
from engines.core import CardText, View


class PictureRenderer(Protocol):
    def table(self, view: View, names: Sequence[str]) -> Image.Image:
        """The public table picture (``view.viewer`` is None). ``names``: seat display names."""
        ...

    def hand(self, view: View, names: Sequence[str]) -> Image.Image | None:
        """A seat's hand as a picture of cards, or None when it has nothing to show."""
        ...

    def card(self, card: CardText) -> CardArt:
        """One card of the deck (from ``Engine.cards``) as its face is drawn: for ``/card``."""
        ...
