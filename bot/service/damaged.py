"""Ending a table whose stored record cannot be read (see storage/damage.py):
who may, and the stand-in record that tells Discord it is over."""

from __future__ import annotations

from bot.service.errors import NotHost, TableDamaged
from storage.damage import DamagedTable
from storage.records import TableRecord, TableStatus

NOTICE = "The table could not be read and was abandoned."


def check_may_abandon(damage: DamagedTable, user_id: int, moderator: bool) -> None:
    """Its host, when the record still names one, or a moderator; a record of a
    newer release is not ours to end."""
    if not damage.held:
        raise TableDamaged(damage)
    host = damage.salvaged.get("host_id")
    if not moderator and host != user_id:
        who = "the host or a moderator" if host is not None else "a moderator"
        raise NotHost(f"Only {who} with Manage Server can abandon this damaged table.")


def stand_in(
    damage: DamagedTable, user_id: int, now: float, turn_timeout: float, version: int
) -> TableRecord:
    """An abandoned record at ``version`` with what could be read (its game,
    channel, thread and message), so the table message and thread are told."""
    found = damage.salvaged
    return TableRecord(
        id=damage.table_id,
        game=found.get("game", ""),
        host_id=found.get("host_id", user_id),
        status=TableStatus.ABANDONED,
        guild_id=found.get("guild_id"),
        channel_id=found.get("channel_id"),
        thread_id=found.get("thread_id"),
        message_id=found.get("message_id"),
        created_at=now,
        updated_at=now,
        seed=0,
        turn_timeout=turn_timeout,
        version=version,
    )
