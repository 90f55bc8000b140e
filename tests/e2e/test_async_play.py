"""Through Discord: a table played across days — each seat's clock shown as a
Discord timestamp, reminders at half time and a tenth left (once each), quiet
hours, the host's pause, vacation, substitutes, undo with consent, /tables across
two servers, /settings me — each on its own, and all together in one landed game."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from bot import clocks
from bot.clocks import DAY
from engines.registry import GAMES
from storage.user_settings import settings_key
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD


@pytest.fixture
def games() -> Mapping[str, Any]:
    return {**GAMES, "high-card": HIGH_CARD}


def reminders(h: DiscordHarness, user: Any) -> list[str]:
    return [m.content for m in h.dms(user) if "⏰" in (m.content or "")]


async def sweep(h: DiscordHarness, maker: BotMaker, clock: Clock, days: float) -> None:
    clock.now += days * DAY
    await maker.bot.sweep_once()
    await maker.bot.drain_once()
    await h.settle()


async def test_reminders_come_at_half_time_and_a_tenth_left_and_only_once(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "3d"})
    ann, bob = table.users
    record = await maker.bot.service.get(table.table_id)
    due = record.clocks.due[0]
    assert due == clock.now + 3 * DAY
    assert f"<t:{int(due)}:R>" in embed_text(h.messages[table.message.id]), "ann's clock on the table"

    await sweep(h, maker, clock, 1.4)
    assert reminders(h, ann) == []
    await sweep(h, maker, clock, 0.2)  # past half time
    assert len(reminders(h, ann)) == 1 and f"<t:{int(due)}:R>" in reminders(h, ann)[0]
    await sweep(h, maker, clock, 0.1)
    await h.restart()  # a new process, the same Redis
    await sweep(h, maker, clock, 0.1)
    assert len(reminders(h, ann)) == 1, "half time is reminded once, across a restart"
    await sweep(h, maker, clock, 1.0)  # 2.8 days gone: a tenth is left
    assert len(reminders(h, ann)) == 2
    await sweep(h, maker, clock, 0.1)
    assert len(reminders(h, ann)) == 2
    assert reminders(h, bob) == [], "only the awaited seat is reminded"
    await sweep(h, maker, clock, 0.2)
    assert any("ann ran out of time" in t for t in public_texts(h))
    assert len(reminders(h, ann)) == 2


async def test_a_paused_table_stops_its_clocks_and_says_so(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "2d"})
    ann, bob = table.users
    due = (await maker.bot.service.get(table.table_id)).clocks.due[0]
    refused = await h.slash(bob, "clock pause")
    assert refused.ephemeral and "Only the host" in (refused.content or "")
    paused = await h.slash(ann, "clock pause")
    assert paused.ephemeral and "paused" in (paused.content or "")
    await h.settle()
    assert "Paused by the host" in embed_text(h.messages[table.message.id])
    assert any("The host paused the table" in t for t in public_texts(h))
    move = await h.slash(ann, "play", {"action": "Play 1"})
    assert move.ephemeral and "paused" in (move.content or "")

    await sweep(h, maker, clock, 5)  # far past the deadline: nothing happens while paused
    assert not any("ran out of time" in t for t in public_texts(h))
    assert reminders(h, ann) == []

    await h.slash(ann, "clock resume")
    record = await maker.bot.service.get(table.table_id)
    assert record.clocks.due[0] == due + 5 * DAY, "the clock goes on where it stopped"
    assert record.deadline is not None and record.deadline < record.clocks.due[0]
    again = await h.slash(ann, "clock resume")
    assert "not paused" in (again.content or "")


async def tables_in_two_servers(
    h: DiscordHarness, maker: BotMaker, here: tuple[Any, Any], there: tuple[Any, Any], pace: str
) -> list[tuple[Any, Any]]:
    """A started High Card table in the harness's server and one in another, each
    ``(host, guest)``; returns each table's record and message."""
    other = h.create_guild("Other")
    for user in {*here, *there}:
        h.add_member(other, user)
    await h.settle()
    tables = []
    for (host, guest), guild in ((here, h.guild), (there, other)):
        created = await h.slash(host, "table create", {"game": "high-card", "pace": pace}, guild=guild)
        message = created.message
        assert message is not None
        await h.click(guest, message, button(message, "Join"), channel=guild.channels[0])
        await h.click(host, message, button(message, "Start"), channel=guild.channels[0])
        [record] = await maker.bot.service.store.in_guild(guild.id)
        tables.append((record, message))
    return tables


