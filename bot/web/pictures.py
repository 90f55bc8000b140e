"""The public table picture for the web: the same Pillow drawing the table
message carries, of ``view(state, None)`` only, as one PNG (a page has no
phone preview to cut it for). Drawn off the event loop, kept per (table,
version) in a small LRU: a table's picture changes only with its version, so
every reader of one version costs one drawing."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Sequence

from bot.render.pictures import pictures_for
from bot.render.pictures.base import to_png
from bot.service.tables import TableService
from bot.web.markup import web_name
from engines.core import View
from storage.records import TableRecord, TableStatus

log = logging.getLogger(__name__)
SHOWN = (TableStatus.PLAYING, TableStatus.FINISHED)
# A picture is 10-80 KB: 64 of them stay within about 5 MB.
CAPACITY = 64


def has_picture(record: TableRecord) -> bool:
    """Whether the table message carries a picture for this table now."""
    return pictures_for(record.game) is not None and record.state is not None and record.status in SHOWN


def draw(game: str, view: View, names: Sequence[str]) -> bytes | None:
    renderer = pictures_for(game)
    return None if renderer is None else to_png(renderer.table(view, names))


def size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header (so the page keeps its place while it loads)."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


class PictureCache:
    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self.kept: OrderedDict[tuple[str, int], bytes | None] = OrderedDict()

    async def table(self, service: TableService, record: TableRecord) -> bytes | None:
        """The public picture of ``record`` as it is (None: the game has none, or it failed to draw)."""
        if not has_picture(record):
            return None
        key = (record.id, record.version)
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        # The view is made here, where the state is kept; only the drawing leaves the loop.
        view = service.view(record, None)
        names = [web_name(seat.name) for seat in record.seats]
        try:
            png = await asyncio.to_thread(draw, record.game, view, names)
        except Exception:
            log.exception("web: table %s: could not draw its picture (v%s)", record.id, record.version)
            png = None
        self.kept[key] = png
        while len(self.kept) > self.capacity:
            self.kept.popitem(last=False)
        return png

    def clear(self) -> None:
        self.kept.clear()
