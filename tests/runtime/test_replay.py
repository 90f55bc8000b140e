"""The verifiable shuffle: a finished table's published seed and log replay to
its final state, and a log that was tampered with does not check out. Also
what each log file shows, to whom, before and after the end."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.ops import cli
from bot.service.replay import ReplayError, replay
from bot.service.shuffle import seal, state_hash
from bot.service.tablelog import log_files
from bot.service.tables import Player, TableService
from engines.card_data import decks_in_full
from engines.registry import GAMES
from storage.records import TableStatus
from storage.store import TableStore
from tests.support.clock import Clock

ANN, BOB = Player(1, "Ann"), Player(2, "Bob")


@pytest.fixture
def clock() -> Clock:
    return Clock(1000.0)


@pytest.fixture
def service(store: TableStore, clock: Clock) -> TableService:
    return TableService(store, clock=clock, turn_timeout=60)


async def play_out(
    service: TableService, clock: Clock, game: str, bots: int, seed: int, table_seed: int | None = None
) -> str:
    """Two people and some bots play to the end; every fifth wait, the clock runs out."""
    table = await service.create(game, ANN, channel_id=100, seed=table_seed)
    await service.join(table.id, BOB)
    for _ in range(bots):
        await service.add_bot(table.id, ANN.user_id)
    await service.start(table.id, ANN.user_id)
    rng = random.Random(seed)
    for step in range(5000):
        record = await service.get(table.id)
        if record.status is not TableStatus.PLAYING:
            return table.id
        if step % 5 == 4:
            clock.now += record.turn_timeout + 1
            await service.expire()
            continue
        seat = rng.choice(service.awaited(record))
        user = record.seats[seat].user_id
        if user is None:
            # A bot whose thinking ran past one change's budget: the sweeper plays on for it.
            await service.expire()
            continue
        choice = rng.choice(service.choices(record, user))
        await service.act(table.id, user, choice.key, record.version)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("game", "bots", "seed"),
    [("spheres-of-life", 1, 4), ("scales-of-influence", 2, 7), ("time-masters", 1, 5)],
)
async def test_a_finished_game_replays_from_its_published_seed_and_log(
    service: TableService, clock: Clock, game: str, bots: int, seed: int, tmp_path: Path
) -> None:
    table_id = await play_out(service, clock, game, bots, seed)
    record = await service.get(table_id)
    entries = await service.store.log(table_id)
    kinds = {e.kind for e in entries}
    assert {"start", "act", "bot", "timeout", "end"} <= kinds
    assert all(e.action is not None for e in entries if e.kind == "timeout"), "the clock's moves are logged"
    files = log_files(record, service.engine(game), entries, seat=None)
    checked = replay(files.jsonl, GAMES)
    assert checked.sealed and record.seed.bit_length() > 64
    assert checked.moves == sum(1 for e in entries if e.kind in ("act", "bot", "timeout"))
    assert "gametable replay" in files.text and str(record.seed) in files.text

    lines = files.jsonl.splitlines()
    head = json.loads(lines[0])
    assert head["seal"] == seal(table_id, record.seed) and record.seed >= 0
    for tamper in (_other_seed, _other_action, _drop_last_move):
        with pytest.raises(ReplayError):
            replay(tamper(head, lines), GAMES)

    good, bad, out = tmp_path / f"{files.name}.jsonl", tmp_path / "bad.jsonl", io.StringIO()
    good.write_text(files.jsonl)
    bad.write_text(_other_seed(head, lines))
    assert cli.main(["replay", str(good)], games=GAMES, stdout=out) == 0
    assert f"{checked.moves} moves replayed" in out.getvalue() and "checks out" in out.getvalue()
    assert cli.main(["replay", str(bad)], games=GAMES, stdout=out) == 1


async def test_a_game_that_published_its_final_state_with_the_deck_written_out_still_replays(
    service: TableService, clock: Clock
) -> None:
    # Before states named shipped decks by reference, the final state's hash
    # (published in the log and in its header) was that of the deck written out.
    table_id = await play_out(service, clock, "spheres-of-life", 1, 3)
    record = await service.get(table_id)
    engine = service.engine(record.game)
    files = log_files(record, engine, await service.store.log(table_id))
    assert record.state is not None
    with decks_in_full():
        whole = state_hash(engine.dump_state(engine.load_state(record.state)))
    now = state_hash(record.state)
    assert whole != now and now in files.jsonl
    then = files.jsonl.replace(now, whole)
    assert replay(then, GAMES).final_state_sha256 == whole
    with pytest.raises(ReplayError, match="final state differs"):
        replay(files.jsonl.replace(now, "0" * 64), GAMES)


async def test_a_hand_picked_seed_is_never_sealed_yet_the_game_still_replays(
    service: TableService, clock: Clock
) -> None:
    table_id = await play_out(service, clock, "scales-of-influence", 1, 2, table_seed=42)
    record = await service.get(table_id)
    entries = await service.store.log(table_id)
    start = next(e for e in entries if e.kind == "start")
    assert any("chosen by hand, so its shuffle is not sealed" in e["text"] for e in start.events)
    assert not any(seal(table_id, 42) in e["text"] for entry in entries for e in entry.events)
    files = log_files(record, service.engine(record.game), entries)
    assert json.loads(files.jsonl.splitlines()[0])["seal"] is None
    checked = replay(files.jsonl, GAMES)
    assert not checked.sealed and checked.moves > 0


async def test_reminders_and_a_played_out_end_still_replay(store: TableStore, clock: Clock) -> None:
    # The sweeper's wakes that only remind log a "clock" entry, not a move;
    # a moderator's play-out logs each move it makes for a seat.
    service = TableService(store, clock=clock, turn_timeout=2 * 3600)  # long enough for reminders
    table = await service.create("time-masters", ANN, channel_id=100)
    await service.join(table.id, BOB)
    await service.start(table.id, ANN.user_id)
    rng = random.Random(5)
    for _ in range(12):
        record = await service.get(table.id)
        clock.now += record.turn_timeout / 2 + 1  # half the time gone: a reminder, no timeout
        await service.expire()
        seat = service.awaited(record)[0]
        user = record.seats[seat].user_id
        assert user is not None
        choice = rng.choice(service.choices(record, user))
        await service.act(table.id, user, choice.key, record.version)
    await service.play_out(table.id)
    record = await service.get(table.id)
    assert record.status is TableStatus.FINISHED
    entries = await service.store.log(table.id)
    assert any(e.kind == "clock" and e.action is None for e in entries), "the reminders are logged"
    assert all(e.action is not None for e in entries if e.kind in ("act", "bot", "timeout"))
    played_out = [e for e in entries if e.kind == "timeout"]
    assert played_out and all("The table played for" in e.events[0]["text"] for e in played_out)
    checked = replay(log_files(record, service.engine(record.game), entries).jsonl, GAMES)
    assert checked.moves == sum(1 for e in entries if e.kind in ("act", "bot", "timeout"))


def _other_seed(head: dict[str, Any], lines: list[str]) -> str:
    return "\n".join([json.dumps({**head, "seed": head["seed"] + 1}), *lines[1:]])


def _other_action(head: dict[str, Any], lines: list[str]) -> str:
    moves = [i for i, line in enumerate(lines) if json.loads(line).get("kind") == "act"]
    entries = [json.loads(line) for line in lines]
    # Swap the actions of two different moves: at least one of them is then refused or misleads.
    first = moves[0]
    second = next(i for i in moves[1:] if entries[i]["action"] != entries[first]["action"])
    entries[first]["action"], entries[second]["action"] = entries[second]["action"], entries[first]["action"]
    return "\n".join(json.dumps(e) for e in entries)


def _drop_last_move(head: dict[str, Any], lines: list[str]) -> str:
    last = max(i for i, line in enumerate(lines) if json.loads(line).get("kind") in ("act", "bot", "timeout"))
    return "\n".join(lines[:last] + lines[last + 1 :])


async def test_logs_show_the_public_part_to_all_and_the_private_part_to_its_owner(
    service: TableService, clock: Clock
) -> None:
    table = await service.create("scales-of-influence", ANN, channel_id=100)
    await service.join(table.id, BOB)
    await service.add_bot(table.id, ANN.user_id)
    await service.start(table.id, ANN.user_id)
    rng = random.Random(5)
    for _ in range(200):  # play until a human seat has been told something in private
        record = await service.get(table.id)
        entries = await service.store.log(table.id)
        told = {s for e in entries for ev in e.events for s in ev.get("to") or [] if s in (0, 1)}
        if told:
            break
        seat = rng.choice(service.awaited(record))
        user = record.seats[seat].user_id
        if user is None:  # a bot past one change's thinking budget: the sweeper plays on
            await service.expire()
            continue
        await service.act(table.id, user, rng.choice(service.choices(record, user)).key, record.version)
    seat = min(told)
    engine = service.engine(record.game)
    public = log_files(record, engine, entries)
    mine = log_files(record, engine, entries, seat=seat)
    public_lines = [json.loads(line) for line in public.jsonl.splitlines()]
    mine_lines = [json.loads(line) for line in mine.jsonl.splitlines()]
    assert "seed" not in public_lines[0] and "seed" not in mine_lines[0]
    assert all(
        "action" not in line and all(e.get("to") is None for e in line["events"]) for line in public_lines[1:]
    )
    private = [e for line in mine_lines[1:] for e in line["events"] if e.get("to")]
    assert private and all(seat in e["to"] for e in private)
    assert all(private_text not in public.text for private_text in (e["text"] for e in private))
    assert all("action" in line for line in mine_lines[1:] if line["seat"] == seat)
    assert all("action" not in line for line in mine_lines[1:] if line["seat"] != seat)
    name = record.seats[seat].name
    # A private line names whom it was told to: this seat, maybe with others ("(to Ann, Bob)").
    told_to = [part.split(")")[0].split(", ") for part in mine.text.split("(to ")[1:]]
    assert mine.name == f"log-{table.id}-mine" and any(name in names for names in told_to)
    assert "(to " not in public.text
    with pytest.raises(ReplayError, match="no seed"):
        replay(public.jsonl, GAMES)
