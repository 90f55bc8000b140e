"""Ratings: openskill's Plackett–Luce model, per server and game.

A rated table that ends moves the ratings of the people who held its seats
when the game began (``TableRecord.rated_players``): each player is a side of
their own, or a game's teams (``Result.teams``) are the sides; tied seats tie;
a seat a bot held from the start is left out (a table with fewer than two
human sides rates nothing).

A player who no longer holds their seat at the end — they left, timed out
into a bot for good, or a substitute took it over — resigned: they are rated
as finishing last at that table (level with any other who resigned), a side
of their own; the others are rated as they finished. Whoever plays a seat
after its player is never rated for that game, so leaving cannot void a
rating and a second account sat in a timed-out seat earns nothing.

Every rated result is stored by table id, so recording one twice counts it
once, and :meth:`RatingService.rebuild` recomputes every rating from the
stored results after a fix to the model. Platform-neutral: no discord import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from openskill.models import PlackettLuce

from engines.core import Result, Seat
from storage.ratings import PlayerRating, RatedResult, RatingStore
from storage.records import RatedPlayer, TableRecord

# Fewer games than this and a rating is shown as provisional.
PROVISIONAL_GAMES = 5
MODEL = PlackettLuce()


@dataclass(frozen=True)
class Standing:
    rank: int
    rating: PlayerRating

    @property
    def provisional(self) -> bool:
        return self.rating.games < PROVISIONAL_GAMES


def ordinal(rating: PlayerRating) -> float:
    """The shown rating: μ − 3σ, a conservative estimate that rises as games are played."""
    return rating.mu - 3 * rating.sigma


def fresh(user_id: int, name: str = "") -> PlayerRating:
    model = MODEL.rating()
    return PlayerRating(user_id=user_id, name=name, mu=model.mu, sigma=model.sigma)


def rated_players(record: TableRecord) -> dict[Seat, RatedPlayer]:
    """Seat -> the player it is rated for: who held it at the start (a table
    started before that was remembered: who holds it now)."""
    if record.rated_players:
        return record.rated_players
    return {
        seat: RatedPlayer(user_id=occupant.user_id, name=occupant.name)
        for seat, occupant in enumerate(record.seats)
        if occupant.user_id is not None
    }


def rated_result(record: TableRecord, result: Result, at: float) -> RatedResult | None:
    """The rated view of a finished table: human sides and their ranks, or
    ``None`` when fewer than two sides have a human in them."""
    if record.guild_id is None:
        return None
    players = rated_players(record)
    place = {seat: rank for rank, group in enumerate(result.ranking) for seat in group}
    last = len(result.ranking)  # below every place of the ranking: a resignation
    groups = list(result.teams.values()) if result.teams else [[s] for s in range(len(record.seats))]
    sides, ranks, resigned = [], [], []
    for group in groups:
        rated = [s for s in group if s in players]
        stayed = [players[s].user_id for s in rated if _holds(record, s, players[s])]
        resigned += [players[s].user_id for s in rated if not _holds(record, s, players[s])]
        if stayed:
            sides.append(stayed)
            ranks.append(min(place.get(s, last) for s in group))
    for user_id in resigned:
        sides.append([user_id])
        ranks.append(last)
    if len(sides) < 2:
        return None
    names = {player.user_id: player.name for player in players.values()}
    return RatedResult(
        table_id=record.id,
        guild_id=record.guild_id,
        game=record.game,
        at=at,
        sides=sides,
        ranks=ranks,
        names=names,
    )


def _holds(record: TableRecord, seat: Seat, player: RatedPlayer) -> bool:
    """Whether the seat's rated player still plays it at the end."""
    return 0 <= seat < len(record.seats) and record.seats[seat].user_id == player.user_id


def apply(result: RatedResult, current: dict[int, PlayerRating]) -> dict[int, PlayerRating]:
    """The ratings of ``result``'s players after it."""
    before = [[current.get(u) or fresh(u) for u in side] for side in result.sides]
    teams = [[MODEL.create_rating([r.mu, r.sigma]) for r in side] for side in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in result.ranks])
    changed = {}
    for side, new_side in zip(before, after, strict=True):
        for old, new in zip(side, new_side, strict=True):
            name = result.names.get(old.user_id, old.name)
            changed[old.user_id] = old.model_copy(
                update={"mu": new.mu, "sigma": new.sigma, "games": old.games + 1, "name": name}
            )
    return changed


def replay(results: list[RatedResult]) -> dict[int, PlayerRating]:
    ratings: dict[int, PlayerRating] = {}
    for result in results:
        ratings.update(apply(result, ratings))
    return ratings


class RatingService:
    def __init__(self, store: RatingStore, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    def result_of(self, record: TableRecord, result: Result | None) -> RatedResult | None:
        """What a finished table gives the ratings (a rated table, or one of a
        rated tournament); ``None`` when it gives nothing."""
        if not record.rated or result is None:
            return None
        return rated_result(record, result, record.updated_at or self.clock())

    async def table_ended(self, record: TableRecord, result: Result | None) -> bool:
        """Rate a finished table once; ``False`` if there was nothing to rate or it was rated already."""
        return await self.rate(self.result_of(record, result))

    async def rate(self, rated: RatedResult | None) -> bool:
        """Move the ratings by ``rated`` once (by its table id); ``False`` if it
        is None or was counted already."""
        if rated is None:
            return False
        return await self.store.add(rated, lambda current: apply(rated, current))

    async def rating(self, guild_id: int, game: str, user_id: int) -> Standing | None:
        board = await self.leaderboard(guild_id, game)
        return next((s for s in board if s.rating.user_id == user_id), None)

    async def leaderboard(self, guild_id: int, game: str) -> list[Standing]:
        ratings = sorted(await self.store.all(guild_id, game), key=lambda r: (-ordinal(r), r.user_id))
        return [Standing(rank=i + 1, rating=r) for i, r in enumerate(ratings)]

    async def games(self, guild_id: int) -> list[str]:
        return await self.store.games(guild_id)

    async def rebuild(self, guild_id: int, game: str | None = None) -> int:
        """Recompute ratings from the stored results; returns how many results were replayed."""
        games = [game] if game else await self.store.games(guild_id)
        return sum([await self.store.rebuild(guild_id, g, replay) for g in games])
