"""Bots for every game: information-set Monte Carlo tree search on the engine
contract alone (no asyncio, no I/O — the runtime runs it off its event loop)."""

from engines.ai.levels import LEVELS, Level, LevelName, level_of
from engines.ai.search import advancing, choose, consider, optional_seats

__all__ = ["LEVELS", "Level", "LevelName", "advancing", "choose", "consider", "level_of", "optional_seats"]
