"""The ``gametable`` command: run the Discord bot, play at a terminal table,
list the games, check a finished table's log, or benchmark the table store.

Every entry point takes an optional ``games`` mapping (default: the registered
games) so tests can run the real code paths with a test-only game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import importlib.util
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any, TextIO

from pydantic import ValidationError

from bot.ops.cli_parser import ROOT as _ROOT
from bot.ops.cli_parser import build_parser
from bot.ops.logs import configure_logging, parse_level
from bot.ops.settings import Settings
from engines.core import Engine

GameMap = Mapping[str, Engine[Any, Any]]

NO_TOKEN = """\
gametable run: DISCORD_TOKEN is not set, so the Discord bot cannot start.
  Set DISCORD_TOKEN in the environment or in a .env file to run the bot.
  To play without Discord, at this terminal: gametable play <game>   (see: gametable games)"""


# ----- arguments -----


def main(
    argv: Sequence[str] | None = None,
    *,
    games: GameMap | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Entry point of the ``gametable`` console script; returns the exit code."""
    args = build_parser().parse_args(argv)
    out = stdout or sys.stdout
    if args.log_level is not None:
        try:
            parse_level(args.log_level)
        except ValueError as error:
            return _fail(f"gametable: {error}")
    if games is None:
        from engines.registry import GAMES

        games = GAMES
    try:
        if args.command == "games":
            return _games(games, out)
        if args.command == "rules":
            return _rules(args, games, out)
        if args.command == "log":
            return _log(args, games, out)
        if args.command == "run":
            return _run(args)
        if args.command == "play":
            return _play(args, games, stdin or sys.stdin, out)
        if args.command == "replay":
            return _replay(args.log, games, out)
        if args.command == "ratings":
            return _ratings(args, out)
        return _bench(args, games, out)
    except KeyboardInterrupt:
        return _fail("\nInterrupted.", code=130)
    except BrokenPipeError:
        # The reader went away (`gametable games | head`): nothing left to say, to no one.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _fail(message: str, code: int = 2) -> int:
    print(message, file=sys.stderr)
    return code


def _settings() -> Settings:
    return Settings()


def _load_settings() -> Settings | int:
    try:
        return _settings()
    except ValidationError as error:
        first = error.errors()[0]
        name = ".".join(str(part) for part in first["loc"]).upper()
        return _fail(f"gametable: bad setting {name}: {first['msg']}")


def _games(games: GameMap, out: TextIO) -> int:
    if not games:
        out.write("No games are installed yet.\n")
        return 0
    for key in sorted(games):
        out.write(_describe(games[key]))
    return 0


def _describe(engine: Engine[Any, Any]) -> str:
    info = engine.info
    players = (
        f"{info.min_players}–{info.max_players}" if info.max_players > info.min_players else info.min_players
    )
    lines = [f"{info.key} — {info.title}, {players} players", _indent(info.summary)]
    fields = {name: f for name, f in info.options_model.model_fields.items() if _player_facing(name, f)}
    if fields:
        lines.append(
            _indent("options: " + ", ".join(f"{name}={field.default!r}" for name, field in fields.items()))
        )
    if info.presets:
        lines.append(_indent("variants (--variant): " + ", ".join(info.presets)))
    return "\n".join(lines) + "\n"


def _player_facing(name: str, field: Any) -> bool:
    """An option a player sets: not the bots' own tuning (marked ``internal``),
    nor a custom deck, which is a whole file rather than a value to type."""
    extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
    return name != "deck" and not extra.get("internal")


def _indent(text: str) -> str:
    """Every line of ``text`` under the game's name, a value's further lines too."""
    return "\n".join(f"    {line}" for line in text.splitlines() or [""])


def _rules(args: argparse.Namespace, games: GameMap, out: TextIO) -> int:
    from bot.terminal.commands import rules_command

    return rules_command(games, args.game, args.topic, out)


def _log(args: argparse.Namespace, games: GameMap, out: TextIO) -> int:
    settings = _load_settings()
    if isinstance(settings, int):
        return settings
    from bot.terminal.commands import log_command

    configure_logging(args.log_level or "WARNING", settings.log_json)
    return log_command(settings, games, args.table, args.out, out)


def _replay(path: Path, games: GameMap, out: TextIO) -> int:
    from bot.service.replay import ReplayError, UnreadableLog, replay_file

    try:
        checked = replay_file(path, games)
    except UnreadableLog as error:
        return _fail(f"gametable replay: cannot read {path}: {error}.")
    except ReplayError as error:
        return _fail(f"gametable replay: {path.name} does not check out: {error}.", code=1)
    seal = "The seed matches its seal" if checked.sealed else "The seed was chosen by hand (no seal)"
    out.write(
        f"Table {checked.table} ({checked.game}): {checked.moves} moves replayed from the published seed.\n"
        f"{seal}, every move gives the logged events, and the final state matches\n"
        f"the one published (sha256 {checked.final_state_sha256}). The game checks out.\n"
    )
    return 0


