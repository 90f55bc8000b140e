"""``/tables``: every table a player sits at, across servers and channels —
the tables waiting for their move first, soonest due first, then the rest by
the time left. A page is one read of the player's table list
(:mod:`storage.listing`), never a scan and never a game state."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.errors import TableError
from bot.service.tables import TableService
from storage.listing import Entry, Page
from storage.records import TableStatus

PAGE_SIZE = 10  # lines of up to ~300 characters: well inside an embed's 4096


@dataclass(frozen=True)
class MyTable:
    entry: Entry
    title: str

    @property
    def your_move(self) -> bool:
        return self.entry.your_move

    @property
    def due(self) -> float | None:
        return self.entry.due

    @property
    def phase(self) -> str:
        entry = self.entry
        if entry.status is TableStatus.LOBBY:
            return "waiting for players"
        if entry.paused:
            return f"paused · {entry.headline}" if entry.headline else "paused"
        return entry.headline

    @property
    def link(self) -> str | None:
        return self.entry.link


@dataclass(frozen=True)
class MyPage:
    tables: list[MyTable]
    page: Page


async def my_tables(service: TableService, user_id: int, start: int = 0) -> MyPage:
    """The page of the player's tables from rank ``start`` (the last page when
    the list has grown shorter than that)."""
    page = await service.store.page(f"user:{user_id}", start, PAGE_SIZE)
    if not page.entries and start > 0 and page.total:
        page = await service.store.page(f"user:{user_id}", last_page(page.total, PAGE_SIZE), PAGE_SIZE)
    return MyPage([MyTable(e, title_of(service, e.game)) for e in page.entries], page)


def title_of(service: TableService, game: str) -> str:
    try:
        return service.engine(game).info.title
    except TableError:
        return game  # a game this release no longer has: its id still names it


def last_page(total: int, size: int) -> int:
    return max(0, (total - 1) // size * size)
