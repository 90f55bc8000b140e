"""A tournament's tables' results: a finished table scored once (however
often its end is reported), a round closed when its last table is, and a
moderator's decision on the tables still open."""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.errors import TableError, TableNotFound
from bot.tournaments.changing import TournamentChanges, close_if_done, table_named
from bot.tournaments.roster import Unchanged
from bot.tournaments.scoring import Scoring, table_points
from engines.core import quote
from storage.records import TableRecord, TableStatus
from storage.tournaments import Phase, TableScore, Tournament


class TournamentResults(TournamentChanges):
    async def table_ended(self, record: TableRecord) -> Tournament | None:
        """Score a finished table of a round (once); close the round when it was
        the last. Returns the tournament when this changed it."""
        if record.tournament_id is None or record.status is not TableStatus.FINISHED:
            return None
        result = self.tables.result(record)
        if result is None:
            return None

        def score(t: Tournament) -> None:
            table = table_named(t, record.id)
            if table is None or table.score is not None:
                raise Unchanged
            players = table.players

            def user(seat: int) -> int:
                return players[seat] if 0 <= seat < len(players) else -1

            points = table_points(result.ranking, teams=bool(result.teams), scoring=Scoring(t.scoring))
            table.score = TableScore(
                ranking=[[user(s) for s in group] for group in result.ranking],
                points={user(s): p for s, p in points.items()},
                scores={user(s): v for s, v in result.scores.items()},
            )
            close_if_done(t)

        try:
            tournament = await self._change(record.tournament_id, score)
        except TableNotFound:
            return None
        await self._follow_up(tournament)
        return tournament

    async def _follow_up(self, tournament: Tournament) -> None:
        """A round that has closed is due for its successor: durably, so a crash
        before the next round is seated leaves it to the background tick."""
        current = tournament.current
        if tournament.phase is Phase.RUNNING and current is not None and current.closed:
            await self.store.schedule(tournament.id, 0.0)

    async def decide(
        self, tournament_id: str, how: str, awarded: Mapping[str, list[list[int]]] | None = None
    ) -> Tournament:
        """(Moderator) Decide the current round's unfinished tables: ``play-out``
        plays every awaited seat's moves quickly to the end
        (``TableService.play_out``); ``tie`` scores
        each as it stands, everyone level; ``award`` takes the rankings given
        (table id → groups of user ids, best first)."""
        tournament = await self.get(tournament_id)
        current = tournament.current
        if tournament.phase is not Phase.RUNNING or current is None or current.closed:
            raise TableError("There is no round in play to decide.")
        for table in current.open_tables:
            assert table.table_id is not None
            if how == "play-out":
                record = await self.tables.get(table.table_id)
                if record.status is TableStatus.PLAYING:
                    record = (await self.tables.play_out(table.table_id)).table
                if record.status is TableStatus.FINISHED:
                    await self.table_ended(record)
                    continue
            # A table abandoned before its end has nothing to play out: it stands level.
            level = how in ("tie", "play-out")
            ranking = [list(table.players)] if level else (awarded or {}).get(table.table_id)
            if ranking is None:
                raise TableError(f"Give a ranking for table {table.table_id}.")
            await self.award(tournament_id, table.table_id, ranking, decided="tie" if level else how)
        return await self.get(tournament_id)

    async def award(
        self, tournament_id: str, table_id: str, ranking: list[list[int]], decided: str = "award"
    ) -> Tournament:
        """(Moderator) Score a table by a given ranking and end it."""

        def award(t: Tournament) -> None:
            table = table_named(t, table_id)
            if table is None:
                raise TableError(f"Table {quote(table_id)} is not in this tournament's current round.")
            if table.score is not None:
                raise TableError(f"Table {table_id} already has its result.")
            given = [u for group in ranking for u in group]
            if sorted(given) != sorted(table.players):
                raise TableError("The ranking must name every player at the table exactly once.")
            positions = [[table.players.index(u) for u in group] for group in ranking]
            points = table_points(positions, scoring=Scoring(t.scoring))
            table.score = TableScore(
                ranking=ranking, decided=decided, points={table.players[s]: p for s, p in points.items()}
            )
            close_if_done(t)

        tournament = await self._change(tournament_id, award)
        await self._follow_up(tournament)
        record = await self.tables.store.get(table_id)
        if record is not None and record.status.active:
            await self.tables.abandon(table_id, tournament.organiser_id, moderator=True)
        return tournament