async def test_tables_lists_my_tables_across_two_servers_my_move_first(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    ids = await tables_in_two_servers(h, maker, (bob, ann), (ann, bob), "relaxed")
    listed = await h.slash(ann, "tables")
    assert listed.ephemeral
    text = embed_text(listed.message) if listed.message else ""
    first, second = (r.id for r, _ in ids)
    # bob hosts the first table, so bob moves first there; ann moves first at hers.
    assert text.index(second) < text.index(first), text
    assert "your move" in text.split("\n")[1]
    for record, message in ids:
        assert f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/{message.id}" in text
    assert "Your tables — 2, your move at 1" in text
    nobody = await h.slash(h.create_user("cid"), "tables")
    assert "not at any table" in (nobody.content or "")


async def test_a_vacation_stretches_my_clocks_is_shown_and_ends_when_i_act(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "2d"})
    ann, _ = table.users
    due = (await maker.bot.service.get(table.table_id)).clocks.due[0]
    away = await h.slash(ann, "vacation", {"days": 3})
    assert away.ephemeral and "1 tables" in (away.content or "")
    await h.settle()
    until = int(clock.now + 3 * DAY)
    assert f"on vacation until <t:{until}:f>" in embed_text(h.messages[table.message.id])
    record = await maker.bot.service.get(table.table_id)
    assert record.clocks.due[0] == due + 3 * DAY
    await sweep(h, maker, clock, 2.5)  # past the old deadline, and its half time too
    assert not any("ran out of time" in t for t in public_texts(h))
    too_much = await h.slash(ann, "vacation", {"days": 12})
    assert "days of vacation left" in (too_much.content or "")
    await ann_plays(h, maker, table.table_id, ann)
    await h.settle()
    assert any("ann is back from vacation." in t for t in public_texts(h))
    assert "on vacation" not in embed_text(h.messages[table.message.id])


async def test_repeated_timeouts_hand_the_seat_to_a_bot_until_the_player_comes_back(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 3, {"pace": "async", "bot_after": 2})
    _, bob, cid = table.users
    for _ in range(6):
        await sweep(h, maker, clock, 1.01)
        if any("times in a row" in t for t in public_texts(h)):
            break
    told = [t for t in public_texts(h) if "times in a row" in t]
    assert told and f"/clock back table:{table.table_id}" in told[0]
    record = await maker.bot.service.get(table.table_id)
    gone = next(s for s in record.seats if s.away is not None)
    who = next(u for u in table.users if u.id == gone.away)
    told_by_dm = [m.content for m in h.dms(who) if "ran out of time" in m.content]
    assert told_by_dm and f"/clock back table:{table.table_id}" in told_by_dm[0], "the player is told how"
    wrong = await h.slash(cid if who is not cid else bob, "clock back", {"table": table.table_id})
    assert "No seat at this table is kept for you" in (wrong.content or "")
    back = await h.slash(who, "clock back", {"table": table.table_id})
    assert "your seat is yours again" in (back.content or "")
    record = await maker.bot.service.get(table.table_id)
    assert who.id in record.user_ids


async def test_a_substitute_takes_over_a_bots_seat_offered_by_the_host(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 3, {"pace": "async"})
    ann, bob, cid = table.users
    await h.slash(bob, "table leave")
    dee = h.create_user("dee")
    refused = await h.slash(cid, "substitute offer", {"seat": 2, "member": dee})
    assert refused.ephemeral and "Only the host" in (refused.content or "")
    bad = await h.slash(ann, "substitute offer", {"seat": 3, "member": dee})
    assert "can be offered" in (bad.content or "")
    early = await h.slash(dee, "substitute take", {"table": table.table_id})
    assert "No seat at this table is offered to you" in (early.content or "")
    offered = await h.slash(ann, "substitute offer", {"seat": 2, "member": dee})
    assert f"/substitute take table:{table.table_id}" in (offered.content or "")
    taken = await h.slash(dee, "substitute take", {"table": table.table_id})
    assert "is yours" in (taken.content or "")
    await h.settle()
    record = await maker.bot.service.get(table.table_id)
    assert record.seats[1].user_id == dee.id and record.offers == {}
    assert any("dee takes over bob (bot)'s seat" in t for t in public_texts(h))
    hand = await h.slash(dee, "hand")
    assert hand.ephemeral and hand.message is not None


