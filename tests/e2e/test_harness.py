"""Tests of the e2e harness itself, with a tiny discord.py bot driven through real dispatch."""

from __future__ import annotations

import io
import itertools
import re
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.e2e.entities import Snowflakes
from tests.e2e.harness import DiscordHarness

_instances = itertools.count(1)


class Act(discord.ui.DynamicItem[discord.ui.Button], template=r"gt:v1:act:(?P<table>\w+):(?P<ver>\d+)"):
    def __init__(self, table: str, ver: int) -> None:
        super().__init__(discord.ui.Button(label="Act", custom_id=f"gt:v1:act:{table}:{ver}"))
        self.table, self.ver = table, ver

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Act:
        return cls(match["table"], int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, TinyBot)
        text = f"{interaction.user.name} acted on {self.table} v{self.ver} (bot #{bot.instance})"
        await interaction.response.send_message(text, ephemeral=True)


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="gt:pick",
        max_values=2,
        options=[discord.SelectOption(label=c) for c in ("red", "green", "blue")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {','.join(select.values)}", view=None)


class NameModal(discord.ui.Modal, title="Name your table"):
    name: discord.ui.TextInput = discord.ui.TextInput(label="Table name", custom_id="gt:name", max_length=30)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


class TableCog(commands.GroupCog, group_name="table", group_description="Run a table"):
    admin = app_commands.Group(name="admin", description="Table administration")

    @app_commands.command(description="Open a table")
    async def create(self, interaction: discord.Interaction, name: str, seats: int = 4) -> None:
        view = discord.ui.View(timeout=None).add_item(Act(name, 1))
        await interaction.response.send_message(f"table {name} with {seats} seats", view=view)

    @app_commands.command(description="Make a play")
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        await interaction.response.send_message(f"you {action}", ephemeral=True)

    @play.autocomplete("action")
    async def play_action(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=a.title(), value=a)
            for a in ("draw", "discard", "pass")
            if a.startswith(current)
        ]

    @app_commands.command(description="Pick colours")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick colours", view=PickView(), ephemeral=True)

    @app_commands.command(description="Rename the table")
    async def rename(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(description="Something slow")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("step 1 done", ephemeral=True)
        await interaction.edit_original_response(content="all done")

    @app_commands.command(description="Defer publicly, then answer privately")
    async def think(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("secret?", ephemeral=True)  # Discord ignores EPHEMERAL here

    @app_commands.command(description="Invite a player by DM")
    async def invite(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await interaction.response.defer()
        try:
            await player.send(f"{interaction.user.name} invites you to a table")
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            await interaction.followup.send(f"{player.mention} has DMs closed; invite posted here instead")
        else:
            await interaction.followup.send("invite sent")

    @app_commands.command(description="Open a discussion thread")
    async def discuss(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        thread = await interaction.channel.create_thread(
            name="table talk", type=discord.ChannelType.public_thread
        )
        await thread.send("discuss here")
        await interaction.response.send_message(f"thread {thread.mention}", ephemeral=True)

    @app_commands.command(description="Say too much")
    async def shout(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("x" * 2001)

    @app_commands.command(description="Load a deck file")
    async def load(self, interaction: discord.Interaction, deck: discord.Attachment) -> None:
        text = (await deck.read()).decode()
        file = discord.File(io.BytesIO(text.upper().encode()), "DECK.TXT")
        await interaction.response.send_message(f"{deck.filename}: {len(text)} chars", file=file)

    @app_commands.command(description="Crash")
    async def crash(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    @app_commands.command(description="Never answer")
    async def mute(self, interaction: discord.Interaction) -> None:
        return

    @admin.command(description="Reset the table")
    async def reset(self, interaction: discord.Interaction, confirm: bool) -> None:
        allowed = interaction.permissions.manage_guild
        text = "reset done" if allowed and confirm else "you need Manage Server"
        await interaction.response.send_message(text, ephemeral=not allowed)


class TinyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.instance = next(_instances)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Act)
        await self.add_cog(TableCog(self))


@pytest.fixture
async def h(make_harness) -> DiscordHarness:
    return await make_harness(TinyBot)


async def test_ready_caches_world(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    await h.flush()
    assert h.bot is not None and h.bot.is_ready()
    guild = h.bot.get_guild(h.guild.id)
    assert guild is not None and guild.get_channel(h.channel.id) is not None
    # Without the members intent Discord sends no GUILD_MEMBER_ADD and inlines only the bot's member.
    assert guild.get_member(alice.id) is None and guild.me is not None
    assert h.requests_of("me", "app_info")  # real login() ran against the recorder
    assert isinstance(h.bot, TinyBot)
    synced = await h.bot.tree.sync()  # PUT /applications/{id}/commands: recorded, limit-checked, answered
    assert [c.name for c in synced] == ["table"] and h.requests[-1].kind == "commands"
    assert h.commands[None][0]["options"][0]["name"] == "admin"


async def test_slash_subcommand_creates_message_with_dynamic_button(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    result = await h.slash(alice, "table create", {"name": "oak", "seats": 3})
    assert result.response_type == 4 and not result.ephemeral
    assert result.content == "table oak with 3 seats"
    assert result.message is not None and result.message.custom_ids == ["gt:v1:act:oak:1"]
    assert h.public_messages(h.channel) == [result.message]
    assert h.last_message_components()[0]["components"][0]["label"] == "Act"

    click = await h.click(alice, result.message, "gt:v1:act:oak:1")
    assert click.ephemeral and click.content.startswith("alice acted on oak v1")
    assert h.ephemeral_messages(alice) == [click.message]


async def test_subcommand_group_and_manage_server(h: DiscordHarness) -> None:
    bob = h.create_user("bob")
    denied = await h.slash(bob, "table admin reset", {"confirm": True})
    assert denied.ephemeral and denied.content == "you need Manage Server"
    h.set_manage_guild(bob)
    allowed = await h.slash(bob, "table admin reset", {"confirm": True})
    assert not allowed.ephemeral and allowed.content == "reset done"
    options = allowed.record.payload["data"]["options"]
    assert options[0] == {
        "type": 2,
        "name": "admin",
        "options": [{"type": 1, "name": "reset", "options": [{"name": "confirm", "type": 5, "value": True}]}],
    }


async def test_autocomplete_returns_choices(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    choices = await h.autocomplete(alice, "table play", focused="action", options={"action": "d"})
    assert choices == [{"name": "Draw", "value": "draw"}, {"name": "Discard", "value": "discard"}]


async def test_select_updates_message(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    shown = await h.slash(alice, "table pick")
    assert shown.ephemeral and shown.message is not None
    picked = await h.select(alice, "gt:pick", ["red", "blue"])
    assert picked.response_type == 7
    assert picked.message is shown.message and shown.message.content == "picked red,blue"
    assert shown.message.components == []


async def test_modal_round_trip(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    shown = await h.slash(alice, "table rename")
    assert shown.response_type == 9 and shown.modal is not None
    assert shown.modal["title"] == "Name your table"
    submitted = await h.submit_modal(alice, shown.modal["custom_id"], {"gt:name": "Birch"})
    assert submitted.content == "renamed to Birch"
    with pytest.raises(AssertionError, match="max 30"):
        await h.submit_modal(alice, shown.modal["custom_id"], {"gt:name": "x" * 31})


async def test_defer_then_followup_and_edit(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    result = await h.slash(alice, "table slow")
    assert result.deferred and result.response is not None and result.response.json["data"] == {"flags": 64}
    # As in Discord, the first followup after a deferred reply fills the loading message itself.
    [followup] = h.requests_of("followup")
    assert followup.message_id == result.record.original_id
    assert result.message is not None and result.content == "all done" and result.ephemeral
    assert [m.content for m in h.ephemeral_messages(alice)] == ["all done"]
    assert h.public_messages() == []


async def test_a_followup_after_a_public_defer_stays_public(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    result = await h.slash(alice, "table think")
    assert result.message is not None and result.content == "secret?" and not result.ephemeral
    assert [m.content for m in h.public_messages()] == ["secret?"]


async def test_dm_success_and_closed_dms_fallback(h: DiscordHarness) -> None:
    alice, bob, carol = h.create_user("alice"), h.create_user("bob"), h.create_user("carol")
    ok = await h.slash(alice, "table invite", {"player": bob})
    assert [m.content for m in h.dms(bob)] == ["alice invites you to a table"]
    assert [m.content for m in ok.followups] == ["invite sent"]

    h.close_dms(carol)
    closed = await h.slash(alice, "table invite", {"player": carol})
    assert [r.error for r in closed.failed] == [(403, 50007)]
    assert h.dms(carol) == []
    assert closed.followups[0].content == f"{carol.mention} has DMs closed; invite posted here instead"
    assert closed.record.payload["data"]["resolved"]["members"][str(carol.id)]["permissions"]


async def test_thread_creation_is_recorded_and_cached(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    result = await h.slash(alice, "table discuss")
    (created,) = h.requests_of("thread_create")
    thread_id = int(created.response["id"])
    assert h.public_messages(h.channels[thread_id])[0].content == "discuss here"
    assert h.bot is not None and h.bot.get_channel(thread_id) is not None  # THREAD_CREATE was fed
    assert result.content == f"thread <#{thread_id}>"


async def test_restart_old_buttons_still_work(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    created = await h.slash(alice, "table create", {"name": "elm"})
    first = h.bot
    assert isinstance(first, TinyBot) and created.message is not None
    await h.restart()
    assert h.bot is not first and first.is_closed()
    click = await h.click(alice, created.message, "gt:v1:act:elm:1")
    assert click.content.endswith(f"(bot #{first.instance + 1})")
    ghost = await h.click(alice, "gt:v1:act:ash:7")  # a button the harness never saw being sent
    assert "acted on ash v7" in ghost.content


async def test_limit_violation_fails_the_interaction(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    with pytest.raises(AssertionError, match=r"content: 2001 chars > 2000"):
        await h.slash(alice, "table shout")
    assert h.requests[-1].error == (400, 50035)


async def test_unknown_option_and_missing_required_are_test_errors(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    with pytest.raises(AssertionError, match="required option"):
        await h.slash(alice, "table create", {})
    with pytest.raises(AssertionError, match="unknown option"):
        await h.slash(alice, "table create", {"name": "a", "colour": "red"})


async def test_attachment_option_and_uploaded_file(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    result = await h.slash(alice, "table load", {"deck": h.upload("deck.toml", "cards = 3")})
    assert result.content == "deck.toml: 9 chars"
    assert result.response is not None
    assert [(f.filename, f.data) for f in result.response.files] == [("DECK.TXT", b"CARDS = 3")]
    assert result.message is not None and result.message.data["attachments"][0]["filename"] == "DECK.TXT"


async def test_bot_errors_and_missing_responses_fail_the_test(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    with pytest.raises(AssertionError, match=r"(?s)bot raised: .*RuntimeError: boom"):
        await h.slash(alice, "table crash")
    with pytest.raises(AssertionError, match="never responded"):
        await h.slash(alice, "table mute")


async def test_injected_route_failure(h: DiscordHarness) -> None:
    alice = h.create_user("alice")
    h.fail("POST /channels/*/threads", status=403, code=50013, message="Missing Permissions", times=1)
    with pytest.raises(AssertionError, match=r"(?s)bot raised: .*50013"):
        await h.slash(alice, "table discuss")
    assert h.requests_of("thread_create")[0].error == (403, 50013)
    await h.slash(alice, "table discuss")  # times=1: works again


async def test_members_intent_caches_members(make_harness) -> None:
    def factory() -> commands.Bot:
        intents = discord.Intents.default()
        intents.members = True
        return commands.Bot(command_prefix="!", intents=intents)

    h = await make_harness(factory)
    alice = h.create_user("alice", manage_guild=True)
    await h.flush()
    assert h.bot is not None
    member = h.bot.get_guild(h.guild.id).get_member(alice.id)
    assert member is not None and member.guild_permissions.manage_guild


async def test_sharded_process_only_sees_its_shards(make_harness) -> None:
    def factory() -> commands.AutoShardedBot:
        bot = commands.AutoShardedBot(
            command_prefix="!", intents=discord.Intents.default(), shard_count=2, shard_ids=[0]
        )

        @bot.tree.command(name="ping", description="Which shard am I on?")
        async def ping(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            await interaction.response.send_message(f"shard {interaction.guild.shard_id}")

        return bot

    h = await make_harness(factory)
    other = h.create_guild("Other")
    mine, theirs = sorted([h.guild, other], key=lambda g: (g.id >> 22) % 2)
    assert ((mine.id >> 22) % 2, (theirs.id >> 22) % 2) == (0, 1)
    alice = h.create_user("alice", guild=mine)
    h.add_member(theirs, alice)
    assert h.bot is not None and h.bot.is_ready()
    assert (await h.slash(alice, "ping", guild=mine)).content == "shard 0"
    await h.flush()
    assert h.bot.get_guild(theirs.id) is None
    with pytest.raises(AssertionError, match="never responded"):  # shard 1 lives in another process
        await h.slash(alice, "ping", guild=theirs)


async def test_command_registration_limits_are_checked_at_startup() -> None:
    class Wordy(commands.Bot):
        async def setup_hook(self) -> None:
            @self.tree.command(name="wordy", description="d" * 101)
            async def wordy(interaction: discord.Interaction) -> None: ...

    harness = DiscordHarness(lambda: Wordy(command_prefix="!", intents=discord.Intents.default()))
    with pytest.raises(AssertionError, match=r"command\[0\]\.description: 101 chars > 100"):
        await harness.start()
    await harness.close(check=False)


def test_forked_snowflakes_go_on_in_time_and_never_meet_another_workers() -> None:
    shared = Snowflakes()
    world = [shared.next() for _ in range(3)]
    mine, theirs = shared.fork(1), shared.fork(2)
    made = [[ids.next() for _ in range(5000)] for ids in (mine, theirs)]  # past the 12 increment bits
    assert not set(made[0]) & set(made[1]) and not set(world) & set(made[0] + made[1])
    assert min(made[0]) > max(world) and made[0] == sorted(made[0])
    assert {(i >> 17) & 0x1F for i in made[0]} == {1} and Snowflakes().next() == world[0]
