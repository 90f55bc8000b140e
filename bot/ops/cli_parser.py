"""The ``gametable`` command's words: its subcommands, their arguments and
help, and the version it reports (see :mod:`bot.ops.cli` for what each does)."""

from __future__ import annotations

import argparse
import contextlib
import json
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout: pyproject.toml and benchmarks/


def _count(minimum: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def _option(text: str) -> tuple[str, Any]:
    """``key=value``; the value is read as JSON when it is JSON (``3``, ``true``), else as text."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value


def _version() -> str:
    try:
        return metadata.version("gametable")
    except metadata.PackageNotFoundError:
        # Running from a checkout that was never pip-installed.
        with contextlib.suppress(OSError, tomllib.TOMLDecodeError, KeyError):
            return str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gametable", description="Tabletop games at tables, on Discord.")
    parser.add_argument("--version", action="version", version=f"gametable {_version()}")
    parser.add_argument(
        "--log-level", help="DEBUG, INFO, WARNING, ERROR (default: LOG_LEVEL, WARNING for play)"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    commands.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")

    play = commands.add_parser("play", help="play a game at this terminal, one keyboard for all")
    play.add_argument("game", nargs="?", help="game key (see: gametable games)")
    play.add_argument("--list", action="store_true", help="list this terminal's unfinished tables")
    play.add_argument("--resume", metavar="ID", help="go on with an unfinished table")
    play.add_argument("--abandon", metavar="ID", help="give up an unfinished table")
    play.add_argument(
        "--seats", type=_count(1), help="seats at the table (default: the fewest the game allows)"
    )
    play.add_argument("--bots", type=_count(0), default=0, help="how many of the seats bots play (default 0)")
    play.add_argument("--seed", type=_count(0), help="seed for a repeatable game")
    play.add_argument(
        "--option", type=_option, action="append", default=[], metavar="KEY=VALUE", help="a game option"
    )
    play.add_argument("--variant", help="a preset of options (see: gametable games)")
    play.add_argument(
        "--difficulty", choices=("easy", "normal", "hard"), default="normal", help="how well bots play"
    )

    commands.add_parser("games", help="list the games that can be played")

    rules = commands.add_parser("rules", help="a game's rules in sections, and the rulings this bot follows")
    rules.add_argument("game", help="game key (see: gametable games)")
    rules.add_argument("topic", nargs="?", help="a section: setup, a turn, scoring, variants or a ruling")

    log = commands.add_parser("log", help="write a terminal table's log files (for gametable replay)")
    log.add_argument("table", metavar="ID", help="the table's id (see: gametable play --list)")
    log.add_argument("--out", type=Path, default=Path("."), help="folder to write to (default: here)")

    replay = commands.add_parser(
        "replay", help="check a finished table: replay its log file (from /table log) from its seed"
    )
    replay.add_argument("log", type=Path, help="the table's log, log-<table>.jsonl")

    bench = commands.add_parser("bench", help="time one act on many concurrent tables against real Redis")
    bench.add_argument("--tables", type=_count(1), default=200, help="concurrent tables (default 200)")
    bench.add_argument("--acts", type=_count(1), default=2000, help="acts to time in all (default 2000)")
    bench.add_argument(
        "--concurrency", type=_count(1), default=50, help="acts in flight at once (default 50)"
    )
    bench.add_argument("--game", help="game key (default: the first registered game)")

    ratings = commands.add_parser("ratings", help="recompute a server's ratings from its stored results")
    ratings.add_argument("guild", type=_count(1), help="the server's (guild's) id")
    ratings.add_argument("--game", help="one game's key (default: every rated game)")
    return parser


# ----- commands -----
