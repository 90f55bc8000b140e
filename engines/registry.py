"""Every game the bot can run, by key. A game appears here when it lands."""

from __future__ import annotations

from typing import Any

from engines.core import Engine

GAMES: dict[str, Engine[Any, Any]] = {}


def register(engine: Engine[Any, Any]) -> Engine[Any, Any]:
    GAMES[engine.info.key] = engine
    return engine


def get_engine(key: str) -> Engine[Any, Any]:
    """The engine for ``key``; ``KeyError`` names the known games."""
    try:
        return GAMES[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}; known: {', '.join(sorted(GAMES))}") from None


def _load_builtin_games() -> None:
    # Imported here, not at module top, so a broken game cannot stop the
    # registry module itself from importing (and tests of one game stay isolated).
    import importlib

    for module in (
        "engines.spheres_of_life",
        "engines.scales_of_influence",
        "engines.time_masters",
        "engines.phase",
        "engines.once_upon_a_time_life",
    ):
        try:
            package = importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
            continue
        register(package.ENGINE)


_load_builtin_games()
