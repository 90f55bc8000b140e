"""What a table's end sets going: its rating (a rated table) and its place in a
tournament round. Called from the table's outbox after the save that ended it,
and idempotent by table id, so a restart never loses a result or counts it twice.
Platform-neutral: no discord import."""

from __future__ import annotations

from bot.service.ratings import RatingService
from bot.tournaments.service import TournamentService
from storage.records import TableRecord, TableStatus
from storage.tournaments import Tournament


class Results:
    def __init__(self, ratings: RatingService, tournaments: TournamentService) -> None:
        self.ratings = ratings
        self.tournaments = tournaments

    @staticmethod
    def concerns(record: TableRecord) -> bool:
        return record.status is TableStatus.FINISHED and (record.rated or record.tournament_id is not None)

    async def table_ended(self, record: TableRecord) -> Tournament | None:
        """Rate and score a finished table; the tournament if its standing changed."""
        if not self.concerns(record):
            return None
        await self.ratings.table_ended(record, self.tournaments.tables.result(record))
        return await self.tournaments.table_ended(record)
