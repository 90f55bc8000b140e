"""Each server is its own world: a moderator of server A who knows the ids of server B's tables and
tournament (every table message shows its id) can neither see nor touch them — from A or from a
DM, by any command, button, select or autocomplete. Each refusal is the very answer an id that
names nothing gets, nothing changes in Redis and nothing is posted anywhere. B's own members keep
every power they had (see bot/service/policy.py)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from discord import app_commands

from bot.service.policy import POWERS_AT_HOME, named_by
from storage import keys
from tests.e2e.entities import Channel, User
from tests.e2e.harness import DiscordHarness, InteractionResult
from tests.e2e.tables import BotMaker, button, embed_text
from tests.e2e.two_servers import (
    COMMANDS,
    COMPONENTS,
    ServerB,
    answer,
    ghost,
    make_server_b,
    posted,
    redis_commands,
    redis_snapshot,
    round_trips,
    unknown,
    unnamed,
)
from tests.support.minigame import HIGH_CARD

NAMING = ("table", "tournament")


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD}


Run = Callable[[bool], Awaitable[InteractionResult]]


async def refusal_problems(
    maker: BotMaker, b: ServerB, case: str, run: Run, *, renewed: str | None = None
) -> list[str]:
    """Run ``case`` naming B's objects, then naming nothing: the two answers must be one, made
    with the same Redis round trips, and the first must have changed nothing in Redis and posted
    nothing. ``renewed``: the store's housekeeping of an unreadable record may rewrite keys ending
    so, after the reads (see test_another_servers_damaged_table_is_answered_as_a_missing_id)."""
    redis = maker.bot.service.store.redis

    async def snapshot() -> dict[bytes, bytes | None]:
        found = await redis_snapshot(redis)
        return {k: v for k, v in found.items() if renewed is None or not k.decode().endswith(renewed)}

    before = await snapshot()
    with redis_commands() as sent_named:
        result = await run(True)
    after = await snapshot()
    with redis_commands() as sent_missing:
        missing = await run(False)
    problems = []
    named_trips, missing_trips = round_trips(sent_named, b), round_trips(sent_missing, b)
    if renewed is not None:  # the housekeeping follows the reads an unknown id makes too
        named_trips = named_trips[: len(missing_trips)]
    if named_trips != missing_trips:
        problems.append(f"{case}: Redis heard {named_trips}, for an unknown id {missing_trips}")
    if answer(result, b) != answer(missing, b):
        problems.append(f"{case}: answered {unnamed(result.content, b)!r}, an unknown id {missing.content!r}")
    if after != before:
        changed = sorted({*before, *after} - {k for k in before if before.get(k) == after.get(k)})
        problems.append(f"{case}: changed {[k.decode() for k in changed][:5]}")
    if sent := posted(result):
        problems.append(f"{case}: posted {sent}")
    return problems


def commands(h: DiscordHarness) -> dict[str, app_commands.Command[Any, ..., Any]]:
    tree = h.bot.tree  # type: ignore[union-attr]
    return {c.qualified_name: c for c in tree.walk_commands() if isinstance(c, app_commands.Command)}


def guild_only(command: app_commands.Command[Any, ..., Any]) -> bool:
    return bool(command.guild_only or (command.root_parent and command.root_parent.guild_only))


async def run_commands(
    h: DiscordHarness, maker: BotMaker, b: ServerB, who: User, where: Channel, names: list[str]
) -> list[str]:
    problems: list[str] = []
    for name in names:
        options = COMMANDS[name](b, who)

        async def run(named: bool, name: str = name, options: dict[str, Any] = options) -> InteractionResult:
            chosen = options if named else {k: unnamed(v, b) for k, v in options.items()}
            return await h.slash(who, name, chosen, channel=where)

        problems += await refusal_problems(maker, b, f"/{name}", run)
    return problems


async def run_components(
    h: DiscordHarness, maker: BotMaker, b: ServerB, who: User, where: Channel
) -> list[str]:
    service = maker.bot.service
    lobby_version = (await service.get(b.lobby)).version
    playing_version = (await service.get(b.playing)).version
    problems: list[str] = []
    for kind, makers in COMPONENTS.items():
        for make in makers:
            custom_id, values = make(b, lobby_version, playing_version)

            async def run(named: bool, custom_id: str = custom_id, values: Any = values) -> InteractionResult:
                wanted = custom_id if named else unnamed(custom_id, b)
                message = ghost(h, where, wanted, values)
                if values is None:
                    return await h.click(who, message, wanted)
                return await h.select(who, wanted, values, message=message)

            problems += await refusal_problems(maker, b, f"{kind} {custom_id}", run)
    return problems


@pytest.mark.parametrize("who", ["stranger", "dee"])
async def test_every_command_from_another_server_is_answered_as_a_missing_id(
    h: DiscordHarness, maker: BotMaker, who: str
) -> None:
    """The stranger has Manage Server in A and is no member of B; dee has Manage Server in A and
    sits at B's running table, so on B's ids A's commands found what was hers, and more."""
    b = await make_server_b(h, maker)
    actor = b.stranger if who == "stranger" else b.dee
    assert await run_commands(h, maker, b, actor, h.channel, list(COMMANDS)) == []


