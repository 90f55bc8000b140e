"""The live table page: ``/g/<guild>/t/<table>``, its picture and its event
stream. Exactly what the table message shows, never more (see
:mod:`bot.web.table_live`); a change reaches every reader within a poll of
the live hub (:mod:`bot.web.live`), which watches the table's version alone."""

from __future__ import annotations

from aiohttp import web

from bot.service.errors import TableError
from bot.web import links, live
from bot.web.pictures import has_picture
from bot.web.site import NotFound, Site, site_of
from bot.web.table_live import live_html, table_of, title

OFF = '<p class="muted">This page is no longer available.</p>'


async def _page(request: web.Request) -> web.Response:
    site = site_of(request)
    guild_id = await site.guild(request)
    record = await table_of(site, guild_id, request.match_info["table"])
    page = links.table("", guild_id, record.id)
    return site.page(
        "table.html",
        title=title(site, record),
        table_id=record.id,
        events=f"{page}/events?v={record.version}",
        live=await live_html(site, record),
    )


async def _picture(request: web.Request) -> web.Response:
    site = site_of(request)
    guild_id = await site.guild(request)
    record = await table_of(site, guild_id, request.match_info["table"])
    try:
        png = await site.pictures.table(site.service, record) if has_picture(record) else None
    except TableError:  # its game state does not read
        raise NotFound from None
    if png is None:
        raise NotFound
    # The address names a version: that version's picture never changes.
    current = request.query.get("v") == str(record.version)
    cache = "public, max-age=86400, immutable" if current else "no-cache"
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": cache})


async def _events(request: web.Request) -> web.StreamResponse:
    site = site_of(request)
    guild_id = await site.guild(request)
    record = await table_of(site, guild_id, request.match_info["table"])
    table_id = record.id
    # The version the reader's page was built at: a change since is sent at once.
    seen = request.query.get("v", "")
    last = int(seen) if seen.isdigit() and len(seen) < 12 else record.version

    async def version() -> int | None:
        return await site.service.store.version(table_id)

    async def render() -> str:
        return await _current(site, guild_id, table_id)

    return await live.stream(request, site.hub, f"table:{guild_id}:{table_id}", version, render, last)


async def _current(site: Site, guild_id: int, table_id: str) -> str:
    """The live part now; once the server turned its pages off (or the table is
    gone), a line saying so instead: a page is never more than the gate allows."""
    try:
        if not (await site.settings.guild(guild_id)).web:
            raise NotFound
        return await live_html(site, await table_of(site, guild_id, table_id))
    except NotFound:
        return OFF


def routes() -> list[web.RouteDef]:
    return [
        web.get("/g/{guild}/t/{table}", _page),
        web.get("/g/{guild}/t/{table}/picture.png", _picture),
        web.get("/g/{guild}/t/{table}/events", _events),
    ]
