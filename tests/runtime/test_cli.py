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

from bot.ops import cli, collector
from bot.ops.logs import configure_logging
from bot.ops.settings import Settings
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
        # The bot serves with its collector tuned (see bot.ops.collector).
        tuned.append(gc.get_threshold()[0] == collector.YOUNG and gc.get_freeze_count() > 0)

    tuned: list[bool] = []
    monkeypatch.setitem(sys.modules, "bot.app.application", types.SimpleNamespace(run_bot=run_bot))
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


def _left_table(redis_url: str, monkeypatch: pytest.MonkeyPatch, argv: list[str] | None = None) -> str:
    monkeypatch.setenv("REDIS_URL", redis_url)
    left = io.StringIO()
    argv = argv or ["play", "high-card", "--seats", "2", "--bots", "1", "--seed", "5"]
    assert cli.main(argv, games=GAMES, stdin=io.StringIO("q\ny\n"), stdout=left) == 0
    return re.findall(r"Table (\w+):", left.getvalue())[0]


def test_list_says_where_tables_live_and_does_not_depend_on_the_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, redis_url: str
) -> None:
    table_id = _left_table(redis_url, monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    listed = io.StringIO()
    assert cli.main(["play", "--list"], games=GAMES, stdin=io.StringIO(), stdout=listed) == 0
    said = listed.getvalue()
    assert table_id in said and "Terminal tables are kept in the Redis of REDIS_URL." in said
    assert "gametable play --abandon <id>" in listed.getvalue()


def test_without_data_dir_terminal_tables_live_in_the_user_s_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from bot.terminal.commands import kept_in, terminal_settings

    monkeypatch.delenv("DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    settings = terminal_settings(Settings())
    assert settings.data_dir == (tmp_path / "xdg" / "gametable").resolve()
    assert kept_in(settings) == f"{settings.data_dir} (DATA_DIR)"
    monkeypatch.setenv("DATA_DIR", "relative")
    assert terminal_settings(Settings()).data_dir == (tmp_path / "relative").resolve()


def test_abandon_gives_up_a_left_table(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    table_id = _left_table(redis_url, monkeypatch)
    out = io.StringIO()
    assert cli.main(["play", "--abandon", table_id], games=GAMES, stdin=io.StringIO(), stdout=out) == 0
    assert f"Table {table_id} is abandoned" in out.getvalue()
    again = io.StringIO()
    assert cli.main(["play", "--abandon", table_id], games=GAMES, stdin=io.StringIO(), stdout=again) == 2
    assert "abandoned already" in again.getvalue()
    listed = io.StringIO()
    assert cli.main(["play", "--list"], games=GAMES, stdin=io.StringIO(), stdout=listed) == 0
    assert table_id not in listed.getvalue()


def test_log_writes_a_finished_terminal_game_that_replay_checks(
    monkeypatch: pytest.MonkeyPatch, redis_url: str, tmp_path: Path
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    played = io.StringIO()
    argv = ["play", "high-card", "--bots", "1", "--seed", "5", "--option", "rounds=1"]
    assert cli.main(argv, games=GAMES, stdin=io.StringIO("1\n" * 20), stdout=played) == 0
    table_id = re.findall(r"Table (\w+):", played.getvalue())[0]
    assert f"To check the game: gametable log {table_id}, then gametable replay" in played.getvalue()
    out = io.StringIO()
    assert cli.main(["log", table_id, "--out", str(tmp_path)], games=GAMES, stdout=out) == 0
    assert f"Check the game with: gametable replay {tmp_path / f'log-{table_id}.jsonl'}" in out.getvalue()
    text = (tmp_path / f"log-{table_id}.txt").read_text()
    assert text.startswith(f"High Card — table {table_id} (finished)")
    checked = io.StringIO()
    assert cli.main(["replay", str(tmp_path / f"log-{table_id}.jsonl")], games=GAMES, stdout=checked) == 0
    assert "The game checks out." in checked.getvalue()


def test_log_of_an_unknown_table_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    assert cli.main(["log", "nope"], games=GAMES, stdout=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("gametable log: ") and err.count("\n") == 1


def test_difficulty_seats_bots_of_that_level(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    from storage.connect import open_redis
    from storage.store import TableStore

    table_id = _left_table(
        redis_url, monkeypatch, ["play", "high-card", "--bots", "1", "--difficulty", "easy", "--seed", "2"]
    )

    async def level() -> str:
        async with open_redis(redis_url, Path("unused")) as redis:
            record = await TableStore(redis).get(table_id)
            assert record is not None
            return record.seats[1].level

    import asyncio

    assert asyncio.run(level()) == "easy"


def test_games_lists_player_options_and_variants_play_accepts() -> None:
    from engines.registry import GAMES as ALL

    out = io.StringIO()
    assert cli.main(["games"], games=ALL, stdout=out) == 0
    text = out.getvalue()
    assert "bot_easy" not in text and "bot_hard" not in text and "deck=" not in text
    for key, engine in ALL.items():
        listed = re.search(rf"^{key} — .*\n(?:    .*\n)*?    variants \(--variant\): (.*)$", text, re.M)
        assert listed, key
        for variant in listed.group(1).split(", "):
            engine.parse_options({"preset": variant})  # every variant listed is one --variant takes
    assert "standard" in ALL["scales-of-influence"].info.presets


def test_games_keeps_the_indentation_of_every_line() -> None:
    from bot.ops.cli import _indent

    assert _indent("one\ntwo") == "    one\n    two"


def test_a_closed_pipe_ends_games_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError

    assert cli.main(["games"], games=GAMES, stdout=Closed()) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_rules_as_slash_rules(capsys: pytest.CaptureFixture[str]) -> None:
    from engines.registry import GAMES as ALL

    out = io.StringIO()
    assert cli.main(["rules", "phase"], games=ALL, stdout=out) == 0
    assert out.getvalue().startswith("Phase — rules\n") and "(gametable rules phase setup)" in out.getvalue()
    section = io.StringIO()
    assert cli.main(["rules", "phase", "setup"], games=ALL, stdout=section) == 0
    assert section.getvalue().startswith("Phase — Setup\n")
    assert cli.main(["rules", "phase", "nope"], games=ALL, stdout=io.StringIO()) == 2
    assert "Phase has no section 'nope'. Try: setup" in capsys.readouterr().err
    assert cli.main(["rules", "chess"], games=ALL, stdout=io.StringIO()) == 2


def test_ctrl_c_while_bots_move_names_the_table_to_resume(
    monkeypatch: pytest.MonkeyPatch, redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.service.tables import TableService

    monkeypatch.setenv("REDIS_URL", redis_url)

    async def interrupted(self: TableService, *args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt  # Ctrl-C while the bots answer a move

    monkeypatch.setattr(TableService, "act", interrupted)
    out = io.StringIO()
    argv = ["play", "high-card", "--bots", "1", "--seed", "5"]
    assert cli.main(argv, games=GAMES, stdin=io.StringIO("1\n"), stdout=out) == 130
    table_id = re.findall(r"Table (\w+):", out.getvalue())[0]
    assert f"Resume it with: gametable play --resume {table_id}" in out.getvalue()


def test_log_of_a_game_still_on_is_its_public_part(
    monkeypatch: pytest.MonkeyPatch, redis_url: str, tmp_path: Path
) -> None:
    table_id = _left_table(redis_url, monkeypatch)
    out = io.StringIO()
    assert cli.main(["log", table_id, "--out", str(tmp_path)], games=GAMES, stdout=out) == 0
    assert "The game is not over: these files hold its public log only, without the seed." in out.getvalue()
    header = json.loads((tmp_path / f"log-{table_id}.jsonl").read_text().splitlines()[0])
    assert "seed" not in header and header["status"] == "playing"
    assert cli.main(["log", table_id, "--out", str(tmp_path / "none")], games=GAMES, stdout=out) == 2
