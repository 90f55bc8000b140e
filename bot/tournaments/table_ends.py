"""What a table's end sets going: its line on each of its players' pages (a
server's finished table; at a rated one, a player who left has it too), its
rating (a rated table) and its place in a tournament round. Called from the
table's outbox after the save that ended it, and idempotent by table id, so a
restart never loses a result or counts it twice. An abandoned table was not
played out: it sets nothing going. Platform-neutral: no discord import."""

from __future__ import annotations

from bot.service.absence import BOT_SUFFIX
from bot.service.ratings import RatingService
from bot.tournaments.service import TournamentService
from engines.core import Result
from storage.played import PlayedGame, PlayedGames
from storage.ratings import RatedResult
from storage.records import TableRecord, TableStatus
from storage.tournaments import Tournament


class Results:
    def __init__(
        self, ratings: RatingService, tournaments: TournamentService, played: PlayedGames | None = None
    ) -> None:
        self.ratings = ratings
        self.tournaments = tournaments
        self.played = played or PlayedGames(tournaments.tables.store.redis)

    @staticmethod
    def concerns(record: TableRecord) -> bool:
        """Whether the table's end sets anything going: a finished table of a
        server (its players' pages), or a rated or tournament one."""
        return record.status is TableStatus.FINISHED and (
            record.guild_id is not None or record.rated or record.tournament_id is not None
        )

    async def table_ended(self, record: TableRecord) -> Tournament | None:
        """List, rate and score a finished table; the tournament if its standing changed."""
        if not self.concerns(record):
            return None
        result = self.tournaments.tables.result(record)
        rated = self.ratings.result_of(record, result)
        if record.guild_id is not None and result is not None:
            lines = played_lines(record, result)
            if rated is not None:
                lines = {**resigned_lines(rated), **lines}
            await self.played.record(record.guild_id, lines)
        if not (record.rated or record.tournament_id is not None):
            return None
        await self.ratings.rate(rated)
        return await self.tournaments.table_ended(record)


def played_lines(record: TableRecord, result: Result) -> dict[int, PlayedGame]:
    """Each person's line of a finished table, by user: whoever holds a seat at
    the end, and the player a bot holds a seat for (they are away, the seat is
    theirs). A bot's own seat has nobody's line. Sides are the game's teams, or
    each seat; a place is the side's group in the ranking, 1 best."""
    group_of = {seat: index for index, group in enumerate(result.ranking) for seat in group}
    sides = list(result.teams.values()) if result.teams else [[s] for s in range(len(record.seats))]
    side_of = {seat: index for index, side in enumerate(sides) for seat in side}
    lines: dict[int, PlayedGame] = {}
    for seat, occupant in enumerate(record.seats):
        user_id = occupant.user_id if occupant.user_id is not None else occupant.away
        if user_id is None or user_id in lines:
            continue
        group = group_of.get(seat)
        tied = group is not None and any(
            side_of.get(other, -1) != side_of.get(seat) for other in result.ranking[group] if other != seat
        )
        lines[user_id] = PlayedGame(
            table_id=record.id,
            game=record.game,
            at=record.updated_at,
            name=occupant.name if occupant.user_id is not None else occupant.name.removesuffix(BOT_SUFFIX),
            place=None if group is None else group + 1,
            places=len(sides),
            tied=tied,
            others=[s.name for other, s in enumerate(record.seats) if other != seat],
            rated=record.rated,
        )
    return lines


def resigned_lines(rated: RatedResult) -> dict[int, PlayedGame]:
    """A line for each player of a rated table's result as the ratings count it,
    so one who left before the end (rated as resigned, below every place) has
    the table on their page too; :func:`played_lines` speaks for those who stayed."""
    places = sorted(set(rated.ranks))
    lines = {}
    for side, rank in zip(rated.sides, rated.ranks, strict=True):
        for user_id in side:
            lines[user_id] = PlayedGame(
                table_id=rated.table_id,
                game=rated.game,
                at=rated.at,
                name=rated.names.get(user_id, ""),
                place=1 + places.index(rank),
                places=len(rated.ranks),
                tied=rated.ranks.count(rank) > 1,
                others=[rated.names.get(u, "someone") for s in rated.sides for u in s if u != user_id],
                rated=True,
            )
    return lines
