"""Redis key names. A table's own keys share the hash tag ``{table:ID}`` so they
live in one Redis Cluster slot (the compare-and-set script touches both); the
indexes live in their own keys and can be rebuilt from the tables."""

from __future__ import annotations

PREFIX = "gt"


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


DEADLINES = f"{PREFIX}:idx:deadlines"
TABLE_PATTERN = f"{PREFIX}:{{table:*}}"
