"""Who may see and do what, where: the one place that decides it (no discord
import; it judges plain data the Discord layer hands it).

A table, a tournament and their results belong to the server (guild) they
were made in. A command, button, select or autocomplete answers from the
server it is used in:

- in a server, it finds only that server's objects, and only for a member of
  it; another server's object is answered exactly as an id that names
  nothing (:func:`no_such_table`, :func:`no_such_tournament`), so ids cannot
  be probed;
- in a DM, it finds only the tables the user sits at and the tournaments
  they are registered in, and no one holds a power there: Manage Server, the
  organiser role and hosting a table count only in the object's own server,
  judged from the member data Discord sends with the interaction there.

Every slash command and component declares what it names (:func:`names`,
:data:`NAMED`), and a test holds every registered one to its declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from bot.service.errors import TableError, TableNotFound
from engines.core import quote
from storage.records import TableRecord
from storage.tournaments import Tournament

# What a command or a component names, so which check it owes:
# table / tournament: one named by an option, a custom_id or the channel (resolved here);
# here: the server or channel it is used in and nothing else (its lists, ratings, settings);
# own: the user's own things only (their tables everywhere, their settings);
# public: nothing of anyone's (the games and their rules).
Named = Literal["table", "tournament", "here", "own", "public"]
NAMED: tuple[Named, ...] = ("table", "tournament", "here", "own", "public")
_F = TypeVar("_F", bound=Callable[..., Any])
POWERS_AT_HOME = "Do that in the table's own server: a host's and a moderator's powers count there."


@dataclass(frozen=True)
class Actor:
    """Who asks, and where from. ``guild_id`` is the server the interaction
    comes from (``None``: a DM); ``member``, ``manage_guild`` and ``role_ids``
    are what Discord says of the user in that server, and of no other."""

    user_id: int
    guild_id: int | None = None
    # The channel (or thread) asked in: it is the server's own, as Discord says.
    channel_id: int | None = None
    member: bool = False
    manage_guild: bool = False
    role_ids: frozenset[int] = field(default_factory=frozenset)

    @property
    def in_dm(self) -> bool:
        return self.guild_id is None


def names(what: Named) -> Callable[[_F], _F]:
    """Declare what a command's callback names (see :data:`NAMED`)."""
    if what not in NAMED:
        raise ValueError(f"a command names one of {NAMED}, not {what!r}")

    def declare(callback: _F) -> _F:
        callback.__gametable_names__ = what  # type: ignore[attr-defined]
        return callback

    return declare


def named_by(thing: Any) -> Named | None:
    """What a callback or a component class declared it names, if it did."""
    found = getattr(thing, "__gametable_names__", None)
    return found if found in NAMED else None


# ----- the answers for what cannot be seen: the same as for nothing at all -----


def no_such_table(table_id: str) -> TableNotFound:
    """The answer to an id that names no table this user may see, missing or another server's."""
    return TableNotFound(f"There is no table {quote(table_id)}.")


def no_such_tournament(tournament_id: str) -> TableNotFound:
    return TableNotFound(f"There is no tournament {quote(tournament_id)}.")


# ----- seeing -----


def sits_at(record: TableRecord, user_id: int) -> bool:
    """Whether the user holds a seat, or a bot keeps theirs for them."""
    return any(user_id in (seat.user_id, seat.away) for seat in record.seats)


def in_server(actor: Actor, guild_id: int | None) -> bool:
    """Whether the actor asks from ``guild_id`` as a member of it."""
    return actor.member and actor.guild_id is not None and actor.guild_id == guild_id


def sees_table(actor: Actor, record: TableRecord) -> bool:
    if actor.in_dm:
        return sits_at(record, actor.user_id)
    return in_server(actor, record.guild_id)


def salvaged_server(actor: Actor, salvaged: Mapping[str, Any]) -> int | None:
    """The server of a table whose record cannot be read, from the ids still
    legible in it: its own, else this one when it sits in the very channel (or
    thread) asked in (a channel belongs to one server); else unknown."""
    guild = salvaged.get("guild_id")
    if guild is not None:
        return int(guild)
    here = actor.channel_id is not None and actor.channel_id in (
        salvaged.get("channel_id"),
        salvaged.get("thread_id"),
    )
    return actor.guild_id if here else None


def sees_salvaged(actor: Actor, salvaged: Mapping[str, Any]) -> bool:
    """:func:`sees_table` for a table whose record cannot be read; one whose
    server cannot be told is no one's to see (in a server)."""
    if actor.in_dm:
        return actor.user_id in salvaged.get("user_ids", [])
    return in_server(actor, salvaged_server(actor, salvaged))


def seen_table(actor: Actor, record: TableRecord, asked: str) -> TableRecord:
    """The table, if the actor may see it; else the answer to an id that names none."""
    if not sees_table(actor, record):
        raise no_such_table(asked)
    return record


def sees_tournament(actor: Actor, tournament: Tournament) -> bool:
    if actor.in_dm:
        return tournament.entrant(actor.user_id) is not None
    return in_server(actor, tournament.guild_id)


def seen_tournament(actor: Actor, tournament: Tournament, asked: str) -> Tournament:
    if not sees_tournament(actor, tournament):
        raise no_such_tournament(asked)
    return tournament


def listed_here(actor: Actor, guild_ids: Iterable[int | None]) -> list[bool]:
    """For an autocomplete: which of these objects (by their server) the actor may be shown."""
    return [actor.in_dm or in_server(actor, guild_id) for guild_id in guild_ids]


# ----- powers: each judged in the object's own server -----


def moderates(actor: Actor, guild_id: int | None) -> bool:
    """Manage Server in ``guild_id``, as Discord says of the member there."""
    return in_server(actor, guild_id) and actor.manage_guild


def organises(actor: Actor, tournament: Tournament | None, guild_id: int | None, role_id: int | None) -> bool:
    """Manage Server, the server's organiser role (``role_id``), or organising
    ``tournament`` — all in ``guild_id``, the server it belongs to."""
    if not in_server(actor, guild_id):
        return False
    if actor.manage_guild or (role_id is not None and role_id in actor.role_ids):
        return True
    return tournament is not None and tournament.organiser_id == actor.user_id


def powers_at_home(actor: Actor, guild_id: int | None) -> None:
    """Refuse a host's or a moderator's change asked from outside the table's
    server (a DM): powers are judged from the member data there alone."""
    if not in_server(actor, guild_id):
        raise TableError(POWERS_AT_HOME)
