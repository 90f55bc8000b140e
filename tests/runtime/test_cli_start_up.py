"""``gametable run`` and ``play`` when the embedded Redis cannot start: one
sentence and exit 1, as for an unreachable Redis, never a traceback."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pytest

from bot.ops import cli
from storage.server import RedisServer
from tests.support.minigame import HIGH_CARD

GAMES = {"high-card": HIGH_CARD}
COMMANDS = [["play", "high-card"], ["run"]]

pytestmark = pytest.mark.skipif(not RedisServer.installed(), reason="needs redis-server")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("REDIS_URL", "LOG_LEVEL", "LOG_JSON"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(cli, "configure_logging", lambda *args, **kwargs: None)


def fake_redis_server(folder: Path, script: str) -> None:
    """A ``redis-server`` first on PATH that runs ``script`` (sh) instead of Redis."""
    folder.mkdir()
    program = folder / "redis-server"
    program.write_text("#!/bin/sh\n" + script)
    program.chmod(program.stat().st_mode | stat.S_IXUSR)


def one_sentence(capsys: pytest.CaptureFixture[str], command: str) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith(f"gametable {command}: "), err
    return err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_redis_server_that_exits_at_once_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    # Like a real redis-server that refuses its configuration: a line in its log, then exit.
    fake_redis_server(
        tmp_path / "bin",
        'while [ "$1" != "--logfile" ]; do shift; done\n'
        'echo "1:C 02 Dec 2026 14:00:00.000 # Fatal error, can\'t open config file" >> "$2"\nexit 1\n',
    )
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    assert cli.main(command, games=GAMES, stdin=io.StringIO(), stdout=io.StringIO()) == 1
    err = one_sentence(capsys, command[0])
    assert "The embedded redis-server stopped at start-up: Fatal error, can't open config file" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_redis_server_that_cannot_run_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    fake_redis_server(tmp_path / "bin", "")
    (tmp_path / "bin" / "redis-server").write_bytes(b"\x7fELF not a program")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    assert cli.main(command, games=GAMES, stdin=io.StringIO(), stdout=io.StringIO()) == 1
    assert "The embedded redis-server could not be started" in one_sentence(capsys, command[0])


@pytest.mark.parametrize("command", COMMANDS)
def test_a_data_dir_that_cannot_be_written_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "a-file" / "data"))  # refused even to root
    assert cli.main(command, games=GAMES, stdin=io.StringIO(), stdout=io.StringIO()) == 1
    err = one_sentence(capsys, command[0])
    assert f"The data folder {tmp_path / 'a-file' / 'data'} cannot be used" in err
    assert "writable DATA_DIR, or a REDIS_URL" in err
