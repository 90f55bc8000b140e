"""``gametable replay`` on broken and hostile files: one sentence naming the
line, exit 2 for a file it cannot read, exit 1 for a game that does not
verify, never a traceback — for the cases seen so far and for any mutation of
a real log (a property test)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ops import cli
from bot.service.replay import MAX_BYTES, ReplayError, replay
from bot.service.tablelog import log_files
from bot.service.tables import Player, TableService
from storage.records import TableStatus
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

GAMES = {"high-card": HIGH_CARD}
ANN, BOB = Player(1, "Ann"), Player(2, "Bob")


@pytest.fixture
async def good_log(store: TableStore) -> str:
    """The whole log of a finished game of High Card, as ``/table log`` sends it."""
    service = TableService(store, clock=Clock(1000.0), turn_timeout=60, games=GAMES)
    table = await service.create("high-card", ANN, channel_id=100)
    await service.join(table.id, BOB)
    await service.start(table.id, ANN.user_id)
    while (record := await service.get(table.id)).status is TableStatus.PLAYING:
        seat = service.awaited(record)[0]
        user = record.seats[seat].user_id
        assert user is not None
        await service.act(table.id, user, service.choices(record, user)[0].key, record.version)
    files = log_files(record, service.engine("high-card"), await store.log(table.id))
    replay(files.jsonl, GAMES)  # it checks out as it is
    return files.jsonl


def lines_of(log: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.splitlines()]


def text_of(lines: list[Any]) -> str:
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def first_move(lines: list[dict[str, Any]]) -> int:
    return next(i for i, line in enumerate(lines) if line.get("kind") == "act")


def run(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """The exit code and the one line ``gametable replay`` says on stderr."""
    code = cli.main(["replay", str(path)], games=GAMES, stdout=io.StringIO())
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert code == 0 or (err.count("\n") == 1 and err.startswith("gametable replay: ")), err
    return code, err


def header(change: dict[str, Any], drop: str | None = None) -> Any:
    def edit(lines: list[dict[str, Any]]) -> list[Any]:
        head = {k: v for k, v in lines[0].items() if k != drop} | change
        return [head, *lines[1:]]

    return edit


def move(change: dict[str, Any], drop: str | None = None) -> Any:
    def edit(lines: list[dict[str, Any]]) -> list[Any]:
        at = first_move(lines)
        lines[at] = {k: v for k, v in lines[at].items() if k != drop} | change
        return lines

    return edit


# Each a change to a good log, the exit code and what the one sentence says.
BROKEN: dict[str, tuple[Any, int, str]] = {
    "a header without seal": (header({}, drop="seal"), 2, "line 1: the header has no seal"),
    "a header without game": (header({}, drop="game"), 2, "line 1: the header has no game"),
    "a move without seat": (move({}, drop="seat"), 2, "the move has no seat"),
    "a move without action": (move({}, drop="action"), 2, "the move has no action"),
    "a move at a seat the table lacks": (move({"seat": 7}), 2, "the move's seat is not one of the table's 2"),
    "a seat that is text": (move({"seat": "0"}), 2, "the move's seat is not one of the table's 2"),
    "players as a word": (header({"players": "two"}), 2, "line 1: the header's players is not a number"),
    "players by the million": (header({"players": 10**6}), 2, "line 1: the header's players is not a number"),
    "game a list": (header({"game": ["high-card"]}), 2, "line 1: the header's game is not a game's name"),
    "a seed of 300 digits": (header({"seed": 10**300}), 2, "line 1: the header's seed is not a seed"),
    "a seed that is text": (header({"seed": "12"}), 2, "line 1: the header's seed is not a seed"),
    "a negative seed": (header({"seed": -5}), 2, "line 1: the header's seed is not a seed"),
    "options a list": (header({"options": [1]}), 2, "line 1: the header's options are not"),
    "options the game refuses": (header({"options": {"rounds": 99}}), 1, "cannot be set up"),
    "events a number": (move({"events": 3}), 2, "the entry's events are not a list of events"),
    "an action no game knows": (move({"action": {"type": "fly"}}), 1, "line 5: the move is refused"),
    "an action of deep lists": (move({"action": [[[[[[[[[[[]]]]]]]]]]]}), 1, "line 5: the move is refused"),
    "an unknown game": (header({"game": "chess"}), 1, "this install has no game 'chess'"),
    "a line that is a list": (lambda lines: [*lines, [1, 2]], 2, "is not a JSON object"),
    "an undo naming no version": (lambda lines: [*lines, {"kind": "undo", "action": {"undo": []}}], 2, "no"),
    "the last move dropped": (lambda lines: lines[:-3] + lines[-2:], 1, "does not check out"),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_log_is_one_sentence_naming_what_is_wrong(
    good_log: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    edit, code, says = BROKEN[case]
    path = tmp_path / "log.jsonl"
    path.write_text(text_of(edit(lines_of(good_log))))
    got, err = run(path, capsys)
    assert got == code and says in err, err
    if code == 2:
        assert err.startswith(f"gametable replay: cannot read {path}: ")
    else:
        assert err.startswith("gametable replay: log.jsonl does not check out: ")


DEEP = 100_000
NESTED = b"[" * DEEP + b"]" * DEEP
HEAD = b'{"gametable_log": 1'
# Each the whole content of a file, the exit code and what the one sentence says.
HOSTILE: dict[str, tuple[bytes, str]] = {
    "100,000-deep nesting": (NESTED + b"\n", "line 1 is nested too deeply"),
    "100,000-deep nesting in a move": (HEAD + b'}\n{"action": ' + NESTED + b"}\n", "line 2 is nested"),
    "a 5,000-digit seed": (HEAD + b', "seed": ' + b"7" * 5000 + b"}\n", "line 1 holds a number too"),
    "not JSON": (b"this is not a log\n", "line 1 is not JSON"),
    "JSON cut short": (b'{"gametable_log": 1,\n', "line 1 is not JSON"),
    "an empty file": (b"", "the file is not a gametable log"),
    "blank lines only": (b"\n \n\n", "the file is not a gametable log"),
    "binary": (bytes(range(256)) * 4, "it is not text"),
    "a header of another kind": (b'{"table": "x"}\n', "its first line has no header"),
}


@pytest.mark.parametrize("case", HOSTILE)
def test_a_hostile_file_cannot_be_read_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    content, says = HOSTILE[case]
    path = tmp_path / "log.jsonl"
    path.write_bytes(content)
    code, err = run(path, capsys)
    assert code == 2 and says in err, err


def test_a_huge_file_or_a_missing_one_cannot_be_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as file:
        file.write(b'{"gametable_log": 1, "table": "')
        file.truncate(MAX_BYTES + 1)  # one line of 32 MiB, sparse on disk
    code, err = run(huge, capsys)
    assert code == 2 and "larger than 32 MiB" in err
    code, err = run(tmp_path / "missing.jsonl", capsys)
    assert code == 2 and "no such file or directory" in err


# Any JSON value, nested a little.
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


HOW = ["drop key", "set key", "replace line", "drop line", "repeat line", "cut"]


@st.composite
def mutated(draw: st.DrawFn, good: str) -> str:
    """A log with one to three changes: a field dropped or given another value,
    a line replaced, dropped, repeated or cut, or the file cut anywhere."""
    lines: list[Any] = lines_of(good)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(HOW))
        line = lines[at]
        if how in ("drop key", "set key") and isinstance(line, dict) and line:
            key = draw(st.sampled_from(sorted(line)))
            if how == "drop key":
                line = {k: v for k, v in line.items() if k != key}
            else:
                line = line | {key: draw(VALUES)}
            lines[at] = line
        elif how == "replace line":
            lines[at] = draw(VALUES)
        elif how == "drop line" and len(lines) > 1:
            del lines[at]
        elif how == "repeat line":
            lines.insert(at, line)
        elif how == "cut":
            text = text_of(lines)
            return text[: draw(st.integers(0, len(text)))]
    return text_of(lines)


def check_a_mutation(
    good_log: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject
) -> None:
    """Replayed, a mutated log checks out or raises a one-line ReplayError; run, one line and 0, 1 or 2."""
    text = data.draw(mutated(good_log))
    try:
        replay(text, GAMES)
    except ReplayError as error:
        assert "\n" not in str(error)
    path = tmp_path / "log.jsonl"
    path.write_text(text)
    code, _ = run(path, capsys)
    assert code in (0, 1, 2)


FIXTURES = [HealthCheck.function_scoped_fixture]  # the good log is only read


@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.data())
def test_any_mutation_of_a_log_checks_out_or_says_why_in_one_sentence(
    good_log: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject
) -> None:
    check_a_mutation(good_log, tmp_path, capsys, data)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.data())
def test_many_mutations_of_a_log_check_out_or_say_why_in_one_sentence(
    good_log: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject
) -> None:
    check_a_mutation(good_log, tmp_path, capsys, data)
