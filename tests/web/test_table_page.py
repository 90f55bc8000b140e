"""The live table page: the public table message as HTML, its picture and its
play-by-play; every miss the same 404; updates as moves are saved."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from redis.asyncio import Redis

from bot.service.tables import Player
from bot.web import table_live, table_page
from bot.web.site import Site
from storage import keys
from tests.web.conftest import HOME, OTHER
from tests.web.sse import live_part, next_update
from tests.web.tables import PEOPLE, finished, play, started


async def text_of(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status == status, path
    return str(await response.text())


async def test_a_game_in_play_shows_its_public_panel_picture_and_play_by_play(
    client: Any, site: Site
) -> None:
    record = await started(site.service, "time-masters")
    record = await play(site.service, record.id, 6, random.Random(2))
    html = await text_of(client, f"/g/{HOME}/t/{record.id}")
    assert html.count("<h1") == 1 and f"<h1>Time Masters — table {record.id}</h1>" in html
    assert '<dl class="fields">' in html and '<div class="field wide"><dt>Seats</dt>' in html
    assert f'data-events="/g/{HOME}/t/{record.id}/events?v={record.version}"' in html
    # The seat whose move it is has a clock, as a <time> the reader's browser localises.
    assert re.search(r'▶️ \d\. \w+ (👑 )?· ⏳ <time datetime="[0-9T:-]+Z" data-ts="\d+" data-style="R">', html)
    picture = f"/g/{HOME}/t/{record.id}/picture.png?v={record.version}"
    assert f'src="{picture}" alt="A picture of the table: ' in html
    response = await client.get(picture)
    assert response.status == 200 and response.content_type == "image/png"
    assert (await response.read()).startswith(b"\x89PNG")
    entries = await site.service.store.log(record.id)
    last = [e for e in entries[-1].events if e.get("to") is None][-1]["text"]
    assert site.service.text(record, last).replace("'", "&#39;") in html
    assert "Replay the whole game" not in html


async def test_a_lobby_shows_its_seats_waiting_and_no_picture(client: Any, site: Site) -> None:
    record = await site.service.create("phase", PEOPLE[0], guild_id=HOME, channel_id=5)
    html = await text_of(client, f"/g/{HOME}/t/{record.id}")
    assert "Waiting for players (1/3, at least 2)." in html and "▫️ 1. Ann 👑" in html
    assert "<img" not in html
    await text_of(client, f"/g/{HOME}/t/{record.id}/picture.png?v=0", 404)


async def test_a_finished_table_links_its_replay(client: Any, site: Site) -> None:
    record = await started(site.service, "phase")
    record = await finished(site.service, record.id, random.Random(3))
    html = await text_of(client, f"/g/{HOME}/t/{record.id}")
    assert "🏁 <strong>Game over.</strong>" in html
    assert f'<a class="button" href="/g/{HOME}/t/{record.id}/replay">Replay the whole game</a>' in html


async def test_the_play_by_play_shows_the_newest_last_and_counts_the_rest(
    client: Any, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_live, "LOG_SHOWN", 3)
    record = await started(site.service, "spheres-of-life")
    record = await play(site.service, record.id, 6, random.Random(1))
    entries = await site.service.store.log(record.id)
    total = len(entries)
    public = [e for e in entries[-3:] if any(x.get("to") is None for x in e.events)]
    html = await text_of(client, f"/g/{HOME}/t/{record.id}")
    assert html.count("<li>") == len(public) > 0
    assert f"{total - 3} earlier entries are not shown here." in html
    assert "Bob joins the table." not in html  # the first entry


async def test_names_are_escaped_and_never_read_as_markdown(client: Any, site: Site) -> None:
    hostile = [Player(901, "<script>alert(1)</script>"), Player(902, "**Big** _Bo_ `x`")]
    record = await site.service.create("spheres-of-life", hostile[0], guild_id=HOME, channel_id=5)
    await site.service.join(record.id, hostile[1])
    record = (await site.service.start(record.id, 901)).table
    html = await text_of(client, f"/g/{HOME}/t/{record.id}")
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "**Big** _Bo_ `x`" in html and "<strong>Big" not in html and "<code>x" not in html


async def test_every_miss_is_the_one_404(client: Any, site: Site, redis: Redis) -> None:
    nothing = await text_of(client, f"/g/{HOME}/t/nosuch", 404)
    dm = await site.service.create("phase", PEOPLE[0], guild_id=None)
    elsewhere = await site.service.create("phase", PEOPLE[0], guild_id=OTHER, channel_id=5)
    closed = await site.service.create("phase", PEOPLE[0], guild_id=4242, channel_id=5)
    damaged = await site.service.create("phase", PEOPLE[0], guild_id=HOME, channel_id=5)
    await redis.hset(keys.table(damaged.id), "meta", "{not json")
    broken = await started(site.service, "phase")
    await redis.hset(keys.table(broken.id), "state", '{"not": "a state"}')
    misses = [
        f"/g/{HOME}/t/{dm.id}",
        f"/g/{HOME}/t/{elsewhere.id}",
        f"/g/4242/t/{closed.id}",
        f"/g/{HOME}/t/{damaged.id}",
        f"/g/{HOME}/t/{broken.id}",
        f"/g/{HOME}/t/{broken.id}/picture.png",
        f"/g/{HOME}/t/{elsewhere.id}/picture.png",
        f"/g/{HOME}/t/{elsewhere.id}/events",
        f"/g/{HOME}/t/NOT-AN-ID",
        f"/g/{HOME}/t/{'a' * 65}",
    ]
    for path in misses:
        assert await text_of(client, path, 404) == nothing, path
    assert "There is nothing here" in nothing
    assert "<h1>Phase — table" in await text_of(client, f"/g/{OTHER}/t/{elsewhere.id}")


async def test_a_move_saved_through_the_service_reaches_the_event_stream(client: Any, site: Site) -> None:
    site.hub.interval = 0.05
    record = await started(site.service, "spheres-of-life")
    page = f"/g/{HOME}/t/{record.id}"
    before = await text_of(client, page)
    response = await client.get(f"{page}/events?v={record.version}")
    assert response.status == 200 and response.content_type == "text/event-stream"
    try:
        moved = await play(site.service, record.id, 1, random.Random(5))
        update = await next_update(response)
        after = await text_of(client, page)
        assert moved.version == record.version + 1
        assert update == live_part(after) != live_part(before)
        assert f"picture.png?v={moved.version}" in update
    finally:
        response.close()


async def test_a_reader_whose_page_is_behind_is_sent_the_table_at_once(client: Any, site: Site) -> None:
    site.hub.interval = 0.05
    record = await started(site.service, "phase")
    response = await client.get(f"/g/{HOME}/t/{record.id}/events?v={record.version - 1}")
    try:
        assert await next_update(response) == live_part(await text_of(client, f"/g/{HOME}/t/{record.id}"))
    finally:
        response.close()


async def test_the_store_reads_a_table_s_version_alone_and_its_log_s_tail(site: Site) -> None:
    record = await started(site.service, "phase")
    store = site.service.store
    assert await store.version(record.id) == record.version > 0
    assert await store.version("nosuch") is None
    entries = await store.log(record.id)
    assert await store.log_tail(record.id, 2) == (len(entries), entries[-2:])
    assert await store.log_tail(record.id, 500) == (len(entries), entries)


async def test_a_watcher_of_a_server_that_turned_its_pages_off_is_told_no_more(
    client: Any, site: Site
) -> None:
    site.hub.interval = 0.05
    record = await started(site.service, "phase")
    response = await client.get(f"/g/{HOME}/t/{record.id}/events?v={record.version}")
    try:
        settings = await site.settings.guild(HOME)
        settings.web = False
        await site.settings.save_guild(settings)
        await play(site.service, record.id, 1, random.Random(1))
        assert await next_update(response) == table_page.OFF
    finally:
        response.close()


async def test_the_cards_the_table_names_are_told_with_their_text(client: Any, site: Site) -> None:
    record = await started(site.service, "time-masters")
    html = await text_of(client, f"/g/{HOME}/t/{record.id}")
    engine = site.service.engine("time-masters")
    cards = engine.cards(engine.parse_options(record.options))
    view_text = site.service.text(record, str(site.service.view(record, None).model_dump()))
    on_table = [c for c in cards if re.search(rf"(?<!\w){re.escape(c.name)}(?!\w)", view_text)]
    assert on_table, "the five spheres' top cards are on the table"
    assert '<h2 id="card-text">Card text</h2>' in html
    section = html.split('<h2 id="card-text">')[1].split("</section>")[0]
    for card in on_table:
        assert f"<dt>{card.name} " in section
    # A card the table does not name is not told (the deck has more designs than the table shows).
    absent = [c for c in cards if c not in on_table]
    assert absent and all(f"<dt>{c.name} " not in section for c in absent)


def test_a_name_inside_a_longer_name_is_not_a_card_of_its_own() -> None:
    from bot.web.cards import named
    from engines.core import CardText

    deck = [CardText(key=k, name=n, kind="spell", text="t") for k, n in (("f", "Focus"), ("d", "Deep Focus"))]
    assert [c.name for c in named(deck, ["Sphere 2: **Deep Focus**"])] == ["Deep Focus"]
    assert [c.name for c in named(deck, ["Deep Focus, then Focus"])] == ["Focus", "Deep Focus"]
    assert named(deck, ["Unfocused"]) == []
