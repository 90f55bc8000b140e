"""A table's whole life through discord.py's real dispatch, on a real Redis,
with the test-only High Card game: create → join → start → private hands →
legal and illegal plays → stale click → restart → old buttons still work."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core import Choice
from storage.records import TableStatus
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import (
    BotMaker,
    button,
    choose,
    embed_text,
    labels,
    open_table,
    play_to_the_end,
    select_options,
)
from tests.support.minigame import HIGH_CARD


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD}


async def test_create_posts_a_public_table_with_a_log_thread(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, table_id = await open_table(h, maker)
    assert labels(message) == ["Join", "Leave", "Add bot", "Start", "Remove seat"]
    assert "High Card — table " + table_id in embed_text(message)
    assert h.requests_of("thread_create"), "a thread carries the table's log"
    record = await maker.bot.service.get(table_id)
    assert record.message_id == message.id and record.thread_id is not None
    assert all(f"<@{u.id}>" in embed_text(message) for u in users)  # edited in place as people joined


async def test_only_the_host_starts_and_each_player_sees_only_their_hand(
    h: DiscordHarness, maker: BotMaker
) -> None:
    users, message, table_id = await open_table(h, maker)
    refused = await h.click(users[1], message, button(message, "Start"))
    assert refused.ephemeral and refused.content == "Only the table's host can do that."
    assert (await maker.bot.service.get(table_id)).status is TableStatus.LOBBY
    await h.click(users[0], message, button(message, "Start"))
    assert labels(message) == ["My hand", "Act"]
    record = await maker.bot.service.get(table_id)
    hands = [maker.bot.service.view(record, u.id).hand for u in users]  # type: ignore[attr-defined]
    for user, hand in zip(users, hands, strict=True):
        shown = await h.click(user, message, button(message, "My hand"))
        assert shown.ephemeral and shown.message is not None
        assert f"Hand: {', '.join(map(str, hand))}" in embed_text(shown.message)
    for public in h.public_messages():
        assert "Hand:" not in embed_text(public), "no hand may appear in a public message"


async def test_play_refusals_stale_clicks_and_a_restart(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, table_id = await open_table(h, maker)
    ann, bob, _cid = users
    await h.click(ann, message, button(message, "Start"))
    panel = (await h.click(ann, message, button(message, "Act"))).message
    assert panel is not None and panel.ephemeral
    assert list(select_options(panel)) == ["Play"]
    opened = await choose(h, ann, panel, "Play")
    assert opened.message is not None
    card = next(iter(select_options(opened.message)))
    old_select, old_value = select_options(opened.message)[card]
    played = await choose(h, ann, opened.message, card)  # a legal play, from the ephemeral panel
    assert played.response_type == 7  # the panel is updated in place
    thread_lines = [m.content for m in h.public_messages() if m.channel_id != h.channel.id]
    assert card.startswith("Play ") and f"ann plays {card[5:]}." in thread_lines  # options name the move
    before = await maker.bot.service.get(table_id)
    illegal = await h.slash(bob, "play", {"action": "play:9"})
    assert illegal.ephemeral and illegal.content == "That move is not possible right now."
    assert (await maker.bot.service.get(table_id)).version == before.version
    stale = await h.select(ann, old_select, [old_value])  # the card menu as it was before the play
    assert stale.response_type == 6, "a second click leaves the panel showing the move that counted"
    assert [m.content for m in stale.followups] == [
        "You have already moved since this panel was drawn, so that click changed nothing."
    ]
    assert (await maker.bot.service.get(table_id)).version == before.version
    bob_panel = (await h.click(bob, message, button(message, "Act"))).message
    assert bob_panel is not None and labels(bob_panel)[:2] == ["Cheer", "Pass"]

    await h.restart()  # new bot, new Redis client, same Redis: the old buttons must still work
    cheered = await h.click(bob, bob_panel, button(bob_panel, "Cheer"))
    assert cheered.response_type == 7 and not cheered.failed
    assert maker.bot.service.view(await maker.bot.service.get(table_id), None).cheers[1] == 1  # type: ignore[attr-defined]
    assert any("bob whispers to you" in m.content for m in h.dms(ann)), "the whisper goes to ann by DM"
    assert not any("whispers" in m.content for m in h.public_messages())


async def test_closed_dms_fall_back_to_a_ping_without_the_secret(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, _ = await open_table(h, maker)
    ann, bob, _cid = users
    await h.click(ann, message, button(message, "Start"))
    panel = (await h.click(ann, message, button(message, "Act"))).message
    assert panel is not None
    opened = await choose(h, ann, panel, "Play")
    assert opened.message is not None
    await choose(h, ann, opened.message, next(iter(select_options(opened.message))))
    h.close_dms(ann)
    await h.slash(bob, "play", {"action": "cheer"})
    pings = [m.content for m in h.public_messages() if f"<@{ann.id}>" in m.content]
    assert any("could not DM you" in p for p in pings)
    assert not any("well played" in m.content for m in h.public_messages())


async def test_a_whole_game_by_slash_commands_ends_with_a_result(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, table_id = await open_table(h, maker, players=2)
    await h.click(users[0], message, button(message, "Start"))
    service = maker.bot.service
    for _ in range(20):
        record = await service.get(table_id)
        if record.status is not TableStatus.PLAYING:
            break
        seat = service.awaited(record)[0]
        user = users[seat]
        suggestions = await h.autocomplete(user, "play", "action")
        assert 1 <= len(suggestions) <= 25
        result = await h.slash(user, "play", {"action": suggestions[0]["value"]})
        assert result.ephemeral and not result.failed
    record = await service.get(table_id)
    assert record.status is TableStatus.FINISHED
    assert "Game over" in embed_text(message) and labels(message) == []


async def test_lobby_commands_and_moderator_abandon(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, table_id = await open_table(h, maker, players=2)
    listed = await h.slash(users[1], "table list")
    assert listed.ephemeral and table_id in (listed.content or "")
    games = await h.slash(users[1], "games")
    assert games.message is not None and "High Card" in embed_text(games.message)
    refused = await h.slash(users[1], "table abandon")
    assert refused.content == "Only the host or a moderator with Manage Server can abandon this table."
    mod = h.create_user("mod", manage_guild=True)
    done = await h.slash(mod, "table abandon", {"table": table_id})
    assert done.ephemeral and "abandoned" in (done.content or "")
    assert "abandoned" in embed_text(message) and labels(message) == []


async def test_bad_input_gets_a_short_answer(h: DiscordHarness, maker: BotMaker) -> None:
    ann = h.create_user("ann")
    unknown = await h.slash(ann, "table create", {"game": "chess"})
    assert unknown.ephemeral and "no game called" in (unknown.content or "")
    bad = await h.slash(ann, "table create", {"game": "high-card", "options": "rounds=12"})
    assert bad.ephemeral and "rounds" in (bad.content or "")
    nowhere = await h.slash(ann, "hand")
    assert nowhere.ephemeral and "not at any table" in (nowhere.content or "")


async def test_a_whole_game_by_clicks(h: DiscordHarness, maker: BotMaker) -> None:
    users, message, table_id = await open_table(h, maker, players=3)
    await h.click(users[0], message, button(message, "Start"))
    moves = await play_to_the_end(h, maker.bot.service, table_id, users, message, seed=5)
    assert moves >= 6 and "Game over" in embed_text(message)


async def test_join_by_command_finds_the_open_table_here(h: DiscordHarness, maker: BotMaker) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    nothing = await h.slash(bob, "table join")
    assert (
        nothing.ephemeral
        and nothing.content == "There is no open table here to join. Start one with /table create."
    )
    await h.slash(ann, "table create", {"game": "high-card"})
    joined = await h.slash(bob, "table join")
    assert joined.ephemeral and (joined.content or "").startswith("You have joined table")


async def test_dms_name_the_game_by_its_title_and_footers_hold_no_version(
    h: DiscordHarness, maker: BotMaker
) -> None:
    users, message, table_id = await open_table(h, maker)
    ann, bob, _cid = users
    await h.click(ann, message, button(message, "Start"))
    opened = await choose(h, ann, (await h.click(ann, message, button(message, "Act"))).message, "Play")
    assert opened.message is not None
    await choose(h, ann, opened.message, next(iter(select_options(opened.message))))
    bob_panel = (await h.click(bob, message, button(message, "Act"))).message
    assert bob_panel is not None
    await h.click(bob, bob_panel, button(bob_panel, "Cheer"))
    [whisper] = [m.content for m in h.dms(ann) if "whispers" in m.content]
    assert whisper.startswith(f"**Table {table_id}** (High Card):")
    footers = [e.get("footer", {}).get("text", "") for e in message.embeds]
    assert footers[0].startswith(f"Table {table_id}") and " · v" not in footers[0]
    assert bob_panel.embeds[0]["footer"]["text"] == f"Table {table_id} · only you can see this"


async def test_card_text_all_options_share_sits_in_the_placeholder(
    h: DiscordHarness, maker: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a verb whose every choice names one card, the card's text is said once, in the
    select's placeholder, and neither under the verb nor under the first of its options."""
    users, message, _ = await open_table(h, maker)
    ann = users[0]
    await h.click(ann, message, button(message, "Start"))
    noble = "Noble animal: 1, 2, 3 in hand score 1, 4, 9."
    gifts = [
        Choice(
            key=f"gift:{s}",
            label=f"Give Fox to <seat:{s}>",
            steps=["Forced Gift", f"<seat:{s}>"],
            action="pass",
            detail=noble,
        )
        for s in (1, 2)
    ]
    other = Choice(key="steal", label="Steal", steps=["Steal"], action="pass")
    monkeypatch.setattr(maker.bot.service, "choices", lambda record, user_id: [*gifts, other])
    panel = (await h.click(ann, message, button(message, "Act"))).message
    assert panel is not None
    [top] = [i for r in panel.components for i in r["components"] if i.get("options")]
    assert all("description" not in o or noble not in o["description"] for o in top["options"])
    opened = await choose(h, ann, panel, "Forced Gift")
    assert opened.message is not None
    [select] = [i for r in opened.message.components for i in r["components"] if i.get("options")]
    assert select["placeholder"] == f"Then choose… {noble}"
    assert [o.get("description") for o in select["options"]] == [None, None]
