"""Through Discord: a table played across days, all of it together in one landed
game — the clocks, a pause, a vacation, reminders, undo with consent, a
substitute, /tables across two servers — and what a player sees of it between
their moves. Each part on its own: test_clocks.py, test_absence.py, test_undo.py."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from bot.service import clocks
from bot.service.clocks import DAY
from tests.e2e.async_play.days import ann_plays, reminders, sweep, sweep_to, tables_in_two_servers
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text
from tests.support.clock import Clock


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
