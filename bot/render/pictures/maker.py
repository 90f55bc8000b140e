"""Pictures for a table record: rendered off the event loop, cached by table version.

:class:`TablePictures` is what the Discord layer calls. Drawing a picture takes
tens of milliseconds of CPU, so it never runs on the event loop: by default in a
worker thread (``asyncio.to_thread``); given a process pool, in another process,
which also spares the loop the GIL the drawing thread holds (see
``benchmarks/bench_pictures.py`` for both). A table's picture changes only when
its version does, so pictures are kept in a small LRU keyed by
``(table id, version, seat)``: the public picture and each seat's hand are drawn
once per version however many times they are shown. A picture taller than a
phone shows inline comes as several pages (:func:`~bot.render.pictures.base.pages`).
A picture that fails to draw is logged and left out; the message still goes, with its text.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor

from bot.render.pictures import pictures_for
from bot.render.pictures.base import pages, to_png
from engines.core import View
from storage.records import TableRecord, TableStatus

log = logging.getLogger(__name__)
ViewOf = Callable[[TableRecord, int | None], View]
CacheKey = tuple[str, int, int | None]
Pngs = tuple[bytes, ...]  # a picture's pages, top first; empty: no picture
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
        self.cache: OrderedDict[CacheKey, Pngs] = OrderedDict()
        self.rendered = 0

    async def table(self, record: TableRecord) -> Pngs:
        """The public picture's pages (PNG), or none for a game without one or a table not in play."""
        return await self._picture(record, None)

    async def hand(self, record: TableRecord, user_id: int) -> Pngs:
        """``user_id``'s hand as a picture of cards (its pages), or none."""
        seat = record.seat_of(user_id)
        if seat is None or record.status is not TableStatus.PLAYING:
            return ()
        return await self._picture(record, user_id)

    async def _picture(self, record: TableRecord, user_id: int | None) -> Pngs:
        if pictures_for(record.game) is None or record.state is None or record.status not in SHOWN:
            return ()
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

    def _draw(self, record: TableRecord, user_id: int | None) -> Pngs:
        try:
            self.rendered += 1
            return draw_pngs(
                record.game, self.view_of(record, user_id), _names(record), hand=user_id is not None
            )
        except Exception:
            log.exception("table %s: could not draw its picture (v%s)", record.id, record.version)
            return ()

    async def _draw_elsewhere(self, record: TableRecord, user_id: int | None) -> Pngs:
        # The view is made here (the state and the table's games live in this process);
        # only the view, a small picklable model, crosses to the worker.
        loop = asyncio.get_running_loop()
        try:
            view = self.view_of(record, user_id)
            self.rendered += 1
            return await loop.run_in_executor(
                self.processes, draw_pngs, record.game, view, _names(record), user_id is not None
            )
        except Exception:
            log.exception("table %s: could not draw its picture (v%s)", record.id, record.version)
            return ()


def _names(record: TableRecord) -> list[str]:
    return [seat.name for seat in record.seats]


def draw_pngs(game: str, view: View, names: Sequence[str], hand: bool = False) -> Pngs:
    """One picture as PNG pages: the table (``view`` public) or a hand. A module-level
    function, so a process pool can run it."""
    renderer = pictures_for(game)
    if renderer is None:
        return ()
    image = renderer.hand(view, names) if hand else renderer.table(view, names)
    return () if image is None else tuple(to_png(page) for page in pages(image))