@pytest.mark.parametrize("who", ["stranger", "dee"])
async def test_every_button_and_select_from_another_server_is_answered_as_a_missing_id(
    h: DiscordHarness, maker: BotMaker, who: str
) -> None:
    """A copied or forged custom_id naming B's table or tournament, pressed in A."""
    b = await make_server_b(h, maker)
    actor = b.stranger if who == "stranger" else b.dee
    assert await run_components(h, maker, b, actor, h.channel) == []


async def test_in_a_dm_a_stranger_finds_no_table_of_a_server(h: DiscordHarness, maker: BotMaker) -> None:
    """In a DM only the tables one sits at are found: every command that works in a DM, and
    every component, naming B's objects."""
    b = await make_server_b(h, maker)
    dm = h.dm_channel(b.stranger)
    in_dm = [name for name, command in commands(h).items() if name in COMMANDS and not guild_only(command)]
    assert {"table join", "table status", "table log", "hand", "play", "card"} <= set(in_dm)
    problems = await run_commands(h, maker, b, b.stranger, dm, in_dm)
    problems += await run_components(h, maker, b, b.stranger, dm)
    assert problems == []


async def test_autocomplete_never_lists_another_servers_objects(h: DiscordHarness, maker: BotMaker) -> None:
    """Dee sits at B's table and is registered in B's tournament: in A, no autocomplete of any
    command shows them, nor anything read from them (her moves, the lobby's seats, the deck)."""
    b = await make_server_b(h, maker)
    problems = []
    for name, command in commands(h).items():
        params = {p.name for p in command.parameters}
        named = {"table": b.lobby if name == "table kick" else b.playing, "tournament": b.tournament}
        for param in command.parameters:
            if not param.autocomplete:
                continue
            given = {k: v for k, v in named.items() if k in params and k != param.name}
            choices = await h.autocomplete(b.dee, name, param.name, given, channel=h.channel)
            shown = repr(choices)
            if any(object_id in shown for object_id in b.ids()) or (given and choices):
                problems.append(f"/{name} {param.name}: {choices}")
    assert problems == []
    at_home = await h.autocomplete(b.dee, "table status", "table", channel=b.guild.channels[0])
    assert b.playing in repr(at_home), "in B, B's tables are listed to its members"
    cups = await h.autocomplete(b.dee, "tournament standings", "tournament", channel=b.guild.channels[0])
    assert b.tournament in repr(cups)


