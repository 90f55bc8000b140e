"""The tournament page (``/g/<guild>/tournaments/<id>``) and its live updates
(``…/events``): registration, each round's tables with links to their live
pages, the standings with their tie-breaks, and for elimination the bracket.

A page costs two reads however big the tournament: the record, and the
versions of its current round's tables in one pipeline. Its watchers share one
fingerprint per tournament (:class:`Watch`): the record's version and those
tables' versions, so the page moves when a round is seated, a table starts or
ends, and when the tournament counts a result."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Hashable
from typing import Any

from aiohttp import web

from bot.service.errors import UnknownGame
from bot.web import links
from bot.web.live import stream
from bot.web.site import NotFound, Site, site_of
from bot.web.tournament_view import TournamentView, build
from storage.tournaments import Tournament

TOURNAMENT_ID = re.compile(r"[a-z0-9]{1,16}")
LIVE_TEMPLATE = "tournament_live.html"


def current_tables(t: Tournament) -> list[str]:
    """The ids of the current round's tables: the only ones whose progress the record does not hold."""
    current = t.current
    return [table.table_id for table in current.tables if table.table_id] if current else []


async def tournament_of(site: Site, request: web.Request) -> Tournament:
    """The tournament the address names, in the server it names (pages on); else :class:`NotFound`."""
    guild_id = await site.guild(request)
    raw = request.match_info.get("tid", "").lower()
    if not TOURNAMENT_ID.fullmatch(raw):
        raise NotFound
    tournament = await site.tournaments.store.get(raw)
    if tournament is None or tournament.guild_id != guild_id:
        raise NotFound
    return tournament


def game_title(site: Site, t: Tournament) -> str:
    try:
        return site.service.engine(t.game).info.title
    except UnknownGame:
        return t.game


class Watch:
    """One tournament's fingerprint and rendering for its watchers (see the module's docstring)."""

    def __init__(self, site: Site, t: Tournament) -> None:
        self.site, self.id = site, t.id
        self.at, self.tables = t.version, current_tables(t)

    async def fingerprint(self) -> Hashable:
        version, tables = await asyncio.gather(
            self.site.tournaments.store.version(self.id), self.site.service.store.versions(self.tables)
        )
        if version != self.at:
            # A new version may have seated a new round: watch its tables from now on.
            t = await self.site.tournaments.store.get(self.id)
            if t is None:
                return None
            self.at, self.tables = t.version, current_tables(t)
            tables = await self.site.service.store.versions(self.tables)
        return (self.at, tuple(tables.get(table_id) for table_id in self.tables))

    async def render(self) -> str:
        t = await self.site.tournaments.store.get(self.id)
        if t is None:
            return "<p>This tournament is no longer here.</p>"
        view = await view_of(self.site, t)
        return self.site.templates.get_template(LIVE_TEMPLATE).render(**context(view))


async def view_of(site: Site, t: Tournament) -> TournamentView:
    return build(t, game_title(site, t), await site.service.store.versions(current_tables(t)))


def token(fingerprint: Hashable) -> str:
    """A short mark of what the page was built at, carried in its events address."""
    return hashlib.blake2b(repr(fingerprint).encode(), digest_size=8).hexdigest()


def context(view: TournamentView) -> dict[str, Any]:
    return {"v": view, "t": view.t}


async def page(request: web.Request) -> web.Response:
    site = site_of(request)
    t = await tournament_of(site, request)
    view = await view_of(site, t)
    mark = (t.version, tuple(view.existing.get(table_id) for table_id in current_tables(t)))
    events = links.tournament("", t.guild_id, t.id) + f"/events?at={token(mark)}"
    return site.page("tournament.html", title=t.name, events=events, **context(view))


async def events(request: web.Request) -> web.StreamResponse:
    site = site_of(request)
    t = await tournament_of(site, request)
    watch = Watch(site, t)
    now = await watch.fingerprint()
    # A page built before the latest change gets it at once: its watch starts from "unknown".
    last: Hashable = now if request.query.get("at") == token(now) else None
    return await stream(request, site.hub, f"tournament:{t.id}", watch.fingerprint, watch.render, last)


def routes() -> list[web.RouteDef]:
    return [
        web.get("/g/{guild}/tournaments/{tid}", page),
        web.get("/g/{guild}/tournaments/{tid}/events", events),
    ]
