"""The ``gametable`` command line: listing, run without a token, argument errors,
a scripted terminal game through ``main``, and the log formats."""

from __future__ import annotations

import gc
import io
import json
import logging
import re
import sys
import types
from pathlib import Path

import pytest

from bot import cli, collector
from bot.logs import configure_logging
from bot.settings import Settings
from tests.support.minigame import HIGH_CARD

GAMES = {"high-card": HIGH_CARD}


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # No .env in the working directory and no token from the developer's shell.
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "REDIS_URL", "LOG_LEVEL", "LOG_JSON"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(cli, "configure_logging", lambda *args, **kwargs: None)


def test_games_lists_key_title_players_summary_options_and_variants() -> None:
    out = io.StringIO()
    assert cli.main(["games"], games=GAMES, stdout=out) == 0
    assert out.getvalue() == (
        "high-card — High Card, 2–6 players\n"
        "    Play your best cards face up.\n"
        "    options: rounds=2\n"
        "    variants (--variant): quick\n"
    )


def test_games_says_so_when_none_is_installed() -> None:
    out = io.StringIO()
    assert cli.main(["games"], games={}, stdout=out) == 0
    assert out.getvalue() == "No games are installed yet.\n"


def test_run_without_a_token_exits_2_and_points_to_local_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run"], games=GAMES) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in err and "gametable play <game>" in err


def test_run_with_a_blank_token_is_refused_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "  ")  # what compose passes when the token is unset
    assert cli.main(["run"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_run_hands_the_settings_to_the_discord_app(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Settings] = []

    async def run_bot(settings: Settings) -> None:
        started.append(settings)
        # The bot serves with its collector tuned (see bot.collector).
        tuned.append(gc.get_threshold()[0] == collector.YOUNG and gc.get_freeze_count() > 0)

    tuned: list[bool] = []
    monkeypatch.setitem(sys.modules, "bot.app", types.SimpleNamespace(run_bot=run_bot))
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    assert cli.main(["run"]) == 0
    assert started[0].discord_token is not None
    assert started[0].discord_token.get_secret_value() == "a-token"
    assert tuned == [True]


def test_the_collector_is_tuned_while_serving_and_put_back_after() -> None:
    before = gc.get_threshold()
    with collector.serving():
        # What existed on entering is out of the collector's sight; it collects less often.
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (collector.YOUNG, collector.MIDDLE, collector.OLD)
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1  # a cycle made while serving is still freed
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_bad_setting_is_named(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("TURN_TIMEOUT", "-5")
    assert cli.main(["run"]) == 2
    assert "bad setting TURN_TIMEOUT" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "required: COMMAND"),
        (["dance"], "invalid choice: 'dance'"),
        (["play", "high-card", "--seats", "two"], "expected a whole number, got 'two'"),
        (["play", "high-card", "--bots", "-1"], "must be at least 0, got -1"),
        (["play", "high-card", "--option", "rounds"], "expected key=value, got 'rounds'"),
        (["bench", "--tables", "0"], "must be at least 1, got 0"),
    ],
)
def test_argument_errors_exit_2_with_a_reason(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv, games=GAMES)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_an_unknown_game_names_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "chess"], games=GAMES) == 2
    assert "there is no game 'chess'. Games: high-card." in capsys.readouterr().err


def test_a_bad_log_level_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--log-level", "loud", "games"], games=GAMES) == 2
    assert "unknown log level 'loud'" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("gametable ")


def test_play_runs_a_scripted_game_on_redis(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    out = io.StringIO()
    argv = ["play", "high-card", "--seats", "3", "--bots", "2", "--seed", "5", "--option", "rounds=1"]
    assert cli.main(argv, games=GAMES, stdin=io.StringIO("1\n" * 20), stdout=out) == 0
    text = out.getvalue()
    assert "Player 1, Bot 1, Bot 2." in text and "Game over" in text


@pytest.mark.parametrize(
    "argv", [["play"], ["play", "high-card", "--list"], ["play", "--list", "--resume", "x"]]
)
def test_play_wants_one_of_a_game_list_or_resume(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv, games=GAMES) == 2
    assert (
        "give one of: a game to start (see: gametable games), --list, --resume ID, --abandon ID."
        in capsys.readouterr().err
    )


def test_play_lists_and_resumes_a_table_left_at_the_terminal(
    monkeypatch: pytest.MonkeyPatch, redis_url: str
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    left = io.StringIO()
    argv = ["play", "high-card", "--seats", "2", "--bots", "1", "--seed", "5"]
    assert cli.main(argv, games=GAMES, stdin=io.StringIO("q\ny\n"), stdout=left) == 0
    table_id = re.findall(r"Table (\w+):", left.getvalue())[0]
    listed = io.StringIO()
    assert cli.main(["play", "--list"], games=GAMES, stdin=io.StringIO(), stdout=listed) == 0
    assert f"{table_id}  High Card — Player 1, Bot 1" in listed.getvalue()
    resumed = io.StringIO()
    assert (
        cli.main(["play", "--resume", table_id], games=GAMES, stdin=io.StringIO("1\n" * 20), stdout=resumed)
        == 0
    )
    assert "Game over" in resumed.getvalue()


def test_play_refuses_a_bad_variant(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    out = io.StringIO()
    argv = ["play", "high-card", "--variant", "huge"]
    assert cli.main(argv, games=GAMES, stdin=io.StringIO(), stdout=out) == 2
    assert "Unknown variant 'huge'. Variants: quick." in out.getvalue()


def test_logs_are_key_value_lines_or_json_lines() -> None:
    stream = io.StringIO()
    log = logging.getLogger("gametable.test")
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        configure_logging("INFO", json=False, stream=stream)
        log.info("table saved", extra={"table": "abc12345"})
        configure_logging("INFO", json=True, stream=stream)  # replaces, does not add, a handler
        log.warning("lost race", extra={"table": "abc12345", "version": 3})
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
    plain, structured = stream.getvalue().splitlines()
    assert 'level=info logger=gametable.test msg="table saved" table=abc12345' in plain
    record = json.loads(structured)
    assert record["msg"] == "lost race" and record["table"] == "abc12345" and record["version"] == 3


@pytest.mark.parametrize("command", [["play", "high-card"], ["run"]])
def test_no_reachable_redis_is_one_sentence_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    assert cli.main(command, games=GAMES, stdin=io.StringIO(), stdout=io.StringIO()) == 1
    assert capsys.readouterr().err == (
        f"gametable {command[0]}: Cannot reach Redis at 127.0.0.1:1: connection refused. Is it running?\n"
    )