def _run(args: argparse.Namespace) -> int:
    settings = _load_settings()
    if isinstance(settings, int):
        return settings
    token = settings.discord_token
    if token is None or not token.get_secret_value().strip():
        return _fail(NO_TOKEN)
    configure_logging(args.log_level or settings.log_level, settings.log_json)
    try:
        # Imported here so `play`, `games` and `bench` never load the Discord side.
        from bot.app.application import run_bot
    except ModuleNotFoundError as error:
        if error.name != "bot.app.application":
            raise
        return _fail(
            "gametable run: this install has no Discord application (bot/app/application.py).", code=1
        )
    from bot.ops import collector
    from storage.connect import RedisUnavailable

    with contextlib.suppress(KeyboardInterrupt), collector.serving():  # Ctrl-C stops a bot by hand
        try:
            asyncio.run(run_bot(settings))
        except RedisUnavailable as error:
            return _fail(f"gametable run: {error}", code=1)
    return 0


def _ratings(args: argparse.Namespace, out: TextIO) -> int:
    settings = _load_settings()
    if isinstance(settings, int):
        return settings
    from bot.service.ratings import RatingService
    from storage.connect import open_redis
    from storage.ratings import RatingStore

    async def rebuild() -> int:
        async with open_redis(settings.redis_url, settings.data_dir) as redis:
            return await RatingService(RatingStore(redis), time.time).rebuild(args.guild, args.game)

    count = asyncio.run(rebuild())
    out.write(f"Ratings rebuilt from {count} result{'' if count == 1 else 's'}.\n")
    return 0


def _play(args: argparse.Namespace, games: GameMap, stdin: TextIO, out: TextIO) -> int:
    if sum(map(bool, (args.game, args.list, args.resume, args.abandon))) != 1:
        return _fail(
            "gametable play: give one of: a game to start (see: gametable games), --list, --resume ID,"
            " --abandon ID."
        )
    if args.game is not None and args.game not in games:
        known = ", ".join(sorted(games)) or "none installed yet"
        return _fail(f"gametable play: there is no game {args.game!r}. Games: {known}.")
    settings = _load_settings()
    if isinstance(settings, int):
        return settings
    from bot.terminal.commands import terminal_settings

    settings = terminal_settings(settings)  # the same tables from any folder
    configure_logging(args.log_level or "WARNING", settings.log_json)
    options = dict(args.option)
    if args.variant:
        options["preset"] = args.variant
    from storage.connect import RedisUnavailable

    seated: list[Any] = []  # the terminal table, once there is one: to name it on Ctrl-C
    with _ctrl_c_interrupts_input():
        try:
            return asyncio.run(_play_table(settings, games, args, options, stdin, out, seated))
        except RedisUnavailable as error:
            return _fail(f"gametable play: {error}", code=1)
        except KeyboardInterrupt:
            table_id = seated[0].screen.table_id if seated else None
            if table_id is None:
                raise
            return _fail(f"\nInterrupted. Table {table_id} is kept: gametable play --resume {table_id}", 130)


async def _play_table(
    settings: Settings,
    games: GameMap,
    args: argparse.Namespace,
    options: dict[str, Any],
    stdin: TextIO,
    out: TextIO,
    seated: list[Any],
) -> int:
    from bot.service.tables import TableService
    from bot.terminal.commands import kept_in
    from bot.terminal.table import TerminalTable
    from storage import TableStore, open_redis

    async with open_redis(settings.redis_url, settings.data_dir) as redis:
        service = TableService(TableStore(redis), games=games)
        table = TerminalTable(service, stdin=stdin, stdout=out)
        seated.append(table)
        if args.list:
            return await table.list_tables(kept_in(settings))
        if args.resume:
            return await table.resume(args.resume)
        if args.abandon:
            return await table.abandon(args.abandon)
        return await table.play(
            args.game, seats=args.seats, bots=args.bots, seed=args.seed, options=options,
            level=args.difficulty,
        )  # fmt: skip


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _ctrl_c_interrupts_input() -> Iterator[None]:
    """Make Ctrl-C raise at once, even inside a blocking read of the keyboard.

    asyncio.run otherwise installs a handler that only cancels the main task at
    its next ``await`` — a player waiting at a prompt would see Ctrl-C ignored
    until they pressed Enter. A handler of our own stops asyncio installing its one.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # SIGTERM too, so a stopped table unwinds and stops its embedded Redis.
    previous = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _bench(args: argparse.Namespace, games: GameMap, out: TextIO) -> int:
    module = _bench_module()
    if module is None:
        return _fail("gametable bench runs from a source checkout: benchmarks/bench_act.py was not found.", 1)
    settings = _load_settings()
    if isinstance(settings, int):
        return settings
    configure_logging(args.log_level or "WARNING", settings.log_json)
    result: int = module.run(
        tables=args.tables,
        acts=args.acts,
        concurrency=args.concurrency,
        game=args.game,
        redis_url=settings.redis_url,
        games=games,
        out=out,
    )
    return result


def _bench_module() -> ModuleType | None:
    """``benchmarks`` is not part of the installed package: find it in the
    checkout next to ``bot/`` or in the working directory (the Docker image's /app)."""
    with contextlib.suppress(ModuleNotFoundError):
        return importlib.import_module("benchmarks.bench_act")
    for folder in (_ROOT, Path.cwd()):
        path = folder / "benchmarks" / "bench_act.py"
        if path.is_file():
            spec = importlib.util.spec_from_file_location("gametable_bench_act", path)
            if spec is not None and spec.loader is not None:
                module = importlib.util.module_from_spec(spec)
                sys.modules[spec.name] = module
                spec.loader.exec_module(module)
                return module
    return None


if __name__ == "__main__":
    sys.exit(main())