async def test_a_player_whose_seat_a_substitute_takes_is_told(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 3, {"pace": "async", "bot_after": 1})
    for _ in range(6):
        await sweep(h, maker, clock, 1.01)
        if any("times in a row" in t for t in public_texts(h)):
            break
    record = await maker.bot.service.get(table.table_id)
    seat = next(i for i, s in enumerate(record.seats) if s.away is not None)
    who = next(u for u in table.users if u.id == record.seats[seat].away)
    host = next(u for u in table.users if u.id == record.host_id)
    dee = h.create_user("dee")
    await h.slash(host, "substitute offer", {"seat": seat + 1, "member": dee})
    await h.slash(dee, "substitute take", {"table": table.table_id})
    await h.settle()
    told = [m.content for m in h.dms(who) if "dee has taken over your seat" in m.content]
    assert told and table.table_id in told[0]
    assert not any("has taken over your seat" in m.content for m in h.dms(dee))


async def ann_plays(h: DiscordHarness, maker: BotMaker, table_id: str, ann: Any) -> int:
    record = await maker.bot.service.get(table_id)
    card = maker.bot.service.view(record, ann.id).hand[0]  # type: ignore[attr-defined]
    await h.slash(ann, "play", {"action": f"play:{card}"})
    return int(card)


async def test_an_undo_everyone_accepts_takes_the_move_back_and_logs_it(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 3, {"pace": "async"})
    ann, bob, cid = table.users
    before = await maker.bot.service.get(table.table_id)
    card = await ann_plays(h, maker, table.table_id, ann)
    nobody = await h.slash(bob, "undo")
    assert "cannot be taken back" in (nobody.content or "")
    asked = await h.slash(ann, "undo")
    request = asked.message
    assert request is not None and not asked.ephemeral
    assert f"<@{bob.id}>" in (request.content or "") and f"<@{cid.id}>" in (request.content or "")
    twice = await h.slash(ann, "undo")
    assert "already asked" in (twice.content or "")
    outsider = await h.click(ann, request, button(request, "Accept"))
    assert "Only the other players" in (outsider.content or "")
    first = await h.click(bob, request, button(request, "Accept"))
    assert "waiting for the others" in (first.content or "")
    done = await h.click(cid, request, button(request, "Accept"))
    assert "taken back" in (done.content or "")
    record = await maker.bot.service.get(table.table_id)
    assert record.state == before.state, "the game is exactly where it was before the move"
    assert card in maker.bot.service.view(record, ann.id).hand  # type: ignore[attr-defined]
    assert maker.bot.service.awaited(record) == [0] and 0 in record.clocks.due
    log = await maker.bot.service.store.log(table.table_id)
    undone = [e for e in log if e.kind == "undo"]
    assert len(undone) == 1 and "taken back, with everyone's consent" in str(undone[0].events)
    late = await h.click(bob, request, button(request, "Decline"))
    assert "no longer open" in (late.content or "")


