"""(to be written)"""

from __future__ import annotations

from aiohttp import web


def routes() -> list[web.RouteDef]:
    return []
