"""A player's page in one server: ``/g/<guild>/players/<user>``.

Their rating of each game there (μ − 3σ, provisional marked, as ``/rating``
and ``/leaderboard`` show it), their finished games there, rated or not, newest
first, each linking to its replay while the table is kept, and the tables they
sit at there now. Everything comes from this server's own records (the games it
listed for them as its tables ended, its ratings store, the user's table list
filtered to this server): another server's games never show. The name shown is
the one their seat or rating carries; their user id is only in the address."""

from __future__ import annotations

import re
from dataclasses import dataclass

from aiohttp import web

from bot.render.base import place_mark
from bot.service.errors import TableError
from bot.service.ratings import PROVISIONAL_GAMES, Standing, ordinal
from bot.web import links
from bot.web.site import NotFound, Site, site_of
from storage import keys
from storage.damage import DamagedTable
from storage.listing import Entry
from storage.played import PlayedGame, PlayedGames
from storage.records import TableStatus

RECENT = 20
# The user's own table list holds their tables in every server; one page of it is read.
LISTED = 100
USER_ID = re.compile(r"[1-9][0-9]{0,19}")


@dataclass(frozen=True)
class Rated:
    game: str
    standing: Standing

    @property
    def shown(self) -> str:
        return f"{ordinal(self.standing.rating):.1f}"


@dataclass(frozen=True)
class Played:
    game: str
    table_id: str
    at: float
    place: str
    others: list[str]
    rated: bool
    replay: str | None  # None once the table is no longer kept


@dataclass(frozen=True)
class Seated:
    game: str
    table_id: str
    status: str
    page: str


async def player_page(request: web.Request) -> web.Response:
    site = site_of(request)
    guild_id = await site.guild(request)
    raw = request.match_info.get("user", "")
    if not USER_ID.fullmatch(raw):
        raise NotFound
    user_id = int(raw)
    ratings = await _ratings(site, guild_id, user_id)
    games = await PlayedGames(site.service.store.redis).recent(guild_id, user_id, RECENT)
    seated = await _seated(site, guild_id, user_id)
    name = _name(games, ratings) or await _seat_name(site, user_id, seated)
    if not (ratings or games or seated) or not name:
        raise NotFound
    return site.page(
        "player.html",
        title=f"{name} — player",
        name=name,
        ratings=ratings,
        played=await _played(site, guild_id, games),
        seated=seated,
        provisional=PROVISIONAL_GAMES,
    )


def title(site: Site, game: str) -> str:
    try:
        return site.service.engine(game).info.title
    except TableError:
        return game  # a game this install no longer has: its id still names it


async def _ratings(site: Site, guild_id: int, user_id: int) -> list[Rated]:
    found = []
    for game in await site.ratings.games(guild_id):
        standing = await site.ratings.rating(guild_id, game, user_id)
        if standing is not None:
            found.append(Rated(title(site, game), standing))
    return found


async def _played(site: Site, guild_id: int, games: list[PlayedGame]) -> list[Played]:
    # A finished table is kept for a while (the operator's retention): link
    # only the replays still there, asked about all at once.
    async with site.service.store.redis.pipeline(transaction=False) as pipe:
        for game in games:
            pipe.exists(keys.table(game.table_id))
        kept = await pipe.execute() if games else []
    return [
        Played(
            game=title(site, game.game),
            table_id=game.table_id,
            at=game.at,
            place=_place(game.place, game.places) + (" (tied)" if game.tied else ""),
            others=game.others,
            rated=game.rated,
            replay=links.replay("", guild_id, game.table_id) if there else None,
        )
        for game, there in zip(games, kept, strict=True)
    ]


def _place(number: int | None, sides: int) -> str:
    """``1st of 3``: in words, where a table message shows a medal."""
    if number is None:
        return "unplaced"
    words = ("1st", "2nd", "3rd")[number - 1] if number <= 3 else place_mark(number)
    return f"{words} of {sides}"


async def _seated(site: Site, guild_id: int, user_id: int) -> list[Seated]:
    page = await site.service.store.page(f"user:{user_id}", 0, LISTED)
    return [
        Seated(title(site, e.game), e.id, _status(e), links.table("", guild_id, e.id))
        for e in page.entries
        if e.guild_id == guild_id and e.status.active
    ]


def _status(entry: Entry) -> str:
    if entry.status is TableStatus.LOBBY:
        return "waiting for players"
    return "their move" if entry.your_move else (entry.headline or "in play")


def _name(games: list[PlayedGame], ratings: list[Rated]) -> str:
    """The name their newest game knew them by, else their rating's."""
    for game in games:
        if game.name:
            return game.name
    return next((r.standing.rating.name for r in ratings if r.standing.rating.name), "")


async def _seat_name(site: Site, user_id: int, seated: list[Seated]) -> str:
    """The name on their seat at a table of this server."""
    for table in seated:
        try:
            record = await site.service.store.get(table.table_id)
        except DamagedTable:
            continue
        seat = None if record is None else record.seat_of(user_id)
        if record is not None and seat is not None:
            return record.seats[seat].name
    return ""


def routes() -> list[web.RouteDef]:
    return [web.get("/g/{guild}/players/{user}", player_page)]
