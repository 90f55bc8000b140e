"""Serving the web pages: every page module's routes on one application,
started by the bot when ``WEB_PORT`` is set."""

from __future__ import annotations

from aiohttp import web

from bot.web import player_page, replay_page, table_page, tournament_page
from bot.web.site import Site, build


def application(site: Site) -> web.Application:
    return build(
        site,
        [
            *table_page.routes(),
            *replay_page.routes(),
            *tournament_page.routes(),
            *player_page.routes(),
        ],
    )


async def serve(site: Site, host: str, port: int) -> web.AppRunner:
    """Start serving the pages; stop with ``await runner.cleanup()``."""
    runner = web.AppRunner(application(site), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
