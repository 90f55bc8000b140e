"""The replay page of a finished game: ``/g/<guild>/t/<table>/replay?move=N``.

Once a game is over its whole log is public (``/table log`` sends it to
anyone, seed included), so the page lists every move with what it caused,
shows the public table after any move, and says whether the seal checks, as
``gametable replay`` would (see :mod:`bot.web.replays`). A table still in its
lobby or in play, or abandoned, has no replay: its page says so and points to
the live table, showing nothing of its log. ``&part=board`` answers the part
that changes from move to move alone, for the page's script."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web
from markupsafe import Markup

from bot.service.errors import TableError
from bot.web import links
from bot.web.markup import to_html, web_name
from bot.web.replays import Replay, replay_of
from bot.web.site import NotFound, Site, site_of
from bot.web.table_live import table_of
from storage.played import PlayedGames
from storage.records import TableRecord, TableStatus

# A move number longer than this is past any game's end.
MOVE_DIGITS = 7


def move_asked(raw: str | None, last: int) -> int:
    """The step ``?move=`` asks for, within 0..``last``: a number past the end
    is the end, anything that is not a whole number the start."""
    if raw is None or not re.fullmatch(r"\s*[0-9]+\s*", raw):
        return 0
    digits = raw.strip().lstrip("0") or "0"
    return last if len(digits) > MOVE_DIGITS else min(int(digits), last)


async def replay_page(request: web.Request) -> web.Response:
    site = site_of(request)
    guild_id = await site.guild(request)
    record = await table_of(site, guild_id, request.match_info["table"])
    try:
        engine = site.service.engine(record.game)
    except TableError:  # a game this install no longer has
        raise NotFound from None
    title = engine.info.title
    live = links.table("", guild_id, record.id)
    if record.status is not TableStatus.FINISHED:
        return site.page(
            "replay_waiting.html",
            title=f"{title} — table {record.id}",
            heading=f"{title} — table {record.id}",
            abandoned=record.status is TableStatus.ABANDONED,
            live=live,
        )
    replay = await replay_of(record, engine, lambda: site.service.store.log(record.id))
    move = move_asked(request.query.get("move"), replay.last)
    context = _context(guild_id, record, replay, move)
    if request.query.get("part") == "board":
        return site.page("replay_step.html", **context)
    return site.page(
        "replay.html",
        title=f"Replay of {title} — table {record.id}",
        game=title,
        live=live,
        players=await _players(site, guild_id, record),
        **context,
    )


def _context(guild_id: int, record: TableRecord, replay: Replay, move: int) -> dict[str, Any]:
    """What the changing part of the page needs (also served alone)."""
    names = [web_name(seat.name) for seat in record.seats]

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"

    def at(step: int) -> str:
        return links.replay("", guild_id, record.id, step)

    def text(value: str) -> Markup:
        return to_html(value, name)

    return {
        "table_id": record.id,
        "replay": replay,
        "move": move,
        "step": replay.steps[move],
        "board": replay.boards[move] if move < len(replay.boards) else None,
        "name": name,
        "text": text,
        "at": at,
    }


async def _players(site: Site, guild_id: int, record: TableRecord) -> list[tuple[str, str | None]]:
    """Each seat's name, and the player's page when they have one in this
    server: this table is on their list there (every person seated at its end),
    or they have a rating of this game there."""
    played = PlayedGames(site.service.store.redis)
    seated = []
    for seat in record.seats:
        page = None
        user_id = seat.user_id
        if user_id is not None and (
            await played.lists(guild_id, user_id, record.id)
            or await site.ratings.store.get(guild_id, record.game, user_id)
        ):
            page = links.player("", guild_id, user_id)
        seated.append((seat.name, page))
    return seated


def routes() -> list[web.RouteDef]:
    return [web.get("/g/{guild}/t/{table}/replay", replay_page)]
