"""Pictures for a table record: rendered off the event loop, cached by table version.

:class:`TablePictures` is what the Discord layer calls. Drawing a picture takes
tens of milliseconds of CPU, so it never runs on the event loop: by default in a
worker thread (``asyncio.to_thread``); given a process pool, in another process,
which also spares the loop the GIL the drawing thread holds (see
``benchmarks/bench_pictures.py`` for both). A table's picture changes only when
its version does, so pictures are kept in a small LRU keyed by
``(table id, version, seat)``: the public picture and each seat's hand are drawn
once per version however many times they are shown. A picture that fails to draw
is logged and left out; the message still goes, with its text.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor

from bot.render.pictures import pictures_for
from bot.render.pictures.base import to_png
from engines.core import View
from storage.records import TableRecord, TableStatus

log = logging.getLogger(__name__)
ViewOf = Callable[[TableRecord, int | None], View]
CacheKey = tuple[str, int, int | None]
SHOWN = (TableStatus.PLAYING, TableStatus.FINISHED)
# One picture is 10-80 KB: 256 of them stay within about 20 MB.
CAPACITY = 256


class TablePictures:
    def __init__(self, view_of: ViewOf, capacity: int = CAPACITY, processes: Executor | None = None) -> None:
        """``view_of(record, user_id)``: the view a user may see (``TableService.view``);
        ``processes``: a process pool to draw in (None: a thread)."""
        self.view_of = view_of
        self.capacity = capacity
        self.processes = processes
        self.cache: OrderedDict[CacheKey, bytes | None] = OrderedDict()
        self.rendered = 0

    async def table(self, record: TableRecord) -> bytes | None:
        """The public picture (PNG), or None for a game without one or a table not in play."""
        return await self._picture(record, None)

    async def hand(self, record: TableRecord, user_id: int) -> bytes | None:
        """``user_id``'s hand as a picture of cards, or None."""
        seat = record.seat_of(user_id)
        if seat is None or record.status is not TableStatus.PLAYING:
            return None
        return await self._picture(record, user_id)

    async def _picture(self, record: TableRecord, user_id: int | None) -> bytes | None:
        if pictures_for(record.game) is None or record.state is None or record.status not in SHOWN:
            return None
        seat = None if user_id is None else record.seat_of(user_id)
        key = (record.id, record.version, seat)
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        if self.processes is None:
            picture = await asyncio.to_thread(self._draw, record, user_id)
        else:
            picture = await self._draw_elsewhere(record, user_id)
        self.cache[key] = picture
        while len(self.cache) > self.capacity:
            self.cache.popitem(last=False)
        return picture

    def _draw(self, record: TableRecord, user_id: int | None) -> bytes | None:
        try:
            self.rendered += 1
            return draw_png(
                record.game, self.view_of(record, user_id), _names(record), hand=user_id is not None
            )
        except Exception:
            log.exception("table %s: could not draw its picture (v%s)", record.id, record.version)
            return None

    async def _draw_elsewhere(self, record: TableRecord, user_id: int | None) -> bytes | None:
        # The view is made here (the state and the table's games live in this process);
        # only the view, a small picklable model, crosses to the worker.
        loop = asyncio.get_running_loop()
        try:
            view = self.view_of(record, user_id)
            self.rendered += 1
            return await loop.run_in_executor(
                self.processes, draw_png, record.game, view, _names(record), user_id is not None
            )
        except Exception:
            log.exception("table %s: could not draw its picture (v%s)", record.id, record.version)
            return None


def _names(record: TableRecord) -> list[str]:
    return [seat.name for seat in record.seats]


def draw_png(game: str, view: View, names: Sequence[str], hand: bool = False) -> bytes | None:
    """One picture as PNG bytes: the table (``view`` public) or a hand. A module-level
    function, so a process pool can run it."""
    renderer = pictures_for(game)
    if renderer is None:
        return None
    image = renderer.hand(view, names) if hand else renderer.table(view, names)
    return None if image is None else to_png(image)
