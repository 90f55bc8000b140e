"""The **Watch** link on a table message (the table's web page) and the
**Standings** link on a tournament message (the tournament's page), shown when
their server has turned its pages on (``/settings web on``) and the bot has a
public address (``PUBLIC_URL``). Never on a table outside a server.

Every table message built asks whether its server's pages are on; a Redis read
each time would cost a round trip per edit, so the answer is kept a short
while per process, and ``/settings web`` forgets it at once in the process
that changed it (another process learns within ``TTL``)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from cachetools import TTLCache

from bot.web import links
from storage.preferences import SettingsStore
from storage.records import TableRecord, TableStatus
from storage.store import STORAGE_FAULTS

log = logging.getLogger(__name__)

TTL = 30.0
# Servers whose answer is kept at most (past it, the least recently used goes).
KEPT = 10_000
WATCHED = (TableStatus.LOBBY, TableStatus.PLAYING, TableStatus.FINISHED)
# Discord refuses a link button whose url is longer.
URL_LIMIT = 512


class WatchLinks:
    def __init__(
        self,
        settings: SettingsStore,
        public_url: str | None,
        ttl: float = TTL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.public_url = public_url
        self._kept: TTLCache[int, bool] = TTLCache(maxsize=KEPT, ttl=ttl, timer=clock)

    async def pages_on(self, guild_id: int) -> bool:
        """Whether the server's pages are on; ``False`` while Redis does not answer
        (the link is an extra: the message goes out without it, and the next
        drawing asks again)."""
        on = self._kept.get(guild_id)
        if on is None:
            try:
                on = self._kept[guild_id] = (await self.settings.guild(guild_id)).web
            except STORAGE_FAULTS:
                log.warning("guild %s: could not read whether its pages are on", guild_id, exc_info=True)
                return False
        return on

    def forget(self, guild_id: int) -> None:
        """The server's setting changed here: read it again next time."""
        self._kept.pop(guild_id, None)

    async def table(self, record: TableRecord) -> str | None:
        """The table page's address for its message's Watch link, or None for no link."""
        if not self.public_url or record.guild_id is None or record.status not in WATCHED:
            return None
        if not await self.pages_on(record.guild_id):
            return None
        return _fitting(links.table(self.public_url, record.guild_id, record.id))

    async def tournament(self, guild_id: int, tournament_id: str) -> str | None:
        """The tournament page's address for its message's Standings link, or None for no link."""
        if not self.public_url or not guild_id or not await self.pages_on(guild_id):
            return None
        return _fitting(links.tournament(self.public_url, guild_id, tournament_id))


def _fitting(url: str) -> str | None:
    """``url``, or None when Discord would refuse it on a link button (the whole message with it)."""
    return url if len(url) <= URL_LIMIT else None
