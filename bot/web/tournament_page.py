"""The tournament page (``/g/<guild>/tournaments/<id>``) and its live updates
(``…/events``): registration, each round's tables with links to their live
pages, the standings with their tie-breaks, and for elimination the bracket.

A page costs two reads however big the field: the record, and a glance at its
current round's tables (their records without game state, one pipeline).
What the record alone decides is drawn once per version (:func:`parts`), so
a move at one table of a 256-player round redraws only that round's list.
Watchers share one fingerprint per tournament (:class:`Watch`): the record's
version and its current round's tables' versions (one pipeline), so the page
moves when a round is seated, a table starts, moves or ends, and when the
tournament counts a result."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from aiohttp import web
from cachetools import LRUCache
from markupsafe import Markup
from pydantic import BaseModel

from bot.service.errors import UnknownGame
from bot.web import links
from bot.web.live import stream
from bot.web.site import NotFound, Site, site_of
from bot.web.tournament_view import Glances, TournamentView, build, current_round
from storage.tournaments import Tournament

TOURNAMENT_ID = re.compile(r"[a-z0-9]{1,16}")


@dataclass(frozen=True)
class Parts:
    """The live part's pieces the record alone decides, drawn once per version."""

    head: Markup  # about, registration while open, standings, bracket
    past: Markup  # the rounds before the current one
    foot: Markup  # the players, once registration has closed


# Readers of a tournament mostly read its newest version: each is drawn once, and a
# few are kept (a big tournament's drawn version is a few hundred kilobytes).
_PARTS: LRUCache[tuple[object, ...], tuple[TournamentView, Parts]] = LRUCache(maxsize=16)
_PAST: LRUCache[tuple[object, ...], Markup] = LRUCache(maxsize=16)


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


def parts(site: Site, t: Tournament) -> tuple[TournamentView, Parts]:
    key = (id(site), t.id, t.version, t.created_at)
    cached = _PARTS.get(key)
    if cached is not None:
        return cached
    view = build(t, game_title(site, t))

    def draw(template: str, **more: object) -> Markup:
        return Markup(site.templates.get_template(template).render(v=view, t=t, **more))

    # The rounds before the current one change only when a round ends (or a player is
    # renamed): most versions of a big tournament draw them from the cache.
    past_key = (id(site), t.id, t.created_at, _digest(t.entrants, t.rounds[:-1]))
    past = _PAST.get(past_key)
    if past is None:
        past = _PAST[past_key] = draw("tournament_past.html", past=list(reversed(view.rounds[:-1])))
    drawn = Parts(head=draw("tournament_head.html"), past=past, foot=draw("tournament_foot.html"))
    _PARTS[key] = view, drawn
    return view, drawn


def _digest(*models: Sequence[BaseModel]) -> str:
    hashed = hashlib.blake2b(digest_size=16)
    for group in models:
        for model in group:
            hashed.update(model.model_dump_json().encode())
        hashed.update(b"|")
    return hashed.hexdigest()


def live_part(site: Site, t: Tournament, glances: Glances) -> tuple[TournamentView, str]:
    view, drawn = parts(site, t)
    html = site.templates.get_template("tournament_live.html").render(
        head=drawn.head, past=drawn.past, foot=drawn.foot, current=current_round(t, glances)
    )
    return view, html


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
        return mark(self.at, [tables.get(table_id) for table_id in self.tables])

    async def render(self) -> str:
        t = await self.site.tournaments.store.get(self.id)
        if t is None:
            return "<p>This tournament is no longer here.</p>"
        glances = await self.site.service.store.glance(current_tables(t))
        return live_part(self.site, t, glances)[1]


def mark(version: int, tables: list[int | None]) -> Hashable:
    return (version, tuple(tables))


def token(fingerprint: Hashable) -> str:
    """A short mark of what the page was built at, carried in its events address."""
    return hashlib.blake2b(repr(fingerprint).encode(), digest_size=8).hexdigest()


async def page(request: web.Request) -> web.Response:
    site = site_of(request)
    t = await tournament_of(site, request)
    ids = current_tables(t)
    glances = await site.service.store.glance(ids)
    view, live = live_part(site, t, glances)
    seen = mark(t.version, [record.version if (record := glances.get(i)) else None for i in ids])
    events = links.tournament("", t.guild_id, t.id) + f"/events?at={token(seen)}"
    return site.page("tournament.html", title=t.name, events=events, live=Markup(live), t=t, v=view)


# A large tournament's live part is a few hundred KB, and its tables move several
# times a second while a round is busy: send watchers the newest state once a second.
UPDATE_EVERY = 1.0


async def events(request: web.Request) -> web.StreamResponse:
    site = site_of(request)
    t = await tournament_of(site, request)
    watch = Watch(site, t)
    now = await watch.fingerprint()
    # A page built before the latest change gets it at once: its watch starts from "unknown".
    last: Hashable = now if request.query.get("at") == token(now) else None
    key = f"tournament:{t.id}"
    return await stream(request, site.hub, key, watch.fingerprint, watch.render, last, every=UPDATE_EVERY)


def routes() -> list[web.RouteDef]:
    return [
        web.get("/g/{guild}/tournaments/{tid}", page),
        web.get("/g/{guild}/tournaments/{tid}/events", events),
    ]
