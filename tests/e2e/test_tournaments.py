"""Tournaments through Discord: registration by buttons, rounds seated as ordinary
tables in the channel, results from finished tables, standings, ratings, a drop,
a deadline decided by an organiser, and a restart in the middle of seating a round."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.service.tables import Player
from engines.registry import GAMES
from storage.records import TableStatus
from storage.tournaments import Phase, Tournament
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text, labels, play_to_the_end
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD, "scales-of-influence": GAMES["scales-of-influence"]}


async def open_tournament(h: DiscordHarness, players: int, **options: Any) -> tuple[Any, list[Any], Any]:
    """An organiser opens a tournament; ``players`` join by the Join button."""
    organiser = h.create_user("org", manage_guild=True)
    created = await h.slash(organiser, "tournament create", {"name": "Cup", "game": "high-card", **options})
    message = created.message
    assert message is not None and not created.ephemeral, [created.content]
    users = [h.create_user(f"p{i}") for i in range(players)]
    for user in users:
        joined = await h.click(user, message, button(message, "Join"))
        assert joined.ephemeral and joined.content == "You are registered."
    assert all(f"<@{u.id}>" in embed_text(message) for u in users), "the live list shows everyone"
    return organiser, users, message


async def current(maker: BotMaker) -> Tournament:
    [tournament] = await maker.bot.desk.tournaments.store.in_guild(next(iter(maker.bot.guilds)).id)
    return tournament


async def finish_by_service(h: DiscordHarness, maker: BotMaker, table_id: str) -> None:
    """End a table by default moves through TableService; its outbox then tells the tournament."""
    bot = maker.bot
    if (await bot.service.get(table_id)).status is TableStatus.PLAYING:
        await bot.service.play_out(table_id)
    await bot.announcer.deliver(table_id)
    await h.settle()


async def finish_round(h: DiscordHarness, maker: BotMaker) -> Tournament:
    tournament = await current(maker)
    assert tournament.current is not None
    for table in tournament.current.tables:
        assert table.table_id is not None
        await finish_by_service(h, maker, table.table_id)
    await maker.bot.desk.wait()
    await h.settle()
    return await current(maker)


async def test_eight_player_elimination_played_by_clicks(h: DiscordHarness, maker: BotMaker) -> None:
    organiser, users, registration = await open_tournament(h, 8, format="elimination", table_size=2)
    assert labels(registration) == ["Join", "Leave"]
    footer = registration.embeds[0]["footer"]["text"]
    assert footer.startswith("Tournament ") and " · v" not in footer, "no internal version on show"
    refused = await h.slash(users[0], "tournament start")
    assert refused.ephemeral and "Only organisers" in (refused.content or "")
    await h.slash(organiser, "tournament start")
    assert labels(registration) == [], "registration closes at the start"
    by_id = {u.id: u for u in users}
    service = maker.bot.service
    sizes = []
    for seed in range(3):
        tournament = await current(maker)
        assert tournament.current is not None
        sizes.append(len(tournament.current.tables))
        for table in tournament.current.tables:
            assert table.table_id is not None
            record = await service.get(table.table_id)
            assert record.channel_id == h.channel.id and record.thread_id is not None
            message = next(m for m in h.public_messages() if m.id == record.message_id)
            seated = [by_id[u] for u in table.players]
            assert any(all(f"<@{u.id}>" in m.content for u in seated) for m in h.public_messages()), "pinged"
            await play_to_the_end(h, service, table.table_id, seated, message, seed)
        await maker.bot.desk.wait()
        await h.settle()
    tournament = await current(maker)
    assert sizes == [4, 2, 1] and tournament.phase is Phase.FINISHED
    final = tournament.rounds[-1].tables[0].score
    assert final is not None
    assert any("Final standings" in embed_text(m) for m in h.public_messages())
    over = [m.content for m in h.public_messages() if "is over" in m.content]
    for request in h.requests_of("message_create"):
        allowed = (request.json or {}).get("allowed_mentions") or {}
        assert "everyone" not in allowed.get("parse", []) and "roles" not in allowed.get("parse", [])
    winners = final.ranking[0]  # High Card may end in a shared first place

    assert len(over) == 1 and any(f"1. <@{w}>" in over[0] for w in winners), (over, final)


async def test_nine_player_swiss_of_a_three_to_seven_player_game(h: DiscordHarness, maker: BotMaker) -> None:
    organiser, users, _ = await open_tournament(
        h, 9, format="swiss", game="scales-of-influence", table_size=5, rounds=3, rated=True
    )
    await h.slash(organiser, "tournament start")
    for number in (1, 2, 3):
        tournament = await current(maker)
        assert tournament.current is not None and tournament.current.number == number
        assert sorted(len(t.players) for t in tournament.current.tables) == [4, 5]
        tournament = await finish_round(h, maker)
    assert tournament.phase is Phase.FINISHED
    board = await h.slash(users[0], "leaderboard", {"game": "scales-of-influence"})
    text = embed_text(board.message) if board.message else ""
    assert text.count("3 games") == 9 and "(provisional)" in text
    mine = await h.slash(users[0], "rating", {"game": "scales-of-influence"})
    assert mine.ephemeral and "3 games" in (mine.content or "")
    exported = await h.slash(users[0], "tournament export", {"kind": "csv"})
    assert exported.ephemeral and exported.response is not None, exported.content
    [file] = exported.response.files
    rows = file.data.decode().splitlines()
    assert file.filename.endswith(".csv") and rows[0].startswith("place,user_id,name") and len(rows) == 10
    shown = await h.slash(users[0], "tournament standings")
    assert shown.ephemeral and "Final standings" in embed_text(shown.message) if shown.message else False
    rebuilt = await h.slash(organiser, "ratings-rebuild", {})
    assert rebuilt.content == "Ratings rebuilt from 6 results."


async def test_round_robin_with_a_drop(h: DiscordHarness, maker: BotMaker) -> None:
    organiser, users, _ = await open_tournament(h, 4, format="round-robin", table_size=2)
    await h.slash(organiser, "tournament start")
    quitter = users[0]
    dropped = await h.slash(quitter, "tournament drop")
    assert dropped.ephemeral and "dropped out" in (dropped.content or "")
    tournament = await current(maker)
    assert tournament.current is not None
    [table] = [t for t in tournament.current.tables if quitter.id in t.players]
    assert table.table_id is not None
    record = await maker.bot.service.get(table.table_id)
    assert quitter.id not in record.user_ids, "a bot finishes the dropped player's seat"
    while tournament.phase is Phase.RUNNING:
        tournament = await finish_round(h, maker)
    assert len(tournament.rounds) == 3
    assert all(quitter.id not in t.players for r in tournament.rounds[1:] for t in r.tables)
    met = {frozenset(t.players) for r in tournament.rounds for t in r.tables}
    others = [u.id for u in users[1:]]
    assert all(frozenset((a, b)) in met for a in others for b in others if a < b), "everyone met everyone"


async def test_a_round_closed_by_an_organiser_at_its_deadline(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    organiser, users, _ = await open_tournament(h, 4, format="swiss", table_size=2, rounds=2, round_hours=1)
    await h.slash(organiser, "tournament start")
    seated = [m.content for m in h.public_messages() if "round 1 is seated" in m.content]
    assert seated and f"ends <t:{int(clock.now) + 3600}:R>" in seated[0]
    await maker.bot.sweep_once()
    assert not any("reached its deadline" in m.content for m in h.public_messages()), "not before its time"
    clock.now += 3601
    await maker.bot.sweep_once()
    told = [m.content for m in h.public_messages() if "reached its deadline" in m.content]
    assert told and f"<@{organiser.id}>" in told[0]
    refused = await h.slash(users[0], "tournament decide", {"how": "tie"})
    assert "Only organisers" in (refused.content or "")
    decided = await h.slash(organiser, "tournament decide", {"how": "tie"})
    assert decided.content == "The round's unfinished tables are decided."
    tournament = await current(maker)
    first = tournament.rounds[0]
    assert first.closed and all(t.score and t.score.decided == "tie" for t in first.tables)
    statuses = [(await maker.bot.service.get(t.table_id or "")).status for t in first.tables]
    assert statuses == [TableStatus.ABANDONED] * 2, "decided tables end"
    assert len(tournament.rounds) == 2 and tournament.rounds[1].seated
    clock.now += 3601
    await maker.bot.sweep_once()
    played = await h.slash(organiser, "tournament decide", {"how": "play-out"})
    assert played.content == "The round's unfinished tables are decided."
    tournament = await current(maker)
    assert tournament.phase is Phase.FINISHED
    assert all(t.score and t.score.decided == "played" for t in tournament.rounds[1].tables)
    statuses = {(await maker.bot.service.get(t.table_id or "")).status for t in tournament.rounds[1].tables}
    assert statuses == {TableStatus.FINISHED}, "played out to their end by default moves"


async def test_a_restart_in_the_middle_of_seating_a_round(h: DiscordHarness, maker: BotMaker) -> None:
    organiser, _, _ = await open_tournament(h, 16, format="swiss", table_size=2, rounds=1)
    posted: list[int] = []

    def fourth_table(request: Any) -> bool:
        # The bot dies (here: Discord refuses) while posting the round's fourth table.
        if request.kind == "message_create" and "High Card — table" in str(request.json):
            posted.append(1)
            return len(posted) == 4
        return False

    h.fail(fourth_table, status=403, code=50013, times=1)
    started = await h.slash(organiser, "tournament start")
    assert started.content == "**Cup** has started: seating round 1."
    assert [m.content for m in started.followups] == [
        "The tournament started, but I could not post everything yet — it carries on."
    ]
    tournament = await current(maker)
    assert tournament.current is not None and not tournament.current.seated
    await h.restart()
    await maker.bot.sweep_once()
    tournament = await current(maker)
    assert tournament.current is not None and tournament.current.seated
    ids = [t.table_id for t in tournament.current.tables]
    assert len(ids) == 8
    table_messages = [m for m in h.public_messages() if "High Card — table" in embed_text(m)]
    shown = sorted(t for m in table_messages for t in ids if f"table {t}" in embed_text(m))
    assert shown == sorted(ids), "every table is posted exactly once"
    for table_id in ids:
        assert table_id is not None and (await maker.bot.service.get(table_id)).message_id is not None


async def test_a_casual_table_opted_in_to_ratings_moves_them(h: DiscordHarness, maker: BotMaker) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    created = await h.slash(ann, "table create", {"game": "high-card", "rated": True})
    message = created.message
    assert message is not None and "rated" in embed_text(message)
    await h.click(bob, message, button(message, "Join"))
    await h.click(ann, message, button(message, "Start"))
    [table] = await maker.bot.service.store.in_channel(h.channel.id)
    await play_to_the_end(h, maker.bot.service, table.id, [ann, bob], message, seed=3)
    for user in (ann, bob):
        shown = await h.slash(user, "rating", {"game": "high-card"})
        assert "1 game ·" in (shown.content or "") and "(provisional)" in (shown.content or "")
    unrated = await h.slash(ann, "rating", {"member": bob, "game": "spheres-of-life"})
    assert "There is no game" in (unrated.content or "")


async def test_a_server_names_an_organiser_role_in_settings(h: DiscordHarness, maker: BotMaker) -> None:
    from tests.e2e.entities import Role

    admin, host = h.create_user("admin", manage_guild=True), h.create_user("host")
    options = {"name": "Cup", "game": "high-card", "format": "swiss"}
    refused = await h.slash(host, "tournament create", options)
    assert refused.ephemeral and "Only organisers" in (refused.content or "")
    role = Role(h.ids.next(), "Organisers", discord.Permissions.none(), 1)
    h.guild.roles.append(role)
    member = h.member(host)
    member.roles.append(role)
    # What Discord sends when a role is made and given (the World has no factory for a plain role).
    h._emit("GUILD_ROLE_CREATE", {"guild_id": str(h.guild.id), "role": role.payload()})
    h._emit("GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": str(h.guild.id)})
    not_allowed = await h.slash(host, "settings organiser-role", {"role": role})
    assert "Only members with Manage Server" in (not_allowed.content or "")
    named = await h.slash(admin, "settings organiser-role", {"role": role})
    assert named.ephemeral and "may now run tournaments" in (named.content or "")
    created = await h.slash(host, "tournament create", options)
    assert created.message is not None and not created.ephemeral and "Cup" in embed_text(created.message)
    [suggested] = await h.autocomplete(host, "tournament standings", "tournament", {"tournament": "cu"})
    assert suggested["name"].startswith("Cup (") and suggested["name"].endswith(", registration)")


async def test_a_round_of_sixty_four_tables_shows_its_progress(h: DiscordHarness, maker: BotMaker) -> None:
    organiser, _, _ = await open_tournament(h, 0, format="swiss", table_size=2, rounds=1)
    tournaments = maker.bot.desk.tournaments
    tournament = await current(maker)
    for i in range(128):
        await tournaments.join(tournament.id, Player(10_000 + i, f"q{i}"))
    await h.slash(organiser, "tournament start")
    tournament = await current(maker)
    assert (
        tournament.current is not None and tournament.current.seated and len(tournament.current.tables) == 64
    )
    progress = [m for m in h.public_messages() if m.content.startswith("Seating round 1:")]
    assert len(progress) == 1 and progress[0].content == "Seating round 1: 64/64 tables ready."
    assert len(h.requests_of("thread_create")) == 64


async def test_refusals_and_check_in_before_the_start(h: DiscordHarness, maker: BotMaker) -> None:
    organiser = h.create_user("org", manage_guild=True)
    too_big = await h.slash(
        organiser, "tournament create", {"name": "X", "game": "high-card", "format": "swiss", "table_size": 9}
    )
    assert too_big.ephemeral and too_big.content == "High Card seats 2–6 players a table, not 9."
    organiser2, users, message = await open_tournament(h, 3, format="swiss", table_size=2, check_in=True)
    assert labels(message) == ["Join", "Leave", "Check in"]
    again = await h.click(users[0], message, button(message, "Join"))
    assert again.content == "You are already registered."
    for user in users[:2]:
        checked = await h.click(user, message, button(message, "Check in"))
        assert checked.content == "You are checked in."
    assert embed_text(message).count("✅") == 2
    left = await h.click(users[2], message, button(message, "Leave"))
    assert left.content == "You have left."
    await h.slash(organiser2, "tournament start")
    tournament = await current(maker)
    assert [e.user_id for e in tournament.entrants] == [u.id for u in users[:2]]
    late = await h.click(users[2], message, button(message, "Join")) if labels(message) else None
    assert late is None, "registration buttons are gone once it starts"


async def test_a_result_survives_a_crash_in_its_outbox_step_and_counts_once(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    organiser, _, _ = await open_tournament(h, 2, format="swiss", table_size=2, rounds=1, rated=True)
    await h.slash(organiser, "tournament start")
    tournament = await current(maker)
    assert tournament.current is not None
    table_id = tournament.current.tables[0].table_id or ""
    service = maker.bot.desk.tournaments
    real = service.table_ended

    async def crash(record: Any) -> Any:
        raise ConnectionError("the bot went down here")

    service.table_ended = crash  # type: ignore[method-assign]
    await maker.bot.service.play_out(table_id)
    await maker.bot.announcer.deliver(table_id)
    await h.settle()
    assert (await current(maker)).phase is Phase.RUNNING, "the result was not taken yet"
    assert await maker.bot.announcer.outbox.length(table_id) == 1, "its news waits in the outbox"
    service.table_ended = real  # type: ignore[method-assign]

    await h.restart()
    clock.now += 60
    await maker.bot.drain_once()
    await maker.bot.desk.wait()
    await h.settle()
    tournament = await current(maker)
    assert tournament.phase is Phase.FINISHED
    board = await maker.bot.desk.results.ratings.leaderboard(h.guild.id, "high-card")
    assert [s.rating.games for s in board] == [1, 1], "rated once, though its step ran twice"
    assert await maker.bot.announcer.outbox.length(table_id) == 0


async def test_organisers_add_replace_disqualify_award_and_cancel(h: DiscordHarness, maker: BotMaker) -> None:
    organiser, _, message = await open_tournament(h, 3, format="swiss", table_size=2, rounds=2)
    extra, sub = h.create_user("extra"), h.create_user("sub")
    added = await h.slash(organiser, "tournament add", {"member": extra})
    assert added.content == f"<@{extra.id}> is registered." and f"<@{extra.id}>" in embed_text(message)
    await h.slash(organiser, "tournament start")
    tournament = await current(maker)
    assert tournament.current is not None and len(tournament.current.tables) == 2
    first, second = tournament.current.tables
    replaced = await h.slash(
        organiser, "tournament replace", {"member": h.users[first.players[0]], "by": sub}
    )
    assert replaced.content == f"<@{sub.id}> takes over from <@{first.players[0]}>."
    record = await maker.bot.service.get(first.table_id or "")
    assert first.players[0] not in record.user_ids, "a bot finishes the seat of the player replaced"
    loser = second.players[1]
    dq = await h.slash(organiser, "tournament disqualify", {"member": h.users[loser]})
    assert dq.content == f"<@{loser}> is disqualified." and "(disqualified)" in embed_text(message)
    bad = await h.slash(organiser, "tournament award", {"table": second.table_id, "ranking": "nobody"})
    assert bad.content is not None and bad.content.startswith("Write the ranking as mentions")
    ranking = f"<@{second.players[0]}> > <@{loser}>"
    awarded = await h.slash(organiser, "tournament award", {"table": second.table_id, "ranking": ranking})
    assert awarded.content == f"Table {second.table_id} is scored."
    tournament = await current(maker)
    assert tournament.current is not None and tournament.current.tables[1].score is not None
    assert tournament.current.tables[0].players[0] == sub.id
    cancelled = await h.slash(organiser, "tournament cancel")
    assert cancelled.content == "Cancelled." and "was cancelled" in embed_text(message)
    assert (await current(maker)).phase is Phase.CANCELLED


async def test_a_join_is_never_reported_as_failed_when_the_list_cannot_be_redrawn(
    h: DiscordHarness, maker: BotMaker
) -> None:
    _, users, message = await open_tournament(h, 1, format="swiss", table_size=2)
    late = h.create_user("late")
    h.fail("message_edit", status=403, code=50013)
    joined = await h.click(late, message, button(message, "Join"))
    assert joined.content == "You are registered." and not joined.followups
    assert late.id in [e.user_id for e in (await current(maker)).entrants]
    assert users[0].id in [e.user_id for e in (await current(maker)).entrants]
