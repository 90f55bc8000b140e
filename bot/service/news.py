"""What a saved change must tell whom — built before the save, so it can be
written into the table's outbox in the same atomic write (see
:mod:`storage.outbox`). Platform-neutral: texts carry names, not mentions."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engines.core import Event, Seat
from storage.outbox import Announcement
from storage.records import TableRecord


def news_of(
    record: TableRecord,
    events: list[Event],
    newly_awaited: list[Seat],
    actor: int | None,
    text: Callable[[str], str],
    notices: Mapping[int, list[str]] | None = None,
) -> Announcement | None:
    """The announcement for ``record`` about to be saved at ``record.version + 1``;
    ``None`` for a table shown in no channel (the terminal table), which has no
    one to tell. ``actor`` is answered directly, so gets no DM and no ping.
    ``notices`` are lines for users by id: people the change unseated."""
    if record.channel_id is None:
        return None
    private: dict[int, list[str]] = {}
    reminders: dict[int, list[str]] = {}
    for seat, occupant in enumerate(record.seats):
        if occupant.user_id is None or occupant.user_id == actor:
            continue
        mine = [e for e in events if e.to is not None and seat in e.to]
        if lines := [text(e.text) for e in mine if e.kind != "reminder"]:
            private[occupant.user_id] = lines
        if lines := [text(e.text) for e in mine if e.kind == "reminder"]:
            reminders[occupant.user_id] = lines
    for user_id, lines in (notices or {}).items():
        if user_id != actor:
            private.setdefault(user_id, []).extend(lines)
    awaited = [record.seats[s].user_id for s in newly_awaited if 0 <= s < len(record.seats)]
    return Announcement(
        table_id=record.id,
        version=record.version + 1,
        actor=actor,
        public=[text(e.text) for e in events if e.to is None],
        private=private,
        ping=[u for u in dict.fromkeys(awaited) if u is not None and u != actor],
        reminders=reminders,
    )
