"""Finding the table a command means when it names none, by the table lists'
lines (see ARCHITECTURE.md, "Table lists"), and the one it names, as the
asker may see it (:mod:`bot.service.policy`): a server's commands find that server's
tables only, a DM's the tables the user sits at."""

from __future__ import annotations

import contextlib

from bot.service import policy
from bot.service.errors import TableDamaged, TableError, TableNotFound
from bot.service.policy import Actor
from bot.service.reading import Reading
from storage.damage import DamagedTable
from storage.records import TableRecord, TableStatus

# Reads of the list lines a finder makes before it loads every table instead: a
# line its table disagrees with is written again, so the second read agrees.
FIND_TRIES = 2
NOT_AT_ANY_TABLE = "You are not at any table. Create one with /table create."


class Finding(Reading):
    """The finders: which table a command or a join means."""

    async def named(self, actor: Actor, table_id: str, *, to_change: bool = False) -> TableRecord:
        """The table ``table_id`` names, if ``actor`` may see it; another
        server's (or, in a DM, one the user does not sit at) is answered as an
        id that names no table. A table that cannot be read is judged by the
        ids still legible in it. ``to_change``: only to check it before a change
        (a move), which reads it itself: this process's own last copy will do,
        as a table's server never changes and the change checks the seats."""
        asked = table_id.strip().lower()
        # This process's own copy is read with no round trip; an id that names
        # nothing costs one. A refusal must not tell them apart by its timing.
        kept = to_change and self.store.recent.fields(asked) is not None
        try:
            record = await self.get(asked, to_change=to_change)
        except TableDamaged as damaged:
            if not policy.sees_salvaged(actor, damaged.damage.salvaged):
                raise policy.no_such_table(asked) from None
            raise
        if kept and not policy.sees_table(actor, record):
            with contextlib.suppress(DamagedTable):
                await self.store.get(asked)  # the read an unknown id makes
        return policy.seen_table(actor, record, asked)

    async def find(
        self, who: int | Actor, channel_id: int | None, table_id: str | None = None
    ) -> TableRecord:
        """The table a command means: the one named, else the user's one table in
        this channel (or thread), else the user's one table anywhere (in a
        server: anywhere in that server), else this channel's one table.

        ``who``: the :class:`~bot.service.policy.Actor` asking (every Discord command);
        a bare user id is a caller outside any server (the terminal, tests).

        The lists' lines decide (one round trip each, whatever their length) and
        only the table chosen is loaded — two when the lines say the choice is
        ambiguous, to be sure before refusing. A line its table no longer agrees
        with is written again and the lines read once more; should they still
        disagree, the tables themselves decide (:meth:`_find_loaded`)."""
        actor = who if isinstance(who, Actor) else None
        user_id = who.user_id if isinstance(who, Actor) else who
        if table_id:
            if actor is not None:
                return await self.named(actor, table_id)
            return await self.get(table_id.strip().lower())
        # In a server, "anywhere" is anywhere in it; in a DM, among the user's own tables.
        guild = actor.guild_id if actor is not None else None
        for _ in range(FIND_TRIES):
            found = await self._find_listed(user_id, channel_id, guild)
            if found is not None:
                return found
        return await self._find_loaded(user_id, channel_id, guild)

    async def _find_listed(
        self, user_id: int, channel_id: int | None, guild: int | None
    ) -> TableRecord | None:
        """:meth:`find` by the list lines; ``None`` when a line proved stale."""
        mine = f"user:{user_id}"
        found = await self.store.lookup(mine, channel=channel_id)
        if channel_id is not None and found.matches:
            here = await self.store.confirm(mine, found.matches, channel=channel_id)
            return None if here is None else _the_one(here)
        if found.total and guild is not None:
            theirs = await self.store.lookup(mine, guild=guild)
            if theirs.matches:
                tables = await self.store.confirm(mine, theirs.matches)
                if tables is None or any(t.guild_id != guild for t in tables):
                    return None
                return _the_one(tables)
        elif found.total:
            tables = await self.store.confirm(mine, found.first)
            return _the_one(tables) if tables is not None and len(tables) == min(found.total, 2) else None
        if channel_id is None:
            raise TableNotFound(NOT_AT_ANY_TABLE)
        scope = f"channel:{channel_id}"
        listed = await self.store.lookup(scope)
        if not listed.total:
            damaged = await self.store.quarantine.in_channel(channel_id)
            if len(damaged) == 1:
                await self.get(damaged[0])  # says that it cannot be read (and lets it be abandoned)
            raise TableNotFound(NOT_AT_ANY_TABLE)
        tables = await self.store.confirm(scope, listed.first)
        if tables is None or len(tables) != min(listed.total, 2):
            return None
        if len(tables) == 1:
            return tables[0]
        raise TableNotFound(NOT_AT_ANY_TABLE)

    async def _find_loaded(self, user_id: int, channel_id: int | None, guild: int | None) -> TableRecord:
        """:meth:`find` from the tables themselves, every one of the user's (and
        the channel's) loaded: for when a list line turned out stale."""
        mine = [t for t in await self.store.of_user(user_id) if guild is None or t.guild_id == guild]
        here = [t for t in mine if channel_id is not None and channel_id in (t.channel_id, t.thread_id)]
        for candidates in (here, mine):
            if candidates:
                return _the_one(candidates)
        if channel_id is not None:
            in_channel = await self.store.in_channel(channel_id)
            if len(in_channel) == 1:
                return in_channel[0]
            damaged = await self.store.quarantine.in_channel(channel_id)
            if not in_channel and len(damaged) == 1:
                await self.get(damaged[0])  # says that it cannot be read (and lets it be abandoned)
        raise TableNotFound(NOT_AT_ANY_TABLE)

    async def find_lobby(
        self, channel_id: int | None, table_id: str | None = None, *, actor: Actor | None = None
    ) -> TableRecord:
        """The table someone means to join: the one named (as ``actor`` may see
        it, see :meth:`named`), else this channel's one open lobby — found by the
        channel's list lines, only it loaded (see :meth:`find`)."""
        if table_id:
            if actor is not None:
                return await self.named(actor, table_id)
            return await self.get(table_id.strip().lower())
        scope = f"channel:{channel_id or 0}"
        lobbies: list[TableRecord] | None = None
        for _ in range(FIND_TRIES):
            found = await self.store.lookup(scope, status=TableStatus.LOBBY)
            lobbies = await self.store.confirm(scope, found.matches, status=TableStatus.LOBBY)
            if lobbies is not None:
                break
        if lobbies is None:  # the lines kept disagreeing: read the tables themselves
            every = await self.store.in_channel(channel_id or 0)
            lobbies = [t for t in every if t.status is TableStatus.LOBBY]
        if len(lobbies) == 1:
            return lobbies[0]
        if lobbies:
            raise TableError("Several tables are open here — pick one with the `table` option.")
        raise TableNotFound("There is no open table here to join. Start one with /table create.")


def _the_one(tables: list[TableRecord]) -> TableRecord:
    """The user's one table among ``tables`` (not empty); several: they must name one."""
    if len(tables) > 1:
        raise TableError("You are at several tables — pick one with the `table` option.")
    return tables[0]