async def test_an_undo_is_refused_by_one_decline_or_by_silence(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "async"})
    ann, bob = table.users
    await ann_plays(h, maker, table.table_id, ann)
    moved = await maker.bot.service.get(table.table_id)
    request = (await h.slash(ann, "undo")).message
    assert request is not None
    declined = await h.click(bob, request, button(request, "Decline"))
    assert "move stands" in (declined.content or "")
    await h.settle()
    assert any("bob declines: ann's move stands." in t for t in public_texts(h))
    assert (await maker.bot.service.get(table.table_id)).state == moved.state
    again = await h.slash(ann, "undo")
    assert "cannot be taken back" in (again.content or ""), "a refused move stays refused"

    # Bob's turn to answer the window; then silence refuses a request too.
    await h.slash(bob, "play", {"action": "pass"})
    record = await maker.bot.service.get(table.table_id)
    mover = next(u for u in table.users if record.seat_of(u.id) == maker.bot.service.awaited(record)[0])
    await ann_plays(h, maker, table.table_id, mover)
    asked = await h.slash(mover, "undo")
    assert asked.message is not None
    await sweep(h, maker, clock, 0.26)  # a quarter of a day's move time
    assert any("refused: no one answered in time" in t for t in public_texts(h))
    after = await maker.bot.service.get(table.table_id)
    assert after.undo is None and not any(
        e.kind == "undo" for e in await maker.bot.service.store.log(after.id)
    )


async def test_a_landed_game_runs_to_its_end_over_weeks_reminded_once_per_deadline(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    """Ann plays (a random legal move, after her half-time reminder); Bob never
    does, so every one of his deadlines is reminded twice and then times out.
    The sweeper runs every 0.1 day."""
    table = await start_table(h, maker, "spheres-of-life", 2, {"pace": "2d"})
    ann, bob = table.users
    service = maker.bot.service
    await h.slash(ann, "clock pause")
    await sweep(h, maker, clock, 10)  # ten paused days cost no one anything
    assert not any("ran out of time" in t for t in public_texts(h))
    await h.slash(ann, "clock resume")
    await h.slash(bob, "vacation", {"days": 2})
    start, rng = clock.now, random.Random(7)
    for _ in range(2000):
        record = await service.get(table.table_id)
        if not record.status.active:
            break
        seat = record.seat_of(ann.id)
        if record.clocks.reminded.get(seat, 0) and (choices := service.choices(record, ann.id)):
            key = rng.choice(choices).key  # ann moves once reminded at half time
            await h.slash(ann, "play", {"action": f"{key}@{record.version}"})
        await sweep(h, maker, clock, 0.1)
    assert record.status.value == "finished"
    assert any("Game over" in t for t in public_texts(h))
    assert clock.now - start > 14 * DAY
    timeouts = [line for t in public_texts(h) for line in t.splitlines() if "ran out of time" in line]
    assert sum(line.startswith("bob ran out") for line in timeouts) > 5
    for user in (ann, bob):
        sent = Counter(
            re.findall(
                r"(half|10%) of your time is left; it runs out <t:(\d+):R>", "\n".join(reminders(h, user))
            )
        )
        assert sent and set(sent.values()) == {1}, f"{user.name}: a reminder sent twice"
    # Bob never moves: each of his deadlines was reminded at half time and with a tenth left.
    assert set(Counter(due for _, due in sent).values()) == {2}


async def sweep_to(h: DiscordHarness, maker: BotMaker, clock: Clock, at: float) -> None:
    await sweep(h, maker, clock, (at - clock.now) / DAY)


async def test_quiet_hours_bring_a_reminder_forward_and_settings_choose_the_dms(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "3d"})
    ann, bob = table.users
    wrong = await h.slash(ann, "settings me", {"timezone": "Mars/Olympus"})
    assert "time zone" in (wrong.content or "")
    saved = await h.slash(ann, "settings me", {"timezone": "UTC", "quiet_from": 0, "quiet_to": 6})
    assert "quiet hours 0:00–6:00 UTC" in (saved.content or "")
    assert "at the 1 table you sit at" in (saved.content or "")
    record = await maker.bot.service.get(table.table_id)
    half = record.clocks.started[0] + 1.5 * DAY  # 01:46 UTC: in ann's quiet hours
    midnight = half - half % DAY
    await sweep_to(h, maker, clock, midnight - 120)
    assert reminders(h, ann) == []
    await sweep_to(h, maker, clock, midnight - 30)
    assert len(reminders(h, ann)) == 1, "the reminder comes before the quiet hours, not after"
    await sweep_to(h, maker, clock, half + 60)
    assert len(reminders(h, ann)) == 1

    await h.slash(bob, "settings me", {"notify": "turn"})
    await h.slash(ann, "settings me", {"notify": "nothing"})
    await ann_plays(h, maker, table.table_id, ann)
    await h.settle()
    assert any("Your move at table" in (m.content or "") for m in h.dms(bob)), (
        "bob asked for a DM on his turn"
    )
    await sweep(h, maker, clock, 1.6)
    await sweep(h, maker, clock, 1.3)
    assert len(reminders(h, bob)) == 2
    assert not any("Your move at table" in (m.content or "") for m in h.dms(ann))


