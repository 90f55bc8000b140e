"""The part of ``DiscordHarness`` that acts as users (slash commands, autocomplete, buttons, selects,
modals) and answers what the bot did (visible messages, DMs, requests).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from tests.e2e.entities import Channel, Guild, Member, User
from tests.e2e.options import _typed, build_options, modal_submission, nest_options
from tests.e2e.records import InteractionRecord, InteractionResult, Request, SentMessage
from tests.e2e.responses import DiscordAnswers

_SELECTS = {3, 5, 6, 7, 8}


class UserActions(DiscordAnswers):
    """``await h.slash(alice, "table create", {...})``, ``h.click``, ``h.select``, ``h.submit_modal``, ..."""

    bot: discord.Client | None  # set by ``DiscordHarness``

    if TYPE_CHECKING:

        async def feed(self, event: str, data: dict[str, Any]) -> None: ...

        async def flush(self) -> None: ...

        async def settle(self) -> None: ...

        def _raise_problems(self) -> None: ...

    # ------------------------------------------------------------------ acting as users
    async def slash(
        self,
        user: User | Member,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel: Channel | None = None,
        guild: Guild | None = None,
    ) -> InteractionResult:
        """Run ``/command`` (``"table create"``: subcommand path after the root) as ``user``."""
        await self.flush()
        channel, guild = self._where(user, channel, guild)
        root, *path = command.split()
        definition, scope = self._command_def(root, guild)
        wrap, leaf = nest_options(definition, path)
        resolved: dict[str, dict[str, Any]] = {}
        opts = build_options(leaf, dict(options or {}), guild, resolved, command=command)
        data: dict[str, Any] = {
            "id": str(self._command_id(root)),
            "name": root,
            "type": 1,
            "options": wrap(opts),
        }
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return await self._interact(2, user, channel, data)

    async def autocomplete(
        self,
        user: User | Member,
        command: str,
        focused: str,
        options: dict[str, Any] | None = None,
        *,
        channel: Channel | None = None,
        guild: Guild | None = None,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` (value ``options[focused]``, default ""); returns the choices sent."""
        await self.flush()
        channel, guild = self._where(user, channel, guild)
        root, *path = command.split()
        definition, scope = self._command_def(root, guild)
        wrap, leaf = nest_options(definition, path)
        opts = build_options(leaf, dict(options or {}), guild, {}, focused=focused, command=command)
        data: dict[str, Any] = {
            "id": str(self._command_id(root)),
            "name": root,
            "type": 1,
            "options": wrap(opts),
        }
        if scope is not None:
            data["guild_id"] = str(scope)
        result = await self._interact(4, user, channel, data)
        assert result.choices is not None, f"/{command} {focused}: the bot sent no autocomplete result"
        return result.choices

    async def click(
        self,
        user: User | Member,
        target: SentMessage | int | str,
        custom_id: str | None = None,
        *,
        channel: Channel | None = None,
    ) -> InteractionResult:
        """Click a button: ``click(u, message, "custom_id")`` or ``click(u, "custom_id")`` (latest message
        showing it; if none, a message from "before the restart" carrying only that button)."""
        await self.flush()
        message, comp = self._component(user, target, custom_id, {2}, channel)
        assert not comp.get("disabled"), f"button {comp['custom_id']!r} is disabled"
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        return await self._interact(3, user, self.channels[message.channel_id], data, message)

    async def select(
        self,
        user: User | Member,
        custom_id: str,
        values: list[Any],
        *,
        message: SentMessage | int | None = None,
        channel: Channel | None = None,
    ) -> InteractionResult:
        """Pick ``values`` in a select menu (strings; users/roles/channels for entity selects)."""
        await self.flush()
        message_, comp = self._component(user, message or custom_id, custom_id, _SELECTS, channel, values)
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        assert low <= len(values) <= high, f"select {custom_id!r}: {len(values)} values not in {low}-{high}"
        resolved: dict[str, dict[str, Any]] = {}
        target = self.channels[message_.channel_id]
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            assert all(v in allowed for v in values), f"select {custom_id!r}: {values} not all in {allowed}"
            raw = [str(v) for v in values]
        else:
            kind = {5: 6, 6: 8, 7: 9, 8: 7}[comp["type"]]
            raw = [_typed(kind, v, target.guild, resolved, autocomplete=False) for v in values]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"], "values": raw}
        if resolved:
            data["resolved"] = resolved
        return await self._interact(3, user, target, data, message_)

    async def submit_modal(
        self, user: User | Member, custom_id: str, fields: dict[str, Any], *, channel: Channel | None = None
    ) -> InteractionResult:
        """Submit the modal ``custom_id`` last shown to ``user`` with ``fields`` {input custom_id: value}."""
        await self.flush()
        shown = next(
            (
                r
                for r in reversed(self.interactions.values())
                if r.modal and r.modal.get("custom_id") == custom_id and r.user.id == user.id
            ),
            None,
        )
        components = modal_submission(shown.modal if shown else None, fields)
        data = {"custom_id": custom_id, "components": components}
        message = self.messages.get(shown.message_id or 0) if shown else None
        where = channel or (shown.channel if shown else self._where(user, None, None)[0])
        try:
            return await self._interact(5, user, where, data, message)
        except AssertionError as exc:
            if shown is None:
                raise AssertionError(f"{exc} (no modal {custom_id!r} was shown to this user)") from None
            raise

    def _where(
        self, user: User | Member, channel: Channel | None, guild: Guild | None
    ) -> tuple[Channel, Guild | None]:
        if channel is None:
            guild = guild or (user.guild if isinstance(user, Member) else self.guild)
            channel = guild.channels[0]
        return channel, channel.guild

    def _command_def(self, root: str, guild: Guild | None) -> tuple[dict[str, Any], int | None]:
        tree = self.bot.tree  # type: ignore[union-attr]
        command = tree.get_command(root, guild=discord.Object(guild.id)) if guild else None
        if command is not None:
            return command.to_dict(tree), guild.id  # type: ignore[union-attr]
        command = tree.get_command(root)
        assert command is not None, f"no slash command /{root} (global or in {guild and guild.name})"
        return command.to_dict(tree), None

    def _component(
        self,
        user: User | Member,
        target: SentMessage | int | str,
        custom_id: str | None,
        types: set[int],
        channel: Channel | None,
        values: list[Any] = (),  # type: ignore[assignment]
    ) -> tuple[SentMessage, dict[str, Any]]:
        if isinstance(target, str):
            custom_id = custom_id or target
            seen = [m for m in self._visible(user) if m.component(custom_id)]
            if not seen:  # a message from a previous bot process: synthesize it with just this component
                comp = (
                    {"type": 2, "style": 1, "label": "?", "custom_id": custom_id}
                    if 2 in types
                    else {
                        "type": 3,
                        "custom_id": custom_id,
                        "max_values": len(values),
                        "min_values": 0,
                        "options": [{"label": str(v), "value": str(v)} for v in values],
                    }
                )
                req = Request(len(self.requests), "GHOST", "", "", {}, {}, "test", [])
                where = channel or self._where(user, None, None)[0]
                body = {"components": [{"type": 1, "components": [comp]}]}
                seen = [self._new_message(req, where, body, None)]
            target = seen[-1]
        message = self.messages[target] if isinstance(target, int) else target
        assert not message.deleted, f"message {message.id} was deleted"
        assert custom_id is not None, "which component? pass custom_id"
        found = message.component(custom_id)
        assert found is not None, f"message {message.id}: no {custom_id!r}; has {message.custom_ids}"
        assert found["type"] in types, f"component {custom_id!r} has type {found['type']}, wanted {types}"
        return message, found

    async def _interact(
        self,
        kind: int,
        user: User | Member,
        channel: Channel,
        data: dict[str, Any],
        message: SentMessage | None = None,
    ) -> InteractionResult:
        user = user.user if isinstance(user, Member) else user
        iid = self.ids.next()
        payload = self.interaction_payload(iid, kind, user, channel, data, message.data if message else None)
        rec = InteractionRecord(
            iid, payload["token"], kind, user, channel, payload, message.id if message else None
        )
        self.interactions[iid] = rec
        start = len(self.requests)
        rec.created = self.now()
        await self.feed("INTERACTION_CREATE", payload)
        await self.settle()
        self._raise_problems()
        assert kind == 4 or rec.responded_with is not None, (
            f"the bot never responded to interaction {data.get('name') or data.get('custom_id')!r}: "
            "the user sees 'This interaction failed'"
        )
        return InteractionResult(self, rec, self.requests[start:])  # type: ignore[arg-type]

    # ------------------------------------------------------------------ what the bot did
    def _visible(self, user: User | Member | None = None) -> list[SentMessage]:
        live = sorted((m for m in self.messages.values() if not m.deleted), key=lambda m: m.seq)
        return [m for m in live if m.visible_to is None or (user is not None and m.visible_to == user.id)]

    def public_messages(self, channel: Channel | None = None) -> list[SentMessage]:
        """Live, non-ephemeral guild messages (optionally in one channel), oldest first by creation."""
        return sorted(
            (
                m
                for m in self._visible()
                if m.dm_user_id is None
                and not m.ephemeral
                and (channel is None or m.channel_id == channel.id)
            ),
            key=lambda m: m.id,
        )

    def ephemeral_messages(self, user: User | Member) -> list[SentMessage]:
        return sorted((m for m in self._visible(user) if m.ephemeral), key=lambda m: m.id)

    def dms(self, user: User | Member) -> list[SentMessage]:
        """Messages successfully delivered to the user's DMs."""
        return sorted((m for m in self._visible() if m.dm_user_id == user.id), key=lambda m: m.id)

    def last_message(
        self, channel: Channel | None = None, user: User | Member | None = None
    ) -> SentMessage | None:
        """The most recently created or edited live message (ephemerals only if ``user`` sees them)."""
        found = [m for m in self._visible(user) if channel is None or m.channel_id == channel.id]
        return found[-1] if found else None

    def last_message_components(
        self, channel: Channel | None = None, user: User | Member | None = None
    ) -> list[dict[str, Any]]:
        message = self.last_message(channel, user)
        return message.components if message else []

    def requests_of(self, *kinds: str) -> list[Request]:
        return [r for r in self.requests if r.kind in kinds]
