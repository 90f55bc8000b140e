"""The replay page of a finished game: real games played to the end through the
service, every step of each shown as the public table a spectator saw at that
moment, the seal checked by the replay's own code (and found broken when the
stored log or seed is tampered with), and nothing of a game still in play."""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from redis.asyncio import Redis

from bot.render import Panel
from bot.service.shuffle import seal
from bot.service.undo_requests import ask_undo, vote_undo
from bot.web import replays
from bot.web.markup import to_html
from bot.web.site import Site
from storage import keys
from storage.records import TableStatus
from storage.retention import archive_key, pack, unpack
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD
from tests.support.service import high_card_service, high_card_table
from tests.web.conftest import HOME, OTHER
from tests.web.games import ANN, BOB, finished, play, start

# Long enough to cover every kind of move, short enough to step through every one.
STEPPED = ("spheres-of-life", "scales-of-influence", "time-masters", "once-upon-a-time-life")


@pytest.fixture(autouse=True)
def fresh_replays() -> Iterator[None]:
    replays.forget()
    yield
    replays.forget()


def replay_url(table_id: str, guild: int = HOME, query: str = "") -> str:
    return f"/g/{guild}/t/{table_id}/replay{query}"


def visible(page: str) -> str:
    """The page's text as a reader sees it: tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def panel_texts(panel: Panel, name: Callable[[int], str]) -> list[str]:
    """What the panel says, as the page must show it (names in, Discord's marks made markup)."""
    parts = [panel.description, *(f.name for f in panel.fields), *(f.value for f in panel.fields)]
    return [visible(str(to_html(p, name))) for p in parts if p]


async def board(client: Any, table_id: str, move: int | str) -> str:
    response = await client.get(replay_url(table_id, query=f"?move={move}&part=board"))
    assert response.status == 200
    return await response.text()


@pytest.mark.parametrize("game", STEPPED)
async def test_every_step_shows_the_public_table_a_spectator_saw_then(
    client: Any, site: Site, game: str
) -> None:
    seen: list[Panel] = []
    table_id = await finished(site.service, game, HOME, seen=seen)
    record = await site.service.get(table_id)
    names = [s.name for s in record.seats]

    def name(seat: int) -> str:
        return names[seat]

    page = await client.get(replay_url(table_id))
    assert page.status == 200
    text = visible(await page.text())
    assert "The table at the start" in text and "Moves" in text
    last = len(seen) - 1
    assert last > 10 and f"of {last}" in text
    shown = []
    for move, panel in enumerate(seen):
        part = visible(await board(client, table_id, move))
        for expected in panel_texts(panel, name):
            assert expected in part, (move, expected)
        shown.append(part)
    assert len(set(shown)) > last // 2, "the steps differ from one another"
    # The last step is the final table; past it is the end again.
    assert shown[-1] == visible(await board(client, table_id, last + 5))


async def test_the_move_list_links_every_step_and_marks_the_current_one(client: Any, site: Site) -> None:
    table_id = await finished(site.service, "spheres-of-life", HOME)
    replay = await replays.replay_of(
        await site.service.get(table_id),
        site.service.engine("spheres-of-life"),
        lambda: site.service.store.log(table_id),
    )
    page = await (await client.get(replay_url(table_id, query="?move=3"))).text()
    for move in range(replay.last + 1):
        assert f'href="{replay_url(table_id, query=f"?move={move}")}"' in page
    assert re.search(r'<li id="move-3" class="current">\s*<a [^>]*aria-current="step"', page)
    assert page.count('aria-current="step"') == 1
    # The ends: the controls that would leave the game are disabled, not links.
    first = await (await client.get(replay_url(table_id, query="?move=0"))).text()
    assert first.count('aria-disabled="true"') == 2 and 'rel="next"' in first and 'rel="prev"' not in first
    end = await (await client.get(replay_url(table_id, query=f"?move={replay.last}"))).text()
    assert end.count('aria-disabled="true"') == 2 and 'rel="prev"' in end and 'rel="next"' not in end
    middle = await (await client.get(replay_url(table_id, query="?move=3"))).text()
    assert 'aria-disabled="true"' not in middle
    # The jump form leaves any number to the server, which clamps it.
    assert 'form class="controls replay-jump" method="get" action="" novalidate' in middle
    assert 'name="move"' in middle
    assert '<script src="/static/replay.js" defer></script>' in middle and "<script>" not in middle


@pytest.mark.parametrize(
    ("asked", "step"), [("-1", 0), ("abc", 0), ("", 0), ("1e3", 0), ("٣", 0), ("007", 7), ("9" * 40, "last")]
)
async def test_a_bad_move_number_is_clamped_never_an_error(
    client: Any, site: Site, asked: str, step: Any
) -> None:
    table_id = await finished(site.service, "once-upon-a-time-life", HOME)
    page = await client.get(replay_url(table_id), params={"move": asked})
    assert page.status == 200
    said = re.search(r'data-move="(\d+)" data-last="(\d+)"', await page.text())
    assert said is not None
    assert int(said[1]) == (int(said[2]) if step == "last" else step)


async def test_the_seal_checks_with_the_seed_and_the_hash_posted_at_the_start(
    client: Any, site: Site
) -> None:
    table_id = await finished(site.service, "time-masters", HOME)
    record = await site.service.get(table_id)
    text = visible(await (await client.get(replay_url(table_id))).text())
    assert "✓ The seal checks" in text and "does not check" not in text
    posted = seal(table_id, record.seed)
    assert text.count(posted) >= 2  # posted at the start, and computed from the seed again
    assert str(record.seed) in text and "It checks out" in text


async def test_a_seed_chosen_by_hand_replays_but_is_not_sealed(client: Any, site: Site) -> None:
    table = await site.service.create("spheres-of-life", ANN, guild_id=HOME, channel_id=1, seed=3)
    await site.service.join(table.id, BOB)
    await site.service.start(table.id, ANN.user_id)
    await play(site.service, table.id)
    text = visible(await (await client.get(replay_url(table.id))).text())
    assert "Not sealed" in text and "✓" not in text and "✗" not in text
    assert "chosen by hand" in text and seal(table.id, 3) not in text


async def _log_lines(redis: Redis, table_id: str) -> tuple[str, list[bytes]]:
    archived = await redis.get(archive_key(table_id))
    if archived:
        return "archive", unpack(archived)
    return "list", list(await redis.lrange(keys.log(table_id), 0, -1))


async def _write_lines(redis: Redis, table_id: str, where: str, lines: list[bytes]) -> None:
    if where == "archive":
        await redis.set(archive_key(table_id), pack(lines))
    else:
        await redis.delete(keys.log(table_id))
        await redis.rpush(keys.log(table_id), *lines)


async def test_a_log_tampered_with_in_storage_does_not_check_and_stops_there(
    client: Any, site: Site, redis: Redis
) -> None:
    table_id = await finished(site.service, "spheres-of-life", HOME)
    where, lines = await _log_lines(redis, table_id)
    entries = [json.loads(line) for line in lines]
    moves = [i for i, e in enumerate(entries) if e["kind"] == "act"]
    tenth = entries[moves[9]]
    others = [c for c in ("pass", "draw") if c != tenth["action"].get("type")]
    tenth["action"] = {"type": others[0]}
    lines[moves[9]] = json.dumps(tenth).encode()
    await _write_lines(redis, table_id, where, lines)

    text = visible(await (await client.get(replay_url(table_id, query="?move=9"))).text())
    assert "✗ The seal does not check" in text and "✓" not in text
    assert "It does not check out" in text
    assert "The replay stopped before this move" not in text  # move 9 was fine
    after = visible(await board(client, table_id, 10))
    assert "The replay stopped before this move" in after


async def test_a_seed_changed_in_storage_does_not_match_the_seal_posted_at_the_start(
    client: Any, site: Site, redis: Redis
) -> None:
    table_id = await finished(site.service, "scales-of-influence", HOME)
    record = await site.service.get(table_id)
    meta = json.loads(await redis.hget(keys.table(table_id), "meta"))
    assert meta["seed"] == record.seed
    meta["seed"] = record.seed + 1
    await redis.hset(keys.table(table_id), "meta", json.dumps(meta))

    text = visible(await (await client.get(replay_url(table_id))).text())
    assert "✗ The seal does not check" in text
    assert seal(table_id, record.seed) in text  # the seal posted at the start …
    assert seal(table_id, record.seed + 1) in text  # … is not the seed's
    assert "not the one published at the start" in text


async def test_a_replay_is_built_once_per_table_version(
    client: Any, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await finished(site.service, "spheres-of-life", HOME)
    built: list[str] = []
    real = replays.build

    def counted(*args: Any) -> replays.Replay:
        built.append(args[0].id)
        return real(*args)

    monkeypatch.setattr(replays, "build", counted)
    reads: list[str] = []
    read_log = site.service.store.log

    async def log(table: str, *args: Any) -> Any:
        reads.append(table)
        return await read_log(table, *args)

    monkeypatch.setattr(site.service.store, "log", log)
    # Readers arriving together wait for the one replay.
    await asyncio.gather(*(board(client, table_id, move) for move in (0, 1, 2)))
    for move in (3, 4):
        await board(client, table_id, move)
    await client.get(replay_url(table_id))
    assert built == [table_id] and reads == [table_id], "the log is read and replayed once"


async def test_refusals_are_the_one_404(client: Any, site: Site) -> None:
    home = await finished(site.service, "spheres-of-life", HOME)
    other = await finished(site.service, "spheres-of-life", OTHER)
    direct = await site.service.create("spheres-of-life", ANN, channel_id=None)
    await site.service.join(direct.id, BOB)
    await site.service.start(direct.id, ANN.user_id)
    await play(site.service, direct.id)
    assert (await site.service.get(direct.id)).guild_id is None
    answers = []
    for path in (
        replay_url(other),  # another server's table
        replay_url(home, guild=7003),  # a server whose pages are off
        replay_url("nosuch12"),
        replay_url("BAD..ID"),
        replay_url("x" * 40),
        replay_url(direct.id),  # a table of no server
        f"/g/{HOME}/t/{home}/replay/more",
        f"/g/x{HOME}/t/{home}/replay",
    ):
        response = await client.get(path)
        assert response.status == 404, path
        answers.append(await response.text())
    assert len(set(answers)) == 1
    assert (await client.get(replay_url(home))).status == 200
    assert (await client.get(replay_url(other, guild=OTHER))).status == 200


async def test_a_game_in_play_shows_nothing_of_its_log_until_it_ends(client: Any, site: Site) -> None:
    table_id = await start(site.service, "spheres-of-life", HOME)
    await play(site.service, table_id, moves=6)
    record = await site.service.get(table_id)
    assert record.status is TableStatus.PLAYING
    told = [
        e["text"]
        for entry in await site.service.store.log(table_id)
        for e in entry.events
        if e.get("to") is not None
    ]
    dealt = next(t for t in told if t.startswith("You are dealt"))
    card = dealt.removeprefix("You are dealt ").split(",")[0]

    page = await client.get(replay_url(table_id, query="?move=3"))
    assert page.status == 200
    text = await page.text()
    assert "not over yet" in text and f'href="/g/{HOME}/t/{table_id}"' in text
    assert card not in text and "Moves" not in text and "seed" not in text.lower()
    fragment = await client.get(replay_url(table_id, query="?move=3&part=board"))
    assert card not in await fragment.text()

    await play(site.service, table_id)
    assert (await site.service.get(table_id)).status is TableStatus.FINISHED
    after = visible(await (await client.get(replay_url(table_id))).text())
    assert dealt in after and "(to Ann)" in after  # after the end the whole log is public


async def test_a_lobby_and_an_abandoned_table_have_no_replay(client: Any, site: Site) -> None:
    lobby = await site.service.create("phase", ANN, guild_id=HOME, channel_id=1)
    gone = await start(site.service, "phase", HOME)
    await play(site.service, gone, moves=3)
    await site.service.abandon(gone, ANN.user_id)
    assert (await site.service.get(gone)).status is TableStatus.ABANDONED
    waiting = await (await client.get(replay_url(lobby.id))).text()
    assert "not over yet" in waiting and f'href="/g/{HOME}/t/{lobby.id}"' in waiting
    abandoned = await (await client.get(replay_url(gone))).text()
    assert "abandoned" in abandoned and f'href="/g/{HOME}/t/{gone}"' in abandoned
    record = await site.service.get(gone)
    assert str(record.seed) not in abandoned and "Moves" not in abandoned


async def test_a_move_taken_back_is_told_but_is_no_step(store: TableStore) -> None:
    service = high_card_service(store, Clock(1000.0))
    table_id = await high_card_table(service, ANN, BOB)
    record = await service.get(table_id)
    card = service.view(record, ANN.user_id).hand[0]  # type: ignore[attr-defined]
    await service.act(table_id, ANN.user_id, f"play:{card}")
    asked = (await ask_undo(service, table_id, ANN.user_id)).table
    assert asked.undo is not None and asked.undo.asked_at is not None
    done = (await vote_undo(service, table_id, BOB.user_id, asked.undo.asked_at, True)).table
    while done.status is TableStatus.PLAYING:
        seat = service.awaited(done)[0]
        user = done.seats[seat].user_id
        assert user is not None
        done = (await service.act(table_id, user, service.choices(done, user)[-1].key)).table
    entries = await service.store.log(table_id)
    made = [e for e in entries if e.kind == "act"]
    replay = replays.build(done, HIGH_CARD, entries)
    assert replay.seal.replays and replay.last == len(made) - 1
    assert len(replay.boards) == len(replay.steps)
    noted = [s.number for s in replay.steps if any("taken back" in line.text for line in s.lines)]
    assert noted == [0]  # the first move, taken back before any other