async def test_my_view_starts_with_what_happened_since_my_last_move(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "async"})
    ann, bob = table.users
    fresh = await h.slash(ann, "hand")
    assert fresh.message is not None and "Since your last move" not in embed_text(fresh.message)
    await ann_plays(h, maker, table.table_id, ann)
    await h.slash(bob, "play", {"action": "cheer"})
    await sweep(h, maker, clock, 1.01)  # bob's turn runs out: the table plays for him
    back = await h.slash(ann, "hand")
    assert back.message is not None
    text = embed_text(back.message)
    assert "Since your last move:" in text
    assert "bob cheers." in text and "bob whispers to you: well played." in text
    assert "bob ran out of time" in text
    mine = await h.slash(bob, "hand")
    assert mine.message is not None and "whispers" not in embed_text(mine.message)
    assert "⏰" not in text, "reminders are not news"


async def test_my_move_at_one_table_ends_my_vacation_at_every_table(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    tables = await tables_in_two_servers(h, maker, (ann, bob), (ann, bob), "2d")
    (first, _), (second, shown) = tables
    await h.slash(ann, "vacation", {"days": 3})
    assert (await maker.bot.service.get(second.id)).clocks.due[0] == second.clocks.due[0] + 3 * DAY
    await sweep(h, maker, clock, 0.5)
    await ann_plays(h, maker, first.id, ann)
    await h.settle()
    after = await maker.bot.service.get(second.id)
    # The half day on vacation did not count; the rest of the vacation is off this clock too.
    assert after.clocks.due[0] == second.clocks.due[0] + 0.5 * DAY
    assert after.clocks.vacation == {}
    assert "on vacation" not in embed_text(h.messages[shown.id])
    assert sum("ann is back from vacation." in t for t in public_texts(h)) >= 2


async def test_tables_made_or_joined_later_follow_my_settings(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    none = await h.slash(ann, "settings me", {"quiet_from": 22, "quiet_to": 7, "timezone": "Europe/Paris"})
    assert "the tables you join will follow them" in (none.content or "")
    await h.slash(bob, "settings me", {"notify": "nothing"})
    created = await h.slash(ann, "table create", {"game": "high-card", "pace": "2d"})
    assert created.message is not None
    await h.click(bob, created.message, button(created.message, "Join"))
    [record] = await maker.bot.service.store.in_channel(h.channel.id)
    assert record.clocks.prefs[ann.id]["zone"] == "Europe/Paris"
    assert record.clocks.prefs[bob.id]["notify"] == "nothing"


SILENT = 1 << 12  # Discord's SUPPRESS_NOTIFICATIONS: the message makes no sound


def thread_mentions(h: DiscordHarness, user: Any, *, silent: bool) -> list[str]:
    """Messages sent in channels or threads that mention ``user``, made silent or not."""
    return [
        r.json.get("content") or ""
        for r in h.requests
        if r.kind == "message_create" and not r.is_dm and r.error is None
        and f"<@{user.id}>" in (r.json.get("content") or "") and bool(r.flags & SILENT) is silent
    ]


async def test_a_turn_that_starts_in_quiet_hours_pings_and_reminds_without_a_sound_and_no_dm(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "relaxed"})  # an hour a move
    ann, bob = table.users
    hour = int(clock.now % DAY // 3600)
    quiet = {"timezone": "UTC", "quiet_from": hour, "quiet_to": (hour + 3) % 24}
    await h.slash(bob, "settings me", {"notify": "turn", **quiet})
    await ann_plays(h, maker, table.table_id, ann)
    await h.settle()
    assert not any("Your move at table" in (m.content or "") for m in h.dms(bob)), "no DM in quiet hours"
    [ping] = thread_mentions(h, bob, silent=True)
    assert "your move at table" in ping and thread_mentions(h, bob, silent=False) == []

    await sweep(h, maker, clock, 0.45 / 24)
    assert len(thread_mentions(h, bob, silent=True)) == 1, "not reminded at the turn's start"
    await sweep(h, maker, clock, 0.1 / 24)  # half his hour gone, still in his quiet hours
    assert reminders(h, bob) == [], "no DM"
    told = thread_mentions(h, bob, silent=True)
    assert len(told) == 2 and "⏰" in told[1] and "half of your time is left" in told[1]
    await sweep(h, maker, clock, 0.1 / 24)
    assert len(thread_mentions(h, bob, silent=True)) == 2, "once"
    await sweep(h, maker, clock, 0.3 / 24)
    assert len(thread_mentions(h, bob, silent=True)) == 3 and reminders(h, bob) == []
    assert thread_mentions(h, bob, silent=False) == []


async def test_a_reminder_to_closed_dms_is_said_in_the_thread(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    table = await start_table(h, maker, "high-card", 2, {"pace": "2d"})
    ann, _ = table.users
    h.close_dms(ann)
    await sweep(h, maker, clock, 1.01)
    [said] = [t for t in thread_mentions(h, ann, silent=False) if "⏰" in t]
    assert "half of your time is left" in said and "only you can see" not in said


async def test_settings_me_with_no_options_shows_my_settings_and_bad_ones_change_nothing(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    ann = h.create_user("ann")
    shown = await h.slash(ann, "settings me")
    assert shown.ephemeral and "Your settings: reminders only, no quiet hours" in (shown.content or "")
    assert await maker.bot.service.store.redis.get(settings_key(ann.id)) is None, "showing saves nothing"
    assert {"name": "Europe/Paris", "value": "Europe/Paris"} in await h.autocomplete(
        ann, "settings me", "timezone", {"timezone": "paris"}
    )
    half = await h.slash(ann, "settings me", {"quiet_from": 22})
    assert "both ends" in (half.content or "")
    assert await maker.bot.service.store.redis.get(settings_key(ann.id)) is None
    await h.slash(ann, "settings me", {"quiet_from": 22, "quiet_to": 7, "timezone": "Europe/Paris"})
    later = await h.slash(ann, "settings me", {"quiet_to": 6})
    assert "quiet hours 22:00–6:00 Europe/Paris" in (later.content or ""), "one end moves alone"
    off = await h.slash(ann, "settings me", {"quiet_from": 6})
    assert "no quiet hours" in (off.content or ""), "the same hour twice: no quiet hours"
    shown = await h.slash(ann, "settings me")
    assert "Your settings: reminders only, no quiet hours" in (shown.content or "")


async def test_a_landed_game_over_days_with_every_part_of_asynchronous_play(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    """One landed game through Discord over simulated days, with all of it at the same table: a
    pause, a vacation, cid's reminders at their very moments and once each, an undo accepted and
    one refused, a substitute, and /tables across two servers. Ann, Bob and later Dee move as soon
    as the game waits for them; cid never does, and the sweeper is run at each of his wake-ups."""
    table = await start_table(h, maker, "spheres-of-life", 3, {"pace": "2d"})
    ann, bob, cid = table.users
    service = maker.bot.service
    other = h.create_guild("Other")
    for user in (ann, bob):
        h.add_member(other, user)
    await h.settle()
    created = await h.slash(ann, "table create", {"game": "spheres-of-life", "pace": "2d"}, guild=other)
    assert created.message is not None
    await h.click(bob, created.message, button(created.message, "Join"), channel=other.channels[0])
    await h.click(ann, created.message, button(created.message, "Start"), channel=other.channels[0])
    [elsewhere] = await service.store.in_guild(other.id)
    here = await service.get(table.table_id)

    def link(record: Any, message: Any) -> str:
        return f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/{message.id}"

    mine = embed_text((await h.slash(ann, "tables")).message)
    assert "Your tables — 2" in mine
    assert link(here, table.message) in mine and link(elsewhere, created.message) in mine

    await h.slash(ann, "clock pause")
    await h.slash(ann, "clock pause", guild=other)
    await sweep(h, maker, clock, 5)
    assert not any("ran out of time" in t for t in public_texts(h)) and reminders(h, cid) == []
    await h.slash(ann, "clock resume")
    await h.slash(cid, "vacation", {"days": 2})
    await h.settle()
    assert f"on vacation until <t:{int(clock.now + 2 * DAY)}:f>" in embed_text(h.messages[table.message.id])

    players, rng = {ann.id: ann, bob.id: bob}, random.Random(5)
    undo, substituted, reminded_at, ran_out = "accept", False, 0, 0
    for _ in range(1500):
        record = await service.get(table.table_id)
        if not record.status.active:
            break
        if undo == "done" and not substituted:
            await h.slash(bob, "table leave")  # a bot keeps bob's seat, then Dee takes it
            dee = h.create_user("dee")
            seat = record.seat_of(bob.id)
            assert seat is not None
            await h.slash(ann, "substitute offer", {"seat": seat + 1, "member": dee})
            taken = await h.slash(dee, "substitute take", {"table": table.table_id})
            assert "is yours" in (taken.content or "")
            players[dee.id], substituted = dee, True
            await h.settle()
            assert any("dee takes over bob (bot)'s seat" in t for t in public_texts(h))
            assert link(here, table.message) in embed_text((await h.slash(dee, "tables")).message)
            assert "Your tables — 1" in embed_text((await h.slash(bob, "tables")).message)
            continue
        awaited = [record.seats[s].user_id for s in service.awaited(record)]
        mover = next((players[u] for u in awaited if u in players), None)
        if mover is not None and (choices := service.choices(record, mover.id)):
            await h.slash(mover, "play", {"action": f"{rng.choice(choices).key}@{record.version}"})
            if mover is ann and undo != "done":
                asked = await h.slash(ann, "undo")
                if asked.message is None or asked.ephemeral:
                    continue  # that move drew a card or showed someone something: it stands
                voters = [u for u in (bob, cid) if u.id in (await service.get(table.table_id)).user_ids]
                if undo == "accept":
                    for voter in voters:
                        await h.click(voter, asked.message, button(asked.message, "Accept"))
                    assert (await service.get(table.table_id)).state == record.state, "taken back"
                    undo = "refuse"
                else:
                    await h.click(voters[0], asked.message, button(asked.message, "Decline"))
                    assert (await service.get(table.table_id)).state != record.state, "the move stands"
                    undo = "done"
            continue
        # Only cid (or a bot) to move: go to the table's next wake-up, and a minute before it.
        seat = record.seat_of(cid.id)
        wake = max(clock.now, record.deadline or clock.now)
        due = record.clocks.due.get(seat) if seat is not None else None
        remind_at = clocks.reminder_at(record, seat) if seat is not None else None
        told, timed_out = len(reminders(h, cid)), sum("cid ran out of time" in t for t in public_texts(h))
        if wake - 60 > clock.now:
            await sweep_to(h, maker, clock, wake - 60)
            assert len(reminders(h, cid)) == told, "no reminder before its time"
        await sweep_to(h, maker, clock, wake)
        if remind_at is not None and wake == remind_at and due is not None and remind_at < due:
            assert len(reminders(h, cid)) == told + 1, "the reminder comes at its moment"
            reminded_at += 1
        elif wake == due:
            assert len(reminders(h, cid)) == told, "none once the time is up"
            assert sum("cid ran out of time" in t for t in public_texts(h)) == timed_out + 1
            ran_out += 1
    assert record.status.value == "finished" and any("Game over" in t for t in public_texts(h))
    assert undo == "done" and substituted and reminded_at > 4 and ran_out > 2, (reminded_at, ran_out)
    log = await service.store.log(table.table_id)
    assert len([e for e in log if e.kind == "undo"]) == 1, "one undo accepted, one refused"
    shares = r"(half|10%) of your time is left; it runs out <t:(\d+):R>"
    sent = Counter(re.findall(shares, "\n".join(reminders(h, cid))))
    assert set(sent.values()) == {1}, "no reminder twice"
