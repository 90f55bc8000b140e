"""Pictures through Discord: the table message and the hand panel carry their PNG,
shown in the embed, replaced on each edit, gone when the table is abandoned; a game
without a picture renderer sends no file. Every upload is checked against Discord's
file limits by the harness (``limits.messages.check_files``)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.app.ui import answer
from bot.render.pictures import PICTURES
from bot.render.pictures.cards import card_png
from engines.registry import get_engine
from tests.e2e.games import start_table
from tests.e2e.harness import DiscordHarness, SentMessage
from tests.e2e.tables import BotMaker, button
from tests.support.minigame import HIGH_CARD

PICTURE_BUDGET = 1024 * 1024


@pytest.fixture
def games() -> dict[str, Any]:
    return {key: get_engine(key) for key in PICTURES} | {"high-card": HIGH_CARD}


def _picture(h: DiscordHarness, message: SentMessage, filename: str) -> tuple[bytes, ...]:
    """The pages of the picture ``message`` shows, as Discord stored them: the first in
    its embed, each further page in an embed of its own below, in order."""
    names = [a["filename"] for a in message.data["attachments"]]
    stem = filename.removesuffix(".png")
    assert names and names == [filename, *(f"{stem}-{n}.png" for n in range(2, len(names) + 1))]
    assert [e.get("image", {}).get("url") for e in message.embeds] == [f"attachment://{n}" for n in names]
    return tuple(h.cdn[a["url"]] for a in message.data["attachments"])


@pytest.mark.parametrize("game", ["spheres-of-life", "scales-of-influence", "time-masters"])
async def test_the_table_message_shows_the_public_picture(
    h: DiscordHarness, maker: BotMaker, game: str
) -> None:
    table = await start_table(h, maker, game, 3)
    shown = _picture(h, table.message, "table.png")
    record = await maker.bot.service.get(table.table_id)
    assert shown == await maker.bot.flows.pictures.table(record)
    assert all(Image.open(io.BytesIO(page)).size[0] == 480 for page in shown)


async def test_table_status_shows_the_same_picture(h: DiscordHarness, maker: BotMaker) -> None:
    table = await start_table(h, maker, "spheres-of-life", 2)
    status = await h.slash(table.users[1], "table status")
    assert status.message is not None
    assert _picture(h, status.message, "table.png") == _picture(h, table.message, "table.png")


async def test_the_hand_panel_shows_my_cards_to_me_alone(h: DiscordHarness, maker: BotMaker) -> None:
    table = await start_table(h, maker, "scales-of-influence", 3)
    record = await maker.bot.service.get(table.table_id)
    for user in table.users:
        panel = await h.click(user, table.message, button(table.message, "My hand"))
        assert panel.message is not None and panel.ephemeral and panel.message.visible_to == user.id
        assert _picture(h, panel.message, "hand.png") == await maker.bot.flows.pictures.hand(record, user.id)


async def test_pictures_arrive_after_a_deferral_too(
    h: DiscordHarness, maker: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow answer is deferred first; the picture then rides on the edit of the original."""
    table = await start_table(h, maker, "scales-of-influence", 3)
    monkeypatch.setattr(answer, "DEFER_AFTER", 0.0)  # defer before every answer
    user = table.users[1]
    hand = await h.slash(user, "hand")
    status = await h.slash(user, "table status")
    clicked = await h.click(user, table.message, button(table.message, "Act"))
    assert hand.deferred and status.deferred and clicked.deferred
    assert hand.message is not None and status.message is not None
    assert _picture(h, hand.message, "hand.png") and _picture(h, status.message, "table.png")
    [panel] = clicked.followups
    assert _picture(h, panel, "hand.png") == _picture(h, hand.message, "hand.png")


async def test_each_move_replaces_the_picture_and_abandon_removes_it(
    h: DiscordHarness, maker: BotMaker
) -> None:
    table = await start_table(h, maker, "scales-of-influence", 3)
    before = _picture(h, table.message, "table.png")
    service = maker.bot.service
    record = await service.get(table.table_id)
    seat = service.awaited(record)[0]
    choice = service.choices(record, table.users[seat].id)[0]
    await h.slash(table.users[seat], "play", {"action": choice.key})
    assert _picture(h, table.message, "table.png") != before
    await h.slash(table.users[0], "table abandon", {"table": table.table_id})
    assert table.message.data["attachments"] == [] and not table.message.embeds[0].get("image")


async def test_a_game_without_a_picture_sends_no_file(h: DiscordHarness, maker: BotMaker) -> None:
    table = await start_table(h, maker, "high-card", 2)
    panel = await h.click(table.users[0], table.message, button(table.message, "My hand"))
    assert panel.message is not None
    for message in (table.message, panel.message):
        assert message.data["attachments"] == [] and not message.embeds[0].get("image")
    assert not any(request.files for request in h.requests)


async def test_slash_card_shows_the_cards_face(h: DiscordHarness, maker: BotMaker) -> None:
    table = await start_table(h, maker, "time-masters", 2)
    shown = await h.slash(table.users[1], "card", {"name": "spark"})
    assert shown.ephemeral and shown.message is not None and shown.message.visible_to == table.users[1].id
    face = _picture(h, shown.message, "card.png")
    engine = get_engine("time-masters")
    [spark] = [c for c in engine.cards(engine.parse_options()) if c.key == "spark"]
    assert face == (card_png(PICTURES["time-masters"].card(spark)),)


async def test_every_picture_sent_is_a_small_png_shown_in_its_embed(
    h: DiscordHarness, maker: BotMaker
) -> None:
    """Beyond the harness's own file rules (count, size, ``attachment://`` names): each upload is a
    PNG within our 1 MiB budget, has alt text within 1024 characters, and its embed shows it."""
    table = await start_table(h, maker, "scales-of-influence", 3)
    service = maker.bot.service
    for _ in range(3):
        record = await service.get(table.table_id)
        seat = service.awaited(record)[0]
        await h.click(table.users[seat], table.message, button(table.message, "My hand"))
        choice = service.choices(record, table.users[seat].id)[0]
        await h.slash(table.users[seat], "play", {"action": choice.key})
    uploads = [request for request in h.requests if request.files]
    assert len(uploads) >= 6, "three table pictures and three hand pictures at least"
    for request in uploads:
        body = request.json.get("data") if request.kind == "interaction_response" else request.json
        shown = {embed.get("image", {}).get("url") for embed in body.get("embeds") or []}
        for upload in request.files:
            assert upload.data.startswith(b"\x89PNG\r\n\x1a\n") and len(upload.data) <= PICTURE_BUDGET
            assert upload.description and len(upload.description) <= 1024
            assert f"attachment://{upload.filename}" in shown


async def test_a_tall_picture_comes_as_pages_each_fit_for_a_phone(h: DiscordHarness, maker: BotMaker) -> None:
    """Scales' table is taller than a phone's inline preview: its pages ride in the table
    message, one embed each, below the table's text, and each is at most 600 px high."""
    table = await start_table(h, maker, "scales-of-influence", 5)
    pages = _picture(h, table.message, "table.png")
    assert len(pages) >= 2 and len(table.message.embeds) == len(pages)
    assert table.message.embeds[0].get("title") and not any(e.get("title") for e in table.message.embeds[1:])
    sizes = [Image.open(io.BytesIO(page)).size for page in pages]
    assert all(width == 480 and 200 <= height <= 600 for width, height in sizes), sizes
