"""The web application: its context (:class:`Site`), the gate every page
passes (:meth:`Site.guild`), the security headers, and the app factory.

Trust rules, as on Discord (see :mod:`bot.service.policy`): every address
names its server, a server's pages answer only once it has turned them on,
and an object of another server answers exactly as one that does not exist —
the same 404, the same body. Pages are built from ``view(state, None)`` and
public log entries only."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from bot.service.errors import StorageUnavailable
from bot.service.ratings import RatingService
from bot.service.tables import TableService
from bot.tournaments.service import TournamentService
from bot.web.headers import SECURITY_HEADERS
from bot.web.live import Hub
from bot.web.markup import time_html
from bot.web.pictures import PictureCache
from storage.preferences import SettingsStore
from storage.store import STORAGE_FAULTS

log = logging.getLogger(__name__)
HERE = Path(__file__).parent
NOT_FOUND_TEXT = "There is nothing here. The address may be wrong, or this server's pages may be off."
Page = Callable[[web.Request], Awaitable[web.StreamResponse]]


def templates() -> jinja2.Environment:
    """The pages' templates; ``time(ts, style)`` writes a moment as every page
    does (:func:`bot.web.markup.time_html`: UTC, which site.js makes local)."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    environment.globals["time"] = time_html
    return environment


class NotFound(Exception):
    """Answered as the one 404 page, whatever was missing (see the module's docstring)."""


@dataclass
class Site:
    """What the pages read: the services, and the process's one live hub."""

    service: TableService
    tournaments: TournamentService
    ratings: RatingService
    public_url: str = ""
    hub: Hub = field(default_factory=Hub)
    pictures: PictureCache = field(default_factory=PictureCache)
    templates: jinja2.Environment = field(default_factory=lambda: templates())

    @property
    def settings(self) -> SettingsStore:
        return SettingsStore(self.service.store.redis)

    async def guild(self, request: web.Request) -> int:
        """The server the address names, if it has turned its pages on; else :class:`NotFound`."""
        raw = request.match_info.get("guild", "")
        if not raw.isdigit() or len(raw) > 20:
            raise NotFound
        guild_id = int(raw)
        if not (await self.settings.guild(guild_id)).web:
            raise NotFound
        return guild_id

    def page(self, template: str, status: int = 200, **context: Any) -> web.Response:
        html = self.templates.get_template(template).render(**context)
        return web.Response(text=html, status=status, content_type="text/html", charset="utf-8")

    def not_found(self) -> web.Response:
        return self.page("not_found.html", status=404, title="Not found", message=NOT_FOUND_TEXT)


SITE: web.AppKey[Site] = web.AppKey("site", Site)


def site_of(request: web.Request) -> Site:
    return request.app[SITE]


@web.middleware
async def _answers(request: web.Request, handler: Page) -> web.StreamResponse:
    """Security headers on every answer; a :class:`NotFound` (or a route that
    does not exist) as the one 404 page; Redis away as a short 503, never a trace."""
    site = site_of(request)
    try:
        response = await handler(request)
    except NotFound:
        response = site.not_found()
    except web.HTTPNotFound:
        response = site.not_found()
    except (StorageUnavailable, *STORAGE_FAULTS):
        log.warning("web: storage unavailable for %s", request.path, exc_info=True)
        response = site.page(
            "not_found.html",
            status=503,
            title="Unavailable",
            message="The game store does not answer just now. Try again in a moment.",
        )
    if not response.prepared:
        response.headers.update(SECURITY_HEADERS)
    return response


async def _home(request: web.Request) -> web.Response:
    return site_of(request).page("home.html", title="gametable")


def build(site: Site, routes: Iterable[web.RouteDef] = ()) -> web.Application:
    """The web application for ``site``: the home page, the static files and
    every page module's routes (see :mod:`bot.web.server`)."""
    app = web.Application(middlewares=[_answers])
    app[SITE] = site
    app.router.add_get("/", _home)
    app.router.add_static("/static", HERE / "static", append_version=False)
    app.router.add_routes(list(routes))
    app.on_shutdown.append(lambda _: site.hub.close())
    return app
