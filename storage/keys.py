"""Redis key names. A table's own keys share the hash tag ``{table:ID}`` so they
live in one Redis Cluster slot (the compare-and-set script touches both); the
indexes live in their own keys and can be rebuilt from the tables.

The schedules every process sweeps — the deadline index, the outbox's and the
tournaments' — are each spread over :data:`BUCKETS` sorted sets, a table's (or
tournament's) bucket chosen from its id, so that on a cluster their traffic is
shared by every master rather than landing on one."""

from __future__ import annotations

import zlib

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

PREFIX = "gt"
# Never change it on a live deployment: every entry would then sit in a bucket
# no one reads (until the indexes are rebuilt and the outboxes rescanned).
BUCKETS = 16


def table(table_id: str) -> str:
    return f"{PREFIX}:{{table:{table_id}}}"


def log(table_id: str) -> str:
    return f"{PREFIX}:{{table:{table_id}}}:log"


def quarantine(table_id: str) -> str:
    """A copy of a table record that could not be read, with the reason."""
    return f"{PREFIX}:{{table:{table_id}}}:quarantine"


def listing(scope: str, part: str) -> str:
    """A table list's keys (see :mod:`storage.listing`): ``scope`` is ``user:ID``,
    ``channel:ID`` or ``guild:ID``; its parts share the slot of ``{scope}``."""
    return f"{PREFIX}:list:{{{scope}}}:{part}"


def played(guild_id: int, user_id: int, part: str) -> str:
    """A player's finished games in one server (see :mod:`storage.played`):
    ``order`` by end time and ``games`` their lines, sharing the slot of
    ``{played:GUILD:USER}``."""
    return f"{PREFIX}:played:{{played:{guild_id}:{user_id}}}:{part}"


# The sets of table ids that earlier versions kept per channel, user and guild
# (now read only to turn them into lists).


def channel(channel_id: int) -> str:
    return f"{PREFIX}:idx:channel:{channel_id}"


def user(user_id: int) -> str:
    return f"{PREFIX}:idx:user:{user_id}"


def guild(guild_id: int) -> str:
    return f"{PREFIX}:idx:guild:{guild_id}"


def damaged(channel_id: int) -> str:
    """Quarantined tables of a channel, so listings can say they exist."""
    return f"{PREFIX}:idx:damaged:{channel_id}"


def bucket(table_id: str) -> int:
    """The table's (or tournament's) bucket in every schedule: the same in every
    process (CRC-32, not ``hash``)."""
    return zlib.crc32(table_id.encode()) % BUCKETS


def _spread(name: str, *, centred: bool = False) -> list[str]:
    """One key per bucket, ``gt:idx:{due:07}``-like, each hash tag picked (by
    a numbered suffix when needed) so that bucket ``i`` lands in the ``i``-th
    sixteenth of the slots: a cluster splits the slots into contiguous ranges
    per master, so evenly spaced slots share the buckets among any number of
    masters as evenly as they can be. ``centred``: within an eighth of the
    sixteenth's width of its middle, so that a split at a third (three masters)
    cannot fall on either side of a bucket by chance. The schedules that came
    first keep their names: their entries live under them."""
    width = REDIS_CLUSTER_HASH_SLOTS // BUCKETS

    def fits(tag: str, number: int) -> bool:
        slot = key_slot(tag.encode())
        if not centred:
            return slot // width == number
        return abs(slot - (number * width + width // 2)) < width // 8

    names = []
    for number in range(BUCKETS):
        tag, suffix = f"{name}:{number:02d}", 0
        while not fits(tag, number):
            suffix += 1
            tag = f"{name}:{number:02d}:{suffix}"
        names.append(f"{PREFIX}:idx:{{{tag}}}")
    return names


# Each table's next wake-up (a reminder, a timeout, an undo request lapsing), by time.
DEADLINE_BUCKETS = _spread("due")
# Tables with news still to tell, by when to try next (see storage.outbox).
OUTBOX_BUCKETS = _spread("outbox")
# Tournaments with work due (a round to seat or close, a deadline), by time (see storage.tournaments).
TOURNAMENT_BUCKETS = _spread("tournaments:due", centred=True)
# The single keys earlier versions kept them in: read and emptied into the buckets.
LEGACY_DEADLINES = f"{PREFIX}:idx:deadlines"
LEGACY_OUTBOX = f"{PREFIX}:idx:outbox"
LEGACY_TOURNAMENTS_DUE = f"{PREFIX}:idx:tournaments:due"


def deadlines(table_id: str) -> str:
    return DEADLINE_BUCKETS[bucket(table_id)]


def outbox_due(table_id: str) -> str:
    return OUTBOX_BUCKETS[bucket(table_id)]


TABLE_PATTERN = f"{PREFIX}:{{table:*}}"