async def test_a_servers_own_members_keep_their_powers_there(h: DiscordHarness, maker: BotMaker) -> None:
    b = await make_server_b(h, maker)
    home = b.guild.channels[0]
    joined = await h.click(b.bo, b.lobby_message, button(b.lobby_message, "Join"))
    assert joined.content == f"You have joined table {b.lobby}."
    # Dee has Manage Server in A only: in B she is a player, no moderator.
    refused = await h.slash(b.dee, "table abandon", {"table": b.playing}, channel=home)
    assert refused.content == "Only the host or a moderator with Manage Server can abandon this table."
    refused = await h.slash(b.dee, "tournament cancel", {"tournament": b.tournament}, channel=home)
    assert (refused.content or "").startswith("Only organisers")
    paused = await h.slash(b.mod, "clock pause", {"table": b.playing}, channel=home)
    assert paused.content == f"Table {b.playing} is paused."
    resumed = await h.slash(b.mod, "clock resume", {"table": b.playing}, channel=home)
    assert resumed.content == f"Table {b.playing} is running again."
    cancelled = await h.slash(b.mod, "tournament cancel", {"tournament": b.tournament}, channel=home)
    assert cancelled.content == "Cancelled."
    ended = await h.slash(b.mod, "table abandon", {"table": b.lobby}, channel=home)
    assert ended.content == f"Table {b.lobby} is abandoned."
    status = await h.slash(b.stranger, "table status", {"table": b.playing})
    assert status.content == f"There is no table '{b.playing}'." and not status.message.embeds  # type: ignore[union-attr]


async def test_in_a_dm_a_player_sees_their_own_table_but_holds_no_powers(
    h: DiscordHarness, maker: BotMaker
) -> None:
    b = await make_server_b(h, maker)
    status = await h.slash(b.dee, "table status", {"table": b.playing}, channel=h.dm_channel(b.dee))
    assert status.message is not None and b.playing in embed_text(status.message)
    hand = await h.slash(b.dee, "hand", {"table": b.playing}, channel=h.dm_channel(b.dee))
    assert hand.ephemeral and hand.message is not None and hand.message.embeds
    redis = maker.bot.service.store.redis
    before = await redis_snapshot(redis)
    for command, table in (("table start", b.lobby), ("table addbot", b.lobby), ("table abandon", b.playing)):
        refused = await h.slash(b.bea, command, {"table": table}, channel=h.dm_channel(b.bea))
        assert refused.content == POWERS_AT_HOME, command
    refused = await h.slash(b.bea, "table kick", {"table": b.lobby, "seat": "2"}, channel=h.dm_channel(b.bea))
    assert refused.content == POWERS_AT_HOME
    assert await redis_snapshot(redis) == before


async def test_another_servers_damaged_table_is_answered_as_a_missing_id(
    h: DiscordHarness, maker: BotMaker
) -> None:
    """A record that cannot be read still names its server: A's moderator cannot end B's."""
    b = await make_server_b(h, maker)
    store = maker.bot.service.store
    meta = json.loads(await store.redis.hget(keys.table(b.lobby), "meta") or "")
    del meta["created_at"]  # a bad write lost a field; the server and the seats are still legible
    await store.redis.hset(keys.table(b.lobby), "meta", json.dumps(meta))
    with pytest.raises(Exception, match="cannot be read"):
        await store.get(b.lobby)  # set aside once, as the first reader would
    problems = []
    for who in (b.stranger, b.dee):

        async def run(named: bool, who: User = who) -> InteractionResult:
            table = b.lobby if named else unknown(b.lobby)
            return await h.slash(who, "table abandon", {"table": table})

        # Every read of an unreadable record renews its removal marks in the table lists (the
        # store's housekeeping, whoever reads it): the marks' times are all that may move, and
        # those writes, after the read an unknown id makes too, the only round trips added.
        problems += await refusal_problems(maker, b, f"abandon by {who.name}", run, renewed=":marks")
    assert problems == []
    ended = await h.slash(b.mod, "table abandon", {"table": b.lobby}, channel=b.guild.channels[0])
    assert ended.content == f"Table {b.lobby} is abandoned."


