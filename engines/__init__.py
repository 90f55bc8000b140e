"""Pure game rules: no discord, no redis, no asyncio. See engines/core.py."""

from engines.registry import GAMES, get_engine

__all__ = ["GAMES", "get_engine"]
