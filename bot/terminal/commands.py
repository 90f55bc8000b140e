"""The ``gametable`` commands around the terminal table: where its tables are
kept, a game's rules (``gametable rules``, as ``/rules``), and a table's log
(``gametable log``, the files ``/table log`` gives).

Terminal tables live in the embedded Redis under ``DATA_DIR``. Unset, that is
the user's own data folder (``$XDG_DATA_HOME/gametable``, by default
``~/.local/share/gametable``), not a folder of wherever the command is run,
so ``gametable play --list`` finds the same tables from any folder.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from bot.ops.settings import Settings
from bot.service.errors import TableError
from bot.terminal.text import terminal_text
from engines.core import Engine, RulesSection
from storage.records import TableRecord, TableStatus


def user_data_dir() -> Path:
    """The per-user data folder (XDG), where terminal tables are kept by default."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gametable"


def terminal_settings(settings: Settings) -> Settings:
    """The settings with ``DATA_DIR`` made absolute: the user's data folder
    unless DATA_DIR was set (in the environment or ``.env``)."""
    folder = settings.data_dir if "data_dir" in settings.model_fields_set else user_data_dir()
    return settings.model_copy(update={"data_dir": folder.expanduser().resolve()})


def kept_in(settings: Settings) -> str:
    """Where the tables are, in words (no address: a Redis URL may hold a password)."""
    if settings.redis_url:
        return "the Redis of REDIS_URL"
    return f"{settings.data_dir} (DATA_DIR)"


def _fail(message: str, code: int = 2) -> int:
    print(message, file=sys.stderr)
    return code


# ----- gametable log -----


def log_command(
    settings: Settings, games: Mapping[str, Engine[Any, Any]], table_id: str, folder: Path, out: TextIO
) -> int:
    """Write a terminal table's log files into ``folder``; the exit code."""
    from storage.connect import RedisUnavailable

    if not folder.is_dir():
        return _fail(f"gametable log: there is no folder {folder}.")

    async def write() -> tuple[TableRecord, list[Path]]:
        from bot.service.tables import TableService
        from bot.terminal.tables import write_log
        from storage import TableStore, open_redis

        local = terminal_settings(settings)
        async with open_redis(local.redis_url, local.data_dir) as redis:
            return await write_log(TableService(TableStore(redis), games=games), table_id, folder)

    try:
        record, written = asyncio.run(write())
    except TableError as refusal:
        return _fail(f"gametable log: {refusal.message}")
    except (RedisUnavailable, OSError) as error:
        return _fail(f"gametable log: {error}", code=1)
    out.write("Wrote " + " and ".join(str(path) for path in written) + ".\n")
    if record.status is TableStatus.FINISHED:
        out.write(f"Check the game with: gametable replay {written[0]}\n")
    elif record.status.active:
        out.write("The game is not over: these files hold its public log only, without the seed.\n")
    else:
        out.write(f"The game was {record.status.value} before its end, so it has no final state to check.\n")
    return 0


# ----- gametable rules -----


def rules_command(games: Mapping[str, Engine[Any, Any]], game: str, topic: str | None, out: TextIO) -> int:
    engine = games.get(game)
    if engine is None:
        known = ", ".join(sorted(games)) or "none installed yet"
        return _fail(f"gametable rules: there is no game {game!r}. Games: {known}.")
    text = rules_text(engine, topic)
    if text is None:
        title = engine.info.title
        return _fail(f"gametable rules: {title} has no section {topic!r}. Try: {topics(engine)}.")
    out.write(text)
    return 0


def rules_text(engine: Engine[Any, Any], topic: str | None) -> str | None:
    """A game's rules as ``/rules`` gives them: the overview with every section
    and the rulings' names, or one section in full. None: no such topic."""
    sections = engine.rules_sections()
    if topic:
        wanted = topic.strip().lower()
        section = next((s for s in sections if wanted in (s.key, s.title.lower())), None)
        if section is None:
            return None
        return _plain(f"{engine.info.title} — {_topic_name(section)}\n\n{section.text}\n")
    info = engine.info
    out = [f"{info.title} — rules", info.summary, f"{info.min_players}–{info.max_players} players.", ""]
    for section in (s for s in sections if not s.decision):
        out += [f"{section.title}  (gametable rules {info.key} {section.key})", _indented(section.text), ""]
    rulings = [s for s in sections if s.decision]
    if rulings:
        out.append("This table's rulings (where the rulebook is silent):")
        out += [f"  • {s.title} — gametable rules {info.key} {s.key}" for s in rulings]
    return _plain("\n".join(out).rstrip() + "\n")


def topics(engine: Engine[Any, Any]) -> str:
    return ", ".join(s.key for s in engine.rules_sections() if not s.decision)


def _topic_name(section: RulesSection) -> str:
    return f"Ruling: {section.title}" if section.decision else section.title


def _indented(text: str) -> str:
    return "\n".join(f"    {line}" if line.strip() else "" for line in text.splitlines())


def _plain(text: str) -> str:
    return terminal_text(text)
