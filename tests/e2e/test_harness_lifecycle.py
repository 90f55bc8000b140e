"""The interaction lifecycle as Discord enforces it, and what Discord does with edits and flags: the
harness refuses what Discord refuses (the bot gets Discord's error, the test fails), and shows a
message as Discord would show it."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import discord
import pytest
from discord.ext import commands
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from tests.e2e.harness import DiscordHarness

Hook = Callable[[], None]


class AnswerModal(discord.ui.Modal, title="Answer"):
    answer: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Answer", custom_id="answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content="updated")  # no message: a command opened it


class Misbehaving(commands.Bot):
    """Each command breaks one rule of the interaction lifecycle."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.before_answer: Hook = lambda: None

    async def setup_hook(self) -> None:
        tree = self.tree

        @tree.command(description="Answer twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("one")
            await discord.InteractionResponse(interaction).send_message("two")  # a second initial response

        @tree.command(description="Follow up first")
        async def early(interaction: discord.Interaction) -> None:
            await interaction.followup.send("too soon")

        @tree.command(description="Edit the answer first")
        async def rewrite(interaction: discord.Interaction) -> None:
            await interaction.edit_original_response(content="too soon")

        @tree.command(description="Answer after a while")
        async def slow(interaction: discord.Interaction) -> None:
            self.before_answer()
            await interaction.response.send_message("late")

        @tree.command(description="Defer, then follow up after a while")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            self.before_answer()
            await interaction.followup.send("much later")

        @tree.command(description="Defer publicly, drop the loading message, answer privately")
        async def rethink(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.delete_original_response()
            await interaction.followup.send("private after all", ephemeral=True)

        @tree.command(description="A modal whose answer updates no message")
        async def ask(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(AnswerModal(custom_id="answer-modal"))

        @tree.command(description="Empty the answer")
        async def blank(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("soon gone", ephemeral=True)
            await interaction.edit_original_response(content="")

        @tree.command(description="Edit a private answer with flags 0")
        async def unflag(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("private", ephemeral=True)
            adapter = async_context.get()  # discord.py sends no flags on this edit: send them by hand
            await adapter.edit_original_interaction_response(
                interaction.application_id,
                interaction.token,
                session=interaction._session,
                payload={"content": "still private", "flags": 0},
            )

        @tree.command(description="Post to the channel with a file")
        async def post(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send(file=discord.File(io.BytesIO(b"x" * 11 * 1024 * 1024), "big.bin"))
            await interaction.response.send_message("posted")


@pytest.fixture
async def h(make_harness: Any) -> DiscordHarness:
    return await make_harness(Misbehaving)


def _bot(h: DiscordHarness) -> Misbehaving:
    assert isinstance(h.bot, Misbehaving)
    return h.bot


async def test_a_second_initial_response_is_refused(h: DiscordHarness) -> None:
    with pytest.raises(AssertionError, match=r"(?s)Discord refused: .*40060|already been acknowledged"):
        await h.slash(h.create_user("ann"), "twice")
    assert h.requests_of("interaction_response")[-1].error == (400, 40060)


@pytest.mark.parametrize("command", ["early", "rewrite"])
async def test_a_followup_or_edit_before_the_response_is_refused(h: DiscordHarness, command: str) -> None:
    with pytest.raises(AssertionError, match=r"Discord refused: .*Unknown Webhook"):
        await h.slash(h.create_user("ann"), command)
    assert h.requests[-1].error == (404, 10015)


async def test_an_initial_response_after_three_seconds_is_refused(h: DiscordHarness) -> None:
    _bot(h).before_answer = lambda: h.advance(3.2)
    with pytest.raises(AssertionError, match=r"Unknown interaction \(initial response after 3\.2s > 3s\)"):
        await h.slash(h.create_user("ann"), "slow")
    assert h.requests[-1].error == (404, 10062)


async def test_a_response_within_three_seconds_is_accepted(h: DiscordHarness) -> None:
    _bot(h).before_answer = lambda: h.advance(2.9)
    assert (await h.slash(h.create_user("ann"), "slow")).content == "late"


async def test_the_token_lasts_fifteen_minutes(h: DiscordHarness) -> None:
    _bot(h).before_answer = lambda: h.advance(14 * 60)
    assert (await h.slash(h.create_user("ann"), "later")).content == "much later"
    _bot(h).before_answer = lambda: h.advance(15 * 60 + 1)
    with pytest.raises(AssertionError, match=r"Invalid Webhook Token"):
        await h.slash(h.create_user("bob"), "later")
    assert h.requests[-1].error == (401, 50027)


async def test_a_modal_opened_by_a_command_cannot_update_a_message(h: DiscordHarness) -> None:
    ann = h.create_user("ann")
    await h.slash(ann, "ask")
    with pytest.raises(AssertionError, match=r"this MODAL_SUBMIT has no message to update"):
        await h.submit_modal(ann, "answer-modal", {"answer": "yes"})


async def test_an_edit_that_empties_a_message_is_refused(h: DiscordHarness) -> None:
    with pytest.raises(AssertionError, match=r"Cannot send an empty message"):
        await h.slash(h.create_user("ann"), "blank")
    assert h.requests[-1].error == (400, 50006)


async def test_an_edit_cannot_make_a_private_message_public(h: DiscordHarness) -> None:
    result = await h.slash(h.create_user("ann"), "unflag")
    assert h.requests[-1].json.get("flags") == 0, "the edit did send flags"
    assert result.content == "still private" and result.ephemeral


async def test_a_file_over_the_upload_limit_is_refused(h: DiscordHarness) -> None:
    with pytest.raises(AssertionError, match=r"big.bin': 11534336 bytes > 10485760"):
        await h.slash(h.create_user("ann"), "post")
    assert h.requests_of("message_create")[-1].error == (400, 50035)


async def test_refusals_outside_interactions_fail_at_close() -> None:
    harness = DiscordHarness(Misbehaving)
    await harness.start()
    assert harness.bot is not None
    with pytest.raises(discord.HTTPException):  # the bot sees what Discord answers
        await harness.bot.http.send_message(harness.channel.id, params=handle_message_parameters(content=""))
    with pytest.raises(AssertionError, match=r"Discord refused: .*empty message"):
        await harness.close()


async def test_a_channel_message_cannot_be_ephemeral(h: DiscordHarness) -> None:
    params = handle_message_parameters(content="for everyone", flags=discord.MessageFlags(ephemeral=True))
    assert h.bot is not None
    await h.bot.http.send_message(h.channel.id, params=params)
    assert [m.content for m in h.public_messages()] == ["for everyone"], "Discord ignores EPHEMERAL here"


async def test_a_route_the_harness_does_not_know_fails_the_test(h: DiscordHarness) -> None:
    assert h.bot is not None
    with pytest.raises(discord.HTTPException):
        await h.bot.http.pin_message(h.channel.id, 1)
    assert any("the harness does not know PUT" in problem for problem in h.take_problems())


async def test_a_followup_after_the_loading_message_is_deleted_is_a_new_message(h: DiscordHarness) -> None:
    ann = h.create_user("ann")
    await h.slash(ann, "rethink")
    assert h.public_messages() == []
    assert [m.content for m in h.ephemeral_messages(ann)] == ["private after all"]
