"""How a tournament changes: load, check, change, compare-and-set save,
re-run on a lost race (the base every part of the service builds on), and
finding a table in its rounds."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.service.errors import TableBusy
from bot.service.policy import no_such_tournament
from bot.service.ratings import RatingService
from bot.service.tables import TableService
from bot.tournaments.roster import Unchanged
from storage.store import VersionConflict
from storage.tournaments import TableSeat, Tournament, TournamentStore

RETRIES = 10
Change = Callable[[Tournament], None]


class TournamentChanges:
    """A tournament's store and the services its tables run on, and its one
    way to change (:meth:`_change`)."""

    def __init__(
        self,
        store: TournamentStore,
        tables: TableService,
        ratings: RatingService | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.tables = tables
        self.ratings = ratings
        self.clock = clock

    async def get(self, tournament_id: str) -> Tournament:
        tournament = await self.store.get(tournament_id.strip().lower())
        if tournament is None:
            raise no_such_tournament(tournament_id)
        return tournament

    async def _change(self, tournament_id: str, change: Change, *, quiet: bool = True) -> Tournament:
        """Apply ``change`` with compare-and-set; an :class:`Unchanged` change
        returns the tournament as it is (or re-raises when not ``quiet``)."""
        for _ in range(RETRIES):
            tournament = await self.get(tournament_id)
            try:
                change(tournament)
            except Unchanged:
                if quiet:
                    return await self.get(tournament_id)
                raise
            try:
                return await self.store.save(tournament)
            except VersionConflict:
                continue
        raise TableBusy("The tournament is very busy right now; please try again.")


def table_named(t: Tournament, table_id: str) -> TableSeat | None:
    for rnd in t.rounds:
        for table in rnd.tables:
            if table.table_id == table_id:
                return table
    return None


def close_if_done(t: Tournament) -> None:
    for rnd in t.rounds:
        if not rnd.closed and rnd.seated and not rnd.open_tables:
            rnd.closed = True
