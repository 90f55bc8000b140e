"""Through Discord: every interaction gets a short, true answer in time — old and
forged components, garbled select values, oversized and nested input, clicks on
tables that are over or by people not seated, double clicks, slow storage."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest

from bot.app.application import OLD_COMPONENT
from bot.app.ui import answer
from engines.registry import GAMES
from storage.records import TableStatus
from tests.e2e.harness import DiscordHarness
from tests.e2e.records import SentMessage
from tests.e2e.tables import BotMaker, button, choose, embed_text, labels, open_table, select_options
from tests.support.faults import slow
from tests.support.minigame import HIGH_CARD

LONG = "x" * 2500


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD, **GAMES}


async def started(h: DiscordHarness, maker: BotMaker, players: int = 3) -> tuple[list[Any], Any, str]:
    users, message, table_id = await open_table(h, maker, players)
    await h.click(users[0], message, button(message, "Start"))
    return users, message, table_id


@pytest.mark.parametrize("custom_id", ["gt:v0:join:abc:1", "forged", "gt:v1:act:abc"])
async def test_a_component_no_item_knows_is_answered(h: DiscordHarness, custom_id: str) -> None:
    ann = h.create_user("ann")
    result = await h.click(ann, custom_id)
    assert result.ephemeral and result.content == OLD_COMPONENT


async def test_a_custom_id_missing_from_its_message_is_answered(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, table_id = await open_table(h, maker, players=1)
    # It fits a template but is not on the message clicked.
    forged = {"custom_id": f"gt:v1:start:{table_id}:9", "component_type": 2}
    result = await h._interact(3, users[0], h.channel, forged, message)
    assert result.ephemeral and result.content == OLD_COMPONENT
    assert (await maker.bot.service.get(table_id)).status is TableStatus.LOBBY


async def test_a_select_value_that_is_not_a_number_is_answered(h: DiscordHarness, maker: BotMaker) -> None:
    users, _, table_id = await started(h, maker)
    version = (await maker.bot.service.get(table_id)).version
    for part, value in enumerate(("abc", "-1", "²"), start=5):
        result = await h.select(users[0], f"gt:v1:menu:{table_id}:{version}::{part}", [value])
        assert result.ephemeral and result.content == "That is not an option on this menu."


@pytest.mark.parametrize(
    ("command", "options", "expected"),
    [
        ("table create", {"game": LONG}, "There is no game called 'xxx"),
        ("table create", {"game": "high-card", "variant": LONG}, "Unknown variant 'xxx"),
        ("table create", {"game": "high-card", "options": LONG}, "Options are written key=value"),
        ("table create", {"game": "spheres-of-life", "options": LONG + "=1"}, "there is no option 'xxx"),
        ("table create", {"game": "high-card", "options": "rounds=" + LONG}, "rounds must be a whole number"),
        ("table status", {"table": LONG}, "There is no table 'xxx"),
        ("hand", {"table": LONG}, "There is no table 'xxx"),
    ],
)
async def test_long_input_is_clipped_in_the_answer(
    h: DiscordHarness, command: str, options: dict[str, str], expected: str
) -> None:
    result = await h.slash(h.create_user("ann"), command, options)
    assert result.ephemeral and expected in (result.content or "")
    assert len(result.content or "") < 300


async def test_nested_input_is_refused_in_one_sentence(h: DiscordHarness) -> None:
    ann = h.create_user("ann")
    deep = "[" * 1500 + "]" * 1500
    nested = await h.slash(ann, "table create", {"game": "high-card", "options": f"rounds={deep}"})
    assert nested.content == "The value of option 'rounds' is nested too deeply."
    deck = h.upload("deep.toml", "cards = " + "{a=" * 1500 + "1" + "}" * 1500)
    refused = await h.slash(ann, "table create", {"game": "spheres-of-life", "deck": deck})
    assert refused.content == "That deck file is nested too deeply."


async def test_a_bad_option_names_the_valid_ones_in_our_words(h: DiscordHarness) -> None:
    ann = h.create_user("ann")
    unknown = await h.slash(ann, "table create", {"game": "spheres-of-life", "options": "colour=red"})
    assert unknown.content == (
        "Bad option — there is no option 'colour'; the options are goal, pace, purist, decks, "
        "first_player, rounds, deck, trim, deal."
    )
    bad_deck = await h.slash(
        ann, "table create", {"game": "spheres-of-life", "deck": h.upload("d.toml", "cards = 3")}
    )
    for result in (unknown, bad_deck):
        assert "Extra inputs" not in (result.content or "") and "Input should" not in (result.content or "")


async def test_clicks_on_a_finished_or_abandoned_table_say_so(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, table_id = await started(h, maker, players=2)
    ann, bob = users
    act = button(message, "Act")
    panel = (await h.click(bob, message, act)).message
    assert panel is not None
    service = maker.bot.service
    while (record := await service.get(table_id)).status is TableStatus.PLAYING:
        seat = service.awaited(record)[0]
        await service.act(table_id, users[seat].id, service.choices(record, users[seat].id)[0].key)
    refreshed = await h.click(bob, panel, button(panel, "Refresh"))
    assert refreshed.content == f"The game at table {table_id} is over — the table message shows the result."
    assert (await h.click(ann, act)).content == refreshed.content, "the table message's old Act button"

    users, message, other = await started(h, maker, players=2)
    act = button(message, "Act")
    await h.slash(users[0], "table abandon", {"table": other})
    assert (await h.click(users[1], act)).content == f"Table {other} was abandoned."


async def test_a_click_by_someone_not_seated_says_so(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, _ = await started(h, maker)
    panel = (await h.click(users[0], message, button(message, "Act"))).message
    assert panel is not None
    stranger = h.create_user("eve")
    custom_id, value = select_options(panel)["Play"]
    for result in (
        await h.click(stranger, message, button(message, "Act")),
        await h.select(stranger, custom_id, [value]),  # ann's menu, as if eve could reach it
        await h.click(stranger, button(panel, "Refresh")),
    ):
        assert result.ephemeral and result.content == "You are not seated at this table."


async def test_a_double_click_keeps_the_confirmation_of_the_click_that_counted(
    h: DiscordHarness, maker: BotMaker
) -> None:
    users, message, table_id = await started(h, maker)
    ann, bob, _ = users
    panel = (await h.click(ann, message, button(message, "Act"))).message
    assert panel is not None
    opened = await choose(h, ann, panel, "Play")
    assert opened.message is not None
    await choose(h, ann, opened.message, next(iter(select_options(opened.message))))
    bob_panel = (await h.click(bob, message, button(message, "Act"))).message
    assert bob_panel is not None and "Cheer" in labels(bob_panel)
    # Both clicks carry the panel as Discord showed it before either was answered.
    as_clicked = SentMessage(
        copy.deepcopy(bob_panel.data), bob_panel.seq, bob_panel.interaction_id, bob_panel.visible_to
    )
    first = await h.click(bob, bob_panel, button(bob_panel, "Cheer"))
    second = await h.click(bob, as_clicked, button(as_clicked, "Cheer"))
    assert first.response_type == 7 and second.response_type == 6
    assert "bob cheers." in embed_text(h.messages[bob_panel.id]), "the confirmation stays on the panel"
    assert [m.content for m in second.followups] == [
        "You have already moved since this panel was drawn, so that click changed nothing."
    ]
    assert maker.bot.service.view(await maker.bot.service.get(table_id), None).cheers[1] == 1  # type: ignore[attr-defined]


async def test_slow_storage_is_answered_within_three_seconds(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, _ = await started(h, maker)
    redis = maker.bot.service.store.redis
    slow(redis, "hmget", 3.2)  # the table read stalls past Discord's 3 seconds
    clicked = await h.click(users[0], message, button(message, "Act"))
    assert clicked.deferred and clicked.response_type == 6
    [panel] = clicked.followups
    assert panel.ephemeral and "Your move" in embed_text(panel)
    slow(redis, "hmget", 3.2)
    hand = await h.slash(users[1], "hand")
    assert hand.deferred and hand.ephemeral and hand.message is not None
    assert "Hand:" in embed_text(hand.message)


async def test_slow_storage_suggests_nothing_rather_than_too_late(h: DiscordHarness, maker: BotMaker) -> None:
    users, _, _ = await started(h, maker)
    assert await h.autocomplete(users[0], "play", "action"), "in time, the moves are suggested"
    # The user's table list is read by a script: it stalls. An autocomplete cannot be deferred.
    slow(maker.bot.service.store.redis, "evalsha", 3.2)
    assert await h.autocomplete(users[0], "play", "action") == []


async def test_every_answer_arrives_after_a_deferral(
    h: DiscordHarness, maker: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answer, "DEFER_AFTER", 0.0)  # defer before every answer
    ann, bob = h.create_user("ann"), h.create_user("bob")
    nothing = await h.slash(ann, "table join")  # refused after reading the channel's tables
    assert nothing.deferred and nothing.ephemeral
    assert (nothing.content or "").startswith("There is no open table")
    broken = h.upload("x.toml", "name = ")
    fetch = maker.bot.http.get_from_cdn

    async def slow_cdn(url: str) -> bytes:  # the deck arrives after the deferral
        await asyncio.sleep(0.05)
        return await fetch(url)

    monkeypatch.setattr(maker.bot.http, "get_from_cdn", slow_cdn)
    refused = await h.slash(ann, "table create", {"game": "spheres-of-life", "deck": broken})
    assert refused.deferred and refused.message is not None and refused.message.deleted, "no public refusal"
    [told] = refused.followups
    assert told.ephemeral and told.content.startswith("That deck file is not valid TOML")
    created = await h.slash(ann, "table create", {"game": "high-card"})
    message = created.message
    assert created.deferred and message is not None and not message.ephemeral
    assert labels(message)[:4] == ["Join", "Leave", "Add bot", "Start"]
    joined = await h.click(bob, message, button(message, "Join"))
    assert joined.deferred and joined.followups[0].content.startswith("You have joined")
    await h.click(ann, message, button(message, "Start"))
    [panel] = (await h.click(ann, message, button(message, "Act"))).followups
    opened = await choose(h, ann, panel, "Play")
    assert opened.deferred and opened.message is not None and opened.message.id == panel.id
    option = next(iter(select_options(opened.message)))  # "Play 5"
    played = await choose(h, ann, opened.message, option)
    assert f"ann plays {option.removeprefix('Play ')}." in embed_text(h.messages[panel.id])
    cheer = await h.slash(bob, "play", {"action": "cheer"})
    assert cheer.deferred and cheer.ephemeral and "bob cheers." in embed_text(cheer.message)  # type: ignore[arg-type]
    assert not played.failed and not cheer.failed