async def test_every_command_and_component_declares_what_it_names_and_is_driven_here(
    h: DiscordHarness,
) -> None:
    """The bot's own registrations, all of them: a command or component that names a table or a
    tournament must say so and be among the cases above; one that does not must take no
    ``table`` or ``tournament`` option, nor carry a table or tournament id in its custom_id."""
    registered = commands(h)
    problems = []
    for name, command in registered.items():
        declared = named_by(command.callback)
        if declared is None:
            problems.append(f"/{name} declares nothing (bot.service.policy.names)")
        takes = {p.name for p in command.parameters} & set(NAMING)
        if takes and declared not in NAMING:
            problems.append(f"/{name} takes {sorted(takes)} but declares {declared!r}")
        if declared in NAMING and name not in COMMANDS:
            problems.append(f"/{name} names a {declared} but is not driven against another server's")
    problems += [f"/{name} is driven but not registered" for name in set(COMMANDS) - set(registered)]
    items = h.bot._connection._view_store._dynamic_items.values()  # type: ignore[union-attr]
    for item in items:
        declared = named_by(item)
        if declared is None:
            problems.append(f"{item.__name__} declares nothing (bot.service.policy.names)")
        carries = set(item.__discord_ui_compiled_template__.groupindex) & {"table", "tour"}
        if carries and declared not in NAMING:
            problems.append(f"{item.__name__}: custom_id carries {sorted(carries)}; declared {declared!r}")
        if declared in NAMING and not COMPONENTS.get(item.__name__):
            problems.append(f"{item.__name__} names a {declared} but is not driven against another server's")
    assert {i.__name__ for i in items} >= set(COMPONENTS)
    assert problems == []


async def test_a_rating_counts_only_in_the_server_it_was_made_in(h: DiscordHarness, maker: BotMaker) -> None:
    """Dee, a member of both, plays a rated game in B: in A her rating, the leaderboard and a
    rebuild by A's moderator know nothing of it; in B they show it."""
    b = await make_server_b(h, maker)
    home = b.guild.channels[1]
    created = await h.slash(b.bea, "table create", {"game": "high-card", "rated": True}, channel=home)
    assert created.message is not None, created.content
    await h.click(b.dee, created.message, button(created.message, "Join"))
    await h.click(b.bea, created.message, button(created.message, "Start"))
    [rated] = [t for t in await maker.bot.service.store.in_channel(home.id) if t.rated]
    await maker.bot.service.play_out(rated.id)
    await maker.bot.announcer.deliver(rated.id)
    at_home = await h.slash(b.dee, "rating", {"game": "high-card"}, channel=home)
    assert "1 game" in (at_home.content or ""), at_home.content
    board = await h.slash(b.dee, "leaderboard", {"game": "high-card"}, channel=home)
    assert f"<@{b.dee.id}>" in embed_text(board.message)  # type: ignore[arg-type]
    mine = await h.slash(b.dee, "rating", {}, channel=h.channel)
    assert mine.content == f"<@{b.dee.id}> — No rated games yet."
    mine = await h.slash(b.dee, "rating", {"game": "high-card"}, channel=h.channel)
    assert mine.content == f"<@{b.dee.id}> — No rated games yet."
    board = await h.slash(b.dee, "leaderboard", {"game": "high-card"}, channel=h.channel)
    assert "No rated games yet." in embed_text(board.message)  # type: ignore[arg-type]
    rebuilt = await h.slash(b.dee, "ratings-rebuild", {}, channel=h.channel)
    assert rebuilt.content == "Ratings rebuilt from 0 results."
    rebuilt = await h.slash(b.mod, "ratings-rebuild", {"game": "high-card"}, channel=home)
    assert rebuilt.content == "Ratings rebuilt from 1 results."


async def test_naming_nothing_in_another_server_finds_nothing_of_yours_there(
    h: DiscordHarness, maker: BotMaker
) -> None:
    """Dee sits at B's tables and is registered in B's tournament; in A, every command left to
    find its table or tournament answers her as it answers someone who has none anywhere."""
    b = await make_server_b(h, maker)
    newcomer = h.create_user("newcomer", manage_guild=True)
    redis = maker.bot.service.store.redis
    problems = []
    registered = commands(h)
    for name, options in COMMANDS.items():
        if any(p.required and p.name in NAMING for p in registered[name].parameters):
            continue
        before = await redis_snapshot(redis)
        answers = []
        for who in (b.dee, newcomer):
            given = {k: v for k, v in options(b, who).items() if k not in NAMING}
            result = await h.slash(who, name, given, channel=h.channel)
            if sent := posted(result):
                problems.append(f"/{name} by {who.name}: posted {sent}")
            answers.append(answer(result, b))
        if answers[0] != answers[1]:
            problems.append(f"/{name}: dee {answers[0][2]!r}, someone at no table {answers[1][2]!r}")
        if await redis_snapshot(redis) != before:
            problems.append(f"/{name}: changed Redis")
    assert problems == []
