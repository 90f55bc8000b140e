"""Hidden information is sacred on the web: for every game, two states that
differ only in what is hidden — the true one and a twin that a seat cannot
tell from it (``Engine.determinize``: everything that seat cannot see dealt
again) — give byte-identical table pages, live parts, pictures and event
streams; and no text only a seat's own view holds ever reaches the page."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from pydantic import BaseModel
from redis.asyncio import Redis

from bot.web.live import Hub
from bot.web.site import Site
from bot.web.table_live import live_html
from engines.registry import GAMES
from storage import keys
from storage.records import TableRecord, TableStatus
from tests.web.conftest import HOME
from tests.web.sse import next_update
from tests.web.tables import play, started

# Moves into the game at which the page is read twice.
CHECKPOINTS = (0, 4, 12, 25)


async def faces(client: Any, site: Site, record: TableRecord) -> dict[str, bytes]:
    """Everything a reader can get of the table: the page, its live part, the
    picture, the event stream's first update."""
    site.pictures.clear()  # kept by version, and a twin has the same version
    await site.hub.close()
    site.hub = Hub(interval=0.02)
    page = f"/g/{HOME}/t/{record.id}"
    got = {"page": await (await client.get(page)).read()}
    got["fragment"] = (await live_html(site, record)).encode()
    picture = await client.get(f"{page}/picture.png?v={record.version}")
    got["picture"] = await picture.read() if picture.status == 200 else b"none"
    stream = await client.get(f"{page}/events?v={record.version - 1}")
    try:
        got["event"] = (await next_update(stream)).encode()
    finally:
        stream.close()
    return got


def hidden_part(state: BaseModel) -> dict[str, Any]:
    return state.model_dump(mode="json", exclude={"rng"})


def strings(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value))
    return {value} if isinstance(value, str) else set()


async def private_texts(site: Site, record: TableRecord) -> set[str]:
    """Texts a seat's own view holds that neither the public view nor the public log does
    (card names and card texts in a hand, a secret order…)."""
    engine, state = site.service.engine(record.game), site.service.state(record)
    public = json.dumps(engine.view(state, None).model_dump(mode="json"), ensure_ascii=False)
    said = " ".join(
        str(e.get("text", ""))
        for entry in await site.service.store.log(record.id)
        for e in entry.events
        if e.get("to") is None
    )
    names = {card.name for card in engine.cards(engine.parse_options(record.options))}
    found: set[str] = set()
    for seat in range(len(record.seats)):
        for text in strings(engine.view(state, seat).model_dump(mode="json")):
            if (text in names or len(text) >= 12) and text not in public and text not in said:
                found.add(text)
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_what_is_hidden_never_changes_a_byte_of_the_page(
    game: str, client: Any, site: Site, redis: Redis
) -> None:
    engine = GAMES[game]
    record = await started(site.service, game, players=max(2, engine.info.min_players), seed=11)
    rng, moved, twins, secrets, private_anywhere = random.Random(7), 0, 0, 0, False
    for checkpoint in CHECKPOINTS:
        record = await play(site.service, record.id, checkpoint - moved, rng)
        moved = checkpoint
        if record.status is not TableStatus.PLAYING:
            break
        assert record.state is not None
        state = site.service.state(record)
        true = await faces(client, site, record)
        hidden = await private_texts(site, record)
        for text in hidden:
            assert text.encode() not in true["page"], f"{text!r} is private yet on the page"
            assert text.encode() not in true["event"], f"{text!r} is private yet in the stream"
        secrets += len(hidden)
        views = [strings(engine.view(state, s).model_dump(mode="json")) for s in range(len(record.seats))]
        private_anywhere |= any(v - strings(engine.view(state, None).model_dump(mode="json")) for v in views)
        for seat in range(len(record.seats)):
            twin = engine.determinize(state, seat, random.Random(1000 * checkpoint + seat))
            if twin is None or hidden_part(twin) == hidden_part(state):
                continue  # nothing hidden from this seat here: no twin to tell apart
            await redis.hset(keys.table(record.id), "state", engine.dump_state(twin))
            try:
                seen = await faces(client, site, await site.service.get(record.id))
            finally:
                await redis.hset(keys.table(record.id), "state", record.state)
            twins += 1
            for face, body in true.items():
                assert seen[face] == body, f"{game}: the {face} tells the twin (seat {seat} re-dealt) apart"
    assert twins >= 3, f"{game}: too few twins differed from the true state to test anything"
    if private_anywhere:
        assert secrets > 0, f"{game}: the seats' views hold text of their own, yet none of it was checked"
