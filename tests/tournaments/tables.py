"""Finished tables as the ratings and tournaments see them, for tests."""

from __future__ import annotations

from storage.records import SeatRecord, TableRecord


def rated_table(
    table_id: str, users: list[int | None], rated: bool = True, at: float = 1.0, game: str = "g"
) -> TableRecord:
    """A table of server 5, seating ``users`` in order (``None``: a bot)."""
    seats = [SeatRecord(user_id=u, name=f"p{u}" if u else "Bot") for u in users]
    return TableRecord(
        id=table_id,
        game=game,
        host_id=1,
        seats=seats,
        guild_id=5,
        channel_id=6,
        created_at=1.0,
        updated_at=at,
        seed=1,
        turn_timeout=60.0,
        rated=rated,
    )
